package judge

import (
	"context"
	"sync"
	"time"

	"github.com/optjudge/optjudge/bytesize"
	"github.com/optjudge/optjudge/judge/sandbox"
)

// A test's run that sleeps (waits on a timer, or on the validator, or
// for a wall limit it will meet asleep) holds a CPU it does not use. Once
// it has used no CPU for asleepAfter, the Judge gives its token of
// MaxRuns back (it lends it), so that another run may use the CPU, and
// the grading starts another test in its place (crew). A lent run that
// wakes up runs on beside the token holders: its CPU time is its own and
// measured as ever; only its wall time may grow, which its wall limit
// (twice its CPU limit and a second by default; judge verify's raised
// runs 1.5 times and a second) leaves room for.
//
// Lent runs are bounded: at most maxAsleep at once, and the memory limits
// of those lent at once add up to half the machine's memory at most, so
// that sleepers that wake up cannot take more than the machine has.
const (
	asleepAfter = 500 * time.Millisecond
	maxAsleep   = 16
)

// lending counts the Judge's lent runs.
type lending struct {
	mu     sync.Mutex
	n      int
	memory bytesize.Size // the sum of their memory limits
	room   bytesize.Size // half the machine's memory; 0: unknown, none lent
}

// take lends a run with the memory limit mem, if there is room.
func (l *lending) take(mem bytesize.Size) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if mem <= 0 || l.n >= maxAsleep || l.memory+mem > l.room {
		return false
	}
	l.n++
	l.memory += mem
	return true
}

// give takes back what take lent.
func (l *lending) give(mem bytesize.Size) {
	l.mu.Lock()
	l.n--
	l.memory -= mem
	l.mu.Unlock()
}

// asleepKey carries a test's asleep hook in its context (withAsleep).
type asleepKey struct{}

// withAsleep returns ctx with a hook that the test's run calls, once, when
// the Judge lends its token away: the grading may then start another
// test in its place.
func withAsleep(ctx context.Context, asleep func()) context.Context {
	return context.WithValue(ctx, asleepKey{}, asleep)
}

// asleepHook is the hook withAsleep put in ctx; nil when none.
func asleepHook(ctx context.Context) func() {
	asleep, _ := ctx.Value(asleepKey{}).(func())
	return asleep
}

// watchAsleep watches a test's run (through its Probe) while it runs, and
// lends its token of MaxRuns away once it has used no CPU for
// asleepAfter, then calls the test's hook asleep (nil: not a test's run,
// nothing to watch). The returned func stops the watch and says whether
// the token was lent (then the run no longer holds it, and the lending
// is the caller's to give back).
func (j *Judge) watchAsleep(asleep func(), p *sandbox.Probe, mem bytesize.Size) (stop func() (lent bool)) {
	if asleep == nil || j.lent.room == 0 {
		return func() bool { return false }
	}
	done, watched := make(chan struct{}), make(chan struct{})
	lent := false
	go func() {
		defer close(watched)
		t := time.NewTicker(asleepAfter / 5)
		defer t.Stop()
		var last time.Duration
		var since time.Time
		for {
			select {
			case <-done:
				return
			case now := <-t.C:
				switch cpu := p.CPU(); {
				case !p.UnderWay() || cpu != last: // not yet under way, or running
					last, since = cpu, now
				case now.Sub(since) < asleepAfter:
				case j.lent.take(mem):
					lent = true
					<-j.runs
					asleep()
					return
				default:
					since = now // no room: look again later
				}
			}
		}
	}()
	return func() bool {
		close(done)
		<-watched
		return lent
	}
}
