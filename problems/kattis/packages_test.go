package kattis_test

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/optjudge/optjudge/checkers"
	"github.com/optjudge/optjudge/problems"
	"github.com/optjudge/optjudge/problems/kattis"
	"github.com/optjudge/optjudge/verdict"
)

// The packages of testdata/ load into the model the judge grades them by.

func testPackage(t *testing.T, name string) (*problems.Problem, map[string]*kattis.Test, map[string]kattis.ExampleSubmission) {
	t.Helper()
	p, err := problems.LoadDir("../testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	tests := map[string]*kattis.Test{}
	for _, tc := range p.Package.Groups.AllTests() {
		tests[tc.Name] = tc
	}
	l, err := p.Package.Submissions()
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Errors) > 0 {
		t.Fatalf("got submission errors %v", l.Errors)
	}
	return p, tests, byPath(l)
}

func TestPackageMean2025(t *testing.T) {
	p, tests, subs := testPackage(t, "mean-2025")
	if p.Package.Format != kattis.Format2025 || !p.Package.Type.Scoring || p.Package.Type.Interactive || p.Package.GroupRules != kattis.GroupRules2025 || len(withoutNameWarning(p.Package.Warnings)) > 0 {
		t.Fatalf("got %v %v %v warnings %v, want a 2025-09 scoring package without warnings", p.Package.Format, p.Package.Type, p.Package.GroupRules, p.Package.Warnings)
	}
	if p.Package.Time.Given || p.Package.Time.Multipliers != kattis.TimeMultipliers2023 {
		t.Errorf("got time %+v, want a derived limit with the 2025-09 multipliers", p.Package.Time)
	}
	small, large := group(t, p, "secret/1-small").Settings, group(t, p, "secret/2-large").Settings
	if small.MaxScore != 40 || small.Aggregation != kattis.AggregatePassFail || large.MaxScore != 60 || !reflect.DeepEqual(large.RequirePass, []string{"secret/1-small"}) {
		t.Errorf("got groups %+v and %+v, want 40 and 60 pass-fail, the second requiring the first", small, large)
	}
	for name, want := range map[string][]string{
		"sample/1":          {"float_tolerance", "1E-6"},
		"secret/1-small/01": {"float_tolerance", "1E-6"},
		"secret/2-large/01": {"float_relative_tolerance", "1E-9"},
	} {
		if got := p.Package.OutputValidatorArgs(*tests[name]); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: got output validator args %v, want %v", name, got, want)
		}
	}
	d, ok := p.Package.CheckerFor(*tests["secret/2-large/01"]).(checkers.Default)
	if !ok || d.Absolute != nil || d.Relative == nil || *d.Relative != 1e-9 {
		t.Errorf("got checker %#v for secret/2-large/01, want the default one with a relative tolerance of 1e-9", p.Package.CheckerFor(*tests["secret/2-large/01"]))
	}
	v := p.Package.InputValidators[0]
	if got := p.Package.InputValidatorArgs(*tests["secret/1-small/02"], v); !reflect.DeepEqual(got, []string{"--max-n", "10", "--max-a", "1000"}) {
		t.Errorf("got input validator args %v, want secret/1-small's map entry for validate", got)
	}
	if c := tests["secret/2-large/02"].Config; !strings.HasPrefix(c.Description, "the sum is below") {
		t.Errorf("got description %q, want the test's .yaml", c.Description)
	}
	narrow := subs["submissions/partially_accepted/int32.c"]
	if len(narrow.Expectations) != 3 {
		t.Fatalf("got %+v, want the score and the two group rules of submissions.yaml", narrow.Expectations)
	}
	// Grade int32.c's run: right on the samples and the small group, wrong
	// on the large one.
	res := map[string]kattis.TestResult{"sample/1": ac(), "secret/1-small/01": ac(), "secret/1-small/02": ac(),
		"secret/2-large/01": got(verdict.WA), "secret/2-large/02": got(verdict.WA)}
	g, err := p.Package.Grade(results(res), nil)
	if err != nil {
		t.Fatal(err)
	}
	run := kattis.Run{Grading: g}
	for _, name := range []string{"sample/1", "secret/1-small/01", "secret/1-small/02", "secret/2-large/01", "secret/2-large/02"} {
		run.Tests = append(run.Tests, kattis.RunTest{Name: name, Verdict: res[name].Verdict})
	}
	if g.Score != 40 || g.Verdict != verdict.WA {
		t.Errorf("got %v %v, want WA with 40 points", g.Verdict, g.Score)
	}
	if m := narrow.Check(run); len(m) > 0 {
		t.Errorf("got %v, want int32.c to meet its expectations", m)
	}
	if m := subs["submissions/accepted/mean.py"].Check(run); len(m) != 2 {
		t.Errorf("got %v, want mean.py to fail permitted [AC] and the score 100 on that run", m)
	}
	if e := subs["submissions/time_limit_exceeded/small_only.py"].Expectations; len(e) != 2 || e[1].Tests != "sample" {
		t.Errorf("got %+v, want the folder's rule and one on the samples", e)
	}
}

