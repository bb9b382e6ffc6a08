package kattis_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/optjudge/optjudge/problems/kattis"
	"github.com/optjudge/optjudge/verdict"
)

func oc(v verdict.Verdict, score float64) kattis.Outcome {
	return kattis.Outcome{Verdict: v, Score: score}
}

// TestDefaultGrader holds DefaultGrader to what problemtools'
// support/default_grader prints for the same input and flags.
func TestDefaultGrader(t *testing.T) {
	AC, WA, TLE, RE, OLE, JE := verdict.AC, verdict.WA, verdict.TLE, verdict.RE, verdict.OLE, verdict.JE
	tests := []struct {
		name  string
		flags string
		in    []kattis.Outcome
		want  kattis.Outcome
	}{
		{"none", "", nil, oc(AC, 0)},
		{"sum", "", []kattis.Outcome{oc(AC, 1), oc(AC, 2)}, oc(AC, 3)},
		{"worst error", "", []kattis.Outcome{oc(WA, 0), oc(TLE, 0), oc(RE, 0), oc(AC, 1)}, oc(RE, 1)},
		{"worst of TLE and WA", "worst_error", []kattis.Outcome{oc(WA, 0), oc(TLE, 0)}, oc(TLE, 0)},
		{"OLE before WA", "", []kattis.Outcome{oc(WA, 0), oc(OLE, 0)}, oc(OLE, 0)},
		{"JE first", "", []kattis.Outcome{oc(RE, 0), oc(JE, 0)}, oc(JE, 0)},
		{"first error", "first_error", []kattis.Outcome{oc(AC, 1), oc(WA, 0), oc(RE, 0)}, oc(WA, 1)},
		{"always accept", "always_accept", []kattis.Outcome{oc(WA, 2)}, oc(AC, 2)},
		{"avg", "avg", []kattis.Outcome{oc(AC, 1), oc(AC, 2)}, oc(AC, 1.5)},
		{"avg rounded by %f", "avg", []kattis.Outcome{oc(AC, 1), oc(AC, 1), oc(AC, 2)}, oc(AC, 1.333333)},
		{"min", "min", []kattis.Outcome{oc(AC, 50), oc(RE, 0)}, oc(RE, 0)},
		{"max", "max", []kattis.Outcome{oc(AC, 50), oc(RE, 0)}, oc(RE, 50)},
		{"the last mode wins", "min max first_error worst_error", []kattis.Outcome{oc(WA, 3), oc(RE, 5)}, oc(RE, 5)},
		{"ignore sample", "ignore_sample", []kattis.Outcome{oc(WA, 0), oc(AC, 50)}, oc(AC, 50)},
		{"ignore sample alone", "ignore_sample", []kattis.Outcome{oc(AC, 7)}, oc(AC, 7)},
		{"ignore sample of three", "ignore_sample", []kattis.Outcome{oc(AC, 0), oc(AC, 1), oc(AC, 2)}, oc(JE, 0)},
		{"accept if any accepted", "first_error accept_if_any_accepted", []kattis.Outcome{oc(AC, 50), oc(RE, 0)}, oc(AC, 50)},
		{"none accepted", "accept_if_any_accepted", []kattis.Outcome{oc(WA, 0), oc(RE, 0)}, oc(RE, 0)},
		{"unknown flags are ignored", "median", []kattis.Outcome{oc(AC, 1), oc(AC, 1)}, oc(AC, 2)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := kattis.DefaultGrader(strings.Fields(tt.flags), tt.in)
			if got.Verdict != tt.want.Verdict || got.Score != tt.want.Score {
				t.Errorf("got %v %v, want %v %v", got.Verdict, got.Score, tt.want.Verdict, tt.want.Score)
			}
		})
	}
}

