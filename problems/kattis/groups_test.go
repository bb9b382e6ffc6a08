package kattis_test

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/optjudge/optjudge/checkers"
	"github.com/optjudge/optjudge/problems"
	"github.com/optjudge/optjudge/problems/kattis"
	"github.com/optjudge/optjudge/verdict"
)

func loadPackage(t *testing.T, files map[string]string) *problems.Problem {
	t.Helper()
	p, err := problems.LoadDir(writeTree(t, "pkg", files))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func loadError(t *testing.T, files map[string]string) string {
	t.Helper()
	_, err := problems.LoadDir(writeTree(t, "pkg", files))
	if err == nil {
		t.Fatal("got no error")
	}
	return err.Error()
}

func group(t *testing.T, p *problems.Problem, name string) *kattis.Group {
	t.Helper()
	g := p.Package.Groups.Find(name)
	if g == nil {
		t.Fatalf("no group %q", name)
	}
	return g
}

func itemNames(g *kattis.Group) []string {
	var out []string
	for _, it := range g.Items {
		if it.Test != nil {
			out = append(out, it.Test.Name)
		} else {
			out = append(out, it.Group.Name+"/")
		}
	}
	return out
}

func warningsOf(p *problems.Problem) string {
	var ws []string
	for _, w := range p.Package.Warnings {
		ws = append(ws, w.String())
	}
	return strings.Join(ws, "\n")
}

// oddLegacy is a scoring package laid out as problemtools' oddecho
// example: testdata.yaml at every level, settings inherited key by key.
var oddLegacy = map[string]string{
	"problem.yaml":                  "problem_format_version: 2023-07-draft\nname: Odd\nuuid: x\ntype: scoring\n",
	"data/testdata.yaml":            "on_reject: continue\nrange: 0 100\ngrader_flags: ignore_sample\n",
	"data/sample/testdata.yaml":     "range: 0 0\naccept_score: 0\ngrader_flags: first_error\ninput_validator_flags: nFive=0\n",
	"data/sample/1.in":              "1\n",
	"data/sample/1.ans":             "1\n",
	"data/secret/testdata.yaml":     "grader_flags: first_error accept_if_any_accepted\noutput_validator_flags: float_tolerance 1e-4\n",
	"data/secret/g1/testdata.yaml":  "on_reject: break\naccept_score: 50\nrange: 0 50\ngrader_flags: min\ninput_validator_flags: {validator: nFive=1}\n",
	"data/secret/g1/1.in":           "1\n",
	"data/secret/g1/1.ans":          "1\n",
	"data/secret/g1/2.in":           "2\n",
	"data/secret/g1/2.ans":          "2\n",
	"data/secret/g2/testdata.yaml":  "on_reject: break\naccept_score: 50\nrange: 0 50\ngrader_flags: min\n",
	"data/secret/g2/1.in":           "3\n",
	"data/secret/g2/1.ans":          "3\n",
	"input_validators/validator.py": "",
}

func TestLegacyGroupSettings(t *testing.T) {
	p := loadPackage(t, oddLegacy)
	if p.Package.GroupRules != kattis.GroupRulesLegacy || p.Package.Groups.Name != "" || p.Package.Groups.Config != "data/testdata.yaml" {
		t.Fatalf("got rules %v, root %q (%s), want the legacy rules from data/testdata.yaml", p.Package.GroupRules, p.Package.Groups.Name, p.Package.Groups.Config)
	}
	tests := []struct {
		group       string
		onReject    kattis.OnReject
		flags       []string
		accept      float64
		rng         kattis.ScoreRange
		outputFlags []string
	}{
		{"", kattis.OnRejectContinue, []string{"ignore_sample"}, 1, kattis.ScoreRange{0, 100}, nil},
		{"sample", kattis.OnRejectContinue, []string{"first_error"}, 0, kattis.ScoreRange{0, 0}, nil},
		{"secret", kattis.OnRejectContinue, []string{"first_error", "accept_if_any_accepted"}, 1, kattis.ScoreRange{0, 100}, []string{"float_tolerance", "1e-4"}},
		{"secret/g1", kattis.OnRejectBreak, []string{"min"}, 50, kattis.ScoreRange{0, 50}, []string{"float_tolerance", "1e-4"}},
		{"secret/g2", kattis.OnRejectBreak, []string{"min"}, 50, kattis.ScoreRange{0, 50}, []string{"float_tolerance", "1e-4"}},
	}
	for _, tt := range tests {
		s := group(t, p, tt.group).Settings
		if s.OnReject != tt.onReject || !reflect.DeepEqual(s.GraderFlags, tt.flags) || s.AcceptScore != tt.accept ||
			s.Range != tt.rng || !reflect.DeepEqual(s.Test.OutputValidatorArgs, tt.outputFlags) {
			t.Errorf("group %q: got %v %v accept %v range %v output %v, want %v %v %v %v %v", tt.group,
				s.OnReject, s.GraderFlags, s.AcceptScore, s.Range, s.Test.OutputValidatorArgs, tt.onReject, tt.flags, tt.accept, tt.rng, tt.outputFlags)
		}
	}
	if got := itemNames(p.Package.Groups); !reflect.DeepEqual(got, []string{"sample/", "secret/"}) {
		t.Errorf("got root items %v, want sample/ and secret/", got)
	}
	var one kattis.Test
	for _, tc := range group(t, p, "secret/g1").AllTests() {
		if tc.Name == "secret/g1/1" {
			one = *tc
		}
	}
	v := kattis.Program{Path: "input_validators/validator.py"}
	if got := p.Package.InputValidatorArgs(one, v); !reflect.DeepEqual(got, []string{"nFive=1"}) {
		t.Errorf("got input validator args %v on secret/g1/1, want [nFive=1]", got)
	}
	if got := p.Package.InputValidatorArgs(one, kattis.Program{Path: "input_validators/other.py"}); len(got) != 0 {
		t.Errorf("got args %v for a validator the map does not name, want none", got)
	}
	if one.Config.Group != "secret/g1" || p.Package.GroupOf(one) != group(t, p, "secret/g1") {
		t.Errorf("got group %q, want secret/g1", one.Config.Group)
	}
	if want := "pkg/data/secret/testdata.yaml:2: output_validator_flags"; !strings.HasSuffix(one.Config.OutputValidatorArgsFrom, want) {
		t.Errorf("got args from %q, want %q", one.Config.OutputValidatorArgsFrom, want)
	}
}

func TestLegacyFlagsJoin(t *testing.T) {
	// problemtools passes problem.yaml's validator_flags, then the group's
	// output_validator_flags.
	p := loadPackage(t, map[string]string{
		"problem.yaml":              "validation: custom\nvalidator_flags: strict\n",
		"output_validators/v.py":    "",
		"data/secret/testdata.yaml": "output_validator_flags: lenient 3\n",
		"data/secret/1.in":          "1\n",
		"data/sample/1.in":          "1\n",
	})
	tests, err := p.Package.Tests()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range tests {
		want := []string{"strict"}
		if tc.Group == "secret" {
			want = []string{"strict", "lenient", "3"}
		}
		if got := p.Package.OutputValidatorArgs(tc); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: got %v, want %v", tc.Name, got, want)
		}
	}
}

