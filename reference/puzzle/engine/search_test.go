package engine_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/optjudge/optjudge/reference/puzzle/engine"
)

// TestEightPuzzleSearchAgreesWithTable solves the eight-puzzle with the
// fifteen-puzzle's method (additive pattern databases, here of 4 and 4
// tiles, forced by small limits) and compares with the distance table:
// the same code path as the fifteen-puzzle's, on a puzzle small enough for
// a test.
func TestEightPuzzleSearchAgreesWithTable(t *testing.T) {
	_, tab := solver(t, "eight-puzzle", 0, engine.Options{})
	_, ida := solver(t, "eight-puzzle", 0, engine.Options{MaxTable: 1000, MaxPattern: 3024})
	if ida.Method() != engine.MethodSearch {
		t.Fatalf("got method %v, want search", ida.Method())
	}
	t.Logf("%v", ida)
	r := rand.New(rand.NewPCG(7, 7))
	for i := range 400 {
		st, err := tab.Random(r)
		if err != nil {
			t.Fatal(err)
		}
		if i%2 == 1 { // and as many unsolvable ones
			st.Cells[0], st.Cells[1] = st.Cells[1], st.Cells[0]
		}
		want, err1 := tab.Solve(ctx, st)
		got, err2 := ida.Solve(ctx, st)
		if err1 != err2 || !slices.Equal(got, want) {
			t.Fatalf("%v: search %v (%v), table %v (%v)", st.Cells, got, err2, want, err1)
		}
	}
}

// TestPocketCubeSearchAgreesWithTable forces iterative deepening A* with
// pattern databases of three corners on the pocket cube.
func TestPocketCubeSearchAgreesWithTable(t *testing.T) {
	_, tab := solver(t, "pocket-cube", 0, engine.Options{})
	_, ida := solver(t, "pocket-cube", 0, engine.Options{MaxTable: 1000, MaxPattern: 1 << 13})
	if ida.Method() != engine.MethodSearch {
		t.Fatalf("got method %v, want search", ida.Method())
	}
	t.Logf("%v", ida)
	r := rand.New(rand.NewPCG(8, 8))
	for range 60 {
		st, err := tab.Random(r)
		if err != nil {
			t.Fatal(err)
		}
		want, err1 := tab.Solve(ctx, st)
		got, err2 := ida.Solve(ctx, st)
		if err1 != nil || err2 != nil || !slices.Equal(got, want) {
			t.Fatalf("%v: search %v (%v), table %v (%v)", st, got, err2, want, err1)
		}
	}
	// A twisted corner cannot be solved.
	st, _ := tab.Random(r)
	st.Orient[0] = (st.Orient[0] + 1) % 3
	if _, err := ida.Solve(ctx, st); err != engine.ErrUnsolvable {
		t.Errorf("a twisted corner: got %v, want ErrUnsolvable", err)
	}
}
