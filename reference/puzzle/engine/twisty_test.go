package engine_test

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/optjudge/optjudge/reference/puzzle"
	"github.com/optjudge/optjudge/reference/puzzle/engine"
)

// shippedSolver loads a shipped problem's puzzle.yaml (which may name a
// .tws beside it) and prepares its solver.
func shippedSolver(tb testing.TB, problem string) (*puzzle.Instance, *engine.Solver) {
	tb.Helper()
	d, err := puzzle.Load(filepath.Join("..", "..", "..", "problems", problem))
	if err != nil {
		tb.Fatal(err)
	}
	in, err := d.Instance(0)
	if err != nil {
		tb.Fatal(err)
	}
	s, err := engine.New(in.Spec, engine.Options{CacheDir: tb.TempDir()})
	if err != nil {
		tb.Fatal(err)
	}
	if err := s.Prepare(); err != nil {
		tb.Fatal(err)
	}
	return in, s
}

// TestTwistyDistributions checks God's algorithm on the skewb and the
// pyraminx against published counts:
//
//   - skewb (one corner fixed, 8 moves of a third of a turn): Jaap
//     Scherphuis, Jaap's Puzzle Page, "Skewb",
//     https://www.jaapsch.net/puzzles/skewb.htm (God's algorithm table);
//     twsearch -g on problems/skewb/skewb.tws prints the same.
//   - pyraminx without tips: Jaap's Puzzle Page, "Pyraminx",
//     https://www.jaapsch.net/puzzles/pyraminx.htm (933,120 positions, 11
//     moves at most); each of the four tips is solved or one move away
//     (two ways), and tip moves commute with the others, so the pyraminx
//     with its tips counts the convolution with (1 + 2x)^4 = 1 8 24 32 16.
func TestTwistyDistributions(t *testing.T) {
	conv := func(a, b []uint64) []uint64 {
		out := make([]uint64, len(a)+len(b)-1)
		for i, x := range a {
			for j, y := range b {
				out[i+j] += x * y
			}
		}
		return out
	}
	tests := []struct {
		problem string
		want    []uint64
	}{
		{"skewb", []uint64{1, 8, 48, 288, 1728, 10248, 59304, 315198, 1225483, 1455856, 81028, 90}},
		{"pyraminx", conv([]uint64{1, 8, 48, 288, 1728, 9896, 51808, 220111, 480467, 166276, 2457, 32}, []uint64{1, 8, 24, 32, 16})},
	}
	for _, tt := range tests {
		t.Run(tt.problem, func(t *testing.T) {
			if testing.Short() && tt.problem == "pyraminx" {
				t.Skip("75,582,720 states: not with -short")
			}
			_, s := shippedSolver(t, tt.problem)
			got, _ := s.Distribution()
			if !slices.Equal(got, tt.want) {
				t.Errorf("distribution %v, want %v", got, tt.want)
			}
		})
	}
}
