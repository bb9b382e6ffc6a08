//go:build unix

package sandbox

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"time"

	"github.com/optjudge/optjudge/bytesize"
	"golang.org/x/sys/unix"
)

const (
	// pollEvery is how often the tree's CPU time (and, without a memory
	// cgroup, its resident memory) is read while it runs.
	pollEvery = 10 * time.Millisecond
	// killGrace is how long the supervisor gets to kill and reap the tree
	// after the judge asks it to before the judge kills everything itself.
	killGrace = 2 * time.Second
	// drainGrace is how long the judge keeps reading stdout and stderr after
	// the tree ended; only an escaped process could hold them longer.
	drainGrace = 250 * time.Millisecond
)

// box is one run's platform setup: the supervisor options, the descriptors
// they refer to (fd 4 on) and how to meter the tree. A run goes to a spare
// (sp) with only its own options, or to a supervisor cloned for it with the
// flags and all of them.
type box struct {
	sp      *spare
	key     string        // the mounts of the run, by which a warm spare is chosen
	cpuBase time.Duration // a warm spare's CPU time before the run
	flags   uintptr
	args    []string
	files   []*os.File
	meter   meter
	group   spareGroup // the cgroups of a run not on a spare, or nil
	release func() error
	entry   int64   // when Run was called, when tracing
	sink    *sinkFD // where stdout goes on (Cmd.StdoutPipe), or nil
}

// meter watches one run's process tree.
type meter interface {
	// bind tells the meter the supervisor's pid and start time, once the
	// zygote has reported them; until then poll and killAll do nothing.
	bind(pid int, start int64)
	// poll returns the tree's CPU time so far and, for a sampling meter, its
	// resident memory now (0 when memory is measured another way).
	poll() (cpu time.Duration, mem bytesize.Size)
	// killAll SIGKILLs every process of the run it can find.
	killAll()
	// finish returns the final figures once the tree has ended; the CPU
	// time only if asked (when the supervisor did not report it).
	finish(needCPU bool) (usage, error)
}

type usage struct {
	cpu       time.Duration
	cpuKnown  bool
	peak      bytesize.Size
	peakExact bool
	oomKilled bool
	// memReached: the memory cgroup recorded the tree at its limit
	memReached bool
}

// execution is one run in flight and what the judge reads from it.
type execution struct {
	z              *zygote
	id             uint64
	start, end     time.Time
	stdout, stderr *capture
	cpuBase        time.Duration // what the supervisor's end counts of earlier runs
	status         *runStatus    // the run's report
	life           *runStatus    // a spare's own report pipe (its pid, its end), or nil: status has them
	meter          meter
	bound          bool
	probe          *Probe // the caller's (Cmd.Probe), or nil
	probed         bool   // the probe sees the run

	// the tree's CPU time when last polled, and when it last grew
	// (Limits.SleepWall)
	lastCPU  time.Duration
	cpuGrown time.Time

	killed   bool
	killedBy Status
	canceled bool
	escalate time.Time // when to stop asking the supervisor to kill
	trace    []string  // the judge's own steps, when tracing
}

// mark notes a step of the run when tracing, on the supervisors' clock.
func (e *execution) mark(step string) {
	if e.trace != nil {
		e.trace = append(e.trace, strconv.FormatInt(monotonicMicros(), 10)+" "+step)
	}
}

