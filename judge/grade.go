package judge

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/optjudge/optjudge/bytesize"
	"github.com/optjudge/optjudge/checkers"
	"github.com/optjudge/optjudge/judge/lang"
	"github.com/optjudge/optjudge/judge/sandbox"
	"github.com/optjudge/optjudge/problems"
	"github.com/optjudge/optjudge/problems/kattis"
	"github.com/optjudge/optjudge/verdict"
)

// GradeOptions tune one grading. The zero value grades on the problem's
// sample then secret tests, under its limits, one test at a time.
type GradeOptions struct {
	Tests       []kattis.Test // nil: the problem's sample then secret tests
	TimeLimit   time.Duration // CPU time per test; 0: the problem's
	WallLimit   time.Duration // 0: 2 x TimeLimit + 1 s
	MemoryLimit bytesize.Size // 0: the problem's
	// SleepWallLimit, when set below the wall-clock limit, ends a test's
	// run that has gone on that long, used no CPU time for the last half
	// second (sandbox.SleepFor) and sleeps in every thread as TLE
	// (sandbox.Limits.SleepWall), while one that computes runs
	// on to its limits: judge verify's wall limit for a sleeping
	// time-limit-exceeded submission, as BAPCtools' timeout. A report
	// regraded to a lower limit (Judge.Regrade) is right only when this
	// is no lower than the wall limit that goes with it: a run stopped
	// asleep says nothing of a longer wall limit.
	SleepWallLimit time.Duration
	// ThenTimeLimit, when set below the time limit, is the CPU limit of
	// every test but one at a time: judge verify raises a
	// time-limit-exceeded submission's limit to see that a test exceeds
	// that, and holds its tests to their expectations under the real limit
	// (Judge.Regrade), so one test over the raised limit is all it needs
	// of it. Until a test has been TLE (by its CPU or wall clock) under
	// the time limit, one test at a time runs under it and the others
	// beside it under ThenTimeLimit; after, every test runs under
	// ThenTimeLimit. A test TLE under ThenTimeLimit while none has been
	// TLE under the time limit is run again under it, once the one under
	// it has ended, its result replacing the first, until one is TLE: so
	// a test of the report is TLE only if one was TLE under the time
	// limit. Their wall-clock limit is ThenWallLimit (or WallLimit, if
	// lower). Which tests ran under which limit depends on timing; their
	// verdicts under ThenTimeLimit (Regrade) do not, nor does whether one
	// test was TLE under the time limit. Progress sees a test run again
	// once, its first run.
	ThenTimeLimit time.Duration
	// ThenWallLimit is the wall-clock limit under ThenTimeLimit; 0: the
	// one that goes with it.
	ThenWallLimit time.Duration
	// Lazy skips the tests whose results can no longer change the
	// outcome, as the grading rules say from the results so far: after
	// the first test that is not AC, every other; in a Kattis package's own
	// tests, those the problem's grading finds unneeded
	// (kattis.Package.Unneeded: after a rejected test, the rest of each
	// group with on_reject: break under the legacy rules, as problemtools
	// judges; in 2025-09, the rest of a group whose verdict and score it
	// fixes, such as a pass-fail or min group, and the groups whose
	// requirements it fails). A judge error on a skipped test is not
	// found.
	Lazy bool
	// Need, when set, names the tests Lazy never skips: those whose own
	// results a caller reads however an earlier test fared (judge verify's
	// expectations on some tests).
	Need func(kattis.Test) bool
	// Stop, when set, ends the grading at the first test, in test order,
	// whose verdict it says no later test can mend (judge verify: a
	// verdict a permitted rule of the submission excludes): the tests
	// after it are skipped, or cancelled while they run, and the results
	// are those up to it, however many ran at once.
	Stop     func(kattis.Test, verdict.Verdict) bool
	Parallel int  // tests run at once; 0 or 1: one at a time (the Judge's MaxRuns bounds them too)
	Keep     bool // keep each test's working directory (TestResult.Dir), for people
	// Checker judges every test's output; nil: each test's checker
	// (Judge.Checkers: the default output validator with the test's
	// flags, or the checker program, built once per Judge and problem
	// version, with the test's arguments). An interactive problem's
	// validator talks with the submission instead.
	Checker checkers.Checker
	// Outputs says whose stdout the results keep (TestResult.Output):
	// every test's (OutputsAll, the default), the rejected tests' only
	// (OutputsRejected: what an explanation of a failure needs, without
	// holding up to the output limit per accepted test), or none.
	Outputs Outputs
	// Progress, when set, is called once per finished test, in completion
	// order, never concurrently, never while a lock of the workers is held,
	// and never after Grade has returned.
	Progress func(TestResult)
}

