package engine

import (
	"bytes"
	"context"
	"fmt"
	"iter"
	"math/big"
	"math/rand/v2"
	"sync"
)

// tableBackend solves with a distance table over a space.
type tableBackend struct {
	sp     *Spec
	opts   Options
	space  *space
	inv    []Move
	twoBit bool
	t      *table
	seeds  []uint64

	// Move tables of the permutation and orientation coordinates, forward
	// and backward (index*moves + move), where they are small; nil else.
	permF, permB, oriF, oriB []uint32

	scratch sync.Pool // *[2]State, for the answers
	bfsBuf  [2]State  // for back, which only the single-threaded build calls

	moves tableMoves // makes the moves on states
}

// newTableBackend returns the table backend, or nil and the number of
// states when they are too many.
func newTableBackend(s *Solver) (*tableBackend, *big.Int, error) {
	sp := s.sp
	goal := pseudoGoal(sp)
	space, n := newSpace(sp, goal, s.opts.MaxTable)
	if space == nil {
		return nil, n, nil
	}
	b := &tableBackend{sp: sp, opts: s.opts, space: space, inv: sp.inverses()}
	b.twoBit = space.size >= twoBitFrom && sp.unitCost() && sp.symmetric()
	b.moves = newTableMoves(sp, b.inv)
	b.scratch.New = func() any { return &[2]State{sp.scratch(), sp.scratch()} }
	return b, n, nil
}

// pseudoGoal is a state that gives a space its fixed cells and multisets:
// the first goal state, or for a goal of cells holding one symbol, the
// counts' symbols in order (all zero for a puzzle that adds).
func pseudoGoal(sp *Spec) []uint8 {
	if len(sp.Goal.States) > 0 {
		return sp.Goal.States[0]
	}
	g := make([]uint8, sp.Cells)
	i := 0
	for v, c := range sp.Counts {
		for range c {
			g[i] = uint8(v)
			i++
		}
	}
	return g
}

func (b *tableBackend) method() Method { return MethodTable }

func (b *tableBackend) prepare() error {
	if err := b.findSeeds(); err != nil {
		return err
	}
	b.coordinateTables()
	key := cacheKey(b.sp.Key(), fmt.Sprintf("table %d %v", b.space.size, b.twoBit))
	if p, ok := loadBlob(b.opts.CacheDir, key); ok {
		if t, err := unmarshalTable(p, b.space.size, b.twoBit); err == nil {
			b.t = t
			return nil
		}
	}
	var t *table
	p, packs := newPacker(b.sp)
	packs = packs && !b.twoBit && b.permB == nil && b.sp.unitCost()
	if b.oriB != nil && b.sp.unitCost() && b.space.oriSize > 1 {
		t = b.bfsBlocks(b.seeds)
	} else if b.permB != nil && !b.twoBit && b.sp.unitCost() && b.space.size < 1<<32 {
		t = b.bfsCoordinates(b.seeds)
	} else if packs && b.packedSlides() {
		t = b.bfsSliding(b.seeds)
	} else if packs {
		t = b.bfsPacked(p, b.seeds)
	} else {
		var err error
		if t, err = buildTable(b, b.seeds, b.twoBit); err != nil {
			return err
		}
	}
	b.t = t
	if b.opts.CacheDir != "" {
		storeBlob(b.opts.CacheDir, key, t.marshal())
	}
	return nil
}

// findSeeds indexes the goal states: the given ones, or for a goal of
// cells holding one symbol, every state of the space that has them.
func (b *tableBackend) findSeeds() error {
	sp := b.sp
	if len(sp.Goal.States) > 0 {
		for i, g := range sp.Goal.States {
			idx, ok := b.space.encode(g, zeros(sp))
			if !ok {
				return fmt.Errorf("goal state %d holds other symbols than goal state 0 in cells that never move together", i)
			}
			b.seeds = append(b.seeds, idx)
		}
		return nil
	}
	st := sp.scratch()
	for i := range b.space.size {
		b.space.decode(i, st.Cells, st.Orient)
		if sp.IsGoal(st) {
			b.seeds = append(b.seeds, i)
		}
	}
	return nil
}

// zeros is an orientation array of zeros, nil without orientations.
func zeros(sp *Spec) []uint8 {
	if sp.Orient >= 2 {
		return make([]uint8, sp.Cells)
	}
	return nil
}

