//go:build unix

package sandbox

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// Resource numbers for the helper's -r option.
const (
	rlimitCPU    = syscall.RLIMIT_CPU
	rlimitFSIZE  = syscall.RLIMIT_FSIZE
	rlimitNOFILE = syscall.RLIMIT_NOFILE
	rlimitCORE   = syscall.RLIMIT_CORE
	rlimitSTACK  = syscall.RLIMIT_STACK
)

// boxPATH is the PATH of every run, and where a bare Cmd.Path is looked up.
const boxPATH = "/usr/local/bin:/usr/bin:/bin"

// resolvePath returns the absolute path of the program: a bare name is looked
// up in boxPATH, a relative path is taken from Dir.
func resolvePath(c *Cmd) (string, error) {
	p := c.Path
	switch {
	case p == "":
		return "", fmt.Errorf("sandbox: Cmd.Path is empty")
	case !strings.Contains(p, "/"):
		for _, d := range filepath.SplitList(boxPATH) {
			if q := filepath.Join(d, p); isExecutable(q) {
				return q, nil
			}
		}
		return "", fmt.Errorf("sandbox: %s: no such program in %s", p, boxPATH)
	case !filepath.IsAbs(p):
		p = filepath.Join(c.Dir, p)
	}
	if !isExecutable(p) {
		return "", fmt.Errorf("sandbox: %s: not an executable file", p)
	}
	return filepath.Clean(p), nil
}

func isExecutable(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0
}

// buildEnv is the scrubbed environment with Cmd.Env over it; nothing of the
// judge's own environment is passed on.
func buildEnv(c *Cmd) []string {
	env := []string{"PATH=" + boxPATH, "HOME=" + c.Dir, "LANG=C.UTF-8"}
	for _, kv := range c.Env {
		k, _, _ := strings.Cut(kv, "=")
		env = slices.DeleteFunc(env, func(e string) bool { return strings.HasPrefix(e, k+"=") })
		env = append(env, kv)
	}
	return env
}

// openStdin returns the contestant's standard input: a blocking copy of
// StdinPipe, StdinFile opened read-only, Stdin in a sealed in-memory file,
// or /dev/null.
func openStdin(c *Cmd) (*os.File, error) {
	switch {
	case c.StdinPipe != nil && (c.StdinFile != "" || c.Stdin != nil):
		return nil, errors.New("sandbox: Cmd.StdinPipe excludes Stdin and StdinFile")
	case c.StdinPipe != nil:
		fd, err := dupFile(c.StdinPipe, false)
		if err != nil {
			return nil, fmt.Errorf("sandbox: stdin: %w", err)
		}
		return os.NewFile(uintptr(fd), "stdin"), nil
	case c.StdinFile != "":
		return openRead(c.StdinFile)
	case c.Stdin != nil:
		return memoryFile(c.Stdin)
	}
	return openRead(os.DevNull)
}

// openRead opens a file read-only, as a file the judge only passes on
// (os.Open would register it with the runtime's poller).
func openRead(path string) (*os.File, error) {
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, fmt.Errorf("sandbox: stdin: %w", &os.PathError{Op: "open", Path: path, Err: err})
	}
	return os.NewFile(uintptr(fd), path), nil
}

// pipe returns a pipe whose read end the judge polls itself (non-blocking)
// and whose write end it passes on (blocking, as a program expects).
func pipe() (r int, w *os.File, err error) {
	p, err := cloexecPipe()
	if err == nil {
		if err = unix.SetNonblock(p[0], true); err != nil {
			unix.Close(p[0])
			unix.Close(p[1])
		}
	}
	if err != nil {
		return -1, nil, fmt.Errorf("sandbox: %w", err)
	}
	return p[0], os.NewFile(uintptr(p[1]), "pipe"), nil
}

// searchable reports a directory on the way to dir, or dir itself, that
// users other than its owner may not search.
func searchable(dir string) error {
	abs, err := filepath.Abs(dir)
	if err == nil {
		abs, err = filepath.EvalSymlinks(abs)
	}
	if err != nil {
		return fmt.Errorf("sandbox: %w", err)
	}
	for d := abs; ; d = filepath.Dir(d) {
		fi, err := os.Stat(d)
		if err != nil {
			return fmt.Errorf("sandbox: %w", err)
		}
		if fi.Mode().Perm()&0o001 == 0 {
			return fmt.Errorf("sandbox: %s (mode %v) keeps out the boxes' uids, which at isolation none must pass it to reach %s", d, fi.Mode().Perm(), abs)
		}
		if d == filepath.Dir(d) {
			return nil
		}
	}
}

// sinkFD is the sandbox's copy of Cmd.StdoutPipe, which the program's
// output goes on to. It is closed once that output has ended and gone on
// whole (so that, while the program still runs, the pipe's reader sees
// its end as soon as the caller lets go of its own copies), or when the
// run ends. Only the run's goroutine uses it.
type sinkFD struct{ fd int }

// close closes the descriptor, once; a nil sink does nothing.
func (s *sinkFD) close() {
	if s != nil && s.fd >= 0 {
		unix.Close(s.fd)
		s.fd = -1
	}
}

// openSink returns a non-blocking copy of Cmd.StdoutPipe for the judge
// to write the program's output to, or nil when there is none.
func openSink(c *Cmd) (*sinkFD, error) {
	if c.StdoutPipe == nil {
		return nil, nil
	}
	fd, err := dupFile(c.StdoutPipe, true)
	if err != nil {
		return nil, fmt.Errorf("sandbox: stdout: %w", err)
	}
	return &sinkFD{fd}, nil
}

// dupFile duplicates f's descriptor (close-on-exec) without changing how
// f itself is used by the runtime, and sets the open file's O_NONBLOCK
// flag, which the copies share, to nonblock.
func dupFile(f *os.File, nonblock bool) (int, error) {
	rc, err := f.SyscallConn()
	if err != nil {
		return -1, err
	}
	fd := -1
	cerr := rc.Control(func(orig uintptr) {
		fd, err = unix.FcntlInt(orig, unix.F_DUPFD_CLOEXEC, 0)
	})
	if cerr != nil {
		return -1, cerr
	}
	if err != nil {
		return -1, err
	}
	if err := unix.SetNonblock(fd, nonblock); err != nil {
		unix.Close(fd)
		return -1, err
	}
	return fd, nil
}
