//go:build !unix

package sandbox

import (
	"context"
	"fmt"
	"runtime"
	"syscall"
)

// system exists on systems without fork and exec only so that the package
// builds there; New reports that it cannot run programs.
type system struct{}

func newSystem(Options) (*Sandbox, error) {
	return nil, fmt.Errorf("sandbox: not supported on %s", runtime.GOOS)
}

func (*system) run(context.Context, *Cmd) (*Result, error) {
	return nil, fmt.Errorf("sandbox: not supported on %s", runtime.GOOS)
}

func (*system) close() error { return nil }

func (*system) ownUIDs() bool { return false }

func (*system) reachable(string) error { return nil }

// ExecFailure is false: no program runs here.
func ExecFailure(error) (syscall.Errno, bool) { return 0, false }
