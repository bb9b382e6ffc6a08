package engine

// The table backend's parts that are a sliding puzzle's: the tables of
// where each slide takes the blank, by which tableMoves makes the moves on
// states, and, for a sliding puzzle of at most 15 cells, a breadth-first
// search and a descent on packed words where a slide swaps two nibbles.

// tableMoves makes the moves, and their inverses, on the states of the
// table's searches: a slide by its table of where it takes the blank,
// another move by the Spec.
type tableMoves struct {
	sp  *Spec
	inv []Move
	// slides[m][b] is where move m takes the blank at b (-1 nowhere), and
	// unslides[m][b] its inverse's; nil when no move slides.
	slides, unslides [][]int8
}

func newTableMoves(sp *Spec, inv []Move) tableMoves {
	t := tableMoves{sp: sp, inv: inv}
	if kindOf(sp).slides {
		t.slides, t.unslides = slideTables(sp, sp.Moves), slideTables(sp, inv)
	}
	return t
}

// slideTables returns, per move, where it takes the blank from each cell
// (-1 where it cannot).
func slideTables(sp *Spec, moves []Move) [][]int8 {
	out := make([][]int8, len(moves))
	for m, mv := range moves {
		if mv.Slide == SlideNone {
			continue
		}
		out[m] = make([]int8, sp.Cells)
		for c := range sp.Cells {
			q, ok := sp.slideTarget(c, mv.Slide)
			out[m][c] = int8(q)
			if !ok {
				out[m][c] = -1
			}
		}
	}
	return out
}

// blankOf is the blank's cell in a, -1 for a puzzle whose moves do not
// slide.
func (t *tableMoves) blankOf(a State) int {
	if t.slides == nil {
		return -1
	}
	return t.sp.blankAt(a.Cells)
}

// apply writes into c the state a after move m (its inverse with back),
// the blank being at blank; false for a slide off the grid.
func (t *tableMoves) apply(c, a State, blank, m int, back bool) bool {
	mv, to := &t.sp.Moves[m], t.slides
	if back {
		mv, to = &t.inv[m], t.unslides
	}
	if mv.Slide == SlideNone {
		return t.sp.applyTo(c.Cells, c.Orient, a.Cells, a.Orient, mv)
	}
	q := int(to[m][blank])
	if q < 0 {
		return false
	}
	copy(c.Cells, a.Cells)
	c.Cells[blank], c.Cells[q] = a.Cells[q], a.Cells[blank]
	if c.Orient != nil {
		copy(c.Orient, a.Orient)
		c.Orient[blank], c.Orient[q] = a.Orient[q], a.Orient[blank]
	}
	return true
}

// packedSlides reports whether the puzzle's states pack into a word with
// the blank's cell, and its table is of bytes: a sliding puzzle of at most
// 15 cells, every tile different.
func (b *tableBackend) packedSlides() bool {
	return kindOf(b.sp).allSlide && b.sp.Cells <= 15 && b.sp.Symbols <= 16 && b.space.fast != nil && !b.twoBit && b.sp.unitCost()
}

// descendSliding is descend on packed words.
func (b *tableBackend) descendSliding(i uint64) []int {
	sp, s, t := b.sp, b.space, b.t
	n := sp.Cells
	buf := b.scratch.Get().(*[2]State)
	s.decode(i, buf[0].Cells, nil)
	w := packer{per: 4}.pack(buf[0]) | uint64(sp.blankAt(buf[0].Cells))<<60
	b.scratch.Put(buf)
	blankSym := uint64(sp.Blank)
	v := t.get(i)
	moves := make([]int, 0, v)
	for ; v > 0; v-- {
		bl := int(w >> 60)
		m := 0
		for ; m < len(b.moves.slides); m++ {
			q := int(b.moves.slides[m][bl])
			if q < 0 {
				continue
			}
			tile := w >> (4 * q) & 15
			nw := w&^(15<<(4*q))&^(15<<(4*bl))&^(15<<60) | tile<<(4*bl) | blankSym<<(4*q) | uint64(q)<<60
			if int(t.data[s.fast.rankPacked(nw, n)]) == v-1 {
				w = nw
				break
			}
		}
		if m == len(b.moves.slides) {
			panic("engine: a table state with no move closer to the goal")
		}
		moves = append(moves, m)
	}
	return moves
}

// bfsSliding is bfsPacked for a sliding puzzle of at most 15 cells: the
// blank's cell rides in the word's top four bits, and a slide swaps two
// nibbles of the word.
func (b *tableBackend) bfsSliding(seeds []uint64) *table {
	sp, s := b.sp, b.space
	n := sp.Cells
	t := newTable(s.size, false)
	a := sp.scratch()
	p := packer{per: 4}
	blankSym := uint64(sp.Blank)
	var cur, next []uint64
	for _, i := range seeds {
		if t.data[i] == unseen8 {
			t.data[i] = 0
			s.decode(i, a.Cells, a.Orient)
			cur = append(cur, p.pack(a)|uint64(sp.blankAt(a.Cells))<<60)
		}
	}
	for d := 1; len(cur) > 0; d++ {
		t.layers = append(t.layers, uint64(len(cur)))
		next = next[:0]
		for _, w := range cur {
			bl := int(w >> 60)
			for m := range b.inv {
				q := int(b.moves.unslides[m][bl])
				if q < 0 {
					continue
				}
				tile := w >> (4 * q) & 15
				nw := w&^(15<<(4*q))&^(15<<(4*bl))&^(15<<60) | tile<<(4*bl) | blankSym<<(4*q) | uint64(q)<<60
				if j := s.fast.rankPacked(nw, n); t.data[j] == unseen8 {
					t.data[j] = byte(d)
					next = append(next, nw)
				}
			}
		}
		cur, next = next, cur
	}
	return t
}
