package engine

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"math/big"
	"math/bits"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
)

// orbitSearch is the search of a twisty puzzle too large for a table (the
// 3x3x3: corners twisting modulo 3, edges flipping modulo 2): iterative
// deepening A* over canonical sequences whose heuristic is the largest of
// pattern databases, each over a few pieces of one set of cells (an
// orbit: the cells the moves carry into each other), their cells and
// orientations, the other pieces forgotten. Corners whole (8! x 3^7 =
// 88,179,840 entries), edges in groups of 6 or 7, as Korf's solver of
// 1997; the groups grow while the tables fit Options.MaxMemory, four bits
// an entry. A state is one byte a piece, its cell and orientation, and a
// move one table lookup a piece.
//
// The iterations of the larger bounds split the first two moves among
// Options.Threads goroutines; the answer is the first solution in the
// order of those prefixes, each searched in declared order, so that it is
// still the lexicographically smallest optimal one.
type orbitSearch struct {
	sp      *Spec
	opts    Options
	canon   *canon
	orbits  []pieceOrbit
	pieces  int       // pieces that move, over all orbits
	pieceOf []int     // symbol -> piece, -1 for a symbol that no move moves
	fwd     [][]uint8 // fwd[m][code]: the code of a piece after move m
	lcell   []uint8   // code -> cell within its orbit
	lori    []uint8   // code -> orientation
	goal    []uint8   // the codes of the goal, per piece
	dbs     []*orbitPattern
	threads int
}

// pieceOrbit is a set of cells that the moves carry into each other, with
// the pieces solved there.
type pieceOrbit struct {
	cells   []int // the cells, in the Spec's order
	mod     int   // orientations of its pieces (1 for none)
	first   int   // its first piece
	off     int   // its first code: a piece's code is off + cell*mod + orientation
	sumKept bool  // every move keeps the sum of its orientations
}

// orbitPattern is one pattern database: the distance, over the kept
// pieces of one orbit (their cells and orientations), four bits an entry
// (15 for 15 or more).
type orbitPattern struct {
	orbit  int
	pieces []int // kept pieces, by place in the orbit
	n, mod int
	kd     int      // orientation digits indexed (the last is implied when the orbit is whole and keeps its sum)
	mult   []uint64 // mult[i]: the arrangements of the pieces after i
	perms  uint64   // P(n, k)
	oris   uint64   // mod^kd
	size   uint64
	data   []byte
}

// DefaultMaxMemory is the default budget of the pruning tables of a
// search: 256 MiB.
const DefaultMaxMemory = 256 << 20

// minPatternPieces is how many pieces of each orbit (or all, where fewer)
// the smallest useful pattern databases keep; a budget that cannot hold
// them refuses the definition.
const minPatternPieces = 4

// orbitSearchable reports whether the orbit search applies: moves that
// permute and twist, of cost 1, one goal state whose moving pieces are all
// different, pieces with orientations.
func orbitSearchable(sp *Spec, k kind) bool {
	if k.adds || k.slides || sp.Orient < 2 || len(sp.Goal.States) != 1 || !sp.unitCost() || sp.Counts == nil {
		return false
	}
	moved := cellOrbits(sp)
	for c, v := range sp.Goal.States[0] {
		if moved[c] >= 0 && sp.Counts[v] != 1 {
			return false
		}
	}
	return true
}

