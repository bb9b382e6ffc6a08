package kattis_test

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/optjudge/optjudge/bytesize"
	"github.com/optjudge/optjudge/checkers"
	"github.com/optjudge/optjudge/problems"
	"github.com/optjudge/optjudge/problems/kattis"
)

// writeTree writes files (slash-separated names) under a fresh directory
// named name and returns its path.
func writeTree(t *testing.T, name string, files map[string]string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), name)
	for f, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestLoadKattisPackage loads the Kattis package shipped beside the
// embedded problems.
func TestLoadKattisPackage(t *testing.T) {
	p, err := problems.LoadDir("../sum-kattis")
	if err != nil {
		t.Fatal(err)
	}
	if p.Package.Layout != kattis.LayoutKattis || p.Name != "sum-kattis" || p.Title != "Split the Sum" {
		t.Errorf("got layout %v name %q title %q, want kattis sum-kattis \"Split the Sum\"", p.Package.Layout, p.Name, p.Title)
	}
	if p.Limits.Time != time.Second || p.Limits.Memory != 256*bytesize.MiB || p.Limits.Output != bytesize.MiB {
		t.Errorf("got limits %+v, want 1s (.timelimit), 256 MiB, 1 MiB", p.Limits)
	}
	want := &kattis.Program{Path: "output_validators/split", Protocol: checkers.Kattis}
	if !reflect.DeepEqual(p.Package.CheckerProgram, want) {
		t.Errorf("got checker program %+v, want %+v", p.Package.CheckerProgram, want)
	}
	if _, ok := p.Package.Checker.(checkers.Unbuilt); !ok {
		t.Errorf("got checker %T, want checkers.Unbuilt until the judge builds it", p.Package.Checker)
	}
	if len(p.Package.InputValidators) != 1 || p.Package.InputValidators[0].Path != "input_validators/validate.py" {
		t.Errorf("got input validators %+v, want input_validators/validate.py", p.Package.InputValidators)
	}
	// A legacy package's margins are the legacy defaults, 5 and 2.
	if want := (problems.TimeRules{AC: 5, TLE: 2}); p.TimeRules() != want {
		t.Errorf("got time rules %+v, want %+v", p.TimeRules(), want)
	}
	if !p.Package.Time.Given || p.Package.Time.Source != "../sum-kattis/.timelimit" || p.Package.Time.Multipliers != kattis.LegacyTimeMultipliers {
		t.Errorf("got time %+v, want given by ../sum-kattis/.timelimit with the legacy multipliers", p.Package.Time)
	}
	if p.Package.Format != kattis.FormatLegacy || p.Package.Type != (kattis.ProblemType{}) || p.Package.GroupRules != kattis.GroupRulesLegacy || len(withoutNameWarning(p.Package.Warnings)) > 0 {
		t.Errorf("got format %v type %v rules %v warnings %v, want a plain legacy pass-fail package", p.Package.Format, p.Package.Type, p.Package.GroupRules, p.Package.Warnings)
	}
	if p.Package.Validation.Default || p.Package.Validation.Program == nil || p.Package.Validation.Program.Path != "output_validators/split" {
		t.Errorf("got validation %+v, want the custom validator output_validators/split", p.Package.Validation)
	}
	tests, err := p.Package.Tests()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tc := range tests {
		names = append(names, tc.Name+"@"+tc.Group)
		if tc.Ans == "" {
			t.Errorf("%s: no .ans", tc.Name)
		}
	}
	wantNames := []string{"sample/1@sample", "secret/01-small@secret", "secret/02-fours@secret", "secret/03-no-fours@secret",
		"secret/big/01-random@secret", "secret/big/02-random-fours@secret"}
	if !reflect.DeepEqual(names, wantNames) {
		t.Errorf("got tests %v, want %v", names, wantNames)
	}
	if got := p.Package.TestDir("secret"); got != "data/secret" {
		t.Errorf("got test dir %q, want data/secret", got)
	}
}

