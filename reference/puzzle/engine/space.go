package engine

import (
	"math/big"
	"math/bits"
)

// space is the dense index of a puzzle's states, 0 to size-1, for its
// distance table. Cells that no move touches are left out (a state must
// hold there what the goal holds). For a puzzle whose moves only move
// symbols around, the movable cells fall into orbits (cells that moves
// carry into each other), each holding a fixed multiset of symbols; an
// orbit's symbols are ranked as a permutation of that multiset, and its
// orientations as base-k digits, the last left out where every move keeps
// the orbit's orientations' sum modulo k. The index is the permutation
// coordinate times the orientation count plus the orientation coordinate.
// For a puzzle whose moves add, every movable cell is a base-Symbols digit.
type space struct {
	sp       *Spec
	orbits   []orbit
	fixed    []int   // cells no move touches
	fixedAt  []uint8 // what the goal holds there
	additive bool    // the cells are digits (moves add)

	permSize, oriSize, size uint64
	fast                    *orbit   // the one orbit of a space without fixed cells or orientations, of distinct symbols
	oriCells                []int    // the cells whose orientation is a digit, in order
	oriBase                 []uint64 // the base of each of those digits: its cell's orientations
	oriSums                 []oriSum
}

// orbit is a set of cells that moves carry into each other.
type orbit struct {
	cells    []int
	counts   []int // per symbol, how many of its cells hold it
	distinct bool  // every count is 0 or 1
	size     uint64
	fact     []uint64 // fact[i] = i!, for distinct orbits
	syms     []uint8  // the symbols it holds, ascending
	// even: every move permutes the orbit's cells evenly and its symbols
	// are distinct, so every state keeps the goal's parity (goalParity)
	// and only the n!/2 arrangements of that parity are indexed, as
	// twsearch does (its pparity): rank/2 of the Lehmer code, the two
	// arrangements differing in their last two cells sharing an index.
	even       bool
	goalParity int
	cnt        []int  // how many of each of syms
	mask       uint64 // syms as a bit mask (those below 64)
}

// oriSum is an orbit whose orientations keep their sum: the orientation
// of its last cell is not a digit but what makes the sum right.
type oriSum struct {
	cells []int // the orbit's cells, the last derived
	sum   int   // the sum modulo mod of the goal's orientations: 0
	mod   int   // the orbit's orientations
}

// newSpace builds the index of sp's states; goal is a goal state, which
// gives the symbols of the fixed cells and of each orbit. It returns nil
// when the number of states (exact, as a big number in size) exceeds max.
func newSpace(sp *Spec, goal []uint8, max uint64) (*space, *big.Int) {
	s := &space{sp: sp, additive: sp.Counts == nil}
	orbitOf := cellOrbits(sp)
	if s.additive {
		for c := range orbitOf {
			orbitOf[c] = 0
		}
	}
	byRoot := map[int]int{}
	for c := range sp.Cells {
		r := orbitOf[c]
		if r < 0 {
			s.fixed = append(s.fixed, c)
			s.fixedAt = append(s.fixedAt, goal[c])
			continue
		}
		i, ok := byRoot[r]
		if !ok {
			i = len(s.orbits)
			byRoot[r] = i
			s.orbits = append(s.orbits, orbit{counts: make([]int, sp.Symbols)})
		}
		o := &s.orbits[i]
		o.cells = append(o.cells, c)
		o.counts[goal[c]]++
	}
	total := big.NewInt(1)
	perm := big.NewInt(1)
	for i := range s.orbits {
		o := &s.orbits[i]
		n := o.size0(s.additive, sp.Symbols)
		if o.fact != nil && sp.Symbols <= 64 && len(o.cells) >= 2 && evenOnOrbit(sp, o.cells) {
			o.even = true
			n.Div(n, big.NewInt(2))
		}
		perm.Mul(perm, n)
	}
	ori := big.NewInt(1)
	if sp.Orient >= 2 {
		s.orientations()
		for _, k := range s.oriBase {
			ori.Mul(ori, new(big.Int).SetUint64(k))
		}
	}
	total.Mul(perm, ori)
	if !total.IsUint64() || total.Uint64() > max || total.Uint64() >= 1<<40 {
		return nil, total
	}
	s.permSize, s.oriSize, s.size = perm.Uint64(), ori.Uint64(), total.Uint64()
	for i := range s.orbits {
		o := &s.orbits[i]
		even := o.even
		o.size = o.size0(s.additive, sp.Symbols).Uint64()
		o.even = even
		o.prepare()
		if len(o.syms) > 64 {
			return nil, total // rankMultiset's buffer
		}
		if o.even {
			o.size /= 2
			o.even = false
			r, _ := o.rankDistinct(goal)
			o.goalParity = lehmerParity(o, r)
			o.even = true
		}
	}
	if len(s.orbits) == 1 && len(s.fixed) == 0 && sp.Orient < 2 && !s.additive && s.orbits[0].fact != nil && !s.orbits[0].even && sp.Symbols <= 64 {
		s.fast = &s.orbits[0]
	}
	return s, total
}

