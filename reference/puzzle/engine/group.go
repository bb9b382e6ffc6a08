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
// set built by the deterministic Schreier–Sims algorithm (Seress,
// Permutation Group Algorithms, 2003, section 4.2): level i holds the
// generators that fix the base points before it, and trans[i][x] (nil if
// x is not in the orbit) takes base point i to x. Membership is a sift
// through the levels.
type group struct {
	n     int
	base  []int
	gens  [][]perm // gens[i]: the strong generators fixing base[:i]
	trans [][]perm
}

func newGroup(n int, generators []perm) *group {
	g := &group{n: n}
	var s []perm
	for _, x := range generators {
		if !x.isIdentity() {
			s = append(s, x)
		}
	}
	// A base that no generator fixes entirely.
	for _, x := range s {
		if fixesAll(x, g.base) {
			g.addLevel(firstMoved(x))
		}
	}
	for i := range g.base {
		for _, x := range s {
			if fixesAll(x, g.base[:i]) {
				g.gens[i] = append(g.gens[i], x)
			}
		}
		g.orbit(i)
	}
	for i := len(g.base) - 1; i >= 0; {
		if !g.checkLevel(&i) {
			i--
		}
	}
	return g
}

func fixesAll(x perm, points []int) bool {
	for _, b := range points {
		if x[b] != b {
			return false
		}
	}
	return true
}

func firstMoved(x perm) int {
	for i, y := range x {
		if i != y {
			return i
		}
	}
	return -1
}

func (g *group) addLevel(b int) {
	g.base = append(g.base, b)
	g.gens = append(g.gens, nil)
	t := make([]perm, g.n)
	t[b] = identityPerm(g.n)
	g.trans = append(g.trans, t)
}

// checkLevel sifts the Schreier generators of level *i; at the first that
// does not sift through, it adds what is left to the levels below down to
// where it stopped, sets *i there and returns true.
func (g *group) checkLevel(i *int) bool {
	for x, u := range g.trans[*i] {
		if u == nil {
			continue
		}
		for _, s := range g.gens[*i] {
			// u then s then back along the orbit: fixes base point i.
			sg := mul(mul(u, s), g.trans[*i][s[x]].inverse())
			if sg.isIdentity() {
				continue
			}
			h, j := g.siftFrom(sg, *i+1)
			if h.isIdentity() {
				continue
			}
			if j == len(g.base) {
				g.addLevel(firstMoved(h))
			}
			for l := *i + 1; l <= j; l++ {
				g.gens[l] = append(g.gens[l], h)
				g.orbit(l)
			}
			*i = j
			return true
		}
	}
	return false
}

// sift divides h by the transversals level by level; it returns what is
// left and the level where it stopped (len(base) when it got through).
func (g *group) sift(h perm) (perm, int) { return g.siftFrom(h, 0) }

func (g *group) siftFrom(h perm, from int) (perm, int) {
	for i := from; i < len(g.base); i++ {
		t := g.trans[i][h[g.base[i]]]
		if t == nil {
			return h, i
		}
		h = mul(h, t.inverse())
	}
	return h, len(g.base)
}

// orbit recomputes level i's transversal under its generators.
func (g *group) orbit(i int) {
	t := g.trans[i]
	b := g.base[i]
	clear(t)
	t[b] = identityPerm(g.n)
	queue := []int{b}
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
		// Past the cell's own orientations (a set of a smaller modulus),
		// the points stay where they are.
		kc := sp.Mod(i)
		for o := range k {
			if o < kc {
				p[j*k+o] = i*k + (o+t)%kc
			} else {
				p[j*k+o] = j*k + o
			}
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
		kc := sp.Mod(c)
		if sp.Mod(h) != kc {
			return nil, false
		}
		for j := range k {
			if j < kc {
				p[h*k+j] = c*k + (o+j)%kc
			} else {
				p[h*k+j] = h*k + j
			}
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
