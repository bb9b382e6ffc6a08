package judge

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/optjudge/optjudge/problems"
	"github.com/optjudge/optjudge/problems/kattis"
	"github.com/optjudge/optjudge/verdict"
)

// lazyPackages are the packages the lazy property test grades: every
// problem shipped (embedded or under problems/), every test package on
// disk (problems/testdata, the CLI's goldens' packages), the legacy
// scoring package of scoring_test.go, and packages made here to reach
// every rule the pruning rests on (nested groups with each on_reject and
// grader flag, a custom grader; 2025-09 require_pass chains, pass-fail,
// sum, min and unbounded groups).
func lazyPackages(t *testing.T) map[string]*problems.Problem {
	t.Helper()
	out := map[string]*problems.Problem{}
	for _, name := range problems.Embedded() {
		p, err := problems.LoadEmbedded(name)
		if err != nil {
			t.Fatalf("embedded %s: %v", name, err)
		}
		out["embedded "+name] = p
	}
	for _, pattern := range []string{"../problems/*/problem.yaml", "../problems/testdata/*/problem.yaml", "../cmd/judge/testdata/files/*/problem.yaml"} {
		files, _ := filepath.Glob(pattern)
		for _, f := range files {
			p, err := problems.LoadDir(filepath.Dir(f))
			if err != nil {
				continue // the CLI's broken packages, made to fail
			}
			if tests, err := p.Package.Tests(); err == nil && len(tests) == 0 {
				continue // generators.yaml packages: no data until judge generate
			}
			out[filepath.Dir(f)] = p
		}
	}
	if len(out) < 10 {
		t.Fatalf("found %d packages, want the shipped and test ones", len(out))
	}
	out["legacyScoring"] = legacyScoring(t, nil)
	out["legacyScoring custom"] = legacyScoring(t, map[string]string{
		"data/secret/a/testdata.yaml": "on_reject: break\naccept_score: 50\nrange: 0 50\ngrading: custom\n",
	})
	out["legacy nested"] = writePackage(t, "nested", legacyNested("type: scoring\n"))
	out["legacy nested pass-fail"] = writePackage(t, "nestedpf", legacyNested(""))
	out["legacy ignore_sample"] = writePackage(t, "ignore", legacyIgnoreSample())
	out["2025 requirements"] = writePackage(t, "req", requirements2025(true, false))
	out["2025 unbounded"] = writePackage(t, "unbounded", requirements2025(true, true))
	out["2025 pass-fail"] = writePackage(t, "pf", requirements2025(false, false))
	return out
}

// legacyNested is a legacy package with groups three deep, each with its
// own on_reject and grader flags.
func legacyNested(typ string) map[string]string {
	files := map[string]string{
		"problem.yaml":                            "name: Nested\n" + typ,
		"data/testdata.yaml":                      "on_reject: continue\ngrader_flags: ignore_sample\n",
		"data/sample/testdata.yaml":               "on_reject: break\naccept_score: 0\ngrader_flags: first_error\n",
		"data/secret/testdata.yaml":               "on_reject: break\ngrader_flags: worst_error sum\n",
		"data/secret/a/testdata.yaml":             "on_reject: break\naccept_score: 10\ngrader_flags: first_error min\n",
		"data/secret/b/testdata.yaml":             "on_reject: continue\naccept_score: 5\ngrader_flags: always_accept\n",
		"data/secret/c/testdata.yaml":             "on_reject: break\ngrader_flags: accept_if_any_accepted max\n",
		"data/secret/c/deep/testdata.yaml":        "on_reject: break\naccept_score: 3\n",
		"data/secret/c/deep/deeper/testdata.yaml": "on_reject: continue\naccept_score: 2\ngrader_flags: avg\n",
		"data/secret/d/testdata.yaml":             "on_reject: break\ngrading: custom\n",
		"graders/grade.py":                        "print('AC 0')\n",
	}
	for _, dir := range []string{"sample", "secret/a", "secret/b", "secret/c", "secret/c/deep", "secret/c/deep/deeper", "secret/d"} {
		for i := 1; i <= 3; i++ {
			files[fmt.Sprintf("data/%s/%d.in", dir, i)] = "1\n"
			files[fmt.Sprintf("data/%s/%d.ans", dir, i)] = "1\n"
		}
	}
	files["data/secret/0-first.in"], files["data/secret/0-first.ans"] = "1\n", "1\n"
	files["data/secret/z-last.in"], files["data/secret/z-last.ans"] = "1\n", "1\n"
	return files
}

