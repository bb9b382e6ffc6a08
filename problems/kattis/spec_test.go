package kattis_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/optjudge/optjudge/problems"
	"github.com/optjudge/optjudge/problems/kattis"
)

func parseKattis(t *testing.T, y string) (*kattis.Spec, error) {
	t.Helper()
	k, err := kattis.Parse(strings.NewReader(y), "problem.yaml")
	if err != nil {
		return nil, err
	}
	return k, k.Validate()
}

func TestKattisTypes(t *testing.T) {
	tests := []struct {
		name, yaml string
		want       kattis.ProblemType
		format     kattis.FormatVersion
	}{
		{"empty", "", kattis.ProblemType{}, kattis.FormatLegacy},
		{"legacy pass-fail", "type: pass-fail\n", kattis.ProblemType{}, kattis.FormatLegacy},
		{"legacy scoring", "type: scoring\n", kattis.ProblemType{Scoring: true}, kattis.FormatLegacy},
		{"legacy interactive", "validation: custom interactive\n", kattis.ProblemType{Interactive: true}, kattis.FormatLegacy},
		{"legacy interactive score", "type: scoring\nvalidation: custom interactive score\n", kattis.ProblemType{Scoring: true, Interactive: true}, kattis.FormatLegacy},
		{"legacy-icpc", "problem_format_version: legacy-icpc\nvalidation: custom interactive\n", kattis.ProblemType{Interactive: true}, kattis.FormatLegacy},
		{"2023-07 list", "problem_format_version: 2023-07-draft\ntype: [scoring, interactive]\n", kattis.ProblemType{Scoring: true, Interactive: true}, kattis.Format2023},
		{"2023-07 string", "problem_format_version: 2023-07\ntype: interactive\n", kattis.ProblemType{Interactive: true}, kattis.Format2023},
		{"2025-09", "problem_format_version: 2025-09\ntype: [pass-fail, interactive]\n", kattis.ProblemType{Interactive: true}, kattis.Format2025},
		{"draft", "problem_format_version: draft\ntype: scoring\n", kattis.ProblemType{Scoring: true}, kattis.Format2025},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			k, err := parseKattis(t, tt.yaml)
			if err != nil {
				t.Fatal(err)
			}
			if k.ProblemType() != tt.want || k.Format() != tt.format {
				t.Errorf("got %v (%v), want %v (%v)", k.ProblemType(), k.Format(), tt.want, tt.format)
			}
		})
	}
}

func TestProblemTypeString(t *testing.T) {
	for _, tt := range []struct {
		t    kattis.ProblemType
		want string
	}{
		{kattis.ProblemType{}, "pass-fail"},
		{kattis.ProblemType{Scoring: true, Interactive: true}, "scoring interactive"},
		{kattis.ProblemType{Interactive: true, MultiPass: true}, "pass-fail interactive multi-pass"},
	} {
		if got := tt.t.String(); got != tt.want {
			t.Errorf("got %q, want %q", got, tt.want)
		}
	}
}

