package judging

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/optjudge/optjudge/reference"
	"github.com/optjudge/optjudge/reference/puzzle"
	"github.com/optjudge/optjudge/reference/puzzle/engine"
)

// Reference is the puzzle as the judge's exact reference: Solve and
// Validate whole input files.
func (p *Puzzle) Reference() *reference.Solver {
	return &reference.Solver{
		Name:     p.name(),
		Solve:    p.Solve,
		Validate: p.Validate,
		BuildTime: func() time.Duration {
			var t time.Duration
			for _, s := range p.sizes {
				t += s.solver.BuildTime()
			}
			return t
		},
	}
}

// maxAll is the most cases Tools.All enumerates.
const maxAll = 1 << 22

// Tools are the puzzle's generators and operations on cases for judge gen
// and judge stress.
func (p *Puzzle) Tools() *reference.Tools {
	t := &reference.Tools{
		Unique:    p.unique(),
		MultiCase: p.w.multi,
		MaxDepth:  p.maxDepth,
		Generate:  p.generate,
		Split:     p.Split,
		Join:      p.joinCases,
		Depth:     p.depth,
		Path:      p.path,
		AtDepth:   p.atDepth,
	}
	if p.enumerable() {
		t.All = p.all
	}
	return t
}

// hi is the largest size, 0 for a single puzzle.
func (p *Puzzle) hi() int { return p.lo + len(p.sizes) - 1 }

// unique reports whether each case has one right answer in the
// definition's mode: the smallest of the optimal ones is wanted, or the
// shortest are wanted, listed in declared order, of moves that add and
// that no two sets of counts tie.
func (p *Puzzle) unique() bool {
	switch p.def.Mode {
	case puzzle.ModeSmallest:
		return true
	case puzzle.ModeShortest:
		return p.def.Output.Order == puzzle.OrderAscending && p.independent()
	}
	return false
}

// independent reports whether the moves all add and no two sets of move
// counts (each below the number of symbols) have the same effect, so that
// an optimal multiset of moves is unique.
func (p *Puzzle) independent() bool {
	p.indepOnce.Do(func() {
		p.indep = true
		for _, s := range p.sizes {
			p.indep = p.indep && addsIndependently(s.in.Spec)
		}
	})
	return p.indep
}

func addsIndependently(sp *engine.Spec) bool {
	for _, m := range sp.Moves {
		if m.Add == nil || m.Perm != nil || m.Twist != nil || m.Slide != engine.SlideNone {
			return false
		}
	}
	k, total := sp.Symbols, 1
	for range sp.Moves {
		if total *= k; total > 1<<20 {
			return false
		}
	}
	seen := make(map[string]bool, total)
	counts := make([]int, len(sp.Moves))
	st := make([]byte, sp.Cells)
	for range total {
		clear(st)
		for j, c := range counts {
			for i, a := range sp.Moves[j].Add {
				st[i] = byte((int(st[i]) + c*a) % k)
			}
		}
		if seen[string(st)] {
			return false
		}
		seen[string(st)] = true
		for j := range counts {
			if counts[j]++; counts[j] < k {
				break
			}
			counts[j] = 0
		}
	}
	return true
}

// enumerable reports whether the engine may list every case: at every
// size, from a table or by linear algebra. Whether they are few enough
// (maxAll) is known once the tables are built, which all does.
func (p *Puzzle) enumerable() bool {
	for n := p.lo; n <= p.hi(); n++ {
		if !p.cheap(n) {
			return false
		}
	}
	return true
}

// all lists every case that can be solved: one file of them all where a
// file holds several cases, else one file each; and where a case may have
// no solution, a thousand such drawn with r. It returns nil when there are
// more than maxAll cases.
func (p *Puzzle) all(r *rand.Rand) [][]byte {
	total := uint64(0)
	for _, s := range p.sizes {
		if err := s.solver.Prepare(); err != nil {
			return nil
		}
		dist, ok := s.solver.Distribution()
		if _, listed := s.solver.All(); !ok || !listed {
			return nil
		}
		for _, n := range dist {
			total += n
		}
	}
	if total > maxAll {
		return nil
	}
	var ps []Position
	for n := p.lo; n <= p.hi(); n++ {
		seq, _ := p.at(n).solver.All()
		for st := range seq {
			ps = append(ps, Position{Size: n, State: st.Clone()})
		}
	}
	if p.def.Output.Unsolvable != "" && r != nil {
		for range 1000 {
			if pos, ok := p.randomUnsolvable(r); ok {
				ps = append(ps, pos)
			}
		}
	}
	if p.w.multi {
		return [][]byte{p.format(ps)}
	}
	files := make([][]byte, len(ps))
	for i, pos := range ps {
		files[i] = p.format([]Position{pos})
	}
	return files
}

