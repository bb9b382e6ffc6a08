package engine

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"math/big"
	"math/bits"
	"math/rand/v2"
	"sort"
	"strings"
	"sync"
)

// subsetBackend solves a goal of cells that hold one symbol, whichever,
// for moves that permute cells: one subset table per symbol count, the
// distance being the least over the symbols that can fill the goal.
type subsetBackend struct {
	sp     *Spec
	opts   Options
	counts []int // the table sizes c in use, ascending
	tables map[int]*subsetTable
	sym    []int // per symbol, its count, or -1 when it cannot fill the goal

	// The symbols that can fill the goal, their index among them (-1 for
	// the others) and their tables.
	fillers []int
	filler  []int
	ftabs   []*subsetTable
	// fast is the one table of at most 8 such symbols, of at most 24
	// cells, for moves that cost 1: the common case, which solveFast
	// serves with arrays on the stack and nothing looked up twice.
	fast *subsetTable

	bucketOnce sync.Once
	buckets    map[int][][]uint64 // per count, the sets at each distance
}

func newSubset(s *Solver) (backend, string, error) {
	sp := s.sp
	if sp.Cells > 64 {
		return nil, "", fmt.Errorf("a goal of cells holding one symbol takes at most 64 cells, not %d", sp.Cells)
	}
	return newSubsetBackend(s)
}

func newSubsetBackend(s *Solver) (backend, string, error) {
	sp := s.sp
	b := &subsetBackend{sp: sp, opts: s.opts, tables: map[int]*subsetTable{}, sym: make([]int, sp.Symbols)}
	var sizes []string
	for v, c := range sp.Counts {
		b.sym[v] = -1
		if c < len(sp.Goal.Same) {
			continue
		}
		b.sym[v] = c
		if _, ok := b.tables[c]; ok {
			continue
		}
		n := subsetSize(sp.Cells, c)
		if !n.IsUint64() || n.Uint64() > s.opts.MaxTable {
			return nil, "", fmt.Errorf("the sets of %d cells out of %d are %s, more than the %s a table may hold, and no pattern database applies to a goal of cells holding one symbol, whichever",
				c, sp.Cells, commas(n), commas(new(big.Int).SetUint64(s.opts.MaxTable)))
		}
		b.tables[c] = nil
		b.counts = append(b.counts, c)
		sizes = append(sizes, commas(n))
	}
	sort.Ints(b.counts)
	desc := fmt.Sprintf("distance tables over the sets of cells of one symbol (%s states)", strings.Join(sizes, ", "))
	return b, desc, nil
}

func (b *subsetBackend) method() Method { return MethodTable }

func (b *subsetBackend) prepare() error {
	sp := b.sp
	inv := sp.inverses()
	costs := make([]int, len(sp.Moves))
	for i, m := range sp.Moves {
		costs[i] = m.Cost
	}
	for _, c := range b.counts {
		t := newSubsetTable(sp.Cells, c, sp.Moves, inv, costs)
		key := cacheKey(sp.Key(), fmt.Sprintf("subset %d %d", sp.Cells, c))
		if p, ok := loadBlob(b.opts.CacheDir, key); ok && t.unmarshal(p) == nil {
			b.tables[c] = t
			continue
		}
		if err := t.build(seedsOf(sp.Cells, c, sp.Goal.Same)); err != nil {
			return err
		}
		if b.opts.CacheDir != "" {
			storeBlob(b.opts.CacheDir, key, t.marshal())
		}
		b.tables[c] = t
	}
	b.filler = make([]int, sp.Symbols)
	for v, c := range b.sym {
		b.filler[v] = -1
		if c >= 0 {
			b.filler[v] = len(b.fillers)
			b.fillers = append(b.fillers, v)
			b.ftabs = append(b.ftabs, b.tables[c])
		}
	}
	if len(b.ftabs) > 0 && len(b.ftabs) <= 8 && b.ftabs[0].rank3 != nil && sp.unitCost() {
		b.fast = b.ftabs[0]
		for _, t := range b.ftabs {
			if t != b.fast {
				b.fast = nil
			}
		}
	}
	return nil
}

// solveFast is solve for one table of sets of at most 24 cells, at most
// 8 symbols that can fill the goal and moves that cost 1.
func (b *subsetBackend) solveFast(st State) ([]int, error) {
	t := b.fast
	r3, dist := t.rank3, t.dist
	n := len(b.fillers)
	var ms, next [8]uint32
	var live, keep [8]bool
	for i, v := range st.Cells {
		if k := b.filler[v]; k >= 0 {
			ms[k&7] |= 1 << i
		}
	}
	left := unseen8
	for k := range n {
		left = min(left, int(dist[rank24(r3, ms[k])]))
	}
	if left == unseen8 {
		return nil, ErrUnsolvable
	}
	for k := range n {
		live[k] = int(dist[rank24(r3, ms[k])]) == left
	}
	moves := make([]int, 0, left)
	for ; left > 0; left-- {
		m := 0
		for ; m < len(t.fwd); m++ {
			fw := t.fwd[m]
			any := false
			for k := range n {
				keep[k] = false
				if live[k] {
					s := ms[k]
					x := uint32(fw[0][uint8(s)] | fw[1][uint8(s>>8)] | fw[2][uint8(s>>16)])
					next[k] = x
					keep[k] = int(dist[rank24(r3, x)]) == left-1
					any = any || keep[k]
				}
			}
			if any {
				break
			}
		}
		if m == len(t.fwd) {
			panic("engine: a subset table state with no move closer to the goal")
		}
		for k := range n {
			if keep[k] {
				ms[k] = next[k]
			}
		}
		live = keep
		moves = append(moves, m)
	}
	return moves, nil
}