// TestKattisWarnings: what problemtools would only warn about loads, with
// a warning naming the file, the line and the key.
func TestKattisWarnings(t *testing.T) {
	tests := []struct {
		name, yaml string
		want       []string
	}{
		{"unknown key", "name: A\ntimelimit: 3\n", []string{"problem.yaml:2: timelimit: unknown key, ignored"}},
		{"unknown limit", "limits:\n  memory: 5\n  time: 3\n", []string{"problem.yaml:3: limits.time: unknown key, ignored"}},
		{"unknown grading key", "type: scoring\ngrading:\n  objectiv: min\n", []string{"problem.yaml:3: grading.objectiv: unknown key, ignored"}},
		{"2023-07 key in legacy", "limits:\n  time_limit: 2\n",
			[]string{"problem.yaml:2: limits.time_limit: not a key of format legacy (it is one of 2023-07 and 2025-09); used anyway"}},
		{"legacy key in 2025-09", "problem_format_version: 2025-09\nname: A\nuuid: x\nvalidator_flags: case_sensitive\n",
			[]string{"problem.yaml:4: validator_flags: not a key of format 2025-09 (it is one of legacy); used anyway"}},
		{"missing uuid", "problem_format_version: 2023-07\nname: A\n", []string{"problem.yaml: uuid: required in format 2023-07"}},
		{"deprecated grading", "type: scoring\ngrading:\n  accept_score: 2\n",
			[]string{"problem.yaml:3: grading.accept_score: deprecated in problem.yaml: set it in testdata.yaml"}},
		{"grading of pass-fail", "grading:\n  objective: min\n", []string{"problem.yaml:1: grading: only for scoring problems; ignored"}},
		{"small multiplier", "problem_format_version: 2025-09\nname: A\nuuid: x\nlimits:\n  time_multipliers:\n    ac_to_time_limit: 0.5\n",
			[]string{"problem.yaml:6: limits.time_multipliers.ac_to_time_limit: 0.5 is below 1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			k, err := parseKattis(t, tt.yaml)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, w := range k.Warnings() {
				got = append(got, w.String())
			}
			if len(got) != len(tt.want) {
				t.Fatalf("got warnings %q, want %q", got, tt.want)
			}
			for i := range got {
				if !strings.HasPrefix(got[i], tt.want[i]) {
					t.Errorf("got warning %q, want %q", got[i], tt.want[i])
				}
			}
		})
	}
}

// TestKattisWrongTypes: a known key with a value of the wrong type is an
// error, even when unknown keys beside it are only warnings.
func TestKattisWrongTypes(t *testing.T) {
	_, err := parseKattis(t, "nme: A\nlimits:\n  memory: lots\n")
	if err == nil || err.Error() != `problem.yaml:3: limits.memory: got the string "lots", want a number` {
		t.Errorf("got %v, want the memory's type error alone", err)
	}
}

