package judging

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/optjudge/optjudge/internal/handwritten/clocks"
	"github.com/optjudge/optjudge/internal/handwritten/eightpuzzle"
	"github.com/optjudge/optjudge/internal/handwritten/rotation"
)

// The differential tests hold the whole solve path of the shipped
// definitions (reading the input, the engine's answer, writing it) to the
// hand-written references they replace, byte for byte.

// sameOutput compares two reference outputs, naming the first line that
// differs and the case's input line.
func sameOutput(t *testing.T, in, got, want []byte) {
	t.Helper()
	if bytes.Equal(got, want) {
		return
	}
	g, w := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
	ins := strings.Split(string(in), "\n")
	for i := range min(len(g), len(w)) {
		if g[i] != w[i] {
			t.Fatalf("output line %d: got %q, want %q (input around line %d: %q)", i+1, g[i], w[i], i+1, ins[min(i, len(ins)-1)])
		}
	}
	t.Fatalf("got %d lines, want %d", len(g), len(w))
}

// TestEightPuzzleEveryState: every solvable board, and a thousand that are
// not. (The reference's answer is the smallest optimal one whatever a
// checker's mode: a Puzzle has none.)
func TestEightPuzzleEveryState(t *testing.T) {
	boards := eightpuzzle.All()
	r := rand.New(rand.NewPCG(1077, 1))
	for range 1000 {
		boards = append(boards, eightpuzzle.RandomUnsolvable(r))
	}
	if len(boards) != 181440+1000 {
		t.Fatalf("got %d boards", len(boards))
	}
	in := eightpuzzle.Format(boards)
	want, err := eightpuzzle.Solve(in)
	if err != nil {
		t.Fatal(err)
	}
	got, err := shipped(t, "eight-puzzle").Reference().Solve(in)
	if err != nil {
		t.Fatal(err)
	}
	sameOutput(t, in, got, want)
}

// TestClocksEveryPosition: each of the 262,144 positions, one file each.
func TestClocksEveryPosition(t *testing.T) {
	ref := shipped(t, "clocks").Reference()
	n := 0
	for p := range clocks.All() {
		in := p.Input()
		want, err := clocks.Solve(in)
		if err != nil {
			t.Fatal(err)
		}
		got, err := ref.Solve(in)
		if err != nil {
			t.Fatalf("%v: %v", p, err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("%v: got %q, want %q", p, got, want)
		}
		n++
	}
	if n != 1<<18 {
		t.Errorf("got %d positions, want 262144", n)
	}
}

// TestRotationDeepAndRandom: the 192 boards of depth 13, and 10,000 random
// boards.
func TestRotationDeepAndRandom(t *testing.T) {
	deep := rotation.DeepBoards()
	if len(deep) != 192 {
		t.Fatalf("got %d boards of depth 13, want 192", len(deep))
	}
	ref := shipped(t, "rotation-game").Reference()
	random := rotation.RandomCases(rand.New(rand.NewPCG(1343, 2)), 10000)
	for _, boards := range [][]rotation.Board{deep, random} {
		in := rotation.FormatInput(boards)
		want, err := rotation.Solve(in)
		if err != nil {
			t.Fatal(err)
		}
		got, err := ref.Solve(in)
		if err != nil {
			t.Fatal(err)
		}
		sameOutput(t, in, got, want)
	}
}
