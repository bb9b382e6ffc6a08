//go:build unix && !linux

package sandbox

import (
	"fmt"
	"os"
	"runtime"
	"syscall"
	"time"

	"github.com/optjudge/optjudge/judge/bytesize"
)

// system is the sandbox on Unix systems other than Linux: the C helper's
// rlimits, process group and tree kill, without namespaces or cgroups.
type system struct {
	helper string
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
	if err := s.probe(); err != nil {
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
	return &box{
		attr:     &syscall.SysProcAttr{Setpgid: true},
		newMeter: func(int) meter { return endMeter{} },
		release:  func() error { return nil },
	}, nil
}

func (s *system) close() error { return nil }

// endMeter knows nothing while the program runs: the CPU limit is the
// RLIMIT_CPU backstop, and the figures come from the helper's report.
type endMeter struct{}

func (endMeter) poll() (time.Duration, bytesize.Size) { return 0, 0 }
func (endMeter) killAll()                             {}
func (endMeter) finish() (usage, error)               { return usage{}, nil }

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
	r, err := os.Open(f.Name())
	if err != nil {
		return nil, fmt.Errorf("sandbox: stdin: %w", err)
	}
	return r, nil
}