func newOrbitSearch(sp *Spec, opts Options) (*orbitSearch, error) {
	o := &orbitSearch{sp: sp, opts: opts, canon: newCanon(sp), threads: opts.Threads}
	if o.threads <= 0 {
		o.threads = runtime.GOMAXPROCS(0)
	}
	goal := sp.Goal.States[0]
	ids := cellOrbits(sp)
	byID := map[int]int{}
	o.pieceOf = make([]int, sp.Symbols)
	for v := range o.pieceOf {
		o.pieceOf[v] = -1
	}
	codes := 0
	for c, id := range ids {
		if id < 0 {
			continue
		}
		r, ok := byID[id]
		if !ok {
			r = len(o.orbits)
			byID[id] = r
			o.orbits = append(o.orbits, pieceOrbit{mod: sp.Mod(c)})
		}
		o.orbits[r].cells = append(o.orbits[r].cells, c)
	}
	for r := range o.orbits {
		ob := &o.orbits[r]
		if len(ob.cells) > 64 {
			return nil, fmt.Errorf("a set of %d cells that the moves mix, more than the search's 64", len(ob.cells))
		}
		ob.first, ob.off = o.pieces, codes
		o.pieces += len(ob.cells)
		codes += len(ob.cells) * ob.mod
		for _, c := range ob.cells {
			o.pieceOf[goal[c]] = len(o.goal)
			o.goal = append(o.goal, uint8(ob.off+(len(o.goal)-ob.first)*ob.mod))
		}
	}
	if codes > 256 {
		return nil, fmt.Errorf("%d places of pieces (cells times orientations), more than the search's 256", codes)
	}
	o.lcell, o.lori = make([]uint8, codes), make([]uint8, codes)
	for _, ob := range o.orbits {
		for j := range ob.cells {
			for t := range ob.mod {
				o.lcell[ob.off+j*ob.mod+t], o.lori[ob.off+j*ob.mod+t] = uint8(j), uint8(t)
			}
		}
	}
	for i := range sp.Moves {
		o.fwd = append(o.fwd, o.codeTable(&sp.Moves[i]))
	}
	for r := range o.orbits {
		o.orbits[r].sumKept = o.keepsSum(r)
	}
	if err := o.choosePatterns(o.budget()); err != nil {
		return nil, err
	}
	return o, nil
}

// budget is the memory the tables may take: the option, else the Spec's,
// else the default.
func (o *orbitSearch) budget() uint64 {
	switch {
	case o.opts.MaxMemory > 0:
		return o.opts.MaxMemory
	case o.sp.Memory > 0:
		return o.sp.Memory
	}
	return DefaultMaxMemory
}

// codeTable is what move m does to a piece's code: the piece in cell j
// goes to the cell i with Perm[i] == j and gains Twist[i].
func (o *orbitSearch) codeTable(m *Move) []uint8 {
	t := make([]uint8, len(o.lcell))
	local := make(map[int]int)
	for _, ob := range o.orbits {
		for j, c := range ob.cells {
			local[c] = j
		}
	}
	for _, ob := range o.orbits {
		for _, i := range ob.cells {
			j := i
			if m.Perm != nil {
				j = m.Perm[i]
			}
			tw := 0
			if m.Twist != nil {
				tw = m.Twist[i]
			}
			for ori := range ob.mod {
				t[ob.off+local[j]*ob.mod+ori] = uint8(ob.off + local[i]*ob.mod + (ori+tw)%ob.mod)
			}
		}
	}
	return t
}

// keepsSum reports whether every move keeps the sum of orbit r's
// orientations.
func (o *orbitSearch) keepsSum(r int) bool {
	ob := o.orbits[r]
	for _, m := range o.sp.Moves {
		if m.Twist == nil {
			continue
		}
		s := 0
		for _, c := range ob.cells {
			s += m.Twist[c]
		}
		if s%ob.mod != 0 {
			return false
		}
	}
	return true
}

// patternBytes is the size of the databases of orbit r with groups of k
// pieces, and the number of groups.
func (o *orbitSearch) patternBytes(r, k int) (uint64, int) {
	ob := o.orbits[r]
	n := len(ob.cells)
	groups := (n + k - 1) / k
	size := newOrbitPattern(r, ob, make([]int, k)).size
	return uint64(groups) * ((size + 1) / 2), groups
}

