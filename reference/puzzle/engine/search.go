package engine

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"math"
	"math/big"
	"math/rand/v2"
)

// heuristic is a lower bound of the cost from a state to the goal.
type heuristic interface {
	estimate(cells, orient []uint8) int
	prepare() error
}

// ida is iterative deepening A* over canonical sequences, moves tried in
// declared order, so that the first solution found at the optimal cost is
// the lexicographically smallest. It is not safe for concurrent use; each
// search makes its own.
type ida struct {
	sp     *Spec
	canon  *canon
	h      heuristic
	weight int
	cells  [][]uint8 // per depth
	orient [][]uint8
	path   []int
	nodes  uint64
	ctx    context.Context
	err    error // the context's, once the search stopped for it
}

func (s *pieceSearch) newIDA(ctx context.Context, weight int) *ida {
	return &ida{sp: s.sp, canon: s.canon, h: s.h, weight: weight, ctx: ctx}
}

// checkEvery is how many nodes a search visits between two looks at its
// context.
const checkEvery = 1 << 14

// level returns the arrays of depth d, allocating as the search deepens.
func (x *ida) level(d int) ([]uint8, []uint8) {
	for len(x.cells) <= d {
		x.cells = append(x.cells, make([]uint8, x.sp.Cells))
		if x.sp.Orient >= 2 {
			x.orient = append(x.orient, make([]uint8, x.sp.Cells))
		} else {
			x.orient = append(x.orient, nil)
		}
	}
	return x.cells[d], x.orient[d]
}

// run searches from st with increasing bounds up to limit; it returns the
// moves and true, or false when no solution costs at most limit (or the
// context ended the search: x.err).
func (x *ida) run(st State, limit int) ([]int, bool) {
	c, o := x.level(0)
	copy(c, st.Cells)
	if o != nil {
		copy(o, x.sp.full(st).Orient)
	}
	bound := x.weight * x.h.estimate(c, o)
	for x.weight > 1 || bound <= limit {
		x.path = x.path[:0]
		next, found := x.dfs(0, 0, bound, 0)
		if found {
			return append([]int(nil), x.path...), true
		}
		if next == math.MaxInt || x.err != nil {
			return nil, false
		}
		bound = next
	}
	return nil, false
}

func (x *ida) dfs(d, g, bound int, cs int32) (int, bool) {
	c, o := x.level(d)
	if x.nodes++; x.nodes%checkEvery == 0 && x.err == nil {
		x.err = x.ctx.Err()
	}
	if x.err != nil {
		return math.MaxInt, false
	}
	h := x.h.estimate(c, o)
	if f := g + x.weight*h; f > bound {
		return f, false
	}
	if h == 0 && x.sp.IsGoal(State{Cells: c, Orient: o}) {
		return g, true
	}
	nc, no := x.level(d + 1)
	c, o = x.cells[d], x.orient[d] // level may have grown the slices
	next := math.MaxInt
	for m := range x.sp.Moves {
		ncs := x.canon.step(cs, m)
		if ncs < 0 || !x.sp.applyTo(nc, no, c, o, &x.sp.Moves[m]) {
			continue
		}
		x.path = append(x.path, m)
		t, found := x.dfs(d+1, g+x.sp.Moves[m].Cost, bound, ncs)
		if found {
			return t, true
		}
		x.path = x.path[:len(x.path)-1]
		next = min(next, t)
	}
	return next, false
}

// searchBackend solves by iterative deepening A*: it holds what every
// search shares (answers from bounded searches, random walks and
// samples), its searcher the search itself.
type searchBackend struct {
	sp    *Spec
	canon *canon
	goal  []uint8
	s     searcher
}

// searcher is one kind of heuristic search: the pieces' (pieceSearch) or
// the sliding puzzle's (sliding.go).
type searcher interface {
	prepare() error
	// solvable decides exactly, without a search, whether st reaches the
	// goal.
	solvable(st State) bool
	// search looks from st (solvable) for an answer of cost at most
	// limit, the heuristic weighted w (1 for the smallest optimal one):
	// the moves and true, or false when there is none (or the context
	// ended the search: the error).
	search(ctx context.Context, st State, limit, w int) ([]int, bool, error)
	// random draws a uniformly random solvable state.
	random(r *rand.Rand) State
	describe() string
}

// pieceSearch is iterative deepening A* with a heuristic of the pieces
// (pattern databases, or the gap heuristic of prefix reversals); the
// group the moves generate decides solvability.
type pieceSearch struct {
	sp    *Spec
	canon *canon
	h     heuristic
	orbit *orbitSearch // a twisty puzzle's own search (orbitsearch.go), h too; nil for others
	group *group
	goal  []uint8
	desc  string
}

