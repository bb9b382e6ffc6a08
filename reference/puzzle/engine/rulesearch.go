package engine

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"math/rand/v2"
	"sync"
)

// rulesBackend solves a puzzle given by rules (see Rules), by one of
// three ways:
//
//   - MethodTable: a table from the goal. The case's one goal state
//     (Rules.Target) is explored breadth-first; as every move can be
//     undone (checked on every move found), the states reached are those
//     that reach the goal, at the distances found. One table serves every
//     case with that goal (Hanoi's 3^10 arrangements for one target).
//   - MethodBFS: a table of the case's component: every state the case
//     reaches, explored breadth-first, then the distances to the goal
//     states among them, measured backwards over the moves found. Moves
//     need not be undoable; any state of the component is answered from
//     the same table (the checker's distances after each move).
//   - MethodAStar and MethodIDA: searches with the rules' heuristic, for
//     spaces too large to explore (see ruleDFS).
//   - MethodBidirectional: breadth-first from the case and from its goal
//     state at once, for such spaces where the moves can be undone and the
//     rules give a target (see bidiSearch).
//
// Answers descend a table taking, from each state, the first move (in
// the order the rules yield them) that brings the goal closer: the
// lexicographically smallest of the optimal answers. Tables are kept, the
// most recent first, up to keptTables.
type rulesBackend struct {
	sp *Spec
	r  Rules
	m  Method

	mu     sync.Mutex
	tables []*ruleTable
}

// ruleTable is the distance to the goal of every state of a graph.
type ruleTable struct {
	g    *graphOf
	dist []int32
}

// keptTables is how many tables a backend keeps.
const keptTables = 8

func newRulesBackend(s *Solver) (backend, string, error) {
	sp := s.sp
	b := &rulesBackend{sp: sp, r: sp.Rules, m: sp.Method}
	_, hasH, _ := sp.Rules.Heuristic(nil)
	switch b.m {
	case MethodAuto:
		b.m = MethodBFS
		if sp.Rules.Reversible() && b.hasTarget() {
			b.m = MethodTable
		} else if hasH {
			b.m = MethodAStar
		}
	case MethodTable:
		if !b.hasTarget() {
			return nil, "", errors.New("a table from the goal needs the case's one goal state: the rules give a goal predicate, no target")
		}
	case MethodAStar, MethodIDA:
		if !hasH {
			return nil, "", fmt.Errorf("%s needs the rules' heuristic", b.m)
		}
	case MethodBidirectional:
		if err := b.canMeet(); err != nil {
			return nil, "", err
		}
	case MethodBFS:
	default:
		return nil, "", fmt.Errorf("rules are solved by table, bfs, astar, ida or bidirectional, not %s", b.m)
	}
	return b, b.describe(), nil
}

// canMeet reports why a search from both ends cannot serve the rules:
// they give no target, their moves are not declared undoable, or they cost
// more than one amount.
func (b *rulesBackend) canMeet() error {
	switch {
	case !b.hasTarget():
		return errors.New("a search from both ends needs the case's one goal state: the rules give a goal predicate, no target")
	case !b.r.Reversible():
		return errors.New("a search from both ends needs moves that can be undone (rules.reversible)")
	}
	for _, m := range b.sp.Moves {
		if m.Cost != b.sp.Moves[0].Cost {
			return fmt.Errorf("a search from both ends needs moves of one cost: %s costs %d, %s %d", b.sp.Moves[0].Name, b.sp.Moves[0].Cost, m.Name, m.Cost)
		}
	}
	return nil
}

// hasTarget reports whether the rules give each case its goal state.
func (b *rulesBackend) hasTarget() bool {
	st := make([]uint8, b.sp.Cells)
	ok, err := b.r.Target(make([]uint8, b.sp.Cells), st)
	return ok && err == nil
}

func (b *rulesBackend) describe() string {
	switch b.m {
	case MethodTable:
		return "rules: a table from each case's goal, breadth-first"
	case MethodBFS:
		return "rules: a table of each case's component, breadth-first"
	case MethodAStar:
		return "rules: A* with the rules' heuristic"
	case MethodBidirectional:
		return "rules: breadth-first from each case and from its goal until they meet"
	}
	return "rules: iterative deepening A* with the rules' heuristic"
}

