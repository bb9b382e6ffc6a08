package judge

import (
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// untouched reports whether a program's file is the one placed: same file,
// mode, size and times. A copy, which the contestant may own, must have its
// change time too: a write or a chmod changes it and no program can set
// it. A link to the build the contestant cannot write to, and the other
// workers' links to the same build change its change time.
func untouched(now, placed os.FileInfo, linked bool) bool {
	a, ok1 := now.Sys().(*syscall.Stat_t)
	b, ok2 := placed.Sys().(*syscall.Stat_t)
	return ok1 && ok2 && os.SameFile(now, placed) && now.Mode() == placed.Mode() && now.Size() == placed.Size() &&
		a.Mtim == b.Mtim && (linked || a.Ctim == b.Ctim)
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
