package engine

// Then returns the move that makes a, then b. Neither may be a slide.
func (sp *Spec) Then(a, b *Move) Move {
	var m Move
	pa, pb := sp.perm(a), sp.perm(b)
	if a.Perm != nil || b.Perm != nil {
		m.Perm = make([]int, sp.Cells)
		for i := range m.Perm {
			m.Perm[i] = pa[pb[i]]
		}
	}
	// After a, cell i holds old[pa[i]] twisted and added by a's i-th
	// entries; b then brings cell pb[i] to i and adds its own.
	m.Twist = combine(a.Twist, b.Twist, pb, sp.Mod)
	m.Add = combine(a.Add, b.Add, pb, func(int) int { return sp.Symbols })
	m.Cost = a.Cost + b.Cost
	return m
}

// combine returns x[pb[i]] + y[i] modulo mod(i), nil when both are nil.
func combine(x, y, pb []int, mod func(i int) int) []int {
	if x == nil && y == nil {
		return nil
	}
	out := make([]int, len(pb))
	for i := range out {
		v := 0
		if x != nil {
			v += x[pb[i]]
		}
		if y != nil {
			v += y[i]
		}
		out[i] = v % mod(i)
	}
	return out
}

// Inverse returns the move that undoes m, which is not a slide.
func (sp *Spec) Inverse(m *Move) Move {
	p := sp.perm(m)
	q := make([]int, sp.Cells) // q[p[i]] = i
	for i, j := range p {
		q[j] = i
	}
	inv := Move{Cost: m.Cost}
	if m.Perm != nil {
		inv.Perm = q
	}
	// new[i] = old[p[i]] + a[i], so old[j] = new[q[j]] - a[q[j]].
	neg := func(x []int, mod func(j int) int) []int {
		if x == nil {
			return nil
		}
		out := make([]int, sp.Cells)
		for j := range out {
			k := mod(j)
			out[j] = (k - x[q[j]]%k) % k
		}
		return out
	}
	inv.Twist = neg(m.Twist, sp.Mod)
	inv.Add = neg(m.Add, func(int) int { return sp.Symbols })
	return inv
}

// perm is m's permutation, the identity for none.
func (sp *Spec) perm(m *Move) []int {
	if m.Perm != nil {
		return m.Perm
	}
	p := make([]int, sp.Cells)
	for i := range p {
		p[i] = i
	}
	return p
}

// IsIdentity reports whether m, not a slide, changes no state.
func (sp *Spec) IsIdentity(m *Move) bool {
	for i := range sp.Cells {
		if m.Perm != nil && m.Perm[i] != i {
			return false
		}
		if m.Twist != nil && m.Twist[i]%sp.Mod(i) != 0 {
			return false
		}
		if m.Add != nil && m.Add[i]%sp.Symbols != 0 {
			return false
		}
	}
	return true
}

// sameMove reports whether a and b, neither a slide, act alike.
func (sp *Spec) sameMove(a, b *Move) bool {
	pa, pb := sp.perm(a), sp.perm(b)
	at := func(x []int, i int) int {
		if x == nil {
			return 0
		}
		return x[i]
	}
	for i := range sp.Cells {
		if pa[i] != pb[i] || at(a.Twist, i) != at(b.Twist, i) || at(a.Add, i) != at(b.Add, i) {
			return false
		}
	}
	return true
}

// Commute reports whether moves i and j give the same state in either
// order, from every state. Slides commute with nothing.
func (sp *Spec) Commute(i, j int) bool {
	a, b := &sp.Moves[i], &sp.Moves[j]
	if a.Slide != SlideNone || b.Slide != SlideNone {
		return false
	}
	ab, ba := sp.Then(a, b), sp.Then(b, a)
	return sp.sameMove(&ab, &ba)
}

