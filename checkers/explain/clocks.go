package explain

import (
	"bytes"
	"fmt"
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
			hour := "?"
			if v < 4 {
				hour = fmt.Sprint([4]int{12, 3, 6, 9}[v])
			}
			fmt.Fprintf(&b, " %c %3s |", 'A'+3*row+i, hour)
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

func clocksFailure(input, output []byte) *drawing {
	start, err := clocks.Parse(input)
	if err != nil {
		return nil
	}
	line, _, _ := bytes.Cut(output, []byte{'\n'})
	end, done := start, []string{}
	note := ""
	for _, tok := range strings.FieldsFunc(strings.TrimRight(string(line), " \t\r"), func(c rune) bool { return c == ' ' || c == '\t' }) {
		if len(tok) != 1 || tok[0] < '1' || tok[0] > '9' {
			note = fmt.Sprintf("stopped at move %d: %s is not a move (1-9)", len(done)+1, quoteToken(tok))
			break
		}
		end = end.Apply(int(tok[0] - '0'))
		done = append(done, tok)
	}
	d := &drawing{
		title: "dials: " + start.String(),
		start: Clocks(start),
		after: Clocks(end),
		note:  note,
	}
	seq := cut(strings.Join(done, " "), 30)
	switch {
	case len(done) == 0:
		d.afterTitle = "after no moves"
	case note != "":
		d.afterTitle = fmt.Sprintf("after the first %s: %s", moves(len(done)), seq)
	default:
		d.afterTitle = fmt.Sprintf("after %s: %s", moves(len(done)), seq)
	}
	return d
}