// TestLegacyItemOrder: a group's items in problemtools' order, the sorted
// entries of its directory, a test sorting as its .ans file.
func TestLegacyItemOrder(t *testing.T) {
	p := loadPackage(t, map[string]string{
		"problem.yaml":     "",
		"data/secret/b.in": "", "data/secret/b.ans": "",
		"data/secret/a.in": "", "data/secret/a.ans": "",
		"data/secret/a-x/1.in": "", "data/secret/a-x/1.ans": "",
		"data/secret/c/1.in": "", "data/secret/c/1.ans": "",
	})
	want := []string{"secret/a-x/", "secret/a", "secret/b", "secret/c/"}
	if got := itemNames(group(t, p, "secret")); !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	// Tests keeps its order, by name.
	tests, _ := p.Package.Tests()
	var names []string
	for _, tc := range tests {
		names = append(names, tc.Name)
	}
	if want := []string{"secret/a", "secret/a-x/1", "secret/b", "secret/c/1"}; !reflect.DeepEqual(names, want) {
		t.Errorf("got Tests %v, want %v", names, want)
	}
}

func TestLegacyGroupProblems(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		warn  string
		err   string
	}{
		{"unknown key", map[string]string{"data/secret/testdata.yaml": "on_rejct: continue\n"},
			"pkg/data/secret/testdata.yaml:1: on_rejct: unknown key, ignored", ""},
		{"scoring key in pass-fail", map[string]string{"data/secret/testdata.yaml": "accept_score: 3\n"},
			"pkg/data/secret/testdata.yaml:1: accept_score: only for scoring problems; ignored", ""},
		{"unknown grader flag", map[string]string{"problem.yaml": "type: scoring\n", "data/secret/testdata.yaml": "grader_flags: median\n"},
			`grader_flags: "median": not a flag of the default grader`, ""},
		{"test_group.yaml in legacy", map[string]string{"data/secret/test_group.yaml": "on_reject: continue\n"},
			"pkg/data/secret/test_group.yaml: format legacy names this file testdata.yaml; read as one", ""},
		{"a third top-level directory", map[string]string{"data/extra/1.in": "1\n"},
			"pkg/data/extra: not a test data group", ""},
		{"bad on_reject", map[string]string{"data/secret/testdata.yaml": "on_reject: stop\n"},
			"", `pkg/data/secret/testdata.yaml:1: on_reject: "stop": want break or continue`},
		{"bad range", map[string]string{"problem.yaml": "type: scoring\n", "data/secret/testdata.yaml": "range: 5 1\n"},
			"", `range: "5 1": the least score is above the most`},
		{"ignore_sample below the root", map[string]string{"data/secret/testdata.yaml": "grader_flags: ignore_sample\n"},
			"", "pkg/data/secret/testdata.yaml:1: grader_flags: ignore_sample is only for data/testdata.yaml"},
		{"not a mapping", map[string]string{"data/secret/testdata.yaml": "- a\n"},
			"", "pkg/data/secret/testdata.yaml:1: want a mapping of keys to values"},
		{"flags of the wrong type", map[string]string{"data/secret/testdata.yaml": "input_validator_flags: [a, b]\n"},
			"", "input_validator_flags: want a string of flags, or a mapping from validator names to flags"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			files := map[string]string{"problem.yaml": "", "data/secret/1.in": "1\n", "data/secret/1.ans": "1\n"}
			for k, v := range tt.files {
				files[k] = v
			}
			if tt.err != "" {
				if got := loadError(t, files); !strings.Contains(got, tt.err) {
					t.Errorf("got %q, want it to contain %q", got, tt.err)
				}
				return
			}
			if got := warningsOf(loadPackage(t, files)); !strings.Contains(got, tt.warn) {
				t.Errorf("got warnings %q, want %q", got, tt.warn)
			}
		})
	}
}

