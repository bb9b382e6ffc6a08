// Package eightpuzzle is the reference for the eight-puzzle (POJ 1077,
// HDU 1043): eight numbered tiles and one blank on a 3x3 board, and the blank
// moves up, down, left or right until the board reads
//
//	1 2 3
//	4 5 6
//	7 8 x
//
// A breadth-first search from the goal over the 181,440 solvable boards gives
// the exact distance of every board (see Distance); from it Smallest walks the
// lexicographically smallest shortest path. A board is solvable exactly when
// its tiles 1-8, read row by row, form an even permutation (see Solvable).
//
// The input format is documented on ParseInput, the output format on Solve.
package eightpuzzle

import "strings"

// Board is a position read row by row: Board[0..2] is the top row. Tiles are
// 1 to 8 and the blank is 0. A valid Board holds each of 0-8 exactly once.
type Board [9]byte

// Move moves the blank one square; its value is its letter in the output.
type Move byte

// The four moves of the blank.
const (
	Up    Move = 'u'
	Down  Move = 'd'
	Left  Move = 'l'
	Right Move = 'r'
)

// moveOrder lists the four moves in byte order of their letters.
var moveOrder = [4]Move{Down, Left, Right, Up}

// Moves lists the four moves in byte order of their letters (d < l < r < u),
// the order in which a lexicographically smallest path prefers them.
func Moves() [4]Move { return moveOrder }

// Goal returns the solved board 1 2 3 / 4 5 6 / 7 8 x.
func Goal() Board { return Board{1, 2, 3, 4, 5, 6, 7, 8, 0} }

// Solved reports whether b is the goal.
func (b Board) Solved() bool { return b == Goal() }

// Blank returns the square (0-8, row by row) that holds the blank.
func (b Board) Blank() int {
	for i, t := range b {
		if t == 0 {
			return i
		}
	}
	return -1
}

// Apply returns the board after moving the blank by m, and false (with b
// unchanged) when m is not a move or would take the blank off the board.
func (b Board) Apply(m Move) (Board, bool) {
	p := b.Blank()
	q, ok := target(p, m)
	if !ok {
		return b, false
	}
	b[p], b[q] = b[q], b[p]
	return b, true
}

// target is the square the blank at p reaches by m.
func target(p int, m Move) (int, bool) {
	switch {
	case p < 0 || p > 8:
		return p, false
	case m == Up && p >= 3:
		return p - 3, true
	case m == Down && p < 6:
		return p + 3, true
	case m == Left && p%3 != 0:
		return p - 1, true
	case m == Right && p%3 != 2:
		return p + 1, true
	}
	return p, false
}

// Valid reports whether b holds each of 0-8 exactly once.
func (b Board) Valid() bool {
	var seen uint16
	for _, t := range b {
		if t > 8 || seen&(1<<t) != 0 {
			return false
		}
		seen |= 1 << t
	}
	return true
}

// Solvable reports whether the goal can be reached from b: exactly when the
// tiles 1-8, read row by row and ignoring the blank, have an even number of
// inversions. A horizontal move keeps the reading order; a vertical move
// carries one tile past two others, so the parity never changes, and the
// 181,440 boards of even parity are all connected.
func (b Board) Solvable() bool {
	inv := 0
	for i := range b {
		for j := i + 1; j < len(b); j++ {
			if b[i] != 0 && b[j] != 0 && b[i] > b[j] {
				inv++
			}
		}
	}
	return inv%2 == 0
}

// String shows the board row by row, as in "1 2 3 / 4 5 6 / 7 8 x".
func (b Board) String() string {
	var s strings.Builder
	for i, t := range b {
		switch {
		case i == 0:
		case i%3 == 0:
			s.WriteString(" / ")
		default:
			s.WriteByte(' ')
		}
		s.WriteByte(tileChar(t))
	}
	return s.String()
}

// Line is the board as one input line without its newline, e.g.
// "1 2 3 4 5 6 7 8 x".
func (b Board) Line() string {
	s := make([]byte, 0, 17)
	for i, t := range b {
		if i > 0 {
			s = append(s, ' ')
		}
		s = append(s, tileChar(t))
	}
	return string(s)
}

func tileChar(t byte) byte {
	switch {
	case t == 0:
		return 'x'
	case t <= 8:
		return '0' + t
	}
	return '?'
}
