package explain

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/optjudge/optjudge/reference/puzzle"
	"github.com/optjudge/optjudge/reference/puzzle/judging"
)

// Sizes of the SVG drawings, in pixels.
const (
	cellSide  = 28 // a cell of a grid of symbols, onoff lights or stickers
	labelBand = 22 // the band of labels around a grid
	dialW     = 70 // a dial's cell
	dialH     = 84
	dialR     = 25
	tileSide  = 44 // a tile
	tilePad   = 4  // the frame around the tiles
	barH      = 18 // a bar
	barUnit   = 10 // a bar's length per value
	ringR     = 14 // an item around a circle
)

// palette fills the symbols of a grid of symbols, by value, where the
// layout gives no colours.
var palette = []string{"#fde68a", "#bfdbfe", "#fbcfe8", "#bbf7d0", "#fed7aa", "#ddd6fe", "#fecaca", "#a5f3fc", "#e5e7eb", "#d9f99d"}

// fill is the colour of symbol value v, or of a sticker's colour.
func (d *drawer) fill(key string, v int) string {
	if c, ok := d.def.Layout.Colors[key]; ok {
		return c
	}
	return palette[v%len(palette)]
}

// size is the size of a drawing.
func (d *drawer) size(small bool) (int, int) {
	switch {
	case d.circle:
		n := 2*d.ringRadius() + 2*ringR + 8
		return n, n
	case d.show == puzzle.ShowDial:
		return d.cols * dialW, d.rows * dialH
	case d.show == puzzle.ShowTile:
		return d.cols*tileSide + 2*tilePad, d.rows*tileSide + 2*tilePad
	case d.show == puzzle.ShowBar:
		return len(d.in.Symbols)*barUnit + 16, len(d.order()) * barH
	}
	w, h := d.cols*cellSide, d.rows*cellSide
	if !small {
		w += labelBand * (sign(d.left) + sign(d.right))
		h += labelBand * (sign(d.top) + sign(d.bottom))
	}
	return w, h
}

// svg draws pos, its top left corner at the origin.
func (d *drawer) svg(w *svgWriter, pos judging.Position, dr drawing) {
	switch {
	case d.circle:
		d.circleSVG(w, pos, dr)
	case d.show == puzzle.ShowDial:
		d.dialSVG(w, pos, dr)
	case d.show == puzzle.ShowTile:
		d.tileSVG(w, pos, dr)
	case d.show == puzzle.ShowBar:
		d.barSVG(w, pos, dr)
	default:
		d.gridSVG(w, pos, dr)
	}
}

// cellXY is the top left corner of the grid's square at row r, column c.
func (d *drawer) cellXY(r, c int, small bool) (int, int) {
	if small {
		return c * cellSide, r * cellSide
	}
	return labelBand*sign(d.left) + c*cellSide, labelBand*sign(d.top) + r*cellSide
}

// labelXY is the centre of a label at row r, column c: in a square of the
// grid, or in the band beside it.
func (d *drawer) labelXY(r, c int) (int, int) {
	at := func(i, n, before int) int {
		off := labelBand * sign(before)
		switch {
		case i < 0:
			return off + labelBand/2 + (i+1)*labelBand - labelBand
		case i >= n:
			return off + n*cellSide + labelBand/2 + (i-n)*labelBand
		}
		return off + i*cellSide + cellSide/2
	}
	return at(c, d.cols, d.left), at(r, d.rows, d.top)
}

