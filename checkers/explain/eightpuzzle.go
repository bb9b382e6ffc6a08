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
			s.WriteString(" " + eightTile(t) + " |")
		}
		s.WriteByte('\n')
		s.WriteString(eightRule)
	}
	return s.String()
}

// eightTile is a tile's number, " " for the blank or "?".
func eightTile(t byte) string {
	switch {
	case t == 0:
		return " "
	case t <= 8:
		return string(rune('0' + t))
	}
	return "?"
}

// eightPos is an eight-puzzle board as a Position.
type eightPos eightpuzzle.Board

func (p eightPos) String() string { return eightpuzzle.Board(p).String() }
func (p eightPos) Text() string   { return EightPuzzle(eightpuzzle.Board(p)) }

// eightGame replays and judges moves of the blank.
type eightGame struct{}

func (eightGame) apply(p Position, move string) (Position, string) {
	m, ok := eightMove(move)
	if !ok {
		return nil, quoteByte(move[0]) + " is not a move (u, d, l, r)"
	}
	next, ok := eightpuzzle.Board(p.(eightPos)).Apply(m)
	if !ok {
		return nil, move + " moves the blank off the board"
	}
	return eightPos(next), ""
}

func eightMove(move string) (eightpuzzle.Move, bool) {
	if len(move) != 1 {
		return 0, false
	}
	switch m := eightpuzzle.Move(move[0]); m {
	case eightpuzzle.Up, eightpuzzle.Down, eightpuzzle.Left, eightpuzzle.Right:
		return m, true
	}
	return 0, false
}

func (eightGame) distance(p Position) int {
	return eightpuzzle.Distance(eightpuzzle.Board(p.(eightPos)))
}

func (eightGame) solve(p Position) []string {
	path, ok := eightpuzzle.Smallest(eightpuzzle.Board(p.(eightPos)))
	if !ok {
		return nil
	}
	return bytesOf(path)
}

// eightReplay explains the line of board b; present is false when the
// output has no line for it.
func eightReplay(e *Explanation, b eightpuzzle.Board, line string, present bool) {
	e.Replayed = true
	switch {
	case !present:
		if !b.Solved() {
			e.Note = "no output for this case"
		}
	case strings.EqualFold(line, eightpuzzle.Unsolvable):
		if b.Solvable() {
			e.Note = "the output says unsolvable, but this board can be solved"
		} else if line != eightpuzzle.Unsolvable {
			e.Note = fmt.Sprintf("write %q in lower case", eightpuzzle.Unsolvable)
		}
	case !b.Solvable():
		e.Note = "this board cannot be solved (its tiles are an odd permutation)"
	default:
		e.replay(eightGame{}, bytesOf(line))
	}
}

// eightSolved reports whether e's line is a right answer for its case.
func eightSolved(e *Explanation) bool {
	b := eightpuzzle.Board(e.Start.(eightPos))
	if !b.Solvable() {
		return e.Note == "" && e.Wrong == nil && len(e.Moves) == 0
	}
	return e.Note == "" && e.Wrong == nil && eightpuzzle.Board(e.Reached().(eightPos)).Solved()
}

func eightFailure(input, output []byte, message string) *Explanation {
	boards, err := eightpuzzle.ParseInput(input)
	if err != nil || len(boards) == 0 {
		return nil
	}
	lines := outputLines(output)
	replay := func(k int) *Explanation {
		e := &Explanation{Puzzle: "eight-puzzle", Case: k, Cases: len(boards), Start: eightPos(boards[k-1])}
		if k-1 < len(lines) {
			eightReplay(e, boards[k-1], lines[k-1], true)
		} else {
			eightReplay(e, boards[k-1], "", false)
		}
		return e
	}
	k := failingCase(message, len(boards), func(k int) bool { return eightSolved(replay(k)) })
	e := replay(k)
	if e.Note == "" && boards[k-1].Solvable() {
		unwanted := func([]string) (int, string) { return 0, "" }
		if strings.Contains(message, "not the smallest") {
			unwanted = firstDifference(e.Moves)
		}
		e.judge(eightGame{}, unwanted)
	}
	e.Goal = goal(eightGame{}, e.Start)
	return e
}

