package main

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// The setter's walkthrough of docs/tutorial-puzzle.md: a puzzle the repository has no
// code for, a 2x3 sliding puzzle, made of YAML alone: a Kattis/ICPC
// package with the tutorial's problem.yaml and its two-by-three definition,
// shipped as reference/puzzle/testdata/two-by-three.yaml, beside it.
const (
	slideProblem = `problem_format_version: 2025-09
name: Sliding Six
uuid: 3f1c2a8e-5d47-4c1b-9e0a-7b6d2c4f8a15
limits:
  time_limit: 2
`
	// slideSolution is a contestant's solution: a breadth-first search
	// from the goal, then the first move in D, L, R, U order that brings
	// the goal closer.
	slideSolution = `import sys
from collections import deque

GOAL = (1, 2, 3, 4, 5, 0)  # 0 for the blank _
MOVES = [("D", 3), ("L", -1), ("R", 1), ("U", -3)]

def after(s):
    b = s.index(0)
    for name, d in MOVES:
        t = b + d
        if t < 0 or t >= 6 or d in (1, -1) and t // 3 != b // 3:
            continue
        u = list(s)
        u[b], u[t] = u[t], u[b]
        yield name, tuple(u)

dist = {GOAL: 0}
queue = deque([GOAL])
while queue:
    s = queue.popleft()
    for _, t in after(s):
        if t not in dist:
            dist[t] = dist[s] + 1
            queue.append(t)

for line in sys.stdin:
    s = tuple(0 if x == "_" else int(x) for x in line.split())
    if s not in dist:
        print("impossible")
        continue
    path = []
    while dist[s]:
        for name, t in after(s):
            if dist.get(t) == dist[s] - 1:
                path.append(name)
                s = t
                break
    print("".join(path))
`
)

// judgeIn runs the CLI in-process in dir and returns its exit code and
// output.
func judgeIn(t *testing.T, dir string, args ...string) (int, string) {
	t.Helper()
	t.Chdir(dir)
	var out bytes.Buffer
	e := &env{stdin: strings.NewReader(""), stdout: &out, stderr: &out}
	return e.main(args), out.String()
}