func TestKattisVerdict(t *testing.T) {
	for v, want := range map[verdict.Verdict]verdict.Verdict{
		verdict.MLE: verdict.RE, verdict.OLE: verdict.WA, verdict.TLE: verdict.TLE,
		verdict.RE: verdict.RE, verdict.AC: verdict.AC, verdict.CE: verdict.CE, verdict.JE: verdict.JE,
	} {
		if got := kattis.Verdict(v); got != want {
			t.Errorf("Verdict(%v): got %v, want %v", v, got, want)
		}
	}
}

// results makes Results from verdicts by test name; tests missing were not
// run.
func results(m map[string]kattis.TestResult) kattis.Results {
	return func(t *kattis.Test) (kattis.TestResult, bool) {
		r, ok := m[t.Name]
		return r, ok
	}
}

func ac() kattis.TestResult                   { return kattis.TestResult{Verdict: verdict.AC} }
func got(v verdict.Verdict) kattis.TestResult { return kattis.TestResult{Verdict: v} }
func scored(x float64) kattis.TestResult      { return kattis.TestResult{Verdict: verdict.AC, Score: &x} }
func multiplied(x float64) kattis.TestResult {
	return kattis.TestResult{Verdict: verdict.AC, Multiplier: &x}
}

// TestLegacyGrade grades the oddecho layout as problemtools does: 100
// for a full solution, 50 for one that crashes on the second subtask.
func TestLegacyGrade(t *testing.T) {
	p := loadPackage(t, oddLegacy)
	all := map[string]kattis.TestResult{"sample/1": ac(), "secret/g1/1": ac(), "secret/g1/2": ac(), "secret/g2/1": ac()}
	tests := []struct {
		name    string
		results map[string]kattis.TestResult
		want    kattis.Outcome
		groups  map[string]float64
	}{
		{"accepted", all, oc(verdict.AC, 100), map[string]float64{"secret/g1": 50, "secret/g2": 50, "secret": 100, "sample": 0}},
		{"second subtask crashes", map[string]kattis.TestResult{"sample/1": ac(), "secret/g1/1": ac(), "secret/g1/2": ac(), "secret/g2/1": got(verdict.RE)},
			oc(verdict.AC, 50), map[string]float64{"secret/g2": 0, "secret": 50}},
		{"memory counts as a crash", map[string]kattis.TestResult{"sample/1": ac(), "secret/g1/1": got(verdict.MLE), "secret/g2/1": got(verdict.TLE)},
			oc(verdict.RE, 0), map[string]float64{"secret/g1": 0}},
		{"sample failure ignored", map[string]kattis.TestResult{"sample/1": got(verdict.WA), "secret/g1/1": ac(), "secret/g1/2": ac(), "secret/g2/1": ac()},
			oc(verdict.AC, 100), nil},
		{"a judge error wins", map[string]kattis.TestResult{"sample/1": ac(), "secret/g1/1": got(verdict.JE), "secret/g2/1": ac()},
			oc(verdict.JE, 0), nil},
		{"nothing run", map[string]kattis.TestResult{}, oc(verdict.Unknown, 0), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, err := p.Package.Grade(results(tt.results), nil)
			if err != nil {
				t.Fatal(err)
			}
			if g.Verdict != tt.want.Verdict || g.Score != tt.want.Score || !g.Scored {
				t.Errorf("got %v %v (scored %v), want %v %v", g.Verdict, g.Score, g.Scored, tt.want.Verdict, tt.want.Score)
			}
			for name, score := range tt.groups {
				if g.Groups[name].Score != score {
					t.Errorf("group %s: got %v, want %v", name, g.Groups[name].Score, score)
				}
			}
			if want := tt.want.Verdict == verdict.AC && tt.want.Score == 100; p.Package.FullyAccepted(g.Outcome) != want {
				t.Errorf("got fully accepted %v, want %v", !want, want)
			}
		})
	}
	// on_reject: break in secret/g1: its second test is not graded after
	// the first fails.
	g, _ := p.Package.Grade(results(map[string]kattis.TestResult{"secret/g1/1": got(verdict.WA), "secret/g1/2": ac()}), nil)
	if _, graded := g.Tests["secret/g1/2"]; graded {
		t.Errorf("got secret/g1/2 graded after secret/g1/1 failed in an on_reject: break group")
	}
	if best, ok := p.Package.BestScore(); best != 100 || !ok {
		t.Errorf("got best score %v %v, want 100", best, ok)
	}
}