// masks returns the set of cells of each symbol.
func (b *subsetBackend) masks(st State) []uint64 {
	ms := make([]uint64, b.sp.Symbols)
	for i, v := range st.Cells {
		ms[v] |= uint64(1) << i
	}
	return ms
}

// dists returns each symbol's distance, 255 for one that cannot fill the
// goal, and the least.
func (b *subsetBackend) dists(ms []uint64) ([]int, int) {
	d := make([]int, len(ms))
	best := unseen8
	for v, s := range ms {
		d[v] = unseen8
		if c := b.sym[v]; c >= 0 {
			d[v] = b.tables[c].distOf(s)
		}
		best = min(best, d[v])
	}
	return d, best
}

func (b *subsetBackend) distance(_ context.Context, st State) (int, error) {
	_, best := b.dists(b.masks(st))
	if best == unseen8 {
		return 0, ErrUnsolvable
	}
	return best, nil
}

func (b *subsetBackend) atMost(_ context.Context, st State, limit int) (bool, error) {
	d, err := b.distance(context.Background(), st)
	if err == ErrUnsolvable {
		return false, nil
	}
	return d <= limit, err
}

// solve builds the smallest optimal answer move by move: the first move
// that brings some symbol still on an optimal path closer, keeping only
// the symbols it brings closer.
func (b *subsetBackend) solve(_ context.Context, st State, _ bool) ([]int, error) {
	if b.fast != nil {
		return b.solveFast(st)
	}
	sp := b.sp
	// The sets of the symbols that can fill the goal, on the stack when
	// they are few.
	n := len(b.fillers)
	var msA, nextA [8]uint64
	var liveA, keepA [8]bool
	ms, next, live, keep := msA[:], nextA[:], liveA[:], keepA[:]
	if n > len(msA) {
		ms, next, live, keep = make([]uint64, n), make([]uint64, n), make([]bool, n), make([]bool, n)
	}
	for i, v := range st.Cells {
		if k := b.filler[v]; k >= 0 {
			ms[k] |= uint64(1) << i
		}
	}
	left := unseen8
	for k := range n {
		left = min(left, b.ftabs[k].distOf(ms[k]))
	}
	if left == unseen8 {
		return nil, ErrUnsolvable
	}
	for k := range n {
		live[k] = b.ftabs[k].distOf(ms[k]) == left
	}
	moves := make([]int, 0, left)
	for left > 0 {
		found := false
		for m := range sp.Moves {
			want := left - sp.Moves[m].Cost
			any := false
			for k := range n {
				keep[k] = false
				if live[k] {
					t := b.ftabs[k]
					next[k] = apply(t.fwd[m], ms[k], t.nb)
					if t.rank3 != nil {
						keep[k] = int(t.dist[rank24(t.rank3, uint32(next[k]))]) == want
					} else {
						keep[k] = t.distOf(next[k]) == want
					}
					any = any || keep[k]
				}
			}
			if any {
				for k := range n {
					if keep[k] {
						ms[k] = next[k]
					}
				}
				live, keep = keep, live
				moves, left, found = append(moves, m), want, true
				break
			}
		}
		if !found {
			panic("engine: a subset table state with no move closer to the goal")
		}
	}
	return moves, nil
}

// fill returns a state whose symbols hold the given masks and the others
// the remaining cells at random.
func (b *subsetBackend) fill(r *rand.Rand, given map[int]uint64) State {
	sp := b.sp
	st := State{Cells: make([]uint8, sp.Cells)}
	if sp.Orient >= 2 {
		st.Orient = make([]uint8, sp.Cells)
	}
	var used uint64
	for v, s := range given {
		used |= s
		for x := s; x != 0; x &= x - 1 {
			st.Cells[bits.TrailingZeros64(uint64(x))] = uint8(v)
		}
	}
	var free []int
	for i := range sp.Cells {
		if used>>i&1 == 0 {
			free = append(free, i)
		}
	}
	r.Shuffle(len(free), func(i, j int) { free[i], free[j] = free[j], free[i] })
	k := 0
	for v, c := range sp.Counts {
		if _, ok := given[v]; ok {
			continue
		}
		for range c {
			st.Cells[free[k]] = uint8(v)
			k++
		}
	}
	return st
}