// Outputs says which tests' output a grading keeps in its results.
type Outputs uint8

const (
	OutputsAll      Outputs = iota // every test's
	OutputsRejected                // only the tests that are not AC
	OutputsNone                    // none
)

func (o Outputs) keeps(v verdict.Verdict) bool {
	return o == OutputsAll || (o == OutputsRejected && v != verdict.AC)
}

// DefaultWallLimit is the wall-clock limit that goes with the CPU limit cpu
// unless one is given.
func DefaultWallLimit(cpu time.Duration) time.Duration { return 2*cpu + time.Second }

// limits are the limits in force for a grading.
func (o *GradeOptions) limits(p *problems.Problem) Limits {
	l := Limits{Time: p.Limits.Time, Memory: p.Limits.Memory, Output: p.Limits.Output}
	if o.TimeLimit > 0 {
		l.Time = o.TimeLimit
	}
	if o.MemoryLimit > 0 {
		l.Memory = o.MemoryLimit
	}
	l.Wall = DefaultWallLimit(l.Time)
	if o.WallLimit > 0 {
		l.Wall = o.WallLimit
	}
	if o.SleepWallLimit > 0 && o.SleepWallLimit < l.Wall {
		l.SleepWall = o.SleepWallLimit
	}
	l.fill()
	return l
}

// Grade judges the prepared submission on the tests of p. A cancelled
// grading returns the report of the tests that finished, marked
// Incomplete (its verdict UNKNOWN), together with ctx's error; any other
// error comes without a report.
func (pp *Prepared) Grade(ctx context.Context, p *problems.Problem, o GradeOptions) (*Report, error) {
	if o.TimeLimit < 0 || o.WallLimit < 0 || o.SleepWallLimit < 0 || o.ThenTimeLimit < 0 || o.ThenWallLimit < 0 || o.MemoryLimit < 0 {
		return nil, errors.New("negative limit")
	}
	tests := o.Tests
	if tests == nil {
		var err error
		if tests, err = p.Package.Tests(); err != nil {
			return nil, fmt.Errorf("listing tests of %s: %w", p.Package.Origin, err)
		}
	}
	if len(tests) == 0 {
		return nil, fmt.Errorf("%s: no tests", p.Package.Origin)
	}
	j := pp.j
	defer j.holdTools(p)() // its programs stay built while it runs
	r := &Report{
		Problem:    p.Name,
		Submission: pp.Submission.Path,
		Language:   pp.Language,
		Compile:    pp.Compile,
		Isolation:  j.Isolation(),
		Warning:    j.Warning(),
		Limits:     o.limits(p),
	}
	if !pp.Compile.OK {
		r.Verdict = verdict.CE
		r.Summary = summarize(nil, len(tests), verdict.CE)
		r.Score = noScore(p, verdict.CE)
		return r, nil
	}
	if pp.prog == nil {
		return nil, errors.New("grading a closed build")
	}
	g := &grader{p: p, j: j, prog: pp.prog, opts: &o, limits: r.Limits}
	if err := g.setup(ctx, pp.langs); err != nil {
		return nil, err
	}
	done, err := g.runAll(ctx, tests)
	total := len(tests)
	if st := staticTests(p); err == nil && st != nil && o.Tests == nil {
		// the static validation test cases: the static validator on the
		// submission's files, once each
		var static []TestResult
		if static, err = g.validateStatic(ctx, pp.langs, st); err == nil {
			done = append(done, static...)
			total += len(static)
		}
	}
	r.Tests = done
	switch {
	case err != nil && ctx.Err() != nil:
		r.Incomplete = true
		r.Verdict = verdict.Unknown
		r.Summary = summarize(r.Tests, total, r.Verdict)
		r.Score = noScore(p, verdict.Unknown)
		return r, ctx.Err()
	case err != nil:
		return nil, err
	}
	if err := g.score(ctx, r, tests); err != nil {
		return nil, err
	}
	r.Summary = summarize(r.Tests, total, r.Verdict)
	return r, nil
}

// setup gets the grading's programs: each test's checker, or the
// interactive validator, and the custom grader.
func (g *grader) setup(ctx context.Context, langs *lang.Table) error {
	if g.p.Package.Validation.Interactive && g.p.Package.Validation.Program != nil {
		t, err := g.j.tool(ctx, g.p, *g.p.Package.Validation.Program, langs)
		if err != nil {
			return err
		}
		g.interactor = t
		if g.p.Package.Validation.Program.Protocol != checkers.Testlib || g.opts.Checker != nil {
			return g.setupGrader(ctx, langs)
		}
		// a testlib interactor's output goes to the checker
	}
	if g.opts.Checker != nil {
		if err := prepareChecker(ctx, g.opts.Checker); err != nil {
			return err
		}
		return g.setupGrader(ctx, langs)
	}
	chks, err := g.j.Checkers(ctx, g.p, langs)
	if err != nil {
		return err
	}
	g.checkers = chks
	if chks.program == nil {
		if err := prepareChecker(ctx, g.p.Package.Checker); err != nil {
			return err
		}
	}
	return g.setupGrader(ctx, langs)
}

