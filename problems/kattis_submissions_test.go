package problems

import (
	"reflect"
	"strings"
	"testing"

	"github.com/optjudge/optjudge/judge/verdict"
)

func submissions(t *testing.T, p *Problem) *SubmissionList {
	t.Helper()
	l, err := p.Submissions()
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func byPath(l *SubmissionList) map[string]ExampleSubmission {
	m := map[string]ExampleSubmission{}
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
		warns = append(warns, strings.Replace(w.String(), p.Origin, "pkg", 1))
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
	if e := a.Expectations[0]; !reflect.DeepEqual(e.Permitted, []verdict.Verdict{verdict.AC}) || e.Score == nil || *e.Score != (ScoreRange{100, 100}) || e.TimeLimit != TimeBoundLower {
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
	if !reflect.DeepEqual(e0.Permitted, []verdict.Verdict{verdict.AC, verdict.WA, verdict.TLE}) || !reflect.DeepEqual(e0.Required, []verdict.Verdict{verdict.TLE}) || e0.TimeLimit != TimeBoundUpper {
		t.Errorf("got %+v, want permitted overridden, required kept, an upper bound", e0)
	}
	if e1.Tests != "secret/huge" || e1.TimeLimit != TimeBoundNone {
		t.Errorf("got %+v, want a rule on secret/huge out of the time limit", e1)
	}
	if e := subs["submissions/brute_force/bf.py"].Expectations; len(e) != 1 || e[0].TimeLimit != TimeBoundNone {
		t.Errorf("got %+v, want brute_force out of the time limit", e)
	}
	y := subs["submissions/other/y.py"].Expectations
	if len(y) != 1 || y[0].TimeLimit != TimeBoundLower || !reflect.DeepEqual(y[0].Permitted, []verdict.Verdict{verdict.AC, verdict.WA, verdict.RE}) {
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
	if got := m.Check(Run{Grading: &Grading{Outcome: Outcome{Verdict: verdict.MLE}}}); len(got) > 0 {
		t.Errorf("got %v, want MLE to meet memory_limit_exceeded/", got)
	}
}

func TestParseExpectedResults(t *testing.T) {
	tests := []struct {
		name, src string
		verdicts  []verdict.Verdict
		line      int
		warn      string
	}{
		{"none", "int main() {}\n", nil, 0, ""},
		{"one", "// @EXPECTED_RESULTS@: CORRECT\n", []verdict.Verdict{verdict.AC}, 1, ""},
		{"several", "x\n# @EXPECTED_RESULTS@: WRONG-ANSWER, TIMELIMIT,RUN-ERROR\n", []verdict.Verdict{verdict.WA, verdict.TLE, verdict.RE}, 2, ""},
		{"any case, Kattis names", "/* @expected_results@: accepted, time_limit_exceeded */\n", []verdict.Verdict{verdict.AC, verdict.TLE}, 1, ""},
		{"Kattis set", "@EXPECTED_RESULTS@: MEMORY-LIMIT, OUTPUT-LIMIT, NO-OUTPUT\n", []verdict.Verdict{verdict.RE, verdict.WA}, 1, ""},
		{"twice", "@EXPECTED_RESULTS@: CORRECT\n@EXPECTED_RESULTS@: TIMELIMIT\n", nil, 1, "more than one"},
		{"unknown", "\n\n@EXPECTED_RESULTS@: SLOW\n", nil, 3, `"SLOW" is not a result`},
		{"no newline", "@EXPECTED_RESULTS@: COMPILER-ERROR", []verdict.Verdict{verdict.CE}, 1, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, warn := ParseExpectedResults([]byte(tt.src))
			if !strings.Contains(warn, tt.warn) || (warn == "") != (tt.warn == "") {
				t.Fatalf("got warning %q, want %q", warn, tt.warn)
			}
			if tt.verdicts == nil {
				if e.Expectation != nil {
					t.Errorf("got %+v, want no rule", e.Expectation)
				}
				return
			}
			if e.Expectation == nil || !reflect.DeepEqual(e.Verdicts, tt.verdicts) || e.line != tt.line || e.Permitted[0] != verdict.AC {
				t.Errorf("got %+v at line %d, want %v at line %d", e.Expectation, e.line, tt.verdicts, tt.line)
			}
		})
	}
	e, _ := ParseExpectedResults([]byte("# @EXPECTED_SCORE@: 95.5\n"))
	if e.Expectation == nil || !e.Score.Contains(95.5) || e.Score.Contains(95.6) {
		t.Errorf("got %+v, want a score of 95.5", e.Expectation)
	}
}

func runOf(v verdict.Verdict, score float64, tests ...RunTest) Run {
	return Run{Grading: &Grading{Outcome: Outcome{Verdict: v, Score: score, Scored: true}, Groups: map[string]Outcome{}}, Tests: tests}
}

func rt(name string, v verdict.Verdict) RunTest { return RunTest{Name: name, Verdict: v} }

func TestExpectationCheck(t *testing.T) {
	AC, WA, TLE, RE := verdict.AC, verdict.WA, verdict.TLE, verdict.RE
	wa := Expectation{Source: "wa/", Permitted: vs(AC, WA), Required: vs(WA)}
	tests := []struct {
		name string
		e    Expectation
		run  Run
		want []string // each mismatch's message, "warning: " first for a warning
	}{
		{"final verdict", Expectation{Verdicts: vs(WA)}, runOf(WA, 0, rt("sample/1", AC), rt("secret/1", WA)), nil},
		{"final verdict wrong", Expectation{Verdicts: vs(WA)}, runOf(TLE, 0, rt("sample/1", AC), rt("secret/1", TLE)),
			[]string{"got TLE on secret/1, want WA"}},
		{"memory is a crash", Expectation{Verdicts: vs(RE)}, runOf(verdict.MLE, 0, rt("secret/1", verdict.MLE)), nil},
		{"permitted and required", wa, runOf(WA, 0, rt("sample/1", AC), rt("secret/1", WA), rt("secret/2", WA)), nil},
		{"not permitted", wa, runOf(WA, 0, rt("secret/1", WA), rt("secret/2", TLE)), []string{"got TLE on secret/2, permitted: AC, WA"}},
		{"required missing", wa, runOf(AC, 0, rt("secret/1", AC), rt("secret/2", AC)), []string{"no test got WA (required); got 2 AC"}},
		{"output limit is a wrong answer", wa, runOf(verdict.OLE, 0, rt("secret/1", verdict.OLE)), nil},
		{"on some tests", Expectation{Tests: "secret/hard", Permitted: vs(AC, TLE), Required: vs(TLE)},
			runOf(WA, 0, rt("secret/easy/1", WA), rt("secret/hard/1", AC), rt("secret/hard/2", TLE)), nil},
		{"on some tests, unmet", Expectation{Tests: "secret/*-hard", Required: vs(TLE)},
			runOf(WA, 0, rt("secret/1-hard", WA)), []string{"no test of secret/*-hard got TLE (required); got 1 WA"}},
		{"score", Expectation{Score: &ScoreRange{40, 40}}, runOf(AC, 40), nil},
		{"score off", Expectation{Score: &ScoreRange{40, 60}}, runOf(AC, 100), []string{"scores 100, want [40, 60]"}},
		{"message", Expectation{Message: "too many"}, runOf(WA, 0, RunTest{Name: "secret/1", Verdict: WA, JudgeMessage: "too many queries"}), nil},
		{"message missing", Expectation{Message: "too many"}, runOf(WA, 0, RunTest{Name: "secret/1", Verdict: WA, JudgeMessage: "wrong"}),
			[]string{`no judge message of test contains "too many"`}},
		{"partial", Expectation{Verdicts: vs(AC), Partial: true, best: 100, bestOK: true}, runOf(AC, 50), nil},
		{"partial but full", Expectation{Verdicts: vs(AC), Partial: true, best: 100, bestOK: true}, runOf(AC, 100),
			[]string{"warning: fully accepted (score 100), though partially accepted"}},
		{"partial and rejected", Expectation{Verdicts: vs(AC), Partial: true, best: 100, bestOK: true}, runOf(RE, 0),
			[]string{"got RE, want AC"}},
		{"accepted below full", Expectation{Verdicts: vs(AC), FullScore: true, best: 100, bestOK: true}, runOf(AC, 90),
			[]string{"warning: scores 90, not the full 100 (consider partially_accepted/)"}},
		{"expected results", Expectation{Verdicts: vs(WA, TLE), Permitted: vs(AC, WA, TLE)},
			runOf(TLE, 0, rt("secret/1", AC), rt("secret/2", TLE)), nil},
		{"a compile error", Expectation{Permitted: vs(AC)}, runOf(verdict.CE, 0), []string{"got CE: it does not compile"}},
		{"an expected compile error", Expectation{Verdicts: vs(verdict.CE)}, runOf(verdict.CE, 0), nil},
		{"a compile error against a verdict", Expectation{Verdicts: vs(AC)}, runOf(verdict.CE, 0), []string{"got CE, want AC"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := ExampleSubmission{Expectations: []Expectation{tt.e}, kattis: true}
			var got []string
			for _, m := range s.Check(tt.run) {
				msg := m.Msg
				if m.Warning {
					msg = "warning: " + msg
				}
				got = append(got, msg)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestExpectationScoreOfGroups(t *testing.T) {
	e := Expectation{Tests: "secret/g*", Score: &ScoreRange{0, 30}}
	run := runOf(verdict.AC, 100)
	run.Grading.Groups = map[string]Outcome{"secret/g1": {Score: 30}, "secret/g2": {Score: 70}, "secret": {Score: 100}}
	got := ExampleSubmission{Expectations: []Expectation{e}}.Check(run)
	if len(got) != 1 || got[0].Msg != "scores 70 on secret/g2, want [0, 30]" {
		t.Errorf("got %v, want secret/g2's score refused", got)
	}
}

func TestLazy(t *testing.T) {
	for _, tt := range []struct {
		e    Expectation
		want bool
	}{
		{Expectation{Verdicts: vs(verdict.WA)}, true},
		{Expectation{Permitted: vs(verdict.AC)}, true},
		{Expectation{Permitted: vs(verdict.AC, verdict.WA)}, false},
		{Expectation{Required: vs(verdict.TLE)}, false},
		{Expectation{Verdicts: vs(verdict.AC), Partial: true}, false},
		{Expectation{Message: "x"}, false},
	} {
		if got := (ExampleSubmission{Expectations: []Expectation{tt.e}}).Lazy(); got != tt.want {
			t.Errorf("Lazy of %+v: got %v, want %v", tt.e, got, tt.want)
		}
	}
	s := ExampleSubmission{Expectations: []Expectation{{TimeLimit: TimeBoundNone}, {TimeLimit: TimeBoundUpper, Tests: "secret"},
		{TimeLimit: TimeBoundLower, Tests: "sample/2", Permitted: vs(verdict.AC)}, {TimeLimit: TimeBoundUpper, Tests: "secret"}}}
	if !s.HasBound(TimeBoundUpper) || !s.HasBound(TimeBoundLower) {
		t.Errorf("HasBound: got upper %v lower %v, want both", s.HasBound(TimeBoundUpper), s.HasBound(TimeBoundLower))
	}
	if b := s.Bounds(); len(b) != 2 || b[0].Tests != "secret" || b[1].Tests != "sample/2" || len(b[1].Permitted) != 1 {
		t.Errorf("Bounds: got %+v, want upper on secret (once) and lower on sample", b)
	}
	for name, want := range map[string]bool{"sample/1": false, "sample/2": true, "secret/1": true} {
		if got := s.Needs(name); got != want {
			t.Errorf("Needs(%s): got %v, want %v", name, got, want)
		}
	}
}

func TestGlobs(t *testing.T) {
	for _, tt := range []struct {
		glob, name string
		want       bool
	}{
		{"accepted", "accepted/a.py", true},
		{"accepted/", "accepted/a.py", true},
		{"accepted/*", "accepted/a.py", true},
		{"accepted/*", "accepted/dir", true},
		{"accepted", "accepted2/a.py", false},
		{"*.py", "accepted/a.py", false},
		{"*/*.py", "accepted/a.py", true},
		{"accepted/{a,b}.py", "accepted/b.py", true},
		{"accepted/{a,b}.py", "accepted/c.py", false},
		{"{accepted,wrong_answer}/x.{py,cpp}", "wrong_answer/x.cpp", true},
		{"a{b,c{d,e}}f", "acef", true},
		{"a{b", "a{b", true},
		{"secret/*-easy", "secret/01-easy/3", true},
		{"secret/group1", "secret/group10/1", false},
		{"secret", "sample/1", false},
		{"[", "[", false},
		// spaces around an alternative are dropped, as BAPCtools reads it
		{"secret/*{ 4 }{ 2 }", "secret/42", true},
		{"secret/*{ 4 }{ 2 }", "secret/4 2", false},
		{"wa/{ odd.py , even.py }", "wa/even.py", true},
		{"secret/*{,0,1,2,3,4,5,6,7,8,9}{0,2,4,6,8}", "secret/12", true},
		{"secret/*{,0,1,2,3,4,5,6,7,8,9}{0,2,4,6,8}", "secret/2", true},
		{"secret/*{,0,1,2,3,4,5,6,7,8,9}{0,2,4,6,8}", "secret/13", false},
	} {
		if got := globMatch(tt.glob, tt.name); got != tt.want {
			t.Errorf("globMatch(%q, %q): got %v, want %v", tt.glob, tt.name, got, tt.want)
		}
	}
	if _, ok := expandBraces(strings.Repeat("{a,b,c,d}", 6)); ok {
		t.Errorf("got an expansion of 4^6 patterns, want it refused")
	}
}

func TestFinalVerdict(t *testing.T) {
	AC, WA, TLE, RE := verdict.AC, verdict.WA, verdict.TLE, verdict.RE
	for _, tt := range []struct {
		name string
		es   []Expectation
		want verdict.Verdict
		ok   bool
	}{
		{"legacy folder", []Expectation{{Verdicts: vs(TLE)}}, TLE, true},
		{"2025-09 accepted", []Expectation{{Permitted: vs(AC)}}, AC, true},
		{"2025-09 wrong_answer", []Expectation{{Permitted: vs(AC, WA), Required: vs(WA)}}, WA, true},
		{"rejected", []Expectation{{Required: vs(RE, TLE, WA)}}, 0, false},
		{"brute_force", []Expectation{{Permitted: vs(AC, RE, TLE), Required: vs(RE, TLE)}}, 0, false},
		{"with a score", []Expectation{{Permitted: vs(AC), Score: &ScoreRange{1, 1}}}, 0, false},
		{"two that agree", []Expectation{{Verdicts: vs(WA)}, {Permitted: vs(AC, WA), Required: vs(WA)}}, WA, true},
		{"two that differ", []Expectation{{Verdicts: vs(WA)}, {Verdicts: vs(TLE)}}, 0, false},
		{"none", nil, 0, false},
	} {
		v, ok := ExampleSubmission{Expectations: tt.es}.FinalVerdict()
		if v != tt.want || ok != tt.ok {
			t.Errorf("%s: got %v %v, want %v %v", tt.name, v, ok, tt.want, tt.ok)
		}
	}
}
