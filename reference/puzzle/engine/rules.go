package engine

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"time"
)

// Rules are moves with conditions, given by a program rather than as
// data: a disc goes only onto a larger one (Tower of Hanoi), a jug is
// poured until one is empty or the other full, a car slides while the way
// is free (Rush Hour, Klotski). Package rules (reference/puzzle/rules)
// makes them from a definition's Starlark; Guarded is their compiled form,
// which the engine applies itself.
//
// A Spec with Rules has a state of Cells symbols, Moves that carry only a
// name and a cost (the rules say where each can be made and what it does),
// no Goal, Counts, grid or blank: the rules give them. Methods may be
// called concurrently.
type Rules interface {
	// Successors calls yield with each move that can be made from st, in
	// the order that defines lexicographic order, and the state it leads
	// to, which yield must not keep or change.
	Successors(st []uint8, yield func(m int, next []uint8)) error
	// Goal reports whether st is solved.
	Goal(st []uint8) (bool, error)
	// Target writes into dst the one goal state that st's case wants (for
	// a goal a case gives, such as Hanoi's arrangement to reach); false
	// when the goal is a predicate that many states meet.
	Target(dst, st []uint8) (bool, error)
	// Key appends st's canonical encoding to dst: states with one key are
	// one state for distances (pieces of one shape, told apart only by
	// their letters). The moves and the goal must not tell them apart.
	Key(dst, st []uint8) []uint8
	// Heuristic is a lower bound of st's distance to the goal; ok is
	// false when the rules give none. Heuristic(nil) only tells whether
	// they do.
	Heuristic(st []uint8) (h int, ok bool, err error)
	// Check reports why st is not a valid state, nil when it is.
	Check(st []uint8) error
	// Random draws a valid state.
	Random(r *rand.Rand) ([]uint8, error)
	// Reversible reports whether the rules declare that every move is
	// undone by a move of the same cost.
	Reversible() bool
	// Fingerprint identifies the rules (a hash of their source and
	// settings), for Spec.Key.
	Fingerprint() string
	// Describe writes st for messages.
	Describe(st []uint8) string
}

// Budget bounds the work of one search of rules: past it, the search
// fails with an error that says which bound it passed, never hangs.
type Budget struct {
	// States is the most states one search may keep.
	States int
	// Time is the longest one search may take.
	Time time.Duration
}

// Defaults of a Budget's zero fields.
const (
	DefaultBudgetStates = 4 << 20
	DefaultBudgetTime   = 60 * time.Second
	// MaxRuleMoves bounds the moves' names of rules (rules do not use
	// canonical sequences, whose one bit a move limits others to MaxMoves).
	MaxRuleMoves = 1 << 14
)

// ErrBudget is wrapped by the errors of searches that passed their
// budget.
var ErrBudget = errors.New("past the search's budget")

func (b Budget) states() int {
	if b.States > 0 {
		return b.States
	}
	return DefaultBudgetStates
}

func (b Budget) time() time.Duration {
	if b.Time > 0 {
		return b.Time
	}
	return DefaultBudgetTime
}

// checkRules is Check for a Spec with Rules.
func (sp *Spec) checkRules() error {
	switch {
	case sp.Cells < 1 || sp.Cells > MaxCells:
		return fmt.Errorf("%d cells, want 1 to %d", sp.Cells, MaxCells)
	case sp.Symbols < 1 || sp.Symbols > MaxSymbols:
		return fmt.Errorf("%d symbols, want 1 to %d", sp.Symbols, MaxSymbols)
	case len(sp.Moves) < 1 || len(sp.Moves) > MaxRuleMoves:
		return fmt.Errorf("%d moves, want 1 to %d", len(sp.Moves), MaxRuleMoves)
	case sp.Orient != 0 || sp.Blank >= 0 || sp.Counts != nil || sp.Rows != 0:
		return errors.New("rules give the moves: no orientations, blank, counts or grid")
	case len(sp.Goal.States) > 0 || len(sp.Goal.Same) > 0:
		return errors.New("rules give the goal")
	}
	for i, m := range sp.Moves {
		if m.Cost < 1 {
			return fmt.Errorf("move %d (%s): cost %d, want at least 1", i, m.Name, m.Cost)
		}
		if m.Perm != nil || m.Twist != nil || m.Add != nil || m.Slide != SlideNone {
			return fmt.Errorf("move %d (%s): the rules make it", i, m.Name)
		}
	}
	return nil
}

// applyRules is Apply for a Spec with Rules: the state after move m,
// false when m cannot be made from s (or the rules failed there).
func (sp *Spec) applyRules(s State, m int) (State, bool) {
	var t State
	err := sp.Rules.Successors(s.Cells, func(mv int, next []uint8) {
		if mv == m && t.Cells == nil {
			t.Cells = append([]uint8(nil), next...)
		}
	})
	if err != nil || t.Cells == nil {
		return s, false
	}
	return t, true
}

// Invalid is the error of Rules.Check for a state the rules call not
// valid, as opposed to the rules failing.
type Invalid struct{ Why string }

func (e *Invalid) Error() string { return e.Why }