// prepareChecker does a checker's work before its first check (a
// puzzle's tables built or read: checkers.Preparer) before any run is
// timed, so that the judge's own work never competes with a timed run.
func prepareChecker(ctx context.Context, c checkers.Checker) error {
	if p, ok := c.(checkers.Preparer); ok {
		if err := p.Prepare(ctx); err != nil {
			return fmt.Errorf("checker: %w", err)
		}
	}
	return nil
}

// checkerFor is the checker of test t.
func (g *grader) checkerFor(t kattis.Test) checkers.Checker {
	if g.opts.Checker != nil {
		return g.opts.Checker
	}
	return g.checkers.For(t)
}

// grader runs the tests of one grading.
type grader struct {
	p          *problems.Problem
	j          *Judge
	prog       *program
	opts       *GradeOptions
	limits     Limits
	checkers   *Checkers // each test's, unless opts.Checker
	interactor *tool     // the interactive validator, or nil
	custom     *tool     // the legacy custom grader (graders/), or nil
}

// runAll runs the tests on Parallel workers (scheduler) and returns the
// results in test order. With Lazy, the tests that the results so far make
// unneeded (see GradeOptions.Lazy) are skipped, or cancelled while they
// run; the results are those of a one-at-a-time run (lazyRun), so the
// verdict is too. When ctx ends, it returns the tests that finished with
// ctx's error.
func (g *grader) runAll(ctx context.Context, tests []kattis.Test) ([]TestResult, error) {
	then := g.then()
	s := &scheduler{
		runTest: func(ctx context.Context, i int, underThen bool, w *workDir) (TestResult, error) {
			run := g
			if underThen {
				run = then
			}
			tr, err := run.runTest(ctx, i, tests[i], w)
			if !g.opts.Outputs.keeps(tr.Verdict) {
				tr.Output = nil
			}
			return tr, err
		},
		progress: g.opts.Progress,
		crew:     newCrew(g.opts.Parallel, len(tests), !g.opts.Lazy),
		raise:    raise{on: then != nil},
	}
	if stop := g.opts.Stop; stop != nil {
		s.stop.stop = func(i int, v verdict.Verdict) bool { return stop(tests[i], v) }
	}
	if g.opts.Lazy {
		s.lazy = g.lazyRun(tests)
	}
	return s.run(ctx, len(tests))
}

// then is the grader of the tests under ThenTimeLimit, or nil when there
// is none.
func (g *grader) then() *grader {
	if g.opts.ThenTimeLimit <= 0 || g.opts.ThenTimeLimit >= g.limits.Time {
		return nil
	}
	t := *g
	t.limits = g.limits.under(g.opts.ThenTimeLimit, g.opts.ThenWallLimit)
	return &t
}

// runTest runs test i in a fresh working directory (w's, emptied) and
// judges it. Only a cancelled context or a failure to set the test up is an
// error; a sandbox or checker failure is a JE result.
func (g *grader) runTest(ctx context.Context, i int, t kattis.Test, w *workDir) (TestResult, error) {
	tr := TestResult{Name: t.Name, Index: i}
	input, err := t.Input()
	if err != nil {
		return tr, err
	}
	answer, err := t.Answer()
	if err != nil {
		return tr, err
	}
	if g.prog.answers {
		g.answer(ctx, &tr, t, input, answer)
		if ctx.Err() != nil {
			return tr, ctx.Err()
		}
		return tr, nil
	}
	if g.p.Package.Validation.Passes > 0 {
		return tr, g.multiPass(ctx, &tr, t, input, answer, w)
	}
	dir, err := g.workDir(&tr, w)
	if err != nil {
		return tr, err
	}
	if err := g.testFiles(t, dir); err != nil {
		return tr, err
	}
	cmd := g.command(t, dir)
	if g.interactor != nil {
		return tr, g.interact(ctx, &tr, t, input, answer, cmd)
	}
	cmd.Stdin = input
	res, err := g.j.run(ctx, cmd)
	if ctx.Err() != nil {
		return tr, ctx.Err()
	}
	o := g.ran(res, err)
	tr.outcome = o
	if err == nil {
		tr.measure(res)
		if g.opts.Keep {
			saveOutputs(dir, res)
		}
	}
	if o.needsChecker() {
		g.check(ctx, o, t, input, res.Stdout, answer)
		if ctx.Err() != nil {
			return tr, ctx.Err() // the checker was cancelled: no verdict, not JE
		}
	}
	o.decide(&tr, g.limits)
	return tr, nil
}

