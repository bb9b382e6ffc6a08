package judge

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
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

// tool is a program of a problem (a checker or an input validator) built
// with the language table. It is the problem setter's trusted code: it
// builds and runs outside the sandbox, with proc, where its build left it.
type tool struct {
	path string   // the program in the problem directory, for messages
	argv []string // how to run it: an absolute program path and arguments
	dir  string   // its build directory, removed with the Judge's
	env  []string // the environment it runs with
}

// toolEntry is a tool being built, or built (or that failed to build),
// for every grading that needs it.
type toolEntry struct {
	done chan struct{} // closed once t or err is set
	t    *tool
	err  error
}

// Checker returns p's checker ready to use: the built-in one, or its
// checker program built with langs (nil: the Judge's table) once per Judge
// and problem version (p.Hash()), then shared by every caller.
func (j *Judge) Checker(ctx context.Context, p *problems.Problem, langs *Languages) (checkers.Checker, error) {
	return j.checker(ctx, p, langs)
}

func (j *Judge) checker(ctx context.Context, p *problems.Problem, langs *Languages) (checkers.Checker, error) {
	if p.CheckerProgram == nil {
		return p.Checker, nil
	}
	t, err := j.tool(ctx, p, p.CheckerProgram.Path, langs)
	if err != nil {
		return nil, err
	}
	return &checkers.External{
		Command:  t.command(programTimeout(p)),
		Protocol: p.CheckerProgram.Protocol,
		Args:     p.CheckerProgram.Args,
		TempDir:  j.tmp,
	}, nil
}

// InputValidators returns p's input validator programs, built as Checker
// builds the checker.
func (j *Judge) InputValidators(ctx context.Context, p *problems.Problem, langs *Languages) ([]*checkers.InputValidator, error) {
	var vs []*checkers.InputValidator
	for _, prog := range p.InputValidators {
		t, err := j.tool(ctx, p, prog.Path, langs)
		if err != nil {
			return nil, err
		}
		vs = append(vs, &checkers.InputValidator{Command: t.command(programTimeout(p)), Args: prog.Args})
	}
	return vs, nil
}

// tool returns the program name of p built with langs: built by this call,
// or by an earlier or concurrent one for the same problem version. A build
// that was cancelled is not kept: the next caller tries again.
func (j *Judge) tool(ctx context.Context, p *problems.Problem, name string, langs *Languages) (*tool, error) {
	langs = j.table(langs)
	key := p.Hash() + "\x00" + name + "\x00" + langs.key()
	for {
		j.mu.Lock()
		e := j.tools[key]
		if e == nil {
			e = &toolEntry{done: make(chan struct{})}
			j.tools[key] = e
			j.mu.Unlock()
			e.t, e.err = j.buildTool(ctx, p, name, langs)
			if e.err != nil && ctx.Err() != nil {
				j.mu.Lock()
				delete(j.tools, key)
				j.mu.Unlock()
			}
			close(e.done)
			return e.t, e.err
		}
		j.mu.Unlock()
		select {
		case <-e.done:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		if e.err != nil && (errors.Is(e.err, context.Canceled) || errors.Is(e.err, context.DeadlineExceeded)) {
			continue // its builder gave up; build it here
		}
		return e.t, e.err
	}
}

// buildTool builds the program at name in p's directory: a source file, or
// a directory holding exactly one source file of a known language together
// with the files it includes. A program that does not compile is an error:
// the problem, not a contestant, is at fault.
func (j *Judge) buildTool(ctx context.Context, p *problems.Problem, name string, langs *Languages) (*tool, error) {
	dir, err := os.MkdirTemp(j.tmp, "tool-")
	if err != nil {
		return nil, fmt.Errorf("building %s: %w", name, err)
	}
	t, err := j.buildToolIn(ctx, p.FS, name, dir, langs)
	if err != nil {
		removeAll(dir)
		return nil, err
	}
	return t, nil
}

func (j *Judge) buildToolIn(ctx context.Context, fsys fs.FS, name, dir string, langs *Languages) (*tool, error) {
	src, err := copyProgram(fsys, name, dir, langs)
	if err != nil {
		return nil, fmt.Errorf("building %s: %w", name, err)
	}
	lang := langs.detect([]string{src}, func(string) []byte { return headLine(filepath.Join(dir, src)) })
	if lang == nil {
		return nil, fmt.Errorf("building %s: %w", name, &UnknownLanguageError{Path: name, Ext: filepath.Ext(src), Known: langs.Names()})
	}
	entry := buildName(lang, src)
	if src != entry {
		if err := copyFile(filepath.Join(dir, src), filepath.Join(dir, entry), 0o644); err != nil {
			return nil, fmt.Errorf("building %s: %w", name, err)
		}
	}
	tc, err := j.toolchain(lang)
	if err != nil {
		return nil, fmt.Errorf("building %s: %w", name, err)
	}
	res, err := j.compile(ctx, &build{lang: lang, dir: dir, trusted: true, entry: entry, sources: []string{entry}}, tc)
	main, failed := "", ""
	if err == nil && res.OK && lang.MainClass {
		main, failed, err = packJVM(lang, dir, dir, entry)
	}
	switch {
	case err != nil && ctx.Err() != nil:
		return nil, ctx.Err()
	case err != nil:
		return nil, fmt.Errorf("building %s: %w", name, err)
	case !res.OK:
		return nil, fmt.Errorf("building %s (%s): %s", name, lang.Name, firstLines(res.Message, 20))
	case failed != "":
		return nil, fmt.Errorf("building %s (%s): %s", name, lang.Name, failed)
	}
	argv := expand(runCommand(lang, tc), map[string]string{
		"src": filepath.Join(dir, entry), "exe": filepath.Join(dir, exeName), "jar": filepath.Join(dir, jarName),
		"dir": dir, "mainclass": main, "memlimit": memLimitMiB(0),
	}, nil)
	return &tool{path: name, argv: argv, dir: dir, env: j.trustedEnv(dir, tc)}, nil
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
		if !strings.Contains(rel, "/") && langs.detect([]string{rel}, func(string) []byte { return nil }) != nil {
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

// command is the tool as the checkers package runs it.
func (t *tool) command(timeout time.Duration) checkers.Command {
	return checkers.Command{Name: t.path, Argv: t.argv, Dir: t.dir, Env: t.env, Timeout: timeout}
}

// programTimeout bounds a run of one of p's programs: the Kattis package's
// validation_time, else checkers.DefaultProgramTimeout.
func programTimeout(p *problems.Problem) time.Duration {
	if p.Kattis != nil && p.Kattis.Limits.ValidationTime > 0 {
		return time.Duration(p.Kattis.Limits.ValidationTime * float64(time.Second))
	}
	return checkers.DefaultProgramTimeout
}

// key names the table's content, for the caches: two tables alike build
// alike.
func (l *Languages) key() string {
	b, err := json.Marshal(l.List)
	if err != nil {
		return fmt.Sprintf("%p", l) // cannot happen: plain fields
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}
