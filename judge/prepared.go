package judge

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/optjudge/optjudge/bytesize"
	"github.com/optjudge/optjudge/judge/lang"
	"github.com/optjudge/optjudge/problems"
)

// Submission is what a contestant handed in: a source file, a directory
// of files that make one program (the Kattis format's), or an executable.
type Submission struct {
	Path string
}

// BuildOptions tune one build.
type BuildOptions struct {
	Lang      string      // force a language by name; "": by the files' endings (and a .py file's #! line)
	Languages *lang.Table // nil: the Judge's table (a problem's own languages.yaml replaces it)
	Keep      bool        // keep the build directory, for people to look at (Prepared.Dir)
	// Entry is a directory submission's entry point (submissions.yaml's
	// entrypoint): its file ({src}), or for Java and Kotlin its main
	// class; "": found as without it (__main__ or main, the one main).
	Entry string
	// Problem is the problem the submission is for: a Kattis package's
	// included files for the submission's language (include/) are copied
	// over its files, its languages and code limit may refuse it
	// (*RefusedError), and its compilation guarantees raise the build's
	// limits. nil: a program of no problem (a generator). Judge.Grade
	// sets it to the problem it grades on.
	Problem *problems.Problem
	// Example marks one of Problem's example submissions (under its
	// submissions/): the package's constants are put in place in its
	// files, as the format has it, and its symbolic links within the
	// package are followed.
	Example bool
}

// Prepared is a submission built once, to be graded many times on
// different tests (judge stress does), by any number of goroutines at
// once.
type Prepared struct {
	Submission Submission
	Language   string
	Compile    CompileResult // Compile.OK false: every Grade reports CE

	j        *Judge
	langs    *lang.Table // the table it was built with, and its checker
	prog     *program    // nil when the build failed
	buildDir string      // the kept build directory, with Keep
}

// Prepare builds sub inside the sandbox. A compilation error is a Prepared
// with Compile.OK false and a nil error; an error means the judge could not
// build: a missing file, a file in no language that is no program either
// (*lang.UnknownError), a compiler not installed (*lang.NotInstalledError).
// Close removes the build.
func (j *Judge) Prepare(ctx context.Context, sub Submission, o BuildOptions) (*Prepared, error) {
	langs := j.table(o.Languages)
	pp := &Prepared{Submission: sub, j: j, langs: langs, Compile: CompileResult{OK: true}}
	var err error
	switch {
	case o.Problem != nil && o.Problem.Package.Type.SubmitAnswer:
		err = j.prepareAnswers(pp, o)
	case IsBuildRun(sub.Path):
		err = j.prepareBuildRun(ctx, pp, o)
	default:
		src, tc, serr := j.source(sub, o)
		if serr != nil {
			return nil, serr
		}
		if j.cacheable(src, o) {
			return j.prepareCached(ctx, sub, o, src, tc)
		}
		if src.lang == nil {
			err = j.prepareExecutable(pp, o)
		} else {
			err = j.prepareSource(ctx, pp, src, tc, o)
		}
	}
	if err != nil {
		pp.Close()
		return nil, err
	}
	return pp, nil
}

// AnswersLanguage is the language of a submit-answer problem's
// submission: files of answers, nothing to build or run.
const AnswersLanguage = "answers"

// prepareAnswers takes a submit-answer problem's submission: a directory
// of answer files (problems.AnswerFile says which answers which test), or
// one file, copied as they are, within the bounds of a directory
// submission.
func (j *Judge) prepareAnswers(pp *Prepared, o BuildOptions) error {
	pp.Language = AnswersLanguage
	path := pp.Submission.Path
	st, err := os.Stat(path)
	if err != nil {
		return fmt.Errorf("submission %s: %w", path, unwrapPathError(err))
	}
	src := &sourceSet{path: path}
	if st.IsDir() {
		links := ""
		if o.Example {
			links = o.Problem.Dir
		}
		files, err := listDir(path, links)
		if err != nil {
			return fmt.Errorf("submission %s: %w", path, err)
		}
		src.dir, src.files, src.links = true, files, links
	} else {
		if st.Size() > int64(MaxSubmissionSize) {
			return fmt.Errorf("submission %s: %s, over the limit of %s", path, bytesize.Size(st.Size()), MaxSubmissionSize)
		}
		src.files = []string{filepath.Base(path)}
	}
	dir, err := os.MkdirTemp(j.tmp, "prog-")
	if err != nil {
		return fmt.Errorf("creating a build directory: %w", err)
	}
	if err := src.copyInto(dir, 0o755); err != nil {
		removeAll(dir)
		return err
	}
	pp.prog = &program{lang: AnswersLanguage, dir: dir, files: src.files, answers: true}
	return nil
}