// coordinateTables builds the move tables of the two coordinates when no
// move slides (so that each coordinate moves on its own) and they are
// small beside the distance table.
func (b *tableBackend) coordinateTables() {
	sp, s := b.sp, b.space
	moves := uint64(len(sp.Moves))
	limit := max(uint64(1<<18), s.size/2)
	if kindOf(sp).slides || s.permSize*moves > limit || s.oriSize*moves > limit || s.permSize >= 1<<32 {
		return
	}
	b.permF, b.permB = make([]uint32, s.permSize*moves), make([]uint32, s.permSize*moves)
	a, c := sp.scratch(), sp.scratch()
	for p := range s.permSize {
		s.decodePerm(p, a.Cells, nil)
		for m := range sp.Moves {
			sp.applyTo(c.Cells, nil, a.Cells, nil, &sp.Moves[m])
			q, _ := s.encodePerm(c.Cells, nil)
			b.permF[p*moves+uint64(m)] = uint32(q)
			sp.applyTo(c.Cells, nil, a.Cells, nil, &b.inv[m])
			q, _ = s.encodePerm(c.Cells, nil)
			b.permB[p*moves+uint64(m)] = uint32(q)
		}
	}
	if sp.Orient < 2 {
		return
	}
	b.oriF, b.oriB = make([]uint32, s.oriSize*moves), make([]uint32, s.oriSize*moves)
	for o := range s.oriSize {
		s.decodeOri(o, a.Orient)
		for m := range sp.Moves {
			sp.applyTo(c.Cells, c.Orient, a.Cells, a.Orient, &sp.Moves[m])
			q, _ := s.encodeOri(c.Orient)
			b.oriF[o*moves+uint64(m)] = uint32(q)
			sp.applyTo(c.Cells, c.Orient, a.Cells, a.Orient, &b.inv[m])
			q, _ = s.encodeOri(c.Orient)
			b.oriB[o*moves+uint64(m)] = uint32(q)
		}
	}
}

func (b *tableBackend) size() uint64 { return b.space.size }

// back implements graph: the states one move before i.
func (b *tableBackend) back(i uint64, f func(j uint64, cost int)) {
	sp, s := b.sp, b.space
	moves := uint64(len(sp.Moves))
	if b.permB != nil {
		p, o := i, uint64(0)
		if b.oriB != nil {
			p, o = i/s.oriSize, i%s.oriSize
		}
		for m := range moves {
			j := uint64(b.permB[p*moves+m])
			if b.oriB != nil {
				j = j*s.oriSize + uint64(b.oriB[o*moves+m])
			}
			f(j, sp.Moves[m].Cost)
		}
		return
	}
	if b.bfsBuf[0].Cells == nil {
		b.bfsBuf = [2]State{sp.scratch(), sp.scratch()}
	}
	a, c := b.bfsBuf[0], b.bfsBuf[1]
	s.decode(i, a.Cells, a.Orient)
	blank := b.moves.blankOf(a)
	for m := range b.inv {
		if b.moves.apply(c, a, blank, m, true) {
			f(s.encodeValid(c.Cells, c.Orient), sp.Moves[m].Cost)
		}
	}
}

// forward returns the index after move m from i, false for a slide off
// the grid.
func (b *tableBackend) forward(i uint64, m int, a, c State) (uint64, bool) {
	sp, s := b.sp, b.space
	if b.permF != nil {
		moves := uint64(len(sp.Moves))
		p, o := i, uint64(0)
		if b.oriF != nil {
			p, o = i/s.oriSize, i%s.oriSize
		}
		j := uint64(b.permF[p*moves+uint64(m)])
		if b.oriF != nil {
			j = j*s.oriSize + uint64(b.oriF[o*moves+uint64(m)])
		}
		return j, true
	}
	s.decode(i, a.Cells, a.Orient)
	if !sp.applyTo(c.Cells, c.Orient, a.Cells, a.Orient, &sp.Moves[m]) {
		return 0, false
	}
	return s.encode(c.Cells, c.Orient)
}

// index returns the index of st, false when st cannot reach the goal.
func (b *tableBackend) index(st State) (uint64, bool) {
	st = b.sp.full(st)
	i, ok := b.space.encode(st.Cells, st.Orient)
	if !ok || !b.t.reached(i) {
		return 0, false
	}
	return i, true
}

