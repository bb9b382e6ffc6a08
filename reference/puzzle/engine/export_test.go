package engine

import "math/big"

// GroupOrder is the order of the group the moves of sp generate (on its
// cells with their orientations), for tests: the number of states a
// puzzle of distinct pieces reaches.
func GroupOrder(sp *Spec) *big.Int {
	var gens []perm
	for i := range sp.Moves {
		gens = append(gens, sp.movePerm(&sp.Moves[i]))
	}
	return newGroup(pointsOf(sp), gens).order()
}

// SetParallelFrom sets the bound from which a twisty search splits its
// iterations, for a test of the split on shallow positions; it returns
// the old value.
func SetParallelFrom(b int) int {
	old := parallelFrom
	parallelFrom = b
	return old
}