// TestProblemGradingOverrides: the pre-legacy grading keys of problem.yaml
// override every group's, as problemtools has it.
func TestProblemGradingOverrides(t *testing.T) {
	p := loadPackage(t, map[string]string{
		"problem.yaml":              "type: scoring\ngrading:\n  accept_score: 7\n  on_reject: grade\n  objective: min\n",
		"data/secret/testdata.yaml": "accept_score: 3\n",
		"data/secret/1.in":          "1\n",
	})
	s := group(t, p, "secret").Settings
	if s.AcceptScore != 7 || s.OnReject != kattis.OnRejectContinue || p.Package.Objective != "min" {
		t.Errorf("got accept %v on_reject %v objective %q, want 7, continue, min", s.AcceptScore, s.OnReject, p.Package.Objective)
	}
}

// TestTestFiles: the files beside a test, as each version has them.
func TestTestFiles(t *testing.T) {
	p := loadPackage(t, map[string]string{
		"problem.yaml":                 "problem_format_version: 2023-07\nname: A\nuuid: x\ntype: interactive\n",
		"output_validator/v.py":        "",
		"data/sample/1.in":             "1\n",
		"data/sample/1.ans":            "1\n",
		"data/sample/1.interaction":    ">1\n<2\n",
		"data/sample/1.in.statement":   "shown\n",
		"data/sample/2.interaction":    ">3\n",
		"data/secret/1.in":             "1\n",
		"data/secret/1.ans":            "1\n",
		"data/secret/1.desc":           "the smallest\n",
		"data/secret/1.hint":           "think small\n",
		"data/secret/1.args":           "--fast 3\n",
		"data/secret/1.files/data.txt": "x\n",
	})
	tests, err := p.Package.Tests()
	if err != nil {
		t.Fatal(err)
	}
	if len(tests) != 2 {
		t.Fatalf("got tests %v, want sample/1 and secret/1 (an interaction alone is no test)", tests)
	}
	c := tests[1].Config
	if c.Description != "the smallest" || c.Hint != "think small" || c.Files != "data/secret/1.files" || !reflect.DeepEqual(c.Args, []string{"--fast", "3"}) {
		t.Errorf("got %+v, want the .desc, .hint, .files and .args of secret/1", c)
	}
	if got := itemNames(group(t, p, "secret")); !reflect.DeepEqual(got, []string{"secret/1"}) {
		t.Errorf("got secret's items %v, want secret/1 alone: its .files is no group", got)
	}
	samples := p.Package.Samples()
	want := []kattis.Sample{
		{Name: "sample/1", Test: p.Package.Groups.Find("sample").AllTests()[0], Interaction: "data/sample/1.interaction", Input: "data/sample/1.in.statement", Output: "data/sample/1.ans"},
		{Name: "sample/2", Interaction: "data/sample/2.interaction"},
	}
	if !reflect.DeepEqual(samples, want) {
		t.Errorf("got samples %+v, want %+v", samples, want)
	}
}