// descend walks from i to the goal taking, at each state, the first move
// in declared order that brings it closer; it returns the moves.
func (b *tableBackend) descend(i uint64) []int {
	if b.packedSlides() {
		return b.descendSliding(i)
	}
	sp := b.sp
	buf := b.scratch.Get().(*[2]State)
	defer b.scratch.Put(buf)
	a, c := buf[0], buf[1]
	states := b.permF == nil // else the coordinates' move tables serve
	if states {
		b.space.decode(i, a.Cells, a.Orient)
	}
	moves := make([]int, 0, 32)
	if !b.t.twoBit {
		moves = make([]int, 0, b.t.get(i))
	}
	for {
		v := b.t.get(i)
		if b.t.twoBit {
			if !states {
				b.space.decode(i, a.Cells, a.Orient)
			}
			if sp.IsGoal(a) {
				return moves
			}
		} else if v == 0 {
			return moves
		}
		blank := b.moves.blankOf(a)
		found := false
		for m := range sp.Moves {
			var j uint64
			if states {
				if !b.moves.apply(c, a, blank, m, false) {
					continue
				}
				j = b.space.encodeValid(c.Cells, c.Orient)
			} else {
				j, _ = b.forward(i, m, a, c)
			}
			if !b.t.reached(j) {
				continue
			}
			w := b.t.get(j)
			if b.t.twoBit && w == (v+2)%3 || !b.t.twoBit && w+sp.Moves[m].Cost == v {
				moves = append(moves, m)
				i, found = j, true
				a, c = c, a
				break
			}
		}
		if !found {
			panic("engine: a table state with no move closer to the goal")
		}
	}
}

func (b *tableBackend) distance(_ context.Context, st State) (int, error) {
	i, ok := b.index(st)
	if !ok {
		return 0, ErrUnsolvable
	}
	if !b.t.twoBit {
		return b.t.get(i), nil
	}
	return len(b.descend(i)), nil
}

func (b *tableBackend) atMost(_ context.Context, st State, limit int) (bool, error) {
	d, err := b.distance(context.Background(), st)
	if err == ErrUnsolvable {
		return false, nil
	}
	return d <= limit, err
}

func (b *tableBackend) solve(_ context.Context, st State, _ bool) ([]int, error) {
	i, ok := b.index(st)
	if !ok {
		return nil, ErrUnsolvable
	}
	return b.descend(i), nil
}

func (b *tableBackend) state(i uint64) State {
	st := b.sp.scratch()
	b.space.decode(i, st.Cells, st.Orient)
	return st
}

func (b *tableBackend) reachedCount() uint64 {
	var n uint64
	for _, c := range b.t.layers {
		n += c
	}
	return n
}

func (b *tableBackend) random(r *rand.Rand) (State, error) {
	n := b.space.size
	if reached := b.reachedCount(); reached*1000 >= n {
		for {
			if i := r.Uint64N(n); b.t.reached(i) {
				return b.state(i), nil
			}
		}
	}
	k := r.Uint64N(b.reachedCount())
	for i := range n {
		if b.t.reached(i) {
			if k == 0 {
				return b.state(i), nil
			}
			k--
		}
	}
	panic("engine: fewer reached states than counted")
}

// nth returns the index of the k-th state at distance d, in index order
// (byte tables only).
func (b *tableBackend) nth(d int, k uint64) uint64 {
	data := b.t.data
	for i := 0; ; i++ {
		j := bytes.IndexByte(data[i:], byte(d))
		if j < 0 {
			panic("engine: fewer states at a distance than counted")
		}
		i += j
		if k == 0 {
			return uint64(i)
		}
		k--
	}
}

func (b *tableBackend) atDistance(_ context.Context, r *rand.Rand, d int) (State, bool, error) {
	if d >= len(b.t.layers) || b.t.layers[d] == 0 {
		return State{}, false, nil
	}
	if !b.t.twoBit {
		return b.state(b.nth(d, r.Uint64N(b.t.layers[d]))), true, nil
	}
	// Two bits tell a distance only modulo 3: draw states and measure
	// them, trying long enough to find a layer of one in a thousand.
	for range 1 << 14 {
		i := r.Uint64N(b.space.size)
		if b.t.reached(i) && len(b.descend(i)) == d {
			return b.state(i), true, nil
		}
	}
	return State{}, false, nil
}

func (b *tableBackend) deepest(_ context.Context, r *rand.Rand) (State, int, error) {
	d := b.t.maxDepth()
	st, ok, err := b.atDistance(context.Background(), r, d)
	if !ok && err == nil {
		// A two-bit table's last layer can be too thin to draw from:
		// scan for it, descending from the states of its residue.
		for i := range b.space.size {
			if b.t.get(i) == d%3 && len(b.descend(i)) == d {
				return b.state(i), d, nil
			}
		}
	}
	return st, d, err
}

func (b *tableBackend) all() (iter.Seq[State], bool) {
	return func(yield func(State) bool) {
		for i := range b.space.size {
			if b.t.reached(i) && !yield(b.state(i)) {
				return
			}
		}
	}, true
}

func (b *tableBackend) distribution() ([]uint64, bool) {
	return append([]uint64(nil), b.t.layers...), true
}
