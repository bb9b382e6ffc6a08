//go:build unix

package sandbox

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
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

// openStdin returns the contestant's standard input: StdinFile opened
// read-only, Stdin in a sealed in-memory file, or /dev/null.
func openStdin(c *Cmd) (*os.File, error) {
	switch {
	case c.StdinFile != "":
		f, err := os.Open(c.StdinFile)
		if err != nil {
			return nil, fmt.Errorf("sandbox: stdin: %w", err)
		}
		return f, nil
	case c.Stdin != nil:
		return memoryFile(c.Stdin)
	}
	f, err := os.Open(os.DevNull)
	if err != nil {
		return nil, fmt.Errorf("sandbox: stdin: %w", err)
	}
	return f, nil
}
