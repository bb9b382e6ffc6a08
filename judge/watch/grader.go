package watch

import (
	"context"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"

	"github.com/optjudge/optjudge/checkers/explain"
	"github.com/optjudge/optjudge/judge"
	"github.com/optjudge/optjudge/problems"
	"github.com/optjudge/optjudge/problems/kattis"
	"github.com/optjudge/optjudge/verdict"
)

// Outcome is a finished grade.
type Outcome struct {
	Report  *judge.Report
	Failure *Failure // the first test, in test order, that is not AC; nil when there is none
	// Interactions are an interactive problem's samples that are only an
	// .interaction file: shown as the statement shows them, never run.
	Interactions []kattis.Sample
}

// Failure is what explains one failing test.
type Failure struct {
	Test   judge.TestResult
	Input  []byte
	Output []byte // what the program wrote to standard output
	Answer []byte // the answer file, or the reference's output; nil when there is neither
	// Picture draws the failing case before and after the program's moves,
	// for the puzzle checkers; "" for the others.
	Picture string
	// Interactive: the program talked with the problem's validator, so
	// there is no output to compare; Interaction is the sample's
	// .interaction file, when the test has one.
	Interactive bool
	Interaction []byte
}

// Grader grades one source file on a problem with a Judge.
type Grader struct {
	Judge    *judge.Judge
	Problem  *problems.Problem
	Source   string
	TestsDir string // "": the problem's tests; else every TestsDir/*.in
	Build    judge.BuildOptions
	// Options are the grading options; Tests and Progress are set by each
	// grade.
	Options judge.GradeOptions
}

// Grade lists the tests afresh (they may have changed since the last
// grade), the samples first, grades the source on them and explains the
// first failure from the outputs the report carries. It leaves no file
// behind.
func (g *Grader) Grade(ctx context.Context, progress func(judge.TestResult)) (*Outcome, error) {
	tests, err := g.tests()
	if err != nil {
		return nil, err
	}
	opts := g.Options
	opts.Tests, opts.Progress = tests, progress
	r, err := g.Judge.Grade(ctx, g.Problem, judge.Submission{Path: g.Source}, g.Build, opts)
	if err != nil {
		return nil, err
	}
	o := &Outcome{Report: r, Failure: g.explain(r, tests)}
	if g.TestsDir == "" {
		for _, s := range g.Problem.Package.Samples() {
			if s.Test == nil && s.Interaction != "" {
				o.Interactions = append(o.Interactions, s)
			}
		}
	}
	return o, nil
}

// tests lists the tests to run, the samples first.
func (g *Grader) tests() ([]kattis.Test, error) {
	var (
		ts  []kattis.Test
		err error
	)
	if g.TestsDir != "" {
		ts, err = problems.TestsIn(g.TestsDir)
	} else {
		ts, err = g.Problem.Package.Tests()
	}
	if err != nil {
		return nil, fmt.Errorf("listing the tests: %w", err)
	}
	if len(ts) == 0 {
		where := g.TestsDir
		if where == "" {
			where = g.Problem.Package.Origin
		}
		return nil, fmt.Errorf("%s: no tests", where)
	}
	return SamplesFirst(ts), nil
}

// SamplesFirst orders tests so that the sample tests (group sample, or a
// name holding "sample") come first, keeping the order within each part.
func SamplesFirst(ts []kattis.Test) []kattis.Test {
	ts = append([]kattis.Test(nil), ts...)
	sample := func(t kattis.Test) bool {
		return t.Group == "sample" || strings.Contains(path.Base(t.Name), "sample")
	}
	sort.SliceStable(ts, func(i, j int) bool { return sample(ts[i]) && !sample(ts[j]) })
	return ts
}

// explain gathers what shows why the first failing test failed.
func (g *Grader) explain(r *judge.Report, tests []kattis.Test) *Failure {
	i := verdict.FirstRejected(r.Tests, func(t judge.TestResult) verdict.Verdict { return t.Verdict })
	if i < 0 {
		return nil
	}
	tr := &r.Tests[i]
	f := &Failure{Test: *tr, Output: tr.Output, Interactive: g.Problem.Package.Validation.Interactive}
	if tr.Index >= 0 && tr.Index < len(tests) {
		t := tests[tr.Index]
		// Best effort: what cannot be read is left out of the picture.
		f.Input, _ = t.Input()
		f.Answer, _ = t.Answer()
		if t.Config != nil && t.Config.Interaction != "" {
			f.Interaction, _ = fs.ReadFile(t.FS, t.Config.Interaction)
		}
		if f.Answer == nil && g.Problem.Reference != nil && f.Input != nil {
			f.Answer, _ = g.Problem.Reference.Solve(f.Input)
		}
	}
	if f.Input != nil {
		f.Picture = explain.Failure(g.Problem.PuzzleChecker(), f.Input, f.Output, tr.Finding)
	}
	return f
}

// TestDirs lists the directories whose changes call for a new grade: the
// --tests directory, or every directory of the problem's tests on disk, in
// either layout (an embedded problem has none).
func TestDirs(p *problems.Problem, testsDir string) []string {
	if testsDir != "" {
		return []string{testsDir}
	}
	return p.TestDirs()
}
