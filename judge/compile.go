package judge

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// CompileResult is the outcome of building a submission.
type CompileResult struct {
	OK      bool          `json:"ok"`
	Message string        `json:"message"` // the compiler's first lines when it failed
	Time    time.Duration `json:"-"`
	TimeMS  int64         `json:"time_ms"`
}

// program is a built submission, ready to be placed in a test's directory.
type program struct {
	lang  string
	dir   string // build directory, removed by cleanup
	file  string // the file to copy into each working directory
	mode  os.FileMode
	run   []string // run command, relative to the working directory
	build CompileResult
}

const compileOutputCap = 64 << 10

// build compiles src with lang in a fresh directory under tmp. A compilation
// failure is a CompileResult with OK false and a nil error; an error means the
// judge could not try.
func build(ctx context.Context, src string, lang *Language, opts *Options) (*program, error) {
	dir, err := os.MkdirTemp(opts.TempDir, "optjudge-build-")
	if err != nil {
		return nil, fmt.Errorf("creating build directory: %w", err)
	}
	p := &program{lang: lang.Name, dir: dir, build: CompileResult{OK: true}}
	if err := copyFile(src, filepath.Join(dir, lang.File), 0o644); err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("copying the submission: %w", err)
	}
	const exe = "main.exe"
	vars := map[string]string{"src": lang.File, "exe": exe, "dir": dir}
	if len(lang.Compile) > 0 {
		start := time.Now()
		out, err := runCompiler(ctx, dir, expand(lang.Compile, vars), opts)
		p.build.Time = time.Since(start)
		p.build.TimeMS = p.build.Time.Milliseconds()
		var ce *compileError
		switch {
		case errors.As(err, &ce):
			p.build.OK = false
			p.build.Message = firstLines(ce.msg+"\n"+out, 30)
			return p, nil
		case err != nil:
			os.RemoveAll(dir)
			return nil, err
		}
	}
	p.file, p.mode = lang.File, 0o644
	if len(lang.Compile) > 0 && strings.Contains(strings.Join(lang.Run, " "), "{exe}") {
		p.file, p.mode = exe, 0o755
	}
	p.run = expand(lang.Run, map[string]string{"src": lang.File, "exe": "./" + exe, "dir": "."})
	return p, nil
}

// executable wraps a ready-made executable as a program.
func executable(path string, opts *Options) (*program, error) {
	dir, err := os.MkdirTemp(opts.TempDir, "optjudge-build-")
	if err != nil {
		return nil, fmt.Errorf("creating build directory: %w", err)
	}
	const exe = "main.exe"
	if err := copyFile(path, filepath.Join(dir, exe), 0o755); err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("copying the submission: %w", err)
	}
	return &program{lang: "executable", dir: dir, file: exe, mode: 0o755, run: []string{"./" + exe},
		build: CompileResult{OK: true}}, nil
}

type compileError struct{ msg string }

func (e *compileError) Error() string { return e.msg }

// runCompiler runs a build command with the compile time limit, in its own
// process group so that a timeout kills the compiler and everything it
// started. A failing compiler is a *compileError.
func runCompiler(parent context.Context, dir string, argv []string, opts *Options) (string, error) {
	ctx, cancel := context.WithTimeout(parent, opts.CompileTimeout)
	defer cancel()
	path, err := lookPath(argv[0], opts.path())
	if err != nil {
		return "", err
	}
	cmd := exec.Command(path, argv[1:]...)
	cmd.Dir = dir
	cmd.Env = compileEnv(dir, opts)
	var out capped
	out.max = compileOutputCap
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return "", fmt.Errorf("starting %s: %w", argv[0], err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err = <-done:
	case <-ctx.Done():
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		err = <-done
		if parent.Err() != nil {
			return "", parent.Err()
		}
		return out.String(), &compileError{fmt.Sprintf("compilation exceeded the %v limit", opts.CompileTimeout)}
	}
	syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) // a compiler's stray children
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return out.String(), &compileError{fmt.Sprintf("%s failed: %v", filepath.Base(argv[0]), ee)}
		}
		return "", fmt.Errorf("running %s: %w", argv[0], err)
	}
	return out.String(), nil
}

// compileEnv is the compiler's environment: a fixed PATH, a private HOME and
// temp directory, and a shared Go build cache so Go builds stay fast.
func compileEnv(dir string, opts *Options) []string {
	env := []string{
		"PATH=" + opts.path(),
		"HOME=" + dir,
		"TMPDIR=" + dir,
		"LANG=C.UTF-8",
		"GOCACHE=" + opts.GoCache,
		"GOPATH=" + filepath.Join(dir, "gopath"),
		"GOFLAGS=",
		"GOTOOLCHAIN=local",
		"CGO_ENABLED=0",
	}
	return env
}

// lookPath finds a command in the directories of path, as a shell would.
func lookPath(name, path string) (string, error) {
	if strings.Contains(name, "/") {
		return name, nil
	}
	for _, d := range filepath.SplitList(path) {
		p := filepath.Join(d, name)
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() && st.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	return "", fmt.Errorf("%s: command not found in %s", name, path)
}

// capped keeps the first max bytes written to it and drops the rest.
type capped struct {
	bytes.Buffer
	max       int
	truncated bool
}

func (c *capped) Write(p []byte) (int, error) {
	if room := c.max - c.Len(); room < len(p) {
		c.truncated = true
		if room > 0 {
			c.Buffer.Write(p[:room])
		}
		return len(p), nil
	}
	return c.Buffer.Write(p)
}

func firstLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = append(lines[:n], fmt.Sprintf("... (%d more lines)", len(lines)-n))
	}
	return strings.Join(lines, "\n")
}

func copyFile(src, dst string, mode os.FileMode) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, mode)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
