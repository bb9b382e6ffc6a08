package kattis_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/optjudge/optjudge/problems"
	"github.com/optjudge/optjudge/problems/kattis"
	"github.com/optjudge/optjudge/verdict"
)

func submissions(t *testing.T, p *problems.Problem) *kattis.SubmissionList {
	t.Helper()
	l, err := p.Package.Submissions()
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func byPath(l *kattis.SubmissionList) map[string]kattis.ExampleSubmission {
	m := map[string]kattis.ExampleSubmission{}
	for _, s := range l.Submissions {
		m[s.Path] = s
	}
	return m
}

func TestLegacySubmissionFolders(t *testing.T) {
	p := loadPackage(t, map[string]string{
		"problem.yaml":                         "type: scoring\n",
		"data/secret/1.in":                     "",
		"submissions/accepted/a.py":            "",
		"submissions/accepted/multi/main.cpp":  "",
		"submissions/accepted/multi/helper.h":  "",
		"submissions/partially_accepted/p.py":  "",
		"submissions/wrong_answer/w.py":        "",
		"submissions/time_limit_exceeded/t.py": "",
		"submissions/run_time_error/r.py":      "",
		"submissions/slow_accepted/s.py":       "",
		"submissions/rejected/x.py":            "",
		"submissions/notes.txt":                "",
		"submissions/submissions.yaml":         "accepted: {score: 1}\n",
		"submissions/accepted/.hidden.py":      "",
		"submissions/wrong_answer/mixed.py":    "# @EXPECTED_RESULTS@: TIMELIMIT\n",
		"submissions/slow_accepted/tagged.py":  "# @EXPECTED_RESULTS@: CORRECT, TIMELIMIT\n",
	})
	l := submissions(t, p)
	subs := byPath(l)
	if len(subs) != 10 {
		t.Errorf("got %d submissions, want 10 (the hidden one left out)", len(subs))
	}
	if s := subs["submissions/accepted/multi"]; !s.Dir || len(s.Expectations) != 1 {
		t.Errorf("got %+v, want a directory submission with its folder's rule", s)
	}
	for path, want := range map[string]verdict.Verdict{
		"submissions/accepted/a.py": verdict.AC, "submissions/partially_accepted/p.py": verdict.AC,
		"submissions/wrong_answer/w.py": verdict.WA, "submissions/time_limit_exceeded/t.py": verdict.TLE,
		"submissions/run_time_error/r.py": verdict.RE,
		// DOMjudge ignores the tag in the four folders of the format.
		"submissions/wrong_answer/mixed.py": verdict.WA,
	} {
		s := subs[path]
		if len(s.Expectations) != 1 || !reflect.DeepEqual(s.Expectations[0].Verdicts, []verdict.Verdict{want}) {
			t.Errorf("%s: got %+v, want a final verdict of %v", path, s.Expectations, want)
		}
	}
	if e := subs["submissions/partially_accepted/p.py"].Expectations[0]; !e.Partial {
		t.Errorf("got %+v, want a partially accepted rule", e)
	}
	if s := subs["submissions/slow_accepted/tagged.py"]; len(s.Expectations) != 1 || !reflect.DeepEqual(s.Expectations[0].Verdicts, []verdict.Verdict{verdict.AC, verdict.TLE}) {
		t.Errorf("got %+v, want the rule of its @EXPECTED_RESULTS@", s.Expectations)
	}
	if len(subs["submissions/slow_accepted/s.py"].Expectations) != 0 || len(subs["submissions/rejected/x.py"].Expectations) != 0 {
		t.Errorf("got rules for submissions in folders legacy does not have")
	}
	var warns []string
	for _, w := range l.Warnings {
		warns = append(warns, strings.Replace(w.String(), p.Package.Origin, "pkg", 1))
	}
	want := []string{
		"pkg/submissions/rejected: not a submissions folder of format legacy (accepted, partially_accepted, run_time_error, time_limit_exceeded, wrong_answer): its 1 submission is not graded",
		"pkg/submissions/slow_accepted: not a submissions folder of format legacy (accepted, partially_accepted, run_time_error, time_limit_exceeded, wrong_answer): its 1 submission is not graded",
		"pkg/submissions/notes.txt: ignored: only the folders under submissions/ are read",
		"pkg/submissions/submissions.yaml: ignored: format legacy has no submissions.yaml",
	}
	for _, w := range want {
		if !containsString(warns, w) {
			t.Errorf("got warnings %q, want %q among them", warns, w)
		}
	}
	if len(l.Errors) > 0 {
		t.Errorf("got errors %v, want none: the Kattis layout only warns", l.Errors)
	}
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func Test2023SubmissionFolders(t *testing.T) {
	p := loadPackage(t, map[string]string{
		"problem.yaml":                 "problem_format_version: 2023-07-draft\nname: A\nuuid: x\n",
		"data/secret/1.in":             "",
		"submissions/rejected/r.py":    "",
		"submissions/brute_force/b.py": "",
	})
	subs := byPath(submissions(t, p))
	if e := subs["submissions/rejected/r.py"].Expectations; len(e) != 1 || !reflect.DeepEqual(e[0].Verdicts, []verdict.Verdict{verdict.WA, verdict.TLE, verdict.RE}) {
		t.Errorf("got %+v, want rejected: any final verdict but AC", e)
	}
	if e := subs["submissions/brute_force/b.py"].Expectations; len(e) != 1 || !reflect.DeepEqual(e[0].Verdicts, []verdict.Verdict{verdict.TLE, verdict.RE}) {
		t.Errorf("got %+v, want brute_force: TLE or RTE", e)
	}
}

func Test2025Submissions(t *testing.T) {
	p := loadPackage(t, map[string]string{
		"problem.yaml":                         "problem_format_version: 2025-09\nname: A\nuuid: x\ntype: scoring\n",
		"data/secret/1.in":                     "",
		"submissions/accepted/a.py":            "",
		"submissions/accepted/b.cpp":           "",
		"submissions/time_limit_exceeded/t.py": "",
		"submissions/brute_force/bf.py":        "",
		"submissions/other/x.py":               "",
		"submissions/other/y.py":               "",
		"submissions/submissions.yaml": `accepted:
  score: 100
  language: python3
time_limit_exceeded:
  permitted: [AC, WA, TLE]
time_limit_exceeded/*:
  secret/huge:
    required: [TLE]
    use_for_time_limit: false
"{accepted/a,other/x}.py":
  model_solution: true
  message: done
other/y.py:
  use_for_time_limit: lower
  score: [10, 20]
`,
	})
	l := submissions(t, p)
	if len(l.Errors) > 0 || len(l.Warnings) > 0 {
		t.Fatalf("got errors %v warnings %v, want none", l.Errors, l.Warnings)
	}
	subs := byPath(l)
	a := subs["submissions/accepted/a.py"]
	if len(a.Expectations) != 2 || !a.ModelSolution || a.Language != "python3" {
		t.Fatalf("got %+v, want the folder's rule with its override and the brace glob's", a)
	}
	if e := a.Expectations[0]; !reflect.DeepEqual(e.Permitted, []verdict.Verdict{verdict.AC}) || e.Score == nil || *e.Score != (kattis.ScoreRange{100, 100}) || e.TimeLimit != kattis.TimeBoundLower {
		t.Errorf("got %+v, want accepted's permitted [AC] with the score 100 and a lower bound", e)
	}
	if e := a.Expectations[1]; e.Message != "done" || !strings.HasSuffix(e.Source, "submissions/submissions.yaml:10") {
		t.Errorf("got %+v, want the message rule of line 10", e)
	}
	tle := subs["submissions/time_limit_exceeded/t.py"]
	if len(tle.Expectations) != 2 {
		t.Fatalf("got %+v, want the folder's rule and the glob's", tle.Expectations)
	}
	e0, e1 := tle.Expectations[0], tle.Expectations[1]
	if !reflect.DeepEqual(e0.Permitted, []verdict.Verdict{verdict.AC, verdict.WA, verdict.TLE}) || !reflect.DeepEqual(e0.Required, []verdict.Verdict{verdict.TLE}) || e0.TimeLimit != kattis.TimeBoundUpper {
		t.Errorf("got %+v, want permitted overridden, required kept, an upper bound", e0)
	}
	if e1.Tests != "secret/huge" || e1.TimeLimit != kattis.TimeBoundNone {
		t.Errorf("got %+v, want a rule on secret/huge out of the time limit", e1)
	}
	if e := subs["submissions/brute_force/bf.py"].Expectations; len(e) != 1 || e[0].TimeLimit != kattis.TimeBoundNone {
		t.Errorf("got %+v, want brute_force out of the time limit", e)
	}
	y := subs["submissions/other/y.py"].Expectations
	if len(y) != 1 || y[0].TimeLimit != kattis.TimeBoundLower || !reflect.DeepEqual(y[0].Permitted, []verdict.Verdict{verdict.AC, verdict.WA, verdict.RE}) {
		t.Errorf("got %+v, want use_for_time_limit: lower, as permitted [AC, WA, RTE]", y)
	}
	if s := subs["submissions/other/x.py"]; len(s.Expectations) != 1 || s.Expectations[0].Message != "done" {
		t.Errorf("got %+v, want the brace glob's rule", s)
	}
}

func TestSubmissionsYAMLErrors(t *testing.T) {
	tests := []struct {
		name, yaml, want string
	}{
		{"unknown verdict", "accepted:\n  permitted: [AC, MLE]\n", `submissions.yaml:2: accepted.permitted: "MLE": want AC, WA, TLE or RTE`},
		{"score range", "accepted:\n  score: [5, 1]\n", "accepted.score: the least score 5 is above the most 1"},
		{"score of three", "accepted:\n  score: [1, 2, 3]\n", "accepted.score: want a number, or a list of two"},
		{"use_for_time_limit", "accepted:\n  use_for_time_limit: sometimes\n", `accepted.use_for_time_limit: "sometimes": want true, false, lower or upper`},
		{"inconsistent lower", "accepted/*:\n  permitted: [AC, TLE]\n  use_for_time_limit: lower\n", "submissions.yaml:1: use_for_time_limit: lower, but TLE is permitted"},
		{"not a mapping", "accepted: 3\n", "submissions.yaml:1: accepted: want a mapping"},
		{"authors", "accepted:\n  authors: [[a]]\n", "accepted.authors: want a person"},
		{"long glob", "? \"" + strings.Repeat("{", 1025) + "\"\n: {score: 1}\n", "submissions.yaml:1: " + strings.Repeat("{", 60) + "...: the pattern is longer than 1024 bytes"},
		{"long group glob", "accepted:\n  ? \"" + strings.Repeat("{", 1025) + "\"\n  : {score: 1}\n", "submissions.yaml:3: accepted." + strings.Repeat("{", 51) + "...: the pattern is longer than 1024 bytes"},
		{"group glob of many patterns", "accepted:\n  \"" + strings.Repeat("{a,b}", 40) + "\": {score: 1}\n", "submissions.yaml:2: accepted." + strings.Repeat("{a,b}", 10) + "{...: the pattern expands to more than 1024"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := loadPackage(t, map[string]string{
				"problem.yaml":                 "problem_format_version: 2025-09\nname: A\nuuid: x\n",
				"data/secret/1.in":             "",
				"submissions/accepted/a.py":    "",
				"submissions/submissions.yaml": tt.yaml,
			})
			l := submissions(t, p)
			if !strings.Contains(l.Errors.Error(), tt.want) {
				t.Errorf("got errors %q, want %q", l.Errors.Error(), tt.want)
			}
		})
	}
}

// TestNativeSubmissions: the native layout's folders name verdicts, and any
// other folder is an error.
func TestNativeSubmissions(t *testing.T) {
	p := loadPackage(t, map[string]string{
		"problem.yaml":                           "name: pkg\ntitle: P\n",
		"testdata/secret/1.in":                   "",
		"submissions/accepted/a.py":              "",
		"submissions/memory_limit_exceeded/m.py": "",
		"submissions/slow/s.py":                  "",
	})
	l := submissions(t, p)
	subs := byPath(l)
	if e := subs["submissions/memory_limit_exceeded/m.py"].Expectations; len(e) != 1 || e[0].Verdicts[0] != verdict.MLE {
		t.Errorf("got %+v, want MLE kept apart in the native layout", e)
	}
	if len(l.Errors) != 1 || !strings.HasSuffix(l.Errors[0].Error(), "submissions/slow: not a verdict folder (accepted, wrong_answer, time_limit_exceeded, run_time_error, memory_limit_exceeded, output_limit_exceeded, compile_error)") {
		t.Errorf("got errors %v, want slow/ refused", l.Errors)
	}
	m := subs["submissions/memory_limit_exceeded/m.py"]
	if got := m.Check(kattis.Run{Grading: &kattis.Grading{Outcome: kattis.Outcome{Verdict: verdict.MLE}}}); len(got) > 0 {
		t.Errorf("got %v, want MLE to meet memory_limit_exceeded/", got)
	}
}
