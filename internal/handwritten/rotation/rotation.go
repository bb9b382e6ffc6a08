// Package rotation is the reference for the rotation game (UVa 1343, POJ 2286).
//
// A '#'-shaped board of 24 cells holds eight 1s, eight 2s and eight 3s, cells
// numbered top to bottom, left to right:
//
//	      00    01
//	      02    03
//	04 05 06 07 08 09 10
//	      11    12
//	13 14 15 16 17 18 19
//	      20    21
//	      22    23
//
// Eight moves A..H each shift one line of seven cells cyclically by one. The
// task is the fewest moves that make the eight center cells (6 7 8 11 12 15 16
// 17) equal and, among all shortest sequences over all three digits, the
// lexicographically smallest.
//
// The solver does not search. Where the cells holding one digit go depends
// only on where they are, so one breadth-first search over the C(24,8) =
// 735,471 sets of 8 cells out of 24, from the set of center cells, gives a
// distance table that serves every digit: a board's optimum is the least of
// its three digits' distances, and the smallest sequence is built greedily,
// letter by letter, keeping only the digits still on a shortest path.
package rotation

import (
	"fmt"
	"strings"
)

// Cells is the number of cells on the board.
const Cells = 24

// MaxOptimum is the largest optimum of any board: no board needs 14 moves
// (the tests check it against the distance table).
const MaxOptimum = 13

// Board is a position: Board[i] is the digit (1, 2 or 3) in cell i. A valid
// board holds eight of each digit.
type Board [Cells]uint8

// Move is one of the eight moves, A (0) to H (7).
type Move uint8

// The moves.
const (
	A Move = iota
	B
	C
	D
	E
	F
	G
	H
	NumMoves = 8
)

// lines lists, per move, the seven cells it shifts: the move sets
// new[l[i]] = old[l[i+1]] for i < 6 and new[l[6]] = old[l[0]].
var lines = [NumMoves][7]int{
	A: {0, 2, 6, 11, 15, 20, 22},
	B: {1, 3, 8, 12, 17, 21, 23},
	C: {10, 9, 8, 7, 6, 5, 4},
	D: {19, 18, 17, 16, 15, 14, 13},
	E: {23, 21, 17, 12, 8, 3, 1},
	F: {22, 20, 15, 11, 6, 2, 0},
	G: {13, 14, 15, 16, 17, 18, 19},
	H: {4, 5, 6, 7, 8, 9, 10},
}

// CenterCells are the eight cells that must end up equal.
var CenterCells = [8]int{6, 7, 8, 11, 12, 15, 16, 17}

// String returns the move's letter.
func (m Move) String() string {
	if m < NumMoves {
		return string(rune('A' + m))
	}
	return fmt.Sprintf("Move(%d)", uint8(m))
}

// Inverse returns the move that undoes m (A/F, B/E, C/H and D/G are pairs).
func (m Move) Inverse() Move { return [NumMoves]Move{F, E, H, G, B, A, D, C}[m] }

// MoveOf returns the move written as the letter c, or false if c is not one
// of A-H (letters are case-sensitive).
func MoveOf(c byte) (Move, bool) {
	if c < 'A' || c > 'H' {
		return 0, false
	}
	return Move(c - 'A'), true
}

// Sequence is a list of moves; it prints as its letters without spaces.
type Sequence []Move

func (s Sequence) String() string {
	var sb strings.Builder
	for _, m := range s {
		sb.WriteString(m.String())
	}
	return sb.String()
}

// Apply returns the board after move m.
func (b Board) Apply(m Move) Board {
	l := &lines[m]
	first := b[l[0]]
	for i := range 6 {
		b[l[i]] = b[l[i+1]]
	}
	b[l[6]] = first
	return b
}

// ApplyAll returns the board after the moves of s, in order.
func (b Board) ApplyAll(s Sequence) Board {
	for _, m := range s {
		b = b.Apply(m)
	}
	return b
}

// Center returns the digits of the eight center cells.
func (b Board) Center() [8]uint8 {
	var c [8]uint8
	for i, cell := range CenterCells {
		c[i] = b[cell]
	}
	return c
}

// Solved returns the center's digit and true when the eight center cells are
// equal.
func (b Board) Solved() (uint8, bool) {
	c := b.Center()
	for _, d := range c[1:] {
		if d != c[0] {
			return 0, false
		}
	}
	return c[0], true
}

// Valid reports why b is not a board with eight of each digit, or nil.
func (b Board) Valid() error {
	var n [4]int
	for i, d := range b {
		if d < 1 || d > 3 {
			return fmt.Errorf("cell %d holds %d, want 1, 2 or 3", i, d)
		}
		n[d]++
	}
	for d := 1; d <= 3; d++ {
		if n[d] != 8 {
			return fmt.Errorf("%d cells hold %d, want 8", n[d], d)
		}
	}
	return nil
}

// String returns the board in the input format: 24 digits separated by single
// spaces, without a newline.
func (b Board) String() string {
	buf := make([]byte, 0, 2*Cells)
	for i, d := range b {
		if i > 0 {
			buf = append(buf, ' ')
		}
		buf = append(buf, '0'+d)
	}
	return string(buf)
}

// Solution is an optimal answer: the lexicographically smallest of the
// shortest sequences, and the digit it gathers in the center.
type Solution struct {
	Moves Sequence
	Digit uint8
}

// NoMoves is what line 1 of the output says when no move is needed.
const NoMoves = "No moves needed"

// String returns the solution in the output format, two lines each ending in
// a newline.
func (s Solution) String() string {
	line := s.Moves.String()
	if len(s.Moves) == 0 {
		line = NoMoves
	}
	return fmt.Sprintf("%s\n%d\n", line, s.Digit)
}
