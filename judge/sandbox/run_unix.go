//go:build unix

package sandbox

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"time"

	"github.com/optjudge/optjudge/judge/bytesize"
)

const (
	// pollEvery is how often the tree's CPU time (and, without a memory
	// cgroup, its resident memory) is read while it runs.
	pollEvery = 10 * time.Millisecond
	// killGrace is how long the helper gets to kill and reap the tree after
	// the judge asks it to before the judge kills everything itself.
	killGrace = 2 * time.Second
	// drainGrace is how long the judge keeps reading stdout and stderr after
	// the helper exited; only an escaped process could hold them longer.
	drainGrace = 250 * time.Millisecond
)

// box is one run's platform setup: the helper options, the descriptors they
// refer to (fd 4 on) and how to meter and kill the tree.
type box struct {
	args     []string
	files    []*os.File
	attr     *syscall.SysProcAttr
	newMeter func(helperPid int) meter
	release  func() error
}

// meter watches one run's process tree.
type meter interface {
	// poll returns the tree's CPU time so far and, for a sampling meter, its
	// resident memory now (0 when memory is measured another way).
	poll() (cpu time.Duration, mem bytesize.Size)
	// killAll SIGKILLs every process of the run it can find.
	killAll()
	// finish returns the final figures once the helper has exited.
	finish() (usage, error)
}

type usage struct {
	cpu       time.Duration
	cpuKnown  bool
	peak      bytesize.Size
	peakExact bool
	oomKilled bool
}

// execution is one started helper and what the judge reads from it.
type execution struct {
	proc           *os.Process
	start, end     time.Time
	stdout, stderr *capture
	status         *os.File
	meter          meter

	killOnce sync.Once
	killedBy Status
	canceled bool
}

func (s *system) run(ctx context.Context, c *Cmd) (res *Result, err error) {
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
	b, err := s.prepare(c, path, lim)
	if err != nil {
		return nil, err
	}
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
	return &cc, nil
}

// execute starts the helper, watches it and builds the result.
func (s *system) execute(ctx context.Context, c *Cmd, b *box, path string, lim Limits, stdin *os.File) (*Result, error) {
	e, err := s.start(c, b, path, lim, stdin)
	if err != nil {
		return nil, err
	}
	waited := false
	defer func() {
		if !waited { // only on a panic: leave nothing running
			e.proc.Kill()
			e.meter.killAll()
			e.proc.Wait()
		}
	}()
	state, err := e.watch(ctx, lim)
	waited = true
	if err != nil {
		return nil, err
	}
	e.meter.killAll()
	e.drain()
	rep, repErr := readReport(e.status)
	e.status.Close()
	u, err := e.meter.finish()
	if err != nil {
		return nil, err
	}
	if e.canceled {
		return nil, ctx.Err()
	}
	return e.result(rep, repErr, state, u, lim)
}

// start launches the helper with the contestant's standard streams.
func (s *system) start(c *Cmd, b *box, path string, lim Limits, stdin *os.File) (*execution, error) {
	outR, outW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("sandbox: %w", err)
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		outR.Close()
		outW.Close()
		return nil, fmt.Errorf("sandbox: %w", err)
	}
	stR, stW, err := os.Pipe()
	if err != nil {
		outR.Close()
		outW.Close()
		errR.Close()
		errW.Close()
		return nil, fmt.Errorf("sandbox: %w", err)
	}
	args := append([]string{s.helper, "-s", "3", "-d", c.Dir}, b.args...)
	args = append(args, helperLimits(lim)...)
	args = append(args, "--", path, path)
	args = append(args, c.Args...)
	files := append([]*os.File{stdin, outW, errW, stW}, b.files...)
	proc, err := os.StartProcess(s.helper, args, &os.ProcAttr{
		Dir: "/", Env: buildEnv(c), Files: files, Sys: b.attr,
	})
	start := time.Now()
	outW.Close()
	errW.Close()
	stW.Close()
	if err != nil {
		outR.Close()
		errR.Close()
		stR.Close()
		return nil, fmt.Errorf("sandbox: starting helper: %w", err)
	}
	e := &execution{
		proc: proc, start: start, status: stR, meter: b.newMeter(proc.Pid),
		stdout: newCapture(outR, lim.Output, true),
		stderr: newCapture(errR, lim.Stderr, false),
	}
	go e.stdout.loop()
	go e.stderr.loop()
	return e, nil
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