func (s *system) run(ctx context.Context, c *Cmd) (res *Result, err error) {
	var entry int64
	if s.trace {
		entry = monotonicMicros()
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	lim := c.Limits.withDefaults()
	c, err = checkCmd(c)
	if err != nil {
		return nil, err
	}
	path, err := resolvePath(c)
	if err != nil {
		return nil, err
	}
	stdin, err := openStdin(c)
	if err != nil {
		return nil, err
	}
	defer stdin.Close()
	sink, err := openSink(c)
	if err != nil {
		return nil, err
	}
	defer sink.close()
	b, err := s.prepare(c, path, lim)
	if err != nil {
		return nil, err
	}
	b.sink = sink
	b.entry = entry
	// deferred, so that the run's cgroup and uid are given back even if
	// something below panics
	defer func() {
		if rerr := b.release(); rerr != nil && err == nil {
			res, err = nil, rerr
		}
	}()
	return s.execute(ctx, c, b, path, lim, stdin)
}

// probe runs a program that does nothing and checks that it ends well, so
// that New never returns a sandbox that cannot run anything.
func (s *system) probe() error {
	dir, err := os.MkdirTemp("", "optjudge-probe-")
	if err != nil {
		return fmt.Errorf("probe: %w", err)
	}
	defer os.RemoveAll(dir)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	res, err := s.run(ctx, &Cmd{Path: "true", Dir: dir, Limits: Limits{CPU: 5 * time.Second}})
	if err != nil {
		return fmt.Errorf("probe: %w", err)
	}
	if res.Status != OK {
		return fmt.Errorf("probe: /bin/true ended with %v (exit %d, signal %v, stderr %q)",
			res.Status, res.ExitCode, res.Signal, res.Stderr)
	}
	return nil
}

// checkCmd checks c's paths and returns a copy of c whose Dir is absolute
// and free of symbolic links (the box binds it at that path).
func checkCmd(c *Cmd) (*Cmd, error) {
	if c.Dir == "" {
		return nil, errors.New("sandbox: Cmd.Dir is empty")
	}
	abs, err := filepath.Abs(c.Dir)
	if err != nil {
		return nil, fmt.Errorf("sandbox: working directory: %w", err)
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, fmt.Errorf("sandbox: working directory: %w", err)
	}
	if fi, err := os.Stat(real); err != nil || !fi.IsDir() {
		return nil, fmt.Errorf("sandbox: working directory %s is not a directory", c.Dir)
	}
	for _, r := range c.ReadOnly {
		if !filepath.IsAbs(r) {
			return nil, fmt.Errorf("sandbox: read-only path %s is not absolute", r)
		}
		if _, err := os.Stat(r); err != nil {
			return nil, fmt.Errorf("sandbox: read-only path: %w", err)
		}
	}
	cc := *c
	cc.Dir = real
	cc.Writable = nil
	for _, w := range c.Writable {
		if !filepath.IsAbs(w) {
			return nil, fmt.Errorf("sandbox: writable directory %s is not absolute", w)
		}
		rw, err := filepath.EvalSymlinks(w)
		if err != nil {
			return nil, fmt.Errorf("sandbox: writable directory: %w", err)
		}
		if fi, err := os.Stat(rw); err != nil || !fi.IsDir() {
			return nil, fmt.Errorf("sandbox: writable directory %s is not a directory", w)
		}
		cc.Writable = append(cc.Writable, rw)
	}
	return &cc, nil
}

// execute starts the run, watches it and builds the result.
func (s *system) execute(ctx context.Context, c *Cmd, b *box, path string, lim Limits, stdin *os.File) (*Result, error) {
	e, err := s.start(c, b, path, lim, stdin)
	if err != nil {
		s.finishRun(b, nil, false)
		return nil, err
	}
	e.probe = c.Probe
	defer e.unprobe() // before the streams close, on every way out
	again := false    // the spare may serve another run
	defer func() { s.finishRun(b, e.status, again) }()
	watched := false
	defer func() {
		if !watched { // only on a panic: leave nothing running
			e.z.signal(e.id, syscall.SIGKILL)
			e.meter.killAll()
		}
	}()
	e.watch(ctx, lim)
	watched = true
	e.unprobe() // the tree has ended: nothing more to look at
	e.mark("judge:report")
	if e.status.report == "" {
		// no report: the supervisor died (killed by the judge or the OOM
		// killer, or a spare that could not build its box); its end tells
		// what it used, and what it left is killed
		e.waitEnd()
		e.meter.killAll()
	}
	e.drain()
	e.mark("judge:drained")
	rep, repErr := parseStatus(e.status.report)
	u, err := e.meter.finish(rep == nil)
	if err != nil {
		return nil, err
	}
	if e.canceled {
		return nil, ctx.Err()
	}
	r, err := e.result(rep, repErr, u, lim)
	again = rep != nil && rep.again && err == nil && !e.killed && !e.canceled
	if again && b.sp != nil {
		// the next run's base (the spare is ours until finishRun)
		b.sp.base = ticks(rep.childUser) + ticks(rep.childSys)
		b.sp.cpuBase = rep.childUser + rep.childSys + rep.self
	}
	if r != nil && e.trace != nil {
		e.mark("judge:result")
		e.waitEnd()
		r.trace = append(e.trace, e.status.trace...)
	}
	return r, err
}

// finishRun gives the run's spare back (to serve again, if again) or lets
// the run's supervisor and cgroups go; st is the run's report pipe, or nil
// if the run never started.
func (s *system) finishRun(b *box, st *runStatus, again bool) {
	switch {
	case b.sp != nil:
		if st != nil {
			st.close()
		}
		s.pool.done(b.sp, again, b.key)
	case b.group != nil:
		s.pool.retireGroup(b.group, st)
	case st != nil:
		st.close()
	}
}

// start hands the run to a spare, or to the zygote, with the contestant's
// standard streams.
func (s *system) start(c *Cmd, b *box, path string, lim Limits, stdin *os.File) (*execution, error) {
	var r [2]int // stdout, stderr: the judge's ends
	var w [2]*os.File
	for i := range r {
		var err error
		if r[i], w[i], err = pipe(); err != nil {
			for j := range i {
				unix.Close(r[j])
				w[j].Close()
			}
			return nil, err
		}
	}
	args := append([]string{"-s", "3", "-d", c.Dir}, b.args...)
	if s.trace {
		args = append(args, "-t")
	}
	for _, kv := range buildEnv(c) {
		args = append(args, "-E", kv)
	}
	args = append(args, helperLimits(lim)...)
	exe := execPath(c.Dir, path)
	args = append(args, "--", exe, exe)
	args = append(args, c.Args...)
	var trace []string
	if s.trace {
		trace = []string{strconv.FormatInt(b.entry, 10) + " judge:run", strconv.FormatInt(monotonicMicros(), 10) + " judge:request"}
	}
	var (
		id      uint64
		report  int
		reportW *os.File
		life    *runStatus
		err     error
	)
	if report, reportW, err = pipe(); err == nil {
		files := append([]*os.File{stdin, w[0], w[1], reportW}, b.files...)
		if b.sp != nil {
			id, life = b.sp.id, b.sp.life
			if b.sp.send(args, files) != nil {
				// a spare that died before its request (it could not set
				// up its box) has said why on its own report, where the run
				// reads it; one that lives on without its request must not
				// wait
				s.zyg.signal(id, syscall.SIGKILL)
			}
		} else {
			id, err = s.zyg.fresh(b.flags, args, files)
		}
		reportW.Close()
		if err != nil {
			unix.Close(report)
		}
	}
	start := time.Now()
	if b.sp != nil {
		s.pool.refill() // for the next run, while this one runs
	}
	w[0].Close()
	w[1].Close()
	if err != nil {
		unix.Close(r[0])
		unix.Close(r[1])
		return nil, err
	}
	return &execution{
		z: s.zyg, id: id, start: start, status: newRunStatus(report), life: life, meter: b.meter, trace: trace,
		cpuBase: b.cpuBase,
		stdout:  &capture{fd: r[0], limit: int64(lim.Output), sink: b.sink},
		stderr:  &capture{fd: r[1], limit: int64(lim.Stderr)},
	}, nil
}

// execPath is the program's path for the exec: relative to the working
// directory (where the program starts) when it lies inside it, so that a
// box uid at level none, which may not pass the judge's private
// directories above it, still reaches it.
func execPath(dir, path string) string {
	if rel, err := filepath.Rel(dir, path); err == nil && filepath.IsLocal(rel) {
		return "./" + rel
	}
	return path
}

// helperLimits are the rlimit options: CPU backstop, file size, open files,
// no core dumps, and a stack as large as the memory limit so that deep
// recursion works. RLIMIT_AS is not used: it counts virtual memory, and a Go
// program alone reserves hundreds of megabytes of it.
func helperLimits(lim Limits) []string {
	var a []string
	r := func(res int, soft, hard string) { a = append(a, "-r", strconv.Itoa(res), soft, hard) }
	if lim.CPU > 0 {
		soft, hard := cpuRlimit(lim.CPU)
		r(rlimitCPU, strconv.FormatUint(soft, 10), strconv.FormatUint(hard, 10))
	}
	fs := strconv.FormatInt(int64(lim.FileSize), 10)
	r(rlimitFSIZE, fs, fs)
	nf := strconv.Itoa(lim.OpenFiles)
	r(rlimitNOFILE, nf, nf)
	r(rlimitCORE, "0", "0")
	stack := "inf"
	if lim.Memory > 0 {
		stack = strconv.FormatInt(int64(lim.Memory), 10)
	}
	r(rlimitSTACK, stack, stack)
	return a
}

// watch waits for the run's report (or the supervisor's end) while polling
// the tree, and kills it at a limit, on an output overflow or when ctx ends.
// It waits on the report pipe itself, up to pollEvery at a time, and looks
// at the rest in between.
func (e *execution) watch(ctx context.Context, lim Limits) {
	var wall time.Time
	if lim.Wall > 0 {
		wall = e.start.Add(lim.Wall)
	}
	nextPoll := e.start.Add(pollEvery)
	for {
		timeout := pollEvery
		if !wall.IsZero() {
			timeout = min(timeout, max(time.Until(wall), 0))
		}
		e.wait(timeout, e.status.done)
		if e.status.done() {
			e.end = time.Now()
			return
		}
		if !e.bound {
			e.bind()
		}
		if e.bound && e.probe != nil && !e.probed {
			e.probed = true
			e.probe.attach(e)
		}
		now := time.Now()
		switch {
		case ctx.Err() != nil && !e.canceled:
			e.canceled = true
			e.kill(StatusUnknown)
		case !wall.IsZero() && !now.Before(wall):
			wall = time.Time{}
			e.kill(WallTimeLimit)
		case e.stdout.total > e.stdout.limit:
			e.kill(OutputLimit)
		case !e.killed && e.probe.stopped():
			e.kill(Stalled)
		case !now.Before(nextPoll):
			nextPoll = now.Add(pollEvery)
			if st := e.check(lim); st != StatusUnknown {
				e.kill(st)
			}
		}
		if e.killed && !e.escalate.IsZero() && !now.Before(e.escalate) {
			// the supervisor did not answer: kill it and everything we can find
			e.z.signal(e.id, syscall.SIGKILL)
			e.meter.killAll()
			e.escalate = time.Time{}
		}
	}
}

// unprobe hides the run from its probe (once its tree has ended, or on a
// panic), before its streams are closed.
func (e *execution) unprobe() {
	if e.probed {
		e.probed = false
		e.probe.detach()
	}
}

// bind tells the meter the supervisor's pid, once the zygote has written it.
func (e *execution) bind() {
	st := e.status
	if e.life != nil {
		st = e.life
		st.read()
	}
	if st.pid != 0 {
		e.bound = true
		e.meter.bind(st.pid, st.start)
	}
}

// check polls the tree and returns the limit it broke, if any.
func (e *execution) check(lim Limits) Status {
	cpu, mem := e.meter.poll()
	if e.probe != nil {
		e.probe.cpu.Store(int64(cpu))
	}
	now := time.Now()
	if cpu != e.lastCPU || e.cpuGrown.IsZero() {
		e.lastCPU, e.cpuGrown = cpu, now
	}
	switch {
	case lim.CPU > 0 && cpu > lim.CPU:
		return TimeLimit
	case lim.Memory > 0 && mem > lim.Memory:
		return MemoryLimit
	case lim.SleepWall > 0 && lim.SleepWall < lim.Wall && now.Sub(e.start) >= lim.SleepWall && now.Sub(e.cpuGrown) >= SleepFor && e.asleep():
		return WallTimeLimit
	}
	return StatusUnknown
}

// kill asks the supervisor to kill the tree (once; the first reason wins).
func (e *execution) kill(reason Status) {
	if e.killed {
		return
	}
	e.killed = true
	e.killedBy = reason
	e.z.signal(e.id, syscall.SIGTERM)
	e.escalate = time.Now().Add(killGrace)
}

// drain reads stdout and stderr to their end, and passes the rest of
// stdout on to its sink, cutting them off if something outside the box
// still holds them or the sink's reader takes nothing for drainGrace.
func (e *execution) drain() {
	ended := func() bool { return e.stdout.done() && e.stderr.done() }
	deadline := time.Now().Add(drainGrace)
	for !ended() {
		left := time.Until(deadline)
		if left <= 0 {
			break
		}
		passed := e.stdout.passed
		e.wait(left, ended)
		if e.stdout.passed != passed {
			deadline = time.Now().Add(drainGrace)
		}
	}
	e.stdout.close()
	e.stderr.close()
}
