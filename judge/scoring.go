package judge

import (
	"context"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/optjudge/optjudge/judge/lang"
	"github.com/optjudge/optjudge/problems"
	"github.com/optjudge/optjudge/problems/kattis"
	"github.com/optjudge/optjudge/verdict"
)

// Score is a report's grading by the problem's rules. A Kattis package is
// graded as its format version says (kattis.Package.Grade: test
// groups, on_reject, graders, accept and reject scores, score.txt, in
// 2025-09 max_score, score_aggregation and require_pass); its verdict is
// in the Kattis set (MLE counts as RE, OLE as WA), and it is the report's.
// A native problem's verdict is its first rejected test's. The JSON form
// has every key always, in one shape: max is null where there is no best
// score, groups [] when none was graded.
type Score struct {
	// Scoring is true for a scoring problem: Value counts.
	Scoring bool            `json:"scoring"`
	Verdict verdict.Verdict `json:"verdict"`
	// Value is the submission's score; 0 in a pass-fail problem.
	Value float64 `json:"value"`
	// Max is the best score a submission may get (the top of data/'s
	// range, or secret's max_score); nil when unbounded, or pass-fail.
	Max *float64 `json:"max"`
	// Message says why the verdict when it is not AC: the deciding test's
	// message, or what the grading found (a judge error of the
	// validator's scores, a group not run); "" for AC.
	Message string `json:"message"`
	// Test is the test whose message Message is (a Kattis grading's
	// deciding test); "" when Message is the grading's own (a judge error
	// of the scores, a group not run, a grader's words) or there is none.
	Test string `json:"test,omitempty"`
	// Groups are the graded test data groups, parents first (data/ is
	// not listed: it is the submission).
	Groups []GroupScore `json:"groups"`
	// Grading is the model's grading, for callers that check
	// expectations (problems.ExampleSubmission.Check); nil for a native
	// problem, a build that failed or a cancelled grading.
	Grading *kattis.Grading `json:"-"`
}

// GroupScore is one graded group.
type GroupScore struct {
	Name    string          `json:"name"` // "sample", "secret", "secret/group1"
	Verdict verdict.Verdict `json:"verdict"`
	Score   float64         `json:"score"`
	Max     *float64        `json:"max"` // the group's own best score; nil when unbounded, or pass-fail
}

// noScore is the Score of a grading that graded no test.
func noScore(p *problems.Problem, v verdict.Verdict) Score {
	s := Score{Scoring: p.Package.Type.Scoring, Verdict: v}
	if best, ok := p.Package.BestScore(); ok && p.Package.Type.Scoring {
		s.Max = &best
	}
	return s
}

// gradable says whether the grading rules of p apply to tests: a Kattis
// package's own tests (not --tests).
func gradable(p *problems.Problem, tests []kattis.Test) bool {
	if p.Package.Layout != kattis.LayoutKattis || p.Package.Groups == nil {
		return false
	}
	for _, t := range tests {
		if t.Config == nil {
			return false
		}
	}
	return true
}

// score grades the finished tests by the problem's rules into r.Score and
// r.Verdict, and each test's score into its result.
func (g *grader) score(ctx context.Context, r *Report, tests []kattis.Test) error {
	r.graded = gradable(g.p, tests)
	return g.scoreReport(ctx, r)
}

