package explain

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"

	"github.com/optjudge/optjudge/reference/puzzle"
	"github.com/optjudge/optjudge/reference/puzzle/engine"
	"github.com/optjudge/optjudge/reference/puzzle/judging"
)

// position is a puzzle's position with what draws it.
type position struct {
	p   *judging.Puzzle
	pos judging.Position
	dr  *drawer
}

func positionOf(p *judging.Puzzle, pos judging.Position) Position {
	return position{p: p, pos: pos, dr: drawerOf(p, pos.Size)}
}

func (q position) String() string                { return q.p.String(q.pos) }
func (q position) Text() string                  { return q.dr.text(q.pos) }
func (q position) svgSize(small bool) (int, int) { return q.dr.size(small) }
func (q position) svg(w *svgWriter, d drawing)   { q.dr.svg(w, q.pos, d) }

// markable reports whether move is a move of the puzzle, even one that
// cannot be made here, so that it can be shown on the position.
func (q position) markable(move string) bool {
	_, ok := q.dr.in.Move(move)
	return ok
}

// drawer draws the positions of a puzzle at one size from its layout: the
// places of its items (the cells, or with sticker input the facelets) on a
// grid of rows and columns, or around a circle; the labels around them;
// and how a symbol is shown.
type drawer struct {
	p    *judging.Puzzle
	def  *puzzle.Definition
	in   *puzzle.Instance
	show puzzle.Show

	// facelets: the items are the facelets of the sticker input, not the
	// cells.
	facelets bool
	// circle: the items sit around a circle, clockwise from the top, in
	// the order of around; else on the grid.
	circle     bool
	around     []int
	rows, cols int
	at         [][]int  // the item at each row and column, -1 for none
	where      [][2]int // each item's row and column; -1, -1 when not drawn
	labels     []label
	// the bands of labels around the grid: how many rows above and below,
	// how many columns left and right
	top, bottom, left, right int
}

// label is a text of the layout at a grid position.
type label struct {
	text     string
	row, col int
}

var drawers sync.Map // drawerKey -> *drawer

type drawerKey struct {
	p    *judging.Puzzle
	size int
}

// drawerOf returns the drawer of p at size n, made once.
func drawerOf(p *judging.Puzzle, n int) *drawer {
	k := drawerKey{p, n}
	if d, ok := drawers.Load(k); ok {
		return d.(*drawer)
	}
	d, _ := drawers.LoadOrStore(k, newDrawer(p, n))
	return d.(*drawer)
}

func newDrawer(p *judging.Puzzle, n int) *drawer {
	def := p.Definition()
	in := p.Instance(n)
	d := &drawer{p: p, def: def, in: in, show: def.Layout.Show, facelets: in.Facelets != nil && def.Layout.Grid != nil}
	items := len(in.Cells)
	if d.facelets {
		items = in.FaceletCount
	}
	d.where = make([][2]int, items)
	for i := range d.where {
		d.where[i] = [2]int{-1, -1}
	}
	l := def.Layout
	switch {
	case l.Grid != nil:
		for r, row := range l.Grid {
			fields := strings.Fields(row)
			d.cols = max(d.cols, len(fields))
			d.at = append(d.at, nil)
			for c, name := range fields {
				item := d.item(name)
				d.at[r] = append(d.at[r], item)
				if item >= 0 {
					d.where[item] = [2]int{r, c}
				}
			}
		}
		d.rows = len(l.Grid)
	case l.Circle != nil:
		d.circle = true
		for _, name := range l.Circle {
			if item := d.item(name); item >= 0 {
				d.around = append(d.around, item)
			}
		}
	case len(d.pieceParts()) > 0:
		d.pieceBoard(d.pieceParts()[0])
	case def.Grid != nil:
		d.rows, d.cols = def.Grid.Rows, def.Grid.Cols
		for r := range d.rows {
			d.at = append(d.at, nil)
			for c := range d.cols {
				d.at[r] = append(d.at[r], r*d.cols+c)
				d.where[r*d.cols+c] = [2]int{r, c}
			}
		}
	default:
		d.rows, d.cols = 1, items
		d.at = [][]int{make([]int, items)}
		for i := range items {
			d.at[0][i] = i
			d.where[i] = [2]int{0, i}
		}
	}
	if !d.circle {
		d.fitPieces()
	}
	for r := range d.at {
		for len(d.at[r]) < d.cols {
			d.at[r] = append(d.at[r], -1)
		}
	}
	if !d.circle {
		for _, lb := range l.Labels {
			d.labels = append(d.labels, label{lb.Text, lb.Row, lb.Col})
			d.top, d.bottom = max(d.top, -lb.Row), max(d.bottom, lb.Row-d.rows+1)
			d.left, d.right = max(d.left, -lb.Col), max(d.right, lb.Col-d.cols+1)
		}
	}
	return d
}