// legacyIgnoreSample is a legacy package whose groups secret and
// secret/e inherit data/'s grader flags, ignore_sample always_accept: the
// default grader fails on e's third result, so only a rejection before it
// (on_reject: break) keeps the grading from a judge error, and e accepts
// whatever else; secret's score is its last group's.
func legacyIgnoreSample() map[string]string {
	files := map[string]string{
		"problem.yaml":                "name: Ignore\ntype: scoring\n",
		"data/testdata.yaml":          "grader_flags: ignore_sample always_accept\n",
		"data/sample/testdata.yaml":   "grader_flags: first_error\naccept_score: 0\n",
		"data/secret/testdata.yaml":   "on_reject: break\n",
		"data/secret/e/testdata.yaml": "on_reject: break\naccept_score: 7\n",
		"data/secret/f/testdata.yaml": "on_reject: continue\ngrader_flags: first_error\naccept_score: 3\n",
	}
	for _, dir := range []string{"sample", "secret/e", "secret/f"} {
		for i := 1; i <= 3; i++ {
			files[fmt.Sprintf("data/%s/%d.in", dir, i)] = "1\n"
			files[fmt.Sprintf("data/%s/%d.ans", dir, i)] = "1\n"
		}
	}
	return files
}

// requirements2025 is a 2025-09 package whose groups require each other
// in a chain and across, with every aggregation; unbounded, with secret's
// score unbounded and a group of unbounded score.
func requirements2025(scoring, unbounded bool) map[string]string {
	typ := ""
	if scoring {
		typ = "type: scoring\n"
	}
	files := map[string]string{
		"problem.yaml":                "problem_format_version: 2025-09\nname: Req\nuuid: 1b3f8c5e-3d2a-4e1b-9c8d-7a6b5c4d3e2f\nlicense: cc0\nsource: optjudge tests\n" + typ,
		"data/secret/test_group.yaml": "",
	}
	groups := map[string]string{"g1": "", "g2": "", "g3": ""}
	switch {
	case unbounded:
		files["data/secret/test_group.yaml"] = "max_score: unbounded\nscore_aggregation: sum\n"
		groups = map[string]string{
			"u1": "max_score: unbounded\nscore_aggregation: sum\n",
			"u2": "max_score: 10\n",
			"u3": "max_score: 5\nscore_aggregation: min\nrequire_pass: secret/u2\n",
		}
	case scoring:
		files["data/secret/test_group.yaml"] = "max_score: 100\nscore_aggregation: sum\n"
		groups = map[string]string{
			"g1": "max_score: 10\n",
			"g2": "max_score: 20\nscore_aggregation: sum\nrequire_pass: secret/g1\n",
			"g3": "max_score: 30\nrequire_pass: [sample, secret/g1]\n",
			"g4": "max_score: 20\nscore_aggregation: min\nrequire_pass: [secret/g3]\n",
			"g5": "max_score: 20\nscore_aggregation: sum\n",
		}
	}
	for g, yaml := range groups {
		files["data/secret/"+g+"/test_group.yaml"] = yaml
		for i := 1; i <= 3; i++ {
			files[fmt.Sprintf("data/secret/%s/%d.in", g, i)] = "1\n"
			files[fmt.Sprintf("data/secret/%s/%d.ans", g, i)] = "1\n"
		}
	}
	for i := 1; i <= 2; i++ {
		files[fmt.Sprintf("data/sample/%d.in", i)] = "1\n"
		files[fmt.Sprintf("data/sample/%d.ans", i)] = "1\n"
	}
	return files
}

// customGrader stands for a package's grader program: an arbitrary rule
// (accepted when an even number of items are rejected), which no pruning
// may second-guess.
func customGrader(_ *kattis.Group, children []kattis.Outcome) (kattis.Outcome, error) {
	rejected, sum := 0, 0.0
	for _, c := range children {
		if c.Verdict != verdict.AC {
			rejected++
		}
		sum += c.Score
	}
	if rejected%2 == 0 {
		return kattis.Outcome{Verdict: verdict.AC, Score: sum}, nil
	}
	return kattis.Outcome{Verdict: verdict.WA, Score: sum / 2}, nil
}