// Moved reports whether some move changes what one of cells holds.
func (sp *Spec) Moved(cells []int) bool {
	in := make([]bool, sp.Cells)
	for _, c := range cells {
		in[c] = true
	}
	for _, m := range sp.Moves {
		if m.Slide != SlideNone {
			return true
		}
		for i := range sp.Cells {
			if !in[i] {
				continue
			}
			if m.Perm != nil && m.Perm[i] != i || m.Add != nil && m.Add[i] != 0 {
				return true
			}
			if m.Perm != nil {
				for k, j := range m.Perm {
					if j == i && k != i {
						return true
					}
				}
			}
		}
	}
	return false
}

// ApplyTo writes into dst the state src after move m, as Apply does but
// without allocating, so that a long replay allocates nothing per move;
// false, dst unchanged, when m cannot be made. dst's slices must be as
// long as src's, which has orientations where the puzzle has them, and
// must not overlap them. Not for a puzzle of rules (use Apply).
func (sp *Spec) ApplyTo(dst, src State, m int) bool {
	return sp.applyTo(dst.Cells, dst.Orient, src.Cells, src.Orient, &sp.Moves[m])
}

// applyTo writes into (dc, do) the state (sc, so) after move m, and
// reports false for a slide that would leave the grid. The orientation
// slices are nil for a puzzle without orientations; dst and src must not
// overlap.
func (sp *Spec) applyTo(dc, do, sc, so []uint8, m *Move) bool {
	if m.Slide != SlideNone {
		b := sp.blankAt(sc)
		q, ok := sp.slideTarget(b, m.Slide)
		if !ok {
			return false
		}
		copy(dc, sc)
		dc[b], dc[q] = sc[q], sc[b]
		if do != nil {
			copy(do, so)
			do[b], do[q] = so[q], so[b]
		}
		return true
	}
	if m.Perm != nil {
		for i, j := range m.Perm {
			dc[i] = sc[j]
		}
		if do != nil {
			for i, j := range m.Perm {
				do[i] = so[j]
			}
		}
	} else {
		copy(dc, sc)
		if do != nil {
			copy(do, so)
		}
	}
	if m.Twist != nil && do != nil {
		if sp.OrientOf != nil {
			for i, t := range m.Twist {
				do[i] = uint8((int(do[i]) + t) % sp.Mod(i))
			}
		} else {
			k := uint8(sp.Orient)
			for i, t := range m.Twist {
				do[i] = (do[i] + uint8(t)) % k
			}
		}
	}
	if m.Add != nil {
		k := sp.Symbols
		for i, a := range m.Add {
			dc[i] = uint8((int(dc[i]) + a) % k)
		}
	}
	return true
}

// inverses returns, for each move, the move that undoes it: its inverse
// for a permutation or addition, the opposite slide for a slide.
func (sp *Spec) inverses() []Move {
	inv := make([]Move, len(sp.Moves))
	for i := range sp.Moves {
		m := &sp.Moves[i]
		if m.Slide != SlideNone {
			inv[i] = Move{Name: m.Name, Slide: m.Slide.Opposite(), Cost: m.Cost}
		} else {
			inv[i] = sp.Inverse(m)
			inv[i].Name = m.Name
		}
	}
	return inv
}

// symmetric reports whether every move's inverse is a move of the same
// cost, so that distances to the goal and from it agree and neighbours'
// distances differ by at most one move's cost.
func (sp *Spec) symmetric() bool {
	inv := sp.inverses()
	for i := range inv {
		found := false
		for j := range sp.Moves {
			mj := &sp.Moves[j]
			if mj.Cost != inv[i].Cost {
				continue
			}
			if inv[i].Slide != SlideNone {
				found = found || mj.Slide == inv[i].Slide
			} else if mj.Slide == SlideNone && sp.sameMove(&inv[i], mj) {
				found = true
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// unitCost reports whether every move costs 1.
func (sp *Spec) unitCost() bool {
	for _, m := range sp.Moves {
		if m.Cost != 1 {
			return false
		}
	}
	return true
}
