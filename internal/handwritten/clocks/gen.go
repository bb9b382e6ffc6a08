package clocks

import (
	"iter"
	"math/rand/v2"
)

// Random returns a uniformly random position.
func Random(r *rand.Rand) Position {
	var p Position
	for i := range p {
		p[i] = uint8(r.IntN(4))
	}
	return p
}

// Deepest returns every position whose optimal answer has MaxMoves moves,
// in index order. There is exactly one: 3 0 3 / 0 1 0 / 3 0 3, which needs
// every move three times (27 moves).
func Deepest() []Position {
	return append([]Position(nil), get().deepest...)
}

// Deep returns one of the Deepest positions, chosen uniformly.
func Deep(r *rand.Rand) Position {
	d := get().deepest
	return d[r.IntN(len(d))]
}

// Needing returns the position whose optimal answer is c: the one that
// making the moves of c brings to 12. Counts above 3 wrap, as four turns of
// a move do nothing, so Optimal(Needing(c)) == c exactly when every count is
// 0..3.
func Needing(c Counts) Position {
	var p Position
	for k, n := range c {
		for range n & 3 {
			p = p.Apply(k + 1)
		}
	}
	// p is where c takes 12; c must take the result back to 12, so the
	// dials are p turned back: -p mod 4.
	for i := range p {
		p[i] = -p[i] & 3
	}
	return p
}

// All yields every position once, in a fixed order: the dials A..I read as a
// base-4 number, from 0 0 0 / 0 0 0 / 0 0 0 up to 3 3 3 / 3 3 3 / 3 3 3.
func All() iter.Seq[Position] {
	return func(yield func(Position) bool) {
		for i := range NumPositions {
			if !yield(positionAt(i)) {
				return
			}
		}
	}
}