// gradeResults grades the given results of tests as Grade's scoring does:
// by the package's rules, else the first rejected test's verdict.
func gradeResults(t *testing.T, p *problems.Problem, tests []kattis.Test, results []TestResult) (verdict.Verdict, float64) {
	t.Helper()
	if !gradable(p, tests) {
		return overall(results), 0
	}
	byName := map[string]TestResult{}
	for _, r := range results {
		byName[r.Name] = r
	}
	g, err := p.Package.Grade(func(t *kattis.Test) (kattis.TestResult, bool) {
		r, ok := byName[t.Name]
		return kattis.TestResult{Verdict: r.Verdict, Score: r.validatorScore, Multiplier: r.validatorMultiplier}, ok
	}, customGrader)
	if err != nil {
		t.Fatal(err)
	}
	return g.Verdict, g.Score
}

// randomResults draws a verdict for each test (AC with probability pAC,
// else any other verdict a run may get) and, where the validator may
// write one, a score: in 2025-09, a multiplier in a bounded group that
// sums or takes the least, a score in a group of unbounded score (the
// rules refuse any other as a judge error).
func randomResults(rng *rand.Rand, p *problems.Problem, tests []kattis.Test, pAC float64) []TestResult {
	rejected := []verdict.Verdict{verdict.WA, verdict.TLE, verdict.MLE, verdict.OLE, verdict.RE}
	out := make([]TestResult, len(tests))
	for i, tt := range tests {
		r := TestResult{Name: tt.Name, Index: i, Verdict: verdict.AC}
		if rng.Float64() >= pAC {
			r.Verdict = rejected[rng.IntN(len(rejected))]
		}
		if r.Verdict == verdict.AC && p.Package.Validation.ScoreAllowed {
			x := []float64{0, 0.25, 1, 3}[rng.IntN(4)]
			s := p.Package.GroupOf(tt).Settings
			switch {
			case rng.IntN(3) == 0 && !s.Unbounded:
			case p.Package.GroupRules != kattis.GroupRules2025:
				r.validatorScore = &x
			case s.Aggregation == kattis.AggregatePassFail:
			case s.Unbounded:
				r.validatorScore = &x
			default:
				m := x / 3
				r.validatorMultiplier = &m
			}
		}
		if p.Package.Validation.ScoreRequired && r.Verdict == verdict.AC && r.validatorScore == nil {
			x := float64(rng.IntN(5))
			r.validatorScore = &x
		}
		out[i] = r
	}
	return out
}

// lazyOneAtATime runs a lazy grading of results one test at a time, as
// runAll with one worker does, and returns the results kept. It fails the
// test if what is unneeded ever shrinks.
func lazyOneAtATime(t *testing.T, g *grader, tests []kattis.Test, results []TestResult) []TestResult {
	t.Helper()
	l := g.lazyRun(tests)
	done := make([]*TestResult, len(tests))
	skipped := make([]bool, len(tests))
	for i := range tests {
		if skipped[i] {
			continue
		}
		before := slices.Clone(l.dead)
		done[i] = &results[i]
		for _, k := range l.advance(done) {
			skipped[k] = true
		}
		for k := range before {
			if before[k] && !l.dead[k] {
				t.Fatalf("%s was unneeded, and is needed again once %s is known", tests[k].Name, tests[i].Name)
			}
		}
	}
	return l.kept(done)
}

// lazyParallel runs a lazy grading of results on workers that finish in a
// random order, cancelling the tests found unneeded, as runAll does.
func lazyParallel(g *grader, tests []kattis.Test, results []TestResult, workers int, rng *rand.Rand) []TestResult {
	l := g.lazyRun(tests)
	done := make([]*TestResult, len(tests))
	skipped := make([]bool, len(tests))
	var running []int
	next := 0
	for {
		for len(running) < workers && next < len(tests) {
			if !skipped[next] {
				running = append(running, next)
			}
			next++
		}
		if len(running) == 0 {
			return l.kept(done)
		}
		j := rng.IntN(len(running))
		i := running[j]
		running = slices.Delete(running, j, j+1)
		if skipped[i] {
			continue // cancelled while it ran
		}
		done[i] = &results[i]
		for _, k := range l.advance(done) {
			skipped[k] = true
		}
	}
}

