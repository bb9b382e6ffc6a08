package engine

import (
	"context"
	"fmt"
	"iter"
	"math/big"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
)

// linearBackend solves a puzzle whose moves all add: the counts that solve
// a state are a coset of the kernel, enumerated for the least cost and,
// among those, the first in declared order.
type linearBackend struct {
	sp     *Spec
	k      int
	a      [][]int // cells x moves
	ord    []int   // the order of each move: how many of it do nothing
	md     *modular
	kernel [][]int // every element of the kernel, counts reduced

	censusOnce sync.Once
	census     *census // nil where the states are too many
}

// Limits of the linear method.
const (
	maxKernel = 1 << 16 // kernel elements enumerated for each answer
	maxCensus = 1 << 25 // states whose distances a census keeps (a byte each)
)

func newLinear(s *Solver) (backend, error) {
	sp := s.sp
	b := &linearBackend{sp: sp, k: sp.Symbols}
	b.a = make([][]int, sp.Cells)
	for i := range b.a {
		b.a[i] = make([]int, len(sp.Moves))
		for j, m := range sp.Moves {
			b.a[i][j] = m.Add[i] % b.k
		}
	}
	for j := range sp.Moves {
		g := b.k
		for i := range b.a {
			g = gcd(g, b.a[i][j])
		}
		b.ord = append(b.ord, b.k/g)
	}
	b.md = newModular(b.a, b.k)
	if n := b.md.kernelSize(maxKernel); n > maxKernel {
		return nil, fmt.Errorf("the moves' kernel modulo %d has more than %d elements: too many answers to compare", b.k, maxKernel)
	}
	return b, nil
}

