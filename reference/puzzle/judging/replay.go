package judging

import "github.com/optjudge/optjudge/reference/puzzle/engine"

// walker makes moves on a state between two buffers, so that replaying a
// long answer allocates nothing per move.
type walker struct {
	sp       *engine.Spec
	cur, nxt engine.State
}

func newWalker(sp *engine.Spec, st engine.State) *walker {
	w := &walker{sp: sp, cur: st.Clone(), nxt: st.Clone()}
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
	if !w.sp.ApplyTo(w.nxt, w.cur, m) {
		return false
	}
	w.cur, w.nxt = w.nxt, w.cur
	return true
}

// state is the state reached, a copy.
func (w *walker) state() engine.State { return w.cur.Clone() }
