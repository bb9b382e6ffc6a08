package engine

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
)

// Guarded are rules compiled to data, which the engine applies at native
// speed: every move is a list of variants, each a guard (conditions on
// cells) and an effect (cells set); from a state, a move can be made where
// one of its variants' guards holds, and two holding at once is an error.
// Rush Hour's "slide car B right 2" is one variant per place B can be in:
// B's cells hold B, the cell before it does not, the two after it are
// empty; then those cells change. Successors tries only the variants
// anchored at a state's cells (each variant is filed under one of its
// rarest conditions "cell c holds v"), through a decision graph of each
// anchor's variants (see matcher), so that a state costs about a hundred
// comparisons however many variants there are.
//
// The hooks are what data cannot say; the rules package sets them from
// the Starlark: Check (valid), Heuristic, Random and Describe.
type Guarded struct {
	// Names are the moves' names (the Spec's Moves), Variants their
	// variants.
	Names    []string
	Variants []Variant
	// Goals: the goal holds where any of them holds, each a list of
	// conditions that all hold.
	Goals [][]Cond
	// Targets make the case's one goal state from a state: those cells
	// set. Nil when the goal is a predicate.
	Targets []Assign
	// Relabel marks the symbols that name pieces: a state's key renames
	// them in the order they first appear, so that pieces of one shape
	// are interchangeable. Nil: the key is the state.
	Relabel []bool
	// Undoable says that every move is undone by one of the same cost.
	Undoable bool
	// ID identifies the rules, for Fingerprint.
	ID string

	// GoalFunc and TargetFunc stand for Goals and Targets where the
	// rules give them as code called on a state.
	GoalFunc      func(st []uint8) (bool, error)
	TargetFunc    func(dst, st []uint8) (bool, error)
	CheckFunc     func(st []uint8) error
	HeuristicFunc func(st []uint8) (int, error)
	RandomFunc    func(r *rand.Rand) ([]uint8, error)
	DescribeFunc  func(st []uint8) string

	once  sync.Once
	match *matcher
	// each variant's move, and its sets: sets[setAt[i]:setAt[i+1]]
	moveOf   []int32
	sets     []set
	setAt    []int32
	relabel  []uint8   // the relabelled symbols, ascending
	relabels [256]bool // whether each symbol is relabelled
	pool     sync.Pool // *guardScratch
}

// Variant is one way of making a move; Where is the place in the rules
// that made it ("puzzle.yaml:41"), for messages.
type Variant struct {
	Move  int
	When  []Cond
	Set   []Assign
	Where string
}

// Cond is a condition on a cell: it holds Value (or, with Other >= 0,
// what cell Other holds); Not negates it. With Also, the condition is
// that both hold, before Not negates the whole: a piece at a row and a
// column ("G is not at 3, 4"). Also's own Not and Also are not used.
type Cond struct {
	Cell  int
	Value uint8
	Other int
	Not   bool
	Also  *Cond
}

// Assign sets a cell to Value (or, with From >= 0, to what cell From held
// before the move).
type Assign struct {
	Cell  int
	Value uint8
	From  int
}

func (c *Cond) holds(st []uint8) bool {
	v := c.Value
	if c.Other >= 0 {
		v = st[c.Other]
	}
	eq := st[c.Cell] == v
	if a := c.Also; a != nil && eq {
		w := a.Value
		if a.Other >= 0 {
			w = st[a.Other]
		}
		eq = st[a.Cell] == w
	}
	return eq != c.Not
}

func allHold(cs []Cond, st []uint8) bool {
	for i := range cs {
		if !cs[i].holds(st) {
			return false
		}
	}
	return true
}

// guardScratch is one call's buffers.
type guardScratch struct {
	found []int32
	next  []uint8
}

// set is an Assign packed for Successors' inner loop.
type set struct {
	cell, from int16
	value      uint8
}

// index files every variant under a plain condition, its anchor, and
// compiles the variants of each anchor (see matcher). The anchor is the
// one on the first cell among the conditions at most twice as frequent as
// the rarest: the variants of a piece at a place then share the anchor of
// its first cell (the rarest alone would spread them over its cells by
// the edge effects on their frequencies), and one walk serves them all.
func (g *Guarded) index() {
	plain := func(c Cond) bool { return c.Other < 0 && !c.Not && c.Also == nil }
	freq := map[int]int{}
	for _, v := range g.Variants {
		for _, c := range v.When {
			if plain(c) {
				freq[c.Cell<<8|int(c.Value)]++
			}
		}
	}
	anchors := 0
	anchor := make([]int, len(g.Variants))
	for i, v := range g.Variants {
		least := 0
		for _, c := range v.When {
			if k := c.Cell<<8 | int(c.Value); plain(c) && (least == 0 || freq[k] < least) {
				least = freq[k]
			}
		}
		best := -1
		for _, c := range v.When {
			if k := c.Cell<<8 | int(c.Value); plain(c) && freq[k] <= 2*least && (best < 0 || k < best) {
				best = k
			}
		}
		anchor[i], anchors = best, max(anchors, best+1)
	}
	filed := make([][]int32, anchors)
	var free []int32
	for i, a := range anchor {
		if a < 0 {
			free = append(free, int32(i))
		} else {
			filed[a] = append(filed[a], int32(i))
		}
	}
	g.match = newMatcher(g.Variants, anchors, func(a int) []int32 { return filed[a] }, free)
	for v, r := range g.Relabel {
		if r {
			g.relabel = append(g.relabel, uint8(v))
			g.relabels[v] = true
		}
	}
	g.setAt = []int32{0}
	for _, v := range g.Variants {
		g.moveOf = append(g.moveOf, int32(v.Move))
		for _, a := range v.Set {
			g.sets = append(g.sets, set{int16(a.Cell), int16(a.From), a.Value})
		}
		g.setAt = append(g.setAt, int32(len(g.sets)))
	}
	g.pool.New = func() any { return &guardScratch{} }
}

