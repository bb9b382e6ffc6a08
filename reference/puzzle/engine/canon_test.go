package engine

import (
	"context"
	"slices"
	"testing"
)

// cyc is the move of one cycle of cells (the content of c[0] goes to
// c[1], ...) on n cells.
func cyc(name string, n int, c ...int) Move {
	p := make([]int, n)
	for i := range p {
		p[i] = i
	}
	for k, from := range c {
		p[c[(k+1)%len(c)]] = from
	}
	return Move{Name: name, Perm: p, Cost: 1}
}

// allowed lists the two-move sequences the automaton allows from its
// start, as "ab".
func allowed(c *canon, sp *Spec) []string {
	var out []string
	for a := range sp.Moves {
		s := c.step(0, a)
		for b := range sp.Moves {
			if s >= 0 && c.step(s, b) >= 0 {
				out = append(out, sp.Moves[a].Name+sp.Moves[b].Name)
			}
		}
	}
	return out
}

func TestCanon(t *testing.T) {
	// a and b commute (disjoint), c does not; a and c are their own
	// inverses; d is b's inverse.
	sp := &Spec{Cells: 6, Symbols: 6, Blank: -1}
	sp.Moves = []Move{cyc("a", 6, 0, 1), cyc("b", 6, 2, 3, 4), cyc("c", 6, 1, 2), cyc("d", 6, 4, 3, 2)}
	got := allowed(newCanon(sp), sp)
	// Never aa, cc (identity), bd, db (inverses), ba (commuting, out of
	// order), da (same), bb is d (cost 1 < 2), dd is b.
	want := []string{"ab", "ac", "ad", "bc", "ca", "cb", "cd", "dc"}
	if !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	// Three moves: after a then b, a is still forbidden (it commutes with
	// b and comes before it: a a b is shorter), and after b then a... is
	// not canonical at all.
	c := newCanon(sp)
	if s := c.step(c.step(0, 0), 1); c.step(s, 0) >= 0 {
		t.Errorf("a b a: allowed, want forbidden (a commutes with b, a a cancels)")
	}
}

func TestCanonHalfTurns(t *testing.T) {
	// U, U2, U' of one face: no two of them in a row.
	sp := &Spec{Cells: 4, Symbols: 4, Blank: -1}
	u := cyc("U", 4, 0, 1, 2, 3)
	u2 := sp.Then(&u, &u)
	u2.Name, u2.Cost = "U2", 1
	u3 := sp.Inverse(&u)
	u3.Name = "U'"
	sp.Moves = []Move{u, u2, u3}
	if got := allowed(newCanon(sp), sp); len(got) != 0 {
		t.Errorf("got %v, want none", got)
	}
	// In the quarter-turn metric U2 costs 2 and U U and U' U' tie with
	// it: the lexicographic order decides among them, not the automaton.
	sp.Moves[1].Cost = 2
	if got, want := allowed(newCanon(sp), sp), []string{"UU", "U'U'"}; !slices.Equal(got, want) {
		t.Errorf("quarter turns: got %v, want %v", got, want)
	}
}

func TestCanonSlides(t *testing.T) {
	sp := &Spec{Cells: 4, Symbols: 4, Rows: 2, Cols: 2, Blank: 3}
	for _, d := range []Direction{SlideDown, SlideLeft, SlideRight, SlideUp} {
		sp.Moves = append(sp.Moves, Move{Name: d.String()[:1], Slide: d, Cost: 1})
	}
	got := allowed(newCanon(sp), sp)
	for _, s := range got {
		if s == "du" || s == "ud" || s == "lr" || s == "rl" {
			t.Errorf("%s allowed", s)
		}
	}
	if len(got) != 12 {
		t.Errorf("got %d pairs %v, want 12", len(got), got)
	}
}

// TestCanonKeepsSmallest compares, on a small puzzle with commuting and
// self-inverse moves, the search (pattern databases, canonical sequences)
// with the distance table on every state.
func TestCanonKeepsSmallest(t *testing.T) {
	sp := &Spec{Cells: 7, Symbols: 7, Blank: -1, Counts: []int{1, 1, 1, 1, 1, 1, 1}}
	sp.Moves = []Move{cyc("a", 7, 0, 1), cyc("b", 7, 2, 3, 4), cyc("c", 7, 5, 6), cyc("d", 7, 1, 2), cyc("e", 7, 4, 3, 2), cyc("f", 7, 6, 0, 3)}
	sp.Goal.States = [][]uint8{{0, 1, 2, 3, 4, 5, 6}}
	tab, err := New(sp, Options{})
	if err != nil {
		t.Fatal(err)
	}
	ida, err := New(sp, Options{MaxTable: 10, MaxPattern: 7 * 6})
	if err != nil {
		t.Fatal(err)
	}
	if tab.Method() != MethodTable || ida.Method() != MethodSearch {
		t.Fatalf("got %v and %v", tab, ida)
	}
	all, _ := tab.All()
	n := 0
	for st := range all {
		ctx := context.Background()
		a, err1 := tab.Solve(ctx, st)
		b, err2 := ida.Solve(ctx, st)
		if err1 != nil || err2 != nil || !slices.Equal(a, b) {
			t.Fatalf("%v: table %v (%v), search %v (%v)", st.Cells, a, err1, b, err2)
		}
		n++
	}
	if n != 5040 {
		t.Errorf("%d states, want 5040", n)
	}
}
