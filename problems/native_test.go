package problems

import (
	"slices"
	"strings"
	"testing"
	"time"
)

const goodSpec = `name: rotation-game
title: The Rotation Game
sources: [UVa 1343, POJ 2286]
limits:
  time_limit: 2.5
  memory: 256
  output: 8
checker:
  name: tokens
reference: clocks
validator: clocks
`

func TestParseGood(t *testing.T) {
	s, err := parseNative(strings.NewReader(goodSpec), "problem.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	if s.Name != "rotation-game" || s.Limits.TimeLimit != 2.5 || s.Limits.Memory != 256 || len(s.Sources) != 2 {
		t.Errorf("got %+v", s)
	}
}

func TestParseDefaults(t *testing.T) {
	s, err := parseNative(strings.NewReader("name: a\ntitle: A\n"), "problem.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	want := nativeDefaults().Limits
	if s.Limits != want || s.Checker.Name != "tokens" {
		t.Errorf("got limits %+v checker %q, want %+v tokens", s.Limits, s.Checker.Name, want)
	}
}

func TestParseDefaultChecker(t *testing.T) {
	const y = "name: a\ntitle: A\nchecker: {name: default, options: {float_tolerance: 1e-6, case_sensitive: true}}\n"
	s, err := parseNative(strings.NewReader(y), "problem.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	if s.Checker.Name != "default" || s.Checker.Options["float_tolerance"] != "1e-6" || s.Checker.Options["case_sensitive"] != "true" {
		t.Errorf("got checker %+v, want default with float_tolerance 1e-6 and case_sensitive true", s.Checker)
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name, yaml, want string
	}{
		{"unknown key", "name: a\ntitle: A\nlimits:\n  time_limt: 3\n",
			"problem.yaml:4: limits.time_limt: unknown key"},
		{"unknown top key", "name: a\ntitle: A\nchecker_name: x\n",
			"problem.yaml:3: checker_name: unknown key"},
		{"wrong type", "name: a\ntitle: A\nlimits:\n  memory: lots\n",
			`problem.yaml:4: limits.memory: got the string "lots", want a number`},
		{"list for string", "name: a\ntitle: [A]\n",
			"problem.yaml:2: title: got a list, want a string"},
		{"syntax", "name: a\n title: A\n", "problem.yaml:2: "},
		{"negative time", "name: a\ntitle: A\nlimits:\n  time_limit: -1\n",
			"problem.yaml:4: limits.time_limit: must be > 0 seconds, got -1"},
		{"zero memory", "name: a\ntitle: A\nlimits:\n  memory: 0\n",
			"problem.yaml:4: limits.memory: must be between 1 and 1048576 MiB, got 0"},
		{"missing title", "name: a\n", "problem.yaml: title: required"},
		{"bad name", "name: Rotation Game\ntitle: A\n",
			`problem.yaml:1: name: "Rotation Game": use lower-case letters, digits and '-'`},
		{"unknown checker", "name: a\ntitle: A\nchecker:\n  name: nope\n",
			`problem.yaml:4: checker.name: unknown checker "nope"`},
		{"bad option", "name: a\ntitle: A\nchecker:\n  name: tokens\n  options:\n    mode: x\n",
			"problem.yaml:6: checker.options.mode: unknown option"},
		{"bad tolerance", "name: a\ntitle: A\nchecker:\n  name: default\n  options:\n    float_tolerance: 1e-6x\n",
			`problem.yaml:6: checker.options.float_tolerance: "1e-6x": not a number`},
		{"unknown reference", "name: a\ntitle: A\nreference: nope\n",
			`problem.yaml:3: reference: unknown reference solver "nope"`},
		{"empty", "", "problem.yaml: empty file"},
		{"name and program", "name: a\ntitle: A\nchecker:\n  name: tokens\n  program: check.cpp\n",
			"problem.yaml:4: checker.name: give either a built-in checker's name or a program, not both"},
		{"options for a program", "name: a\ntitle: A\nchecker:\n  program: check.cpp\n  options:\n    mode: any\n",
			"problem.yaml:5: checker.options: options are for built-in checkers; a program takes args"},
		{"bad protocol", "name: a\ntitle: A\nchecker:\n  program: check.cpp\n  protocol: polygon\n",
			`problem.yaml:5: checker.protocol: "polygon": want testlib or kattis`},
		{"protocol without program", "name: a\ntitle: A\nchecker:\n  protocol: kattis\n",
			"problem.yaml:4: checker.protocol: only for a checker program (checker.program)"},
		{"program outside", "name: a\ntitle: A\nchecker:\n  program: ../check.cpp\n",
			`problem.yaml:4: checker.program: "../check.cpp": want a clean path inside the problem directory`},
		{"absolute validator", "name: a\ntitle: A\ninput_validators: [/bin/true]\n",
			`problem.yaml:3: input_validators[0]: "/bin/true": want a path relative to the problem directory`},
		{"bool for a list", "name: a\ntitle: A\ninput_validators: true\n",
			"problem.yaml:3: input_validators: got the boolean true, want a list of strings"},
		{"interactor outside", "name: a\ntitle: A\ninteractor:\n  program: /bin/cat\n",
			`problem.yaml:4: interactor.program: "/bin/cat": want a path relative to the problem directory`},
		{"interactor protocol", "name: a\ntitle: A\ninteractor:\n  program: i.py\n  protocol: polygon\n",
			`problem.yaml:5: interactor.protocol: "polygon": want testlib or kattis`},
		{"kattis interactor and a checker", "name: a\ntitle: A\nchecker:\n  name: tokens\ninteractor:\n  program: i.py\n  protocol: kattis\n",
			"problem.yaml:3: checker: a kattis interactor judges the test itself"},
		{"interactor without program", "name: a\ntitle: A\ninteractor:\n  args: [x]\n",
			"problem.yaml:3: interactor.program: empty path"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := parseNative(strings.NewReader(tt.yaml), "problem.yaml")
			if err == nil {
				err = s.Validate()
			}
			if err == nil {
				t.Fatalf("got no error, want %q", tt.want)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %q, want it to contain %q", err, tt.want)
			}
		})
	}
}

