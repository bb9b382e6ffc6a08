package explain

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Layout of an SVG drawing, in pixels.
const (
	svgMargin   = 16
	svgGap      = 28 // between two panels
	svgTitleH   = 30 // the title line and the space under it
	svgCaptionH = 38 // a panel's two lines of caption
	svgLineH    = 20 // a sentence
	svgThumbGap = 10 // between two thumbnails of a path
	svgThumbLbl = 16 // a thumbnail's move under it
	svgCharW    = 7  // a character of the 13px font, about
	svgScale    = 4  // thumbnails are drawn at svgScale/10
	svgStripMax = 16 // paths of more moves get no thumbnails
)

// panel is one position of the row at the top, with its caption.
type panel struct {
	head, sub string
	pos       Position
	mark      string
}

// SVG draws e as a plain inline SVG image: the title; a row of panels (the
// start, the position before the move where the output went wrong with that
// move shown on it, the position reached, the goal); the sentences of Text;
// and under each of the two paths, when it is short, a strip of thumbnails
// from the start. The image is accessible (role="img", a <title> and a
// <desc> that say in words what it shows; colour is never the only sign),
// has no scripts, styles or references, and is the same for the same e.
func (e *Explanation) SVG() string {
	panels := e.panels()
	ls := e.lines()
	width := 0
	for i, p := range panels {
		w, _ := p.pos.svgSize(false)
		width += max(w, svgCharW*max(len(p.head), len(p.sub)))
		if i > 0 {
			width += svgGap
		}
	}
	width = max(width, svgCharW*(len(e.title())+2))
	for _, l := range ls {
		width = max(width, svgCharW*len(l.text))
	}
	width += 2 * svgMargin

	body := &svgWriter{}
	y := svgMargin
	body.text(svgMargin, y+15, `font-size="15" font-weight="bold"`, e.title())
	y += svgTitleH
	y = e.svgPanels(body, panels, y)
	for _, l := range ls {
		body.text(svgMargin, y+14, "", l.text)
		y += svgLineH
		if l.path != nil && len(l.moves) <= svgStripMax {
			y = svgStrip(body, l, width, y)
		}
	}
	height := y + svgMargin

	w := &svgWriter{}
	w.printf(`<svg xmlns="http://www.w3.org/2000/svg" role="img" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="13">`+"\n",
		width, height, width, height)
	w.printf("<title>%s</title>\n<desc>%s</desc>\n", escape(e.title()), escape(e.description()))
	w.printf(`<rect width="%d" height="%d" fill="#fff"/>`+"\n", width, height)
	w.b.WriteString(body.b.String())
	w.b.WriteString("</svg>\n")
	return w.b.String()
}

// panels are the positions of the top row.
func (e *Explanation) panels() []panel {
	ps := []panel{{head: "start", pos: e.Start}}
	if e.Replayed {
		if w := e.Wrong; w != nil && (w.After != nil || markable(w.Before, w.Move)) {
			ps = append(ps, panel{head: "went wrong", sub: fmt.Sprintf("at move %d: %s", w.N, cut(w.Move, 20)), pos: w.Before, mark: w.Move})
		}
		head, sub, _ := strings.Cut(e.reachedTitle(), ": ")
		ps = append(ps, panel{head: head, sub: sub, pos: e.Reached()})
	}
	if e.Goal != nil {
		ps = append(ps, panel{head: "goal", pos: e.Goal})
	}
	return ps
}

// markable reports whether move can be shown on p: it is a move of the
// puzzle, even one that cannot be made there.
func markable(p Position, move string) bool {
	m, ok := p.(interface{ markable(string) bool })
	return ok && m.markable(move)
}

// svgPanels draws the top row at y and returns the y under it.
func (e *Explanation) svgPanels(w *svgWriter, panels []panel, y int) int {
	x, tallest := svgMargin, 0
	for _, p := range panels {
		pw, ph := p.pos.svgSize(false)
		w.text(x, y+14, `font-weight="bold"`, p.head)
		if p.sub != "" {
			w.text(x, y+31, "", p.sub)
		}
		w.printf(`<g transform="translate(%d %d)">`+"\n", x, y+svgCaptionH)
		p.pos.svg(w, drawing{mark: p.mark})
		w.b.WriteString("</g>\n")
		x += max(pw, svgCharW*max(len(p.head), len(p.sub))) + svgGap
		tallest = max(tallest, ph)
	}
	return y + svgCaptionH + tallest + 12
}

