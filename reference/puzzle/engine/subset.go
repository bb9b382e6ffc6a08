package engine

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/big"
	"math/bits"
)

// mask is a set of cells, one bit a cell: uint32 where the cells fit, so
// that a search's queue takes four bytes a state.
type mask interface{ ~uint32 | ~uint64 }

// subsetTable is the distance table of one abstraction of a puzzle whose
// moves permute cells: the set of cells holding one symbol, all others
// forgotten, C(n, c) sets of c cells. For a goal of cells that must hold
// one symbol, whichever, the distance of that symbol's set is exactly the
// fewest moves that fill the goal's cells with it.
type subsetTable[M mask] struct {
	n, c   int
	nb     int // bytes of a mask
	size   uint64
	rank   []uint32     // rank[(byte*(c+1)+set bits below)*256+value]: its share of the colex rank
	fwd    []*[8][256]M // fwd[move][byte][value]: where the move sends those cells
	bwd    []*[8][256]M // the same for the move's inverse
	costs  []int
	dist   []byte
	layers []uint64
	binom  [][]uint64
}

// newSubsetTable prepares the table's ranking and move tables; perms are
// the moves' permutations (pull form), inv their inverses'.
func newSubsetTable[M mask](n, c int, moves, inv []Move, costs []int) *subsetTable[M] {
	t := &subsetTable[M]{n: n, c: c, nb: (n + 7) / 8, costs: costs}
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
func (t *subsetTable[M]) moveTables(moves []Move) []*[8][256]M {
	out := make([]*[8][256]M, len(moves))
	for m, mv := range moves {
		dest := make([]int, t.n) // the content of cell i goes to dest[i]
		for i := range dest {
			dest[i] = i
		}
		for i, j := range mv.Perm {
			dest[j] = i
		}
		out[m] = new([8][256]M)
		for k := range t.nb {
			for v := range 256 {
				var o M
				for j := range 8 {
					if v>>j&1 != 0 && 8*k+j < t.n {
						o |= M(1) << dest[8*k+j]
					}
				}
				out[m][k][v] = o
			}
		}
	}
	return out
}

func (t *subsetTable[M]) rankOf(s M) uint64 {
	stride := (t.c + 1) * 256
	// row is (byte*(c+1) + set bits below)*256; three bytes unrolled.
	v0, v1, v2 := uint8(s), uint8(s>>8), uint8(s>>16)
	c0 := bits.OnesCount8(v0)
	c1 := c0 + bits.OnesCount8(v1)
	r := t.rank[v0] + t.rank[stride+c0*256+int(v1)] + t.rank[2*stride+c1*256+int(v2)]
	if t.nb > 3 {
		row := 3*stride + (c1+bits.OnesCount8(v2))*256
		for k := 3; k < t.nb; k++ {
			v := uint8(s >> (8 * k))
			r += t.rank[row+int(v)]
			row += stride + bits.OnesCount8(v)*256
		}
	}
	return uint64(r)
}

// unrank is the inverse of rankOf: the colex unranking, largest cell first.
func (t *subsetTable[M]) unrank(r uint64) M {
	var s M
	i := t.n - 1
	for j := t.c; j >= 1; j-- {
		for t.binom[i][j] > r {
			i--
		}
		r -= t.binom[i][j]
		s |= M(1) << i
		i--
	}
	return s
}

// apply moves the cells of s by a move's table; the first three bytes
// unrolled, as most puzzles have at most 24 cells.
func apply[M mask](tab *[8][256]M, s M, nb int) M {
	o := tab[0][uint8(s)] | tab[1][uint8(s>>8)] | tab[2][uint8(s>>16)]
	for k := 3; k < nb; k++ {
		o |= tab[k&7][uint8(s>>(8*k))]
	}
	return o
}

func (t *subsetTable[M]) forward(m int, s M) M { return apply(t.fwd[m], s, t.nb) }

func (t *subsetTable[M]) distOf(s M) int { return int(t.dist[t.rankOf(s)]) }

// build fills the table by a search backwards from the seeds.
func (t *subsetTable[M]) build(seeds []M) error {
	unit := true
	for _, c := range t.costs {
		unit = unit && c == 1
	}
	if !unit {
		tab, err := buildTable(subsetGraph[M]{t}, t.ranks(seeds), false)
		if err != nil {
			return err
		}
		t.dist, t.layers = tab.data, tab.layers
		return nil
	}
	t.dist = make([]byte, t.size)
	for i := range t.dist {
		t.dist[i] = unseen8
	}
	queue := make([]M, 0, t.size)
	for _, s := range seeds {
		if r := t.rankOf(s); t.dist[r] == unseen8 {
			t.dist[r] = 0
			queue = append(queue, s)
		}
	}
	for head, d := 0, 0; head < len(queue); d++ {
		if d >= maxDistance8 {
			return fmt.Errorf("a distance of more than %d moves", maxDistance8)
		}
		end := len(queue)
		t.layers = append(t.layers, uint64(end-head))
		for ; head < end; head++ {
			s := queue[head]
			for m := range t.bwd {
				n := apply(t.bwd[m], s, t.nb)
				if r := t.rankOf(n); t.dist[r] == unseen8 {
					t.dist[r] = byte(d + 1)
					queue = append(queue, n)
				}
			}
		}
	}
	return nil
}

func (t *subsetTable[M]) ranks(seeds []M) []uint64 {
	rs := make([]uint64, len(seeds))
	for i, s := range seeds {
		rs[i] = t.rankOf(s)
	}
	return rs
}

// subsetGraph walks a subset table's ranks, for moves of several costs.
type subsetGraph[M mask] struct{ t *subsetTable[M] }

func (g subsetGraph[M]) size() uint64 { return g.t.size }

func (g subsetGraph[M]) back(i uint64, f func(uint64, int)) {
	t := g.t
	s := t.unrank(i)
	for m := range t.bwd {
		f(t.rankOf(apply(t.bwd[m], s, t.nb)), t.costs[m])
	}
}

// seedsOf lists the sets of c cells that hold all of goal.
func seedsOf[M mask](n, c int, goal []int) []M {
	var base M
	for _, g := range goal {
		base |= M(1) << g
	}
	var rest []int
	for i := range n {
		if base>>i&1 == 0 {
			rest = append(rest, i)
		}
	}
	var out []M
	var rec func(from, left int, s M)
	rec = func(from, left int, s M) {
		if left == 0 {
			out = append(out, s)
			return
		}
		for i := from; i <= len(rest)-left; i++ {
			rec(i+1, left-1, s|M(1)<<rest[i])
		}
	}
	rec(0, c-len(goal), base)
	return out
}

func (t *subsetTable[M]) marshal() []byte {
	p := binary.LittleEndian.AppendUint64(nil, uint64(len(t.layers)))
	for _, l := range t.layers {
		p = binary.LittleEndian.AppendUint64(p, l)
	}
	return append(p, t.dist...)
}

func (t *subsetTable[M]) unmarshal(p []byte) error {
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