func TestEmbeddedProblemsLoad(t *testing.T) {
	names := Embedded()
	want := []string{"clocks", "cube", "eight-puzzle", "fifteen-puzzle", "hanoi", "klotski", "lights-out", "pancakes", "pocket-cube", "pyraminx", "rotation-game", "rush-hour", "skewb", "water-jugs"}
	if !slices.Equal(names, want) {
		t.Fatalf("got embedded problems %v, want %v", names, want)
	}
	for _, n := range names {
		t.Run(n, func(t *testing.T) {
			p, err := LoadEmbedded(n)
			if err != nil {
				t.Fatal(err)
			}
			if p.Name != n {
				t.Errorf("got name %q, want the directory's name %q", p.Name, n)
			}
			if p.Reference == nil || p.Validator == nil || p.Limits.Time <= 0 || p.Limits.Time > time.Minute {
				t.Errorf("got %+v, want a reference, a validator and a time limit", p)
			}
			tests, err := p.Package.Tests()
			if err != nil {
				t.Fatal(err)
			}
			var samples int
			for _, tc := range tests {
				if tc.Group == "sample" {
					samples++
				}
				if tc.Ans == "" {
					t.Errorf("%s has no .ans", tc.Name)
				}
			}
			if samples == 0 || len(tests) <= samples {
				t.Errorf("got %d tests of which %d samples, want samples and secret tests", len(tests), samples)
			}
		})
	}
}

func TestFind(t *testing.T) {
	if _, err := Find("no-such-problem", nil); err == nil || !strings.Contains(err.Error(), "unknown problem") {
		t.Errorf("got %v, want an unknown problem error", err)
	}
	if _, err := Find("./does/not/exist", nil); err == nil || !strings.Contains(err.Error(), "no such problem directory") {
		t.Errorf("got %v, want no such directory", err)
	}
	dir := t.TempDir()
	if _, err := Find(dir, nil); err == nil || !strings.Contains(err.Error(), "no problem.yaml") {
		t.Errorf("got %v, want not a problem directory", err)
	}
	t.Chdir(dir) // so that "clocks" is not the directory beside this test
	p, err := Find("clocks", []string{dir})
	if err != nil || p.Package.Origin != "embedded:clocks" {
		t.Errorf("got %v %v, want the embedded clocks", p, err)
	}
}

// FuzzParse: no problem.yaml makes the loader panic, and every error it
// reports names the file.
func FuzzParse(f *testing.F) {
	f.Add(goodSpec)
	f.Add("name: a\ntitle: A\nlimits:\n  time_limt: 3\n")
	f.Add("name: [\n")
	f.Add("limits: {memory: lots, output: -1}\nchecker: {name: eight-puzzle, options: {mode: fast}}\n")
	f.Fuzz(func(t *testing.T, data string) {
		s, err := parseNative(strings.NewReader(data), "problem.yaml")
		if err == nil {
			err = s.Validate()
		}
		if err != nil && !strings.HasPrefix(err.Error(), "problem.yaml") {
			t.Errorf("error %q does not name the file", err)
		}
	})
}

// TestNativeNameIsTheDirectory: a native problem.yaml's name that is not
// its directory's is a warning.
func TestNativeNameIsTheDirectory(t *testing.T) {
	files := map[string]string{"problem.yaml": "name: other\ntitle: T\n", "testdata/secret/1.in": "1\n", "testdata/secret/1.ans": "1\n"}
	p, err := LoadDir(writeTree(t, "mine", files))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, w := range p.Package.Warnings {
		got = append(got, w.String())
	}
	if !strings.Contains(strings.Join(got, "\n"), `problem.yaml:1: name: "other" is not the directory's name "mine"`) {
		t.Errorf("warnings %q: want the name's", got)
	}
}
