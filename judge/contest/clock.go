package contest

import (
	"sync"
	"time"
)

// Clock tells the time of the contest. The service takes it from the
// system; a test moves a ManualClock, so that nothing waits on the wall
// clock for a contest to start, freeze or end.
type Clock interface {
	Now() time.Time
}

// SystemClock is the machine's clock.
type SystemClock struct{}

func (SystemClock) Now() time.Time { return time.Now() }

// ManualClock is a clock that moves only when told; it tells those who
// asked (OnChange) each time it moves.
type ManualClock struct {
	mu   sync.Mutex
	t    time.Time
	subs []func()
}

// NewManualClock is a clock standing at t.
func NewManualClock(t time.Time) *ManualClock { return &ManualClock{t: t} }

func (c *ManualClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

// Set moves the clock to t.
func (c *ManualClock) Set(t time.Time) {
	c.mu.Lock()
	c.t = t
	subs := append([]func(){}, c.subs...)
	c.mu.Unlock()
	for _, f := range subs {
		f()
	}
}

// Advance moves the clock by d.
func (c *ManualClock) Advance(d time.Duration) { c.Set(c.Now().Add(d)) }

// OnChange has f called after each move.
func (c *ManualClock) OnChange(f func()) {
	c.mu.Lock()
	c.subs = append(c.subs, f)
	c.mu.Unlock()
}

// State is the contest's state as the Contest API has it: when each step
// happened, nil for a step not reached. The steps come in this order:
// started, frozen, ended, then thawed and finalized in either order.
type State struct {
	Started      *time.Time
	Frozen       *time.Time
	Ended        *time.Time
	Thawed       *time.Time
	Finalized    *time.Time
	EndOfUpdates *time.Time
}

// Progress is what an admin did to the state: thawed the board,
// finalized the results (zero when not done).
type Progress struct {
	Thawed    time.Time `json:"thawed,omitzero"`
	Finalized time.Time `json:"finalized,omitzero"`
}

// StateAt is the state at now, given what an admin did.
func (c *Contest) StateAt(now time.Time, p Progress) State {
	var s State
	at := func(t time.Time) *time.Time {
		if t.IsZero() || now.Before(t) {
			return nil
		}
		return &t
	}
	if c.Start.IsZero() {
		return s
	}
	s.Started = at(c.Start)
	s.Frozen = at(c.FreezeAt())
	s.Ended = at(c.End())
	if s.Ended != nil {
		if s.Frozen != nil && !p.Thawed.IsZero() {
			t := maxTime(p.Thawed, c.End())
			s.Thawed = &t
		}
		if !p.Finalized.IsZero() {
			t := maxTime(p.Finalized, c.End())
			s.Finalized = &t
		}
		if s.Finalized != nil && (s.Frozen == nil || s.Thawed != nil) {
			t := *s.Finalized
			if s.Thawed != nil {
				t = maxTime(t, *s.Thawed)
			}
			s.EndOfUpdates = &t
		}
	}
	return s
}

func maxTime(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

// Running says whether the contest takes submissions at now.
func (c *Contest) Running(now time.Time) bool {
	return !c.Start.IsZero() && !now.Before(c.Start) && now.Before(c.End())
}

// Started says whether the problems are out at now.
func (c *Contest) Started(now time.Time) bool { return !c.Start.IsZero() && !now.Before(c.Start) }

// FrozenFor says whether the board hides a submission made at t from the
// public: made after the freeze, and the board not thawed.
func (c *Contest) FrozenFor(t time.Time, p Progress) bool {
	f := c.FreezeAt()
	return !f.IsZero() && !t.Before(f) && p.Thawed.IsZero()
}