func (b *subsetBackend) random(r *rand.Rand) (State, error) {
	for range 1 << 16 {
		st := b.fill(r, nil)
		if _, err := b.distance(context.Background(), st); err == nil {
			return st, nil
		}
	}
	return State{}, errors.New("no solvable state among 65,536 random ones")
}

// layerSets returns, per count, the sets at each distance (built once).
func (b *subsetBackend) layerSets() map[int][][]uint64 {
	b.bucketOnce.Do(func() {
		b.buckets = map[int][][]uint64{}
		for c, t := range b.tables {
			layers := make([][]uint64, len(t.layers))
			for i := range t.size {
				if d := t.dist[i]; d != unseen8 {
					layers[d] = append(layers[d], t.unrank(i))
				}
			}
			b.buckets[c] = layers
		}
	})
	return b.buckets
}

// atDistance draws one symbol's set among those at distance d, then sets
// at distance d or more for the other symbols that can fill the goal, and
// the rest at random, until the state's distance is d.
func (b *subsetBackend) atDistance(_ context.Context, r *rand.Rand, d int) (State, bool, error) {
	var fillers []int
	for v, c := range b.sym {
		if c >= 0 {
			fillers = append(fillers, v)
		}
	}
	layers := b.layerSets()
	for range 256 {
		r.Shuffle(len(fillers), func(i, j int) { fillers[i], fillers[j] = fillers[j], fillers[i] })
		first := fillers[0]
		exact := layers[b.sym[first]]
		if d >= len(exact) || len(exact[d]) == 0 {
			continue
		}
		given := map[int]uint64{first: exact[d][r.IntN(len(exact[d]))]}
		used := given[first]
		ok := true
		free := b.sp.Cells - bits.OnesCount64(uint64(used))
		for i, v := range fillers[1:] {
			// The last symbol of a board they fill takes the cells left.
			if i == len(fillers)-2 && free == b.sym[v] && b.fillersFill() {
				given[v] = (uint64(1)<<b.sp.Cells - 1) &^ used
				break
			}
			accept := func(uint64) bool { return true }
			if i == len(fillers)-3 && b.fillersFill() {
				// The last symbol will take the rest: it must be far too.
				lastTab := b.tables[b.sym[fillers[len(fillers)-1]]]
				all := uint64(1)<<b.sp.Cells - 1
				accept = func(s uint64) bool { return lastTab.distOf(all&^(used|s)) >= d }
			}
			s, found := b.farSet(r, layers[b.sym[v]], d, used, accept)
			if !found {
				ok = false
				break
			}
			given[v] = s
			used |= s
			free -= b.sym[v]
		}
		if !ok {
			continue
		}
		st := b.fill(r, given)
		if got, err := b.distance(context.Background(), st); err == nil && got == d {
			return st, true, nil
		}
	}
	return State{}, false, nil
}

// fillersFill reports whether the symbols that can fill the goal fill
// every cell between them.
func (b *subsetBackend) fillersFill() bool {
	n := 0
	for _, c := range b.sym {
		n += max(c, 0)
	}
	return n == b.sp.Cells
}

// farSet picks a set at distance d or more that avoids used: among all of
// them when they are few, else by drawing.
func (b *subsetBackend) farSet(r *rand.Rand, layers [][]uint64, d int, used uint64, accept func(uint64) bool) (uint64, bool) {
	far := 0
	for _, l := range layers[min(d, len(layers)):] {
		far += len(l)
	}
	if far < 1<<17 {
		var fits []uint64
		for _, l := range layers[min(d, len(layers)):] {
			for _, s := range l {
				if s&used == 0 && accept(s) {
					fits = append(fits, s)
				}
			}
		}
		if len(fits) == 0 {
			return 0, false
		}
		return fits[r.IntN(len(fits))], true
	}
	var total int
	for _, l := range layers {
		total += len(l)
	}
	for range 256 {
		// A uniform set among all, kept if it avoids used and is far.
		l := r.IntN(total)
		for dd, layer := range layers {
			if l < len(layer) {
				if s := layer[l]; dd >= d && s&used == 0 && accept(s) {
					return s, true
				}
				break
			}
			l -= len(layer)
		}
	}
	return 0, false
}

func (b *subsetBackend) deepest(_ context.Context, r *rand.Rand) (State, int, error) {
	most := 0
	for _, t := range b.tables {
		most = max(most, len(t.layers)-1)
	}
	for d := most; d >= 0; d-- {
		if st, ok, err := b.atDistance(context.Background(), r, d); ok || err != nil {
			return st, d, err
		}
	}
	return State{}, 0, errors.New("no state found at any distance")
}

func (b *subsetBackend) all() (iter.Seq[State], bool)   { return nil, false }
func (b *subsetBackend) distribution() ([]uint64, bool) { return nil, false }
