package engine

import "math/bits"

// packer packs the state of a small puzzle into one word, four bits a
// symbol and two an orientation, so that a breadth-first search can keep
// its frontier as words and never unrank.
type packer struct {
	per    int // bits a cell
	orient bool
}

// newPacker returns a packer for sp, false when its states do not fit.
func newPacker(sp *Spec) (packer, bool) {
	p := packer{per: 4, orient: sp.Orient >= 2}
	if p.orient {
		if sp.Orient > 4 {
			return p, false
		}
		p.per = 6
	}
	return p, sp.Symbols <= 16 && sp.Cells*p.per <= 64
}

func (p packer) pack(a State) uint64 {
	var w uint64
	for i := len(a.Cells) - 1; i >= 0; i-- {
		w = w<<p.per | uint64(a.Cells[i])
		if p.orient {
			w |= uint64(a.Orient[i]) << 4
		}
	}
	return w
}

func (p packer) unpack(w uint64, a State) {
	for i := range a.Cells {
		a.Cells[i] = uint8(w & 15)
		if p.orient {
			a.Orient[i] = uint8(w >> 4 & 3)
		}
		w >>= p.per
	}
}

// bfsPacked fills a byte table by a breadth-first search whose frontier
// holds packed states, for moves that all cost 1.
func (b *tableBackend) bfsPacked(p packer, seeds []uint64) *table {
	sp, s := b.sp, b.space
	t := newTable(s.size, false)
	a, c := sp.scratch(), sp.scratch()
	var cur, next []uint64
	for _, i := range seeds {
		if t.data[i] == unseen8 {
			t.data[i] = 0
			s.decode(i, a.Cells, a.Orient)
			cur = append(cur, p.pack(a))
		}
	}
	for d := 1; len(cur) > 0; d++ {
		t.layers = append(t.layers, uint64(len(cur)))
		next = next[:0]
		for _, w := range cur {
			p.unpack(w, a)
			blank := b.moves.blankOf(a)
			for m := range b.inv {
				if !b.moves.apply(c, a, blank, m, true) {
					continue
				}
				if j := s.encodeValid(c.Cells, c.Orient); t.data[j] == unseen8 {
					t.data[j] = byte(d)
					next = append(next, p.pack(c))
				}
			}
		}
		cur, next = next, cur
	}
	return t
}

// rankPacked is orbit.rankValid on a packed word (four bits a cell).
func (o *orbit) rankPacked(w uint64, n int) uint64 {
	var used, r uint64
	for i := range n - 1 {
		v := w >> (4 * i) & 15
		r += uint64(bits.OnesCount64(^used&(1<<v-1)&o.mask)) * o.fact[n-1-i]
		used |= 1 << v
	}
	return r
}

// bfsCoordinates is a breadth-first search over indices whose every move
// is two lookups in the coordinates' move tables, for moves that cost 1.
func (b *tableBackend) bfsCoordinates(seeds []uint64) *table {
	t := newTable(b.space.size, false)
	moves := uint64(len(b.sp.Moves))
	oriSize := uint64(1)
	if b.oriB != nil {
		oriSize = b.space.oriSize
	}
	// Room for the largest layer of most puzzles, half the states or so,
	// so that the lists seldom grow.
	cur, next := make([]uint32, 0, t.n*3/5+1), make([]uint32, 0, t.n*3/5+1)
	for _, i := range seeds {
		if t.data[i] == unseen8 {
			t.data[i] = 0
			cur = append(cur, uint32(i))
		}
	}
	for d := byte(1); len(cur) > 0; d++ {
		t.layers = append(t.layers, uint64(len(cur)))
		next = next[:0]
		for _, i := range cur {
			p, o := uint64(i)/oriSize, uint64(i)%oriSize
			pb := b.permB[p*moves : (p+1)*moves]
			var ob []uint32
			if b.oriB != nil {
				ob = b.oriB[o*moves : (o+1)*moves]
			}
			for m, q := range pb {
				j := uint64(q) * oriSize
				if ob != nil {
					j += uint64(ob[m])
				}
				if t.data[j] == unseen8 {
					t.data[j] = d
					next = append(next, uint32(j))
				}
			}
		}
		cur, next = next, cur
	}
	return t
}
