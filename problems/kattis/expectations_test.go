package kattis

import (
	"reflect"
	"strings"
	"testing"

	"github.com/optjudge/optjudge/verdict"
)

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
			e, warn := parseExpectedResults([]byte(tt.src))
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
	e, _ := parseExpectedResults([]byte("# @EXPECTED_SCORE@: 95.5\n"))
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
	// a glob of many braces is refused at once, not expanded in n² steps
	if long := strings.Repeat("{", maxGlobLength+1); globMatch(long, long) {
		t.Errorf("got a glob of %d bytes matched, want it refused", len(long))
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

func FuzzParseExpectedResults(f *testing.F) {
	for _, s := range []string{"// @EXPECTED_RESULTS@: CORRECT\n", "@expected_results@: a,,b", "@EXPECTED_SCORE@: 1e400\n", "@EXPECTED_RESULTS@: \n@EXPECTED_SCORE@: 3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		e, warn := parseExpectedResults([]byte(s))
		if e.Expectation != nil && warn != "" {
			t.Errorf("got both a rule and the warning %q", warn)
		}
	})
}
