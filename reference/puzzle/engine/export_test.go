package engine

import (
	"bytes"
	"math"
	"math/big"
)

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

// BuildBothWays builds every pattern database of sp's twisty search with
// the budget given, top-down only and with the bottom-up layers from the
// first, and reports whether the tables are the same.
func BuildBothWays(sp *Spec, budget uint64) (bool, error) {
	o, err := newOrbitSearch(sp, Options{MaxMemory: budget})
	if err != nil {
		return false, err
	}
	inv := sp.inverses()
	var back [][]uint8
	for i := range inv {
		back = append(back, o.codeTable(&inv[i]))
	}
	for _, p := range o.dbs {
		down := o.build(p, back, math.Inf(1))
		up := o.build(p, back, 0)
		if !bytes.Equal(down, up) {
			return false, nil
		}
	}
	return true, nil
}

// BuildPattern builds pattern database db of sp's twisty search with the
// budget given, top-down only or with the bottom-up layers, for a
// benchmark of the two.
func BuildPattern(sp *Spec, budget uint64, db int, bottomUp bool) error {
	o, err := newOrbitSearch(sp, Options{MaxMemory: budget})
	if err != nil {
		return err
	}
	inv := sp.inverses()
	var back [][]uint8
	for i := range inv {
		back = append(back, o.codeTable(&inv[i]))
	}
	when := math.Inf(1)
	if bottomUp {
		when = bottomUpFrom
	}
	o.build(o.dbs[db], back, when)
	return nil
}
