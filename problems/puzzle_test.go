package problems

import (
	"context"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/optjudge/optjudge/checkers"
	"github.com/optjudge/optjudge/verdict"
)

// slide23 is a 2x3 sliding puzzle: a problem made of YAML alone.
const slide23 = `name: slide-2x3
grid: {rows: 2, cols: 3}
symbols: [1, 2, 3, 4, 5, "0"]
blank: "0"
moves:
  - {name: D, slide: down}
  - {name: L, slide: left}
  - {name: R, slide: right}
  - {name: U, slide: up}
goal:
  state: [1, 2, 3, 4, 5, "0"]
input:
  cases: until_eof
output:
  separator: ""
  unsolvable: unsolvable
layout:
  show: tile
`

func TestPuzzleProblem(t *testing.T) {
	fsys := fstest.MapFS{
		"problem.yaml": {Data: []byte("name: slide-2x3\ntitle: Sliding Six\n")},
		"puzzle.yaml":  {Data: []byte(slide23)},
	}
	p, err := Load(fsys, "slide-2x3")
	if err != nil {
		t.Fatal(err)
	}
	if _, own := p.Package.Checker.(checkers.Puzzle); p.Puzzle == nil || p.Reference == nil || p.Validator == nil || !own {
		t.Fatalf("got %+v, want the definition's checker, reference and validator", p)
	}
	out, err := p.Reference.Solve([]byte("1 2 3 4 0 5\n"))
	if err != nil || string(out) != "R\n" {
		t.Errorf("solve: got %q, %v, want R", out, err)
	}
	if err := p.Validator.Validate([]byte("1 2 3\n")); err == nil || !strings.Contains(err.Error(), "only 3 tiles") {
		t.Errorf("validate: got %v, want a short line", err)
	}
	if _, err := p.Tools(); err != nil {
		t.Errorf("tools: %v", err)
	}
}

// TestPuzzleProblemErrors: a bad definition, or a problem.yaml naming one
// badly, is an error at load time naming the file and line.
func TestPuzzleProblemErrors(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		want  string
	}{
		{"missing file", map[string]string{"problem.yaml": "name: a\ntitle: A\npuzzle: defs/p.yaml\n"},
			"problem.yaml:3: puzzle: defs/p.yaml: file does not exist"},
		{"path outside", map[string]string{"problem.yaml": "name: a\ntitle: A\npuzzle: ../p.yaml\n"},
			`problem.yaml:3: puzzle: "../p.yaml": want a clean path inside the problem directory`},
		{"own without definition", map[string]string{"problem.yaml": "name: a\ntitle: A\nreference: puzzle\n"},
			"problem.yaml:3: reference: puzzle names the problem's own definition, but it has none"},
		{"checker without definition", map[string]string{"problem.yaml": "name: a\ntitle: A\nchecker:\n  name: puzzle\n"},
			"problem.yaml:4: checker.name: puzzle names the problem's own definition, but it has none"},
		{"bad mode", map[string]string{"problem.yaml": "name: a\ntitle: A\nchecker:\n  name: puzzle\n  options: {mode: fast}\n", "puzzle.yaml": slide23},
			`problem.yaml:5: checker.options.mode: "fast" is not a mode (any, shortest, smallest)`},
		{"unknown option", map[string]string{"problem.yaml": "name: a\ntitle: A\nchecker:\n  name: clocks\n  options: {order: any}\n"},
			"problem.yaml:5: checker.options.order: unknown option"},
		{"unknown reference", map[string]string{"problem.yaml": "name: a\ntitle: A\nreference: slide\n"},
			`problem.yaml:3: reference: unknown reference solver "slide" (want puzzle, the problem's own definition, or one shipped with the judge: clocks, cube, eight-puzzle, fifteen-puzzle, hanoi, klotski, lights-out, pancakes, pocket-cube, pyraminx, rotation-game, rush-hour, skewb, water-jugs)`},
		{"bad definition", map[string]string{"problem.yaml": "name: a\ntitle: A\n", "puzzle.yaml": strings.Replace(slide23, "{name: U, slide: up}", "{name: U, cycles: [[1, 9]]}", 1)},
			`puzzle.yaml:9: moves[3].cycles[0][1]: "9" is not a cell`},
		{"not yaml", map[string]string{"problem.yaml": "name: a\ntitle: A\n", "puzzle.yaml": "name: [\n"},
			"puzzle.yaml:1: "},
		{"unknown key", map[string]string{"problem.yaml": "name: a\ntitle: A\n", "puzzle.yaml": slide23 + "colour: red\n"},
			"puzzle.yaml:19: colour: unknown key"},
		{"no way to solve it", map[string]string{"problem.yaml": "name: a\ntitle: A\n", "puzzle.yaml": slide23 + "search: {method: linear}\n"},
			"puzzle.yaml:5: moves: linear algebra needs moves that all add"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fsys := fstest.MapFS{}
			for name, data := range tt.files {
				fsys[name] = &fstest.MapFile{Data: []byte(data)}
			}
			_, err := Load(fsys, "a")
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v, want %q", err, tt.want)
			}
		})
	}
}