func TestLegacyPassFailGrade(t *testing.T) {
	p := loadPackage(t, map[string]string{
		"problem.yaml": "", "data/sample/1.in": "", "data/secret/1.in": "", "data/secret/2.in": "", "data/secret/g/3.in": "",
	})
	tests := []struct {
		name string
		res  map[string]kattis.TestResult
		want verdict.Verdict
	}{
		{"all accepted", map[string]kattis.TestResult{"sample/1": ac(), "secret/1": ac(), "secret/2": ac(), "secret/g/3": ac()}, verdict.AC},
		{"first error", map[string]kattis.TestResult{"sample/1": ac(), "secret/1": got(verdict.TLE), "secret/2": got(verdict.WA)}, verdict.TLE},
		{"output limit is a wrong answer", map[string]kattis.TestResult{"sample/1": got(verdict.OLE)}, verdict.WA},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, err := p.Package.Grade(results(tt.res), nil)
			if err != nil {
				t.Fatal(err)
			}
			if g.Verdict != tt.want || g.Scored || g.Score != 0 {
				t.Errorf("got %v %v (scored %v), want %v unscored", g.Verdict, g.Score, g.Scored, tt.want)
			}
		})
	}
}

// TestValidatorScores: where a legacy or 2023-07 problem takes the test's
// score from score.txt, and when that is a judge error.
func TestValidatorScores(t *testing.T) {
	tests := []struct {
		name, yaml string
		res        kattis.TestResult
		want       kattis.Outcome
	}{
		{"2023-07 scoring reads score.txt", "problem_format_version: 2023-07\nname: A\nuuid: x\ntype: scoring\n", scored(7), oc(verdict.AC, 7)},
		{"without score.txt, accept_score", "problem_format_version: 2023-07\nname: A\nuuid: x\ntype: scoring\n", ac(), oc(verdict.AC, 1)},
		{"score.txt on WA", "problem_format_version: 2023-07\nname: A\nuuid: x\ntype: scoring\n",
			kattis.TestResult{Verdict: verdict.WA, Score: new(float64)}, oc(verdict.JE, 0)},
		{"legacy custom score required", "type: scoring\nvalidation: custom score\n", ac(), oc(verdict.JE, 0)},
		{"legacy custom score", "type: scoring\nvalidation: custom score\n", scored(3), oc(verdict.AC, 3)},
		{"legacy plain custom", "type: scoring\nvalidation: custom\n", scored(3), oc(verdict.JE, 0)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			files := map[string]string{"problem.yaml": tt.yaml, "data/secret/1.in": ""}
			if strings.Contains(tt.yaml, "custom") {
				files["output_validators/v.py"] = ""
			}
			p := loadPackage(t, files)
			g, err := p.Package.Grade(results(map[string]kattis.TestResult{"secret/1": tt.res}), nil)
			if err != nil {
				t.Fatal(err)
			}
			if g.Verdict != tt.want.Verdict || g.Score != tt.want.Score {
				t.Errorf("got %v %v (%s), want %v %v", g.Verdict, g.Score, g.Message, tt.want.Verdict, tt.want.Score)
			}
		})
	}
}

