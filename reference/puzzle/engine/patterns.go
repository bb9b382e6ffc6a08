package engine

import (
	"fmt"
	"math/big"
	"math/bits"
	"strings"
)

// patterns is the maximum of pattern databases, each the exact distance
// of an abstraction that keeps a few pieces (their cells and
// orientations) and forgets the others: an admissible heuristic for any
// puzzle whose moves permute cells.
type patterns struct {
	sp    *Spec
	opts  Options
	dbs   []*pattern
	inv   []Move
	names []string
}

// pattern is one abstraction: the kept pieces' cells as a partial
// permutation of the cells, times their orientations.
type pattern struct {
	pieces []uint8
	k, o   int      // pieces, orientations
	mult   []uint64 // mult[i]: the arrangements of the pieces after i
	oriN   uint64
	size   uint64
	dist   []byte
}

func newPatterns(sp *Spec, opts Options) (*patterns, error) {
	ps := &patterns{sp: sp, opts: opts, inv: sp.inverses()}
	moved := cellOrbits(sp)
	var pieces []uint8
	for c, v := range sp.Goal.States[0] {
		if moved[c] >= 0 && sp.Counts[v] == 1 {
			pieces = append(pieces, v)
		}
	}
	if len(pieces) == 0 {
		return nil, fmt.Errorf("no piece moves")
	}
	o := max(sp.Orient, 1)
	k := 0
	for k < len(pieces) && patternSize(sp.Cells, k+1, o).Cmp(new(big.Int).SetUint64(opts.MaxPattern)) <= 0 {
		k++
	}
	if k == 0 {
		return nil, fmt.Errorf("a pattern database of one piece would have %s entries, more than %d", commas(patternSize(sp.Cells, 1, o)), opts.MaxPattern)
	}
	// Pieces in goal order, in groups of k.
	for i := 0; i < len(pieces); i += k {
		group := pieces[i:min(i+k, len(pieces))]
		ps.dbs = append(ps.dbs, newPattern(sp.Cells, group, o))
	}
	return ps, nil
}

// patternSize is P(n, k) * o^k.
func patternSize(n, k, o int) *big.Int {
	p := new(big.Int).MulRange(int64(n-k+1), int64(n))
	if k == 0 {
		p.SetInt64(1)
	}
	return p.Mul(p, new(big.Int).Exp(big.NewInt(int64(o)), big.NewInt(int64(k)), nil))
}

func newPattern(n int, pieces []uint8, o int) *pattern {
	p := &pattern{pieces: append([]uint8(nil), pieces...), k: len(pieces), o: o}
	p.mult = make([]uint64, p.k)
	for i := range p.k {
		m := uint64(1)
		for j := i + 1; j < p.k; j++ {
			m *= uint64(n - j)
		}
		p.mult[i] = m
	}
	p.oriN = 1
	for range p.k {
		p.oriN *= uint64(o)
	}
	p.size = patternSize(n, p.k, o).Uint64()
	return p
}

func (ps *patterns) describe() string {
	var groups []string
	for _, p := range ps.dbs {
		groups = append(groups, fmt.Sprintf("%d (%s entries)", p.k, commas(new(big.Int).SetUint64(p.size))))
	}
	return strings.Join(groups, ", ")
}

// rank returns the index of the pieces at cells pos with orientations ori.
func (p *pattern) rank(pos []int, ori []int) uint64 {
	var used uint64
	var r uint64
	for i, c := range pos {
		r += freeBelow(used, c) * p.mult[i]
		used |= 1 << c
	}
	var o uint64
	for _, x := range ori {
		o = o*uint64(p.o) + uint64(x)
	}
	return r*p.oriN + o
}

func (p *pattern) unrank(i uint64, pos, ori []int) {
	o := i % p.oriN
	r := i / p.oriN
	for j := p.k - 1; j >= 0; j-- {
		ori[j] = int(o % uint64(p.o))
		o /= uint64(p.o)
	}
	var used uint64
	for j := range p.k {
		c := nthFree(used, int(r/p.mult[j]))
		r %= p.mult[j]
		pos[j] = c
		used |= 1 << c
	}
}

// patternGraph walks one pattern's indices backwards.
type patternGraph struct {
	p     *pattern
	sp    *Spec
	dest  [][]int // dest[m][j]: where move m's inverse takes cell j's content
	twist [][]int
	pos   []int
	ori   []int
	npos  []int
	nori  []int
}

func (g *patternGraph) size() uint64 { return g.p.size }

func (g *patternGraph) back(i uint64, f func(uint64, int)) {
	g.p.unrank(i, g.pos, g.ori)
	for m := range g.dest {
		for j, c := range g.pos {
			d := g.dest[m][c]
			g.npos[j] = d
			g.nori[j] = (g.ori[j] + g.twist[m][d]) % g.sp.Mod(d)
		}
		f(g.p.rank(g.npos, g.nori), g.sp.Moves[m].Cost)
	}
}

func (ps *patterns) prepare() error {
	sp := ps.sp
	if sp.Cells > 64 {
		return fmt.Errorf("pattern databases take at most 64 cells, not %d", sp.Cells)
	}
	home := make([]int, sp.Symbols)
	for c, v := range sp.Goal.States[0] {
		home[v] = c
	}
	for _, p := range ps.dbs {
		key := cacheKey(sp.Key(), fmt.Sprintf("pattern %v %d", p.pieces, p.size))
		if blob, ok := loadBlob(ps.opts.CacheDir, key); ok && uint64(len(blob)) == p.size {
			p.dist = blob
			continue
		}
		g := &patternGraph{p: p, sp: sp, pos: make([]int, p.k), ori: make([]int, p.k), npos: make([]int, p.k), nori: make([]int, p.k)}
		for _, mv := range ps.inv {
			d, t := make([]int, sp.Cells), make([]int, sp.Cells)
			for i := range sp.Cells {
				j := i
				if mv.Perm != nil {
					j = mv.Perm[i]
				}
				d[j] = i
				if mv.Twist != nil {
					t[i] = mv.Twist[i]
				}
			}
			g.dest, g.twist = append(g.dest, d), append(g.twist, t)
		}
		goal := make([]int, p.k)
		for j, v := range p.pieces {
			goal[j] = home[v]
		}
		t, err := buildTable(g, []uint64{p.rank(goal, make([]int, p.k))}, false)
		if err != nil {
			return err
		}
		p.dist = t.data
		storeBlob(ps.opts.CacheDir, key, p.dist)
	}
	return nil
}

// estimate is the largest of the databases' distances.
func (ps *patterns) estimate(cells, orient []uint8) int {
	var where [256]int
	for c, v := range cells {
		where[v] = c
	}
	h := 0
	var pos, ori [64]int
	for _, p := range ps.dbs {
		for j, v := range p.pieces {
			pos[j] = where[v]
			ori[j] = 0
			if orient != nil {
				ori[j] = int(orient[where[v]])
			}
		}
		if d := int(p.dist[p.rank(pos[:p.k], ori[:p.k])]); d > h {
			h = d
		}
	}
	return h
}

// freeBelow is the number of free cells (not in used) below cell c: c's
// rank among the free cells, a digit of a permutation's rank.
func freeBelow[C int | uint8](used uint64, c C) uint64 {
	return uint64(bits.OnesCount64(^used & (uint64(1)<<c - 1)))
}

// nthFree is the free cell (not in used) of rank n among them, counting
// from 0: the inverse of freeBelow.
func nthFree(used uint64, n int) int {
	free := ^used
	for range n {
		free &= free - 1
	}
	return bits.TrailingZeros64(free)
}
