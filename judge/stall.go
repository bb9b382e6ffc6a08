package judge

import (
	"os"
	"slices"
	"time"

	"github.com/optjudge/optjudge/judge/sandbox"
)

// stallEvery is how often an interaction's stall watch looks: at the
// sandbox's CPU figures each time, and closer (at /proc) once both sides'
// CPU time has stood still for two looks; two close looks that far apart
// agree before a stall is declared, so one is seen 0.3-0.4 s after it
// begins.
const stallEvery = 100 * time.Millisecond

// noStallWatch turns the stall watch off, for the benchmark that measures
// what it costs.
var noStallWatch bool

// stallWatch finds the state of an interaction from which neither side can
// ever go on: the submission and the validator each asleep waiting for the
// other's input, which is nowhere on its way. Then the submission is
// stopped (sandbox.Stalled: TLE at once, not at its wall limit) and the
// validator, reading the end of the submission's output, decides as it
// does after a wall-time kill. The rule, exact where Linux's /proc shows
// it and never met elsewhere (the wall limit applies, as before):
//
//   - every thread of every process of the submission's box and of the
//     validator's box (the sandbox's supervisors aside, zombies counting
//     for nothing) is asleep in read(2)/readv(2) on a pipe (wchan
//     pipe_read), the submission's threads on its input pipe, the
//     validator's on its: any thread running, or asleep in anything else
//     (nanosleep, a futex, poll or select, a pipe write, another pipe),
//     and any process with a POSIX timer, is no stall;
//
//   - both pipes are empty (FIONREAD on the judge's read ends), and so is
//     what the judge relays of each side's output (its pipe and what the
//     sandbox holds of it): the judge holds the only other write ends
//     and writes to them only what it relays;
//
//   - all that holds within each look (the threads seen before and after
//     the pipes, upstream to downstream) and again at a second look
//     stallEvery later, with the same threads, none of which was given a
//     CPU in between (/proc/PID/task/TID/schedstat);
//
//   - then, no process of the machine has an alarm(2) or setitimer(2)
//     real-time timer running (/proc/timer_list, which only root reads):
//     the kernel shows no process's own, and SIGALRM would wake (or end)
//     a program asleep reading. POSIX timers it shows per process
//     (/proc/PID/timers: a process with one is no stall), and the
//     CPU-time timers cannot fire while their process sleeps.
//
// The watch reads the CPU figures every stallEvery, and looks closer only
// once both sides' have stood still for two of them.
type stallWatch struct {
	sub, val         *sandbox.Probe
	toSubR, fromSubR *os.File // the judge's read ends of the submission's input and the validator's
	toSub, fromSub   uint64   // their pipes' inodes
	// release, when set, lets the submission read the end of its input:
	// the watch calls it once, when the validator has closed its
	// standard output (all of which went on) and is seen asleep reading
	// the submission's, so is neither ending nor about to
	release func()
}

// stallLook is one close look at both sides.
type stallLook struct{ sub, val sandbox.Waiting }

// releaseEvery is how often the watch looks for a validator that has
// closed its output, while one could (stallWatch.release).
const releaseEvery = 10 * time.Millisecond

// watch looks until a stall is seen (true) or done is closed (false).
func (s *stallWatch) watch(done <-chan struct{}) bool {
	stalls := s.toSub != 0 && s.fromSub != 0 && !noStallWatch // else the wall limit decides, as ever
	if !stalls && s.release == nil {
		return false
	}
	every := stallEvery
	if s.release != nil {
		every = releaseEvery
	}
	t := time.NewTicker(every)
	defer t.Stop()
	next := time.Now().Add(stallEvery) // the stall watch's next look
	var lastSub, lastVal time.Duration
	quiet := 0
	var seen *stallLook
	for {
		var now time.Time
		select {
		case <-done:
			return false
		case now = <-t.C:
		}
		if s.release != nil && s.valClosed() {
			s.release()
			s.release = nil
			every = stallEvery
			t.Reset(every)
			quiet, seen = 0, nil
			continue
		}
		if !stalls || (every != stallEvery && now.Before(next)) {
			// between the stall watch's looks (ticks a stallEvery
			// apart need no such gate: their times jitter)
			continue
		}
		next = now.Add(stallEvery)
		sc, vc := s.sub.CPU(), s.val.CPU()
		if sc != lastSub || vc != lastVal {
			lastSub, lastVal, quiet, seen = sc, vc, 0, nil
			continue
		}
		if quiet++; quiet < 2 {
			continue
		}
		l, ok := s.look()
		switch {
		case !ok:
			seen = nil
		case s.release != nil && s.val.OutputClosed():
			seen = nil // no stall: the submission is about to see its input end
		case seen != nil && l.sub.Same(seen.sub) && l.val.Same(seen.val):
			if armed, known := alarmsArmed(); known && !armed {
				return true
			}
			seen = nil // an alarm could wake one: look again
		default:
			seen = &l
		}
	}
}

// valClosed says whether the validator has closed its standard output
// and is asleep reading: it runs on, and is not ending.
func (s *stallWatch) valClosed() bool {
	if !s.val.OutputClosed() {
		return false
	}
	_, ok := s.val.Waiting()
	return ok
}

// look takes one close look: both sides asleep on their input pipes,
// nothing on its way to either, and the same threads, none of which ran,
// after the pipes as before them.
func (s *stallWatch) look() (stallLook, bool) {
	var a, b stallLook
	var ok bool
	if a.sub, ok = s.sub.Waiting(); !ok || !only(a.sub, s.toSub) {
		return a, false
	}
	if a.val, ok = s.val.Waiting(); !ok || !only(a.val, s.fromSub) {
		return a, false
	}
	for _, f := range []*os.File{s.toSubR, s.fromSubR} {
		if n, ok := pipeHolds(f); !ok || n > 0 {
			return a, false
		}
	}
	if b.sub, ok = s.sub.Waiting(); !ok || !b.sub.Same(a.sub) || b.sub.Held > 0 {
		return a, false
	}
	if b.val, ok = s.val.Waiting(); !ok || !b.val.Same(a.val) || b.val.Held > 0 {
		return a, false
	}
	return a, true
}

// only says whether w saw every thread wait on the pipe ino and nothing
// held back.
func only(w sandbox.Waiting, ino uint64) bool {
	return w.Held == 0 && slices.Equal(w.Pipes, []uint64{ino})
}