// groups2025 is a scoring package with test data groups.
var groups2025 = map[string]string{
	"problem.yaml":                     "problem_format_version: 2025-09\nname: A\nuuid: x\ntype: scoring\n",
	"data/test_group.yaml":             "args: [--base]\n",
	"data/sample/test_group.yaml":      "output_validator_args: [float_tolerance, \"1E-6\"]\n",
	"data/sample/1.in":                 "1\n",
	"data/sample/1.ans":                "1\n",
	"data/secret/test_group.yaml":      "output_validator_args: [case_sensitive]\nfull_feedback: true\n",
	"data/secret/a/test_group.yaml":    "max_score: 30\ninput_validator_args: {check: [--small]}\n",
	"data/secret/a/1.in":               "1\n",
	"data/secret/a/1.ans":              "1\n",
	"data/secret/a/more/2.in":          "2\n",
	"data/secret/a/more/2.ans":         "2\n",
	"data/secret/b/test_group.yaml":    "max_score: 70\nscore_aggregation: min\nrequire_pass: [sample, secret/a]\noutput_validator_args: []\n",
	"data/secret/b/1.in":               "3\n",
	"data/secret/b/1.ans":              "3\n",
	"data/secret/b/1.yaml":             "args: [--big]\nhint: try harder\nfull_feedback: false\n",
	"input_validators/check/check.cpp": "",
}

func Test2025Groups(t *testing.T) {
	p := loadPackage(t, groups2025)
	if p.Package.GroupRules != kattis.GroupRules2025 {
		t.Fatalf("got rules %v, want 2025-09's", p.Package.GroupRules)
	}
	if got := itemNames(group(t, p, "secret")); !reflect.DeepEqual(got, []string{"secret/a/", "secret/b/"}) {
		t.Errorf("got secret's items %v, want its two groups", got)
	}
	// A plain directory inside a group holds tests of the group.
	if got := itemNames(group(t, p, "secret/a")); !reflect.DeepEqual(got, []string{"secret/a/1", "secret/a/more/2"}) {
		t.Errorf("got secret/a's items %v, want its tests, secret/a/more/2 among them", got)
	}
	tests := []struct {
		group     string
		max       float64
		unbounded bool
		agg       kattis.Aggregation
		require   []string
	}{
		{"sample", 0, true, kattis.AggregatePassFail, nil},
		{"secret", 100, false, kattis.AggregateSum, nil},
		{"secret/a", 30, false, kattis.AggregatePassFail, nil},
		{"secret/b", 70, false, kattis.AggregateMin, []string{"sample", "secret/a"}},
	}
	for _, tt := range tests {
		s := group(t, p, tt.group).Settings
		if s.MaxScore != tt.max || s.Unbounded != tt.unbounded || s.Aggregation != tt.agg || !reflect.DeepEqual(s.RequirePass, tt.require) {
			t.Errorf("%s: got max %v unbounded %v %v require %v, want %v %v %v %v", tt.group, s.MaxScore, s.Unbounded, s.Aggregation, s.RequirePass,
				tt.max, tt.unbounded, tt.agg, tt.require)
		}
	}
	byName := map[string]*kattis.Test{}
	for _, tc := range p.Package.Groups.AllTests() {
		byName[tc.Name] = tc
	}
	check := func(name string, args, out []string, ff bool) {
		t.Helper()
		c := byName[name].Config
		if !reflect.DeepEqual(c.Args, args) || !reflect.DeepEqual(c.OutputValidatorArgs, out) || c.FullFeedback != ff {
			t.Errorf("%s: got args %v output %v full_feedback %v, want %v %v %v", name, c.Args, c.OutputValidatorArgs, c.FullFeedback, args, out, ff)
		}
	}
	check("sample/1", []string{"--base"}, []string{"float_tolerance", "1E-6"}, true)
	check("secret/a/1", []string{"--base"}, []string{"case_sensitive"}, true)
	check("secret/a/more/2", []string{"--base"}, []string{"case_sensitive"}, true)
	check("secret/b/1", []string{"--big"}, []string{}, false)
	if c := byName["secret/b/1"].Config; c.Hint != "try harder" || c.Group != "secret/b" {
		t.Errorf("got hint %q group %q, want the test's .yaml hint and secret/b", c.Hint, c.Group)
	}
	// 2025-09: the input validator gets its arguments, then the test's.
	v := kattis.Program{Path: "input_validators/check", Kind: kattis.ProgramSource}
	if got := p.Package.InputValidatorArgs(*byName["secret/a/1"], v); !reflect.DeepEqual(got, []string{"--small", "--base"}) {
		t.Errorf("got input validator args %v, want [--small --base]", got)
	}
	if m := kattis.ScoreMax(group(t, p, "secret/b")); m != 70 {
		t.Errorf("got a min group's test maximum %v, want its max_score 70", m)
	}
}