// Successors calls yield with each move that can be made from st, in the
// order of the moves; an error when two variants of one move hold.
func (g *Guarded) Successors(st []uint8, yield func(m int, next []uint8)) error {
	g.once.Do(g.index)
	s := g.pool.Get().(*guardScratch)
	defer g.pool.Put(s)
	m := g.match
	found := s.found[:0]
	for c, v := range st {
		if int(v) >= m.stride {
			continue
		}
		a := c*m.stride + int(v)
		if a >= len(m.roots) {
			break
		}
		if r := m.roots[a]; r >= 0 {
			found = m.match(r, st, found)
		}
	}
	found = m.match(m.free, st, found)
	s.found = found
	// Few variants hold at once: an insertion sort by move, which puts
	// two variants of one move side by side.
	move := g.moveOf
	for i := 1; i < len(found); i++ {
		for j := i; j > 0 && move[found[j]] < move[found[j-1]]; j-- {
			found[j], found[j-1] = found[j-1], found[j]
		}
	}
	for k, i := range found {
		if k > 0 && move[i] == move[found[k-1]] {
			v, prev := &g.Variants[i], &g.Variants[found[k-1]]
			return fmt.Errorf("%s: move %q can be made two ways (also %s) from %s", v.Where, g.Names[v.Move], prev.Where, g.Describe(st))
		}
		next := append(s.next[:0], st...)
		for _, a := range g.sets[g.setAt[i]:g.setAt[i+1]] {
			if a.from >= 0 {
				next[a.cell] = st[a.from]
			} else {
				next[a.cell] = a.value
			}
		}
		s.next = next
		yield(int(move[i]), next)
	}
	return nil
}

// Goal reports whether one of the goal's alternatives holds.
func (g *Guarded) Goal(st []uint8) (bool, error) {
	if g.Goals == nil && g.GoalFunc != nil {
		return g.GoalFunc(st)
	}
	for _, alt := range g.Goals {
		if allHold(alt, st) {
			return true, nil
		}
	}
	return false, nil
}

// Target writes the case's goal state.
func (g *Guarded) Target(dst, st []uint8) (bool, error) {
	if g.Targets == nil {
		if g.TargetFunc != nil {
			return g.TargetFunc(dst, st)
		}
		return false, nil
	}
	copy(dst, st)
	for _, a := range g.Targets {
		if a.From >= 0 {
			dst[a.Cell] = st[a.From]
		} else {
			dst[a.Cell] = a.Value
		}
	}
	return true, nil
}

// Key appends st, its piece symbols renamed in order of appearance: the
// k-th of them to appear becomes the k-th relabelled symbol in ascending
// order. Two states get one key exactly when they differ by a renaming of
// the relabelled symbols.
func (g *Guarded) Key(dst, st []uint8) []uint8 {
	g.once.Do(g.index)
	from := len(dst)
	dst = append(dst, st...)
	if g.Relabel == nil {
		return dst
	}
	// to[s] is 1 + what the relabelled symbol s has become, 0 until it
	// appears.
	var to [256]uint16
	k := 0
	for i, v := range dst[from:] {
		if !g.relabels[v] {
			continue
		}
		if to[v] == 0 {
			to[v] = uint16(g.relabel[k]) + 1
			k++
		}
		dst[from+i] = uint8(to[v] - 1)
	}
	return dst
}

func (g *Guarded) Heuristic(st []uint8) (int, bool, error) {
	if g.HeuristicFunc == nil || st == nil {
		return 0, g.HeuristicFunc != nil, nil
	}
	h, err := g.HeuristicFunc(st)
	return h, true, err
}

func (g *Guarded) Check(st []uint8) error {
	if g.CheckFunc == nil {
		return nil
	}
	return g.CheckFunc(st)
}

func (g *Guarded) Random(r *rand.Rand) ([]uint8, error) {
	if g.RandomFunc == nil {
		return nil, errors.New("the rules draw no random state")
	}
	return g.RandomFunc(r)
}

func (g *Guarded) Reversible() bool    { return g.Undoable }
func (g *Guarded) Fingerprint() string { return g.ID }

func (g *Guarded) Describe(st []uint8) string {
	if g.DescribeFunc != nil {
		return g.DescribeFunc(st)
	}
	return fmt.Sprint(st)
}
