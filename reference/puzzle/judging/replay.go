package judging

import "github.com/optjudge/optjudge/reference/puzzle/engine"

// walker makes moves on a state in place, between two buffers, so that
// replaying a long answer allocates nothing per move. It follows the
// moves' documented meaning (engine.Move): a slide swaps the blank with
// its neighbour; else the permutation in pull form, the twists, then the
// additions.
type walker struct {
	sp       *engine.Spec
	cur, nxt engine.State
	blank    int // the blank's cell, for slides; -1 when unknown
}

func newWalker(sp *engine.Spec, st engine.State) *walker {
	w := &walker{sp: sp, cur: st.Clone(), nxt: st.Clone(), blank: -1}
	if sp.Orient >= 2 && w.cur.Orient == nil {
		w.cur.Orient, w.nxt.Orient = make([]uint8, sp.Cells), make([]uint8, sp.Cells)
	}
	return w
}

// move makes move m; false, changing nothing, when it cannot be made.
func (w *walker) move(m int) bool {
	if w.sp.Rules != nil {
		next, ok := w.sp.Apply(w.cur, m)
		w.cur = next
		return ok
	}
	sp, mv := w.sp, &w.sp.Moves[m]
	if mv.Slide != engine.SlideNone {
		return w.slide(mv.Slide)
	}
	dc, sc := w.nxt.Cells, w.cur.Cells
	do, so := w.nxt.Orient, w.cur.Orient
	if mv.Perm != nil {
		for i, j := range mv.Perm {
			dc[i] = sc[j]
		}
		if do != nil {
			for i, j := range mv.Perm {
				do[i] = so[j]
			}
		}
	} else {
		copy(dc, sc)
		copy(do, so)
	}
	if mv.Twist != nil && do != nil {
		for i, t := range mv.Twist {
			do[i] = uint8((int(do[i]) + t) % sp.Mod(i))
		}
	}
	if mv.Add != nil {
		for i, a := range mv.Add {
			dc[i] = uint8((int(dc[i]) + a) % sp.Symbols)
		}
	}
	w.cur, w.nxt = w.nxt, w.cur
	w.blank = -1
	return true
}

// slide moves the blank one cell in direction d, in place.
func (w *walker) slide(d engine.Direction) bool {
	sp, c := w.sp, w.cur.Cells
	if w.blank < 0 {
		for i, v := range c {
			if int(v) == sp.Blank {
				w.blank = i
			}
		}
		if w.blank < 0 {
			return false
		}
	}
	r, col := w.blank/sp.Cols, w.blank%sp.Cols
	switch d {
	case engine.SlideUp:
		r--
	case engine.SlideDown:
		r++
	case engine.SlideLeft:
		col--
	case engine.SlideRight:
		col++
	}
	if r < 0 || r >= sp.Rows || col < 0 || col >= sp.Cols {
		return false
	}
	b, q := w.blank, r*sp.Cols+col
	c[b], c[q] = c[q], c[b]
	if o := w.cur.Orient; o != nil {
		o[b], o[q] = o[q], o[b]
	}
	w.blank = q
	return true
}

// state is the state reached, a copy.
func (w *walker) state() engine.State { return w.cur.Clone() }