// TestShippedPuzzleNames: problem.yaml files that name a shipped puzzle,
// as they did before definitions, still load with its checker, reference
// and validator.
func TestShippedPuzzleNames(t *testing.T) {
	fsys := fstest.MapFS{"problem.yaml": {Data: []byte("name: a\ntitle: A\nchecker:\n  name: clocks\nreference: clocks\nvalidator: clocks\n")}}
	p, err := Load(fsys, "a")
	if err != nil {
		t.Fatal(err)
	}
	if p.Puzzle == nil || p.Puzzle.Name() != "clocks" || p.Reference == nil || p.Validator == nil {
		t.Fatalf("got %+v, want the clocks", p)
	}
	out, err := p.Reference.Solve([]byte("3 3 0\n2 2 2\n2 1 2\n"))
	if err != nil || string(out) != "4 5 8 9\n" {
		t.Errorf("got %q, %v", out, err)
	}
}

// TestPuzzlePackage: a Kattis/ICPC package with puzzle.yaml beside its
// problem.yaml is judged, validated and answered by the definition, and
// its own output validator, where it has one, still judges.
func TestPuzzlePackage(t *testing.T) {
	files := map[string]string{
		"problem.yaml":        "problem_format_version: 2025-09\nname: Sliding Six\nuuid: 5b7c3b4e-2f40-4f0e-9f4f-0c1b7f1c9a11\nlimits:\n  time_limit: 2\n",
		"puzzle.yaml":         slide23,
		"data/sample/1.in":    "1 2 3 4 0 5\n",
		"data/sample/1.ans":   "R\n",
		"data/secret/1.in":    "1 2 3 4 0 5\n",
		"data/secret/1.ans":   "R\n",
		"input_validators/.x": "",
	}
	p, err := LoadDir(writeTree(t, "slide", files))
	if err != nil {
		t.Fatal(err)
	}
	if _, own := p.Package.Checker.(checkers.Puzzle); !own || p.Package.Validation.Default || p.Puzzle == nil || p.Reference == nil || p.Validator == nil {
		t.Fatalf("got checker %T (default %v), want the definition's checker, reference and validator", p.Package.Checker, p.Package.Validation.Default)
	}
	if p.Title != "Sliding Six" || p.Limits.Time != 2*time.Second || p.Notice() != "" {
		t.Errorf("got title %q, limit %v, notice %q", p.Title, p.Limits.Time, p.Notice())
	}
	res, err := p.Package.Checker.Check(context.Background(), checkers.Files{Input: []byte("1 2 3 4 0 5\n"), Output: []byte("L\n")})
	if err != nil || res.Verdict != verdict.WA {
		t.Errorf("check L: got %v, %v, want WA", res, err)
	}

	// an output validator of the package's own judges instead
	files["output_validator/check.py"] = "import sys; sys.exit(42)\n"
	p, err = LoadDir(writeTree(t, "slide", files))
	if err != nil {
		t.Fatal(err)
	}
	if p.Package.CheckerProgram == nil || p.Package.CheckerProgram.Path != "output_validator" || p.Puzzle != nil || p.Reference == nil {
		t.Errorf("got checker program %+v, puzzle %v, want the package's validator, the definition's reference", p.Package.CheckerProgram, p.Puzzle)
	}

	// an interactive package has no place for the definition's checker
	delete(files, "output_validator/check.py")
	files["problem.yaml"] += "type: interactive\n"
	if _, err := LoadDir(writeTree(t, "slide", files)); err == nil || !strings.Contains(err.Error(), "interactive, but there is no output validator") {
		t.Errorf("interactive: got %v", err)
	}
}
