// Package explain draws the boards of the puzzle problems, so that a person
// can see why an output was rejected: the failing case's position at the
// start and after the contestant's moves, side by side.
//
// The failing case is the one the checker's message names ("case 3, move 5:
// ..."); when the message names none, it is the first case whose moves,
// replayed here with the reference packages, do not solve it. Replaying is
// lenient and never fails: it stops at the first token that is not a move
// and says so, so any output, garbage included, gets a drawing.
package explain

import (
	"regexp"
	"strconv"
	"strings"
)

// Failure draws the case of input that the checker named checker (its name
// in problem.yaml: rotation-game, clocks or eight-puzzle) rejected with
// message, before and after the moves of output. It returns "" for other
// checkers and for inputs the reference cannot read.
func Failure(checker string, input, output []byte, message string) string {
	var d *drawing
	switch checker {
	case "rotation-game":
		d = rotationFailure(input, output, message)
	case "clocks":
		d = clocksFailure(input, output)
	case "eight-puzzle":
		d = eightFailure(input, output, message)
	}
	if d == nil {
		return ""
	}
	return d.String()
}

// drawing is one case before and after the moves.
type drawing struct {
	title      string // "case 2 of 3: <the input line>"
	start      string // picture of the start
	after      string // picture after the moves replayed
	afterTitle string // "after 4 moves: ACDD"
	note       string // why the replay stopped early, or ""
}

func (d *drawing) String() string {
	var b strings.Builder
	b.WriteString(d.title)
	b.WriteByte('\n')
	b.WriteString(beside("start\n"+d.start, d.afterTitle+"\n"+d.after, 4))
	if d.note != "" {
		b.WriteString(d.note)
		b.WriteByte('\n')
	}
	return b.String()
}

// beside sets two blocks of lines side by side, gap spaces apart, and ends
// every line with a newline.
func beside(left, right string, gap int) string {
	l := strings.Split(strings.TrimRight(left, "\n"), "\n")
	r := strings.Split(strings.TrimRight(right, "\n"), "\n")
	width := 0
	for _, s := range l {
		width = max(width, len(s))
	}
	var b strings.Builder
	for i := range max(len(l), len(r)) {
		var ls, rs string
		if i < len(l) {
			ls = l[i]
		}
		if i < len(r) {
			rs = r[i]
		}
		line := ls
		if rs != "" {
			line += strings.Repeat(" ", width-len(ls)+gap) + rs
		}
		b.WriteString(strings.TrimRight(line, " "))
		b.WriteByte('\n')
	}
	return b.String()
}

var caseRE = regexp.MustCompile(`\bcase (\d+)\b`)

// namedCase returns the 1-based case number that message names, if it is one
// of n cases.
func namedCase(message string, n int) (int, bool) {
	m := caseRE.FindStringSubmatch(message)
	if m == nil {
		return 0, false
	}
	k, err := strconv.Atoi(m[1])
	if err != nil || k < 1 || k > n {
		return 0, false
	}
	return k, true
}

// outputLines splits an output into lines as the puzzle checkers read it:
// spaces, tabs and a carriage return trimmed at both ends, blank lines at the
// end dropped.
func outputLines(out []byte) []string {
	lines := strings.Split(string(out), "\n")
	for i, l := range lines {
		lines[i] = strings.Trim(l, " \t\r")
	}
	for len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// moves says "1 move" or "n moves".
func moves(n int) string {
	if n == 1 {
		return "1 move"
	}
	return strconv.Itoa(n) + " moves"
}

// cut shortens s to about n bytes for a title.
func cut(s string, n int) string {
	if len(s) > n {
		return s[:n] + "..."
	}
	return s
}

// quoteByte shows one byte of an output in single quotes: 'Q', '\x00'.
func quoteByte(c byte) string {
	if c < 0x80 {
		return strconv.QuoteRune(rune(c))
	}
	return `'\x` + strconv.FormatUint(uint64(c)>>4, 16) + strconv.FormatUint(uint64(c)&15, 16) + `'`
}

// quoteToken quotes a token of an output, cut to about 20 bytes.
func quoteToken(s string) string {
	if len(s) > 20 {
		return strconv.Quote(s[:20]) + "..."
	}
	return strconv.Quote(s)
}