// Test2025ValidatorTestGroups: in data/invalid_input (and the outputs'
// directories) a test_group.yaml holds for the tests of its directory and
// below, as 2025-09's Invalid input has it; it makes no group.
func Test2025ValidatorTestGroups(t *testing.T) {
	p := loadPackage(t, map[string]string{
		"problem.yaml":                            "problem_format_version: 2025-09\nname: A\nuuid: x\n",
		"data/sample/1.in":                        "1\n",
		"data/sample/1.ans":                       "1\n",
		"data/secret/1.in":                        "1\n",
		"data/secret/1.ans":                       "1\n",
		"data/invalid_input/test_group.yaml":      "input_validator_args: [--all]\n",
		"data/invalid_input/x.in":                 "x\n",
		"data/invalid_input/ints/test_group.yaml": "input_validator_args: [--integer]\n",
		"data/invalid_input/ints/2.5.in":          "2.5\n",
		"data/invalid_input/ints/deep/1e9.in":     "1e9\n",
		"data/invalid_output/tol/test_group.yaml": "output_validator_args: [float_tolerance, '1e-2']\n",
		"data/invalid_output/tol/a.in":            "1\n",
		"data/invalid_output/tol/a.ans":           "1\n",
		"data/invalid_output/tol/a.out":           "1.1\n",
		"input_validators/check/check.cpp":        "",
	})
	v := kattis.Program{Path: "input_validators/check", Kind: kattis.ProgramSource}
	got := map[string][]string{}
	for _, tc := range p.Package.InvalidInputs.AllTests() {
		got[tc.Name] = p.Package.InputValidatorArgs(*tc, v)
	}
	want := map[string][]string{
		"invalid_input/x":             {"--all"},
		"invalid_input/ints/2.5":      {"--integer"},
		"invalid_input/ints/deep/1e9": {"--integer"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got input validator args %v, want %v", got, want)
	}
	if tcs := p.Package.InvalidOutputs.AllTests(); len(tcs) != 1 || !reflect.DeepEqual(tcs[0].Config.OutputValidatorArgs, []string{"float_tolerance", "1e-2"}) {
		t.Errorf("got invalid outputs %v, want invalid_output/tol/a with its directory's float_tolerance", tcs)
	}
}

// TestPlainDirectoryBesideGroups: a directory of data/secret without a
// test_group.yaml beside groups is a defect of the package (the format
// allows groups only there), reported, and its tests are still read, as
// a group with data/secret's settings, as BAPCtools reads them.
func TestPlainDirectoryBesideGroups(t *testing.T) {
	p := loadPackage(t, map[string]string{
		"problem.yaml":                  "problem_format_version: 2025-09\nname: A\nuuid: x\n",
		"data/sample/1.in":              "1\n",
		"data/sample/1.ans":             "1\n",
		"data/secret/test_group.yaml":   "output_validator_args: [case_sensitive]\n",
		"data/secret/a/test_group.yaml": "output_validator_args: [space_change_sensitive]\n",
		"data/secret/a/1.in":            "1\n",
		"data/secret/a/1.ans":           "1\n",
		"data/secret/b/2.in":            "2\n",
		"data/secret/b/2.ans":           "2\n",
	})
	if len(p.Package.Defects) != 1 || !strings.HasSuffix(p.Package.Defects[0].File, "data/secret/b") || !strings.Contains(p.Package.Defects[0].Msg, "not a test data group (no test_group.yaml)") {
		t.Errorf("got defects %v, want one naming data/secret/b", p.Package.Defects)
	}
	if got := itemNames(group(t, p, "secret")); !reflect.DeepEqual(got, []string{"secret/a/", "secret/b/"}) {
		t.Errorf("got secret's items %v, want secret/a/ and secret/b/", got)
	}
	b := group(t, p, "secret/b")
	if got := itemNames(b); !reflect.DeepEqual(got, []string{"secret/b/2"}) || !reflect.DeepEqual(b.Items[0].Test.Config.OutputValidatorArgs, []string{"case_sensitive"}) {
		t.Errorf("got secret/b %v (args %v), want its test with data/secret's case_sensitive", got, b.Items[0].Test.Config.OutputValidatorArgs)
	}
}

func Test2025GroupProblems(t *testing.T) {
	base := func() map[string]string {
		return map[string]string{
			"problem.yaml":      "problem_format_version: 2025-09\nname: A\nuuid: x\ntype: scoring\n",
			"data/sample/1.in":  "1\n",
			"data/sample/1.ans": "1\n",
		}
	}
	tests := []struct {
		name  string
		files map[string]string
		warn  string
		err   string
	}{
		{"unbounded group", map[string]string{"data/secret/a/test_group.yaml": "score_aggregation: sum\n", "data/secret/a/1.in": ""},
			"", "pkg/data/secret/a/test_group.yaml: max_score: unbounded (the default for a group), but data/secret's is 100"},
		{"pass-fail unbounded", map[string]string{"data/secret/test_group.yaml": "score_aggregation: pass-fail\nmax_score: unbounded\n", "data/secret/1.in": ""},
			"", "score_aggregation: pass-fail needs a bounded max_score"},
		{"tests beside groups", map[string]string{"data/secret/a/test_group.yaml": "max_score: 100\n", "data/secret/a/1.in": "", "data/secret/2.in": ""},
			"", "pkg/data/secret: holds test data groups, so it must not hold tests itself"},
		{"a group in a group", map[string]string{"data/secret/a/test_group.yaml": "max_score: 100\n", "data/secret/a/1.in": "", "data/secret/a/x/test_group.yaml": "", "data/secret/a/x/1.in": ""},
			"", "pkg/data/secret/a/x/test_group.yaml: a test data group below a test data group"},
		{"require_pass ahead", map[string]string{
			"data/secret/a/test_group.yaml": "max_score: 50\nrequire_pass: secret/b\n", "data/secret/a/1.in": "",
			"data/secret/b/test_group.yaml": "max_score: 50\n", "data/secret/b/1.in": ""},
			"", `require_pass: "secret/b" does not come before secret/a`},
		{"require_pass of a sum group", map[string]string{
			"data/secret/a/test_group.yaml": "max_score: 50\nscore_aggregation: sum\n", "data/secret/a/1.in": "",
			"data/secret/b/test_group.yaml": "max_score: 50\nrequire_pass: secret/a\n", "data/secret/b/1.in": ""},
			"", `require_pass: "secret/a" aggregates sum; a required group must be pass-fail`},
		{"static validation without a validator", map[string]string{"data/secret/test_group.yaml": "static_validation_score: 10\n", "data/secret/1.in": ""},
			"", "static_validation_score: the package has no static validator"},
		{"static arguments alone", map[string]string{"static_validator/v.py": "", "data/secret/test_group.yaml": "static_validator_args: [-x]\n", "data/secret/1.in": ""},
			"", "static_validator_args: given without static_validation_score"},
		{"bad max_score", map[string]string{"data/secret/test_group.yaml": "max_score: 2.5\n", "data/secret/1.in": ""},
			"", "max_score: 2.5: want a non-negative integer or unbounded"},
		{"bad aggregation", map[string]string{"data/secret/test_group.yaml": "score_aggregation: avg\n", "data/secret/1.in": ""},
			"", `score_aggregation: "avg": want pass-fail, sum or min`},
		{"args not a list", map[string]string{"data/secret/test_group.yaml": "args: -x\n", "data/secret/1.in": ""},
			"", "data/secret/test_group.yaml:1: args: want a list of strings"},
		{"scoring key in sample", map[string]string{"data/sample/test_group.yaml": "max_score: 5\n", "data/secret/1.in": ""},
			"pkg/data/sample/test_group.yaml:1: max_score: only for data/secret and its groups; ignored", ""},
		{"unknown key", map[string]string{"data/secret/test_group.yaml": "on_reject: continue\n", "data/secret/1.in": ""},
			"pkg/data/secret/test_group.yaml:1: on_reject: unknown key, ignored", ""},
		{"unknown test key", map[string]string{"data/secret/1.in": "", "data/secret/1.yaml": "timeout: 3\n"},
			"pkg/data/secret/1.yaml:1: timeout: unknown key, ignored", ""},
		{"testdata.yaml in 2025-09", map[string]string{"data/secret/testdata.yaml": "args: [-x]\n", "data/secret/1.in": ""},
			"pkg/data/secret/testdata.yaml: format 2025-09 names this file test_group.yaml; read as one", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			files := base()
			for k, v := range tt.files {
				files[k] = v
			}
			if tt.err != "" {
				if got := loadError(t, files); !strings.Contains(got, tt.err) {
					t.Errorf("got %q, want it to contain %q", got, tt.err)
				}
				return
			}
			if got := warningsOf(loadPackage(t, files)); !strings.Contains(got, tt.warn) {
				t.Errorf("got warnings %q, want %q", got, tt.warn)
			}
		})
	}
}

