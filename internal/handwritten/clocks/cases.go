package clocks

import (
	"math/rand/v2"
	"sync"
)

// PathToGoal returns the positions along p's optimal answer, one move at a
// time in ascending order: the first is one move closer than p, the last is
// every dial at 12. Each is exactly one move closer than the one before, as
// taking one move off the unique optimal counts leaves the optimal counts
// of the new position.
func PathToGoal(p Position) []Position {
	var path []Position
	for _, m := range Optimal(p).Moves() {
		p = p.Apply(m)
		path = append(path, p)
	}
	return path
}

var (
	byTotalOnce sync.Once
	byTotal     [][]Counts // optimal counts (each 0..3) by their total
)

// WithMoves returns a position drawn uniformly from those whose optimal
// answer has exactly n moves, and false when there is none (n < 0 or
// n > MaxMoves()).
func WithMoves(r *rand.Rand, n int) (Position, bool) {
	byTotalOnce.Do(func() {
		byTotal = make([][]Counts, 3*NumMoves+1)
		for i := range NumPositions {
			var c Counts
			for k := range c {
				c[k] = uint8(i>>(2*k)) & 3
			}
			byTotal[c.Total()] = append(byTotal[c.Total()], c)
		}
	})
	if n < 0 || n >= len(byTotal) || len(byTotal[n]) == 0 {
		return Position{}, false
	}
	cs := byTotal[n]
	return Needing(cs[r.IntN(len(cs))]), true
}