// choosePatterns gives each orbit its groups: starting from none, the
// orbit whose databases would grow the least gets one more piece a group,
// while the total fits the budget. It fails, with the sizes, when the
// budget cannot hold groups of minPatternPieces pieces.
func (o *orbitSearch) choosePatterns(budget uint64) error {
	ks := make([]int, len(o.orbits))
	cost := make([]uint64, len(o.orbits))
	total := uint64(0)
	for {
		best, bestCost := -1, uint64(0)
		for r, ob := range o.orbits {
			if ks[r] == len(ob.cells) {
				continue
			}
			c, _ := o.patternBytes(r, ks[r]+1)
			if total-cost[r]+c <= budget && (best < 0 || c < bestCost) {
				best, bestCost = r, c
			}
		}
		if best < 0 {
			break
		}
		total += bestCost - cost[best]
		ks[best]++
		cost[best] = bestCost
	}
	var need uint64
	var parts []string
	short := false
	for r, ob := range o.orbits {
		k := min(len(ob.cells), minPatternPieces)
		c, _ := o.patternBytes(r, k)
		need += c
		parts = append(parts, fmt.Sprintf("%d of %d pieces (cells %d...): %s bytes", k, len(ob.cells), ob.cells[0], commas(new(big.Int).SetUint64(c))))
		if ks[r] < k {
			short = true
		}
	}
	if short {
		return fmt.Errorf("an optimal answer needs pruning tables of at least %s bytes (groups of %s), more than the memory budget of %s bytes",
			commas(new(big.Int).SetUint64(need)), strings.Join(parts, "; "), commas(new(big.Int).SetUint64(budget)))
	}
	for r, ob := range o.orbits {
		n, k := len(ob.cells), ks[r]
		_, groups := o.patternBytes(r, k)
		for g := range groups {
			start := min(g*k, n-k)
			pieces := make([]int, k)
			for j := range pieces {
				pieces[j] = start + j
			}
			o.dbs = append(o.dbs, newOrbitPattern(r, ob, pieces))
		}
	}
	return nil
}

func newOrbitPattern(r int, ob pieceOrbit, pieces []int) *orbitPattern {
	n, k := len(ob.cells), len(pieces)
	p := &orbitPattern{orbit: r, pieces: pieces, n: n, mod: ob.mod, kd: k}
	if k == n && ob.sumKept && k > 0 {
		p.kd = k - 1
	}
	p.mult = make([]uint64, k)
	p.perms = 1
	for i := k - 1; i >= 0; i-- {
		p.mult[i] = p.perms
		p.perms *= uint64(n - i)
	}
	p.oris = 1
	for range p.kd {
		p.oris *= uint64(ob.mod)
	}
	p.size = p.perms * p.oris
	return p
}

func (o *orbitSearch) describe() string {
	var parts []string
	total := uint64(0)
	for _, p := range o.dbs {
		ob := o.orbits[p.orbit]
		parts = append(parts, fmt.Sprintf("%d of %d pieces (%s entries)", len(p.pieces), len(ob.cells), commas(new(big.Int).SetUint64(p.size))))
		total += (p.size + 1) / 2
	}
	return fmt.Sprintf("pattern databases of sets of pieces: %s, %s bytes, %d threads",
		strings.Join(parts, ", "), commas(new(big.Int).SetUint64(total)), o.threads)
}

// permRank ranks the cells of the kept pieces.
func (p *orbitPattern) permRank(cells []uint8) uint64 {
	var used uint64
	var r uint64
	for i, c := range cells {
		r += freeBelow(used, c) * p.mult[i]
		used |= 1 << c
	}
	return r
}

func (p *orbitPattern) permUnrank(r uint64, cells []uint8) {
	var used uint64
	for j := range cells {
		c := nthFree(used, int(r/p.mult[j]))
		r %= p.mult[j]
		cells[j] = uint8(c)
		used |= 1 << c
	}
}

func (p *orbitPattern) oriRank(oris []uint8) uint64 {
	var v uint64
	for _, x := range oris[:p.kd] {
		v = v*uint64(p.mod) + uint64(x)
	}
	return v
}

// index is the entry of a state given as codes.
func (o *orbitSearch) index(p *orbitPattern, codes []uint8) uint64 {
	first := o.orbits[p.orbit].first
	var used, r, v uint64
	for i, piece := range p.pieces {
		code := codes[first+piece]
		c := o.lcell[code]
		r += uint64(bits.OnesCount64(^used&(uint64(1)<<c-1))) * p.mult[i]
		used |= 1 << c
		if i < p.kd {
			v = v*uint64(p.mod) + uint64(o.lori[code])
		}
	}
	return r*p.oris + v
}

