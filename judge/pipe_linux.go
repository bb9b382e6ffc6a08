package judge

import (
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// pipeSize is the size asked for an interaction's pipes: 1 MiB, as
// problemtools' runner asks (the most an unprivileged user gets by
// default), so that a validator that writes ahead of its reader blocks as
// late there as here.
const pipeSize = 1 << 20

// interactionPipe is one channel of an interaction; a pipe smaller than
// pipeSize is no error.
func interactionPipe() (r, w *os.File, err error) {
	r, w, err = os.Pipe()
	if err != nil {
		return nil, nil, fmt.Errorf("interaction pipes: %w", err)
	}
	if rc, err := r.SyscallConn(); err == nil {
		rc.Control(func(fd uintptr) { unix.FcntlInt(fd, unix.F_SETPIPE_SZ, pipeSize) })
	}
	return r, w, nil
}

// setNonblock makes f's reads wait in the runtime's poller again (the
// sandbox made the pipe blocking for the program), so that closing f ends
// a read that waits.
func setNonblock(f *os.File) {
	if rc, err := f.SyscallConn(); err == nil {
		rc.Control(func(fd uintptr) { unix.SetNonblock(int(fd), true) })
	}
}

// pipeInode is the inode number of the pipe f is an end of (as
// /proc/PID/fd names it: pipe:[N]); 0 if unknown.
func pipeInode(f *os.File) uint64 {
	rc, err := f.SyscallConn()
	if err != nil {
		return 0
	}
	var st unix.Stat_t
	var serr error
	if err := rc.Control(func(fd uintptr) { serr = unix.Fstat(int(fd), &st) }); err != nil || serr != nil {
		return 0
	}
	return st.Ino
}

// pipeHolds says how many bytes the pipe whose read end is f holds
// (FIONREAD); ok is false once f is closed.
func pipeHolds(f *os.File) (n int, ok bool) {
	rc, err := f.SyscallConn()
	if err != nil {
		return 0, false
	}
	var ierr error
	if err := rc.Control(func(fd uintptr) { n, ierr = unix.IoctlGetInt(int(fd), unix.TIOCINQ) }); err != nil || ierr != nil {
		return 0, false
	}
	return n, true
}
