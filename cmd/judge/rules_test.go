package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The walk of docs/tutorial-rules.md through a puzzle given by rules, from nothing: Tower
// of Hanoi, its moves with conditions written in Starlark inside
// puzzle.yaml, so that the problem is YAML alone.
const (
	towersProblem = `problem_format_version: 2025-09
name: Towers
uuid: 6a0e2f7c-1d38-4b5e-8f2a-9c4b7d1e3f60
limits:
  time_limit: 2
`
	towersPuzzle = `name: towers
size: {min: 1, max: 6}                 # a case gives its number of discs first
parts:                                 # the state, in the order a case gives it
  - {name: pegs, length: 0, range: [1, 3]}   # the peg of each disc, smallest first (length 0: the size)
  - {name: goal, length: 0, range: [1, 3]}   # where each disc must end
rules:
  reversible: true                     # a move is undone by the opposite move: a table from the goal
  code: |
    def moves():
        """"ab": the top disc of peg a, k, onto peg b: every smaller disc
        is on the third peg. Compiled once into guarded moves."""
        out = []
        for a in (1, 2, 3):
            for b in (1, 2, 3):
                if a != b:
                    for k in range(SIZE):
                        when = {cells.pegs[j]: 6 - a - b for j in range(k)}
                        when[cells.pegs[k]] = a
                        out.append(move("%d%d" % (a, b), when = when, then = {cells.pegs[k]: b}))
        return out

    def goal():
        return {cells.pegs[k]: cells.goal[k] for k in range(SIZE)}

    def target():
        return {cells.pegs[k]: cells.goal[k] for k in range(SIZE)}

    def random(rng):
        return state(pegs = [1 + rng.int(3) for _ in range(SIZE)],
                     goal = [1 + rng.int(3) for _ in range(SIZE)])
input:
  cases: until_eof
output:
  separator: " "
`
	// towersSolution: breadth-first search from the goal, then the first
	// move in order that brings it closer.
	towersSolution = `import sys

def moves(p):
    n = len(p)
    for a in (1, 2, 3):
        for b in (1, 2, 3):
            tops = [k for k in range(n) if p[k] == a]
            if a == b or not tops or any(p[k] == b for k in range(tops[0])):
                continue
            q = list(p)
            q[tops[0]] = b
            yield "%d%d" % (a, b), tuple(q)

for line in sys.stdin:
    v = list(map(int, line.split()))
    n = v[0]
    start, goal = tuple(v[1:n + 1]), tuple(v[n + 1:])
    dist, queue = {goal: 0}, [goal]
    for p in queue:
        for _, q in moves(p):
            if q not in dist:
                dist[q] = dist[p] + 1
                queue.append(q)
    path, p = [], start
    while dist[p]:
        for name, q in moves(p):
            if dist[q] == dist[p] - 1:
                path.append(name)
                p = q
                break
    print(" ".join(path))
`
)

