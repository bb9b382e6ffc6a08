package engine

import (
	"math/big"
	"math/rand/v2"
)

// perm is a permutation of points: p[x] is the image of x. Products apply
// the left factor first.
type perm []int

func identityPerm(n int) perm {
	p := make(perm, n)
	for i := range p {
		p[i] = i
	}
	return p
}

// mul returns a then b.
func mul(a, b perm) perm {
	c := make(perm, len(a))
	for x, y := range a {
		c[x] = b[y]
	}
	return c
}

func (p perm) inverse() perm {
	q := make(perm, len(p))
	for x, y := range p {
		q[y] = x
	}
	return q
}

func (p perm) isIdentity() bool {
	for x, y := range p {
		if x != y {
			return false
		}
	}
	return true
}

// group is the group the moves generate, as a base and strong generating
// set built by the Schreier–Sims algorithm: level i fixes the base points
// before it, and trans[i][x] (nil if x is not in the orbit) takes base
// point i to x. Membership is a sift through the levels.
type group struct {
	n     int
	base  []int
	gens  [][]perm
	trans [][]perm
}

func newGroup(n int, generators []perm) *group {
	g := &group{n: n}
	for _, s := range generators {
		if h, level := g.sift(s); !h.isIdentity() {
			g.extend(level, h)
		}
	}
	return g
}

// sift divides h by the transversals level by level; it returns what is
// left and the level where it stopped (len(base) when it got through).
func (g *group) sift(h perm) (perm, int) {
	for i, b := range g.base {
		t := g.trans[i][h[b]]
		if t == nil {
			return h, i
		}
		h = mul(h, t.inverse())
	}
	return h, len(g.base)
}

// extend adds h, which fixes the base points before level i, to level i's
// generators, grows the orbit, and sifts every Schreier generator of the
// level into the levels below.
func (g *group) extend(i int, h perm) {
	if i == len(g.base) {
		b := 0
		for h[b] == b {
			b++
		}
		g.base = append(g.base, b)
		g.gens = append(g.gens, nil)
		t := make([]perm, g.n)
		t[b] = identityPerm(g.n)
		g.trans = append(g.trans, t)
	}
	g.gens[i] = append(g.gens[i], h)
	g.orbit(i)
	for x, u := range g.trans[i] {
		if u == nil {
			continue
		}
		for _, s := range g.gens[i] {
			// u then s then back along the orbit: fixes base point i.
			sg := mul(mul(u, s), g.trans[i][s[x]].inverse())
			if r, level := g.sift(sg); !r.isIdentity() {
				g.extend(level, r)
			}
		}
	}
}

// orbit completes level i's transversal under its generators.
func (g *group) orbit(i int) {
	t := g.trans[i]
	var queue []int
	for x, u := range t {
		if u != nil {
			queue = append(queue, x)
		}
	}
	for len(queue) > 0 {
		x := queue[0]
		queue = queue[1:]
		for _, s := range g.gens[i] {
			if y := s[x]; t[y] == nil {
				t[y] = mul(t[x], s)
				queue = append(queue, y)
			}
		}
	}
}

// contains reports whether p is in the group.
func (g *group) contains(p perm) bool {
	h, _ := g.sift(p)
	return h.isIdentity()
}

// order is the number of elements.
func (g *group) order() *big.Int {
	n := big.NewInt(1)
	for _, t := range g.trans {
		k := 0
		for _, u := range t {
			if u != nil {
				k++
			}
		}
		n.Mul(n, big.NewInt(int64(k)))
	}
	return n
}

// random returns a uniformly random element: one transversal element a
// level, the deepest applied first.
func (g *group) random(r *rand.Rand) perm {
	p := identityPerm(g.n)
	for i := len(g.trans) - 1; i >= 0; i-- {
		var orbit []perm
		for _, u := range g.trans[i] {
			if u != nil {
				orbit = append(orbit, u)
			}
		}
		p = mul(p, orbit[r.IntN(len(orbit))])
	}
	return p
}

// points numbers a puzzle's (cell, orientation) pairs for its group: cell c
// with orientation o is c*k + o, k the number of orientations (1 without).
func pointsOf(sp *Spec) int { return sp.Cells * max(sp.Orient, 1) }

// movePerm is a move that permutes (no slide, no addition) as a
// permutation of points: the piece in cell j goes to the cell i with
// Perm[i] = j, gaining Twist[i].
func (sp *Spec) movePerm(m *Move) perm {
	k := max(sp.Orient, 1)
	p := make(perm, pointsOf(sp))
	for i := range sp.Cells {
		j := i
		if m.Perm != nil {
			j = m.Perm[i]
		}
		t := 0
		if m.Twist != nil {
			t = m.Twist[i]
		}
		for o := range k {
			p[j*k+o] = i*k + (o+t)%k
		}
	}
	return p
}

// statePerm is the group element that takes goal to st: the piece at home
// in cell h goes to the cell c that holds it in st, its orientation added.
// Both must hold distinct symbols, the same ones; false otherwise.
func (sp *Spec) statePerm(goal []uint8, st State) (perm, bool) {
	k := max(sp.Orient, 1)
	home := make([]int, sp.Symbols)
	for i := range home {
		home[i] = -1
	}
	for c, v := range goal {
		home[v] = c
	}
	p := make(perm, pointsOf(sp))
	seen := make([]bool, sp.Cells)
	for c, v := range st.Cells {
		h := home[v]
		if h < 0 || seen[h] {
			return nil, false
		}
		seen[h] = true
		o := int(orientAt(st, c))
		for j := range k {
			p[h*k+j] = c*k + (o+j)%k
		}
	}
	return p, true
}

// stateOf is the state the group element p makes of goal.
func (sp *Spec) stateOf(goal []uint8, p perm) State {
	k := max(sp.Orient, 1)
	st := sp.scratch()
	for h, v := range goal {
		x := p[h*k]
		st.Cells[x/k] = v
		if st.Orient != nil {
			st.Orient[x/k] = uint8(x % k)
		}
	}
	return st
}