func (p *orbitPattern) get(i uint64) int { return int(p.data[i>>1] >> ((i & 1) * 4) & 15) }

// estimate is the largest of the databases' distances.
func (o *orbitSearch) estimateCodes(codes []uint8) int {
	h := 0
	for _, p := range o.dbs {
		if d := p.get(o.index(p, codes)); d > h {
			h = d
		}
	}
	return h
}

// codes turns a state into one code a piece.
func (o *orbitSearch) codes(cells, orient []uint8, out []uint8) {
	for _, ob := range o.orbits {
		for j, c := range ob.cells {
			ori := 0
			if orient != nil {
				ori = int(orient[c])
			}
			p := o.pieceOf[cells[c]]
			out[p] = uint8(ob.off + j*ob.mod + ori)
		}
	}
}

// estimate makes orbitSearch a heuristic of the generic search.
func (o *orbitSearch) estimate(cells, orient []uint8) int {
	codes := make([]uint8, o.pieces)
	o.codes(cells, orient, codes)
	return o.estimateCodes(codes)
}

func (o *orbitSearch) prepare() error {
	inv := o.sp.inverses()
	var back [][]uint8
	for i := range inv {
		back = append(back, o.codeTable(&inv[i]))
	}
	for _, p := range o.dbs {
		key := cacheKey(o.sp.Key(), fmt.Sprintf("orbit pattern %d %v %d nibbles", p.orbit, p.pieces, p.size))
		if blob, ok := loadBlob(o.opts.CacheDir, key); ok && uint64(len(blob)) == (p.size+1)/2 {
			p.data = blob
			continue
		}
		p.data = o.build(p, back, bottomUpFrom)
		storeBlob(o.opts.CacheDir, key, p.data)
	}
	return nil
}