// newSearch picks a heuristic search, or says why none applies.
func newSearch(s *Solver, k kind, size *big.Int) (backend, string, error) {
	sp := s.sp
	why := searchable(sp, k)
	if why != "" {
		if size == nil {
			size = stateCount(sp)
		}
		return nil, "", fmt.Errorf("the puzzle has %s states, more than the %s a table may hold, and no pattern database applies: %s",
			commas(size), commas(new(big.Int).SetUint64(s.opts.MaxTable)), why)
	}
	b := &searchBackend{sp: sp, canon: newCanon(sp), goal: sp.Goal.States[0]}
	var err error
	if k.allSlide {
		b.s, err = newSliding(sp, s.opts)
	} else {
		b.s, err = newPieceSearch(sp, k, s.opts, b.canon)
	}
	if err != nil {
		return nil, "", err
	}
	return b, "iterative deepening A* with " + b.s.describe(), nil
}

// newPieceSearch picks the heuristic of a search of pieces.
func newPieceSearch(sp *Spec, k kind, opts Options, c *canon) (*pieceSearch, error) {
	ps := &pieceSearch{sp: sp, canon: c, goal: sp.Goal.States[0]}
	if prefixReversals(sp) {
		ps.h, ps.desc = newGap(sp), "the gap heuristic"
		return ps, nil
	}
	if orbitSearchable(sp, k) {
		o, err := newOrbitSearch(sp, opts)
		if err != nil {
			return nil, err
		}
		ps.h, ps.orbit, ps.desc = o, o, o.describe()
		return ps, nil
	}
	pdbs, err := newPatterns(sp, opts)
	if err != nil {
		return nil, err
	}
	ps.h, ps.desc = pdbs, "pattern databases of pieces "+pdbs.describe()
	return ps, nil
}

// searchable says why no heuristic search applies to sp, "" if one does.
func searchable(sp *Spec, k kind) string {
	switch {
	case k.adds:
		return "its moves add (the engine searches puzzles whose moves move symbols around)"
	case len(sp.Goal.Same) > 0:
		return "its goal is cells holding one symbol, whichever"
	case len(sp.Goal.States) != 1:
		return "it has several goal states"
	case k.slides && !k.allSlide:
		return "it mixes slides with other moves"
	}
	for _, c := range sp.Counts {
		if c > 1 {
			return "a symbol is in several cells (the search needs pieces that are all different)"
		}
	}
	return ""
}

// stateCount is the number of arrangements, for messages.
func stateCount(sp *Spec) *big.Int {
	if sp.Counts == nil {
		return new(big.Int).Exp(big.NewInt(int64(sp.Symbols)), big.NewInt(int64(sp.Cells)), nil)
	}
	n := new(big.Int).MulRange(1, int64(sp.Cells))
	for _, c := range sp.Counts {
		if c > 1 {
			n.Div(n, new(big.Int).MulRange(1, int64(c)))
		}
	}
	for c := range sp.Cells {
		n.Mul(n, big.NewInt(int64(sp.Mod(c))))
	}
	return n
}

func (b *searchBackend) method() Method { return MethodSearch }

func (b *searchBackend) prepare() error { return b.s.prepare() }

// solvable decides exactly whether st reaches the goal.
func (b *searchBackend) solvable(st State) bool { return b.s.solvable(st) }

// maxCost bounds any optimal answer, for the search's loop: a state's
// distance never passes the number of states.
const maxCost = math.MaxInt32

func (b *searchBackend) search(ctx context.Context, st State, limit, weight int) ([]int, bool, error) {
	return b.s.search(ctx, st, limit, weight)
}

func (b *searchBackend) solve(ctx context.Context, st State, approx bool) ([]int, error) {
	if !b.solvable(st) {
		return nil, ErrUnsolvable
	}
	weight := 1
	if approx {
		weight = 3
	}
	moves, ok, err := b.search(ctx, st, maxCost, weight)
	switch {
	case err != nil:
		return nil, err
	case !ok:
		return nil, errors.New("engine: the search found no answer for a solvable state")
	}
	return moves, nil
}

func (b *searchBackend) cost(moves []int) int {
	n := 0
	for _, m := range moves {
		n += b.sp.Moves[m].Cost
	}
	return n
}

func (b *searchBackend) distance(ctx context.Context, st State) (int, error) {
	moves, err := b.solve(ctx, st, false)
	if err != nil {
		return 0, err
	}
	return b.cost(moves), nil
}

func (b *searchBackend) atMost(ctx context.Context, st State, limit int) (bool, error) {
	if !b.solvable(st) {
		return false, nil
	}
	_, ok, err := b.search(ctx, st, limit, 1)
	return ok, err
}