func writeFilesIn(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, data := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestSetterPuzzle builds a puzzle problem from YAML alone, laid out as a
// package (data/, puzzle.yaml beside problem.yaml) in a temporary
// directory, and takes it through gen, solve, validate, check, run,
// stress, watch, verify and export.
func TestSetterPuzzle(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is not installed: the tiny submission is Python")
	}
	slidePuzzle, err := os.ReadFile(filepath.Join("..", "..", "reference", "puzzle", "testdata", "two-by-three.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	writeFilesIn(t, dir, map[string]string{
		"slide/problem.yaml":                  slideProblem,
		"slide/puzzle.yaml":                   string(slidePuzzle),
		"slide/statement/problem.en.md":       "# Sliding Six\n\nSlide the tiles to 1 2 3 / 4 5 0.\n",
		"slide/submissions/accepted/sol.py":   slideSolution,
		"slide/submissions/wrong_answer/r.py": "import sys\nfor line in sys.stdin:\n    print('R')\n",
		"sol.py":                              slideSolution,
		"case.in":                             "1 2 3 4 _ 5\n4 1 2 5 3 _\n2 1 3 4 5 _\n",
		"right.out":                           "R\nLLURRD\nimpossible\n",
		"long.out":                            "RLR\nLLURRD\nimpossible\n",
		"bad.in":                              "1 2 3 4 5 5\n",
	})
	steps := []struct {
		args []string
		code int
		want string // a part of the output
	}{
		{[]string{"gen", "--kind", "all", "--out", "slide/data/secret", "slide"}, 0, "wrote 1 test"},
		{[]string{"gen", "--kind", "random", "--count", "2", "--cases", "3", "--out", "slide/data/sample", "slide"}, 0, "wrote 2 tests"},
		{[]string{"solve", "slide", "case.in"}, 0, "R\nLLURRD\nimpossible\n"},
		{[]string{"validate", "slide"}, 0, "3 of 3 files valid"},
		{[]string{"validate", "slide", "bad.in"}, 1, "bad.in:1:11: tile 5 appears twice (also at column 9)"},
		{[]string{"check", "slide", "case.in", "right.out"}, 0, "AC: 3 cases, 7 moves, 1 unsolvable"},
		{[]string{"check", "slide", "case.in", "long.out"}, 1,
			"WA: case 1: 3 moves, the optimum is 1; move 2 (L): the goal was already reached, and it leads 1 move away from it"},
		{[]string{"run", "slide", "sol.py"}, 0, "verdict: AC"},
		{[]string{"stress", "--count", "5", "slide", "sol.py"}, 0, "every test was accepted"},
		{[]string{"verify", "slide"}, 0, "slide: verified: 3 tests, 2 submissions, 0 errors"},
		{[]string{"export", "--to", "bapctools", "slide", "slide-bt"}, 0, "exported slide for bapctools"},
	}
	for _, s := range steps {
		code, out := judgeIn(t, dir, s.args...)
		if code != s.code || !strings.Contains(out, s.want) {
			t.Fatalf("judge %s: got exit %d:\n%s\nwant exit %d and %q", strings.Join(s.args, " "), code, out, s.code, s.want)
		}
		if strings.Contains(out, "native layout") {
			t.Errorf("judge %s: a package taken for the native layout:\n%s", strings.Join(s.args, " "), out)
		}
	}
	all, err := os.ReadFile(filepath.Join(dir, "slide/data/secret/all.in"))
	if err != nil {
		t.Fatal(err)
	}
	if n := bytes.Count(all, []byte{'\n'}); n != 360+1000 {
		t.Errorf("gen --kind all wrote %d boards, want the 360 solvable ones and 1000 that are not", n)
	}
	for _, f := range []string{"output_validator/run", "output_validator/puzzle.yaml", "input_validators/puzzle/run", "statement/problem.en.tex"} {
		if _, err := os.Stat(filepath.Join(dir, "slide-bt", f)); err != nil {
			t.Errorf("the export lacks %s", f)
		}
	}
	t.Run("watch", func(t *testing.T) { watchExplains(t, dir) })
}

// watchExplains watches a wrong solution of the slide package until the
// first grade has explained its failure with a drawing, then types q.
func watchExplains(t *testing.T, dir string) {
	keys, typist := io.Pipe()
	var out syncBuffer
	done := make(chan int)
	go func() {
		e := &env{stdin: keys, stdout: &out, stderr: &out}
		done <- e.main([]string{"watch", "slide", "slide/submissions/wrong_answer/r.py"})
	}()
	for deadline := time.Now().Add(2 * time.Minute); !strings.Contains(out.String(), "move"); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("no explanation in two minutes:\n%s", out.String())
		}
	}
	typist.Write([]byte("q\n"))
	if code := <-done; code != exitOK {
		t.Errorf("watch: exit %d, want 0\n%s", code, out.String())
	}
	for _, want := range []string{"watching slide: ", "WA"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("watch said\n%s\nwant %q", out.String(), want)
		}
	}
}

// syncBuffer is a bytes.Buffer safe for a writer and a reader at once.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestDocsSetterPuzzle: the tutorial walks a setter through the same
// problem, so its problem.yaml must be the one tested here.
func TestDocsSetterPuzzle(t *testing.T) {
	t.Parallel()
	page, err := os.ReadFile(filepath.Join("..", "..", "docs", "tutorial-puzzle.md"))
	if err != nil {
		t.Fatal(err)
	}
	if block := "```yaml file=slide/problem.yaml\n" + slideProblem + "```\n"; !strings.Contains(string(page), block) {
		t.Errorf("docs/tutorial-puzzle.md does not show this problem.yaml:\n%s", block)
	}
}