func names(rs []TestResult) string {
	var out []string
	for _, r := range rs {
		out = append(out, r.Name)
	}
	return strings.Join(out, " ")
}

// TestLazyEqualsFull: for every package and thousands of seeded random
// results of its tests, a lazy grading (one test at a time, and on
// workers that finish in any order) gives the full grading's verdict and
// score, and keeps the same tests whatever the order.
func TestLazyEqualsFull(t *testing.T) {
	t.Parallel()
	trials := 3000
	if testing.Short() {
		trials = 300 // a tenth: the full run tries 3000
	}
	var mu sync.Mutex
	skippedAny := map[string]bool{}
	for name, p := range lazyPackages(t) {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			tests, err := p.Package.Tests()
			if err != nil || len(tests) == 0 {
				t.Fatalf("tests of %s: %v (%d)", name, err, len(tests))
			}
			g := &grader{p: p, opts: &GradeOptions{Lazy: true}}
			rng := rand.New(rand.NewPCG(21, uint64(len(name))))
			valid, pruned := 0, 0
			for trial := range trials {
				results := randomResults(rng, p, tests, []float64{0.5, 0.85, 0.97}[trial%3])
				wantV, wantS := gradeResults(t, p, tests, results)
				if wantV == verdict.JE {
					continue // a validator's score the rules refuse: lazy cannot know of one it skips
				}
				valid++
				one := lazyOneAtATime(t, g, tests, results)
				if len(one) < len(tests) {
					pruned++
				}
				gotV, gotS := gradeResults(t, p, tests, one)
				if gotV != wantV || gotS != wantS {
					t.Fatalf("trial %d: lazy got %v %v, full %v %v\nresults: %v\nlazy ran: %s", trial, gotV, gotS, wantV, wantS, describeResults(results), names(one))
				}
				par := lazyParallel(g, tests, results, 2+rng.IntN(3), rng)
				if names(par) != names(one) {
					t.Fatalf("trial %d: in parallel lazy kept %s, one at a time %s\nresults: %v", trial, names(par), names(one), describeResults(results))
				}
			}
			if valid < trials/2 {
				t.Errorf("only %d of %d trials had no judge error", valid, trials)
			}
			mu.Lock()
			skippedAny[name] = pruned > 0 || len(tests) == 1
			mu.Unlock()
		})
	}
	// every package of more than one test lets lazy skip something, once
	// the parallel subtests are over
	t.Cleanup(func() {
		for name, ok := range skippedAny {
			if !ok {
				t.Errorf("%s: lazy never skipped a test", name)
			}
		}
	})
}

func describeResults(rs []TestResult) string {
	var b strings.Builder
	for _, r := range rs {
		fmt.Fprintf(&b, "%s=%v", r.Name, r.Verdict)
		if r.validatorScore != nil {
			fmt.Fprintf(&b, "(score %v)", *r.validatorScore)
		}
		if r.validatorMultiplier != nil {
			fmt.Fprintf(&b, "(x%v)", *r.validatorMultiplier)
		}
		b.WriteString(" ")
	}
	return b.String()
}

// TestLazyRunSkips: advance returns every test the results make unneeded,
// those it passes over in order (a rejected test's result arriving in
// order) as well as those after the first not yet known; kept keeps the
// results a run of one test at a time has.
func TestLazyRunSkips(t *testing.T) {
	t.Parallel()
	g := &grader{p: &problems.Problem{}, opts: &GradeOptions{}} // the first-rejected rule
	l := g.lazyRun(make([]kattis.Test, 5))
	results := make([]*TestResult, 5)
	for _, step := range []struct {
		i    int
		v    verdict.Verdict
		skip []int
	}{
		{0, verdict.AC, nil},
		{3, verdict.WA, []int{4}},       // beside 1 and 2, not yet known
		{1, verdict.WA, []int{2, 3, 4}}, // in order: 2, 3 and 4 after it
	} {
		results[step.i] = &TestResult{Name: fmt.Sprint(step.i), Index: step.i, Verdict: step.v}
		if got := l.advance(results); !slices.Equal(got, step.skip) {
			t.Errorf("after test %d %v: skip %v, want %v", step.i, step.v, got, step.skip)
		}
	}
	if got := names(l.kept(results)); got != "0 1" {
		t.Errorf("kept %q, want 0 1", got)
	}
}
