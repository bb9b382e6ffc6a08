package judge

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/optjudge/optjudge/checkers"
	"github.com/optjudge/optjudge/problems"
)

// Tool is a program of a problem (a checker or an input validator) built
// with the language table. It is the problem setter's trusted code: it runs
// outside the sandbox, in its own process group, under a timeout.
type Tool struct {
	Path string   // the program in the problem directory, for messages
	Lang string   // the language it was built as
	Argv []string // how to run it: an absolute program path and arguments
	Dir  string   // its build directory, removed by Close
	Env  []string // the environment it runs with
}

// BuildTool builds the program at path in p's directory: a source file, or
// a directory holding exactly one source file of a known language together
// with the files it includes. A program that does not compile is an error:
// the problem, not a contestant, is at fault.
func BuildTool(ctx context.Context, p *problems.Problem, path string, opts Options) (*Tool, error) {
	o, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp(o.TempDir, "optjudge-tool-")
	if err != nil {
		return nil, fmt.Errorf("building %s: %w", path, err)
	}
	t, err := buildTool(ctx, p.FS, path, dir, o)
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	return t, nil
}

func buildTool(ctx context.Context, fsys fs.FS, name, dir string, o *Options) (*Tool, error) {
	src, err := copyProgram(fsys, name, dir, o.Languages)
	if err != nil {
		return nil, fmt.Errorf("building %s: %w", name, err)
	}
	lang, err := o.Languages.ForFile(src)
	if err != nil {
		return nil, fmt.Errorf("building %s: %w", name, err)
	}
	if src != lang.File {
		if err := copyFile(filepath.Join(dir, src), filepath.Join(dir, lang.File), 0o644); err != nil {
			return nil, fmt.Errorf("building %s: %w", name, err)
		}
	}
	const exe = "main.exe"
	if len(lang.Compile) > 0 {
		out, err := runCompiler(ctx, dir, expand(lang.Compile, map[string]string{"src": lang.File, "exe": exe, "dir": dir}), o)
		var ce *compileError
		switch {
		case errors.As(err, &ce):
			return nil, fmt.Errorf("building %s (%s): %s", name, lang.Name, firstLines(ce.msg+"\n"+out, 20))
		case err != nil:
			return nil, fmt.Errorf("building %s: %w", name, err)
		}
	}
	argv := expand(lang.Run, map[string]string{
		"src": filepath.Join(dir, lang.File), "exe": filepath.Join(dir, exe), "dir": dir,
	})
	if argv[0], err = lookPath(argv[0], o.path()); err != nil {
		return nil, fmt.Errorf("building %s: %w", name, err)
	}
	env := []string{"PATH=" + o.path(), "HOME=" + dir, "TMPDIR=" + dir, "LANG=C.UTF-8"}
	return &Tool{Path: name, Lang: lang.Name, Argv: argv, Dir: dir, Env: env}, nil
}

// copyProgram copies the program (a file, or a directory's files) into dir
// and returns the name of its one source file there.
func copyProgram(fsys fs.FS, name, dir string, langs *Languages) (string, error) {
	st, err := fs.Stat(fsys, name)
	if err != nil {
		return "", unwrapPathError(err)
	}
	if !st.IsDir() {
		base := path.Base(name)
		return base, copyFromFS(fsys, name, filepath.Join(dir, base))
	}
	var sources []string
	err = fs.WalkDir(fsys, name, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == name {
			return err
		}
		rel := strings.TrimPrefix(p, name+"/")
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dir, filepath.FromSlash(rel)), 0o755)
		}
		if (rel == "build" || rel == "run") && d.Type().IsRegular() {
			return fmt.Errorf("%s: build and run scripts are not supported; give one source file", p)
		}
		if _, err := langs.ForFile(rel); err == nil && !strings.Contains(rel, "/") {
			sources = append(sources, rel)
		}
		return copyFromFS(fsys, p, filepath.Join(dir, filepath.FromSlash(rel)))
	})
	if err != nil {
		return "", err
	}
	switch len(sources) {
	case 0:
		return "", errors.New("no source file of a known language")
	case 1:
		return sources[0], nil
	}
	return "", fmt.Errorf("%d source files (%s); want one", len(sources), strings.Join(sources, ", "))
}

func copyFromFS(fsys fs.FS, name, dst string) error {
	b, err := fs.ReadFile(fsys, name)
	if err != nil {
		return err
	}
	return os.WriteFile(dst, b, 0o644)
}

// Close removes the build.
func (t *Tool) Close() error { return os.RemoveAll(t.Dir) }

// Command is the tool as the checkers package runs it.
func (t *Tool) Command(timeout time.Duration) checkers.Command {
	return checkers.Command{Name: t.Path, Argv: t.Argv, Dir: t.Dir, Env: t.Env, Timeout: timeout}
}

// programTimeout bounds a run of one of p's programs: the Kattis package's
// validation_time, else checkers.DefaultProgramTimeout.
func programTimeout(p *problems.Problem) time.Duration {
	if p.Kattis != nil && p.Kattis.Limits.ValidationTime > 0 {
		return time.Duration(p.Kattis.Limits.ValidationTime * float64(time.Second))
	}
	return checkers.DefaultProgramTimeout
}

// BuildChecker returns p's checker ready to use: the built-in one, or its
// checker program built with the language table. done removes the build;
// call it when no Check is running any more.
func BuildChecker(ctx context.Context, p *problems.Problem, opts Options) (chk checkers.Checker, done func(), err error) {
	if p.CheckerProgram == nil {
		return p.Checker, func() {}, nil
	}
	t, err := BuildTool(ctx, p, p.CheckerProgram.Path, opts)
	if err != nil {
		return nil, nil, err
	}
	x := &checkers.External{
		Command:  t.Command(programTimeout(p)),
		Protocol: p.CheckerProgram.Protocol,
		Args:     p.CheckerProgram.Args,
		TempDir:  opts.TempDir,
	}
	return x, func() { t.Close() }, nil
}

// BuildInputValidators builds p's input validator programs. done removes
// the builds.
func BuildInputValidators(ctx context.Context, p *problems.Problem, opts Options) (vs []*checkers.InputValidator, done func(), err error) {
	var tools []*Tool
	done = func() {
		for _, t := range tools {
			t.Close()
		}
	}
	for _, prog := range p.InputValidators {
		t, err := BuildTool(ctx, p, prog.Path, opts)
		if err != nil {
			done()
			return nil, nil, err
		}
		tools = append(tools, t)
		vs = append(vs, &checkers.InputValidator{Command: t.Command(programTimeout(p)), Args: prog.Args})
	}
	return vs, done, nil
}