// Regrade grades r, a report of Grade, again as if its tests had run under
// the CPU time limit limit, below the one they ran under, and the
// wall-clock limit wall (0: the one that goes with limit, twice it and a
// second; r's, if lower): each test's verdict is decided again, as Grade
// decides it, with the status its run would have had under those limits
// (sandbox.Result.Within: a run that took more is TLE, whatever else it
// did after). judge verify runs the
// time-limit-exceeded submissions under a raised limit, to measure their
// margin, and holds them to their expectations under the real one.
func (j *Judge) Regrade(ctx context.Context, p *problems.Problem, langs *lang.Table, r *Report, limit, wall time.Duration) (*Report, error) {
	out := *r
	out.Tests = slices.Clone(r.Tests)
	out.Limits = r.Limits.under(limit, wall)
	for i := range out.Tests {
		t := &out.Tests[i]
		t.Score = nil
		if t.outcome == nil {
			return nil, fmt.Errorf("regrading %s: test %s has no run to regrade (a report read back from JSON?)", r.Submission, t.Name)
		}
		o, pass := t.outcome.within(limit, out.Limits.Wall)
		o.decide(t, out.Limits)
		if pass >= 0 {
			t.Passes = slices.Clone(t.Passes[:pass+1])
		}
		t.lastPass()
	}
	if !r.Compile.OK || r.Incomplete {
		return &out, nil
	}
	g := &grader{p: p, j: j}
	if err := g.setupGrader(ctx, langs); err != nil {
		return nil, err
	}
	if err := g.scoreReport(ctx, &out); err != nil {
		return nil, err
	}
	out.Summary = summarize(out.Tests, out.Summary.Tests, out.Verdict)
	return &out, nil
}

// scoreReport grades r's tests: by the problem's rules when r.graded.
func (g *grader) scoreReport(ctx context.Context, r *Report) error {
	if !r.graded {
		r.Verdict = overall(r.Tests)
		r.Score = noScore(g.p, r.Verdict)
		r.Score.Groups = nativeGroups(r.Tests)
		return nil
	}
	byName := map[string]*TestResult{}
	for i := range r.Tests {
		byName[r.Tests[i].Name] = &r.Tests[i]
	}
	results := func(t *kattis.Test) (kattis.TestResult, bool) {
		tr, ok := byName[t.Name]
		if !ok {
			return kattis.TestResult{}, false
		}
		return kattis.TestResult{Verdict: tr.Verdict, Score: tr.validatorScore, Multiplier: tr.validatorMultiplier, Message: tr.Message}, true
	}
	var custom kattis.CustomGrader
	if g.custom != nil {
		custom = func(grp *kattis.Group, children []kattis.Outcome) (kattis.Outcome, error) {
			return g.runGrader(ctx, grp, children)
		}
	}
	grading, err := g.p.Package.Grade(results, custom)
	if err != nil {
		return err
	}
	r.Verdict = judged(grading.Verdict, r.Tests)
	r.Score = noScore(g.p, r.Verdict)
	r.Score.Value, r.Score.Grading = grading.Score, grading
	if r.Verdict != verdict.AC {
		r.Score.Message, r.Score.Test = grading.Message, grading.Test
	}
	if g.p.Package.Type.Scoring {
		for name, o := range grading.Tests {
			if tr := byName[name]; tr != nil {
				tr.Score = &o.Score
			}
		}
	}
	g.p.Package.Groups.Walk(func(grp *kattis.Group) {
		if o, ok := grading.Groups[grp.Name]; ok && grp.Name != "" {
			r.Score.Groups = append(r.Score.Groups, g.groupScore(grp, o))
		}
	})
	return nil
}

func (g *grader) groupScore(grp *kattis.Group, o kattis.Outcome) GroupScore {
	gs := GroupScore{Name: grp.Name, Verdict: o.Verdict}
	if !g.p.Package.Type.Scoring {
		return gs
	}
	gs.Score = o.Score
	max := grp.Settings.Range.Max
	if g.p.Package.GroupRules == kattis.GroupRules2025 {
		max = grp.Settings.MaxScore
		if grp.Settings.Unbounded {
			max = math.Inf(1)
		}
	}
	if !math.IsInf(max, 0) {
		gs.Max = &max
	}
	return gs
}

