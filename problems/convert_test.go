package problems

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/optjudge/optjudge/checkers"
	"github.com/optjudge/optjudge/problems/kattis"
	"github.com/optjudge/optjudge/reference/puzzle"
)

// nativeSlide is a native puzzle problem with every part convert moves.
func nativeSlide() map[string]string {
	return map[string]string{
		"problem.yaml": `name: slide
title: Sliding Six
sources: [A Contest 2026, Another]
limits:
  # the reference takes a millisecond
  time_limit: 0.5
  memory: 256
puzzle: defs/slide.yaml
checker:
  name: puzzle
  options: {mode: shortest}
input_validators: [tools/lines.py]
`,
		"defs/slide.yaml":                 slide23,
		"statement.md":                    "# Sliding Six\n",
		"testdata/sample/1.in":            "1 2 3 4 0 5\n",
		"testdata/sample/1.ans":           "R\n",
		"testdata/secret/a.in":            "1 2 3 4 0 5\n1 2 3 4 5 0\n",
		"testdata/secret/a.ans":           "R\n\n",
		"tools/lines.py":                  "import sys\nsys.exit(42)\n",
		"solution/main.py":                "print('R')\n",
		"submissions/accepted/bfs.py":     "print('R')\n",
		"submissions/wrong_answer/wa.py":  "print('L')\n",
		"notes/README":                    "kept as it is\n",
		"submissions/accepted/.hidden.py": "",
	}
}

func TestConvert(t *testing.T) {
	files := nativeSlide()
	dir := writeTree(t, "slide", files)
	out := filepath.Join(t.TempDir(), "slide")
	c, err := Convert(dir, out)
	if err != nil {
		t.Fatal(err)
	}
	if c.Already || len(c.Steps) == 0 {
		t.Fatalf("got %+v, want steps", c)
	}
	p, err := LoadDir(out)
	if err != nil {
		t.Fatal(err)
	}
	if p.Package.Layout != kattis.LayoutKattis || p.Package.Format != kattis.Format2025 || p.Notice() != "" {
		t.Errorf("got layout %v format %v, want a 2025-09 package", p.Package.Layout, p.Package.Format)
	}
	if p.Title != "Sliding Six" || p.Limits.Time.Seconds() != 0.5 || p.Limits.Memory>>20 != 256 || strings.Join(p.Sources, "|") != "A Contest 2026|Another" {
		t.Errorf("got title %q limits %+v sources %q", p.Title, p.Limits, p.Sources)
	}
	if p.Puzzle == nil || p.PuzzleChecker().Mode() != puzzle.ModeShortest || p.Reference == nil || p.Validator == nil || len(p.Package.InputValidators) != 1 {
		t.Errorf("got puzzle %v, input validators %v, want the definition in mode shortest and the validator program", p.Puzzle, p.Package.InputValidators)
	}
	for _, w := range p.Package.Warnings {
		if !strings.Contains(w.Msg, "has a '-'") && !strings.Contains(w.Msg, "required") {
			t.Errorf("warning: %s", w)
		}
	}
	// every test byte for byte, and each other part at its place
	moved := map[string]string{
		"testdata/sample/1.in": "data/sample/1.in", "testdata/sample/1.ans": "data/sample/1.ans",
		"testdata/secret/a.in": "data/secret/a.in", "testdata/secret/a.ans": "data/secret/a.ans",
		"statement.md": "statement/problem.en.md", "tools/lines.py": "input_validators/lines.py",
		"solution/main.py": "submissions/accepted/solution/main.py", "submissions/accepted/bfs.py": "submissions/accepted/bfs.py",
		"submissions/wrong_answer/wa.py": "submissions/wrong_answer/wa.py", "notes/README": "notes/README",
	}
	for from, to := range moved {
		if got, err := os.ReadFile(filepath.Join(out, filepath.FromSlash(to))); err != nil || string(got) != files[from] {
			t.Errorf("%s -> %s: got %q, %v", from, to, got, err)
		}
	}
	for _, gone := range []string{"testdata", "statement.md", "tools/lines.py", "solution", "defs/slide.yaml", "submissions/accepted/.hidden.py"} {
		if _, err := os.Stat(filepath.Join(out, gone)); err == nil {
			t.Errorf("%s: still in the package", gone)
		}
	}
	def, _ := os.ReadFile(filepath.Join(out, "puzzle.yaml"))
	if !strings.Contains(string(def), "mode: shortest") {
		t.Errorf("puzzle.yaml: got\n%s\nwant mode shortest", def)
	}
	y, _ := os.ReadFile(filepath.Join(out, "problem.yaml"))
	for _, want := range []string{"problem_format_version: 2025-09\n", "  # the reference takes a millisecond\n  time_limit: 0.5\n  time_resolution: 0.1\n"} {
		if !strings.Contains(string(y), want) {
			t.Errorf("problem.yaml: got\n%s\nwant %q", y, want)
		}
	}

	// converting the package again does nothing; so does converting in
	// place, which gives the same files as into out
	if c, err := Convert(out, ""); err != nil || !c.Already {
		t.Errorf("again: got %+v, %v, want already a package", c, err)
	}
	if _, err := Convert(dir, ""); err != nil {
		t.Fatal(err)
	}
	if a, b := treeFiles(t, dir), treeFiles(t, out); strings.Join(a, " ") != strings.Join(b, " ") {
		t.Errorf("in place: got %v\nwant %v", a, b)
	}
}