// evenOnOrbit reports whether every move permutes cells, an orbit's
// cells, evenly (and none slides).
func evenOnOrbit(sp *Spec, cells []int) bool {
	for _, m := range sp.Moves {
		if m.Slide != SlideNone {
			return false
		}
		if m.Perm == nil {
			continue
		}
		seen := map[int]bool{}
		odd := 0
		for _, c := range cells {
			if seen[c] {
				continue
			}
			n := 0
			for j := c; !seen[j]; j = m.Perm[j] {
				seen[j] = true
				n++
			}
			odd += n - 1
		}
		if odd%2 != 0 {
			return false
		}
	}
	return true
}

// lehmerParity is the parity of the arrangement of Lehmer rank r: the sum
// of its digits modulo 2.
func lehmerParity(o *orbit, r uint64) int {
	p := 0
	n := len(o.cells)
	for i := range n {
		f := o.fact[n-1-i]
		p += int(r / f)
		r %= f
	}
	return p % 2
}

// size0 is the number of arrangements of an orbit, as a big number.
func (o *orbit) size0(additive bool, symbols int) *big.Int {
	n := len(o.cells)
	if additive {
		return new(big.Int).Exp(big.NewInt(int64(symbols)), big.NewInt(int64(n)), nil)
	}
	r := new(big.Int).MulRange(1, int64(n))
	if n == 0 {
		r.SetInt64(1)
	}
	o.distinct = true
	for _, c := range o.counts {
		if c > 1 {
			o.distinct = false
			r.Div(r, new(big.Int).MulRange(1, int64(c)))
		}
	}
	if o.distinct && n <= 20 {
		o.fact = make([]uint64, n+1)
		o.fact[0] = 1
		for i := 1; i <= n; i++ {
			o.fact[i] = o.fact[i-1] * uint64(i)
		}
	}
	return r
}

// orientations finds, per orbit, whether every move keeps the sum of its
// orientations, and lists the cells whose orientation is a digit.
func (s *space) orientations() {
	sp := s.sp
	for _, o := range s.orbits {
		k := sp.Mod(o.cells[0])
		if k < 2 {
			continue
		}
		keeps := true
		for _, m := range sp.Moves {
			if m.Slide != SlideNone {
				keeps = false
				break
			}
			sum := 0
			for _, c := range o.cells {
				if m.Twist != nil {
					sum += m.Twist[c]
				}
			}
			if sum%k != 0 {
				keeps = false
				break
			}
		}
		digits := o.cells
		if keeps {
			digits = o.cells[:len(o.cells)-1]
			s.oriSums = append(s.oriSums, oriSum{cells: o.cells, mod: k})
		}
		for _, c := range digits {
			s.oriCells = append(s.oriCells, c)
			s.oriBase = append(s.oriBase, uint64(k))
		}
	}
}