// maxDepth is the greatest optimal distance of any case: of the largest
// size's, exactly where the engine has a table, else the deepest it found.
func (p *Puzzle) maxDepth() int {
	p.depthOnce.Do(func() {
		if bound := p.def.Input.MaxDistance; bound > 0 {
			p.depthMax = bound
			return
		}
		s := p.at(p.hi())
		if dist, ok := s.solver.Distribution(); ok {
			p.depthMax = len(dist) - 1
			return
		}
		if _, d, err := s.solver.Deepest(context.Background(), rand.New(rand.NewPCG(0, 0))); err == nil {
			p.depthMax = d
		}
	})
	return p.depthMax
}

// randomSize draws a size of a family, each as often; 0 for a single
// puzzle.
func (p *Puzzle) randomSize(r *rand.Rand) int {
	lo, hi := p.def.Sizes()
	if hi == 0 {
		return 0
	}
	return lo + r.IntN(hi-lo+1)
}

// generate writes an input file of n cases (one for a one-case format) of
// a kind, Random or Deep.
func (p *Puzzle) generate(kind string, r *rand.Rand, n int) ([]byte, error) {
	if kind != reference.Random && kind != reference.Deep {
		return nil, fmt.Errorf("unknown kind %q (want %s or %s)", kind, reference.Random, reference.Deep)
	}
	if !p.w.multi {
		n = 1
	}
	ps := make([]Position, n)
	for i := range ps {
		var err error
		if ps[i], err = p.draw(kind, r); err != nil {
			return nil, err
		}
	}
	return p.format(ps), nil
}

// draw draws one case of a kind. A random case is uniform over the valid
// ones: over those that can be solved, and where the output has a text
// for a case without a solution, over every arrangement of the symbols.
func (p *Puzzle) draw(kind string, r *rand.Rand) (Position, error) {
	if bound := p.def.Input.MaxDistance; bound > 0 {
		return p.scramble(kind, r, bound)
	}
	if kind == reference.Deep {
		n := p.deepestSize()
		st, _, err := p.at(n).solver.Deepest(context.Background(), r)
		return Position{Size: n, State: st}, err
	}
	n := p.randomSize(r)
	if p.def.Output.Unsolvable != "" && p.def.Rules == nil {
		if pos, ok := p.arrangement(n, r); ok {
			return pos, nil
		}
	}
	st, err := p.at(n).solver.Random(r)
	return Position{Size: n, State: st}, err
}

// deepestSize is the size whose cases are the deepest: the largest.
func (p *Puzzle) deepestSize() int { return p.hi() }

// arrangement draws a state uniformly among the arrangements of the goal's
// symbols (for moves that only move symbols around) or among all states
// (for moves that add), the cells no move changes as the goal has them;
// false where the puzzle has orientations.
func (p *Puzzle) arrangement(n int, r *rand.Rand) (Position, bool) {
	s := p.at(n)
	sp := s.in.Spec
	if sp.Orient >= 2 {
		return Position{}, false
	}
	st := engine.State{Cells: make([]uint8, sp.Cells)}
	fixed := map[int]bool{}
	for _, c := range s.fixed {
		fixed[c] = true
		st.Cells[c] = sp.Goal.States[0][c]
	}
	if sp.Counts == nil {
		for c := range st.Cells {
			if !fixed[c] {
				st.Cells[c] = uint8(r.IntN(sp.Symbols))
			}
		}
		return Position{Size: n, State: st}, true
	}
	var pool []uint8
	counts := append([]int(nil), sp.Counts...)
	for _, c := range s.fixed {
		counts[st.Cells[c]]--
	}
	for v, c := range counts {
		for range c {
			pool = append(pool, uint8(v))
		}
	}
	r.Shuffle(len(pool), func(i, j int) { pool[i], pool[j] = pool[j], pool[i] })
	i := 0
	for c := range st.Cells {
		if !fixed[c] {
			st.Cells[c] = pool[i]
			i++
		}
	}
	return Position{Size: n, State: st}, true
}