func eightCases(input []byte) []*Explanation {
	boards, err := eightpuzzle.ParseInput(input)
	if err != nil {
		return nil
	}
	var es []*Explanation
	for i, b := range boards {
		e := &Explanation{Puzzle: "eight-puzzle", Case: i + 1, Cases: len(boards), Start: eightPos(b)}
		if e.Goal = goal(eightGame{}, e.Start); e.Goal != nil {
			e.setOptimal(eightGame{})
		} else {
			e.Note = "this board cannot be solved (its tiles are an odd permutation)"
		}
		es = append(es, e)
	}
	return es
}

// The board in SVG: tiles of eightSide pixels inside a frame of eightPad.
const (
	eightSide = 44
	eightPad  = 4
)

func (eightPos) svgSize(bool) (int, int) {
	n := 3*eightSide + 2*eightPad
	return n, n
}

func (eightPos) markable(move string) bool {
	_, ok := eightMove(move)
	return ok
}

// eightXY is the top left corner of square i.
func eightXY(i int) (int, int) { return eightPad + i%3*eightSide, eightPad + i/3*eightSide }

// svg draws the board: grey numbered tiles, the blank white with a dashed
// edge, and for d.mark an arrow from the blank where the move takes it, off
// the board if it goes there, with the tile it swaps with framed in red.
func (p eightPos) svg(w *svgWriter, d drawing) {
	var tiles, blank strings.Builder
	for i, t := range p {
		x, y := eightXY(i)
		if t == 0 {
			blank.WriteString(square(x, y, eightSide))
		} else {
			tiles.WriteString(square(x, y, eightSide))
		}
	}
	n := 3*eightSide + 2*eightPad
	w.printf(`<rect x="1" y="1" width="%d" height="%d" fill="#9ca3af" stroke="#111" stroke-width="2"/>`+"\n", n-2, n-2)
	w.printf(`<path fill="#f3f4f6" stroke="#333" stroke-width="2" d="%s"/>`+"\n", tiles.String())
	if blank.Len() > 0 {
		w.printf(`<path fill="#fff" stroke="#333" stroke-dasharray="4 3" d="%s"/>`+"\n", blank.String())
	}
	w.b.WriteString(`<g text-anchor="middle" font-size="22" font-weight="bold">` + "\n")
	for i, t := range p {
		if t != 0 {
			x, y := eightXY(i)
			w.printf(`<text x="%d" y="%d">%s</text>`+"\n", x+eightSide/2, y+eightSide/2+8, eightTile(t))
		}
	}
	w.b.WriteString("</g>\n")
	if m, ok := eightMove(d.mark); ok && !d.small {
		p.svgMark(w, m)
	}
}

// svgMark draws move m of the blank: an arrow from the blank to the square
// it goes to, or past the frame when it would leave the board.
func (p eightPos) svgMark(w *svgWriter, m eightpuzzle.Move) {
	b := eightpuzzle.Board(p)
	from := b.Blank()
	if from < 0 {
		return
	}
	var dx, dy int
	switch m {
	case eightpuzzle.Up:
		dy = -1
	case eightpuzzle.Down:
		dy = 1
	case eightpuzzle.Left:
		dx = -1
	case eightpuzzle.Right:
		dx = 1
	}
	x, y := eightXY(from)
	cx, cy := x+eightSide/2, y+eightSide/2
	length := eightSide/2 + eightPad + 4 // just past the frame
	if _, ok := b.Apply(m); ok {
		length = eightSide - 14
		w.printf(`<path fill="none" stroke="#c00" stroke-width="3" d="%s"/>`+"\n", square(x+dx*eightSide+3, y+dy*eightSide+3, eightSide-6))
	}
	w.printf(`<path fill="#c00" stroke="#c00" stroke-width="3" d="%s"/>`+"\n", arrow(cx, cy, cx+dx*length, cy+dy*length))
}
