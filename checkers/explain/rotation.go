package explain

import (
	"fmt"
	"strings"

	"github.com/optjudge/optjudge/reference/rotation"
)

// rotationGrid places the cells of the '#' on a 7x7 grid; -1 is no cell.
var rotationGrid = [7][7]int{
	{-1, -1, 0, -1, 1, -1, -1},
	{-1, -1, 2, -1, 3, -1, -1},
	{4, 5, 6, 7, 8, 9, 10},
	{-1, -1, 11, -1, 12, -1, -1},
	{13, 14, 15, 16, 17, 18, 19},
	{-1, -1, 20, -1, 21, -1, -1},
	{-1, -1, 22, -1, 23, -1, -1},
}

// Rotation draws a rotation-game board as its '#', the eight center cells
// in brackets and the letter of each move at the end of the line it shifts
// towards (A and B above the columns, C and D right of the rows, E and F
// below, G and H on the left). The first board of the sample:
//
//	         A     B
//	         1     1
//	         1     1
//	H  3  2 [3][2][3] 1  3  C
//	        [2]   [2]
//	G  3  1 [2][2][2] 3  1  D
//	         2     1
//	         3     3
//	         F     E
func Rotation(b rotation.Board) string {
	var s strings.Builder
	s.WriteString(rotationLabels("A", "B"))
	for r, row := range rotationGrid {
		left, right := "  ", ""
		switch r {
		case 2:
			left, right = "H ", "  C"
		case 4:
			left, right = "G ", "  D"
		}
		line := left
		for _, cell := range row {
			line += rotationCell(b, cell)
		}
		s.WriteString(strings.TrimRight(line, " ") + right + "\n")
	}
	s.WriteString(rotationLabels("F", "E"))
	return s.String()
}

// rotationLabels is the line of letters above or below the two columns.
func rotationLabels(left, right string) string {
	return "         " + left + "     " + right + "\n"
}

func rotationCell(b rotation.Board, cell int) string {
	if cell < 0 {
		return "   "
	}
	d := "?"
	if v := b[cell]; v >= 1 && v <= 3 {
		d = string(rune('0' + v))
	}
	for _, c := range rotation.CenterCells {
		if c == cell {
			return "[" + d + "]"
		}
	}
	return " " + d + " "
}

// rotationReplay is one case's moves replayed.
type rotationReplay struct {
	end    rotation.Board
	seq    rotation.Sequence
	note   string // why the replay stopped early
	solved bool
}

// replayRotation makes the moves of line 1 of a case on b, up to the first
// byte that is not a move.
func replayRotation(b rotation.Board, line string, present bool) rotationReplay {
	r := rotationReplay{end: b}
	switch {
	case !present:
		r.note = "no output for this case"
	case line == rotation.NoMoves:
	default:
		for i := range len(line) {
			m, ok := rotation.MoveOf(line[i])
			if !ok {
				r.note = fmt.Sprintf("stopped at move %d: %s is not a move (A-H)", i+1, quoteByte(line[i]))
				break
			}
			r.seq = append(r.seq, m)
			r.end = r.end.Apply(m)
		}
	}
	_, r.solved = r.end.Solved()
	r.solved = r.solved && r.note == ""
	return r
}

func rotationFailure(input, output []byte, message string) *drawing {
	boards, err := rotation.Parse(input)
	if err != nil || len(boards) == 0 {
		return nil
	}
	lines := outputLines(output)
	replay := func(k int) rotationReplay {
		i := 2 * (k - 1)
		if i >= len(lines) {
			return replayRotation(boards[k-1], "", false)
		}
		return replayRotation(boards[k-1], lines[i], true)
	}
	k, ok := namedCase(message, len(boards))
	if !ok {
		k = 1
		for i := range boards {
			if !replay(i + 1).solved {
				k = i + 1
				break
			}
		}
	}
	r := replay(k)
	d := &drawing{
		title: fmt.Sprintf("case %d of %d: %v", k, len(boards), boards[k-1]),
		start: Rotation(boards[k-1]),
		after: Rotation(r.end),
		note:  r.note,
	}
	switch {
	case len(r.seq) == 0:
		d.afterTitle = "after no moves"
	case r.note != "":
		d.afterTitle = fmt.Sprintf("after the first %s: %s", moves(len(r.seq)), cut(r.seq.String(), 30))
	default:
		d.afterTitle = fmt.Sprintf("after %s: %s", moves(len(r.seq)), cut(r.seq.String(), 30))
	}
	return d
}
