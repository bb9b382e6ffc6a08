package main

import (
	"bytes"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/optjudge/optjudge/internal/handwritten/eightpuzzle"
)

// allEightPuzzle writes every solvable eight-puzzle state plus 1,000
// unsolvable ones to a file, and the reference's output beside it.
func allEightPuzzle(b *testing.B) (in, out string) {
	b.Helper()
	boards := eightpuzzle.All()
	r := rand.New(rand.NewPCG(1, 2))
	for range 1000 {
		boards = append(boards, eightpuzzle.RandomUnsolvable(r))
	}
	dir := b.TempDir()
	in, out = filepath.Join(dir, "all.in"), filepath.Join(dir, "all.out")
	input := eightpuzzle.Format(boards)
	output, err := eightpuzzle.Solve(input)
	if err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(in, input, 0o644); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(out, output, 0o644); err != nil {
		b.Fatal(err)
	}
	return in, out
}

// BenchmarkSolveEightPuzzleAll is `judge solve eight-puzzle all.in` on the
// 182,440-line file, in process (the table is built once per process, so
// the first iteration pays for it).
func BenchmarkSolveEightPuzzleAll(b *testing.B) {
	in, _ := allEightPuzzle(b)
	for b.Loop() {
		runBench(b, 0, "solve", "eight-puzzle", in)
	}
}

// BenchmarkCheckEightPuzzleAll is `judge check eight-puzzle all.in all.out`.
func BenchmarkCheckEightPuzzleAll(b *testing.B) {
	in, out := allEightPuzzle(b)
	for b.Loop() {
		runBench(b, 0, "check", "eight-puzzle", in, out)
	}
}

func runBench(b *testing.B, want int, args ...string) {
	var stderr bytes.Buffer
	e := &env{stdin: bytes.NewReader(nil), stdout: io.Discard, stderr: &stderr}
	if code := e.main(args); code != want {
		b.Fatalf("judge %v: exit %d, want %d: %s", args, code, want, stderr.String())
	}
}

// BenchmarkExportedValidator checks one output, side by side, by the
// exported output validator of an export for BAPCtools (sh, its run
// script, the judge binary: this test binary as judge) and by `judge
// check` as a process of its own (the same binary), once the puzzle's
// table exists: the checker of the export against the judge's, whole
// process against whole process.
//
//	go test ./cmd/judge -run '^$' -bench ExportedValidator -count 5
func BenchmarkExportedValidator(b *testing.B) {
	for _, name := range []string{"rotation-game", "pocket-cube", "eight-puzzle"} {
		dir := b.TempDir()
		out := filepath.Join(dir, "exported")
		var msg bytes.Buffer
		e := &env{stdin: bytes.NewReader(nil), stdout: &msg, stderr: &msg}
		if code := e.main([]string{"export", "--to", "bapctools", name, out}); code != exitOK {
			b.Fatalf("export: %s", msg.String())
		}
		in := filepath.Join(out, "data", "sample", "01-sample.in")
		ans := filepath.Join(out, "data", "sample", "01-sample.ans")
		output, _ := os.ReadFile(ans)
		fb := filepath.Join(dir, "feedback")
		os.Mkdir(fb, 0o755)
		exe, _ := os.Executable()
		exported := func() *exec.Cmd {
			cmd := exec.Command("sh", filepath.Join(out, "output_validator", "run"), in, ans, fb)
			cmd.Stdin = bytes.NewReader(output)
			return cmd
		}
		check := func() *exec.Cmd { return exec.Command(exe, "check", name, in, ans) }
		for _, c := range []struct {
			how  string
			cmd  func() *exec.Cmd
			want int
		}{{"exported", exported, exitValid}, {"judge-check", check, exitOK}} {
			b.Run(name+"/"+c.how, func(b *testing.B) {
				for b.Loop() {
					cmd := c.cmd()
					cmd.Env = append(os.Environ(), "JUDGE_TEST_AS_JUDGE=1")
					err := cmd.Run()
					if code := cmd.ProcessState.ExitCode(); code != c.want {
						b.Fatalf("exit %d (%v), want %d", code, err, c.want)
					}
				}
			})
		}
	}
}