// gridSVG draws a grid of squares: each filled by its symbol's colour (a
// sticker's colour; lit or dark for onoff), showing its symbol where
// symbols are shown; the cells of a goal that must hold one symbol framed
// by a thick line; on the full-size drawing, the labels, and for d.mark
// the cells the move changes framed dashed, its label in bold red and an
// arrow beside it the way the move carries the cells.
func (d *drawer) gridSVG(w *svgWriter, pos judging.Position, dr drawing) {
	toks := []string(nil)
	if d.facelets {
		toks = d.p.Tokens(pos)
	}
	groups := map[string]*strings.Builder{}
	for item, rc := range d.where {
		if rc[0] < 0 {
			continue
		}
		x, y := d.cellXY(rc[0], rc[1], dr.small)
		key := d.gridFill(pos, toks, item)
		if groups[key] == nil {
			groups[key] = &strings.Builder{}
		}
		groups[key].WriteString(square(x, y, cellSide))
	}
	for _, key := range d.fillOrder(toks) {
		if g := groups[key]; g != nil {
			w.printf(`<path fill="%s" stroke="#555" d="%s"/>`+"\n", key, g.String())
		}
	}
	if same := d.in.Spec.Goal.Same; len(same) > 0 && !d.facelets {
		var sq [][2]int
		for _, c := range same {
			if rc := d.where[c]; rc[0] >= 0 {
				sq = append(sq, [2]int{rc[1], rc[0]})
			}
		}
		ox, oy := d.cellXY(0, 0, dr.small)
		w.printf(`<path fill="none" stroke="#111" stroke-width="3" d="%s"/>`+"\n", outline(sq, cellSide, ox, oy))
	}
	texts := d.show == puzzle.ShowSymbol
	if texts || !dr.small && len(d.labels) > 0 {
		w.b.WriteString(`<g text-anchor="middle" font-size="16">` + "\n")
		if texts {
			for item, rc := range d.where {
				if rc[0] < 0 {
					continue
				}
				x, y := d.cellXY(rc[0], rc[1], dr.small)
				w.printf(`<text x="%d" y="%d">%s</text>`+"\n", x+cellSide/2, y+cellSide/2+6, escape(d.itemText(pos, toks, item)))
			}
		}
		if !dr.small {
			for _, lb := range d.labels {
				x, y := d.labelXY(lb.row, lb.col)
				attrs := ""
				if lb.text == dr.mark {
					attrs = ` font-weight="bold" fill="#c00"`
				}
				w.printf(`<text x="%d" y="%d"%s>%s</text>`+"\n", x, y+6, attrs, escape(lb.text))
			}
		}
		w.b.WriteString("</g>\n")
	}
	if d.in.Parts != nil {
		d.piecesSVG(w, pos, dr.small)
	}
	if m := d.moveIndex(dr.mark); m >= 0 && !dr.small {
		d.markCells(w, m, func(item int) (int, int, bool) {
			rc := d.where[item]
			x, y := d.cellXY(rc[0], rc[1], false)
			return x, y, rc[0] >= 0
		}, cellSide)
		d.markArrow(w, m, dr.mark)
	}
}

// gridFill is the colour of an item of the grid.
func (d *drawer) gridFill(pos judging.Position, toks []string, item int) string {
	switch {
	case d.facelets:
		return d.fill(toks[item], 0)
	case d.show == puzzle.ShowOnOff:
		if pos.State.Cells[item] == 0 {
			return d.fillOr(d.in.Symbols[0], "#1f2937")
		}
		return d.fillOr(d.symbol(pos, item), "#facc15")
	}
	v := int(pos.State.Cells[item])
	return d.fill(d.in.Symbols[v], v)
}

func (d *drawer) fillOr(key, def string) string {
	if c, ok := d.def.Layout.Colors[key]; ok {
		return c
	}
	return def
}

// fillOrder lists the colours in the order their paths are drawn: by
// symbol, then the stickers' colours.
func (d *drawer) fillOrder(toks []string) []string {
	var keys []string
	seen := map[string]bool{}
	add := func(k string) {
		if !seen[k] {
			seen[k] = true
			keys = append(keys, k)
		}
	}
	if d.show == puzzle.ShowOnOff {
		add(d.fillOr(d.in.Symbols[0], "#1f2937"))
		for _, s := range d.in.Symbols[1:] {
			add(d.fillOr(s, "#facc15"))
		}
	}
	for v, s := range d.in.Symbols {
		add(d.fill(s, v))
	}
	for _, t := range toks {
		add(d.fill(t, 0))
	}
	return keys
}

// markCells frames, dashed, the items move m changes (the cells, or their
// facelets); at gives an item's top left corner and whether it is drawn.
func (d *drawer) markCells(w *svgWriter, m int, at func(item int) (int, int, bool), side int) {
	var path strings.Builder
	var items []int
	for c, ch := range d.changed(m) {
		switch {
		case !ch:
		case d.facelets:
			items = append(items, d.in.Facelets[c]...)
		default:
			items = append(items, c)
		}
	}
	sort.Ints(items)
	for _, item := range items {
		if x, y, ok := at(item); ok {
			path.WriteString(square(x+2, y+2, side-4))
		}
	}
	if path.Len() > 0 {
		w.printf(`<path fill="none" stroke="#c00" stroke-width="3" stroke-dasharray="5 3" d="%s"/>`+"\n", path.String())
	}
}

