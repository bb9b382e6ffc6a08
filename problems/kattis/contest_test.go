package kattis

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseContest(t *testing.T) {
	contest := "id: nwerc\nname: NWERC 2026\nstart_time: 2026-11-29T10:00:00Z\ntitle: ignored\n"
	probs := `# BAPCtools' and DOMjudge's keys
- id: hello
  label: A
  name: Hello World
  color: Orange
  rgb: '#FF7109'
- id: boolfind
  label: B
  name: {en: Boolfind, nl: Booleaans}
  rgb: '#0f0'
  time_limit: 2
- id: third
  label: C
  color: '#123456'
  flavour: sweet
`
	c, err := readContest(strings.NewReader(contest), "contest.yaml", strings.NewReader(probs), "problems.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if c.ID != "nwerc" || c.Name != "NWERC 2026" {
		t.Errorf("got id %q name %q, want nwerc, NWERC 2026", c.ID, c.Name)
	}
	want := []ContestProblem{
		{ID: "hello", Label: "A", Name: "Hello World", RGB: "#ff7109", Color: "Orange", Line: 2},
		{ID: "boolfind", Label: "B", Name: "Boolfind", RGB: "#00ff00", Line: 7},
		{ID: "third", Label: "C", RGB: "#123456", Color: "#123456", Line: 12},
	}
	if len(c.Problems) != len(want) {
		t.Fatalf("got %+v, want %+v", c.Problems, want)
	}
	for i := range want {
		if c.Problems[i] != want[i] {
			t.Errorf("problem %d: got %+v, want %+v", i, c.Problems[i], want[i])
		}
	}
	if len(c.Warnings) != 1 || !strings.Contains(c.Warnings[0].String(), "problems.yaml:15: [2].flavour: not a key") {
		t.Errorf("warnings: got %v, want one for flavour at line 15", c.Warnings)
	}
	if c.Find("boolfind") != &c.Problems[1] || c.Find("nope") != nil || (*Contest)(nil).Find("x") != nil {
		t.Error("Find does not find the entries")
	}
}

func TestParseContestErrors(t *testing.T) {
	for _, tc := range []struct{ name, problems, want string }{
		{"not a list", "id: a\n", "problems.yaml:1: want a list"},
		{"no id", "- label: A\n", "problems.yaml:1: [0].id: required"},
		{"no label", "- id: a\n", "problems.yaml:1: [0].label: required"},
		{"twice", "- {id: a, label: A}\n- {id: a, label: B}\n", `problems.yaml:2: [1].id: "a" is listed twice (line 1)`},
		{"label twice", "- {id: a, label: A}\n- {id: b, label: A}\n", `problems.yaml:2: [1].label: "A" is the label of two problems (line 1)`},
		{"bad rgb", "- {id: a, label: A, rgb: red}\n", `problems.yaml:1: [0].rgb: "red": want a colour`},
		{"bad id", "- {id: ../etc, label: A}\n", `[0].id: "../etc": want a problem directory's name`},
		{"syntax", "- {id: a\n", "problems.yaml:"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := readContest(nil, "", strings.NewReader(tc.problems), "problems.yaml")
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v, want %q", err, tc.want)
			}
		})
	}
	if _, err := readContest(strings.NewReader("- a\n"), "contest.yaml", nil, ""); err == nil || !strings.Contains(err.Error(), "contest.yaml:1") {
		t.Errorf("contest.yaml as a list: got %v, want an error at line 1", err)
	}
}

func TestLoadContest(t *testing.T) {
	dir := t.TempDir()
	if c, err := LoadContest(dir); c != nil || err != nil {
		t.Errorf("no files: got %v, %v, want nil, nil", c, err)
	}
	os.WriteFile(filepath.Join(dir, "problems.yaml"), []byte("- {id: a, label: A}\n"), 0o644)
	c, err := LoadContest(dir)
	if err != nil || len(c.Problems) != 1 || c.Name != "" {
		t.Errorf("problems.yaml alone: got %+v, %v", c, err)
	}
	os.WriteFile(filepath.Join(dir, "contest.yaml"), []byte("formal_name: The Contest\n"), 0o644)
	if c, err := LoadContest(dir); err != nil || c.Name != "The Contest" {
		t.Errorf("formal_name: got %+v, %v", c, err)
	}
}
