package engine

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"
)

// eightSpec is the eight-puzzle, built by hand: tiles 0..7, the blank 8.
func eightSpec() *Spec {
	sp := &Spec{Cells: 9, Symbols: 9, Rows: 3, Cols: 3, Blank: 8, Counts: []int{1, 1, 1, 1, 1, 1, 1, 1, 1}}
	sp.Goal.States = [][]uint8{{0, 1, 2, 3, 4, 5, 6, 7, 8}}
	for _, d := range []Direction{SlideDown, SlideLeft, SlideRight, SlideUp} {
		sp.Moves = append(sp.Moves, Move{Name: d.String(), Slide: d, Cost: 1})
	}
	return sp
}

// TestTwoBitTable builds the eight-puzzle's table with two bits a state
// (distances modulo 3, as tables past 2^25 states keep them) and compares
// every answer and distance with the byte table's.
func TestTwoBitTable(t *testing.T) {
	bytes, err := New(eightSpec(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	bytes.Prepare()
	saved := twoBitFrom
	twoBitFrom = 0
	two, err := New(eightSpec(), Options{})
	twoBitFrom = saved
	if err != nil {
		t.Fatal(err)
	}
	if err := two.Prepare(); err != nil {
		t.Fatal(err)
	}
	if !two.b.(*tableBackend).twoBit {
		t.Fatal("the table is not of two bits")
	}
	d1, _ := bytes.Distribution()
	d2, _ := two.Distribution()
	if !slices.Equal(d1, d2) {
		t.Fatalf("distributions: bytes %v, two bits %v", d1, d2)
	}
	all, _ := bytes.All()
	ctx := context.Background()
	n := 0
	for st := range all {
		if n++; n%7 != 0 && !testing.Short() || n%97 != 0 && testing.Short() {
			continue
		}
		a, err1 := bytes.Solve(ctx, st)
		b, err2 := two.Solve(ctx, st)
		if err1 != nil || err2 != nil || !slices.Equal(a, b) {
			t.Fatalf("%v: bytes %v (%v), two bits %v (%v)", st.Cells, a, err1, b, err2)
		}
	}
	st, d, err := two.Deepest(ctx, rand.New(rand.NewPCG(1, 2)))
	if got, _ := bytes.Distance(ctx, st); err != nil || d != 31 || got != 31 {
		t.Errorf("deepest: %v at %d (%d by bytes), %v", st.Cells, d, got, err)
	}
}