// TestStaticValidation: a static validation test case heads its group.
func TestStaticValidation(t *testing.T) {
	p := loadPackage(t, map[string]string{
		"problem.yaml":                "problem_format_version: 2025-09\nname: A\nuuid: x\ntype: scoring\n",
		"static_validator/check.py":   "",
		"data/secret/test_group.yaml": "static_validation_score: 10\nstatic_validator_args: [--lint]\n",
		"data/secret/1.in":            "1\n",
		"data/secret/2.in":            "1\n",
	})
	g := group(t, p, "secret")
	sv := g.Settings.StaticValidation
	if sv == nil || sv.Score != 10 || !reflect.DeepEqual(sv.Args, []string{"--lint"}) || p.Package.StaticValidator == nil {
		t.Fatalf("got static validation %+v, validator %v, want 10 points with --lint", sv, p.Package.StaticValidator)
	}
	first := g.Items[0].Test
	if first == nil || !first.Config.Static || first.Name != "secret/static_validation" {
		t.Errorf("got first item %+v, want the static validation test case", g.Items[0])
	}
	if m := kattis.ScoreMax(g); m != 45 {
		t.Errorf("got a test's maximum %v, want (100-10)/2 = 45", m)
	}
	tests, _ := p.Package.Tests()
	if len(tests) != 2 {
		t.Errorf("got %d tests, want 2: the static validation is no test to run", len(tests))
	}
}