func (b *searchBackend) random(r *rand.Rand) (State, error) { return b.s.random(r), nil }

// walk returns the state after n random moves from the goal, never
// undoing the move before.
func (b *searchBackend) walk(r *rand.Rand, n int) State {
	st := b.sp.full(State{Cells: append([]uint8(nil), b.goal...)})
	cs := int32(0)
	for made := 0; made < n; {
		m := r.IntN(len(b.sp.Moves))
		ncs := b.canon.step(cs, m)
		if ncs < 0 {
			continue
		}
		if next, ok := b.sp.Apply(st, m); ok {
			st, cs = next, ncs
			made++
		}
	}
	return st
}

// atDistance walks randomly from the goal and keeps a state at distance
// d; not uniform, as no table tells the states apart.
func (b *searchBackend) atDistance(ctx context.Context, r *rand.Rand, d int) (State, bool, error) {
	for range 64 {
		st := b.walk(r, d)
		for extra := 0; extra <= 2*d+8; extra++ {
			got, err := b.distance(ctx, st)
			if err != nil {
				return State{}, false, err
			}
			if got == d {
				return st, true, nil
			}
			if got > d {
				break
			}
			st = b.walk1(r, st)
		}
	}
	return State{}, false, nil
}

// walk1 makes one random move that can be made.
func (b *searchBackend) walk1(r *rand.Rand, st State) State {
	for {
		if next, ok := b.sp.Apply(st, r.IntN(len(b.sp.Moves))); ok {
			return next
		}
	}
}

// deepestSample is how many random states Deepest measures.
const deepestSample = 16

func (b *searchBackend) deepest(ctx context.Context, r *rand.Rand) (State, int, error) {
	var best State
	bestD := -1
	for range deepestSample {
		st, err := b.random(r)
		if err != nil {
			return State{}, 0, err
		}
		d, err := b.distance(ctx, st)
		if err != nil {
			return State{}, 0, err
		}
		if d > bestD {
			best, bestD = st, d
		}
	}
	return best, bestD, nil
}

func (b *searchBackend) all() (iter.Seq[State], bool)   { return nil, false }
func (b *searchBackend) distribution() ([]uint64, bool) { return nil, false }

func (s *pieceSearch) prepare() error {
	var gens []perm
	for i := range s.sp.Moves {
		gens = append(gens, s.sp.movePerm(&s.sp.Moves[i]))
	}
	s.group = newGroup(pointsOf(s.sp), gens)
	return s.h.prepare()
}

func (s *pieceSearch) solvable(st State) bool {
	p, ok := s.sp.statePerm(s.goal, st)
	return ok && s.group.contains(p)
}

func (s *pieceSearch) search(ctx context.Context, st State, limit, w int) ([]int, bool, error) {
	if s.orbit != nil {
		return s.orbit.search(ctx, st, limit, w)
	}
	x := s.newIDA(ctx, w)
	moves, ok := x.run(st, limit)
	return moves, ok, x.err
}

func (s *pieceSearch) random(r *rand.Rand) State { return s.sp.stateOf(s.goal, s.group.random(r)) }

func (s *pieceSearch) describe() string { return s.desc }

// prefixReversals reports whether every move reverses the first k cells
// for some k, with no twist: the gap heuristic applies.
func prefixReversals(sp *Spec) bool {
	if sp.Orient >= 2 {
		return false
	}
	for _, m := range sp.Moves {
		if m.Perm == nil || m.Twist != nil || m.Add != nil || m.Slide != SlideNone {
			return false
		}
		// The moved cells are 0..k-1, in reverse.
		k := 0
		for i, j := range m.Perm {
			if j != i {
				k = i + 1
			}
		}
		for i, j := range m.Perm {
			if i < k && j != k-1-i || i >= k && j != i {
				return false
			}
		}
	}
	return true
}

// gap is the gap heuristic of prefix reversals: the adjacent cells (the
// last one next to a plate) whose symbols are not neighbours in the goal.
// A reversal of the first k cells changes only the pair at k-1, k.
type gap struct {
	rank []int // rank[v]: where the goal holds symbol v
	n    int
}

func newGap(sp *Spec) *gap {
	g := &gap{rank: make([]int, sp.Symbols), n: sp.Cells}
	for c, v := range sp.Goal.States[0] {
		g.rank[v] = c
	}
	return g
}

func (g *gap) prepare() error { return nil }

func (g *gap) estimate(cells, _ []uint8) int {
	h := 0
	for i := 0; i+1 < g.n; i++ {
		if d := g.rank[cells[i]] - g.rank[cells[i+1]]; d != 1 && d != -1 {
			h++
		}
	}
	if g.rank[cells[g.n-1]] != g.n-1 {
		h++
	}
	return h
}
