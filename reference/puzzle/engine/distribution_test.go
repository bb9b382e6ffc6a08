package engine_test

import (
	"slices"
	"testing"

	"github.com/optjudge/optjudge/reference/puzzle/engine"
)

// TestPocketCubeDistribution compares the pocket cube's distance table,
// computed from its definition, with the published counts of positions at
// each distance in the half-turn metric: OEIS A079761 (N. J. A. Sloane,
// after D. R. Hofstadter, Metamagical Themas, 1985, p. 359; and Jaap
// Scherphuis's Puzzle Pages), https://oeis.org/A079761.
func TestPocketCubeDistribution(t *testing.T) {
	_, s := solver(t, "pocket-cube", 0, engine.Options{})
	got, ok := s.Distribution()
	want := []uint64{1, 9, 54, 321, 1847, 9992, 50136, 227536, 870072, 1887748, 623800, 2644}
	t.Logf("pocket cube, half-turn metric: %v (%v, built in %v)", got, s, s.BuildTime())
	if !ok || !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

// TestEightPuzzleDistribution compares the eight-puzzle's, with the goal
// 1 2 3 / 4 5 6 / 7 8 blank, with the published counts: A. Reinefeld,
// "Complete Solution of the Eight-Puzzle and the Benefit of Node Ordering
// in IDA*", IJCAI 1993, table 1 (which misprints 748 at depth 12 as 749),
// as OEIS A089473 gives them, https://oeis.org/A089473.
func TestEightPuzzleDistribution(t *testing.T) {
	_, s := solver(t, "eight-puzzle", 0, engine.Options{})
	got, ok := s.Distribution()
	want := []uint64{1, 2, 4, 8, 16, 20, 39, 62, 116, 152, 286, 396, 748, 1024, 1893, 2512, 4485, 5638,
		9529, 10878, 16993, 17110, 23952, 20224, 24047, 15578, 14560, 6274, 3910, 760, 221, 2}
	t.Logf("eight-puzzle: %v (%v, built in %v)", got, s, s.BuildTime())
	if !ok || !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

// TestPocketCubeQuarterTurns gives the half turns a cost of 2 (the
// quarter-turn metric) and compares the distribution of costs with the
// published one, OEIS A079762 (https://oeis.org/A079762): the table's
// search with moves of several costs.
func TestPocketCubeQuarterTurns(t *testing.T) {
	in := instance(t, "pocket-cube", 0)
	sp := *in.Spec
	sp.Moves = slices.Clone(sp.Moves)
	for i := range sp.Moves {
		if n := sp.Moves[i].Name; n[len(n)-1] == '2' {
			sp.Moves[i].Cost = 2
		}
	}
	s, err := engine.New(&sp, engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	got, ok := s.Distribution()
	want := []uint64{1, 6, 27, 120, 534, 2256, 8969, 33058, 114149, 360508, 930588, 1350852, 782536, 90280, 276}
	if !ok || !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}
