//go:build !linux

package judge

import (
	"fmt"
	"os"
	"syscall"
)

// interactionPipe is one channel of an interaction.
func interactionPipe() (r, w *os.File, err error) {
	r, w, err = os.Pipe()
	if err != nil {
		return nil, nil, fmt.Errorf("interaction pipes: %w", err)
	}
	return r, w, nil
}

// setNonblock makes f's reads wait in the runtime's poller again (the
// sandbox made the pipe blocking for the program), so that closing f ends
// a read that waits.
func setNonblock(f *os.File) {
	if rc, err := f.SyscallConn(); err == nil {
		rc.Control(func(fd uintptr) { syscall.SetNonblock(int(fd), true) })
	}
}

// pipeInode is unknown here: the deadlock watch (stall) needs Linux.
func pipeInode(f *os.File) uint64 { return 0 }

// pipeHolds is unknown here.
func pipeHolds(f *os.File) (n int, ok bool) { return 0, false }
