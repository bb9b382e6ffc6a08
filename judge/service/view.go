package service

import (
	"context"
	"encoding/json"
	"sort"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// view is the server's copy of every submission record, kept current by a
// watch of the judge-submissions bucket, for lists, counts and metrics.
// Reads of one submission go to the bucket itself.
type view struct {
	mu    sync.RWMutex
	subs  map[string]*Submission
	ready chan struct{}

	// onChange is told every update after the initial values (old is nil
	// for a new submission).
	onChange func(old, new *Submission)
}

func newView(onChange func(old, new *Submission)) *view {
	return &view{subs: map[string]*Submission{}, ready: make(chan struct{}), onChange: onChange}
}

// run follows the bucket until ctx ends, watching again after a failure.
func (v *view) run(ctx context.Context, kv jetstream.KeyValue) {
	for ctx.Err() == nil {
		v.follow(ctx, kv)
		sleep(ctx, time.Second)
	}
}

func (v *view) follow(ctx context.Context, kv jetstream.KeyValue) {
	w, err := kv.WatchAll(ctx)
	if err != nil {
		return
	}
	defer w.Stop()
	initial := true
	for {
		select {
		case <-ctx.Done():
			return
		case e, ok := <-w.Updates():
			if !ok {
				return
			}
			if e == nil {
				if initial {
					initial = false
					select {
					case <-v.ready:
					default:
						close(v.ready)
					}
				}
				continue
			}
			v.apply(e, !initial)
		}
	}
}

func (v *view) apply(e jetstream.KeyValueEntry, live bool) {
	v.mu.Lock()
	old := v.subs[e.Key()]
	var sub *Submission
	if e.Operation() == jetstream.KeyValuePut {
		sub = &Submission{}
		if json.Unmarshal(e.Value(), sub) != nil {
			sub = nil
		}
	}
	if sub == nil {
		delete(v.subs, e.Key())
	} else {
		v.subs[e.Key()] = sub
	}
	v.mu.Unlock()
	if live && sub != nil && v.onChange != nil {
		v.onChange(old, sub)
	}
}

// waitReady waits for the initial values, up to d.
func (v *view) waitReady(d time.Duration) {
	select {
	case <-v.ready:
	case <-time.After(d):
	}
}

// filter selects submissions for a list.
type filter struct {
	Problem, User, State string
	Limit                int
}

// list returns the submissions that pass f, newest first.
func (v *view) list(f filter) []Submission {
	v.mu.RLock()
	out := make([]Submission, 0, len(v.subs))
	for _, s := range v.subs {
		if (f.Problem == "" || s.Problem == f.Problem) && (f.User == "" || s.User == f.User) && (f.State == "" || s.State == f.State) {
			out = append(out, *s)
		}
	}
	v.mu.RUnlock()
	sort.Slice(out, func(i, j int) bool {
		if !out[i].CreatedAt.Equal(out[j].CreatedAt) {
			return out[i].CreatedAt.After(out[j].CreatedAt)
		}
		return out[i].ID > out[j].ID
	})
	if f.Limit > 0 && len(out) > f.Limit {
		out = out[:f.Limit]
	}
	return out
}

// counts are the submissions by state, by verdict (of the done ones), the
// oldest queued request and the queued ones.
type counts struct {
	State       map[string]int
	Verdict     map[string]int
	OldestQueue time.Time
	Unfinished  []Submission
}

func (v *view) counts() counts {
	c := counts{State: map[string]int{StateQueued: 0, StateRunning: 0, StateDone: 0}, Verdict: map[string]int{}}
	v.mu.RLock()
	defer v.mu.RUnlock()
	for _, s := range v.subs {
		c.State[s.State]++
		if s.State == StateDone {
			c.Verdict[s.Verdict]++
			continue
		}
		c.Unfinished = append(c.Unfinished, *s)
		if s.State == StateQueued && (c.OldestQueue.IsZero() || s.QueuedAt.Before(c.OldestQueue)) {
			c.OldestQueue = s.QueuedAt
		}
	}
	return c
}