// TestLoadKattis2023 reads the keys of the 2023-07 format.
func TestLoadKattis2023(t *testing.T) {
	dir := writeTree(t, "hello", map[string]string{
		"problem.yaml": `problem_format_version: 2023-07
type: pass-fail
name:
  sv: Hej
  en: Hello
uuid: 5ca6ba5b-36d5-4eff-8aa7-d967cd1bd5a0
credits:
  authors: [Ada]
source:
  - name: NWERC 2023
    url: https://2023.nwerc.eu
license: cc by-sa
rights_owner: Ada
keywords: [greeting, easy]
limits:
  time_limit: 2.5
  time_multipliers:
    ac_to_time_limit: 3
    time_limit_to_tle: 2
  memory: 512
`,
		"data/sample/1.in":           "x\n",
		"data/sample/1.ans":          "x\n",
		"output_validator/check.py":  "import sys\nsys.exit(42)\n",
		"output_validator/helper.md": "notes\n",
	})
	p, err := problems.LoadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if p.Title != "Hello" || p.Limits.Time != 2500*time.Millisecond || p.Limits.Memory != 512*bytesize.MiB {
		t.Errorf("got title %q, limits %+v, want Hello, 2.5s, 512 MiB", p.Title, p.Limits)
	}
	if !reflect.DeepEqual(p.Sources, []string{"NWERC 2023"}) {
		t.Errorf("got sources %q, want [NWERC 2023]", p.Sources)
	}
	if p.TimeRules() != (problems.TimeRules{AC: 3, TLE: 2}) {
		t.Errorf("got time rules %+v, want {3 2}", p.TimeRules())
	}
	if p.Package.Format != kattis.Format2023 || !p.Package.Time.Given || p.Package.Time.Multipliers.Resolution != time.Second {
		t.Errorf("got format %v, time %+v, want 2023-07, given, resolution 1s", p.Package.Format, p.Package.Time)
	}
	if p.Package.CheckerProgram == nil || p.Package.CheckerProgram.Path != "output_validator" || p.Package.CheckerProgram.Protocol != checkers.Kattis {
		t.Errorf("got checker program %+v, want output_validator (kattis)", p.Package.CheckerProgram)
	}
}

func TestLoadKattisDefaults(t *testing.T) {
	// An empty problem.yaml is a valid legacy package: the default
	// validator, 1 s, 2048 MiB, the directory's name as title.
	dir := writeTree(t, "empty", map[string]string{
		"problem.yaml":         "",
		"data/secret/a/1.in":   "1\n",
		"data/secret/a/1.ans":  "1\n",
		"data/secret/b.in":     "2\n",
		"data/secret/b.ans":    "2\n",
		"output_validators/.x": "",
	})
	p, err := problems.LoadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if p.Title != "empty" || p.Package.CheckerProgram != nil || p.Limits.Time != time.Second || p.Limits.Memory != 2048*bytesize.MiB {
		t.Errorf("got %q %+v %+v, want the defaults", p.Title, p.Package.CheckerProgram, p.Limits)
	}
	// The default output validator: tokens compared up to case.
	if d, ok := p.Package.Checker.(checkers.Default); !ok || d != (checkers.Default{}) || !p.Package.Validation.Default {
		t.Errorf("got checker %#v (default %v), want the default checker without flags", p.Package.Checker, p.Package.Validation.Default)
	}
	tests, err := p.Package.Tests()
	if err != nil || len(tests) != 2 || tests[0].Name != "secret/a/1" || tests[1].Name != "secret/b" {
		t.Errorf("got %v %v, want secret/a/1 then secret/b", tests, err)
	}
}

