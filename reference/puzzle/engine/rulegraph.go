package engine

import (
	"context"
	"fmt"
	"math/big"
	"slices"
	"time"
)

// graphOf is the part of a puzzle's graph of states that a breadth-first
// exploration from some roots found: every state reached, once by its key,
// with the moves out of it. Tables of rules are made from it.
type graphOf struct {
	sp     *Spec
	r      Rules
	budget Budget
	ctx    context.Context
	start  time.Time

	keys *keySet // the states' keys, numbered
	// states holds a state of each key, Cells bytes each; nil while every
	// key has been its state (no pieces renamed), which then serves.
	states []uint8
	goal   []bool  // whether each state is solved
	off    []int32 // state u's moves are edges[off[u]:off[u+1]]
	edges  []edge
	key    []uint8 // a buffer
	err    error   // the first error of a callback
	// expanding is the state expand is at; onMove, g.found as a func made
	// once (a closure a call would be allocated each time).
	expanding int32
	onMove    func(m int, next []uint8)
	// workers expand batches of states; batch are their buffers.
	workers int
	batch   []*batchWorker
	batched bool // whether a batch was expanded, for tests
	// fromGoal: the one root is a goal state, which every state the
	// exploration reached can reach (the moves can be undone).
	fromGoal bool
}

// checkedStates is how many new states of each exploration are checked
// with the rules' valid: a rule that leads to invalid states shows it
// early, and the rest of the search runs at the speed of the moves.
const checkedStates = 8

func newGraph(ctx context.Context, sp *Spec) *graphOf {
	g := &graphOf{sp: sp, r: sp.Rules, budget: sp.Budget, ctx: ctx, start: time.Now(),
		keys: newKeySet(), off: []int32{0}, workers: workersFor()}
	g.onMove = g.found
	return g
}

func (g *graphOf) size() int { return len(g.goal) }

// state returns the state numbered u (shared; do not change it).
func (g *graphOf) state(u int32) []uint8 {
	if g.states == nil {
		return g.keys.key(int(u))
	}
	n := g.sp.Cells
	return g.states[int(u)*n : int(u+1)*n]
}

// lookup returns the number of st's key, false when it was not reached.
// It may be called concurrently once the graph is built.
func (g *graphOf) lookup(st []uint8) (int32, bool) {
	var buf [MaxCells]uint8
	u, ok := g.keys.lookup(g.r.Key(buf[:0], st))
	return int32(u), ok
}

// add numbers st's key if new; fresh reports whether it was.
func (g *graphOf) add(st []uint8) (u int32, fresh bool, err error) {
	g.key = g.r.Key(g.key[:0], st)
	known, at := g.keys.locate(g.key)
	if known >= 0 {
		return int32(known), false, nil
	}
	u, err = g.addNew(g.key, at, st)
	return u, err == nil, err
}

// addNew numbers key, which is not in the graph, at its place, st its
// state.
func (g *graphOf) addNew(key []uint8, at place, st []uint8) (u int32, err error) {
	if g.size() >= g.budget.states() {
		return 0, fmt.Errorf("%w: more than %s states (rules.max_states)", ErrBudget, commasInt(g.budget.states()))
	}
	solved, err := g.r.Goal(st)
	if err != nil {
		return 0, err
	}
	u = int32(g.keys.insert(key, at))
	g.keep(u, st)
	g.goal = append(g.goal, solved)
	return u, nil
}

// keep records st as the state of key u, where the key is not st itself.
func (g *graphOf) keep(u int32, st []uint8) {
	if g.states == nil && string(g.keys.key(int(u))) == string(st) {
		return
	}
	if g.states == nil {
		g.states = make([]uint8, 0, 2*int(u+1)*len(st))
		for v := range u {
			g.states = append(g.states, g.keys.key(int(v))...)
		}
	}
	g.states = append(roomFor(g.states, len(st)), st...)
}

// explore visits, breadth-first, every state the roots reach.
func (g *graphOf) explore(roots ...[]uint8) error {
	for _, st := range roots {
		if _, _, err := g.add(st); err != nil {
			return err
		}
	}
	defer g.release()
	for u := 0; u < g.size(); {
		end := min(g.size(), u+batchStates)
		if end-u < minBatch || g.workers < 2 {
			end = u + 1
		}
		if err := g.tick(u, end); err != nil {
			return err
		}
		var err error
		if end == u+1 {
			err = g.expand(int32(u))
		} else {
			err = g.expandBatch(u, end)
		}
		if err != nil {
			return err
		}
		u = end
	}
	return nil
}

// tick checks, now and then, the context and the time budget: before
// the states from to to are expanded.
func (g *graphOf) tick(from, to int) error {
	if from/512 == to/512 && from%512 != 0 {
		return nil
	}
	if err := g.ctx.Err(); err != nil {
		return err
	}
	if d := g.budget.time(); time.Since(g.start) > d {
		return fmt.Errorf("%w: more than %v (rules.max_seconds) after %s states", ErrBudget, d, commasInt(g.size()))
	}
	return nil
}

// expand records the moves out of state u, numbering the states they
// reach.
func (g *graphOf) expand(u int32) error {
	g.expanding = u
	err := g.r.Successors(g.state(u), g.onMove)
	if err == nil {
		err = g.err
	}
	g.off = append(g.off, int32(len(g.edges)))
	return err
}