// SomeUnsolvable says whether some case of the puzzle has no solution, as
// far as a thousand random arrangements of its symbols tell: false when
// none of them lacks one (every case may be solvable then). known is
// false where cases are not drawn so (a puzzle given by rules).
func (p *Puzzle) SomeUnsolvable() (some, known bool) {
	if p.def.Rules != nil {
		return false, false
	}
	r := rand.New(rand.NewPCG(1, 1))
	if _, ok := p.arrangement(p.randomSize(r), r); !ok {
		return false, false
	}
	_, some = p.randomUnsolvable(r)
	return some, true
}

// randomUnsolvable draws a case that cannot be solved; false when a
// thousand draws found none.
func (p *Puzzle) randomUnsolvable(r *rand.Rand) (Position, bool) {
	for range 1000 {
		pos, ok := p.arrangement(p.randomSize(r), r)
		if !ok {
			return Position{}, false
		}
		if ok, err := p.Solvable(pos); err == nil && !ok {
			return pos, true
		}
	}
	return Position{}, false
}

// one reads a one-case input.
func (p *Puzzle) one(c []byte) (Position, error) {
	cases, err := p.Cases(c)
	if err == nil && len(cases) != 1 {
		err = fmt.Errorf("want one case, got %d", len(cases))
	}
	if err != nil {
		return Position{}, err
	}
	return cases[0].Position, nil
}

// depth is the optimal distance of a one-case input, -1 without solution.
func (p *Puzzle) depth(c []byte) (int, error) {
	pos, err := p.one(c)
	if err != nil {
		return 0, err
	}
	return p.Distance(context.Background(), pos)
}

// path is the one-case inputs along the reference's answer for c.
func (p *Puzzle) path(c []byte) ([][]byte, error) {
	pos, err := p.one(c)
	if err != nil {
		return nil, err
	}
	states, err := p.at(pos.Size).solver.Path(context.Background(), pos.State)
	if errors.Is(err, engine.ErrUnsolvable) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	out := make([][]byte, len(states))
	for i, st := range states {
		out[i] = p.format([]Position{{Size: pos.Size, State: st}})
	}
	return out, nil
}

// atDepth draws a one-case input at optimal distance d.
func (p *Puzzle) atDepth(r *rand.Rand, d int) ([]byte, bool) {
	n := p.deepestSize()
	st, ok, err := p.at(n).solver.AtDistance(context.Background(), r, d)
	if err != nil || !ok {
		return nil, false
	}
	return p.format([]Position{{Size: n, State: st}}), true
}

// scramble draws a case of a definition whose cases are at most bound
// moves from solved: a random one is bound random moves from the goal
// (never a move and its inverse), a deep one at exactly bound moves.
func (p *Puzzle) scramble(kind string, r *rand.Rand, bound int) (Position, error) {
	n := p.deepestSize()
	s := p.at(n)
	if kind == reference.Deep {
		st, ok, err := s.solver.AtDistance(context.Background(), r, bound)
		if err == nil && !ok {
			err = fmt.Errorf("no position found at %d moves", bound)
		}
		return Position{Size: n, State: st}, err
	}
	sp := s.in.Spec
	st := engine.State{Cells: slices.Clone(sp.Goal.States[0])}
	if sp.Orient >= 2 {
		st.Orient = make([]uint8, sp.Cells)
	}
	last := -1
	for made := 0; made < bound; {
		m := r.IntN(len(sp.Moves))
		next, ok := sp.Apply(st, m)
		if !ok || last >= 0 && merges(sp, last, m) {
			continue
		}
		st, last = next, m
		made++
	}
	return Position{Size: n, State: st}, nil
}

// merges reports whether move a then move b is no move or one move (U
// then U', U then U2 on a cube), which a scramble does not make.
func merges(sp *engine.Spec, a, b int) bool {
	g := engine.State{Cells: sp.Goal.States[0]}
	if sp.Orient >= 2 {
		g.Orient = make([]uint8, sp.Cells)
	}
	s, _ := sp.Apply(g, a)
	s, _ = sp.Apply(s, b)
	if s.Equal(g) {
		return true
	}
	for c := range sp.Moves {
		if t, ok := sp.Apply(g, c); ok && t.Equal(s) {
			return true
		}
	}
	return false
}