func TestLoadKattisErrors(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		want  string
	}{
		{"multi-pass without a validator", map[string]string{"problem.yaml": "problem_format_version: 2025-09\ntype: [pass-fail, multi-pass]\n"},
			`problem.yaml:2: type: multi-pass, but there is no output validator`},
		{"validation_passes of 1", map[string]string{"problem.yaml": "problem_format_version: 2025-09\ntype: multi-pass\nlimits:\n  validation_passes: 1\n", "output_validator/v.py": ""},
			`problem.yaml:4: limits.validation_passes: 1: want a whole number of at least 2`},
		{"validation_passes of 2.5", map[string]string{"problem.yaml": "problem_format_version: 2025-09\ntype: multi-pass\nlimits:\n  validation_passes: 2.5\n", "output_validator/v.py": ""},
			`problem.yaml:4: limits.validation_passes: 2.5: want a whole number of at least 2`},
		{"submit-answer and interactive", map[string]string{"problem.yaml": "problem_format_version: 2023-07-draft\ntype: [submit-answer, interactive]\n"},
			`problem.yaml:2: type: submit-answer excludes multi-pass and interactive`},
		{"pass-fail and scoring", map[string]string{"problem.yaml": "problem_format_version: 2025-09\ntype: [pass-fail, scoring]\n"},
			"problem.yaml:2: type: pass-fail and scoring exclude each other"},
		{"unknown type", map[string]string{"problem.yaml": "type: optimisation\n"},
			`problem.yaml:1: type: "optimisation": want pass-fail, scoring, interactive, multi-pass or submit-answer`},
		{"bad validation", map[string]string{"problem.yaml": "validation: custom fancy\n", "output_validators/v.py": ""},
			`problem.yaml:1: validation: "fancy": custom takes interactive, score and multi-pass`},
		{"default with parameters", map[string]string{"problem.yaml": "validation: default interactive\n"},
			`problem.yaml:1: validation: "default interactive": default takes no parameters`},
		{"custom score in pass-fail", map[string]string{"problem.yaml": "validation: custom score\n", "output_validators/v.py": ""},
			"problem.yaml:1: validation: custom score is only for scoring problems"},
		{"interactive without validator", map[string]string{"problem.yaml": "problem_format_version: 2025-09\ntype: interactive\n"},
			"problem.yaml:2: type: interactive, but there is no output validator"},
		{"legacy validators in 2023-07", map[string]string{"problem.yaml": "problem_format_version: 2023-07\n", "output_validators/v.py": ""},
			"problem_format_version: format 2023-07 reads the output validator from output_validator/, not output_validators/"},
		{"bad objective", map[string]string{"problem.yaml": "type: scoring\ngrading:\n  objective: best\n"},
			`problem.yaml:3: grading.objective: "best": want max or min`},
		{"bad grading range", map[string]string{"problem.yaml": "type: scoring\ngrading:\n  range: 0\n"},
			`problem.yaml:3: grading.range: "0": want two numbers`},
		{"two graders", map[string]string{"problem.yaml": "type: scoring\n", "graders/a.py": "", "graders/b.py": ""},
			"graders: 2 graders; a package has at most one"},
		{"custom without program", map[string]string{"problem.yaml": "validation: custom\n"},
			"problem.yaml:1: validation: custom, but there is no program in output_validators/ or output_validator/"},
		{"two validators", map[string]string{"problem.yaml": "validation: custom\n", "output_validators/a.py": "", "output_validators/b.py": ""},
			"output_validators/ holds 2 programs (output_validators/a.py, output_validators/b.py); the judge runs one"},
		{"bad license", map[string]string{"problem.yaml": "license: mine\n"},
			`problem.yaml:1: license: "mine": want one of unknown, public domain`},
		{"negative memory", map[string]string{"problem.yaml": "limits:\n  memory: -1\n"},
			"problem.yaml:2: limits.memory: must be > 0, got -1"},
		{"name as a list", map[string]string{"problem.yaml": "name: [A, B]\n"},
			"problem.yaml:1: name: want a string, or a mapping from languages to strings"},
		{"tolerance without a number", map[string]string{"problem.yaml": "validator_flags: float_tolerance\n"},
			`problem.yaml:1: validator_flags: "float_tolerance": wants a number after it`},
		{"unknown default flag", map[string]string{"problem.yaml": "validator_flags: case_sensitive fuzzy\n"},
			`problem.yaml:1: validator_flags: "fuzzy": unknown flag`},
		{"bad group flag", map[string]string{"problem.yaml": "", "data/secret/testdata.yaml": "\noutput_validator_flags: float_tolerance x\n"},
			`data/secret/testdata.yaml:2: output_validator_flags: "x": not a number`},
		{"wrong grading type", map[string]string{"problem.yaml": "grading: max\n"},
			`problem.yaml:1: grading: got the string "max", want a mapping`},
		{"bad version", map[string]string{"problem.yaml": "problem_format_version: 2020\n"},
			`problem.yaml:1: problem_format_version: "2020": want one of legacy`},
		{"bad timelimit file", map[string]string{"problem.yaml": "name: A\n", ".timelimit": "fast\n"},
			`.timelimit:1: want a time limit in seconds, got "fast"`},
		{"wrong type", map[string]string{"problem.yaml": "limits:\n  memory: lots\n"},
			`problem.yaml:2: limits.memory: got the string "lots", want a number`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.files["data/secret/1.in"] = "1\n"
			_, err := problems.LoadDir(writeTree(t, "pkg", tt.files))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v, want an error containing %q", err, tt.want)
			}
		})
	}
}

