package eightpuzzle

import "math/rand/v2"

// Random returns a board drawn uniformly from the 181,440 solvable boards.
func Random(r *rand.Rand) Board { return randomOfParity(r, true) }

// RandomUnsolvable returns a board drawn uniformly from the 181,440 boards
// that cannot be solved.
func RandomUnsolvable(r *rand.Rand) Board { return randomOfParity(r, false) }

// randomOfParity draws a uniform permutation and, if it has the wrong
// parity, swaps tiles 1 and 2: a bijection between the two classes, so the
// result is uniform over the wanted one.
func randomOfParity(r *rand.Rand, solvable bool) Board {
	var b Board
	for i, t := range r.Perm(9) {
		b[i] = byte(t)
	}
	if b.Solvable() != solvable {
		var i1, i2 int
		for i, t := range b {
			switch t {
			case 1:
				i1 = i
			case 2:
				i2 = i
			}
		}
		b[i1], b[i2] = b[i2], b[i1]
	}
	return b
}

// MaxDistance returns the largest distance of a solvable board (31).
func MaxDistance() int {
	m := 0
	for _, d := range distances() {
		if d != unreachable {
			m = max(m, int(d))
		}
	}
	return m
}

// Deepest returns the boards farthest from the goal, in rank order: the two
// boards 8 6 7 / 2 5 4 / 3 x 1 and 6 4 7 / 8 5 x / 3 2 1, 31 moves away.
func Deepest() []Board {
	return atDistance(MaxDistance())
}

// AtDistance returns a board drawn uniformly from those exactly d moves from
// the goal, and false when there is none (d < 0 or d > MaxDistance()).
func AtDistance(r *rand.Rand, d int) (Board, bool) {
	bs := atDistance(d)
	if len(bs) == 0 {
		return Board{}, false
	}
	return bs[r.IntN(len(bs))], true
}

// atDistance lists the boards d moves from the goal, in rank order.
func atDistance(d int) []Board {
	var bs []Board
	if d < 0 || d >= unreachable {
		return nil
	}
	for i, di := range distances() {
		if int(di) == d {
			bs = append(bs, unrank(i))
		}
	}
	return bs
}

// All returns every solvable board, 181,440 of them, in rank order (the
// lexicographic order of the boards as sequences with the blank as 0).
func All() []Board {
	bs := make([]Board, 0, numBoards/2)
	for i, d := range distances() {
		if d != unreachable {
			bs = append(bs, unrank(i))
		}
	}
	return bs
}
