package engine

import (
	"context"
	"errors"
	"iter"
	"math/rand/v2"
)

// errSimulateOnly is what a solver made with Options.Simulate answers to a
// question that needs a search.
var errSimulateOnly = errors.New("the solver only simulates (mode at_most): it has no tables and does not search")

// simulation is the backend of Options.Simulate for a puzzle of distinct
// pieces: the group of the moves decides solvability and draws random
// states; nothing is searched, so that a puzzle far too large for any
// table (the megaminx) can still be judged by simulation and a bound.
type simulation struct {
	sp    *Spec
	group *group
	goal  []uint8
}

// newSimulation returns the backend, or nil where the group does not
// describe the puzzle (moves that add or slide, several goals or
// identical pieces): the solver then plans as without the option.
func newSimulation(sp *Spec) *simulation {
	k := kindOf(sp)
	if sp.Rules != nil || searchable(sp, k) != "" || k.slides {
		return nil
	}
	return &simulation{sp: sp, goal: sp.Goal.States[0]}
}

func (b *simulation) method() Method { return MethodSearch }

func (b *simulation) prepare() error {
	var gens []perm
	for i := range b.sp.Moves {
		gens = append(gens, b.sp.movePerm(&b.sp.Moves[i]))
	}
	b.group = newGroup(pointsOf(b.sp), gens)
	return nil
}

func (b *simulation) solvable(st State) bool {
	p, ok := b.sp.statePerm(b.goal, st)
	return ok && b.group.contains(p)
}

func (b *simulation) distance(context.Context, State) (int, error) { return 0, errSimulateOnly }
func (b *simulation) atMost(context.Context, State, int) (bool, error) {
	return false, errSimulateOnly
}
func (b *simulation) solve(context.Context, State, bool) ([]int, error) {
	return nil, errSimulateOnly
}
func (b *simulation) random(r *rand.Rand) (State, error) {
	return b.sp.stateOf(b.goal, b.group.random(r)), nil
}
func (b *simulation) atDistance(context.Context, *rand.Rand, int) (State, bool, error) {
	return State{}, false, errSimulateOnly
}
func (b *simulation) deepest(context.Context, *rand.Rand) (State, int, error) {
	return State{}, 0, errSimulateOnly
}
func (b *simulation) all() (iter.Seq[State], bool)   { return nil, false }
func (b *simulation) distribution() ([]uint64, bool) { return nil, false }