func TestKattisMultipliers(t *testing.T) {
	tests := []struct {
		name, yaml string
		want       kattis.TimeMultipliers
	}{
		{"legacy defaults", "", kattis.TimeMultipliers{5, 2, time.Second}},
		{"legacy keys", "limits:\n  time_multiplier: 3\n  time_safety_margin: 4\n", kattis.TimeMultipliers{3, 4, time.Second}},
		{"2023-07 defaults", "problem_format_version: 2023-07\n", kattis.TimeMultipliers{2, 1.5, time.Second}},
		{"2025-09 keys", "problem_format_version: 2025-09\nlimits:\n  time_multipliers: {ac_to_time_limit: 3, time_limit_to_tle: 2.5}\n  time_resolution: 0.1\n",
			kattis.TimeMultipliers{3, 2.5, 100 * time.Millisecond}},
		{"2025-09 one key", "problem_format_version: 2025-09\nlimits:\n  time_multipliers: {time_limit_to_tle: 4}\n", kattis.TimeMultipliers{2, 4, time.Second}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			k, err := parseKattis(t, tt.yaml)
			if err != nil {
				t.Fatal(err)
			}
			if got := k.Multipliers(); got != tt.want {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

// TestKattisTimeLimitSource: limits.time_limit, else .timelimit, else
// derived.
func TestKattisTimeLimitSource(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		given bool
		limit time.Duration
		src   string
	}{
		{"derived", map[string]string{"problem.yaml": ""}, false, time.Second, ""},
		{".timelimit", map[string]string{"problem.yaml": "", ".timelimit": "2.5\n"}, true, 2500 * time.Millisecond, "pkg/.timelimit"},
		{"time_limit wins", map[string]string{"problem.yaml": "problem_format_version: 2025-09\nlimits:\n  time_limit: 3\n", ".timelimit": "2\n"},
			true, 3 * time.Second, "pkg/problem.yaml:3 (limits.time_limit)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.files["data/secret/1.in"] = "1\n"
			dir := writeTree(t, "pkg", tt.files)
			p, err := problems.LoadDir(dir)
			if err != nil {
				t.Fatal(err)
			}
			src := strings.Replace(p.Package.Time.Source, dir, "pkg", 1)
			if p.Package.Time.Given != tt.given || p.Limits.Time != tt.limit || src != tt.src {
				t.Errorf("got given %v limit %v source %q, want %v %v %q", p.Package.Time.Given, p.Limits.Time, src, tt.given, tt.limit, tt.src)
			}
		})
	}
}

func TestKattisTimeLimitResolution(t *testing.T) {
	dir := writeTree(t, "pkg", map[string]string{
		"problem.yaml":     "problem_format_version: 2025-09\nname: A\nuuid: x\nlimits:\n  time_limit: 1.5\n  time_resolution: 1\n",
		"data/secret/1.in": "1\n",
	})
	p, err := problems.LoadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Package.Warnings) != 1 || !strings.HasSuffix(p.Package.Warnings[0].String(), "problem.yaml:5: limits.time_limit: 1.5 is not a multiple of limits.time_resolution (1)") {
		t.Errorf("got warnings %v, want one about the resolution", p.Package.Warnings)
	}
}

func TestFormatVersions(t *testing.T) {
	for _, tt := range []struct {
		s    string
		want kattis.FormatVersion
		ok   bool
	}{
		{"", kattis.FormatLegacy, true}, {"legacy", kattis.FormatLegacy, true}, {"legacy-icpc", kattis.FormatLegacy, true},
		{"2023-07-draft", kattis.Format2023, true}, {"2023-07", kattis.Format2023, true},
		{"2025-09", kattis.Format2025, true}, {"2025-09-draft", kattis.Format2025, true}, {"draft", kattis.Format2025, true},
		{"2020-01", kattis.FormatLegacy, false},
	} {
		got, ok := kattis.ParseFormatVersion(tt.s)
		if got != tt.want || ok != tt.ok {
			t.Errorf("parseFormatVersion(%q): got %v %v, want %v %v", tt.s, got, ok, tt.want, tt.ok)
		}
	}
}

func TestKattisTimeLimitMultiple(t *testing.T) {
	for _, tt := range []struct {
		yaml string
		warn bool
	}{
		{"problem_format_version: 2025-09\nname: A\nuuid: x\nlimits:\n  time_limit: 1.5\n", true},
		{"problem_format_version: 2025-09\nname: A\nuuid: x\nlimits:\n  time_limit: 1.5\n  time_resolution: 0.5\n", false},
		{"problem_format_version: 2023-07\nname: A\nuuid: x\nlimits:\n  time_limit: 1.5\n", false},
	} {
		p := loadPackage(t, map[string]string{"problem.yaml": tt.yaml, "data/secret/1.in": ""})
		if got := strings.Contains(warningsOf(p), "is not a multiple of limits.time_resolution"); got != tt.warn {
			t.Errorf("%q: got a warning %v, want %v", tt.yaml, got, tt.warn)
		}
	}
}

// TestHostileYAML: repeated or countless keys are refused before yaml.v3
// spends quadratic time on them.
func TestHostileYAML(t *testing.T) {
	many := strings.Repeat("k: 1\n", 20000)
	var distinct strings.Builder
	for i := 0; i < 2000; i++ {
		fmt.Fprintf(&distinct, "k%d: 1\n", i)
	}
	for _, tt := range []struct{ name, yaml, want string }{
		{"a repeated key", "k: 1\nk: 2\n", "problem.yaml:2: k: given twice (first on line 1)"},
		{"a key repeated countless times", many, "problem.yaml:1: 20000 keys, more than 1000"},
		{"a repeated nested key", "limits:\n  memory: 1\n  memory: 2\n", "problem.yaml:3: limits.memory: given twice (first on line 2)"},
		{"too many keys", distinct.String(), "problem.yaml:1: 2000 keys, more than 1000"},
	} {
		for _, parse := range []func() error{
			func() error { _, err := kattis.Parse(strings.NewReader(tt.yaml), "problem.yaml"); return err },
			func() error { _, err := kattis.Parse(strings.NewReader(tt.yaml), "problem.yaml"); return err },
		} {
			if err := parse(); err == nil || err.Error() != tt.want {
				t.Errorf("%s: got %v, want %q", tt.name, err, tt.want)
			}
		}
	}
}
