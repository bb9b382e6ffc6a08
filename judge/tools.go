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
	"slices"
	"strings"
	"time"

	"github.com/optjudge/optjudge/bytesize"
	"github.com/optjudge/optjudge/checkers"
	"github.com/optjudge/optjudge/internal/proc"
	"github.com/optjudge/optjudge/judge/internal/jvm"
	"github.com/optjudge/optjudge/judge/lang"
	"github.com/optjudge/optjudge/problems"
	"github.com/optjudge/optjudge/problems/kattis"
)

// tool is a program of a problem (a checker, an input, answer or
// interactive validator) built with the language table, or by its own
// build script. It is the problem setter's code, trusted for its
// verdict: it builds and runs in the programs' sandbox (programs.go),
// in boxes of its own, where its build left it.
type tool struct {
	path     string   // the program in the problem directory, for messages
	argv     []string // how to run it: an absolute program path and arguments
	dir      string   // its build directory, removed with the Judge's; read-only to its runs
	env      []string // the environment it runs with, over the box's
	readOnly []string // what its box must see: its build, its toolchain
	runner   checkers.Runner
	// script: a checktestdata or viva script, run by its tool, whose exit
	// code 0 (not 42) accepts; viva takes the file to check as an argument.
	script kattis.ProgramKind
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
func (j *Judge) Checker(ctx context.Context, p *problems.Problem, langs *lang.Table) (checkers.Checker, error) {
	return j.checker(ctx, p, langs)
}

func (j *Judge) checker(ctx context.Context, p *problems.Problem, langs *lang.Table) (checkers.Checker, error) {
	if p.Package.CheckerProgram == nil {
		return p.Package.Checker, nil
	}
	t, err := j.tool(ctx, p, *p.Package.CheckerProgram, langs)
	if err != nil {
		return nil, err
	}
	cmd := t.command(programTimeout(p), programMemory(p))
	cmd.Output = programOutput(p)
	return &checkers.External{
		Command:  cmd,
		Protocol: p.Package.CheckerProgram.Protocol,
		Args:     p.Package.CheckerProgram.Args,
		TempDir:  j.tmp,
	}, nil
}

// BuildInteractor builds an interactive problem's validator, as Checker
// builds a checker program, and says why it does not build.
func (j *Judge) BuildInteractor(ctx context.Context, p *problems.Problem, langs *lang.Table) error {
	if p.Package.Validation.Program == nil {
		return errors.New("the problem has no interactive validator")
	}
	_, err := j.tool(ctx, p, *p.Package.Validation.Program, langs)
	return err
}

// CannotBuildError says that a problem's program cannot be built on this
// machine, through no fault of the problem: its language's compiler or
// interpreter, or its script's tool, is not installed here (Err says
// which, a *lang.NotInstalledError for a language). Another machine may have
// it: a grading service hands the job to another worker.
type CannotBuildError struct {
	Program string // the program in the problem directory
	Err     error
}

func (e *CannotBuildError) Error() string {
	return fmt.Sprintf("%s cannot be built on this machine: %v", e.Program, e.Err)
}

func (e *CannotBuildError) Unwrap() error { return e.Err }

// missingToolError is a checktestdata or viva script's tool not found.
type missingToolError struct{ err error }

func (e *missingToolError) Error() string { return e.err.Error() }
func (e *missingToolError) Unwrap() error { return e.err }

// Checkers judge each test of a problem with the checker it needs.
type Checkers struct {
	p       *problems.Problem
	program *checkers.External // the problem's checker program, or nil
}

// Checkers returns p's checkers: its checker program built as Checker
// builds it, or the built-in checkers of its tests.
func (j *Judge) Checkers(ctx context.Context, p *problems.Problem, langs *lang.Table) (*Checkers, error) {
	c := &Checkers{p: p}
	if p.Package.CheckerProgram == nil {
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
// flags (kattis.Package.CheckerFor), or the checker program with t's
// arguments (kattis.Package.OutputValidatorArgs).
func (c *Checkers) For(t kattis.Test) checkers.Checker {
	if c.program == nil {
		return c.p.Package.CheckerFor(t)
	}
	x := *c.program
	x.Args = c.p.Package.OutputValidatorArgs(t)
	return &x
}

// InputValidators returns p's input validator programs, built as Checker
// builds the checker, in the order of p.InputValidators. A checktestdata
// or viva script whose tool is not on the Judge's PATH is left out
// (kattis.Package.ToolWarnings says which). Their Args are each
// program's own; a test's come with kattis.Package.InputValidatorArgs.
func (j *Judge) InputValidators(ctx context.Context, p *problems.Problem, langs *lang.Table) ([]*checkers.InputValidator, error) {
	var vs []*checkers.InputValidator
	for _, prog := range p.Package.InputValidators {
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
func (j *Judge) AnswerValidators(ctx context.Context, p *problems.Problem, langs *lang.Table) ([]*checkers.AnswerValidator, error) {
	var vs []*checkers.AnswerValidator
	for _, prog := range p.Package.AnswerValidators {
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

func (t *tool) inputValidator(prog kattis.Program, timeout time.Duration, mem bytesize.Size) *checkers.InputValidator {
	return &checkers.InputValidator{
		Command: t.command(timeout, mem), Args: prog.Args, Program: prog.Name(),
		ExitZeroValid: t.script != kattis.ProgramSource && t.script != kattis.ProgramBuildRun,
		FileArg:       t.script == kattis.ProgramViva, TempDir: t.dir,
	}
}

// tool returns the program prog of p built with langs: built by this call,
// or by an earlier or concurrent one for the same problem version. Only a
// build that succeeded is kept: the callers waiting for one that failed
// get its error, and the next caller tries again (a long-lived Judge must
// not keep a failure that a full disk or a loaded machine caused).
func (j *Judge) tool(ctx context.Context, p *problems.Problem, prog kattis.Program, langs *lang.Table) (*tool, error) {
	langs = j.table(langs)
	hash := p.Hash()
	key := hash + "\x00" + prog.Path + "\x00" + tableKey(langs)
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

// buildTool builds the program prog in p's directory: a source file (with
// the other files of its folder, prog.Files), a directory of sources of
// one language (C and C++ compile them all; the others start from the
// entry file, as a submission's), a directory with build and run
// scripts, or a checktestdata or viva script; the package's constants in
// its files. A program that does not build is an error: the problem, not
// a contestant, is at fault.
func (j *Judge) buildTool(ctx context.Context, p *problems.Problem, prog kattis.Program, langs *lang.Table) (*tool, error) {
	dir, err := os.MkdirTemp(j.tmp, "tool-")
	if err != nil {
		return nil, fmt.Errorf("building %s: %w", prog.Path, err)
	}
	var t *tool
	if prog.Kind == kattis.ProgramSource && buildRunIn(p.Package.FS, prog.Path) {
		prog.Kind = kattis.ProgramBuildRun // a native problem's program may build itself too
	}
	switch prog.Kind {
	case kattis.ProgramBuildRun:
		t, err = j.buildRunTool(ctx, p, prog.Path, dir)
	case kattis.ProgramCheckTestData, kattis.ProgramViva:
		t, err = j.scriptTool(p, prog, dir)
	default:
		t, err = j.buildToolIn(ctx, p, prog, dir, langs)
	}
	if err == nil {
		err = openToBoxes(dir)
	}
	if err != nil {
		removeAll(dir)
		var ni *lang.NotInstalledError
		var nt *missingToolError
		if errors.As(err, &ni) || errors.As(err, &nt) {
			err = &CannotBuildError{Program: prog.Path, Err: err}
		}
		return nil, err
	}
	t.runner = boxRunner{j: j, t: t}
	return t, nil
}

// scriptTool is a checktestdata or viva script run by its tool, found on
// the Judge's PATH.
func (j *Judge) scriptTool(p *problems.Problem, prog kattis.Program, dir string) (*tool, error) {
	name := prog.Kind.Tool()
	exe, err := proc.LookPath(name, j.cfg.Path, nil)
	if err != nil {
		return nil, fmt.Errorf("%s: a %s script needs %s: %w", prog.Path, prog.Kind, name, &missingToolError{err})
	}
	script := filepath.Join(dir, path.Base(prog.Path))
	if err := copyFromProblem(p, prog.Path, script); err != nil {
		return nil, fmt.Errorf("%s: %w", prog.Path, err)
	}
	env := []string{"PATH=" + j.cfg.Path}
	return &tool{path: prog.Path, argv: []string{exe, script}, dir: dir, env: env, script: prog.Kind,
		readOnly: toolReadOnly(dir, filepath.Dir(exe))}, nil
}

func (j *Judge) buildToolIn(ctx context.Context, p *problems.Problem, prog kattis.Program, dir string, langs *lang.Table) (*tool, error) {
	name := prog.Path
	files, err := copyProgram(p, prog, dir)
	if err != nil {
		return nil, fmt.Errorf("building %s: %w", name, err)
	}
	single := false
	if st, err := fs.Stat(p.Package.FS, name); err == nil && !st.IsDir() {
		single = true // a file program: its language is its own
	}
	detectIn := files
	if single {
		detectIn = []string{path.Base(name)}
	}
	l := langs.Pick(detectIn, func(f string) []byte { return headLine(filepath.Join(dir, filepath.FromSlash(f))) })
	switch {
	case l == nil && single:
		return nil, fmt.Errorf("building %s: %w", name, &lang.UnknownError{Path: name, Ext: path.Ext(name), Known: langs.Names()})
	case l == nil:
		return nil, fmt.Errorf("building %s: no source file of a known language", name)
	}
	l, tc, err := j.finder.Installed(j.table(langs), l, true)
	if err != nil {
		return nil, fmt.Errorf("building %s: %w", name, err)
	}
	var sources []string
	for _, f := range files {
		if langs.HasExt(l, f) {
			sources = append(sources, f)
		}
	}
	entry := entryFile(sources)
	runsEntry := slices.ContainsFunc(l.Run, func(a string) bool { return strings.Contains(a, "{src}") })
	if !single && len(sources) > 1 && runsEntry && !isEntryName(entry) {
		// which one runs? (C and C++ compile them all; Python starts from
		// __main__.py)
		return nil, fmt.Errorf("building %s: %d source files (%s); want one, or one named __main__ or main", name, len(sources), strings.Join(sources, ", "))
	}
	if single {
		// a file program: its source, the folder's files beside it
		entry = path.Base(name)
		sources = []string{entry}
		if e := buildName(l, entry); e != entry {
			if err := copyFile(filepath.Join(dir, entry), filepath.Join(dir, e), 0o644); err != nil {
				return nil, fmt.Errorf("building %s: %w", name, err)
			}
			entry, sources = e, []string{e}
		}
	}
	res, err := j.compile(ctx, &build{lang: l, dir: dir, trusted: true, entry: entry, sources: sources}, tc)
	main, failed := "", ""
	if err == nil && res.OK && l.MainClass {
		main, failed, err = packJVM(l, dir, dir, entry, "")
	}
	switch {
	case err != nil && ctx.Err() != nil:
		return nil, ctx.Err()
	case err != nil:
		return nil, fmt.Errorf("building %s: %w", name, err)
	case !res.OK:
		return nil, fmt.Errorf("building %s (%s): %s", name, l.Name, firstLines(res.Message, 20))
	case failed != "":
		return nil, fmt.Errorf("building %s (%s): %s", name, l.Name, failed)
	}
	argv := lang.Expand(runCommand(l, tc), map[string]string{
		"src": filepath.Join(dir, filepath.FromSlash(entry)), "exe": filepath.Join(dir, exeName), "jar": filepath.Join(dir, jvm.JarName),
		"dir": dir, "mainclass": main, "memlimit": memLimitMiB(0),
	}, nil)
	return &tool{path: name, argv: argv, dir: dir, env: programEnv(j.cfg.Path, dir, tc), readOnly: toolReadOnly(dir, tc.ReadOnly...)}, nil
}

// isEntryName says whether a source is named as an entry point: __main__
// or main, in any case.
func isEntryName(f string) bool {
	return strings.EqualFold(stem(f), "__main__") || strings.EqualFold(stem(f), "main")
}

// copyProgram copies the program (a file and the other files of its
// folder, or a directory's files) into dir, the package's constants in
// place, and returns the files copied, slash-separated, sorted.
func copyProgram(p *problems.Problem, prog kattis.Program, dir string) ([]string, error) {
	st, err := fs.Stat(p.Package.FS, prog.Path)
	if err != nil {
		return nil, unwrapPathError(err)
	}
	if st.IsDir() {
		var files []string
		err := copyTree(p, prog.Path, dir, func(rel string) { files = append(files, rel) })
		slices.Sort(files)
		if err == nil && len(files) == 0 {
			err = errors.New("no files")
		}
		return files, err
	}
	files := []string{path.Base(prog.Path)}
	if err := copyFromProblem(p, prog.Path, filepath.Join(dir, files[0])); err != nil {
		return nil, err
	}
	for _, f := range prog.Files {
		if base := path.Base(f); base != files[0] {
			if err := copyFromProblem(p, f, filepath.Join(dir, base)); err != nil {
				return nil, err
			}
			files = append(files, base)
		}
	}
	slices.Sort(files)
	return files, nil
}

// copyTree copies the directory name of the problem into dir, the
// package's constants in place, calling file with each regular file's path
// relative to name. Files keep their execute bits, and a build or run
// script at the top gets them. Symbolic links are followed (LoadDir has
// checked that none leads out of the package).
func copyTree(p *problems.Problem, name, dir string, file func(rel string)) error {
	return copyTreeFS(p.Package.FS, name, dir, p.Package.ReadFile, file)
}

// copyTreeFS is copyTree for any FS, each file read with read.
func copyTreeFS(fsys fs.FS, name, dir string, read func(string) ([]byte, error), file func(rel string)) error {
	return copyLevel(fsys, name, dir, "", read, file)
}

// copyLevel copies the directory name of fsys, at rel below the tree's
// top, into dir.
func copyLevel(fsys fs.FS, name, dir, rel string, read func(string) ([]byte, error), file func(rel string)) error {
	entries, err := fs.ReadDir(fsys, name)
	if err != nil {
		return err
	}
	for _, e := range entries {
		src, r := path.Join(name, e.Name()), path.Join(rel, e.Name())
		st, err := fs.Stat(fsys, src) // through a link
		if err != nil {
			return err
		}
		dst := filepath.Join(dir, e.Name())
		switch {
		case st.IsDir():
			if err := os.MkdirAll(dst, 0o755); err != nil {
				return err
			}
			if err := copyLevel(fsys, src, dst, r, read, file); err != nil {
				return err
			}
			continue
		case !st.Mode().IsRegular():
			continue
		}
		if file != nil {
			file(r)
		}
		b, err := read(src)
		if err != nil {
			return err
		}
		mode := os.FileMode(0o644)
		if st.Mode().Perm()&0o111 != 0 || r == "build" || r == "run" {
			mode = 0o755
		}
		if err := os.WriteFile(dst, b, mode); err != nil {
			return err
		}
		if err := os.Chmod(dst, mode); err != nil {
			return err
		}
	}
	return nil
}

// copyFromProblem copies a file of the problem to dst, the package's
// constants in place.
func copyFromProblem(p *problems.Problem, name, dst string) error {
	b, err := p.Package.ReadFile(name)
	if err != nil {
		return err
	}
	return os.WriteFile(dst, b, 0o644)
}

// command is the tool as the checkers package runs it.
func (t *tool) command(timeout time.Duration, mem bytesize.Size) checkers.Command {
	return checkers.Command{Name: t.path, Argv: t.argv, Dir: t.dir, Env: t.env, Timeout: timeout, Memory: mem, Runner: t.runner}
}

// programTimeout bounds a run of one of p's programs: the Kattis package's
// validation_time, else checkers.DefaultProgramTimeout.
func programTimeout(p *problems.Problem) time.Duration {
	if p.Package.Spec != nil && p.Package.Spec.Limits.ValidationTime > 0 {
		return time.Duration(p.Package.Spec.Limits.ValidationTime * float64(time.Second))
	}
	return checkers.DefaultProgramTimeout
}

// DefaultValidationMemory is a legacy Kattis package's validation_memory
// when it gives none (problemtools' default); DefaultValidationMemory2023
// a 2023-07 or 2025-09 package's (the format's).
const (
	DefaultValidationMemory     = 1024 * bytesize.MiB
	DefaultValidationMemory2023 = 2048 * bytesize.MiB
)

// DefaultValidationOutput is a Kattis package's validation_output when it
// gives none (problemtools' and the formats' default).
const DefaultValidationOutput = 8 * bytesize.MiB

// programMemory is the memory of a run of one of p's programs: a Kattis
// package's validation_memory (its format's default when it gives none);
// a native problem's programs have no limit.
func programMemory(p *problems.Problem) bytesize.Size {
	if p.Package.Spec == nil {
		return 0
	}
	if m := p.Package.Spec.Limits.ValidationMemory; m > 0 {
		return bytesize.Size(m * float64(bytesize.MiB))
	}
	if p.Package.Spec.Format() != kattis.FormatLegacy {
		return DefaultValidationMemory2023
	}
	return DefaultValidationMemory
}

// programOutput bounds what a run of one of p's programs writes (its
// streams and its feedback directory): a Kattis package's
// validation_output (DefaultValidationOutput when it gives none); a
// native problem's programs have the sandbox's default limits.
func programOutput(p *problems.Problem) bytesize.Size {
	if p.Package.Submit.ValidationOutput > 0 || p.Package.Spec == nil {
		return p.Package.Submit.ValidationOutput
	}
	return DefaultValidationOutput
}

// tableKey names the table's content, for the caches: two tables alike
// build alike.
func tableKey(l *lang.Table) string {
	b, err := json.Marshal(l.List)
	if err != nil {
		return fmt.Sprintf("%p", l) // cannot happen: plain fields
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}