// build is a breadth-first search from the goal backwards (over the
// moves' inverses), block by block of the cells' rank as bfsBlocks does:
// the pieces of one block sit in the same cells, so that a move takes the
// whole block to one other block and adds the same twist to each piece.
// The table is of bytes while it is built, then packed to four bits.
//
// Once a layer holds more entries than remain unseen (times bottomUp, a
// test's knob), the next layer is found the other way, as twsearch's
// god.cpp does: each unseen entry looks, by the moves themselves, for
// one at the current distance, and stops at the first.
func (o *orbitSearch) build(p *orbitPattern, back [][]uint8, bottomUp float64) []byte {
	ob := o.orbits[p.orbit]
	k := len(p.pieces)
	P, O := p.perms, p.oris
	t := bytes.Repeat([]byte{unseen8}, int(p.size))
	home := make([]uint8, k)
	for j, piece := range p.pieces {
		home[j] = uint8(piece)
	}
	t[p.permRank(home)*O] = 0
	// add[o*O+v]: the digits of o plus those of v, where the tables are
	// small; the moduli 2 add by exclusive or.
	var add []uint32
	if p.mod > 2 && O <= 1<<12 {
		add = make([]uint32, O*O)
		da, db := make([]uint8, p.kd), make([]uint8, p.kd)
		for a := range O {
			p.digits(a, da)
			for b := range O {
				p.digits(b, db)
				for j := range da {
					db[j] = (da[j] + db[j]) % uint8(p.mod)
				}
				add[a*O+b] = uint32(p.oriRank(db))
			}
			p.digits(a, da)
		}
	}
	da, db := make([]uint8, p.kd), make([]uint8, p.kd)
	sum := func(a, b uint64) uint64 {
		switch {
		case p.mod == 2:
			return a ^ b
		case add != nil:
			return uint64(add[a*O+b])
		}
		p.digits(a, da)
		p.digits(b, db)
		for j := range da {
			db[j] = (da[j] + db[j]) % uint8(p.mod)
		}
		return p.oriRank(db)
	}
	cells, nc, tw := make([]uint8, k), make([]uint8, k), make([]uint8, k)
	var at []uint32
	n, seen := uint64(1), uint64(1)
	rs, vs := make([]uint64, len(o.fwd)), make([]uint64, len(o.fwd))
	for d := byte(0); n > 0 && d < maxDistance8; d++ {
		if float64(n) > bottomUp*float64(p.size-seen) {
			n = 0
			for q := range P {
				block := t[q*O : (q+1)*O]
				if bytes.IndexByte(block, unseen8) < 0 {
					continue
				}
				p.permUnrank(q, cells)
				for m, mt := range o.fwd {
					for j, c := range cells {
						code := mt[ob.off+int(c)*ob.mod]
						nc[j], tw[j] = o.lcell[code], o.lori[code]
					}
					rs[m], vs[m] = p.permRank(nc)*O, p.oriRank(tw)
				}
				for x := range block {
					if block[x] != unseen8 {
						continue
					}
					for m := range rs {
						if t[rs[m]+sum(uint64(x), vs[m])] == d {
							block[x] = d + 1
							n++
							break
						}
					}
				}
			}
			seen += n
			continue
		}
		n = 0
		for q := range P {
			block := t[q*O : (q+1)*O]
			at = indexAll(at[:0], block, d)
			if len(at) == 0 {
				continue
			}
			p.permUnrank(q, cells)
			for _, mt := range back {
				for j, c := range cells {
					code := mt[ob.off+int(c)*ob.mod]
					nc[j], tw[j] = o.lcell[code], o.lori[code]
				}
				dst := t[p.permRank(nc)*O:]
				v := p.oriRank(tw)
				for _, x := range at {
					if j := sum(uint64(x), v); dst[j] == unseen8 {
						dst[j] = d + 1
						n++
					}
				}
			}
		}
		seen += n
	}
	packed := make([]byte, (p.size+1)/2)
	for i, v := range t {
		packed[i>>1] |= min(v, 15) << ((i & 1) * 4)
	}
	return packed
}

// digits writes the orientation digits of rank v.
func (p *orbitPattern) digits(v uint64, out []uint8) {
	for j := p.kd - 1; j >= 0; j-- {
		out[j] = uint8(v % uint64(p.mod))
		v /= uint64(p.mod)
	}
}

// orbitIDA is one goroutine's search.
type orbitIDA struct {
	o      *orbitSearch
	weight int
	states [][]uint8 // per depth
	path   []int
	nodes  uint64
	ctx    context.Context
	err    error
	// In a parallel iteration: the prefix searched, and the smallest
	// prefix known to hold a solution, past which the search stops.
	idx    int64
	best   *atomic.Int64
	behind bool
}

func (x *orbitIDA) level(d int) []uint8 {
	for len(x.states) <= d {
		x.states = append(x.states, make([]uint8, x.o.pieces))
	}
	return x.states[d]
}

func (x *orbitIDA) dfs(d, g, bound int, cs int32) (int, bool) {
	s := x.level(d)
	if x.nodes++; x.nodes%checkEvery == 0 {
		if x.err == nil {
			x.err = x.ctx.Err()
		}
		if x.best != nil && x.best.Load() < x.idx {
			x.behind = true
		}
	}
	if x.err != nil || x.behind {
		return math.MaxInt, false
	}
	// The databases one by one, stopping at the first that prunes: most
	// nodes are pruned, and each lookup is likely a cache miss.
	h := 0
	for _, p := range x.o.dbs {
		d := p.get(x.o.index(p, s))
		if f := g + x.weight*d; f > bound {
			return f, false
		}
		h = max(h, d)
	}
	if h == 0 && bytes.Equal(s, x.o.goal) {
		return g, true
	}
	ns := x.level(d + 1)
	s = x.states[d]
	next := math.MaxInt
	for m, mt := range x.o.fwd {
		ncs := x.o.canon.step(cs, m)
		if ncs < 0 {
			continue
		}
		for i, c := range s {
			ns[i] = mt[c]
		}
		x.path = append(x.path, m)
		t, found := x.dfs(d+1, g+1, bound, ncs)
		if found {
			return t, true
		}
		x.path = x.path[:len(x.path)-1]
		next = min(next, t)
	}
	return next, false
}