// markArrow draws, beside the label of move m, an arrow the way the move
// carries the cells.
func (d *drawer) markArrow(w *svgWriter, m int, name string) {
	dx, dy := d.travel(m)
	if dx == 0 && dy == 0 {
		return
	}
	for _, lb := range d.labels {
		if lb.text != name {
			continue
		}
		x, y := d.labelXY(lb.row, lb.col)
		// Beside the letter, across the line: the arrow points where the cells go.
		ax, ay := x+dy*14, y+dx*14
		w.printf(`<path fill="#c00" stroke="#c00" stroke-width="2" d="%s"/>`+"\n",
			arrow(ax-dx*9, ay-dy*9, ax+dx*9, ay+dy*9))
		return
	}
}

// dialSVG draws the dials with their hands: a dial showing the goal's
// value is filled green; on the full-size drawing each dial has its name
// and what it shows, and the dials that d.mark turns are framed in dashed
// red.
func (d *drawer) dialSVG(w *svgWriter, pos judging.Position, dr drawing) {
	k := len(d.in.Symbols)
	var turned []bool
	if m := d.moveIndex(dr.mark); m >= 0 && !dr.small {
		turned = d.changed(m)
	}
	var goal []uint8
	if g := d.in.Spec.Goal.States; len(g) == 1 {
		goal = g[0]
	}
	var hands, ticks strings.Builder
	for c, rc := range d.where {
		if rc[0] < 0 {
			continue
		}
		v := int(pos.State.Cells[c])
		x, y := rc[1]*dialW, rc[0]*dialH
		cx, cy := x+dialW/2, y+dialH-dialR-8
		fill, stroke := "#fff", `stroke="#333" stroke-width="2"`
		if goal != nil && goal[c] == pos.State.Cells[c] {
			fill = "#dcfce7"
		}
		if turned != nil && turned[c] {
			stroke = `stroke="#c00" stroke-width="3" stroke-dasharray="5 3"`
		}
		w.printf(`<circle cx="%d" cy="%d" r="%d" fill="%s" %s/>`+"\n", cx, cy, dialR, fill, stroke)
		a := 2 * math.Pi * float64(v) / float64(k)
		hx, hy := int(math.Round(math.Sin(a)*(dialR-7))), int(math.Round(-math.Cos(a)*(dialR-7)))
		fmt.Fprintf(&hands, "M%d %dl%d %d", cx, cy, hx, hy)
		if !dr.small {
			fmt.Fprintf(&ticks, "M%d %dv4M%d %dv-4M%d %dh4M%d %dh-4", cx, cy-dialR, cx, cy+dialR, cx-dialR, cy, cx+dialR, cy)
			w.text(x+6, y+16, `font-weight="bold"`, d.in.Cells[c])
			w.text(x+dialW-10, y+16, `text-anchor="end"`, judging.DialText(v, k))
		}
	}
	if ticks.Len() > 0 {
		w.printf(`<path stroke="#333" d="%s"/>`+"\n", ticks.String())
	}
	w.printf(`<path stroke="#111" stroke-width="4" stroke-linecap="round" d="%s"/>`+"\n", hands.String())
}

// tileXY is the top left corner of the tile at row r, column c.
func tileXY(r, c int) (int, int) { return tilePad + c*tileSide, tilePad + r*tileSide }

