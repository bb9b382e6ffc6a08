package explain

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/optjudge/optjudge/reference/clocks"
)

// clockHands draws a dial's hand, by the dial's value (0 is 12 o'clock),
// on the three lines under its label.
var clockHands = [4][3]string{
	{"   |   ", "   o   ", "       "},
	{"       ", "   o-- ", "       "},
	{"       ", "   o   ", "   |   "},
	{"       ", " --o   ", "       "},
}

const clocksRule = "+-------+-------+-------+\n"

// Clocks draws the nine dials A..I as a 3x3 grid of clock faces, each with
// its letter, the hour it shows and its hand:
//
//	+-------+-------+-------+
//	| A   9 | B   9 | C  12 |
//	|       |       |   |   |
//	| --o   | --o   |   o   |
//	|       |       |       |
//	+-------+-------+-------+
func Clocks(p clocks.Position) string {
	var b strings.Builder
	b.WriteString(clocksRule)
	for row := range 3 {
		dials := p[3*row : 3*row+3]
		b.WriteByte('|')
		for i, v := range dials {
			fmt.Fprintf(&b, " %c %3s |", 'A'+3*row+i, clockHour(v))
		}
		b.WriteByte('\n')
		for line := range 3 {
			b.WriteByte('|')
			for _, v := range dials {
				hand := "   ?   "
				if v < 4 {
					hand = clockHands[v][line]
				}
				b.WriteString(hand + "|")
			}
			b.WriteByte('\n')
		}
		b.WriteString(clocksRule)
	}
	return b.String()
}

// clockHour is the hour a dial shows: "12", "3", "6", "9", or "?".
func clockHour(v uint8) string {
	if v < 4 {
		return strconv.Itoa([4]int{12, 3, 6, 9}[v])
	}
	return "?"
}

// clocksPos is the nine dials as a Position.
type clocksPos clocks.Position

func (p clocksPos) String() string { return clocks.Position(p).String() }
func (p clocksPos) Text() string   { return Clocks(clocks.Position(p)) }

// clocksGame replays and judges moves of The Clocks.
type clocksGame struct{}

func (clocksGame) apply(p Position, move string) (Position, string) {
	if len(move) != 1 || move[0] < '1' || move[0] > '9' {
		return nil, quoteToken(move) + " is not a move (1-9)"
	}
	return clocksPos(clocks.Position(p.(clocksPos)).Apply(int(move[0] - '0'))), ""
}

func (clocksGame) distance(p Position) int {
	return clocks.Optimal(clocks.Position(p.(clocksPos))).Total()
}

func (clocksGame) solve(p Position) []string {
	ms := clocks.Optimal(clocks.Position(p.(clocksPos))).Moves()
	s := make([]string, len(ms))
	for i, m := range ms {
		s[i] = strconv.Itoa(m)
	}
	return s
}

// clocksUnordered is the unwanted of The Clocks: the first move below the
// one before it.
func clocksUnordered(moves []string) func([]string) (int, string) {
	return func([]string) (int, string) {
		for i := 1; i < len(moves); i++ {
			if moves[i] < moves[i-1] {
				return i + 1, "it comes after " + moves[i-1] + ", and the moves go in ascending order"
			}
		}
		return 0, ""
	}
}

func clocksFailure(input, output []byte) *Explanation {
	start, err := clocks.Parse(input)
	if err != nil {
		return nil
	}
	line, _, _ := bytes.Cut(output, []byte{'\n'})
	var tokens []string
	for tok := range strings.FieldsFuncSeq(strings.TrimRight(string(line), " \t\r"), func(c rune) bool { return c == ' ' || c == '\t' }) {
		if tokens = append(tokens, tok); len(tokens) > maxReplay {
			break
		}
	}
	e := &Explanation{Puzzle: "clocks", Case: 1, Cases: 1, Start: clocksPos(start)}
	e.replay(clocksGame{}, tokens)
	e.judge(clocksGame{}, clocksUnordered(e.Moves))
	e.Goal = clocksPos{}
	return e
}

func clocksCases(input []byte) []*Explanation {
	start, err := clocks.Parse(input)
	if err != nil {
		return nil
	}
	e := &Explanation{Puzzle: "clocks", Case: 1, Cases: 1, Start: clocksPos(start), Goal: clocksPos{}}
	e.setOptimal(clocksGame{})
	return []*Explanation{e}
}

func (clocksPos) markable(move string) bool {
	return len(move) == 1 && move[0] >= '1' && move[0] <= '9'
}

// The dials in SVG: a grid of clocksCellW by clocksCellH cells, each with
// its letter and hour above a dial of radius clocksR; thumbnails have no
// text.
const (
	clocksCellW = 70
	clocksCellH = 84
	clocksR     = 25
)

func (clocksPos) svgSize(bool) (int, int) { return 3 * clocksCellW, 3 * clocksCellH }

// svg draws the nine dials with their hands: a dial at 12 is filled green
// and its hand points up; on the full-size drawing each dial has its letter
// and hour, and the dials that move d.mark turns are framed in dashed red.
func (p clocksPos) svg(w *svgWriter, d drawing) {
	turned := ""
	if len(d.mark) == 1 && d.mark[0] >= '1' && d.mark[0] <= '9' && !d.small {
		turned = clocks.Dials(int(d.mark[0] - '0'))
	}
	var hands, ticks strings.Builder
	for i, v := range p {
		x, y := i%3*clocksCellW, i/3*clocksCellH
		cx, cy := x+clocksCellW/2, y+clocksCellH-clocksR-8
		fill, stroke := "#fff", `stroke="#333" stroke-width="2"`
		if v == 0 {
			fill = "#dcfce7"
		}
		if strings.IndexByte(turned, byte('A'+i)) >= 0 {
			stroke = `stroke="#c00" stroke-width="3" stroke-dasharray="5 3"`
		}
		w.printf(`<circle cx="%d" cy="%d" r="%d" fill="%s" %s/>`+"\n", cx, cy, clocksR, fill, stroke)
		if v < 4 {
			dx, dy := [4]int{0, 1, 0, -1}[v], [4]int{-1, 0, 1, 0}[v]
			fmt.Fprintf(&hands, "M%d %dl%d %d", cx, cy, dx*(clocksR-7), dy*(clocksR-7))
		}
		if !d.small {
			fmt.Fprintf(&ticks, "M%d %dv4M%d %dv-4M%d %dh4M%d %dh-4", cx, cy-clocksR, cx, cy+clocksR, cx-clocksR, cy, cx+clocksR, cy)
			w.text(x+6, y+16, `font-weight="bold"`, string(rune('A'+i)))
			w.text(x+clocksCellW-10, y+16, `text-anchor="end"`, clockHour(v))
		}
	}
	if ticks.Len() > 0 {
		w.printf(`<path stroke="#333" d="%s"/>`+"\n", ticks.String())
	}
	w.printf(`<path stroke="#111" stroke-width="4" stroke-linecap="round" d="%s"/>`+"\n", hands.String())
}
