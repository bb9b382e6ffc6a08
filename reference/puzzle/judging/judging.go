// Package judging is the judging side of a defined puzzle: everything the
// judge does with a puzzle.yaml besides searching. It reads the cases of an
// input file as the definition's input format says (and so validates
// inputs, each problem at line:col), writes the reference's answers, judges
// a contestant's answers (replaying every move, the goal, the optimal
// length, lexicographic minimality and the final state's values, with
// messages in the puzzle's own terms and, for a valid answer that is too
// long, where it left the optimum), and generates and shrinks cases for
// judge gen and judge stress.
//
// The three layers stay apart: package puzzle is what a puzzle is (the
// definition), package engine finds distances and answers (it knows states
// and moves, nothing of files), and this package knows files and verdicts
// but never searches. Drawings are package explain's, from the layout.
//
// A Puzzle is made once per definition with New, which has the engine
// check that it can solve the puzzle at every size; its methods are safe
// for concurrent use. One Puzzle serves a definition's every use: its
// Checker judges outputs in a mode (the definition's, or a problem's
// checker option), its Reference writes answers and validates inputs, its
// Tools generate cases. The engine's solvers are built on first use,
// their tables kept in Options.CacheDir, and shared by every Puzzle of the
// same definition in the process while they stay in its cache.
package judging

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/optjudge/optjudge/reference/puzzle"
	"github.com/optjudge/optjudge/reference/puzzle/engine"
)

// Options configure a Puzzle.
type Options struct {
	// CacheDir keeps the engine's tables between runs (see
	// engine.DefaultCacheDir); "" keeps them in memory only.
	CacheDir string
}

// Puzzle is a valid definition ready for judging: its instances at every
// size, each with the engine's solver.
type Puzzle struct {
	def   *puzzle.Definition
	lo    int     // the smallest size, 0 for a single puzzle
	sizes []*size // by size-lo
	w     words

	indepOnce sync.Once
	indep     bool // see independent
	depthOnce sync.Once
	depthMax  int // see maxDepth

	// distance and smallest stand in for the engine in tests of the
	// checker's judge errors; nil in use.
	distance func(Position) (int, error)
	smallest func(Position) ([]int, error)
}

// size is the puzzle at one size.
type size struct {
	in     *puzzle.Instance
	solver *engine.Solver
	// sim, in mode at_most, decides solvability without tables; solver
	// is then the searching one where the engine has a plan (for the
	// reference's answers), else sim too.
	sim *engine.Solver
	// fixed are the cells no move changes: a case must hold there what
	// the goal holds (nil for a goal of cells holding one symbol).
	fixed []int
	// stepping: every move costs 1 and has its inverse among the moves,
	// so that neighbours' distances differ by at most one.
	stepping bool
	// perm: every symbol is in exactly one cell, read one by one.
	perm bool
	// byByte is the value of each one-character symbol, -1 for none: the
	// input's tokens are looked up here first. moveByByte is the same for
	// the moves' names.
	byByte, moveByByte [256]int16
}

// moveOf is the index of the move written tok, -1 for none.
func (s *size) moveOf(tok string) int {
	if len(tok) == 1 {
		return int(s.moveByByte[tok[0]])
	}
	if m, ok := s.in.Move(tok); ok {
		return m
	}
	return -1
}

// Position is a state of the puzzle at a size (0 for a single puzzle).
type Position struct {
	Size  int
	State engine.State
}

// New readies a valid definition (see puzzle.Definition.Validate) for
// judging. It fails, with an error that names the definition's file and
// line, when the engine has no way to solve the puzzle at some size.
func New(def *puzzle.Definition, opts Options) (*Puzzle, error) {
	p := &Puzzle{def: def}
	// in mode at_most, a solver without tables decides solvability: the
	// search (for the reference's answers) may not fit the budget
	atMost := def.Mode == puzzle.ModeAtMost
	lo, hi := def.Sizes()
	p.lo = lo
	for n := lo; n <= hi; n++ {
		in, err := def.Instance(n)
		if err != nil {
			return nil, err
		}
		var sim *engine.Solver
		if atMost {
			if sim, err = solverFor(in.Spec, opts.CacheDir, true); err != nil {
				return nil, searchError(def, n, err)
			}
		}
		s, err := solverFor(in.Spec, opts.CacheDir, false)
		if err != nil && sim != nil {
			s, err = sim, nil
		}
		if err != nil {
			return nil, searchError(def, n, err)
		}
		sz := &size{in: in, solver: s, sim: sim, fixed: fixedCells(in.Spec), stepping: stepping(in.Spec), perm: permutation(in)}
		for i := range sz.byByte {
			sz.byByte[i], sz.moveByByte[i] = -1, -1
		}
		for m, name := range in.Moves {
			if len(name) == 1 {
				sz.moveByByte[name[0]] = int16(m)
			}
		}
		for v, sym := range in.Symbols {
			if len(sym) == 1 {
				sz.byByte[sym[0]] = int16(v)
			}
		}
		p.sizes = append(p.sizes, sz)
	}
	p.w = newWords(p)
	return p, nil
}

// searchError is the engine's refusal as an error about the definition.
func searchError(def *puzzle.Definition, n int, err error) error {
	field := "moves"
	if def.Line("search") > 0 {
		field = "search"
	}
	msg := "the engine cannot solve this puzzle: " + err.Error()
	if n > 0 {
		msg = fmt.Sprintf("at size %d, %s", n, msg)
	}
	return &puzzle.Error{File: def.File(), Line: def.Line(field), Field: field, Msg: msg}
}