func TestValidatorArgsFor(t *testing.T) {
	a := kattis.ValidatorArgs{All: []string{"x"}}
	b := kattis.ValidatorArgs{ByName: map[string][]string{"v": {"y"}}}
	if !reflect.DeepEqual(a.For("any"), []string{"x"}) || !reflect.DeepEqual(b.For("v"), []string{"y"}) || b.For("w") != nil {
		t.Errorf("got %v %v %v, want [x] [y] []", a.For("any"), b.For("v"), b.For("w"))
	}
	for _, tt := range []struct {
		p    kattis.Program
		want string
	}{
		{kattis.Program{Path: "input_validators/validate.py"}, "validate"},
		{kattis.Program{Path: "input_validators/format.ctd", Kind: kattis.ProgramCheckTestData}, "format"},
		{kattis.Program{Path: "input_validators/dir.v2", Kind: kattis.ProgramBuildRun}, "dir.v2"},
	} {
		if got := tt.p.Name(); got != tt.want {
			t.Errorf("Name(%s): got %q, want %q", tt.p.Path, got, tt.want)
		}
	}
}

func TestNativeGroups(t *testing.T) {
	p, err := problems.LoadDir(writeTree(t, "native", map[string]string{
		"problem.yaml": "name: native\ntitle: Native\nchecker: {name: clocks}\n", "testdata/sample/1.in": "3 3 0\n2 2 2\n2 1 2\n",
		"testdata/secret/1.in": "3 3 0\n2 2 2\n2 1 2\n", "testdata/secret/2.in": "0 0 0\n0 0 0\n0 0 0\n"}))
	if err != nil {
		t.Fatal(err)
	}
	notice := len(p.Package.Warnings) == 1 && strings.Contains(p.Package.Warnings[0].Msg, "judge convert")
	if p.Package.Groups == nil || p.Package.Format != kattis.FormatLegacy || !notice || p.Package.Validation.Default || p.Package.Validation.Program != nil {
		t.Fatalf("got groups %v warnings %v validation %+v, want the plain tree of a native problem", p.Package.Groups, p.Package.Warnings, p.Package.Validation)
	}
	tests, _ := p.Package.Tests()
	if got := len(p.Package.Groups.AllTests()); got != len(tests) {
		t.Errorf("got %d tests in the tree, want Tests' %d", got, len(tests))
	}
	if !group(t, p, "sample").Settings.Test.FullFeedback || group(t, p, "secret").Settings.Range != kattis.FullRange || !math.IsInf(kattis.FullRange.Max, 1) {
		t.Errorf("got sample %+v, want full feedback on the samples", group(t, p, "sample").Settings)
	}
}