// bottomUpFrom is how much larger than the unseen entries a layer must be
// for the next to be found from the unseen ones; a variable so that a test
// can force either way.
var bottomUpFrom = 1.0

// parallelFrom is the bound from which an iteration is split among
// goroutines; below it an iteration is quick.
var parallelFrom = 8

// search is iterative deepening from st up to limit: the moves and true,
// or false when no answer costs at most limit (or the context ended it).
func (o *orbitSearch) search(ctx context.Context, st State, limit, weight int) ([]int, bool, error) {
	start := make([]uint8, o.pieces)
	o.codes(st.Cells, o.sp.full(st).Orient, start)
	bound := weight * o.estimateCodes(start)
	x := &orbitIDA{o: o, weight: weight, ctx: ctx}
	for weight > 1 || bound <= limit {
		var next int
		var moves []int
		var found bool
		if bound < parallelFrom || weight > 1 || o.threads < 2 {
			copy(x.level(0), start)
			x.path = x.path[:0]
			next, found = x.dfs(0, 0, bound, 0)
			moves = x.path
		} else {
			moves, next, found = o.parallel(ctx, start, bound, x)
		}
		if found {
			return append([]int(nil), moves...), true, nil
		}
		if x.err != nil {
			return nil, false, x.err
		}
		if next == math.MaxInt {
			return nil, false, nil
		}
		bound = next
	}
	return nil, false, nil
}

// parallel is one iteration split among goroutines by the first two
// moves, in order. A solution can be no shorter than two moves here: the
// iterations of smaller bounds, or the estimate, ruled them out.
func (o *orbitSearch) parallel(ctx context.Context, start []uint8, bound int, x0 *orbitIDA) ([]int, int, bool) {
	type prefix struct {
		moves [2]int
		cs    int32
	}
	var prefixes []prefix
	for a := range o.fwd {
		ca := o.canon.step(0, a)
		if ca < 0 {
			continue
		}
		for b := range o.fwd {
			if cb := o.canon.step(ca, b); cb >= 0 {
				prefixes = append(prefixes, prefix{[2]int{a, b}, cb})
			}
		}
	}
	var best atomic.Int64
	best.Store(int64(len(prefixes)))
	var take atomic.Int64
	answers := make([][]int, len(prefixes))
	nexts := make([]int, o.threads)
	errs := make([]error, o.threads)
	var wg sync.WaitGroup
	for w := range o.threads {
		wg.Add(1)
		go func() {
			defer wg.Done()
			x := &orbitIDA{o: o, weight: 1, ctx: ctx, best: &best}
			next := math.MaxInt
			for {
				i := take.Add(1) - 1
				if i >= int64(len(prefixes)) || i > best.Load() {
					break
				}
				pf := prefixes[i]
				s := x.level(2)
				copy(s, start)
				tmp := x.level(0)
				for _, m := range pf.moves {
					for j, c := range s {
						tmp[j] = o.fwd[m][c]
					}
					copy(s, tmp)
				}
				x.idx, x.behind = i, false
				x.path = append(x.path[:0], pf.moves[:]...)
				t, found := x.dfs(2, 2, bound, pf.cs)
				if x.err != nil {
					break
				}
				if found {
					answers[i] = append([]int(nil), x.path...)
					for {
						b := best.Load()
						if i >= b || best.CompareAndSwap(b, i) {
							break
						}
					}
					continue
				}
				next = min(next, t)
			}
			nexts[w], errs[w] = next, x.err
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			x0.err = err
			return nil, math.MaxInt, false
		}
	}
	if b := best.Load(); b < int64(len(prefixes)) {
		return answers[b], 0, true
	}
	next := math.MaxInt
	for _, t := range nexts {
		next = min(next, t)
	}
	return nil, next, false
}