func gcd(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

func (b *linearBackend) method() Method { return MethodLinear }

func (b *linearBackend) prepare() error {
	seen := map[string]bool{}
	z := make([]int, len(b.md.orders))
	for {
		c := make([]int, len(b.ord))
		for g, n := range z {
			for j, x := range b.md.gens[g] {
				c[j] = (c[j] + n*x) % b.k
			}
		}
		for j := range c {
			c[j] %= b.ord[j]
		}
		if key := fmt.Sprint(c); !seen[key] {
			seen[key] = true
			b.kernel = append(b.kernel, c)
		}
		i := 0
		for ; i < len(z); i++ {
			if z[i]++; z[i] < b.md.orders[i] {
				break
			}
			z[i] = 0
		}
		if i == len(z) {
			return nil
		}
	}
}

// best returns the counts of the best answer from st, false if none.
func (b *linearBackend) best(st State) ([]int, bool) {
	sp := b.sp
	var best []int
	bestCost := 0
	t := make([]int, sp.Cells)
	for _, g := range sp.Goal.States {
		for i := range t {
			t[i] = ((int(g[i])-int(st.Cells[i]))%b.k + b.k) % b.k
		}
		c0, ok := b.md.solve(t)
		if !ok {
			continue
		}
		for _, z := range b.kernel {
			c := make([]int, len(c0))
			cost := 0
			for j := range c {
				c[j] = (c0[j] + z[j]) % b.k % b.ord[j]
				cost += c[j] * sp.Moves[j].Cost
			}
			if best == nil || cost < bestCost || cost == bestCost && slices.Compare(expand(c), expand(best)) < 0 {
				best, bestCost = c, cost
			}
		}
	}
	return best, best != nil
}

// expand lists counts as moves in declared order.
func expand(c []int) []int {
	var out []int
	for j, n := range c {
		for range n {
			out = append(out, j)
		}
	}
	return out
}

func (b *linearBackend) cost(c []int) int {
	n := 0
	for j, x := range c {
		n += x * b.sp.Moves[j].Cost
	}
	return n
}

func (b *linearBackend) distance(_ context.Context, st State) (int, error) {
	c, ok := b.best(st)
	if !ok {
		return 0, ErrUnsolvable
	}
	return b.cost(c), nil
}

func (b *linearBackend) atMost(_ context.Context, st State, limit int) (bool, error) {
	d, err := b.distance(context.Background(), st)
	if err == ErrUnsolvable {
		return false, nil
	}
	return d <= limit, err
}

func (b *linearBackend) solve(_ context.Context, st State, _ bool) ([]int, error) {
	c, ok := b.best(st)
	if !ok {
		return nil, ErrUnsolvable
	}
	return expand(c), nil
}

// apply returns st after making each move j c[j] times.
func (b *linearBackend) apply(st State, c []int) State {
	out := st.Clone()
	for i := range out.Cells {
		v := int(out.Cells[i])
		for j, n := range c {
			v += n * b.a[i][j]
		}
		out.Cells[i] = uint8(v % b.k)
	}
	return out
}

// randomCounts draws counts uniformly.
func (b *linearBackend) randomCounts(r *rand.Rand) []int {
	c := make([]int, len(b.ord))
	for j := range c {
		c[j] = r.IntN(b.ord[j])
	}
	return c
}

// goalState returns a goal state as a State.
func (b *linearBackend) goalState(r *rand.Rand) State {
	g := b.sp.Goal.States[r.IntN(len(b.sp.Goal.States))]
	return b.sp.full(State{Cells: append([]uint8(nil), g...)})
}

// random applies uniform counts to a goal: the inverse of uniform counts
// is uniform, and each state of the goal's coset is hit equally often.
func (b *linearBackend) random(r *rand.Rand) (State, error) {
	return b.apply(b.goalState(r), b.randomCounts(r)), nil
}

func (b *linearBackend) atDistance(_ context.Context, r *rand.Rand, d int) (State, bool, error) {
	if cs := b.getCensus(); cs != nil {
		i, ok := cs.draw(r, d)
		return cs.state(b.sp, i), ok, nil
	}
	// Counts of total cost d, undone from a goal: the state is at
	// distance d when no cheaper counts solve it.
	for range 1 << 14 {
		c := make([]int, len(b.ord))
		left := d
		for range 4 * d {
			j := r.IntN(len(c))
			if cost := b.sp.Moves[j].Cost; c[j]+1 < b.ord[j] && cost <= left {
				c[j]++
				left -= cost
			}
			if left == 0 {
				break
			}
		}
		if left != 0 {
			continue
		}
		st := b.apply(b.goalState(r), negate(c, b.ord))
		if got, err := b.distance(context.Background(), st); err == nil && got == d {
			return st, true, nil
		}
	}
	return State{}, false, nil
}

// negate returns the counts that undo c.
func negate(c, ord []int) []int {
	n := make([]int, len(c))
	for j := range c {
		n[j] = (ord[j] - c[j]) % ord[j]
	}
	return n
}

func (b *linearBackend) deepest(_ context.Context, r *rand.Rand) (State, int, error) {
	if cs := b.getCensus(); cs != nil {
		d := len(cs.layers) - 1
		i, _ := cs.draw(r, d)
		return cs.state(b.sp, i), d, nil
	}
	var best State
	bestD := -1
	for range 4096 {
		st, _ := b.random(r)
		if d, err := b.distance(context.Background(), st); err == nil && d > bestD {
			best, bestD = st, d
		}
	}
	return best, bestD, nil
}

func (b *linearBackend) all() (iter.Seq[State], bool) {
	cs := b.getCensus()
	if cs == nil {
		return nil, false
	}
	return func(yield func(State) bool) {
		for i, d := range cs.dist {
			if d != unseen8 && !yield(cs.state(b.sp, uint64(i))) {
				return
			}
		}
	}, true
}

func (b *linearBackend) distribution() ([]uint64, bool) {
	if cs := b.getCensus(); cs != nil {
		return append([]uint64(nil), cs.layers...), true
	}
	return nil, false
}

// census is the distance of every state of a small additive puzzle.
type census struct {
	k      int
	dist   []byte // by the state's index: cell i is digit i, base k
	layers []uint64
}

func (b *linearBackend) getCensus() *census {
	b.censusOnce.Do(func() {
		n := new(big.Int).Exp(big.NewInt(int64(b.k)), big.NewInt(int64(b.sp.Cells)), nil)
		counts := big.NewInt(1)
		for _, o := range b.ord {
			counts.Mul(counts, big.NewInt(int64(o)))
		}
		if n.Cmp(big.NewInt(maxCensus)) > 0 || counts.Cmp(big.NewInt(4*maxCensus)) > 0 {
			return
		}
		b.census = b.takeCensus(int(n.Int64()))
	})
	return b.census
}

// takeCensus walks every count vector c like an odometer, from each goal
// g, through the states g - A c that c solves: every step subtracts one
// move's vector (a wrap does too, as a move's order times its vector is
// zero), so the state and the cost follow in a few operations; each state
// keeps the least cost seen.
func (b *linearBackend) takeCensus(n int) *census {
	sp := b.sp
	cs := &census{k: b.k, dist: make([]byte, n)}
	for i := range cs.dist {
		cs.dist[i] = unseen8
	}
	pw := make([]int, sp.Cells)
	for i := range pw {
		pw[i] = pow(b.k, i)
	}
	// touched[j] lists the cells move j changes and by how much.
	type touch struct{ cell, by int }
	touched := make([][]touch, len(b.ord))
	for j := range touched {
		for i, a := range b.a {
			if a[j] != 0 {
				touched[j] = append(touched[j], touch{i, a[j]})
			}
		}
	}
	for _, g := range sp.Goal.States {
		s := make([]int, sp.Cells)
		idx := 0
		for i, v := range g {
			s[i] = int(v)
			idx += int(v) * pw[i]
		}
		c := make([]int, len(b.ord))
		cost := 0
		for {
			if cost < int(cs.dist[idx]) {
				cs.dist[idx] = byte(min(cost, maxDistance8))
			}
			j := 0
			for ; j < len(c); j++ {
				for _, t := range touched[j] {
					nv := s[t.cell] - t.by
					if nv < 0 {
						nv += b.k
					}
					idx += (nv - s[t.cell]) * pw[t.cell]
					s[t.cell] = nv
				}
				if c[j]++; c[j] < b.ord[j] {
					cost += sp.Moves[j].Cost
					break
				}
				c[j] = 0
				cost -= (b.ord[j] - 1) * sp.Moves[j].Cost
			}
			if j == len(c) {
				break
			}
		}
	}
	for _, d := range cs.dist {
		if d != unseen8 {
			for len(cs.layers) <= int(d) {
				cs.layers = append(cs.layers, 0)
			}
			cs.layers[d]++
		}
	}
	return cs
}

// draw returns a uniformly random index of a state at distance d.
func (cs *census) draw(r *rand.Rand, d int) (uint64, bool) {
	if d >= len(cs.layers) || cs.layers[d] == 0 {
		return 0, false
	}
	k := r.Uint64N(cs.layers[d])
	for i, x := range cs.dist {
		if int(x) == d {
			if k == 0 {
				return uint64(i), true
			}
			k--
		}
	}
	return 0, false
}

func (cs *census) state(sp *Spec, i uint64) State {
	st := sp.scratch()
	for c := range st.Cells {
		st.Cells[c] = uint8(i % uint64(cs.k))
		i /= uint64(cs.k)
	}
	return st
}

// describeLinear names the method for messages.
func describeLinear(b *linearBackend) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "linear algebra modulo %d (a kernel of %d)", b.k, b.md.kernelSize(maxKernel))
	return sb.String()
}
