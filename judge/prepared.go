package judge

import (
	"context"
	"fmt"
	"os"

	"github.com/optjudge/optjudge/judge/sandbox"
	"github.com/optjudge/optjudge/judge/verdict"
	"github.com/optjudge/optjudge/problems"
)

// Prepared is a submission built once, to be graded many times on
// different tests, as judge stress does: Grade compiles for every call.
type Prepared struct {
	Submission Submission
	Language   string
	Compile    CompileResult // Compile.OK false: every Grade reports CE
	prog       *program
}

// Prepare builds sub with the languages, compiler settings and temporary
// directory of opts. A compilation error is a Prepared with Compile.OK
// false and a nil error. Close removes the build.
func Prepare(ctx context.Context, sub Submission, opts Options) (*Prepared, error) {
	o, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	prog, err := o.prepare(ctx, sub)
	if err != nil {
		return nil, err
	}
	return &Prepared{Submission: sub, Language: prog.lang, Compile: prog.build, prog: prog}, nil
}

// Close removes the build.
func (pp *Prepared) Close() error { return os.RemoveAll(pp.prog.dir) }

// Grade judges the prepared submission on the tests of p as Grade does;
// opts.Keep keeps the working directories only, the build stays until
// Close.
func (pp *Prepared) Grade(ctx context.Context, p *problems.Problem, opts Options) (*Report, error) {
	o, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	tests := o.Tests
	if tests == nil {
		if tests, err = p.Tests(); err != nil {
			return nil, fmt.Errorf("listing tests of %s: %w", p.Origin, err)
		}
	}
	if len(tests) == 0 {
		return nil, fmt.Errorf("%s: no tests", p.Origin)
	}
	sb := o.Sandbox
	if sb == nil {
		if sb, err = sandbox.New(sandbox.Options{}); err != nil {
			return nil, fmt.Errorf("starting the sandbox: %w", err)
		}
		defer sb.Close()
	}
	r := &Report{
		Problem:    p.Name,
		Submission: pp.Submission.Path,
		Language:   pp.Language,
		Compile:    pp.Compile,
		Isolation:  sb.Isolation(),
		Warning:    sb.Warning(),
		Limits:     o.limits(p),
	}
	if !pp.Compile.OK {
		r.Verdict = verdict.CE
		r.Summary = summarize(nil, len(tests), verdict.CE)
		return r, nil
	}
	chk, done := o.Checker, func() {}
	if chk == nil {
		if chk, done, err = BuildChecker(ctx, p, *o); err != nil {
			return nil, err
		}
	}
	defer done()
	g := &grader{p: p, prog: pp.prog, sb: sb, opts: o, limits: r.Limits, checker: chk}
	if r.Tests, err = g.runAll(ctx, tests); err != nil {
		return nil, err
	}
	r.Verdict = overall(r.Tests)
	r.Summary = summarize(r.Tests, len(tests), r.Verdict)
	return r, nil
}