// watch waits for the helper while polling the tree, and kills it at a
// limit, on an output overflow or when ctx ends.
func (e *execution) watch(ctx context.Context, lim Limits) (*os.ProcessState, error) {
	done := make(chan struct{})
	var state *os.ProcessState
	var werr error
	go func() {
		state, werr = e.proc.Wait()
		close(done)
	}()
	tick := time.NewTicker(pollEvery)
	defer tick.Stop()
	var wall <-chan time.Time
	if lim.Wall > 0 {
		t := time.NewTimer(lim.Wall)
		defer t.Stop()
		wall = t.C
	}
	var escalate <-chan time.Time
	kill := func(reason Status) {
		if c := e.kill(reason); c != nil {
			escalate = c
		}
	}
	overflow := e.stdout.overflow
	cancel := ctx.Done()
	for {
		select {
		case <-done:
			e.end = time.Now()
			if werr != nil {
				return nil, fmt.Errorf("sandbox: waiting for helper: %w", werr)
			}
			return state, nil
		case <-cancel:
			cancel = nil
			e.canceled = true
			kill(StatusUnknown)
		case <-wall:
			kill(WallTimeLimit)
		case <-overflow:
			overflow = nil
			kill(OutputLimit)
		case <-tick.C:
			if st := e.check(lim); st != StatusUnknown {
				kill(st)
			}
		case <-escalate:
			// the helper did not answer: kill it and everything we can find
			e.proc.Kill()
			e.meter.killAll()
			escalate = nil
		}
	}
}

// check polls the tree and returns the limit it broke, if any.
func (e *execution) check(lim Limits) Status {
	cpu, mem := e.meter.poll()
	switch {
	case lim.CPU > 0 && cpu > lim.CPU:
		return TimeLimit
	case lim.Memory > 0 && mem > lim.Memory:
		return MemoryLimit
	}
	return StatusUnknown
}

// kill asks the helper to kill the tree (once; the first reason wins) and
// returns the channel that fires when it is time to stop asking.
func (e *execution) kill(reason Status) <-chan time.Time {
	var c <-chan time.Time
	e.killOnce.Do(func() {
		e.killedBy = reason
		e.proc.Signal(syscall.SIGTERM)
		c = time.After(killGrace)
	})
	return c
}

// drain waits for stdout and stderr to reach end of file, cutting them off if
// something outside the helper still holds them.
func (e *execution) drain() {
	t := time.NewTimer(drainGrace)
	defer t.Stop()
	for _, c := range []*capture{e.stdout, e.stderr} {
		select {
		case <-c.done:
		case <-t.C:
			e.stdout.f.SetReadDeadline(time.Now())
			e.stderr.f.SetReadDeadline(time.Now())
		}
	}
	<-e.stdout.done
	<-e.stderr.done
	e.stdout.f.Close()
	e.stderr.f.Close()
}

// capture reads one output stream, keeping up to limit bytes.
type capture struct {
	f        *os.File
	limit    int64
	buf      []byte
	total    int64
	overflow chan struct{} // closed when total passes limit (stdout only)
	done     chan struct{}
}

func newCapture(f *os.File, limit bytesize.Size, signal bool) *capture {
	c := &capture{f: f, limit: int64(limit), done: make(chan struct{})}
	if signal {
		c.overflow = make(chan struct{})
	}
	return c
}

func (c *capture) loop() {
	defer close(c.done)
	chunk := make([]byte, 64<<10)
	for {
		n, err := c.f.Read(chunk)
		if keep := min(int64(n), c.limit-int64(len(c.buf))); keep > 0 {
			c.buf = append(c.buf, chunk[:keep]...)
		}
		before := c.total
		c.total += int64(n)
		if c.overflow != nil && before <= c.limit && c.total > c.limit {
			close(c.overflow)
		}
		if err != nil {
			return
		}
	}
}