// item is the item a layout's name gives: a cell's name, or with sticker
// input a facelet's number; -1 for "." and for a cell this size lacks.
func (d *drawer) item(name string) int {
	if name == "." {
		return -1
	}
	if d.facelets {
		f, err := strconv.Atoi(name)
		if err != nil || f < 1 || f > len(d.where) {
			return -1
		}
		return f - 1
	}
	c, ok := d.in.Cell(name)
	if !ok {
		return -1
	}
	return c
}

// symbol is the text of the symbol in cell c.
func (d *drawer) symbol(pos judging.Position, c int) string {
	return d.in.Symbols[pos.State.Cells[c]]
}

// itemText is what an item shows: its symbol, or a facelet's colour.
func (d *drawer) itemText(pos judging.Position, toks []string, item int) string {
	if d.facelets {
		return toks[item]
	}
	return d.symbol(pos, item)
}

// highlighted reports whether cell c is one of a goal's cells that must
// hold one symbol (the rotation game's center).
func (d *drawer) highlighted(c int) bool {
	if d.facelets {
		return false
	}
	for _, s := range d.in.Spec.Goal.Same {
		if s == c {
			return true
		}
	}
	return false
}

// changed are the cells a move changes (for a slide, none: it depends on
// the blank).
func (d *drawer) changed(m int) []bool {
	mv := d.in.Spec.Moves[m]
	ch := make([]bool, len(d.in.Cells))
	for i := range ch {
		ch[i] = mv.Perm != nil && mv.Perm[i] != i || mv.Twist != nil && mv.Twist[i] != 0 || mv.Add != nil && mv.Add[i] != 0
	}
	return ch
}

