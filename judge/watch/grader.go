package watch

import (
	"context"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/optjudge/optjudge/checkers/explain"
	"github.com/optjudge/optjudge/judge"
	"github.com/optjudge/optjudge/judge/verdict"
	"github.com/optjudge/optjudge/problems"
)

// Outcome is a finished grade.
type Outcome struct {
	Report  *judge.Report
	Failure *Failure // the first test, in test order, that is not AC; nil when there is none
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
}

// Grader grades one source file on a problem with judge.Grade.
type Grader struct {
	Problem  *problems.Problem
	Source   string
	TestsDir string // "": the problem's tests; else every TestsDir/*.in
	// Options are the grading options. Tests, Keep, TempDir and Progress
	// are set by each grade; TempDir is the directory under which each
	// grade makes, and removes, its own.
	Options judge.Options
}

// Grade lists the tests afresh (they may have changed since the last
// grade), the samples first, grades the source on them and explains the
// first failure. It leaves no file behind.
func (g *Grader) Grade(ctx context.Context, progress func(judge.TestResult)) (*Outcome, error) {
	tests, err := g.tests()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp(g.Options.TempDir, "optjudge-watch-")
	if err != nil {
		return nil, fmt.Errorf("creating a directory for the grade: %w", err)
	}
	defer os.RemoveAll(dir)
	opts := g.Options
	// Keep leaves each test's output in its directory, under dir, for
	// the explanation; dir goes when the grade is over.
	opts.Tests, opts.Keep, opts.TempDir, opts.Progress = tests, true, dir, progress
	r, err := judge.Grade(ctx, g.Problem, judge.Submission{Path: g.Source}, opts)
	if err != nil {
		return nil, err
	}
	o := &Outcome{Report: r, Failure: g.explain(r, tests)}
	r.KeptIn = ""
	for i := range r.Tests {
		r.Tests[i].Dir = ""
	}
	return o, nil
}

// tests lists the tests to run, the samples first.
func (g *Grader) tests() ([]problems.Test, error) {
	var (
		ts  []problems.Test
		err error
	)
	if g.TestsDir != "" {
		ts, err = problems.TestsIn(g.TestsDir)
	} else {
		ts, err = g.Problem.Tests()
	}
	if err != nil {
		return nil, fmt.Errorf("listing the tests: %w", err)
	}
	if len(ts) == 0 {
		where := g.TestsDir
		if where == "" {
			where = g.Problem.Origin
		}
		return nil, fmt.Errorf("%s: no tests", where)
	}
	return SamplesFirst(ts), nil
}

// SamplesFirst orders tests so that the sample tests (group sample, or a
// name holding "sample") come first, keeping the order within each part.
func SamplesFirst(ts []problems.Test) []problems.Test {
	ts = append([]problems.Test(nil), ts...)
	sample := func(t problems.Test) bool {
		return t.Group == "sample" || strings.Contains(path.Base(t.Name), "sample")
	}
	sort.SliceStable(ts, func(i, j int) bool { return sample(ts[i]) && !sample(ts[j]) })
	return ts
}

// explain gathers what shows why the first failing test failed.
func (g *Grader) explain(r *judge.Report, tests []problems.Test) *Failure {
	var tr *judge.TestResult
	for i := range r.Tests {
		if r.Tests[i].Verdict != verdict.AC {
			tr = &r.Tests[i]
			break
		}
	}
	if tr == nil {
		return nil
	}
	f := &Failure{Test: *tr}
	f.Test.Dir = ""
	for _, t := range tests {
		if t.Name != tr.Name {
			continue
		}
		// Best effort: what cannot be read is left out of the picture.
		f.Input, _ = t.Input()
		f.Answer, _ = t.Answer()
		if f.Answer == nil && g.Problem.Reference != nil && f.Input != nil {
			f.Answer, _ = g.Problem.Reference.Solve(f.Input)
		}
	}
	if tr.Dir != "" {
		f.Output, _ = os.ReadFile(filepath.Join(tr.Dir, "stdout.txt"))
	}
	if g.Problem.Spec != nil && f.Input != nil {
		f.Picture = explain.Failure(g.Problem.Spec.Checker.Name, f.Input, f.Output, tr.Message)
	}
	return f
}

// TestDirs lists the directories whose changes call for a new grade: the
// --tests directory, or the testdata directories of a problem on disk (an
// embedded problem has none).
func TestDirs(p *problems.Problem, testsDir string) []string {
	if testsDir != "" {
		return []string{testsDir}
	}
	if strings.HasPrefix(p.Origin, "embedded:") {
		return nil
	}
	var dirs []string
	for _, d := range []string{"testdata", "testdata/sample", "testdata/secret"} {
		d = filepath.Join(p.Origin, d)
		if st, err := os.Stat(d); err == nil && st.IsDir() {
			dirs = append(dirs, d)
		}
	}
	return dirs
}