func TestLoadCheckerProgram(t *testing.T) {
	spec := "name: a\ntitle: A\nchecker:\n  program: checker/check.cpp\n  args: [--strict]\ninput_validators: [validate.py]\n"
	dir := writeTree(t, "a", map[string]string{
		"problem.yaml":      spec,
		"checker/check.cpp": "int main() {}\n",
		"validate.py":       "",
		"testdata/1.in":     "",
	})
	p, err := problems.LoadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := &kattis.Program{Path: "checker/check.cpp", Protocol: checkers.Testlib, Args: []string{"--strict"}}
	if !reflect.DeepEqual(p.Package.CheckerProgram, want) || len(p.Package.InputValidators) != 1 || p.Package.Layout != kattis.LayoutNative {
		t.Errorf("got %+v %+v %v, want %+v, validate.py, native", p.Package.CheckerProgram, p.Package.InputValidators, p.Package.Layout, want)
	}
	os.Remove(filepath.Join(dir, "checker/check.cpp"))
	if _, err := problems.LoadDir(dir); err == nil || !strings.Contains(err.Error(), "problem.yaml:4: checker.program: checker/check.cpp: no such file or directory") {
		t.Errorf("got %v, want a missing program error", err)
	}
}

// TestLayoutBoth: a directory with both testdata/ and data/ is an error
// naming both: one of them would be silently ignored.
func TestLayoutBoth(t *testing.T) {
	dir := writeTree(t, "both", map[string]string{
		"problem.yaml":         "name: both\ntitle: Both\n",
		"testdata/secret/1.in": "1\n",
		"data/secret/1.in":     "1\n",
	})
	if _, err := problems.LoadDir(dir); err == nil || !strings.Contains(err.Error(), "both: both data/ and testdata/") {
		t.Errorf("got %v, want an error naming both", err)
	}
}

// TestLoadMultiPass reads the passes of a multi-pass problem: the 2025-09
// type with limits.validation_passes, DOMjudge's legacy validation: custom
// multi-pass (2 passes), and validation_passes where it means nothing (a
// warning).
func TestLoadMultiPass(t *testing.T) {
	tests := []struct {
		name        string
		files       map[string]string
		passes      int
		interactive bool
		warning     string
	}{
		{"2025-09", map[string]string{"problem.yaml": "problem_format_version: 2025-09\ntype: multi-pass\nlimits:\n  validation_passes: 3\n", "output_validator/v.py": ""}, 3, false, ""},
		{"2025-09 interactive", map[string]string{"problem.yaml": "problem_format_version: 2025-09\ntype: [interactive, multi-pass]\n", "output_validator/v.py": ""}, 2, true, ""},
		{"legacy", map[string]string{"problem.yaml": "validation: custom multi-pass\n", "output_validators/v/v.py": ""}, 2, false, ""},
		{"legacy interactive", map[string]string{"problem.yaml": "validation: custom interactive multi-pass\nlimits:\n  validation_passes: 4\n", "output_validators/v/v.py": ""}, 4, true,
			"limits.validation_passes: not a key of format legacy"},
		{"not multi-pass", map[string]string{"problem.yaml": "problem_format_version: 2025-09\nlimits:\n  validation_passes: 3\n"}, 0, false,
			"problem.yaml:3: limits.validation_passes: only for multi-pass problems; ignored"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.files["data/secret/1.in"] = "1\n"
			p, err := problems.LoadDir(writeTree(t, "pkg", tt.files))
			if err != nil {
				t.Fatal(err)
			}
			if p.Package.Validation.Passes != tt.passes || p.Package.Type.MultiPass != (tt.passes > 0) || p.Package.Validation.Interactive != tt.interactive {
				t.Errorf("got %d passes, type %v, interactive %v; want %d, interactive %v", p.Package.Validation.Passes, p.Package.Type, p.Package.Validation.Interactive, tt.passes, tt.interactive)
			}
			var ws []string
			for _, w := range p.Package.Warnings {
				ws = append(ws, w.String())
			}
			if all := strings.Join(ws, "\n"); tt.warning != "" && !strings.Contains(all, tt.warning) {
				t.Errorf("got warnings\n%s\nwant one with %q", all, tt.warning)
			}
		})
	}
}
