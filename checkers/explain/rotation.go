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
	d := rotationDigit(b[cell])
	if rotationCenter(cell) {
		return "[" + d + "]"
	}
	return " " + d + " "
}

func rotationDigit(v uint8) string {
	if v >= 1 && v <= 3 {
		return string(rune('0' + v))
	}
	return "?"
}

func rotationCenter(cell int) bool {
	for _, c := range rotation.CenterCells {
		if c == cell {
			return true
		}
	}
	return false
}

// rotationPos is a rotation-game board as a Position.
type rotationPos rotation.Board

func (p rotationPos) String() string { return rotation.Board(p).String() }
func (p rotationPos) Text() string   { return Rotation(rotation.Board(p)) }

// rotationGame replays and judges rotation-game moves.
type rotationGame struct{}

func (rotationGame) apply(p Position, move string) (Position, string) {
	m, ok := rotation.MoveOf(move[0])
	if len(move) != 1 || !ok {
		return nil, quoteByte(move[0]) + " is not a move (A-H)"
	}
	return rotationPos(rotation.Board(p.(rotationPos)).Apply(m)), ""
}

func (rotationGame) distance(p Position) int {
	return rotation.Optimum(rotation.Board(p.(rotationPos)))
}

func (rotationGame) solve(p Position) []string {
	return bytesOf(rotation.Optimal(rotation.Board(p.(rotationPos))).Moves.String())
}

// rotationMoves are the moves of line 1 of a case, as the checker reads them.
func rotationMoves(line string) []string {
	if line == rotation.NoMoves {
		return nil
	}
	return bytesOf(line)
}

func rotationFailure(input, output []byte, message string) *Explanation {
	boards, err := rotation.Parse(input)
	if err != nil || len(boards) == 0 {
		return nil
	}
	lines := outputLines(output)
	replay := func(k int) *Explanation {
		e := &Explanation{Puzzle: "rotation-game", Case: k, Cases: len(boards), Start: rotationPos(boards[k-1])}
		if i := 2 * (k - 1); i < len(lines) {
			e.replay(rotationGame{}, rotationMoves(lines[i]))
		} else {
			e.Replayed, e.Note = true, "no output for this case"
		}
		return e
	}
	k := failingCase(message, len(boards), func(k int) bool {
		e := replay(k)
		_, solved := rotation.Board(e.Reached().(rotationPos)).Solved()
		return solved && e.Wrong == nil && e.Note == ""
	})
	e := replay(k)
	if e.Note == "" {
		e.judge(rotationGame{}, firstDifference(e.Moves))
	}
	e.Goal = goal(rotationGame{}, e.Start)
	return e
}

func rotationCases(input []byte) []*Explanation {
	boards, err := rotation.Parse(input)
	if err != nil {
		return nil
	}
	var es []*Explanation
	for i, b := range boards {
		e := &Explanation{Puzzle: "rotation-game", Case: i + 1, Cases: len(boards), Start: rotationPos(b)}
		e.Goal = goal(rotationGame{}, e.Start)
		e.setOptimal(rotationGame{})
		es = append(es, e)
	}
	return es
}

// goal is where the reference's answer leads from p, or nil.
func goal(g game, p Position) Position {
	ms := g.solve(p)
	if ms == nil {
		return nil
	}
	for _, m := range ms {
		p, _ = g.apply(p, m)
	}
	return p
}

// The rotation board in SVG: cells of rotationSide pixels, framed by
// rotationLabel pixels for the letters of the moves.
const (
	rotationSide  = 28
	rotationLabel = 22
)

var rotationFill = [4]string{"#fff", "#fde68a", "#bfdbfe", "#fbcfe8"}

func (rotationPos) svgSize(small bool) (int, int) {
	n := 7 * rotationSide
	if small {
		return n, n
	}
	return n + 2*rotationLabel, n + 2*rotationLabel
}

// rotationXY is the top left corner of a cell.
func rotationXY(cell int, small bool) (int, int) {
	off := rotationLabel
	if small {
		off = 0
	}
	for r, row := range rotationGrid {
		for c, v := range row {
			if v == cell {
				return off + c*rotationSide, off + r*rotationSide
			}
		}
	}
	return 0, 0
}