// found records move m of the state being expanded, to next.
func (g *graphOf) found(m int, next []uint8) {
	if g.err != nil {
		return
	}
	v, fresh, err := g.add(next)
	if err == nil && fresh && int(v) <= checkedStates {
		// add may have moved the states: the one expanded is read again
		err = g.checkValid(g.state(g.expanding), m, next)
	}
	if err != nil {
		g.err = err
		return
	}
	g.edges = append(roomFor(g.edges, 1), edge{v, int32(m)})
}

// checkValid checks with the rules' valid a state that move m led to.
func (g *graphOf) checkValid(from []uint8, m int, next []uint8) error {
	if err := g.r.Check(next); err != nil {
		return fmt.Errorf("move %q from %s leads to %s, which is not valid: %w",
			g.sp.Moves[m].Name, g.r.Describe(from), g.r.Describe(next), err)
	}
	return nil
}

// reversible checks that every move found is undone by a move of the
// same cost; the error names one that is not.
func (g *graphOf) reversible() error {
	for u := range int32(g.size()) {
		for e := g.off[u]; e < g.off[u+1]; e++ {
			v, c := g.edges[e].to, g.sp.Moves[g.edges[e].move].Cost
			back := false
			for f := g.off[v]; f < g.off[v+1] && !back; f++ {
				back = g.edges[f].to == u && g.sp.Moves[g.edges[f].move].Cost == c
			}
			if !back {
				return fmt.Errorf("move %q from %s leads to %s, from which no move of cost %d leads back: a table from the goal needs moves that can be undone",
					g.sp.Moves[g.edges[e].move].Name, g.r.Describe(g.state(u)), g.r.Describe(g.state(v)), c)
			}
		}
	}
	return nil
}

// distances are the least cost from each state to the seeds along the
// moves out of it (backward: the seeds are the goal) or into it; -1 for
// the states that never meet them. Breadth-first where every move costs
// one, else by Dial's buckets (every move costing at least 1).
func (g *graphOf) distances(seeds []int32, backward bool) []int32 {
	off, edges := g.off, g.edges
	if backward {
		off, edges = g.reversed()
	}
	dist := make([]int32, g.size())
	for i := range dist {
		dist[i] = -1
	}
	cost := make([]int32, len(g.sp.Moves))
	unit := true
	for m, mv := range g.sp.Moves {
		cost[m] = int32(mv.Cost)
		unit = unit && mv.Cost == 1
	}
	if unit {
		breadthFirst(off, edges, seeds, dist)
	} else {
		dial(off, edges, cost, seeds, dist)
	}
	return dist
}

// breadthFirst sets dist (all -1) to the number of edges from the seeds.
func breadthFirst(off []int32, edges []edge, seeds, dist []int32) {
	queue := make([]int32, 0, len(dist))
	for _, s := range seeds {
		if dist[s] < 0 {
			dist[s] = 0
			queue = append(queue, s)
		}
	}
	for i := 0; i < len(queue); i++ {
		u := queue[i]
		d := dist[u] + 1
		for _, e := range edges[off[u]:off[u+1]] {
			if dist[e.to] < 0 {
				dist[e.to] = d
				queue = append(queue, e.to)
			}
		}
	}
}

// dial sets dist (all -1) to the least cost of a path from the seeds, the
// moves costing cost.
func dial(off []int32, edges []edge, cost, seeds, dist []int32) {
	var buckets [][]int32
	push := func(u int32, d int32) {
		if dist[u] >= 0 && dist[u] <= d {
			return
		}
		dist[u] = d
		for int(d) >= len(buckets) {
			buckets = append(buckets, nil)
		}
		buckets[d] = append(buckets[d], u)
	}
	for _, s := range seeds {
		push(s, 0)
	}
	for d := int32(0); int(d) < len(buckets); d++ {
		for i := 0; i < len(buckets[d]); i++ {
			u := buckets[d][i]
			if dist[u] != d {
				continue
			}
			for _, e := range edges[off[u]:off[u+1]] {
				push(e.to, d+cost[e.move])
			}
		}
		buckets[d] = nil
	}
}

// reversed returns the moves into each state, as off and edges give the
// moves out of it: those into v are edges[off[v]:off[v+1]], each from the
// state to.
func (g *graphOf) reversed() ([]int32, []edge) {
	n := g.size()
	off := make([]int32, n+1)
	for _, e := range g.edges {
		off[e.to+1]++
	}
	for i := range n {
		off[i+1] += off[i]
	}
	rev := make([]edge, len(g.edges))
	pos := append([]int32(nil), off[:n]...)
	for u := range int32(n) {
		for _, e := range g.edges[g.off[u]:g.off[u+1]] {
			rev[pos[e.to]] = edge{u, e.move}
			pos[e.to]++
		}
	}
	return off, rev
}

// edge is a move found: the state it leads to, and the move.
type edge struct{ to, move int32 }

// roomFor returns s with room for n more items, doubling its capacity
// when it must grow: append grows large slices by a quarter, which copies
// a table's big arrays five times over on the way to their size.
func roomFor[T any](s []T, n int) []T {
	if len(s)+n <= cap(s) {
		return s
	}
	return slices.Grow(s, max(n, len(s)))
}

// commasInt writes n with thousands separators, as commas does.
func commasInt(n int) string { return commas(big.NewInt(int64(n))) }
