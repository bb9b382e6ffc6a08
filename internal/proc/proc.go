// Package proc runs trusted programs: a problem's checker or validator, or
// the judge's build of one. It is the one process runner below the engine
// (judge) and the checkers, as verdict is their one vocabulary: a program
// runs in its own process group under a timeout, with a fixed environment,
// its output capped, and everything it started killed at the end.
//
// A contestant's program never runs here: package sandbox runs those.
package proc

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/optjudge/optjudge/bytesize"
)

// DefaultPath is the PATH of a program run without an environment, and
// where commands are looked up by default.
const DefaultPath = "/usr/local/bin:/usr/bin:/bin"

// DefaultCap is what Cmd keeps of each output stream by default.
const DefaultCap = 64 << 10

// Cmd is one run of a trusted program.
type Cmd struct {
	Argv    []string      // the program (a path) and its arguments
	Dir     string        // working directory; "": the judge's
	Env     []string      // the whole environment; nil: PATH=DefaultPath, LANG=C.UTF-8
	Stdin   []byte        // standard input (empty: nothing), unless StdinFile is set
	Timeout time.Duration // wall-clock limit; 0: none but ctx
	Cap     int           // bytes kept of stdout and of stderr each; 0: DefaultCap

	// StdinFile and StdoutFile, when set, are the program's standard
	// input and output, passed on as they are (the ends of the pipes of
	// an interaction, say): Result.Stdout is then empty. Run leaves them
	// open.
	StdinFile, StdoutFile *os.File
	// CPU and Memory are the program's own limits, set by the shell
	// (/bin/sh's ulimit: RLIMIT_CPU in whole seconds, rounded up, and
	// RLIMIT_AS) before it executes the program; 0: none. A program over
	// its CPU time is killed by SIGXCPU; one over its memory fails to
	// allocate. The address-space limit counts what a runtime reserves
	// too: see AddressSpaceSafe.
	CPU    time.Duration
	Memory bytesize.Size
}

// AddressSpaceSafe says whether the program argv runs can take an
// address-space limit (Cmd.Memory): a Java virtual machine reserves more
// than any memory limit at its start, and fails under one (problemtools
// does not limit those either).
func AddressSpaceSafe(argv []string) bool {
	if len(argv) == 0 {
		return true
	}
	switch filepath.Base(argv[0]) {
	case "java", "kotlin", "scala", "sbcl":
		return false
	}
	return true
}

// limited is argv run under c's CPU and Memory limits, through the shell.
func (c *Cmd) limited() []string {
	if c.CPU <= 0 && c.Memory <= 0 {
		return c.Argv
	}
	script := ""
	if c.CPU > 0 {
		script += fmt.Sprintf("ulimit -S -t %d 2>/dev/null; ", int64(math.Ceil(c.CPU.Seconds())))
	}
	if c.Memory > 0 {
		script += fmt.Sprintf("ulimit -S -v %d 2>/dev/null; ", c.Memory.KiB())
	}
	return append([]string{"/bin/sh", "-c", script + `exec "$@"`, "sh"}, c.Argv...)
}

// Result is how a run ended.
type Result struct {
	ExitCode  int            // -1 when a signal ended it
	Signal    syscall.Signal // the signal that ended it, or 0
	TimedOut  bool           // killed at Cmd.Timeout
	Stdout    []byte
	Stderr    []byte
	Truncated bool // a stream was cut at the cap
	Wall      time.Duration
}

// WaitDelay is how long Run waits, once the program has exited, for the
// descendants it left to close its output.
var WaitDelay = 2 * time.Second

// Run runs c and waits for it. A program that exits, fails or times out is
// a Result; an error means it could not start, or ctx ended (ctx.Err()).
func Run(ctx context.Context, c *Cmd) (*Result, error) {
	if len(c.Argv) == 0 {
		return nil, errors.New("no program to run")
	}
	capBytes := c.Cap
	if capBytes <= 0 {
		capBytes = DefaultCap
	}
	argv := c.limited()
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = c.Dir
	cmd.Env = c.Env
	if cmd.Env == nil {
		cmd.Env = []string{"PATH=" + DefaultPath, "LANG=C.UTF-8"}
	}
	cmd.Stdin = bytes.NewReader(c.Stdin)
	if c.StdinFile != nil {
		cmd.Stdin = c.StdinFile
	}
	stdout, stderr := &Buffer{Max: capBytes}, &Buffer{Max: capBytes}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	if c.StdoutFile != nil {
		cmd.Stdout = c.StdoutFile
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	// a descendant that left the process group (setsid) and kept the
	// output open would hold Wait, timeout or not, for as long as it lives
	cmd.WaitDelay = WaitDelay
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting %s: %w", c.Argv[0], err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var timeout <-chan time.Time
	if c.Timeout > 0 {
		t := time.NewTimer(c.Timeout)
		defer t.Stop()
		timeout = t.C
	}
	r := &Result{}
	var err error
	select {
	case err = <-done:
	case <-timeout:
		r.TimedOut = true
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		err = <-done
	case <-ctx.Done():
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		<-done
		return nil, ctx.Err()
	}
	syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) // what it left running
	if errors.Is(err, exec.ErrWaitDelay) {
		err = nil // it exited with status 0; what it left kept the output open
	}
	r.Wall = time.Since(start)
	r.Stdout, r.Stderr = stdout.Bytes(), stderr.Bytes()
	r.Truncated = stdout.Truncated || stderr.Truncated
	var ee *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee):
		r.ExitCode = ee.ExitCode()
		if st, ok := ee.Sys().(syscall.WaitStatus); ok && st.Signaled() {
			r.Signal = st.Signal()
		}
	default:
		return nil, fmt.Errorf("running %s: %w", c.Argv[0], err)
	}
	return r, nil
}

// Buffer keeps the first Max bytes written to it and drops the rest, never
// failing a write: a program's output past the cap is not an error. It
// has no ReadFrom (an embedded bytes.Buffer's would let io.Copy, and so
// os/exec, write past the cap).
type Buffer struct {
	Max       int
	Truncated bool
	buf       bytes.Buffer
}

func (b *Buffer) Write(p []byte) (int, error) {
	if room := b.Max - b.buf.Len(); room < len(p) {
		b.Truncated = true
		if room > 0 {
			b.buf.Write(p[:room])
		}
		return len(p), nil
	}
	return b.buf.Write(p)
}

// Bytes returns what was kept.
func (b *Buffer) Bytes() []byte { return b.buf.Bytes() }

// Expand substitutes the {name} placeholders of a command with vars.
func Expand(argv []string, vars map[string]string) []string {
	out := make([]string, len(argv))
	for i, w := range argv {
		for k, v := range vars {
			w = strings.ReplaceAll(w, "{"+k+"}", v)
		}
		out[i] = w
	}
	return out
}

// LookPath finds a command in the directories of path, as a shell would,
// passing over the candidates that ok rejects (nil: none). A name holding a
// slash is taken as it is.
func LookPath(name, path string, ok func(string) bool) (string, error) {
	if strings.Contains(name, "/") {
		return name, nil
	}
	for _, d := range filepath.SplitList(path) {
		if d == "" {
			continue
		}
		p := filepath.Join(d, name)
		st, err := os.Stat(p)
		if err == nil && st.Mode().IsRegular() && st.Mode()&0o111 != 0 && (ok == nil || ok(p)) {
			return p, nil
		}
	}
	return "", fmt.Errorf("%s: command not found in %s", name, path)
}
