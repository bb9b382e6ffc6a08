//go:build unix

package sandbox

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/optjudge/optjudge/bytesize"
)

// report is the helper's last line: how the contestant ended and what the
// whole reaped tree used.
type report struct {
	signaled     bool
	code         int // exit status or signal number
	utime, stime time.Duration
	maxRSS       bytesize.Size // largest single process
	wall         time.Duration // fork to reap of the contestant
	again        bool          // the supervisor, a resident spare, serves another run
	// the supervisor's figures so far, over all its runs: its reaped
	// children's user and system time, and its own time
	childUser, childSys, self time.Duration
}

// clockTick is the unit of the times in /proc/<pid>/stat (USER_HZ, 100 on
// every Linux architecture Go supports).
const clockTick = 10 * time.Millisecond

// ticks is d in the clock ticks of /proc/<pid>/stat, as the kernel rounds
// (down) a process's reaped children's time there.
func ticks(d time.Duration) int64 { return int64(d / clockTick) }

// parseStatus reads the supervisor's report line. It returns (nil, nil)
// when there was none (the supervisor was killed), and an error when it
// reported a failure to set up the box or to exec the program.
func parseStatus(line string) (*report, error) {
	line = strings.TrimSpace(line)
	if line == "" {
		return nil, nil
	}
	if rest, ok := strings.CutPrefix(line, "err "); ok {
		errno, msg, _ := strings.Cut(rest, " ")
		n, _ := strconv.Atoi(errno)
		return nil, &HelperError{Errno: syscall.Errno(n), Msg: msg}
	}
	return parseReport(line)
}

func parseReport(line string) (*report, error) {
	f := strings.Fields(line)
	if len(f) != 12 || f[0] != "ok" {
		return nil, fmt.Errorf("sandbox: bad helper report %q", line)
	}
	// code utime stime maxrss wall killed again childutime childstime self
	var n [10]int64
	for i := range n {
		v, err := strconv.ParseInt(f[i+2], 10, 64)
		if err != nil {
			return nil, fmt.Errorf("sandbox: bad helper report %q", line)
		}
		n[i] = v
	}
	us := func(v int64) time.Duration { return time.Duration(v) * time.Microsecond }
	return &report{
		signaled:  f[1] == "signal",
		code:      int(n[0]),
		utime:     us(n[1]),
		stime:     us(n[2]),
		maxRSS:    bytesize.Size(n[3]) * bytesize.KiB,
		wall:      us(n[4]),
		again:     n[6] == 1,
		childUser: us(n[7]),
		childSys:  us(n[8]),
		self:      us(n[9]),
	}, nil
}

// describeExit says how the supervisor ended, for an error message.
func (st *runStatus) describeExit() string {
	switch x := st.exit; {
	case x == nil:
		return "its end is unknown"
	case x.status.Signaled():
		return "signal: " + x.status.Signal().String()
	default:
		return fmt.Sprintf("exit status %d", x.status.ExitStatus())
	}
}

// HelperError is a failure the helper reported: the box could not be set up
// or the program could not be executed.
type HelperError struct {
	Errno syscall.Errno
	Msg   string
}

func (e *HelperError) Error() string { return "sandbox: " + e.Msg }

// Unwrap lets errors.Is(err, fs.ErrNotExist) and the like work.
func (e *HelperError) Unwrap() error { return e.Errno }

// ExecFailure reports the errno of err when err says that the program's
// exec failed (the program is not one the machine can run: ENOEXEC, or a
// missing interpreter), as opposed to a failure to set up its box.
func ExecFailure(err error) (syscall.Errno, bool) {
	var he *HelperError
	if errors.As(err, &he) && strings.HasPrefix(he.Msg, "exec ") {
		return he.Errno, true
	}
	return 0, false
}

// result combines the report, the supervisor's end and the meter.
func (e *execution) result(rep *report, repErr error, u usage, lim Limits) (*Result, error) {
	if repErr != nil {
		return nil, repErr
	}
	r := &Result{
		Stdout:          e.stdout.buf,
		Stderr:          e.stderr.buf,
		StderrTruncated: e.stderr.total > e.stderr.limit,
		OutputExceeded:  e.stdout.total > e.stdout.limit,
		KilledBy:        e.killedBy,
		OOMKilled:       u.oomKilled,
		MemoryReached:   u.memReached || u.oomKilled,
		Memory:          u.peak,
		MemoryExact:     u.peakExact,
		Wall:            e.end.Sub(e.start),
	}
	switch {
	case rep != nil:
		r.CPU = rep.utime + rep.stime
		r.Wall = rep.wall
		if rep.signaled {
			r.Signal = syscall.Signal(rep.code)
		} else {
			r.ExitCode = rep.code
		}
		if !u.peakExact {
			r.Memory = max(r.Memory, rep.maxRSS)
		}
	case e.killedBy != StatusUnknown || u.oomKilled:
		// killed with the supervisor (the judge kills it when it does not
		// answer): the tree was SIGKILLed
		r.Signal = syscall.SIGKILL
		r.CPU = u.cpu
		if x := e.status.exit; !u.cpuKnown && x != nil {
			r.CPU = max(x.cpu-e.cpuBase, 0) // a warm spare's end counts its earlier runs
		}
	default:
		return nil, fmt.Errorf("sandbox: the supervisor ended without a report (%s)", e.status.describeExit())
	}
	r.Status = classify(r, lim)
	return r, nil
}

// classify decides the run's status from the facts, once, in the order
// Status documents: a run that reached its memory limit is MemoryLimit even
// when the CPU limit (or anything else) ended it.
func classify(r *Result, lim Limits) Status {
	switch {
	case r.OOMKilled || r.MemoryReached || r.KilledBy == MemoryLimit || (lim.Memory > 0 && r.Memory > lim.Memory):
		return MemoryLimit
	case r.KilledBy == TimeLimit || r.Signal == syscall.SIGXCPU || (lim.CPU > 0 && r.CPU > lim.CPU):
		return TimeLimit
	case r.OutputExceeded || r.Signal == syscall.SIGXFSZ:
		return OutputLimit
	case r.KilledBy == WallTimeLimit:
		return WallTimeLimit
	case r.KilledBy == Stalled:
		return Stalled
	case r.Signal != 0:
		return Signaled
	case r.ExitCode != 0:
		return NonZeroExit
	}
	return OK
}