// treeFiles lists the files below dir but hidden ones, slash-separated,
// sorted.
func treeFiles(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && !strings.HasPrefix(d.Name(), ".") {
			rel, _ := filepath.Rel(dir, p)
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	sort.Strings(out)
	return out
}

// TestConvertCheckers: the built-in checkers become the default output
// validator with the flags that make it the same checker.
func TestConvertCheckers(t *testing.T) {
	for _, tt := range []struct {
		checker string
		want    checkers.Default
	}{
		{"checker: {name: tokens}\n", checkers.Default{CaseSensitive: true}},
		{"", checkers.Default{CaseSensitive: true}},
		{"checker: {name: default, options: {space_change_sensitive: true}}\n", checkers.Default{SpaceChangeSensitive: true}},
	} {
		dir := writeTree(t, "sum", map[string]string{"problem.yaml": "name: sum\ntitle: Sum\n" + tt.checker,
			"testdata/sample/1.in": "1 2\n", "testdata/sample/1.ans": "3\n", "testdata/secret/1.in": "1 2\n", "testdata/secret/1.ans": "3\n"})
		if _, err := Convert(dir, ""); err != nil {
			t.Fatal(err)
		}
		p, err := LoadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		if got, ok := p.Package.Checker.(checkers.Default); !ok || got != tt.want || !p.Package.Validation.Default {
			t.Errorf("%q: got %#v, want %#v", tt.checker, p.Package.Checker, tt.want)
		}
	}
}

// TestConvertRefuses: what has no place in a package, and a file in the
// way, are errors before anything changes.
func TestConvertRefuses(t *testing.T) {
	for _, tt := range []struct {
		name  string
		files map[string]string
		out   bool
		want  string
	}{
		{"in the way", map[string]string{"statement/problem.en.md": "# old\n"}, false, "would overwrite statement/problem.en.md"},
		{"out not empty", nil, true, "not empty"},
		{"testlib interactor", map[string]string{"problem.yaml": "name: slide\ntitle: T\ninteractor: {program: i.py}\n", "i.py": ""}, false, "a testlib interactor has no place"},
		{"testlib checker in Go", map[string]string{"problem.yaml": "name: slide\ntitle: T\nchecker: {program: c.go}\n", "c.go": ""}, false, "in C, C++ or Python 3"},
		{"two puzzles", map[string]string{"problem.yaml": "name: slide\ntitle: T\nchecker: {name: clocks}\nreference: pancakes\nvalidator: clocks\n"}, false, "names several puzzles"},
		{"part of a puzzle", map[string]string{"problem.yaml": "name: slide\ntitle: T\nchecker: {name: tokens}\nreference: clocks\n"}, false, "takes only part of it"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			files := nativeSlide()
			for k, v := range tt.files {
				files[k] = v
			}
			dir := writeTree(t, "slide", files)
			out := ""
			if tt.out {
				out = t.TempDir()
				os.WriteFile(filepath.Join(out, "x"), nil, 0o644)
			}
			before := treeFiles(t, dir)
			if _, err := Convert(dir, out); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v, want %q", err, tt.want)
			}
			if after := treeFiles(t, dir); strings.Join(after, " ") != strings.Join(before, " ") {
				t.Errorf("the problem changed: %v, was %v", after, before)
			}
		})
	}
}