// TestDefaultValidatorFlags: a package judged by the default output
// validator gets the checker default with its flags, from wherever its
// version puts them, per group where they differ.
func TestDefaultValidatorFlags(t *testing.T) {
	check := func(t *testing.T, c checkers.Checker, out, ans string) verdict.Verdict {
		t.Helper()
		r, err := c.Check(context.Background(), checkers.Files{Output: []byte(out), Answer: []byte(ans)})
		if err != nil {
			t.Fatal(err)
		}
		return r.Verdict
	}
	t.Run("legacy validator_flags", func(t *testing.T) {
		p := loadPackage(t, map[string]string{"problem.yaml": "validator_flags: float_tolerance 1e-6\n", "data/secret/1.in": "1\n"})
		if got := check(t, p.Package.Checker, "1.0000000\n", "1.0\n"); got != verdict.AC {
			t.Errorf("got %v for 1.0000000 against 1.0, want AC", got)
		}
		if got := check(t, p.Package.Checker, "1.1\n", "1.0\n"); got != verdict.WA {
			t.Errorf("got %v for 1.1 against 1.0, want WA", got)
		}
	})
	t.Run("case-insensitive by default", func(t *testing.T) {
		p := loadPackage(t, map[string]string{"problem.yaml": "", "data/secret/1.in": "1\n"})
		if got := check(t, p.Package.Checker, "HELLO\n", "hello\n"); got != verdict.AC {
			t.Errorf("got %v, want AC: the default validator ignores case", got)
		}
		p = loadPackage(t, map[string]string{"problem.yaml": "validator_flags: case_sensitive\n", "data/secret/1.in": "1\n"})
		if got := check(t, p.Package.Checker, "HELLO\n", "hello\n"); got != verdict.WA {
			t.Errorf("got %v, want WA with case_sensitive", got)
		}
	})
	t.Run("2025-09 per group", func(t *testing.T) {
		p := loadPackage(t, map[string]string{
			"problem.yaml":                "problem_format_version: 2025-09\nname: A\nuuid: x\n",
			"data/sample/1.in":            "1\n",
			"data/secret/test_group.yaml": "output_validator_args: [float_tolerance, \"1E-6\"]\n",
			"data/secret/1.in":            "1\n",
		})
		if _, err := p.Package.Checker.Check(context.Background(), checkers.Files{}); err == nil || !strings.Contains(err.Error(), "flags differ between test groups (sample: none; secret: float_tolerance 1E-6)") {
			t.Errorf("got %v, want the problem-wide checker to refuse: the groups differ", err)
		}
		tests, _ := p.Package.Tests()
		if got := check(t, p.Package.CheckerFor(tests[0]), "1.0000001\n", "1\n"); got != verdict.WA {
			t.Errorf("got %v on the sample, want WA: it has no tolerance", got)
		}
		if got := check(t, p.Package.CheckerFor(tests[1]), "1.0000001\n", "1\n"); got != verdict.AC {
			t.Errorf("got %v on secret/1, want AC within 1E-6", got)
		}
	})
}

// TestSymlinkedGroup: a group may be a link to another directory, and a
// test a link to another test (oddecho shares tests so).
func TestSymlinkedGroup(t *testing.T) {
	dir := writeTree(t, "pkg", map[string]string{
		"problem.yaml": "", "data/secret/a/1.in": "1\n", "data/secret/a/1.ans": "1\n",
	})
	if err := os.Symlink("a", filepath.Join(dir, "data/secret/b")); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	if err := os.Symlink("../a/1.in", filepath.Join(dir, "data/secret/a/2.in")); err != nil {
		t.Fatal(err)
	}
	p, err := problems.LoadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tc := range p.Package.Groups.AllTests() {
		names = append(names, tc.Name)
	}
	if want := []string{"secret/a/1", "secret/a/2", "secret/b/1", "secret/b/2"}; !reflect.DeepEqual(names, want) {
		t.Errorf("got %v, want %v", names, want)
	}
}