// svg draws the '#': each cell filled by its digit and showing it, the
// eight center cells framed by a thick line; on the full-size board the
// letters of the moves, and a mark on the line of d.mark and its letter.
func (p rotationPos) svg(w *svgWriter, d drawing) {
	var cells [4]strings.Builder
	for cell, v := range p {
		x, y := rotationXY(cell, d.small)
		cells[min(int(v), 4)%4].WriteString(square(x, y, rotationSide))
	}
	for v, c := range cells {
		if c.Len() > 0 {
			w.printf(`<path fill="%s" stroke="#555" d="%s"/>`+"\n", rotationFill[v], c.String())
		}
	}
	x0, y0 := rotationXY(6, d.small)
	w.printf(`<path fill="none" stroke="#111" stroke-width="3" d="%s%s"/>`+"\n",
		fmt.Sprintf("M%d %dh%dv%dh-%dz", x0, y0, 3*rotationSide, 3*rotationSide, 3*rotationSide),
		square(x0+rotationSide, y0+rotationSide, rotationSide))
	w.b.WriteString(`<g text-anchor="middle" font-size="16">` + "\n")
	for cell, v := range p {
		x, y := rotationXY(cell, d.small)
		w.printf(`<text x="%d" y="%d">%s</text>`+"\n", x+rotationSide/2, y+rotationSide/2+6, rotationDigit(v))
	}
	if !d.small {
		rotationLetters(w, d.mark)
	}
	w.b.WriteString("</g>\n")
	if m, ok := rotationMark(d.mark); ok && !d.small {
		rotationLine(w, m)
	}
}

// rotationEnds places the letter of each move: the cell at the end of its
// line and the direction, from that cell, of the letter.
var rotationEnds = [rotation.NumMoves]struct{ cell, dx, dy int }{
	{0, 0, -1}, {1, 0, -1}, {10, 1, 0}, {19, 1, 0}, {23, 0, 1}, {22, 0, 1}, {13, -1, 0}, {4, -1, 0},
}

func rotationLetterXY(m rotation.Move) (int, int) {
	end := rotationEnds[m]
	x, y := rotationXY(end.cell, false)
	x += rotationSide/2 + end.dx*(rotationSide/2+rotationLabel/2)
	y += rotationSide/2 + end.dy*(rotationSide/2+rotationLabel/2)
	return x, y
}

// rotationLetters writes the letters of the moves; mark's in bold red.
func rotationLetters(w *svgWriter, mark string) {
	for m := range rotation.Move(rotation.NumMoves) {
		x, y := rotationLetterXY(m)
		attrs := ""
		if m.String() == mark {
			attrs = ` font-weight="bold" fill="#c00"`
		}
		w.printf(`<text x="%d" y="%d"%s>%s</text>`+"\n", x, y+6, attrs, m)
	}
}

func rotationMark(mark string) (rotation.Move, bool) {
	if len(mark) != 1 {
		return 0, false
	}
	return rotation.MoveOf(mark[0])
}

func (rotationPos) markable(move string) bool {
	_, ok := rotationMark(move)
	return ok
}

// rotationLine frames, dashed, the seven cells that move m shifts and draws
// an arrow beside its letter in the direction they shift.
func rotationLine(w *svgWriter, m rotation.Move) {
	var id rotation.Board
	for i := range id {
		id[i] = uint8(i)
	}
	moved := id.Apply(m)
	var path strings.Builder
	for cell := range id {
		if moved[cell] != id[cell] {
			x, y := rotationXY(cell, false)
			path.WriteString(square(x+2, y+2, rotationSide-4))
		}
	}
	w.printf(`<path fill="none" stroke="#c00" stroke-width="3" stroke-dasharray="5 3" d="%s"/>`+"\n", path.String())
	end := rotationEnds[m]
	x, y := rotationLetterXY(m)
	// Beside the letter, across the line: the arrow points where the cells go.
	ax, ay := x+end.dy*14, y+end.dx*14
	w.printf(`<path fill="#c00" stroke="#c00" stroke-width="2" d="%s"/>`+"\n",
		arrow(ax-end.dx*9, ay-end.dy*9, ax+end.dx*9, ay+end.dy*9))
}