func TestCustomGrader(t *testing.T) {
	p := loadPackage(t, map[string]string{
		"problem.yaml": "type: scoring\n", "graders/g.py": "",
		"data/secret/testdata.yaml": "grading: custom\ngrader_flags: twice\n", "data/secret/1.in": "",
	})
	res := results(map[string]kattis.TestResult{"secret/1": ac()})
	if _, err := p.Package.Grade(res, nil); !errors.Is(err, kattis.ErrNoGrader) {
		t.Errorf("got %v, want ErrNoGrader", err)
	}
	var flags []string
	g, err := p.Package.Grade(res, func(g *kattis.Group, children []kattis.Outcome) (kattis.Outcome, error) {
		flags = g.Settings.GraderFlags
		return kattis.Outcome{Verdict: verdict.AC, Score: 2 * children[0].Score}, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if g.Groups["secret"].Score != 2 || len(flags) != 1 || flags[0] != "twice" || len(p.Package.Graders) != 1 {
		t.Errorf("got secret %v with flags %v, want the custom grader's 2 with [twice]", g.Groups["secret"], flags)
	}
}

// Test2025Grade grades groups2025: secret/a (30, pass-fail) and
// secret/b (70, min, requiring sample and secret/a).
func Test2025Grade(t *testing.T) {
	p := loadPackage(t, groups2025)
	base := func() map[string]kattis.TestResult {
		return map[string]kattis.TestResult{"sample/1": ac(), "secret/a/1": ac(), "secret/a/more/2": ac(), "secret/b/1": ac()}
	}
	with := func(name string, r kattis.TestResult) map[string]kattis.TestResult {
		m := base()
		m[name] = r
		return m
	}
	tests := []struct {
		name  string
		res   map[string]kattis.TestResult
		want  kattis.Outcome
		group map[string]float64
	}{
		{"accepted", base(), oc(verdict.AC, 100), map[string]float64{"secret/a": 30, "secret/b": 70, "secret": 100}},
		{"a fails, so b is not run", with("secret/a/more/2", got(verdict.WA)), oc(verdict.WA, 0), map[string]float64{"secret/a": 0, "secret/b": 0}},
		{"the sample fails", with("sample/1", got(verdict.TLE)), oc(verdict.TLE, 30), map[string]float64{"secret/a": 30, "secret/b": 0}},
		{"score.txt", with("secret/b/1", scored(35)), oc(verdict.AC, 65), map[string]float64{"secret/b": 35}},
		{"score_multiplier.txt", with("secret/b/1", multiplied(0.25)), oc(verdict.AC, 47.5), nil},
		{"score.txt above the maximum", with("secret/b/1", scored(80)), oc(verdict.JE, 0), nil},
		{"a score in a pass-fail group", with("secret/a/1", scored(1)), oc(verdict.JE, 0), nil},
		{"both score files", with("secret/b/1", kattis.TestResult{Verdict: verdict.AC, Score: new(float64), Multiplier: new(float64)}), oc(verdict.JE, 0), nil},
		{"a multiplier above 1", with("secret/b/1", multiplied(1.5)), oc(verdict.JE, 0), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, err := p.Package.Grade(results(tt.res), nil)
			if err != nil {
				t.Fatal(err)
			}
			if g.Verdict != tt.want.Verdict || (tt.want.Verdict != verdict.JE && g.Score != tt.want.Score) {
				t.Errorf("got %v %v (%s), want %v %v", g.Verdict, g.Score, g.Message, tt.want.Verdict, tt.want.Score)
			}
			for name, score := range tt.group {
				if g.Groups[name].Score != score {
					t.Errorf("group %s: got %v, want %v", name, g.Groups[name].Score, score)
				}
			}
		})
	}
}

func Test2025UnboundedAndPassFail(t *testing.T) {
	p := loadPackage(t, map[string]string{
		"problem.yaml":                "problem_format_version: 2025-09\nname: A\nuuid: x\ntype: scoring\n",
		"data/secret/test_group.yaml": "max_score: unbounded\n",
		"data/secret/1.in":            "",
		"data/secret/2.in":            "",
	})
	g, _ := p.Package.Grade(results(map[string]kattis.TestResult{"secret/1": scored(12.5), "secret/2": scored(1000)}), nil)
	if g.Verdict != verdict.AC || g.Score != 1012.5 {
		t.Errorf("got %v %v, want AC 1012.5: unbounded scores sum", g.Verdict, g.Score)
	}
	g, _ = p.Package.Grade(results(map[string]kattis.TestResult{"secret/1": ac(), "secret/2": scored(1)}), nil)
	if g.Verdict != verdict.JE || !strings.Contains(g.Message, "unbounded, and the validator wrote no score.txt") {
		t.Errorf("got %v (%s), want JE: an unbounded test needs score.txt", g.Verdict, g.Message)
	}
	if _, ok := p.Package.BestScore(); ok {
		t.Errorf("got a finite best score for an unbounded secret")
	}
	pf := loadPackage(t, map[string]string{
		"problem.yaml": "problem_format_version: 2025-09\nname: A\nuuid: x\n", "data/sample/1.in": "", "data/secret/1.in": "",
	})
	g, _ = pf.Package.Grade(results(map[string]kattis.TestResult{"sample/1": ac(), "secret/1": got(verdict.MLE)}), nil)
	if g.Verdict != verdict.RE || g.Scored {
		t.Errorf("got %v (scored %v), want RE unscored in a pass-fail problem", g.Verdict, g.Scored)
	}
}

// TestGradingTest: the grading names the test whose message it carries
// (the deciding test), in the legacy and the 2025-09 rules, and none when
// the message is the grading's own.
func TestGradingTest(t *testing.T) {
	said := func(v verdict.Verdict, msg string) kattis.TestResult {
		return kattis.TestResult{Verdict: v, Message: msg}
	}
	tests := []struct {
		name  string
		files map[string]string
		res   map[string]kattis.TestResult
		test  string // want
		msg   string // want
	}{
		{"legacy: the first failure", map[string]string{"problem.yaml": "name: A\n", "data/secret/1.in": "", "data/secret/2.in": "", "data/secret/3.in": ""},
			map[string]kattis.TestResult{"secret/1": ac(), "secret/2": said(verdict.WA, "two"), "secret/3": said(verdict.WA, "three")}, "secret/2", "two"},
		{"legacy: the worst error over the first", map[string]string{"problem.yaml": "name: A\n", "data/secret/1.in": "", "data/secret/2.in": "",
			"data/secret/testdata.yaml": "on_reject: continue\n"},
			map[string]kattis.TestResult{"secret/1": said(verdict.WA, "one"), "secret/2": said(verdict.TLE, "two")}, "secret/2", "two"},
		{"legacy: score.txt on a wrong answer is the grading's", map[string]string{"problem.yaml": "problem_format_version: 2023-07\nname: A\nuuid: x\ntype: scoring\n", "data/secret/1.in": ""},
			map[string]kattis.TestResult{"secret/1": {Verdict: verdict.WA, Score: new(float64), Message: "one"}}, "", "the validator wrote score.txt on a wrong answer"},
		{"2025-09: the first failure", groups2025,
			map[string]kattis.TestResult{"sample/1": ac(), "secret/a/1": ac(), "secret/a/more/2": said(verdict.RE, "two"), "secret/b/1": ac()}, "secret/a/more/2", "two"},
		{"2025-09: a test's judge error", groups2025,
			map[string]kattis.TestResult{"sample/1": said(verdict.WA, "sample"), "secret/a/1": said(verdict.JE, "broken"), "secret/a/more/2": ac(), "secret/b/1": ac()}, "secret/a/1", "broken"},
		{"2025-09: a score over the maximum is the grading's", groups2025,
			map[string]kattis.TestResult{"sample/1": ac(), "secret/a/1": ac(), "secret/a/more/2": ac(), "secret/b/1": {Verdict: verdict.AC, Score: ptr(80.0), Message: "b"}}, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := loadPackage(t, tt.files)
			g, err := p.Package.Grade(results(tt.res), nil)
			if err != nil {
				t.Fatal(err)
			}
			if g.Test != tt.test || (tt.msg != "" && g.Message != tt.msg) {
				t.Errorf("got %s %q from test %q, want %q from test %q", g.Verdict, g.Message, g.Test, tt.msg, tt.test)
			}
		})
	}
}

func ptr[T any](x T) *T { return &x }
