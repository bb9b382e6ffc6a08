package engine

import (
	"context"
	"fmt"
	"sort"
	"time"
)

// MethodBidirectional searches each case from both ends, for rules whose
// moves can be undone and that give each case its goal state (target()),
// where a table from the goal would be too large: breadth-first layers
// grow from the case and from its goal state, the smaller side a layer at
// a time, until they meet; a case d moves deep costs about twice the
// states within d/2 of either end (Pohl 1971) where one search from the
// case costs those within d. Every move must cost the same.
//
// The answer is then the lexicographically smallest of the optimal ones:
// the states of the case's side from which the goal is as near as it can
// be (those of the meeting layer the goal's side reached at the fewest
// moves, and layer by layer back towards the case, those with a move to
// one of them) mark the optimal paths' first half, and the goal's side
// knows its states' exact distances for the second; from the case, each
// step takes the first move, in the rules' order, to such a state.

// bidiSide is the states one side has reached, numbered in breadth-first
// order: layer i holds the states from layers[i] to layers[i+1]-1.
type bidiSide struct {
	keys   *keySet
	states []uint8
	layers []int
}

func (s *bidiSide) state(u, cells int) []uint8 { return s.states[u*cells : (u+1)*cells] }

// depth is the layer of state u.
func (s *bidiSide) depth(u int) int { return sort.SearchInts(s.layers, u+1) - 1 }

// bidiSearch is one case's search from both ends.
type bidiSearch struct {
	b      *rulesBackend
	ctx    context.Context
	start  time.Time
	cells  int
	key    []uint8
	sides  [2]*bidiSide // from the case, from the goal
	err    error        // the first error of a callback
	states int          // the states of both sides
	budget int
}

// bidirectional is the smallest optimal answer from st by
// MethodBidirectional.
func (b *rulesBackend) bidirectional(ctx context.Context, st []uint8) ([]int, error) {
	goal := make([]uint8, b.sp.Cells)
	if _, err := b.r.Target(goal, st); err != nil {
		return nil, err
	}
	x := &bidiSearch{b: b, ctx: ctx, start: time.Now(), cells: b.sp.Cells, budget: b.sp.Budget.states()}
	for i, root := range [][]uint8{st, goal} {
		x.sides[i] = &bidiSide{keys: newKeySet(), layers: []int{0}}
		if err := x.add(x.sides[i], root); err != nil {
			return nil, err
		}
		x.sides[i].layers = append(x.sides[i].layers, 1)
	}
	d, err := x.meet()
	if err != nil {
		return nil, err
	}
	return x.path(st, d)
}

// add numbers st on side s if it is new there.
func (x *bidiSearch) add(s *bidiSide, st []uint8) error {
	x.key = x.b.r.Key(x.key[:0], st)
	u, at := s.keys.locate(x.key)
	if u >= 0 {
		return nil
	}
	if x.states >= x.budget {
		return fmt.Errorf("%w: more than %s states (rules.max_states)", ErrBudget, commasInt(x.budget))
	}
	x.states++
	s.keys.insert(x.key, at)
	s.states = append(s.states, st...)
	return nil
}

// layerOf is the layer of st on side s, -1 where s has not reached it.
func (x *bidiSearch) layerOf(s *bidiSide, st []uint8) int {
	var buf [MaxCells]uint8
	u, ok := s.keys.lookup(x.b.r.Key(buf[:0], st))
	if !ok {
		return -1
	}
	return s.depth(u)
}

// meet grows the smaller side a layer at a time until the sides meet,
// and returns the number of moves between the case and its goal.
func (x *bidiSearch) meet() (int, error) {
	if j := x.layerOf(x.sides[1], x.sides[0].state(0, x.cells)); j >= 0 {
		return j, nil
	}
	for {
		if err := x.tick(); err != nil {
			return 0, err
		}
		i := 0
		if x.frontier(1) < x.frontier(0) {
			i = 1
		}
		s, other := x.sides[i], x.sides[1-i]
		from, to := s.layers[len(s.layers)-2], s.layers[len(s.layers)-1]
		if from == to {
			return 0, ErrUnsolvable
		}
		best := -1
		for u := from; u < to; u++ {
			err := x.b.r.Successors(s.state(u, x.cells), func(_ int, next []uint8) {
				if x.err != nil {
					return
				}
				if j := x.layerOf(other, next); j >= 0 && (best < 0 || j < best) {
					best = j
				}
				x.err = x.add(s, next)
			})
			if err == nil {
				err = x.err
			}
			if err != nil {
				return 0, err
			}
		}
		s.layers = append(s.layers, s.keys.len())
		if best >= 0 {
			return len(s.layers) - 2 + best, nil
		}
	}
}

// frontier is the size of side i's last layer.
func (x *bidiSearch) frontier(i int) int {
	l := x.sides[i].layers
	return l[len(l)-1] - l[len(l)-2]
}

// tick checks the context and the time budget.
func (x *bidiSearch) tick() error {
	if err := x.ctx.Err(); err != nil {
		return err
	}
	if d := x.b.sp.Budget.time(); time.Since(x.start) > d {
		return fmt.Errorf("%w: more than %v (rules.max_seconds)", ErrBudget, d)
	}
	return nil
}

// path is the smallest of the answers of d moves from st: the case's side
// marks the states of its layers on optimal paths, the goal's side gives
// distances for the rest of the way.
func (x *bidiSearch) path(st []uint8, d int) ([]int, error) {
	fwd, bwd := x.sides[0], x.sides[1]
	a := len(fwd.layers) - 2 // the case's side's last layer
	// on[u]: state u of the case's side is on an optimal path
	on := make([]bool, fwd.keys.len())
	for u := fwd.layers[min(a, d)]; u < fwd.layers[min(a, d)+1]; u++ {
		on[u] = x.layerOf(bwd, fwd.state(u, x.cells)) == d-min(a, d)
	}
	for i := min(a, d) - 1; i >= 0; i-- {
		for u := fwd.layers[i]; u < fwd.layers[i+1]; u++ {
			err := x.b.r.Successors(fwd.state(u, x.cells), func(_ int, next []uint8) {
				if v, ok := x.number(fwd, next); ok && v >= fwd.layers[i+1] && v < fwd.layers[i+2] && on[v] {
					on[u] = true
				}
			})
			if err != nil {
				return nil, err
			}
		}
	}
	var moves []int
	cur := append([]uint8(nil), st...)
	for i := range d {
		best, next := -1, []uint8(nil)
		err := x.b.r.Successors(cur, func(m int, nx []uint8) {
			if best >= 0 {
				return
			}
			if x.onPath(nx, i+1, d, on) {
				best, next = m, append([]uint8(nil), nx...)
			}
		})
		switch {
		case err != nil:
			return nil, err
		case best < 0:
			return nil, fmt.Errorf("engine: no move from %s is on a path of %d moves", x.b.r.Describe(cur), d)
		}
		moves, cur = append(moves, best), next
	}
	return moves, nil
}

// onPath reports whether st, i moves from the case, is on a path of d
// moves to the goal.
func (x *bidiSearch) onPath(st []uint8, i, d int, on []bool) bool {
	fwd := x.sides[0]
	if i < len(fwd.layers)-1 {
		v, ok := x.number(fwd, st)
		return ok && v >= fwd.layers[i] && v < fwd.layers[i+1] && on[v]
	}
	return x.layerOf(x.sides[1], st) == d-i
}

// number is st's number on side s.
func (x *bidiSearch) number(s *bidiSide, st []uint8) (int, bool) {
	var buf [MaxCells]uint8
	return s.keys.lookup(x.b.r.Key(buf[:0], st))
}