// nativeGroups are a native problem's groups (sample, secret), in the
// order of their first tests: each with its tests' verdict by the
// first-rejected rule.
func nativeGroups(tests []TestResult) []GroupScore {
	var out []GroupScore
	var of [][]TestResult // each group's tests
	at := map[string]int{}
	for _, t := range tests {
		group, _, _ := strings.Cut(t.Name, "/")
		i, ok := at[group]
		if !ok {
			i = len(out)
			at[group] = i
			out = append(out, GroupScore{Name: group})
			of = append(of, nil)
		}
		of[i] = append(of[i], t)
	}
	for i := range out {
		out[i].Verdict = verdict.First(of[i], testVerdict)
	}
	return out
}

// setupGrader builds the legacy custom grader when a group uses it.
func (g *grader) setupGrader(ctx context.Context, langs *lang.Table) error {
	if len(g.p.Package.Graders) == 0 || !g.p.Package.Type.Scoring {
		return nil
	}
	uses := false
	g.p.Package.Groups.Walk(func(grp *kattis.Group) { uses = uses || grp.Settings.Grading == "custom" })
	if !uses {
		return nil
	}
	t, err := g.j.tool(ctx, g.p, g.p.Package.Graders[0], langs)
	if err != nil {
		return err
	}
	g.custom = t
	return nil
}

// graderOutput is what problemtools accepts from a grader.
var graderOutput = regexp.MustCompile(`^(AC|WA|TLE|RTE|MLE|OLE|JE)\s+(-?[0-9.]+)\s*$`)

// runGrader runs the custom grader on a group's results by the legacy
// protocol: one "VERDICT SCORE" line per result on stdin, the group's
// grader flags as arguments, "VERDICT SCORE" out (problemtools'
// judge/grade.py). A grader that fails, or says something else, makes
// the group JE.
func (g *grader) runGrader(ctx context.Context, grp *kattis.Group, children []kattis.Outcome) (kattis.Outcome, error) {
	if len(children) == 0 {
		return kattis.Outcome{Verdict: verdict.AC}, nil
	}
	var in strings.Builder
	for _, c := range children {
		fmt.Fprintf(&in, "%s %s\n", kattisName(c.Verdict), strconv.FormatFloat(c.Score, 'f', -1, 64))
	}
	cmd := g.custom.command(programTimeout(g.p), programMemory(g.p))
	lim := limitsOf(&cmd)
	r, err := g.j.runProgram(ctx, g.custom, programRun{args: grp.Settings.GraderFlags, stdin: []byte(in.String()), limits: lim})
	switch {
	case err != nil && ctx.Err() != nil:
		return kattis.Outcome{}, ctx.Err()
	case err != nil:
		return kattis.Outcome{Verdict: verdict.JE, Message: fmt.Sprintf("grader %s: %v", g.custom.path, err)}, nil
	case programFailure(r, lim) != "":
		return kattis.Outcome{Verdict: verdict.JE, Message: fmt.Sprintf("grader %s: %s", g.custom.path, programFailure(r, lim))}, nil
	case r.ExitCode != 0:
		return kattis.Outcome{Verdict: verdict.JE, Message: fmt.Sprintf("grader %s failed (exit %d): %s", g.custom.path, r.ExitCode, firstLine(r.Stderr, 200))}, nil
	}
	m := graderOutput.FindStringSubmatch(string(r.Stdout))
	if m == nil {
		return kattis.Outcome{Verdict: verdict.JE, Message: fmt.Sprintf("grader %s: output %q is not \"VERDICT SCORE\"", g.custom.path, firstLine(r.Stdout, 80))}, nil
	}
	score, err := strconv.ParseFloat(m[2], 64)
	if err != nil {
		return kattis.Outcome{Verdict: verdict.JE, Message: fmt.Sprintf("grader %s: %v", g.custom.path, err)}, nil
	}
	v, _ := verdict.Parse(strings.Replace(m[1], "RTE", "RE", 1))
	return kattis.Outcome{Verdict: v, Score: score}, nil
}

// kattisName is a verdict as the Kattis tools spell it: RE is RTE.
func kattisName(v verdict.Verdict) string {
	if v == verdict.RE {
		return "RTE"
	}
	return v.String()
}
