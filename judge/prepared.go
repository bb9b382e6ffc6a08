package judge

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/optjudge/optjudge/problems"
)

// Submission is what a contestant handed in: a source file or an executable.
type Submission struct {
	Path string
}

// BuildOptions tune one build.
type BuildOptions struct {
	Lang      string     // force a language by name; "": by the file's extension
	Languages *Languages // nil: the Judge's table (a problem's own languages.yaml replaces it)
	Keep      bool       // keep the build directory, for people to look at (Prepared.Dir)
}

// Prepared is a submission built once, to be graded many times on
// different tests (judge stress does), by any number of goroutines at
// once.
type Prepared struct {
	Submission Submission
	Language   string
	Compile    CompileResult // Compile.OK false: every Grade reports CE

	j        *Judge
	langs    *Languages // the table it was built with, and its checker
	prog     *program   // nil when the build failed
	buildDir string     // the kept build directory, with Keep
}

// Prepare builds sub inside the sandbox. A compilation error is a Prepared
// with Compile.OK false and a nil error; an error means the judge could not
// build (a missing file, an unknown language, a compiler not installed).
// Close removes the build.
func (j *Judge) Prepare(ctx context.Context, sub Submission, o BuildOptions) (*Prepared, error) {
	langs := j.table(o.Languages)
	if IsBuildRun(sub.Path) {
		pp := &Prepared{Submission: sub, j: j, langs: langs, Compile: CompileResult{OK: true}}
		return pp, j.prepareBuildRun(ctx, pp, o)
	}
	lang, err := langs.Resolve(sub.Path, o.Lang)
	if err != nil {
		return nil, err
	}
	pp := &Prepared{Submission: sub, j: j, langs: langs, Compile: CompileResult{OK: true}}
	if lang == nil {
		return pp, j.prepareExecutable(pp, o)
	}
	return pp, j.prepareSource(ctx, pp, lang, o)
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

// prepareSource builds a source file in a box.
func (j *Judge) prepareSource(ctx context.Context, pp *Prepared, lang *Language, o BuildOptions) error {
	pp.Language = lang.Name
	tc, err := j.toolchain(lang)
	if err != nil {
		return err
	}
	where, prefix := j.tmp, "build-"
	if o.Keep {
		where, prefix = j.cfg.TempDir, "optjudge-build-"
	}
	dir, err := os.MkdirTemp(where, prefix)
	if err != nil {
		return fmt.Errorf("creating a build directory: %w", err)
	}
	if o.Keep {
		pp.buildDir = dir
	} else {
		defer removeAll(dir)
	}
	if err := copyFile(pp.Submission.Path, filepath.Join(dir, lang.File), 0o644); err != nil {
		return fmt.Errorf("copying the submission: %w", err)
	}
	if pp.Compile, err = j.compile(ctx, &build{lang: lang, dir: dir}, tc); err != nil || !pp.Compile.OK {
		return err
	}
	prog, err := os.MkdirTemp(j.tmp, "prog-")
	if err != nil {
		return fmt.Errorf("creating a build directory: %w", err)
	}
	files := runFiles(lang)
	if err := collect(dir, prog, files); err != nil {
		removeAll(prog)
		return err
	}
	pp.prog = &program{lang: lang.Name, dir: prog, files: files, run: runCommand(lang, tc), env: tc.env, readOnly: tc.readOnly}
	return nil
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
