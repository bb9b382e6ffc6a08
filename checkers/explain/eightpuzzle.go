package explain

import (
	"fmt"
	"strings"

	"github.com/optjudge/optjudge/reference/eightpuzzle"
)

const eightRule = "+---+---+---+\n"

// EightPuzzle draws a board as a 3x3 frame of tiles, the blank left empty:
//
//	+---+---+---+
//	| 2 | 3 | 4 |
//	+---+---+---+
//	| 1 | 5 |   |
//	+---+---+---+
//	| 7 | 6 | 8 |
//	+---+---+---+
func EightPuzzle(b eightpuzzle.Board) string {
	var s strings.Builder
	s.WriteString(eightRule)
	for row := range 3 {
		s.WriteByte('|')
		for _, t := range b[3*row : 3*row+3] {
			switch {
			case t == 0:
				s.WriteString("   |")
			case t <= 8:
				fmt.Fprintf(&s, " %d |", t)
			default:
				s.WriteString(" ? |")
			}
		}
		s.WriteByte('\n')
		s.WriteString(eightRule)
	}
	return s.String()
}

// eightReplay is one case's line replayed.
type eightReplay struct {
	end    eightpuzzle.Board
	done   []byte // the moves made
	note   string // why the replay stopped early, or what is wrong
	solved bool   // the line is a right answer for the case
}

// replayEight makes the moves of line on b, up to the first byte that is not
// a move or that would take the blank off the board.
func replayEight(b eightpuzzle.Board, line string, present bool) eightReplay {
	r := eightReplay{end: b}
	switch {
	case !present:
		r.solved = b.Solved()
		if !r.solved {
			r.note = "no output for this case"
		}
		return r
	case strings.EqualFold(line, eightpuzzle.Unsolvable):
		r.solved = !b.Solvable() && line == eightpuzzle.Unsolvable
		if b.Solvable() {
			r.note = "the output says unsolvable, but this board can be solved"
		}
		return r
	case !b.Solvable():
		r.note = "this board cannot be solved (its tiles are an odd permutation)"
		return r
	}
	for i := range len(line) {
		m := eightpuzzle.Move(line[i])
		switch m {
		case eightpuzzle.Up, eightpuzzle.Down, eightpuzzle.Left, eightpuzzle.Right:
		default:
			r.note = fmt.Sprintf("stopped at move %d: %s is not a move (u, d, l, r)", i+1, quoteByte(line[i]))
			return r
		}
		next, ok := r.end.Apply(m)
		if !ok {
			r.note = fmt.Sprintf("stopped at move %d: %c moves the blank off the board", i+1, line[i])
			return r
		}
		r.end = next
		r.done = append(r.done, line[i])
	}
	r.solved = r.end.Solved()
	return r
}

func eightFailure(input, output []byte, message string) *drawing {
	boards, err := eightpuzzle.ParseInput(input)
	if err != nil || len(boards) == 0 {
		return nil
	}
	lines := outputLines(output)
	replay := func(k int) eightReplay {
		if k-1 >= len(lines) {
			return replayEight(boards[k-1], "", false)
		}
		return replayEight(boards[k-1], lines[k-1], true)
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
		start: EightPuzzle(boards[k-1]),
		after: EightPuzzle(r.end),
		note:  r.note,
	}
	switch {
	case len(r.done) == 0:
		d.afterTitle = "after no moves"
	case r.note != "":
		d.afterTitle = fmt.Sprintf("after the first %s: %s", moves(len(r.done)), cut(string(r.done), 30))
	default:
		d.afterTitle = fmt.Sprintf("after %s: %s", moves(len(r.done)), cut(string(r.done), 30))
	}
	return d
}