func TestPackageLegacyFloat(t *testing.T) {
	p, tests, subs := testPackage(t, "legacy-float")
	if p.Package.Format != kattis.FormatLegacy || p.Package.Time.Given || p.Package.Time.Multipliers != (kattis.TimeMultipliers{4, 3, time.Second}) {
		t.Errorf("got %v time %+v, want legacy with margins 4 and 3, the limit derived", p.Package.Format, p.Package.Time)
	}
	d, ok := p.Package.Checker.(checkers.Default)
	if !ok || d.Absolute == nil || *d.Absolute != 1e-6 || *d.Relative != 1e-6 {
		t.Errorf("got checker %#v, want the default one with float_tolerance 1e-6", p.Package.Checker)
	}
	r, err := p.Package.Checker.Check(context.Background(), checkers.Files{Output: []byte("3.141593\n"), Answer: []byte("3.141592653589793\n")})
	if err != nil || r.Verdict != verdict.AC {
		t.Errorf("got %v %v for 3.141593, want AC within 1e-6", r, err)
	}
	kinds := map[string]kattis.ProgramKind{}
	for _, v := range p.Package.InputValidators {
		kinds[v.Path] = v.Kind
	}
	if want := map[string]kattis.ProgramKind{"input_validators/radius.ctd": kattis.ProgramCheckTestData, "input_validators/validate.py": kattis.ProgramSource}; !reflect.DeepEqual(kinds, want) {
		t.Errorf("got input validators %v, want %v", kinds, want)
	}
	missing := func(string) (string, error) { return "", errors.New("not found") }
	if ws := p.Package.ToolWarnings(missing); len(ws) != 1 || !strings.HasSuffix(ws[0].String(), "input_validators/radius.ctd: skipped: a checktestdata script needs checktestdata, which is not on PATH") {
		t.Errorf("got %v, want radius.ctd skipped", ws)
	}
	if c := tests["secret/1"].Config; c.Description != "the largest radius" {
		t.Errorf("got description %q, want the .desc file's", c.Description)
	}
	if e := subs["submissions/run_time_error/zero.py"].Expectations; len(e) != 1 || e[0].Verdicts[0] != verdict.RE {
		t.Errorf("got %+v, want a run-time error", e)
	}
}

func TestPackageGuessInteractive(t *testing.T) {
	p, tests, subs := testPackage(t, "guess-interactive")
	if !p.Package.Type.Interactive || !p.Package.Validation.Interactive || p.Package.CheckerProgram != nil {
		t.Fatalf("got type %v validation %+v checker program %v, want an interactive validator and no checker program", p.Package.Type, p.Package.Validation, p.Package.CheckerProgram)
	}
	if v := p.Package.Validation.Program; v == nil || v.Path != "output_validator" || v.Kind != kattis.ProgramBuildRun || v.Protocol != checkers.Kattis {
		t.Errorf("got validator %+v, want output_validator/ with build and run scripts", v)
	}
	if _, err := p.Package.Checker.Check(context.Background(), checkers.Files{}); err == nil || !strings.Contains(err.Error(), "interactive") {
		t.Errorf("got %v, want the batch checker to refuse an interactive problem", err)
	}
	if !p.Package.Time.Given || p.Limits.Time != time.Second {
		t.Errorf("got time %+v %v, want the given 1 s", p.Package.Time, p.Limits.Time)
	}
	samples := p.Package.Samples()
	if len(samples) != 2 || samples[0].Test == nil || samples[0].Interaction != "data/sample/1.interaction" || samples[1].Test != nil || samples[1].Interaction != "data/sample/2.interaction" {
		t.Errorf("got samples %+v, want sample/1 (a test with its interaction) and sample/2 (an interaction alone)", samples)
	}
	if len(tests) != 5 {
		t.Errorf("got %d tests, want 5", len(tests))
	}
	linear := subs["submissions/wrong_answer/linear.py"].Expectations
	if len(linear) != 3 || linear[1].Message != "more than 10 questions" || linear[2].Tests != "secret/01" {
		t.Errorf("got %+v, want the folder's rule, the message and the rule on secret/01", linear)
	}
}

func TestPackageSortAnswers(t *testing.T) {
	p, _, subs := testPackage(t, "sort-answers")
	if len(p.Package.AnswerValidators) != 1 || p.Package.AnswerValidators[0].Path != "answer_validators/sorted.py" {
		t.Errorf("got answer validators %+v, want answer_validators/sorted.py", p.Package.AnswerValidators)
	}
	if p.Package.InvalidInputs == nil || len(p.Package.InvalidInputs.AllTests()) != 2 || p.Package.InvalidInputs.AllTests()[0].Ans != "" {
		t.Errorf("got invalid inputs %+v, want the two of data/invalid_input, without answers", p.Package.InvalidInputs)
	}
	if s := subs["submissions/accepted/merge"]; !s.Dir {
		t.Errorf("got %+v, want a directory submission", s)
	}
	if e := subs["submissions/mixed/unique.py"].Expectations; len(e) != 1 || !reflect.DeepEqual(e[0].Verdicts, []verdict.Verdict{verdict.WA}) {
		t.Errorf("got %+v, want the rule of its @EXPECTED_RESULTS@", e)
	}
	if e := subs["submissions/slow_accepted/bubble.py"].Expectations; len(e) != 0 {
		t.Errorf("got %+v, want no rule for a folder of no version", e)
	}
}
