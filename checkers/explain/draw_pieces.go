package explain

import (
	"cmp"
	"slices"
	"strconv"
	"strings"

	"github.com/optjudge/optjudge/reference/puzzle"
	"github.com/optjudge/optjudge/reference/puzzle/judging"
)

// The pieces of a puzzle given by rules (a part of pieces: robots on a
// maze) stand on the drawing's grid: a piece at row r and column c of its
// board on the grid's row r and column c, from the top left, over what
// the layout puts there. Without a layout, the grid is the board itself,
// its squares those of the first grid part of the same size (the maze's
// walls), else empty.

// pieceParts are the parts of pieces of the drawer's instance.
func (d *drawer) pieceParts() []puzzle.RulePart {
	var out []puzzle.RulePart
	for _, p := range d.in.Parts {
		if p.Pieces != nil {
			out = append(out, p)
		}
	}
	return out
}

// pieceBoard lays the default grid out for a puzzle with pieces: the
// board of the first part of pieces, its squares a grid part's cells.
func (d *drawer) pieceBoard(first puzzle.RulePart) {
	d.rows, d.cols = first.Rows, first.Cols
	base := -1
	for _, p := range d.in.Parts {
		if p.Pieces == nil && p.Rows == first.Rows && p.Cols == first.Cols && p.Cells == p.Rows*p.Cols {
			base = p.First
			break
		}
	}
	for r := range d.rows {
		d.at = append(d.at, make([]int, d.cols))
		for c := range d.cols {
			d.at[r][c] = -1
			if base >= 0 {
				d.at[r][c] = base + r*d.cols + c
				d.where[base+r*d.cols+c] = [2]int{r, c}
			}
		}
	}
}

// fitPieces makes the grid as large as every board of pieces.
func (d *drawer) fitPieces() {
	for _, p := range d.pieceParts() {
		d.rows, d.cols = max(d.rows, p.Rows), max(d.cols, p.Cols)
	}
	for len(d.at) < d.rows {
		d.at = append(d.at, nil)
	}
	for r := range d.at {
		for len(d.at[r]) < d.cols {
			d.at[r] = append(d.at[r], -1)
		}
	}
}

// pieceSquare is a square of the grid and the pieces on it ("RG" where two
// share it); piece is the first one's number in its part.
type pieceSquare struct {
	rc    [2]int
	names string
	piece int
}

// piecesAt are the pieces of pos by square of the grid, row by row, those
// off their board left out.
func (d *drawer) piecesAt(pos judging.Position) []pieceSquare {
	var out []pieceSquare
	for _, p := range d.pieceParts() {
		for k, name := range p.Pieces {
			c := p.First + 2*k
			r, errR := strconv.Atoi(d.in.Symbols[pos.State.Cells[c]])
			q, errQ := strconv.Atoi(d.in.Symbols[pos.State.Cells[c+1]])
			if errR != nil || errQ != nil || r < 1 || r > p.Rows || q < 1 || q > p.Cols {
				continue
			}
			rc := [2]int{r - 1, q - 1}
			i := slices.IndexFunc(out, func(s pieceSquare) bool { return s.rc == rc })
			if i < 0 {
				out = append(out, pieceSquare{rc, name, k})
			} else {
				out[i].names += name
			}
		}
	}
	slices.SortFunc(out, func(a, b pieceSquare) int { return cmp.Compare(a.rc[0]*1024+a.rc[1], b.rc[0]*1024+b.rc[1]) })
	return out
}

// pieceOn is the text of the pieces on the grid's row r and column c, ""
// for none.
func pieceOn(at []pieceSquare, r, c int) string {
	for _, s := range at {
		if s.rc == [2]int{r, c} {
			return s.names
		}
	}
	return ""
}

// onBoard reports whether the grid's row r and column c is a square of a
// board of pieces.
func (d *drawer) onBoard(r, c int) bool {
	for _, p := range d.pieceParts() {
		if r < p.Rows && c < p.Cols {
			return true
		}
	}
	return false
}

// pieceWidth is the widest text the pieces put on a square.
func (d *drawer) pieceWidth() int {
	w := 0
	for _, p := range d.pieceParts() {
		for _, name := range p.Pieces {
			w = max(w, len(name))
		}
		if p.Share {
			w = max(w, len(strings.Join(p.Pieces, "")))
		}
	}
	return w
}

// piecesSVG draws the squares of the boards that no item fills, then the
// pieces on the grid: a disc of the piece's colour (layout.colors, by its
// name), its name on it.
func (d *drawer) piecesSVG(w *svgWriter, pos judging.Position, small bool) {
	var empty strings.Builder
	for _, p := range d.pieceParts() {
		for r := range p.Rows {
			for c := range p.Cols {
				if d.at[r][c] < 0 {
					x, y := d.cellXY(r, c, small)
					empty.WriteString(square(x, y, cellSide))
				}
			}
		}
	}
	if empty.Len() > 0 {
		w.printf(`<path fill="%s" stroke="#555" d="%s"/>`+"\n", d.fillOr(".", "#f4f4f4"), empty.String())
	}
	for _, sq := range d.piecesAt(pos) {
		x, y := d.cellXY(sq.rc[0], sq.rc[1], small)
		w.printf(`<circle cx="%d" cy="%d" r="%d" fill="%s" stroke="#111"/>`+"\n", x+cellSide/2, y+cellSide/2, cellSide/2-3, d.pieceFill(sq.names, sq.piece))
		w.printf(`<text x="%d" y="%d" text-anchor="middle" font-size="13">%s</text>`+"\n", x+cellSide/2, y+cellSide/2+5, escape(sq.names))
	}
}

// piecePalette fills pieces whose colour the layout does not give: deeper
// than the palette of symbols, so that a piece stands out from its square.
var piecePalette = []string{"#f87171", "#60a5fa", "#4ade80", "#fbbf24", "#c084fc", "#2dd4bf", "#f472b6", "#a3e635"}

// pieceFill is the colour of a piece, the k-th of its part.
func (d *drawer) pieceFill(name string, k int) string {
	return d.fillOr(name, piecePalette[k%len(piecePalette)])
}
