package engine

import (
	"math/big"
	"math/rand/v2"
	"testing"
)

func TestGroupOrders(t *testing.T) {
	// The symmetric group of 7 points from a transposition and a 7-cycle;
	// the alternating one from 3-cycles; a cyclic one.
	seven := []int{0, 1, 2, 3, 4, 5, 6}
	tests := []struct {
		name  string
		gens  []Move
		order int64
	}{
		{"symmetric", []Move{cyc("t", 7, 0, 1), cyc("c", 7, seven...)}, 5040},
		{"alternating", []Move{cyc("a", 7, 0, 1, 2), cyc("b", 7, 2, 3, 4, 5, 6)}, 2520},
		{"cyclic", []Move{cyc("c", 7, seven...)}, 7},
		{"two orbits", []Move{cyc("a", 7, 0, 1, 2), cyc("b", 7, 3, 4)}, 6},
	}
	for _, tt := range tests {
		sp := &Spec{Cells: 7, Symbols: 7, Blank: -1, Moves: tt.gens}
		var gens []perm
		for i := range sp.Moves {
			gens = append(gens, sp.movePerm(&sp.Moves[i]))
		}
		g := newGroup(7, gens)
		if got := g.order(); got.Cmp(big.NewInt(tt.order)) != 0 {
			t.Errorf("%s: got order %v, want %d", tt.name, got, tt.order)
		}
		// Random elements are members; their products too.
		r := rand.New(rand.NewPCG(1, 2))
		for range 50 {
			a, b := g.random(r), g.random(r)
			if !g.contains(a) || !g.contains(mul(a, b)) {
				t.Fatalf("%s: a random element is not a member", tt.name)
			}
		}
	}
}

// TestGroupOrientation checks a twist: one piece turning in place alone
// is not in the group of moves that keep the orientations' sum.
func TestGroupOrientation(t *testing.T) {
	sp := &Spec{Cells: 3, Symbols: 3, Orient: 3, Blank: -1}
	m := cyc("m", 3, 0, 1, 2)
	m.Twist = []int{1, 2, 0}
	sp.Moves = []Move{m, cyc("s", 3, 0, 1)}
	var gens []perm
	for i := range sp.Moves {
		gens = append(gens, sp.movePerm(&sp.Moves[i]))
	}
	g := newGroup(9, gens)
	goal := []uint8{0, 1, 2}
	twisted := State{Cells: []uint8{0, 1, 2}, Orient: []uint8{1, 0, 0}}
	p, _ := sp.statePerm(goal, twisted)
	if g.contains(p) {
		t.Errorf("a single twisted piece is in the group")
	}
	st, _ := sp.Apply(State{Cells: []uint8{0, 1, 2}, Orient: []uint8{0, 0, 0}}, 0)
	p, _ = sp.statePerm(goal, st)
	if !g.contains(p) {
		t.Errorf("the state after a move, %v, is not in the group", st)
	}
	if got := sp.stateOf(goal, p); !got.Equal(st) {
		t.Errorf("stateOf: got %v, want %v", got, st)
	}
	// The states reached from the goal are as many as the group's
	// elements, the pieces being all different.
	seen := map[string]bool{}
	queue := []State{{Cells: []uint8{0, 1, 2}, Orient: []uint8{0, 0, 0}}}
	for len(queue) > 0 {
		st := queue[0]
		queue = queue[1:]
		key := string(st.Cells) + string(st.Orient)
		if seen[key] {
			continue
		}
		seen[key] = true
		for m := range sp.Moves {
			next, _ := sp.Apply(st, m)
			queue = append(queue, next)
		}
	}
	if got := g.order(); got.Cmp(big.NewInt(int64(len(seen)))) != 0 {
		t.Errorf("got order %v, want %d", got, len(seen))
	}
}
