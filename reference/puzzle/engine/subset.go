package engine

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/big"
	"math/bits"
)

// queued is the type of a breadth-first search's queue of sets of cells:
// uint32 where the cells fit, so that it takes four bytes a state. The
// tables themselves work on uint64 sets, in plain (not generic) code that
// the compiler inlines.
type queued interface{ ~uint32 | ~uint64 }

// subsetTable is the distance table of one abstraction of a puzzle whose
// moves permute cells: the set of cells holding one symbol, all others
// forgotten, C(n, c) sets of c cells. For a goal of cells that must hold
// one symbol, whichever, the distance of that symbol's set is exactly the
// fewest moves that fill the goal's cells with it.
type subsetTable struct {
	n, c   int
	nb     int // bytes of a mask
	size   uint64
	rank   []uint32            // rank[(byte*(c+1)+set bits below)*256+value]: its share of the colex rank
	rank3  *[3][25][256]uint32 // the same as arrays, for masks of at most 24 cells
	fwd    []*[8][256]uint64   // fwd[move][byte][value]: where the move sends those cells
	bwd    []*[8][256]uint64   // the same for the move's inverse
	costs  []int
	dist   []byte
	layers []uint64
	binom  [][]uint64
}

// newSubsetTable prepares the table's ranking and move tables; perms are
// the moves' permutations (pull form), inv their inverses'.
func newSubsetTable(n, c int, moves, inv []Move, costs []int) *subsetTable {
	t := &subsetTable{n: n, c: c, nb: (n + 7) / 8, costs: costs}
	t.binom = binomials(n, c)
	t.size = t.binom[n][c]
	// At least three bytes, so that rankOf can unroll them: a byte past
	// the cells is 0 and adds 0.
	t.rank = make([]uint32, max(t.nb, 3)*(c+1)*256)
	for k := range max(t.nb, 3) {
		for before := 0; before <= c; before++ {
			for v := range 256 {
				var r uint64
				i := before
				for j := range 8 {
					if v>>j&1 != 0 && 8*k+j < n {
						i++
						if i <= c {
							r += t.binom[8*k+j][i]
						}
					}
				}
				t.rank[(k*(c+1)+before)*256+v] = uint32(r)
			}
		}
	}
	t.fwd, t.bwd = t.moveTables(moves), t.moveTables(inv)
	if n <= 24 {
		t.rank3 = new([3][25][256]uint32)
		for k := range 3 {
			for before := 0; before <= c; before++ {
				copy(t.rank3[k][before][:], t.rank[(k*(c+1)+before)*256:])
			}
		}
	}
	return t
}

// binomials returns C(i, j) for i <= n, j <= c.
func binomials(n, c int) [][]uint64 {
	b := make([][]uint64, n+1)
	for i := range b {
		b[i] = make([]uint64, c+2)
		b[i][0] = 1
		for j := 1; j <= c+1 && i > 0; j++ {
			b[i][j] = b[i-1][j-1] + b[i-1][j]
		}
	}
	return b
}

// moveTables maps, per move and byte, each byte value to the cells its
// bits' contents go to.
func (t *subsetTable) moveTables(moves []Move) []*[8][256]uint64 {
	out := make([]*[8][256]uint64, len(moves))
	for m, mv := range moves {
		dest := make([]int, t.n) // the content of cell i goes to dest[i]
		for i := range dest {
			dest[i] = i
		}
		for i, j := range mv.Perm {
			dest[j] = i
		}
		out[m] = new([8][256]uint64)
		for k := range t.nb {
			for v := range 256 {
				var o uint64
				for j := range 8 {
					if v>>j&1 != 0 && 8*k+j < t.n {
						o |= uint64(1) << dest[8*k+j]
					}
				}
				out[m][k][v] = o
			}
		}
	}
	return out
}

func (t *subsetTable) rankOf(s uint64) uint64 {
	if t.rank3 != nil {
		return t.rank3Of(s)
	}
	return t.rankWide(s)
}

// rank3Of is rankOf for masks of at most 24 cells.
func (t *subsetTable) rank3Of(s uint64) uint64 { return uint64(rank24(t.rank3, uint32(s))) }

// rank24 is the colex rank of a set of at most 24 cells by the byte
// tables: a plain function, so that the compiler inlines it into the
// generic code's loops (a generic method would cost a call).
func rank24(r3 *[3][25][256]uint32, s uint32) uint32 {
	v0, v1, v2 := uint8(s), uint8(s>>8), uint8(s>>16)
	c0 := bits.OnesCount8(v0)
	c1 := c0 + bits.OnesCount8(v1)
	return r3[0][0][v0] + r3[1][c0&15][v1] + r3[2][c1&15][v2]
}

// rankWide is rankOf for masks of more than 24 cells.
func (t *subsetTable) rankWide(s uint64) uint64 {
	stride := (t.c + 1) * 256
	var r uint32
	row := 0
	for k := range t.nb {
		v := uint8(s >> (8 * k))
		r += t.rank[row+int(v)]
		row += stride + bits.OnesCount8(v)*256
	}
	return uint64(r)
}

