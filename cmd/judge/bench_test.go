package main

import (
	"bytes"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/optjudge/optjudge/reference/eightpuzzle"
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
