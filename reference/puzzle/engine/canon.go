package engine

// canon is the automaton of canonical move sequences: it forbids a move
// that a shorter or lexicographically smaller sequence of the same cost
// makes unnecessary, and never the lexicographically smallest optimal
// answer. (twsearch's canon.cpp keeps one sequence of each class of
// commuting moves; this one keeps the first in the declared order, the
// lexicographic normal form of traces, and adds reductions.)
//
// A state is two sets of moves. F holds the moves x for which the sequence
// so far ends with some y > x such that x commutes with y and everything
// after it: making x now could have been done before y, which is smaller.
// R holds the moves x that some earlier move y reduces with (y then x is
// the identity, or a declared move of lower cost) across moves that all
// commute with x: the sequence has a shorter equal. A move in F or R is
// forbidden.
type canon struct {
	moves int
	next  []int32 // next[state*moves+m], -1 where m is forbidden
}

// maxCanonStates bounds the automaton; past it, only the last move counts.
const maxCanonStates = 1 << 14

func newCanon(sp *Spec) *canon {
	n := len(sp.Moves)
	comm := make([]uint64, n) // comm[m]: the moves that commute with m
	red := make([]uint64, n)  // red[m]: the moves x such that m then x reduces
	for a := range n {
		for b := range n {
			if sp.Commute(a, b) {
				comm[a] |= 1 << b
			}
			if sp.reduces(a, b) {
				red[a] |= 1 << b
			}
		}
	}
	if c := buildCanon(n, comm, red, false); c != nil {
		return c
	}
	return buildCanon(n, comm, red, true)
}

// buildCanon explores the automaton's states; with lastOnly, a state
// remembers only the last move. It returns nil past maxCanonStates.
func buildCanon(n int, comm, red []uint64, lastOnly bool) *canon {
	type state struct{ f, r uint64 }
	ids := map[state]int32{{}: 0}
	queue := []state{{}}
	c := &canon{moves: n}
	for i := 0; i < len(queue); i++ {
		s := queue[i]
		for m := range n {
			if (s.f|s.r)>>m&1 != 0 {
				c.next = append(c.next, -1)
				continue
			}
			var t state
			below := uint64(1)<<m - 1 // the moves x < m
			if lastOnly {
				t = state{f: comm[m] & below, r: red[m]}
			} else {
				t = state{f: comm[m] & (below | s.f), r: red[m] | comm[m]&s.r}
			}
			id, ok := ids[t]
			if !ok {
				if len(queue) >= maxCanonStates {
					return nil
				}
				id = int32(len(queue))
				ids[t] = id
				queue = append(queue, t)
			}
			c.next = append(c.next, id)
		}
	}
	return c
}

// step returns the state after move m from state s, -1 if m is forbidden.
func (c *canon) step(s int32, m int) int32 { return c.next[int(s)*c.moves+m] }

// reduces reports whether move a then move b has a cheaper equal: the
// identity, or a declared move of lower cost.
func (sp *Spec) reduces(a, b int) bool {
	ma, mb := &sp.Moves[a], &sp.Moves[b]
	if ma.Slide != SlideNone || mb.Slide != SlideNone {
		return ma.Slide != SlideNone && mb.Slide == ma.Slide.Opposite()
	}
	ab := sp.Then(ma, mb)
	if sp.IsIdentity(&ab) {
		return true
	}
	for i := range sp.Moves {
		c := &sp.Moves[i]
		if c.Slide == SlideNone && c.Cost < ma.Cost+mb.Cost && sp.sameMove(c, &ab) {
			return true
		}
	}
	return false
}
