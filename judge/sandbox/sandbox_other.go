//go:build unix && !linux

package sandbox

import (
	"fmt"
	"os"
	"runtime"
	"syscall"
	"time"

	"github.com/optjudge/optjudge/bytesize"
)

// system is the sandbox on Unix systems other than Linux: the C helper's
// rlimits, process group and tree kill, without namespaces or cgroups.
type system struct {
	helper string
	zyg    *zygote
	pool   *sparePool
	trace  bool
}

func newSystem(opts Options) (*Sandbox, error) {
	switch opts.Isolation {
	case "", IsolationNone:
	default:
		return nil, fmt.Errorf("sandbox: isolation %q is not available on %s", opts.Isolation, runtime.GOOS)
	}
	dir, err := cacheDir(opts)
	if err != nil {
		return nil, err
	}
	helper, err := buildHelper(dir, opts.Compiler)
	if err != nil {
		return nil, fmt.Errorf("sandbox: %w", err)
	}
	s := &system{helper: helper}
	// its own process group, so that a terminal's ^C reaches the judge only
	if s.zyg, err = newZygote(helper, []string{"--", "0"}, nil, &syscall.SysProcAttr{Setpgid: true}); err != nil {
		return nil, err
	}
	s.pool = newSparePool(s.zyg, nil)
	if err := s.probe(); err != nil {
		s.close()
		return nil, fmt.Errorf("sandbox: %w", err)
	}
	return &Sandbox{
		isolation: IsolationNone,
		sys:       s,
		warning: "sandbox: limits only on " + runtime.GOOS + ": the program can read the judge's files, " +
			"use the network and fork without limit; CPU and memory are known only at the end",
		layers: []Layer{
			{"rlimits", true, "CPU backstop, file size, open files, stack, no core dumps; set by the C helper between fork and exec"},
			{"clean process start", true, "own process group, scrubbed environment, descriptors above 2 closed"},
			{"namespaces", false, "Linux only"},
			{"cgroup", false, "Linux only"},
		},
	}, nil
}

func (s *system) prepare(c *Cmd, path string, lim Limits) (*box, error) {
	sp, err := s.pool.take(lim, "none")
	if err != nil {
		return nil, err
	}
	return &box{sp: sp, key: "none", meter: endMeter{}, release: func() error { return nil }}, nil
}

func (s *system) close() error {
	err := s.pool.close()
	if zerr := s.zyg.close(); err == nil {
		err = zerr
	}
	return err
}

// cloexecPipe makes a pipe closed on exec before anyone can fork (os/exec
// elsewhere in the judge): there is no pipe2 everywhere.
func cloexecPipe() (p [2]int, err error) {
	syscall.ForkLock.RLock()
	defer syscall.ForkLock.RUnlock()
	if err = syscall.Pipe(p[:]); err == nil {
		syscall.CloseOnExec(p[0])
		syscall.CloseOnExec(p[1])
	}
	return p, err
}

// socketpair makes a Unix stream socket pair closed on exec, as cloexecPipe.
func socketpair() ([2]int, error) {
	syscall.ForkLock.RLock()
	defer syscall.ForkLock.RUnlock()
	fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
	if err == nil {
		syscall.CloseOnExec(fds[0])
		syscall.CloseOnExec(fds[1])
	}
	return fds, err
}

// monotonicMicros is a clock for the trace of BenchmarkRunSteps, which runs
// on Linux only.
func monotonicMicros() int64 { return time.Now().UnixMicro() }

// endMeter knows nothing while the program runs: the CPU limit is the
// RLIMIT_CPU backstop, and the figures come from the helper's report.
type endMeter struct{}

func (endMeter) bind(int, int64)                      {}
func (endMeter) poll() (time.Duration, bytesize.Size) { return 0, 0 }
func (endMeter) killAll()                             {}
func (endMeter) finish(bool) (usage, error)           { return usage{}, nil }

// memoryFile returns data in an unlinked temporary file opened read-only.
func memoryFile(data []byte) (*os.File, error) {
	f, err := os.CreateTemp("", "optjudge-stdin-")
	if err != nil {
		return nil, fmt.Errorf("sandbox: stdin: %w", err)
	}
	defer os.Remove(f.Name())
	defer f.Close()
	if _, err := f.Write(data); err != nil {
		return nil, fmt.Errorf("sandbox: stdin: %w", err)
	}
	return openRead(f.Name())
}

// ownUIDs is false: the program runs as the judge's user.
func (s *system) ownUIDs() bool { return false }

// reachable is nil: the program runs as the judge's user.
func (s *system) reachable(string) error { return nil }
