package sandbox

import (
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// Probe looks into a run while it runs (Cmd.Probe), for a caller that
// judges whether the run can still make progress, and stops it when it
// cannot: an interactive problem's judge, whose submission and validator
// may each wait for the other's input forever. The zero value is ready;
// a Probe serves one run at a time.
type Probe struct {
	mu   sync.Mutex
	run  prober // the run, from when its tree is known until it has ended; nil otherwise
	stop atomic.Bool
	cpu  atomic.Int64 // the tree's CPU time at the sandbox's last poll
}

// prober is a run in flight as a Probe sees it.
type prober interface {
	waiting() (Waiting, bool)
	outputClosed() bool
}

// Waiting is one look at a run whose every thread was asleep reading a
// pipe (Probe.Waiting).
type Waiting struct {
	// Pipes are the pipes (their inode numbers) that its threads wait to
	// read, each once, in increasing order.
	Pipes []uint64
	// Threads are the ids of the threads seen, in increasing order.
	Threads []int
	// Runs counts how many times those threads have been given a CPU so
	// far: two looks with the same threads and the same Runs saw a tree
	// none of whose threads ran in between.
	Runs uint64
	// Held is how many bytes of the run's standard output the sandbox has
	// not yet passed on to Cmd.StdoutPipe (in the program's pipe, or read
	// and held); 0 without a StdoutPipe.
	Held int64
}

// Same says whether two looks saw the same threads, none of which ran
// between them.
func (w Waiting) Same(o Waiting) bool {
	return w.Runs == o.Runs && slices.Equal(w.Threads, o.Threads)
}

// Waiting looks at the run. It returns ok only if the run is under way
// (its tree is known and has not ended), the system shows what each
// thread waits for (Linux's /proc/PID/task/TID/wchan and syscall), and
// every thread of every process of the program's tree (the sandbox's own
// supervisor aside; a zombie counts for nothing) is asleep in read(2) or
// readv(2) on a pipe, in a process with no POSIX timer that could wake
// it. Anything else (a thread running, asleep in nanosleep, a futex, poll
// or select, stopped, or a /proc that says less) is not ok.
func (p *Probe) Waiting() (w Waiting, ok bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.run == nil {
		return Waiting{}, false
	}
	return p.run.waiting()
}

// OutputClosed says whether the run's standard output has reached its
// end while the run is under way: every process of it closed it, all it
// wrote went on to Cmd.StdoutPipe, and the sandbox closed its own copy
// of that pipe, so its reader sees the end once the caller lets go of
// the caller's copies. Whether the run still goes on, or is ending,
// Waiting tells: a run seen asleep reading is not ending.
func (p *Probe) OutputClosed() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.run != nil && p.run.outputClosed()
}

// UnderWay says whether the run is under way: its tree is known and has
// not ended.
func (p *Probe) UnderWay() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.run != nil
}

// CPU is the run's CPU time as the sandbox last polled it (every few
// milliseconds, to a clock tick), for a caller that waits for it to stand
// still before it looks closer; 0 before the run.
func (p *Probe) CPU() time.Duration { return time.Duration(p.cpu.Load()) }

// Stop asks the sandbox to kill the run's tree; the run then ends as
// Stalled (unless a limit came first). A run not yet under way is killed
// as soon as it is.
func (p *Probe) Stop() { p.stop.Store(true) }

// attach makes the run r visible to the probe.
func (p *Probe) attach(r prober) {
	p.mu.Lock()
	p.run = r
	p.mu.Unlock()
}

// detach hides the run once its tree has ended (before the sandbox closes
// what the probe reads).
func (p *Probe) detach() {
	p.mu.Lock()
	p.run = nil
	p.mu.Unlock()
}

// stopped says whether the caller asked to stop the run.
func (p *Probe) stopped() bool { return p != nil && p.stop.Load() }
