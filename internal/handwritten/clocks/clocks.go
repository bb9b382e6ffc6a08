// Package clocks solves The Clocks (IOI 1994, POJ 1166) exactly.
//
// Nine dials A..I stand in a 3x3 grid, each pointing at 12, 3, 6 or 9
// o'clock (written 0, 1, 2, 3). Move k, for k in 1..9, turns a fixed group of
// dials a quarter turn clockwise (+1 mod 4):
//
//	1 ABDE   2 ABC    3 BCEF
//	4 ADG    5 BDEFH  6 CFI
//	7 DEGH   8 GHI    9 EFHI
//
// The answer is the shortest sequence of moves that brings every dial to 12,
// printed in ascending order. Moves commute and four of the same move do
// nothing, so a solution is a count 0..3 per move. The 9x9 move matrix is
// invertible mod 4, so those counts are unique: Optimal finds them with one
// product by the inverse matrix, built once per process.
package clocks

import (
	"strconv"
	"strings"
)

// NumMoves is the number of moves; they are numbered 1..NumMoves.
const NumMoves = 9

// NumPositions is the number of positions, 4^9.
const NumPositions = 1 << 18

// moveDials lists, for move k at index k-1, the dials it turns.
var moveDials = [NumMoves]string{"ABDE", "ABC", "BCEF", "ADG", "BDEFH", "CFI", "DEGH", "GHI", "EFHI"}

// Dials returns the letters of the dials that move turns, e.g. "ABDE" for
// move 1. It panics if move is not 1..9.
func Dials(move int) string { return moveDials[move-1] }

// Position holds the nine dials A..I, row by row, each 0..3 (0 is 12
// o'clock, 1 is 3, 2 is 6, 3 is 9).
type Position [9]uint8

// Apply returns p after move (1..9) turns its dials a quarter clockwise.
// It panics if move is not 1..9.
func (p Position) Apply(move int) Position {
	for _, d := range moveDials[move-1] {
		p[d-'A'] = (p[d-'A'] + 1) & 3
	}
	return p
}

// Solved reports whether every dial points at 12.
func (p Position) Solved() bool { return p == Position{} }

// String shows p on one line, rows separated by slashes:
// "3 3 0 / 2 2 2 / 2 1 2".
func (p Position) String() string {
	var b strings.Builder
	for i, d := range p {
		switch {
		case i == 0:
		case i%3 == 0:
			b.WriteString(" / ")
		default:
			b.WriteByte(' ')
		}
		b.WriteByte('0' + d)
	}
	return b.String()
}

// Input returns p as an input file: three lines of three dials.
func (p Position) Input() []byte {
	b := make([]byte, 0, 18)
	for i, d := range p {
		b = append(b, '0'+d)
		if i%3 == 2 {
			b = append(b, '\n')
		} else {
			b = append(b, ' ')
		}
	}
	return b
}

// Counts says how often each move is made: Counts[k-1] is the count of
// move k. An optimal answer has every count in 0..3.
type Counts [NumMoves]uint8

// Total returns the number of moves.
func (c Counts) Total() int {
	n := 0
	for _, k := range c {
		n += int(k)
	}
	return n
}

// Moves returns the moves in ascending order, move k repeated c[k-1] times.
func (c Counts) Moves() []int {
	ms := make([]int, 0, c.Total())
	for k, n := range c {
		for range n {
			ms = append(ms, k+1)
		}
	}
	return ms
}

// String returns the moves as the output line shows them, "4 5 8 9", or ""
// for no moves.
func (c Counts) String() string {
	b := make([]byte, 0, 2*c.Total())
	for _, m := range c.Moves() {
		if len(b) > 0 {
			b = append(b, ' ')
		}
		b = strconv.AppendInt(b, int64(m), 10)
	}
	return string(b)
}

// Solve returns the reference output for a whole input file: the optimal
// moves on one line. An invalid input gives the validator's error.
func Solve(input []byte) ([]byte, error) {
	p, err := Parse(input)
	if err != nil {
		return nil, err
	}
	return []byte(Optimal(p).String() + "\n"), nil
}