// cellOrbits returns, per cell, a representative of its orbit, or -1 for a
// cell no move touches. Slides make the whole grid one orbit; an addition
// touches its cells on their own.
func cellOrbits(sp *Spec) []int {
	parent := make([]int, sp.Cells)
	for i := range parent {
		parent[i] = i
	}
	var find func(int) int
	find = func(i int) int {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	touched := make([]bool, sp.Cells)
	for _, m := range sp.Moves {
		switch {
		case m.Slide != SlideNone:
			for c := range sp.Cells {
				touched[c] = true
				parent[find(c)] = find(0)
			}
		default:
			for i := range sp.Cells {
				if m.Perm != nil && m.Perm[i] != i {
					touched[i], touched[m.Perm[i]] = true, true
					parent[find(i)] = find(m.Perm[i])
				}
				if m.Twist != nil && m.Twist[i] != 0 || m.Add != nil && m.Add[i] != 0 {
					touched[i] = true
				}
			}
		}
	}
	out := make([]int, sp.Cells)
	for c := range out {
		out[c] = -1
		if touched[c] {
			out[c] = find(c)
		}
	}
	return out
}

// encode returns the index of a state, false when it is not in the space:
// a fixed cell differs from the goal, an orbit holds other symbols, or the
// orientations' sums are wrong.
func (s *space) encode(cells, orient []uint8) (uint64, bool) {
	p, ok := s.encodePerm(cells, orient)
	if !ok {
		return 0, false
	}
	if s.sp.Orient < 2 {
		return p, true
	}
	o, ok := s.encodeOri(orient)
	return p*s.oriSize + o, ok
}

// encodeValid is encode for a state known to be in the space (one the
// engine made from such a state by moves): nothing is checked.
func (s *space) encodeValid(cells, orient []uint8) uint64 {
	if s.fast != nil {
		return s.fast.rankValid(cells)
	}
	i, _ := s.encode(cells, orient)
	return i
}

// encodePerm is the permutation coordinate: the fixed cells checked and
// the orbits ranked.
func (s *space) encodePerm(cells, orient []uint8) (uint64, bool) {
	for i, c := range s.fixed {
		if cells[c] != s.fixedAt[i] || orient != nil && orient[c] != 0 {
			return 0, false
		}
	}
	var p uint64
	for i := range s.orbits {
		o := &s.orbits[i]
		r, ok := s.rankOrbit(o, cells)
		if !ok {
			return 0, false
		}
		p = p*o.size + r
	}
	return p, true
}

// encodeOri is the orientation coordinate.
func (s *space) encodeOri(orient []uint8) (uint64, bool) {
	for _, os := range s.oriSums {
		sum := 0
		for _, c := range os.cells {
			sum += int(orient[c])
		}
		if sum%os.mod != os.sum {
			return 0, false
		}
	}
	var o uint64
	for j, c := range s.oriCells {
		o = o*s.oriBase[j] + uint64(orient[c])
	}
	return o, true
}

// decode writes the state of index i into cells and orient (which may be
// nil for a puzzle without orientations).
func (s *space) decode(i uint64, cells, orient []uint8) {
	p := i
	if s.sp.Orient >= 2 {
		p = i / s.oriSize
		s.decodeOri(i%s.oriSize, orient)
	}
	s.decodePerm(p, cells, orient)
}

func (s *space) decodePerm(p uint64, cells, orient []uint8) {
	for j, c := range s.fixed {
		cells[c] = s.fixedAt[j]
		if orient != nil {
			orient[c] = 0
		}
	}
	for j := len(s.orbits) - 1; j >= 0; j-- {
		ob := &s.orbits[j]
		s.unrankOrbit(ob, p%ob.size, cells)
		p /= ob.size
	}
}

func (s *space) decodeOri(o uint64, orient []uint8) {
	for j := len(s.oriCells) - 1; j >= 0; j-- {
		k := s.oriBase[j]
		orient[s.oriCells[j]] = uint8(o % k)
		o /= k
	}
	for _, os := range s.oriSums {
		sum := 0
		last := os.cells[len(os.cells)-1]
		orient[last] = 0
		for _, c := range os.cells {
			sum += int(orient[c])
		}
		orient[last] = uint8(((os.sum-sum)%os.mod + os.mod) % os.mod)
	}
}

// rankOrbit ranks an orbit's symbols: as base-Symbols digits for an
// additive puzzle, else as a permutation of the orbit's multiset (false if
// the cells hold another multiset).
func (s *space) rankOrbit(o *orbit, cells []uint8) (uint64, bool) {
	if s.additive {
		var r uint64
		for _, c := range o.cells {
			r = r*uint64(s.sp.Symbols) + uint64(cells[c])
		}
		return r, true
	}
	if o.fact != nil && s.sp.Symbols <= 64 {
		return o.rankDistinct(cells)
	}
	return o.rankMultiset(cells)
}

// prepare sets the orbit's symbol list and mask.
func (o *orbit) prepare() {
	o.syms, o.cnt, o.mask = nil, nil, 0
	for v, c := range o.counts {
		if c > 0 {
			o.syms = append(o.syms, uint8(v))
			o.cnt = append(o.cnt, c)
			if v < 64 {
				o.mask |= 1 << v
			}
		}
	}
}

// rankDistinct is the Lehmer code of an orbit of distinct symbols: the
// i-th symbol counts the orbit's unused symbols below it, times (n-1-i)!.
func (o *orbit) rankDistinct(cells []uint8) (uint64, bool) {
	var used, r uint64
	n := len(o.cells)
	parity := 0
	for i, c := range o.cells {
		v := cells[c]
		if v >= 64 || o.mask&(1<<v) == 0 || used&(1<<v) != 0 {
			return 0, false
		}
		below := bits.OnesCount64(^used & (1<<v - 1) & o.mask)
		parity += below
		r += uint64(below) * o.fact[n-1-i]
		used |= 1 << v
	}
	if o.even {
		if parity%2 != o.goalParity {
			return 0, false
		}
		return r / 2, true
	}
	return r, true
}

// rankValid is rankDistinct for the cells of a valid state of a space
// whose one orbit is every cell: no checks, and the last cell adds 0.
func (o *orbit) rankValid(cells []uint8) uint64 {
	var used, r uint64
	n := len(cells)
	for i, v := range cells[:n-1] {
		r += uint64(bits.OnesCount64(^used&(1<<v-1)&o.mask)) * o.fact[n-1-i]
		used |= 1 << v
	}
	return r
}

// rankMultiset ranks a permutation of a multiset: at each cell, the
// arrangements that would put a smaller symbol there come first.
func (o *orbit) rankMultiset(cells []uint8) (uint64, bool) {
	var buf [64]int
	rem := append(buf[:0], o.cnt...)
	n := len(o.cells)
	m := o.size // arrangements of what is left
	var r uint64
	for i, c := range o.cells {
		v := cells[c]
		left := uint64(n - i)
		k := 0
		for k < len(o.syms) && o.syms[k] < v {
			if rem[k] > 0 {
				r += m * uint64(rem[k]) / left
			}
			k++
		}
		if k == len(o.syms) || o.syms[k] != v || rem[k] == 0 {
			return 0, false
		}
		m = m * uint64(rem[k]) / left
		rem[k]--
	}
	return r, true
}

func (s *space) unrankOrbit(o *orbit, r uint64, cells []uint8) {
	if s.additive {
		k := uint64(s.sp.Symbols)
		for j := len(o.cells) - 1; j >= 0; j-- {
			cells[o.cells[j]] = uint8(r % k)
			r /= k
		}
		return
	}
	if o.fact != nil && s.sp.Symbols <= 64 {
		o.unrankDistinct(r, cells)
		return
	}
	var buf [64]int
	rem := append(buf[:0], o.cnt...)
	n := len(o.cells)
	m := o.size
	for i, c := range o.cells {
		left := uint64(n - i)
		for k := range rem {
			if rem[k] == 0 {
				continue
			}
			block := m * uint64(rem[k]) / left
			if r < block {
				cells[c] = o.syms[k]
				m = block
				rem[k]--
				break
			}
			r -= block
		}
	}
}

// unrankDistinct is the inverse of rankDistinct.
func (o *orbit) unrankDistinct(r uint64, cells []uint8) {
	if o.even {
		// Of the pair 2r, 2r+1 (which differ in their last two cells),
		// the one of the goal's parity.
		r *= 2
		if lehmerParity(o, r) != o.goalParity {
			r++
		}
	}
	free := o.mask
	n := len(o.cells)
	for i, c := range o.cells {
		f := o.fact[n-1-i]
		k := int(r / f)
		r %= f
		// The k-th set bit of free.
		x := free
		for range k {
			x &= x - 1
		}
		v := bits.TrailingZeros64(x)
		cells[c] = uint8(v)
		free &^= 1 << v
	}
}