// prepareExecutable wraps a ready-made executable as a program.
func (j *Judge) prepareExecutable(pp *Prepared, o BuildOptions) error {
	pp.Language = "executable"
	where, prefix := j.tmp, "prog-"
	if o.Keep {
		where, prefix = j.cfg.TempDir, "optjudge-build-"
	}
	dir, err := os.MkdirTemp(where, prefix)
	if err != nil {
		return fmt.Errorf("creating a build directory: %w", err)
	}
	if o.Keep {
		pp.buildDir = dir // kept by Close
	}
	if err := copyFile(pp.Submission.Path, filepath.Join(dir, exeName), 0o755); err != nil {
		removeAll(dir)
		return fmt.Errorf("copying the submission: %w", err)
	}
	pp.prog = &program{lang: pp.Language, dir: dir, files: []string{exeName}, run: []string{"./" + exeName}}
	return nil
}

// prepareSource builds a submission's sources in a box. The judge's own
// copy of them (the runs' files, for an interpreted language) is made
// first, and the build directory, which the compiler may write, gets a
// copy of that.
func (j *Judge) prepareSource(ctx context.Context, pp *Prepared, src *sourceSet, tc *lang.Toolchain, o BuildOptions) error {
	pp.Language = src.lang.Name
	prog, err := os.MkdirTemp(j.tmp, "prog-")
	if err != nil {
		return fmt.Errorf("creating a build directory: %w", err)
	}
	if err := src.copyInto(prog, 0o755); err != nil {
		removeAll(prog)
		return err
	}
	p, err := j.buildIn(ctx, pp, src, prog, tc, o)
	if err != nil || p == nil {
		removeAll(prog)
		return err
	}
	pp.prog = p
	return nil
}

// buildIn compiles the copy of the submission in prog in a build
// directory of its own, and returns the program, its files in prog: the
// copy (an interpreted language's), or the executable or jar collected
// from the build in its place. A failed build sets pp.Compile and returns
// a nil program.
func (j *Judge) buildIn(ctx context.Context, pp *Prepared, src *sourceSet, prog string, tc *lang.Toolchain, o BuildOptions) (*program, error) {
	lang := src.lang
	where, prefix := j.tmp, "build-"
	if o.Keep {
		where, prefix = j.cfg.TempDir, "optjudge-build-"
	}
	dir, err := os.MkdirTemp(where, prefix)
	if err != nil {
		return nil, fmt.Errorf("creating a build directory: %w", err)
	}
	if o.Keep {
		pp.buildDir = dir
	} else {
		defer removeAll(dir)
	}
	// the compiler may write beside the sources (ghc's .o and .hi files)
	if err := (&sourceSet{path: prog, dir: true, files: src.files}).copyInto(dir, 0o777); err != nil {
		return nil, err
	}
	b := &build{lang: lang, dir: dir, entry: src.entry, sources: src.sources, limits: compileLimits(lang, o.Problem)}
	if pp.Compile, err = j.compile(ctx, b, tc); err != nil || !pp.Compile.OK {
		return nil, err
	}
	p := &program{lang: lang.Name, dir: prog, files: src.files, run: runCommand(lang, tc), env: tc.Env, readOnly: tc.ReadOnly,
		src: src, code: lang.KattisCode()}
	built := builtFiles(lang)
	if built == nil {
		p.vars = runVars(src.entry, "")
		return p, nil
	}
	// the runs need only what the build made: prog gets it instead of the sources
	if err := removeAll(prog); err == nil {
		err = os.Mkdir(prog, 0o700)
	}
	if err != nil {
		return nil, fmt.Errorf("collecting the build: %w", err)
	}
	main := ""
	if lang.MainClass {
		var failed string
		if main, failed, err = packJVM(lang, dir, prog, src.entry, src.main); err != nil || failed != "" {
			pp.Compile.OK, pp.Compile.Message = false, failed
			return nil, err
		}
	} else if err := collect(dir, prog, built); err != nil {
		return nil, err
	}
	p.files, p.vars = built, runVars(src.entry, main)
	return p, nil
}

// Close removes the build (but a Keep build directory), once every Grade of
// it has returned.
func (pp *Prepared) Close() error {
	if pp.prog == nil {
		return nil
	}
	var err error
	if pp.prog.dir != pp.buildDir {
		err = removeAll(pp.prog.dir)
	}
	pp.prog = nil
	return err
}

// Dir is the kept build directory (BuildOptions.Keep), or "".
func (pp *Prepared) Dir() string { return pp.buildDir }

// Grade builds sub and grades it on p: Prepare, Prepared.Grade and Close.
// With bo.Keep, the report says where the build was kept.
func (j *Judge) Grade(ctx context.Context, p *problems.Problem, sub Submission, bo BuildOptions, o GradeOptions) (*Report, error) {
	if bo.Problem == nil {
		bo.Problem = p
	}
	pp, err := j.Prepare(ctx, sub, bo)
	if err != nil {
		return nil, err
	}
	defer pp.Close()
	r, err := pp.Grade(ctx, p, o)
	if r != nil {
		r.KeptIn = pp.Dir()
	}
	return r, err
}

func unwrapPathError(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
