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
	"github.com/optjudge/optjudge/judge/bytesize"
	"github.com/optjudge/optjudge/judge/proc"
	"github.com/optjudge/optjudge/problems"
)

// tool is a program of a problem (a checker, an input, answer or
// interactive validator) built with the language table, or by its own
// build script. It is the problem setter's trusted code: it builds and
// runs outside the sandbox, with proc, where its build left it.
type tool struct {
	path string   // the program in the problem directory, for messages
	argv []string // how to run it: an absolute program path and arguments
	dir  string   // its build directory, removed with the Judge's; its runs' working directory
	env  []string // the environment it runs with
	// script: a checktestdata or viva script, run by its tool, whose exit
	// code 0 (not 42) accepts; viva takes the file to check as an argument.
	script problems.ProgramKind
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
// and problem version (p.Hash()), then shared by every caller. Its
// arguments are the problem's (validator_flags); a test's own come with
// Checkers. The Judge keeps the programs of the MaxToolVersions problem
// versions used last (toolcache.go): a checker program stays usable while
// a grading of its version runs, and after it until the programs of that
// many other versions are built.
func (j *Judge) Checker(ctx context.Context, p *problems.Problem, langs *Languages) (checkers.Checker, error) {
	return j.checker(ctx, p, langs)
}

func (j *Judge) checker(ctx context.Context, p *problems.Problem, langs *Languages) (checkers.Checker, error) {
	if p.CheckerProgram == nil {
		return p.Checker, nil
	}
	t, err := j.tool(ctx, p, *p.CheckerProgram, langs)
	if err != nil {
		return nil, err
	}
	return &checkers.External{
		Command:  t.command(programTimeout(p), programMemory(p)),
		Protocol: p.CheckerProgram.Protocol,
		Args:     p.CheckerProgram.Args,
		TempDir:  j.tmp,
	}, nil
}

// BuildInteractor builds an interactive problem's validator, as Checker
// builds a checker program, and says why it does not build.
func (j *Judge) BuildInteractor(ctx context.Context, p *problems.Problem, langs *Languages) error {
	if p.Validation.Program == nil {
		return errors.New("the problem has no interactive validator")
	}
	_, err := j.tool(ctx, p, *p.Validation.Program, langs)
	return err
}

// Checkers judge each test of a problem with the checker it needs.
type Checkers struct {
	p       *problems.Problem
	program *checkers.External // the problem's checker program, or nil
}

// Checkers returns p's checkers: its checker program built as Checker
// builds it, or the built-in checkers of its tests.
func (j *Judge) Checkers(ctx context.Context, p *problems.Problem, langs *Languages) (*Checkers, error) {
	c := &Checkers{p: p}
	if p.CheckerProgram == nil {
		return c, nil
	}
	chk, err := j.checker(ctx, p, langs)
	if err != nil {
		return nil, err
	}
	c.program = chk.(*checkers.External)
	return c, nil
}

// For is the checker of test t: the default output validator with t's
// flags (problems.Problem.CheckerFor), or the checker program with t's
// arguments (problems.Problem.OutputValidatorArgs).
func (c *Checkers) For(t problems.Test) checkers.Checker {
	if c.program == nil {
		return c.p.CheckerFor(t)
	}
	x := *c.program
	x.Args = c.p.OutputValidatorArgs(t)
	return &x
}

// InputValidators returns p's input validator programs, built as Checker
// builds the checker, in the order of p.InputValidators. A checktestdata
// or viva script whose tool is not on the Judge's PATH is left out
// (problems.Problem.ToolWarnings says which). Their Args are each
// program's own; a test's come with problems.Problem.InputValidatorArgs.
func (j *Judge) InputValidators(ctx context.Context, p *problems.Problem, langs *Languages) ([]*checkers.InputValidator, error) {
	var vs []*checkers.InputValidator
	for _, prog := range p.InputValidators {
		if tool := prog.Kind.Tool(); tool != "" && !j.hasTool(tool) {
			continue
		}
		t, err := j.tool(ctx, p, prog, langs)
		if err != nil {
			return nil, err
		}
		vs = append(vs, t.inputValidator(prog, programTimeout(p), programMemory(p)))
	}
	return vs, nil
}

// AnswerValidators returns p's answer validators (answer_validators/),
// built and left out as InputValidators builds and leaves out the input
// validators.
func (j *Judge) AnswerValidators(ctx context.Context, p *problems.Problem, langs *Languages) ([]*checkers.AnswerValidator, error) {
	var vs []*checkers.AnswerValidator
	for _, prog := range p.AnswerValidators {
		if tool := prog.Kind.Tool(); tool != "" && !j.hasTool(tool) {
			continue
		}
		t, err := j.tool(ctx, p, prog, langs)
		if err != nil {
			return nil, err
		}
		iv := t.inputValidator(prog, programTimeout(p), programMemory(p))
		vs = append(vs, &checkers.AnswerValidator{InputValidator: *iv})
	}
	return vs, nil
}

func (j *Judge) hasTool(name string) bool {
	_, err := proc.LookPath(name, j.cfg.Path, nil)
	return err == nil
}

func (t *tool) inputValidator(prog problems.Program, timeout time.Duration, mem bytesize.Size) *checkers.InputValidator {
	return &checkers.InputValidator{
		Command: t.command(timeout, mem), Args: prog.Args, Program: prog.Name(),
		ExitZeroValid: t.script != problems.ProgramSource && t.script != problems.ProgramBuildRun,
		FileArg:       t.script == problems.ProgramViva, TempDir: t.dir,
	}
}

// tool returns the program prog of p built with langs: built by this call,
// or by an earlier or concurrent one for the same problem version. Only a
// build that succeeded is kept: the callers waiting for one that failed
// get its error, and the next caller tries again (a long-lived Judge must
// not keep a failure that a full disk or a loaded machine caused).
func (j *Judge) tool(ctx context.Context, p *problems.Problem, prog problems.Program, langs *Languages) (*tool, error) {
	langs = j.table(langs)
	hash := p.Hash()
	key := hash + "\x00" + prog.Path + "\x00" + langs.key()
	for {
		j.mu.Lock()
		e := j.tools[key]
		if e == nil {
			e = &toolEntry{done: make(chan struct{})}
			j.tools[key] = e
			v := j.useVersionLocked(hash)
			v.keys = append(v.keys, key)
			stale := j.evictToolsLocked()
			j.mu.Unlock()
			removeTools(stale)
			e.t, e.err = j.buildTool(ctx, p, prog, langs)
			if e.err != nil {
				j.mu.Lock()
				j.dropToolLocked(hash, key)
				j.mu.Unlock()
			}
			close(e.done)
			return e.t, e.err
		}
		j.useVersionLocked(hash)
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

// buildTool builds the program prog in p's directory: a source file, a
// directory holding exactly one source file of a known language together
// with the files it includes, a directory with build and run scripts, or
// a checktestdata or viva script. A program that does not build is an
// error: the problem, not a contestant, is at fault.
func (j *Judge) buildTool(ctx context.Context, p *problems.Problem, prog problems.Program, langs *Languages) (*tool, error) {
	dir, err := os.MkdirTemp(j.tmp, "tool-")
	if err != nil {
		return nil, fmt.Errorf("building %s: %w", prog.Path, err)
	}
	var t *tool
	if prog.Kind == problems.ProgramSource && buildRunIn(p.FS, prog.Path) {
		prog.Kind = problems.ProgramBuildRun // a native problem's program may build itself too
	}
	switch prog.Kind {
	case problems.ProgramBuildRun:
		t, err = j.buildRunTool(ctx, p.FS, prog.Path, dir)
	case problems.ProgramCheckTestData, problems.ProgramViva:
		t, err = j.scriptTool(p.FS, prog, dir)
	default:
		t, err = j.buildToolIn(ctx, p.FS, prog.Path, dir, langs)
	}
	if err != nil {
		removeAll(dir)
		return nil, err
	}
	return t, nil
}

// scriptTool is a checktestdata or viva script run by its tool, found on
// the Judge's PATH.
func (j *Judge) scriptTool(fsys fs.FS, prog problems.Program, dir string) (*tool, error) {
	name := prog.Kind.Tool()
	exe, err := proc.LookPath(name, j.cfg.Path, nil)
	if err != nil {
		return nil, fmt.Errorf("%s: a %s script needs %s: %w", prog.Path, prog.Kind, name, err)
	}
	script := filepath.Join(dir, path.Base(prog.Path))
	if err := copyFromFS(fsys, prog.Path, script); err != nil {
		return nil, fmt.Errorf("%s: %w", prog.Path, err)
	}
	env := []string{"PATH=" + j.cfg.Path, "HOME=" + dir, "TMPDIR=" + dir, "LANG=C.UTF-8"}
	return &tool{path: prog.Path, argv: []string{exe, script}, dir: dir, env: env, script: prog.Kind}, nil
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
	tc, err := j.trustedToolchain(lang)
	if err != nil {
		return nil, fmt.Errorf("building %s: %w", name, err)
	}
	res, err := j.compile(ctx, &build{lang: lang, dir: dir, trusted: true, entry: entry, sources: []string{entry}}, tc)
	main, failed := "", ""
	if err == nil && res.OK && lang.MainClass {
		main, failed, err = packJVM(lang, dir, dir, entry, "")
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
	err = copyTree(fsys, name, dir, func(rel string) {
		if !strings.Contains(rel, "/") && langs.detect([]string{rel}, func(string) []byte { return nil }) != nil {
			sources = append(sources, rel)
		}
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

// copyTree copies the directory name of fsys into dir, calling file with
// each regular file's path relative to name. Files keep their execute
// bits, and a build or run script at the top gets them.
func copyTree(fsys fs.FS, name, dir string, file func(rel string)) error {
	return fs.WalkDir(fsys, name, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == name {
			return err
		}
		rel := strings.TrimPrefix(p, name+"/")
		dst := filepath.Join(dir, filepath.FromSlash(rel))
		if d.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		if file != nil {
			file(rel)
		}
		if err := copyFromFS(fsys, p, dst); err != nil {
			return err
		}
		st, err := fs.Stat(fsys, p)
		if err == nil && (st.Mode().Perm()&0o111 != 0 || rel == "build" || rel == "run") {
			return os.Chmod(dst, 0o755)
		}
		return nil
	})
}

func copyFromFS(fsys fs.FS, name, dst string) error {
	b, err := fs.ReadFile(fsys, name)
	if err != nil {
		return err
	}
	return os.WriteFile(dst, b, 0o644)
}

// command is the tool as the checkers package runs it.
func (t *tool) command(timeout time.Duration, mem bytesize.Size) checkers.Command {
	return checkers.Command{Name: t.path, Argv: t.argv, Dir: t.dir, Env: t.env, Timeout: timeout, Memory: mem}
}

// programTimeout bounds a run of one of p's programs: the Kattis package's
// validation_time, else checkers.DefaultProgramTimeout.
func programTimeout(p *problems.Problem) time.Duration {
	if p.Kattis != nil && p.Kattis.Limits.ValidationTime > 0 {
		return time.Duration(p.Kattis.Limits.ValidationTime * float64(time.Second))
	}
	return checkers.DefaultProgramTimeout
}

// DefaultValidationMemory is a Kattis package's validation_memory when it
// gives none (problemtools' default).
const DefaultValidationMemory = 1024 * bytesize.MiB

// programMemory is the memory of a run of one of p's programs: a Kattis
// package's validation_memory (DefaultValidationMemory when it gives
// none); a native problem's programs have no limit.
func programMemory(p *problems.Problem) bytesize.Size {
	if p.Kattis == nil {
		return 0
	}
	if m := p.Kattis.Limits.ValidationMemory; m > 0 {
		return bytesize.Size(m * float64(bytesize.MiB))
	}
	return DefaultValidationMemory
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