// svgStrip draws the thumbnails of a path at y, wrapped to width, and
// returns the y under them.
func svgStrip(w *svgWriter, l line, width, y int) int {
	tw, th := l.start.svgSize(true)
	tw, th = tw*svgScale/10, th*svgScale/10
	cellW := max(tw, 3*svgCharW) + svgThumbGap
	perRow := max(1, (width-2*svgMargin+svgThumbGap)/cellW)
	y += 4
	for i := 0; i <= len(l.path); i++ {
		if i > 0 && i%perRow == 0 {
			y += th + svgThumbLbl + 8
		}
		x := svgMargin + i%perRow*cellW
		p, label := l.start, "start"
		if i > 0 {
			p, label = l.path[i-1], fmt.Sprintf("%d: %s", i, l.moves[i-1])
		}
		w.printf(`<g transform="translate(%d %d) scale(0.%d)">`+"\n", x, y, svgScale)
		p.svg(w, drawing{small: true})
		w.b.WriteString("</g>\n")
		attrs := `font-size="11"`
		if i > 0 && i == l.wrong {
			w.printf(`<rect x="%d" y="%d" width="%d" height="%d" fill="none" stroke="#c00" stroke-width="2" stroke-dasharray="4 2"/>`+"\n",
				x-3, y-3, tw+6, th+6)
			attrs += ` font-weight="bold" fill="#c00"`
		}
		w.text(x, y+th+13, attrs, label)
	}
	return y + th + svgThumbLbl + 8
}

// Description says in words what the drawing shows: the SVG's <desc>, and
// the alternative text of a page's image of it.
func (e *Explanation) Description() string { return e.description() }

// description says in words what the drawing shows, for <desc>.
func (e *Explanation) description() string {
	var parts []string
	parts = append(parts, "start: "+e.Start.String())
	if e.Replayed {
		parts = append(parts, e.reachedTitle()+": "+e.Reached().String())
	}
	if e.Goal != nil {
		parts = append(parts, "goal: "+e.Goal.String())
	}
	for _, l := range e.lines() {
		parts = append(parts, strings.Join(strings.Fields(l.text), " "))
	}
	return strings.Join(parts, "; ")
}

// svgWriter builds SVG markup.
type svgWriter struct{ b strings.Builder }

func (w *svgWriter) printf(format string, args ...any) { fmt.Fprintf(&w.b, format, args...) }

// text writes s at x, y with the extra attributes attrs.
func (w *svgWriter) text(x, y int, attrs, s string) {
	if attrs != "" {
		attrs = " " + attrs
	}
	w.printf(`<text x="%d" y="%d"%s>%s</text>`+"\n", x, y, attrs, escape(s))
}

// square is a path's subpath for the square of side size at x, y.
func square(x, y, size int) string {
	return fmt.Sprintf("M%d %dh%dv%dh-%dz", x, y, size, size, size)
}

// arrow is a path for an arrow from x1, y1 to x2, y2 along an axis, with
// its head at x2, y2.
func arrow(x1, y1, x2, y2 int) string {
	const h = 6
	dx, dy := sign(x2-x1), sign(y2-y1)
	// The head's two back corners, h back along the arrow and h aside.
	bx, by := x2-h*dx, y2-h*dy
	return fmt.Sprintf("M%d %dL%d %dM%d %dL%d %dL%d %dz", x1, y1, bx, by,
		x2, y2, bx+h*dy, by+h*dx, bx-h*dy, by-h*dx)
}

func sign(n int) int {
	switch {
	case n > 0:
		return 1
	case n < 0:
		return -1
	}
	return 0
}

// escape makes s safe as XML character data or an attribute value: the
// markup characters escaped, and bytes that are not valid UTF-8 and
// characters that XML forbids (most control characters) replaced by U+FFFD.
func escape(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '&':
			b.WriteString("&amp;")
		case r == '<':
			b.WriteString("&lt;")
		case r == '>':
			b.WriteString("&gt;")
		case r == '"':
			b.WriteString("&quot;")
		case r == '\t' || r == '\n' || r == '\r' || r >= 0x20 && r <= 0xD7FF || r >= 0xE000 && r <= 0xFFFD || r >= 0x10000 && r <= utf8.MaxRune:
			b.WriteRune(r)
		default:
			b.WriteRune(utf8.RuneError)
		}
	}
	return b.String()
}