// tileSVG draws the board: grey numbered tiles, the blank white with a
// dashed edge; for a slide d.mark an arrow from the blank where the move
// takes it, off the board if it goes there, with the tile it swaps with
// framed in red; for another move, the cells it changes framed.
func (d *drawer) tileSVG(w *svgWriter, pos judging.Position, dr drawing) {
	var tiles, blank strings.Builder
	for c, rc := range d.where {
		if rc[0] < 0 {
			continue
		}
		x, y := tileXY(rc[0], rc[1])
		if int(pos.State.Cells[c]) == d.in.Spec.Blank {
			blank.WriteString(square(x, y, tileSide))
		} else {
			tiles.WriteString(square(x, y, tileSide))
		}
	}
	wd, ht := d.size(false)
	w.printf(`<rect x="1" y="1" width="%d" height="%d" fill="#9ca3af" stroke="#111" stroke-width="2"/>`+"\n", wd-2, ht-2)
	w.printf(`<path fill="#f3f4f6" stroke="#333" stroke-width="2" d="%s"/>`+"\n", tiles.String())
	if blank.Len() > 0 {
		w.printf(`<path fill="#fff" stroke="#333" stroke-dasharray="4 3" d="%s"/>`+"\n", blank.String())
	}
	w.b.WriteString(`<g text-anchor="middle" font-size="22" font-weight="bold">` + "\n")
	for c, rc := range d.where {
		if rc[0] < 0 || int(pos.State.Cells[c]) == d.in.Spec.Blank {
			continue
		}
		x, y := tileXY(rc[0], rc[1])
		w.printf(`<text x="%d" y="%d">%s</text>`+"\n", x+tileSide/2, y+tileSide/2+8, escape(d.symbol(pos, c)))
	}
	w.b.WriteString("</g>\n")
	m := d.moveIndex(dr.mark)
	if m < 0 || dr.small {
		return
	}
	dx, dy := slide(d.in.Spec.Moves[m])
	if dx == 0 && dy == 0 {
		d.markCells(w, m, func(c int) (int, int, bool) {
			rc := d.where[c]
			x, y := tileXY(rc[0], rc[1])
			return x, y, rc[0] >= 0
		}, tileSide)
		return
	}
	from := d.blank(pos)
	if from < 0 || d.where[from][0] < 0 {
		return
	}
	x, y := tileXY(d.where[from][0], d.where[from][1])
	cx, cy := x+tileSide/2, y+tileSide/2
	length := tileSide/2 + tilePad + 4 // just past the frame
	if _, ok := d.p.Apply(pos, m); ok {
		length = tileSide - 14
		w.printf(`<path fill="none" stroke="#c00" stroke-width="3" d="%s"/>`+"\n", square(x+dx*tileSide+3, y+dy*tileSide+3, tileSide-6))
	}
	w.printf(`<path fill="#c00" stroke="#c00" stroke-width="3" d="%s"/>`+"\n", arrow(cx, cy, cx+dx*length, cy+dy*length))
}

// barSVG draws each cell, in the layout's order from the top, as a bar as
// long as its symbol's value, centred; for d.mark the bars the move
// changes are framed.
func (d *drawer) barSVG(w *svgWriter, pos judging.Position, dr drawing) {
	wd, _ := d.size(false)
	var changed []bool
	if m := d.moveIndex(dr.mark); m >= 0 && !dr.small {
		changed = d.changed(m)
	}
	for i, c := range d.order() {
		v := int(pos.State.Cells[c])
		bw := (v + 1) * barUnit
		x, y := (wd-bw)/2, i*barH+2
		stroke := `stroke="#333"`
		if changed != nil && changed[c] {
			stroke = `stroke="#c00" stroke-width="3" stroke-dasharray="5 3"`
		}
		w.printf(`<rect x="%d" y="%d" width="%d" height="%d" rx="6" fill="%s" %s/>`+"\n", x, y, bw, barH-4, d.fill(d.in.Symbols[v], v), stroke)
		if !dr.small {
			w.printf(`<text x="%d" y="%d" text-anchor="middle" font-size="11">%s</text>`+"\n", wd/2, y+barH-8, escape(d.symbol(pos, c)))
		}
	}
}

// ringRadius is the radius of the circle the items sit on.
func (d *drawer) ringRadius() int {
	return max(48, len(d.around)*(2*ringR+6)/6)
}