// travel is the way a move carries most cells' contents on the grid, one
// cell at a time: (1, 0) to the right, (0, -1) up; 0, 0 when there is no
// such way.
func (d *drawer) travel(m int) (dx, dy int) {
	mv := d.in.Spec.Moves[m]
	if mv.Perm == nil || d.facelets || d.circle {
		return 0, 0
	}
	votes := map[[2]int]int{}
	for to, from := range mv.Perm {
		a, b := d.where[from], d.where[to]
		if from == to || a[0] < 0 || b[0] < 0 {
			continue
		}
		step := [2]int{b[1] - a[1], b[0] - a[0]}
		if abs(step[0])+abs(step[1]) == 1 {
			votes[step]++
		}
	}
	best, n := [2]int{}, 0
	for _, s := range [][2]int{{0, -1}, {1, 0}, {0, 1}, {-1, 0}} {
		if votes[s] > n {
			best, n = s, votes[s]
		}
	}
	return best[0], best[1]
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// text draws pos for a terminal.
func (d *drawer) text(pos judging.Position) string {
	switch {
	case d.circle:
		return d.circleText(pos)
	case d.show == puzzle.ShowDial:
		return d.dialText(pos)
	case d.show == puzzle.ShowTile:
		return d.tileText(pos)
	case d.show == puzzle.ShowBar:
		return d.barText(pos)
	case d.show == puzzle.ShowOnOff:
		return d.gridText(pos, func(s string, _ bool) string {
			if s == d.in.Symbols[0] {
				return " . "
			}
			return " # "
		}, 3)
	}
	width := 1
	if d.facelets {
		for _, t := range d.p.Tokens(pos) {
			width = max(width, len(t))
		}
	} else {
		for _, s := range d.in.Symbols {
			width = max(width, len(s))
		}
		width = max(width, d.pieceWidth())
	}
	return d.gridText(pos, func(s string, hi bool) string {
		s = fmt.Sprintf("%*s", width, s)
		if hi {
			return "[" + s + "]"
		}
		return " " + s + " "
	}, width+2)
}

// gridText draws the grid, each item as cell(its text, highlighted) of
// width w, with the labels around it: a label sits where the middle of a
// cell of its row and column would.
func (d *drawer) gridText(pos judging.Position, cell func(s string, hi bool) string, w int) string {
	toks := []string(nil)
	if d.facelets {
		toks = d.p.Tokens(pos)
	}
	m := 0
	if d.left > 0 {
		m = d.left*w - 1
	}
	width := m + w*(d.cols+d.right) + 1
	labels := map[int][]label{}
	for _, lb := range d.labels {
		labels[lb.row] = append(labels[lb.row], lb)
	}
	pieces := d.piecesAt(pos)
	var b strings.Builder
	for r := -d.top; r < d.rows+d.bottom; r++ {
		line := []byte(strings.Repeat(" ", width))
		if r >= 0 && r < d.rows {
			for c, item := range d.at[r] {
				s := strings.Repeat(" ", w)
				if on := pieceOn(pieces, r, c); on != "" {
					s = cell(on, false)
				} else if item >= 0 {
					s = cell(d.itemText(pos, toks, item), d.highlighted(item))
				} else if d.onBoard(r, c) {
					s = cell(".", false)
				}
				copy(line[m+w*c:], s)
			}
		}
		for _, lb := range labels[r] {
			at := m + w*lb.col + 1
			if at >= 0 {
				for len(line) < at+len(lb.text) {
					line = append(line, ' ')
				}
				copy(line[at:], lb.text)
			}
		}
		b.WriteString(strings.TrimRight(string(line), " "))
		b.WriteByte('\n')
	}
	return b.String()
}

// clockHands draws a dial's hand, by direction (0 is up, 12 o'clock, then
// clockwise by eighths of a turn), on the three lines under its label.
var clockHands = [8][3]string{
	{"   |   ", "   o   ", "       "},
	{"    /  ", "   o   ", "       "},
	{"       ", "   o-- ", "       "},
	{"       ", "   o   ", "    \\  "},
	{"       ", "   o   ", "   |   "},
	{"       ", "   o   ", "  /    "},
	{"       ", " --o   ", "       "},
	{"  \\    ", "   o   ", "       "},
}

// hand is the eighth of a turn nearest to value v of k.
func hand(v, k int) int {
	return int(math.Round(float64(v)*8/float64(k))) % 8
}

// dialText draws the dials as a grid of clock faces, each with its name,
// what it shows and its hand:
//
//	+-------+-------+-------+
//	| A   9 | B   9 | C  12 |
//	|       |       |   |   |
//	| --o   | --o   |   o   |
//	|       |       |       |
//	+-------+-------+-------+
func (d *drawer) dialText(pos judging.Position) string {
	k := len(d.in.Symbols)
	w := 7
	for _, c := range d.in.Cells {
		w = max(w, len(c)+6)
	}
	rule := "+" + strings.Repeat(strings.Repeat("-", w)+"+", d.cols) + "\n"
	var b strings.Builder
	b.WriteString(rule)
	for r := range d.rows {
		b.WriteByte('|')
		for _, c := range d.at[r] {
			if c < 0 {
				b.WriteString(strings.Repeat(" ", w) + "|")
				continue
			}
			v := int(pos.State.Cells[c])
			head := fmt.Sprintf(" %s %3s ", d.in.Cells[c], judging.DialText(v, k))
			fmt.Fprintf(&b, "%-*s|", w, head)
		}
		b.WriteByte('\n')
		for line := range 3 {
			b.WriteByte('|')
			for _, c := range d.at[r] {
				s := strings.Repeat(" ", w)
				if c >= 0 {
					s = fmt.Sprintf("%-*s", w, clockHands[hand(int(pos.State.Cells[c]), k)][line])
				}
				b.WriteString(s + "|")
			}
			b.WriteByte('\n')
		}
		b.WriteString(rule)
	}
	return b.String()
}

// tileText draws a frame of numbered tiles, the blank left empty:
//
//	+---+---+---+
//	| 2 | 3 | 4 |
//	+---+---+---+
func (d *drawer) tileText(pos judging.Position) string {
	width := 1
	for _, s := range d.in.Symbols {
		width = max(width, len(s))
	}
	rule := "+" + strings.Repeat(strings.Repeat("-", width+2)+"+", d.cols) + "\n"
	var b strings.Builder
	b.WriteString(rule)
	for r := range d.rows {
		b.WriteByte('|')
		for _, c := range d.at[r] {
			s := ""
			if c >= 0 && int(pos.State.Cells[c]) != d.in.Spec.Blank {
				s = d.symbol(pos, c)
			}
			fmt.Fprintf(&b, " %*s |", width, s)
		}
		b.WriteByte('\n')
		b.WriteString(rule)
	}
	return b.String()
}

// barText draws each cell, in the layout's order, as a bar as long as its
// symbol's value, centred, with the symbol beside it: a stack of pancakes.
func (d *drawer) barText(pos judging.Position) string {
	n := len(d.in.Symbols)
	var b strings.Builder
	for _, c := range d.order() {
		v := int(pos.State.Cells[c]) + 1
		pad := n - v
		fmt.Fprintf(&b, "%s%s%s %s\n", strings.Repeat(" ", pad), strings.Repeat("=", 2*v), strings.Repeat(" ", pad), d.symbol(pos, c))
	}
	return b.String()
}

// order is the cells in the layout's reading order.
func (d *drawer) order() []int {
	if d.circle {
		return d.around
	}
	var cells []int
	for _, row := range d.at {
		for _, c := range row {
			if c >= 0 && !d.facelets {
				cells = append(cells, c)
			}
		}
	}
	return cells
}

// circleText lists the cells clockwise from the top.
func (d *drawer) circleText(pos judging.Position) string {
	toks := []string(nil)
	if d.facelets {
		toks = d.p.Tokens(pos)
	}
	var parts []string
	for _, item := range d.around {
		s := d.itemText(pos, toks, item)
		if d.highlighted(item) {
			s = "[" + s + "]"
		}
		parts = append(parts, s)
	}
	return "clockwise from the top: " + strings.Join(parts, " ") + "\n"
}

// moveIndex is the index of the move called name, -1 for none.
func (d *drawer) moveIndex(name string) int {
	m, ok := d.in.Move(name)
	if !ok {
		return -1
	}
	return m
}

// blank is the cell of the blank, -1 for none.
func (d *drawer) blank(pos judging.Position) int {
	for c, v := range pos.State.Cells {
		if int(v) == d.in.Spec.Blank {
			return c
		}
	}
	return -1
}

// slide is the direction of a slide move, (0, 0) for another move.
func slide(mv engine.Move) (dx, dy int) {
	switch mv.Slide {
	case engine.SlideUp:
		return 0, -1
	case engine.SlideDown:
		return 0, 1
	case engine.SlideLeft:
		return -1, 0
	case engine.SlideRight:
		return 1, 0
	}
	return 0, 0
}
