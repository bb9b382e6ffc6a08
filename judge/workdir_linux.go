package judge

import (
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// untouched reports whether the program's file is the one placed: same
// file, mode, size and times. Without root the contestant may own the file
// (a copy): its ctime, which a write or a chmod changes and no program can
// set, must match too. As root it cannot write to it, and other workers'
// links to the same build change the ctime.
func untouched(now, placed os.FileInfo) bool {
	a, ok1 := now.Sys().(*syscall.Stat_t)
	b, ok2 := placed.Sys().(*syscall.Stat_t)
	return ok1 && ok2 && os.SameFile(now, placed) && now.Mode() == placed.Mode() && now.Size() == placed.Size() &&
		a.Mtim == b.Mtim && (os.Geteuid() == 0 || a.Ctim == b.Ctim)
}

// hasXattrs reports whether path carries extended attributes (an ACL is
// one), or cannot be asked.
func hasXattrs(path string) bool {
	n, err := unix.Llistxattr(path, nil)
	if err == unix.ENOTSUP {
		return false
	}
	return err != nil || n > 0
}