// fixedCells are the cells no move changes, when the goal is one state.
func fixedCells(sp *engine.Spec) []int {
	if len(sp.Goal.States) != 1 || sp.Rules != nil {
		return nil
	}
	var fixed []int
	for c := range sp.Cells {
		if !sp.Moved([]int{c}) && !twisted(sp, c) && !added(sp, c) {
			fixed = append(fixed, c)
		}
	}
	return fixed
}

func twisted(sp *engine.Spec, c int) bool {
	for _, m := range sp.Moves {
		if m.Twist != nil && m.Twist[c] != 0 {
			return true
		}
	}
	return false
}

func added(sp *engine.Spec, c int) bool {
	for _, m := range sp.Moves {
		if m.Add != nil && m.Add[c] != 0 {
			return true
		}
	}
	return false
}

// stepping reports whether every move costs 1 and some move undoes it.
func stepping(sp *engine.Spec) bool {
	if sp.Rules != nil {
		return false // tables answer rules' distances
	}
	for i := range sp.Moves {
		m := &sp.Moves[i]
		if m.Cost != 1 {
			return false
		}
		undone := false
		for j := range sp.Moves {
			o := &sp.Moves[j]
			if m.Slide != engine.SlideNone {
				undone = undone || o.Slide == m.Slide.Opposite()
				continue
			}
			if o.Slide == engine.SlideNone {
				t := sp.Then(m, o)
				undone = undone || sp.IsIdentity(&t)
			}
		}
		if !undone {
			return false
		}
	}
	return true
}

// Definition returns the puzzle's definition.
func (p *Puzzle) Definition() *puzzle.Definition { return p.def }

// Name is the definition's name ("" when it gives none).
func (p *Puzzle) Name() string { return p.def.Name }

// Instance returns the puzzle at size n (0 for a single puzzle).
func (p *Puzzle) Instance(n int) *puzzle.Instance { return p.at(n).in }

func (p *Puzzle) at(n int) *size { return p.sizes[n-p.lo] }

// Distance is the optimal cost from pos to the goal; -1 when no sequence
// of moves reaches it. A search stops when ctx ends.
func (p *Puzzle) Distance(ctx context.Context, pos Position) (int, error) {
	var d int
	var err error
	if p.distance != nil {
		d, err = p.distance(pos)
	} else {
		d, err = p.at(pos.Size).solver.Distance(ctx, pos.State)
	}
	if errors.Is(err, engine.ErrUnsolvable) {
		return -1, nil
	}
	return d, err
}

// Smallest is the reference's answer from pos: the lexicographically
// smallest of the optimal move sequences, as indices of the instance's
// moves; ok is false when pos cannot be solved. A search stops when ctx
// ends.
func (p *Puzzle) Smallest(ctx context.Context, pos Position) (moves []int, ok bool, err error) {
	if p.smallest != nil {
		moves, err = p.smallest(pos)
	} else {
		moves, err = p.at(pos.Size).solver.Solve(ctx, pos.State)
	}
	if errors.Is(err, engine.ErrUnsolvable) {
		return nil, false, nil
	}
	return moves, err == nil, err
}

// Apply makes the move at index m of the instance on pos; false when it
// cannot be made there (a slide off the grid).
func (p *Puzzle) Apply(pos Position, m int) (Position, bool) {
	st, ok := p.at(pos.Size).in.Spec.Apply(pos.State, m)
	return Position{Size: pos.Size, State: st}, ok
}

// Solvable reports whether some sequence of moves takes pos to the goal;
// the engine tells without a search.
func (p *Puzzle) Solvable(pos Position) (bool, error) {
	if p.distance != nil {
		d, err := p.distance(pos)
		return d >= 0, err
	}
	if s := p.at(pos.Size); s.sim != nil {
		return s.sim.Solvable(pos.State)
	}
	return p.at(pos.Size).solver.Solvable(pos.State)
}

// Solved reports whether pos is a goal state.
func (p *Puzzle) Solved(pos Position) bool {
	return p.at(pos.Size).in.Spec.IsGoal(p.full(pos).State)
}

// full returns pos with an orientation array where the puzzle has them.
func (p *Puzzle) full(pos Position) Position {
	sp := p.at(pos.Size).in.Spec
	if sp.Orient >= 2 && pos.State.Orient == nil {
		pos.State.Orient = make([]uint8, sp.Cells)
	}
	return pos
}

// cost is the cost of a sequence of moves.
func (p *Puzzle) cost(n int, moves []int) int {
	sp := p.at(n).in.Spec
	c := 0
	for _, m := range moves {
		c += sp.Moves[m].Cost
	}
	return c
}

// unitCost reports whether every move of every size costs 1, so that a
// cost is a number of moves.
func (p *Puzzle) unitCost() bool {
	for _, s := range p.sizes {
		for _, m := range s.in.Spec.Moves {
			if m.Cost != 1 {
				return false
			}
		}
	}
	return true
}

// cheap reports whether the engine answers a distance at size n from a
// table or by linear algebra, without a search.
func (p *Puzzle) cheap(n int) bool {
	m := p.at(n).solver.Method()
	return m == engine.MethodTable || m == engine.MethodLinear || m == engine.MethodBFS
}