func (b *rulesBackend) method() Method { return b.m }
func (b *rulesBackend) prepare() error { return nil }

// tableOf returns the table that holds st, building it if no kept one
// does; nil for the searches with a heuristic.
func (b *rulesBackend) tableOf(ctx context.Context, st []uint8) (*ruleTable, error) {
	if b.m != MethodTable && b.m != MethodBFS {
		return nil, nil
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	for i := len(b.tables) - 1; i >= 0; i-- {
		t := b.tables[i]
		if t.has(st) {
			b.tables = append(append(b.tables[:i:i], b.tables[i+1:]...), t)
			return t, nil
		}
	}
	t, err := b.build(ctx, st)
	if err != nil {
		return nil, err
	}
	if len(b.tables) == keptTables {
		b.tables = b.tables[1:]
	}
	b.tables = append(b.tables, t)
	return t, nil
}

// has reports whether st's distance is in the table: a state of the
// component, or for a table from a goal, any state with that goal.
func (t *ruleTable) has(st []uint8) bool {
	if _, ok := t.g.lookup(st); ok {
		return true
	}
	return t.sameGoal(st)
}

// sameGoal reports whether st's goal state is the table's root: st is
// then not in the table because it cannot reach the goal.
func (t *ruleTable) sameGoal(st []uint8) bool {
	if !t.g.fromGoal {
		return false
	}
	goal := make([]uint8, len(st))
	ok, err := t.g.r.Target(goal, st)
	if err != nil || !ok {
		return false
	}
	k := t.g.r.Key(nil, goal)
	return string(k) == string(t.g.r.Key(nil, t.g.state(0)))
}

// build makes the table that holds st.
func (b *rulesBackend) build(ctx context.Context, st []uint8) (*ruleTable, error) {
	g := newGraph(ctx, b.sp)
	if b.m == MethodTable {
		goal := make([]uint8, b.sp.Cells)
		if _, err := b.r.Target(goal, st); err != nil {
			return nil, err
		}
		g.fromGoal = true
		if err := g.explore(goal); err != nil {
			return nil, err
		}
		if err := g.reversible(); err != nil {
			return nil, err
		}
		t := &ruleTable{g: g, dist: g.distances([]int32{0}, false)}
		return t, b.admissible(t)
	}
	if err := g.explore(st); err != nil {
		return nil, err
	}
	var seeds []int32
	for u, solved := range g.goal {
		if solved {
			seeds = append(seeds, int32(u))
		}
	}
	t := &ruleTable{g: g, dist: g.distances(seeds, true)}
	return t, b.admissible(t)
}

// dist is st's distance in the table, -1 when it cannot reach the goal.
func (t *ruleTable) distOf(st []uint8) int {
	if u, ok := t.g.lookup(st); ok {
		return int(t.dist[u])
	}
	return -1
}

// admissibleSample is how many states of a table a heuristic is checked
// on.
const admissibleSample = 256

// admissible checks the rules' heuristic against the exact distances of a
// sample of the table's states; the error gives a state it overestimates.
func (b *rulesBackend) admissible(t *ruleTable) error {
	n := t.g.size()
	step := max(1, n/admissibleSample)
	for u := 0; u < n; u += step {
		if t.dist[u] < 0 {
			continue
		}
		if err := b.checkH(t.g.state(int32(u)), int(t.dist[u])); err != nil {
			return err
		}
	}
	return nil
}

// checkH checks the heuristic at a state whose distance is d.
func (b *rulesBackend) checkH(st []uint8, d int) error {
	h, ok, err := b.r.Heuristic(st)
	switch {
	case err != nil:
		return err
	case ok && h > d:
		return fmt.Errorf("the heuristic is not admissible: it says %d at %s, which is %d from the goal", h, b.r.Describe(st), d)
	}
	return nil
}

func (b *rulesBackend) distance(ctx context.Context, st State) (int, error) {
	t, err := b.tableOf(ctx, st.Cells)
	if err != nil {
		return 0, err
	}
	if t == nil {
		moves, err := b.searchPath(ctx, st.Cells)
		if err != nil {
			return 0, err
		}
		return b.cost(moves), nil
	}
	d := t.distOf(st.Cells)
	if d < 0 {
		return 0, ErrUnsolvable
	}
	return d, nil
}

func (b *rulesBackend) cost(moves []int) int {
	c := 0
	for _, m := range moves {
		c += b.sp.Moves[m].Cost
	}
	return c
}

func (b *rulesBackend) atMost(ctx context.Context, st State, limit int) (bool, error) {
	d, err := b.distance(ctx, st)
	if errors.Is(err, ErrUnsolvable) {
		return false, nil
	}
	return err == nil && d <= limit, err
}

func (b *rulesBackend) solve(ctx context.Context, st State, _ bool) ([]int, error) {
	t, err := b.tableOf(ctx, st.Cells)
	if err != nil {
		return nil, err
	}
	if t == nil {
		return b.searchPath(ctx, st.Cells)
	}
	return b.descend(t, st.Cells)
}

// descend follows the table from st: from each state, the first move that
// brings the goal closer.
func (b *rulesBackend) descend(t *ruleTable, st []uint8) ([]int, error) {
	d := t.distOf(st)
	if d < 0 {
		return nil, ErrUnsolvable
	}
	cur := append([]uint8(nil), st...)
	var moves []int
	for d > 0 {
		best, next := -1, []uint8(nil)
		err := b.r.Successors(cur, func(m int, nx []uint8) {
			if best < 0 && t.distOf(nx) == d-b.sp.Moves[m].Cost {
				best, next = m, append([]uint8(nil), nx...)
			}
		})
		switch {
		case err != nil:
			return nil, err
		case best < 0:
			return nil, fmt.Errorf("engine: no move from %s brings the goal closer than %d", b.r.Describe(cur), d)
		}
		if err := b.r.Check(next); err != nil {
			return nil, fmt.Errorf("move %q from %s leads to %s, which is not valid: %w", b.sp.Moves[best].Name, b.r.Describe(cur), b.r.Describe(next), err)
		}
		moves = append(moves, best)
		d -= b.sp.Moves[best].Cost
		cur = next
	}
	return moves, nil
}

func (b *rulesBackend) random(r *rand.Rand) (State, error) {
	st, err := b.r.Random(r)
	if err != nil {
		return State{}, err
	}
	if err := b.r.Check(st); err != nil {
		return State{}, fmt.Errorf("random() drew %s, which is not valid: %w", b.r.Describe(st), err)
	}
	return State{Cells: st}, nil
}

// ruleDraws is how many random states AtDistance and Deepest look at.
const ruleDraws = 16

// atDistance draws random states and takes, along the answer of one far
// enough, the state at distance d.
func (b *rulesBackend) atDistance(ctx context.Context, r *rand.Rand, d int) (State, bool, error) {
	for range ruleDraws {
		st, err := b.random(r)
		if err != nil {
			return State{}, false, err
		}
		moves, err := b.solve(ctx, st, false)
		if errors.Is(err, ErrUnsolvable) {
			continue
		}
		if err != nil {
			return State{}, false, err
		}
		left := b.cost(moves)
		for _, m := range moves {
			if left == d {
				return st, true, nil
			}
			st, _ = b.sp.Apply(st, m)
			left -= b.sp.Moves[m].Cost
		}
		if left == d {
			return st, true, nil
		}
	}
	return State{}, false, nil
}

// deepest is the farthest of a few random states that reach the goal.
func (b *rulesBackend) deepest(ctx context.Context, r *rand.Rand) (State, int, error) {
	var best State
	bestD := -1
	for range ruleDraws {
		st, err := b.random(r)
		if err != nil {
			return State{}, 0, err
		}
		d, err := b.distance(ctx, st)
		if errors.Is(err, ErrUnsolvable) {
			continue
		}
		if err != nil {
			return State{}, 0, err
		}
		if d > bestD {
			best, bestD = st, d
		}
	}
	if bestD < 0 {
		return State{}, 0, fmt.Errorf("none of %d random states reaches the goal", ruleDraws)
	}
	return best, bestD, nil
}

func (b *rulesBackend) all() (iter.Seq[State], bool)   { return nil, false }
func (b *rulesBackend) distribution() ([]uint64, bool) { return nil, false }