// TestSetterRules builds the towers problem from YAML alone in a temporary
// directory and takes it through gen, solve, validate, check, run, stress
// and verify.
func TestSetterRules(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is not installed: the submission is Python")
	}
	dir := t.TempDir()
	writeFilesIn(t, dir, map[string]string{
		"towers/problem.yaml":                towersProblem,
		"towers/puzzle.yaml":                 towersPuzzle,
		"towers/statement/problem.en.md":     "# Towers\n\nMove the discs to their goal.\n",
		"towers/submissions/accepted/sol.py": towersSolution,
		"sol.py":                             towersSolution,
		"case.in":                            "3 1 1 1 3 3 3\n2 1 2 2 2\n",
		"right.out":                          "13 12 32 13 21 23 13\n12\n",
		"long.out":                           "13 12 32 13 21 23 13\n13 32\n",
		"illegal.out":                        "13 12 32 13 21 23 13\n21\n",
		"large.out":                          "13 12 32 13 21 23 13\n12 21 12\n",
		"bad.in":                             "3 1 1 4 3 3 3\n",
		"towers/data/sample/01-sample.in":    "3 1 1 1 3 3 3\n2 1 2 2 2\n",
		"towers/data/sample/01-sample.ans":   "13 12 32 13 21 23 13\n12\n",
	})
	steps := []struct {
		args []string
		code int
		want string // a part of the output
	}{
		{[]string{"gen", "--kind", "random", "--count", "2", "--cases", "5", "--out", "towers/data/secret", "towers"}, 0, "wrote 2 tests"},
		{[]string{"solve", "towers", "case.in"}, 0, "13 12 32 13 21 23 13\n12\n"},
		{[]string{"validate", "towers"}, 0, "3 of 3 files valid"},
		{[]string{"validate", "towers", "bad.in"}, 1, "bad.in:1:7: "},
		{[]string{"check", "towers", "case.in", "right.out"}, 0, "AC: 2 cases, 8 moves"},
		{[]string{"check", "towers", "case.in", "illegal.out"}, 1, "WA: case 2, move 1: 21 cannot be made from 1 2 2 2"},
		{[]string{"check", "towers", "case.in", "long.out"}, 1, "WA: case 2: 2 moves, the optimum is 1; move 1 (13): it brings the goal no closer"},
		{[]string{"check", "towers", "case.in", "large.out"}, 1, "WA: case 2: 3 moves, the optimum is 1; move 2 (21): "},
		{[]string{"run", "towers", "sol.py"}, 0, "verdict: AC"},
		{[]string{"stress", "--count", "5", "-j", "1", "towers", "sol.py"}, 0, ""},
		{[]string{"verify", "towers"}, 0, "towers: verified"},
	}
	for _, s := range steps {
		code, out := judgeIn(t, dir, s.args...)
		if code != s.code || !strings.Contains(out, s.want) {
			t.Fatalf("judge %s: got exit %d:\n%s\nwant exit %d and %q", strings.Join(s.args, " "), code, out, s.code, s.want)
		}
	}
}

// TestDocsSetterRules: the tutorial walks a setter through the towers
// problem tested here.
func TestDocsSetterRules(t *testing.T) {
	t.Parallel()
	page, err := os.ReadFile(filepath.Join("..", "..", "docs", "tutorial-rules.md"))
	if err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{"problem.yaml": towersProblem, "puzzle.yaml": towersPuzzle} {
		if block := "```yaml file=towers/" + name + "\n" + text + "```\n"; !strings.Contains(string(page), block) {
			t.Errorf("docs/tutorial-rules.md does not show this %s:\n%s", name, block)
		}
	}
}

// TestRulesProblems takes each shipped problem given by rules through
// solve, gen, run and stress with its accepted C++ submission.
func TestRulesProblems(t *testing.T) {
	if _, err := exec.LookPath("g++"); err != nil {
		t.Skip("g++ is not installed")
	}
	root, err := filepath.Abs(filepath.Join("..", "..", "problems"))
	if err != nil {
		t.Fatal(err)
	}
	subs := map[string]string{"hanoi": "bfs_from_goal.cpp", "water-jugs": "bfs.cpp", "rush-hour": "bfs.cpp", "klotski": "bfs.cpp"}
	for name, sub := range subs {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			src := filepath.Join(root, name, "submissions", "accepted", sub)
			sample := filepath.Join(root, name, "data", "sample", "01-sample.in")
			ans, err := os.ReadFile(filepath.Join(root, name, "data", "sample", "01-sample.ans"))
			if err != nil {
				t.Fatal(err)
			}
			steps := []struct {
				args []string
				want string
			}{
				{[]string{"solve", name, sample}, string(ans)},
				{[]string{"gen", "--kind", "random", "--count", "2", "--out", "gen", name}, "wrote 2 tests"},
				{[]string{"run", "--tests", "gen", name, src}, "verdict: AC"},
				{[]string{"stress", "--count", "3", "-j", "1", name, src}, ""},
			}
			for _, s := range steps {
				code, out := judgeIn(t, dir, s.args...)
				if code != 0 || !strings.Contains(out, s.want) {
					t.Fatalf("judge %s: got exit %d:\n%s\nwant exit 0 and %q", strings.Join(s.args, " "), code, out, s.want)
				}
			}
		})
	}
}