// command is the program's run on test t in dir, with the test's
// arguments (a Kattis package's args) after its own; no standard input
// yet.
func (g *grader) command(t kattis.Test, dir string) *sandbox.Cmd {
	argv := g.prog.argv(g.limits.Memory)
	cmd := &sandbox.Cmd{
		Path:        argv[0],
		Args:        argv[1:],
		Dir:         dir,
		Env:         lang.WithDir(g.prog.env, dir),
		ReadOnly:    g.prog.readOnly,
		Limits:      g.limits.sandbox(),
		ReadOnlyDir: g.readOnlyDir(),
	}
	if t.Config != nil && len(t.Config.Args) > 0 {
		cmd.Args = append(slices.Clone(cmd.Args), t.Config.Args...)
	}
	return cmd
}

// readOnlyDir says whether the submission may not write in its working
// directory: a Kattis package's allow_file_writing: false (2025-09's
// default).
func (g *grader) readOnlyDir() bool {
	return g.p.Package.Layout == kattis.LayoutKattis && !g.p.Package.Submit.AllowFileWriting
}

// workDir is the test's working directory with the program in it: the
// worker's own, emptied, or with Keep a new one left for people. One the
// submission may not write in is readable by all.
func (g *grader) workDir(tr *TestResult, w *workDir) (string, error) {
	if !g.opts.Keep {
		w.readable = g.readOnlyDir()
		return w.fresh(g.j, g.prog)
	}
	dir, err := os.MkdirTemp(g.j.cfg.TempDir, "optjudge-run-")
	if err != nil {
		return "", fmt.Errorf("creating a working directory: %w", err)
	}
	if g.readOnlyDir() {
		if err := os.Chmod(dir, 0o755); err != nil {
			return "", fmt.Errorf("creating a working directory: %w", err)
		}
	}
	tr.Dir = dir
	for _, f := range g.prog.files {
		if _, err := placeFile(g.j, g.prog, f, dir); err != nil {
			return "", err
		}
	}
	return dir, nil
}

// answer judges a submit-answer problem's answer file for test t as the
// output of a run, through the one mapping to a verdict (outcome): a
// missing one is WA, one over the output limit OLE.
func (g *grader) answer(ctx context.Context, tr *TestResult, t kattis.Test, input, answer []byte) {
	o := &outcome{status: sandbox.OK}
	tr.outcome = o
	defer o.decide(tr, g.limits)
	name, ok := kattis.AnswerFile(g.prog.files, t)
	if !ok {
		o.check(checkers.Result{Verdict: verdict.WA, Message: fmt.Sprintf("no answer for %s (a file %s.out, or %s.out)", t.Name, t.Name, path.Base(t.Name))}, "")
		return
	}
	p := filepath.Join(g.prog.dir, filepath.FromSlash(name))
	if st, err := os.Stat(p); err != nil || st.Size() > int64(g.limits.Output) {
		o.status = sandbox.OutputLimit
		return
	}
	out, err := os.ReadFile(p)
	if err != nil {
		o.check(checkers.Result{}, err.Error())
		return
	}
	if g.opts.Outputs.keeps(verdict.WA) {
		tr.Output = out
	}
	g.check(ctx, o, t, input, out, answer)
}

// check hands a completed run's output to the checker, and records what
// it said in o.
func (g *grader) check(ctx context.Context, o *outcome, t kattis.Test, input, output, answer []byte) {
	chk := g.checkerFor(t)
	if answer == nil && g.p.Reference != nil && checkers.UsesAnswer(chk) {
		var err error
		if answer, err = g.p.Reference.Solve(input); err != nil {
			o.check(checkers.Result{}, fmt.Sprintf("reference on %s: %v", t.Path(t.In), err))
			return
		}
	}
	cr, err := chk.Check(ctx, checkers.Files{Input: input, Output: output, Answer: answer})
	if err != nil {
		o.check(cr, "checker: "+err.Error())
		return
	}
	o.check(cr, "")
}

// saveOutputs leaves the run's output beside it for Keep.
func saveOutputs(dir string, res *sandbox.Result) {
	os.WriteFile(filepath.Join(dir, "stdout.txt"), res.Stdout, 0o644)
	os.WriteFile(filepath.Join(dir, "stderr.txt"), res.Stderr, 0o644)
}

// firstLine returns the first non-empty line of b, cut to n bytes.
func firstLine(b []byte, n int) string {
	for _, l := range strings.Split(string(b), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			if len(l) > n {
				l = l[:n] + "..."
			}
			return l
		}
	}
	return ""
}