// unrank is the inverse of rankOf: the colex unranking, largest cell first.
func (t *subsetTable) unrank(r uint64) uint64 {
	var s uint64
	i := t.n - 1
	for j := t.c; j >= 1; j-- {
		for t.binom[i][j] > r {
			i--
		}
		r -= t.binom[i][j]
		s |= uint64(1) << i
		i--
	}
	return s
}

// apply moves the cells of s by a move's table; the first three bytes
// unrolled, as most puzzles have at most 24 cells.
func apply(tab *[8][256]uint64, s uint64, nb int) uint64 {
	o := tab[0][uint8(s)] | tab[1][uint8(s>>8)] | tab[2][uint8(s>>16)]
	for k := 3; k < nb; k++ {
		o |= tab[k&7][uint8(s>>(8*k))]
	}
	return o
}

func (t *subsetTable) forward(m int, s uint64) uint64 { return apply(t.fwd[m], s, t.nb) }

func (t *subsetTable) distOf(s uint64) int {
	if t.rank3 != nil {
		return int(t.dist[rank24(t.rank3, uint32(s))])
	}
	return int(t.dist[t.rankWide(s)])
}

// build fills the table by a search backwards from the seeds.
func (t *subsetTable) build(seeds []uint64) error {
	unit := true
	for _, c := range t.costs {
		unit = unit && c == 1
	}
	if !unit {
		tab, err := buildTable(subsetGraph{t}, t.ranks(seeds), false)
		if err != nil {
			return err
		}
		t.dist, t.layers = tab.data, tab.layers
		return nil
	}
	if t.n <= 32 {
		return bfsSubsets[uint32](t, seeds)
	}
	return bfsSubsets[uint64](t, seeds)
}

// bfsSubsets is the search for moves that cost 1: a queue of sets as Q.
func bfsSubsets[Q queued](t *subsetTable, seeds []uint64) error {
	t.dist = make([]byte, t.size)
	for i := range t.dist {
		t.dist[i] = unseen8
	}
	queue := make([]Q, 0, t.size)
	for _, s := range seeds {
		if r := t.rankOf(s); t.dist[r] == unseen8 {
			t.dist[r] = 0
			queue = append(queue, Q(s))
		}
	}
	for head, d := 0, 0; head < len(queue); d++ {
		if d >= maxDistance8 {
			return fmt.Errorf("a distance of more than %d moves", maxDistance8)
		}
		end := len(queue)
		t.layers = append(t.layers, uint64(end-head))
		for ; head < end; head++ {
			s := uint64(queue[head])
			for m := range t.bwd {
				n := apply(t.bwd[m], s, t.nb)
				var r uint64
				if t.rank3 != nil {
					r = uint64(rank24(t.rank3, uint32(n)))
				} else {
					r = t.rankWide(n)
				}
				if t.dist[r] == unseen8 {
					t.dist[r] = byte(d + 1)
					queue = append(queue, Q(n))
				}
			}
		}
	}
	return nil
}

func (t *subsetTable) ranks(seeds []uint64) []uint64 {
	rs := make([]uint64, len(seeds))
	for i, s := range seeds {
		rs[i] = t.rankOf(s)
	}
	return rs
}

// subsetGraph walks a subset table's ranks, for moves of several costs.
type subsetGraph struct{ t *subsetTable }

func (g subsetGraph) size() uint64 { return g.t.size }

func (g subsetGraph) back(i uint64, f func(uint64, int)) {
	t := g.t
	s := t.unrank(i)
	for m := range t.bwd {
		f(t.rankOf(apply(t.bwd[m], s, t.nb)), t.costs[m])
	}
}

// seedsOf lists the sets of c cells that hold all of goal.
func seedsOf(n, c int, goal []int) []uint64 {
	var base uint64
	for _, g := range goal {
		base |= uint64(1) << g
	}
	var rest []int
	for i := range n {
		if base>>i&1 == 0 {
			rest = append(rest, i)
		}
	}
	var out []uint64
	var rec func(from, left int, s uint64)
	rec = func(from, left int, s uint64) {
		if left == 0 {
			out = append(out, s)
			return
		}
		for i := from; i <= len(rest)-left; i++ {
			rec(i+1, left-1, s|uint64(1)<<rest[i])
		}
	}
	rec(0, c-len(goal), base)
	return out
}

func (t *subsetTable) marshal() []byte {
	p := binary.LittleEndian.AppendUint64(nil, uint64(len(t.layers)))
	for _, l := range t.layers {
		p = binary.LittleEndian.AppendUint64(p, l)
	}
	return append(p, t.dist...)
}

func (t *subsetTable) unmarshal(p []byte) error {
	if len(p) < 8 {
		return errors.New("short table")
	}
	n := binary.LittleEndian.Uint64(p)
	if n > 255 || uint64(len(p)) != 8+8*n+t.size {
		return errors.New("another table")
	}
	t.layers = nil
	for i := range n {
		t.layers = append(t.layers, binary.LittleEndian.Uint64(p[8+8*i:]))
	}
	t.dist = p[8+8*n:]
	return nil
}

// subsetSize is C(n, c) as a big number.
func subsetSize(n, c int) *big.Int { return new(big.Int).Binomial(int64(n), int64(c)) }
