package judge

import (
	"os"
	"path/filepath"
	"regexp"
	"syscall"
)

// A Judge's directory holds a lock file, locked for as long as the Judge
// lives: a directory whose lock anyone can take is a crashed Judge's (a
// worker killed with SIGKILL), which the next Judge of the same TempDir
// removes, builds and all. Directories kept for people (Keep's
// optjudge-build-, optjudge-run-) are never touched.
const lockName = ".optjudge-lock"

// judgeDir is the name os.MkdirTemp gives a Judge's directory.
var judgeDir = regexp.MustCompile(`^optjudge-[0-9]+$`)

// lockDir locks dir's lock file for the Judge and returns it (closed by
// Close). The file is locked before it gets its name, so that a sweeper
// never finds it unlocked.
func lockDir(dir string) (*os.File, error) {
	f, err := os.CreateTemp(dir, lockName+"-")
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		return nil, err
	}
	if err := os.Rename(f.Name(), filepath.Join(dir, lockName)); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// sweepStale removes the directories in tmp that crashed Judges left, but
// own.
func sweepStale(tmp, own string) {
	ents, err := os.ReadDir(tmp)
	if err != nil {
		return
	}
	for _, e := range ents {
		dir := filepath.Join(tmp, e.Name())
		if !e.IsDir() || !judgeDir.MatchString(e.Name()) || dir == own || !ours(dir) {
			continue
		}
		if stale(filepath.Join(dir, lockName)) {
			removeAll(dir)
		}
	}
}

// ours reports whether p is a directory (not a link) of the judge's own
// user: a directory someone else made, lock file and all, is never
// removed.
func ours(p string) bool {
	fi, err := os.Lstat(p)
	if err != nil || !fi.Mode().IsRegular() && !fi.IsDir() {
		return false
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && int(st.Uid) == os.Geteuid()
}

// stale reports whether the lock file at p is a crashed Judge's: a
// regular file of the judge's user (not a link) that anyone may lock, and
// still the file at p once locked (not one a concurrent sweep removed).
func stale(p string) bool {
	fd, err := syscall.Open(p, syscall.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_CLOEXEC|syscall.O_NONBLOCK, 0)
	if err != nil {
		return false // not a Judge's, or one from before the lock files
	}
	f := os.NewFile(uintptr(fd), p)
	defer f.Close()
	if !ours(p) || syscall.Flock(fd, syscall.LOCK_EX|syscall.LOCK_NB) != nil {
		return false
	}
	locked, err := f.Stat()
	if err != nil || !locked.Mode().IsRegular() {
		return false
	}
	now, err := os.Lstat(p)
	return err == nil && os.SameFile(locked, now)
}