// circleSVG draws the items around a circle, clockwise from the top, each
// a disc of its colour showing its symbol; the cells of a goal that must
// hold one symbol with a thick edge; for d.mark the cells it changes in
// dashed red.
func (d *drawer) circleSVG(w *svgWriter, pos judging.Position, dr drawing) {
	toks := []string(nil)
	if d.facelets {
		toks = d.p.Tokens(pos)
	}
	var changed []bool
	if m := d.moveIndex(dr.mark); m >= 0 && !dr.small && !d.facelets {
		changed = d.changed(m)
	}
	rr := d.ringRadius()
	o := rr + ringR + 4
	for i, item := range d.around {
		a := 2 * math.Pi * float64(i) / float64(len(d.around))
		cx, cy := o+int(math.Round(math.Sin(a)*float64(rr))), o-int(math.Round(math.Cos(a)*float64(rr)))
		key := d.gridFill(pos, toks, item)
		stroke := `stroke="#555"`
		switch {
		case changed != nil && changed[item]:
			stroke = `stroke="#c00" stroke-width="3" stroke-dasharray="5 3"`
		case d.highlighted(item):
			stroke = `stroke="#111" stroke-width="3"`
		}
		w.printf(`<circle cx="%d" cy="%d" r="%d" fill="%s" %s/>`+"\n", cx, cy, ringR, key, stroke)
		if d.show == puzzle.ShowSymbol {
			w.printf(`<text x="%d" y="%d" text-anchor="middle" font-size="14">%s</text>`+"\n", cx, cy+5, escape(d.itemText(pos, toks, item)))
		}
	}
}

// outline is the boundary of a union of the squares of a grid (given by
// their columns and rows; each of a side, the grid's top left corner at
// ox, oy) as a path: each loop clockwise from its top left corner, the
// loops in order of those corners.
func outline(squares [][2]int, side, ox, oy int) string {
	in := map[[2]int]bool{}
	for _, s := range squares {
		in[s] = true
	}
	// Directed edges with the region on their right, in units of squares.
	next := map[[2]int][][2]int{}
	add := func(a, b [2]int) { next[a] = append(next[a], b) }
	for s := range in {
		x, y := s[0], s[1]
		if !in[[2]int{x, y - 1}] {
			add([2]int{x, y}, [2]int{x + 1, y})
		}
		if !in[[2]int{x + 1, y}] {
			add([2]int{x + 1, y}, [2]int{x + 1, y + 1})
		}
		if !in[[2]int{x, y + 1}] {
			add([2]int{x + 1, y + 1}, [2]int{x, y + 1})
		}
		if !in[[2]int{x - 1, y}] {
			add([2]int{x, y + 1}, [2]int{x, y})
		}
	}
	var loops [][][2]int
	for len(next) > 0 {
		start := [2]int{math.MaxInt, math.MaxInt}
		for v := range next {
			if v[1] < start[1] || v[1] == start[1] && v[0] < start[0] {
				start = v
			}
		}
		loop := [][2]int{start}
		for v := start; ; {
			outs := next[v]
			to := outs[0]
			if len(outs) == 1 {
				delete(next, v)
			} else {
				next[v] = outs[1:]
			}
			if to == start {
				break
			}
			loop = append(loop, to)
			v = to
		}
		loops = append(loops, clockwise(loop))
	}
	var b strings.Builder
	for _, l := range loops {
		fmt.Fprintf(&b, "M%d %d", ox+l[0][0]*side, oy+l[0][1]*side)
		pts := append(l, l[0])
		for i := 1; i < len(pts)-1; {
			j := i
			// merge straight runs
			for j+1 < len(pts) && collinear(pts[i-1], pts[j], pts[j+1]) {
				j++
			}
			if j == len(pts)-1 {
				break // the last run back to the start is the z
			}
			dx, dy := pts[j][0]-pts[i-1][0], pts[j][1]-pts[i-1][1]
			if dx != 0 {
				fmt.Fprintf(&b, "h%d", dx*side)
			} else {
				fmt.Fprintf(&b, "v%d", dy*side)
			}
			i = j + 1
		}
		b.WriteString("z")
	}
	return b.String()
}

// collinear reports whether b lies on the straight run from a to c.
func collinear(a, b, c [2]int) bool {
	return a[0] == b[0] && b[0] == c[0] || a[1] == b[1] && b[1] == c[1]
}

// clockwise returns a loop (screen coordinates, y down) going clockwise
// from its top left corner.
func clockwise(l [][2]int) [][2]int {
	area := 0
	for i := range l {
		a, b := l[i], l[(i+1)%len(l)]
		area += a[0]*b[1] - b[0]*a[1]
	}
	if area < 0 {
		r := [][2]int{l[0]}
		for i := len(l) - 1; i > 0; i-- {
			r = append(r, l[i])
		}
		return r
	}
	return l
}
