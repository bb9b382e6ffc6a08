package explain

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/optjudge/optjudge/reference/puzzle"
)

// Text draws e for a terminal: the title, the start and the position
// reached side by side (the start and the goal for a case without output),
// then the sentences (see lines).
func (e *Explanation) Text() string {
	var b strings.Builder
	b.WriteString(e.title())
	b.WriteByte('\n')
	right := ""
	switch {
	case e.Replayed:
		right = e.reachedTitle() + "\n" + e.Reached().Text()
	case e.Goal != nil:
		right = "goal\n" + e.Goal.Text()
	}
	b.WriteString(beside("start\n"+e.Start.Text(), right, 4))
	for _, l := range e.lines() {
		b.WriteString(l.text)
		b.WriteByte('\n')
	}
	return b.String()
}

// title is the first line: which case, and its position.
func (e *Explanation) title() string {
	if e.p != nil && e.p.Definition().Input.Cases == puzzle.CasesOne {
		return e.thingName() + ": " + e.Start.String()
	}
	return fmt.Sprintf("case %d of %d: %v", e.Case, e.Cases, e.Start)
}

// reachedTitle heads the position reached: "after 4 moves: DDHH".
func (e *Explanation) reachedTitle() string {
	seq := cut(e.join(e.Moves), 30)
	switch {
	case len(e.Moves) == 0:
		return "after no moves"
	case e.Wrong != nil && e.Wrong.After == nil, e.truncated:
		return fmt.Sprintf("after the first %s: %s", moves(len(e.Moves)), seq)
	}
	return fmt.Sprintf("after %s: %s", moves(len(e.Moves)), seq)
}

// line is one sentence under the positions; a path's line carries the path
// for the SVG drawing's strip of thumbnails.
type line struct {
	text  string
	start Position
	moves []string
	path  []Position
	wrong int // the move of path where the output went wrong, from 1; or 0
}

// lines are the sentences under the positions: where the output went wrong,
// the note, and the two paths when the reference's answer is shown.
func (e *Explanation) lines() []line {
	var ls []line
	if w := e.Wrong; w != nil {
		if w.After == nil {
			ls = append(ls, line{text: fmt.Sprintf("stopped at move %d: %s", w.N, w.Why)})
		} else {
			ls = append(ls, line{text: fmt.Sprintf("went wrong at move %d (%s): %s", w.N, w.Move, w.Why)})
		}
	}
	if e.Note != "" {
		ls = append(ls, line{text: e.Note})
	}
	if e.Distances != nil {
		ls = append(ls, line{text: "distances to the goal after each move: " + distances(e.Distances, 30)})
	}
	if e.Optimal == nil {
		return ls
	}
	opt := line{text: pathText("optimal", e.join(e.Optimal), len(e.Optimal)), start: e.Start, moves: e.Optimal, path: e.OptimalPath}
	if !e.Replayed {
		return append(ls, opt)
	}
	yours := line{text: pathText("yours  ", e.join(e.Moves), len(e.Moves)), start: e.Start, moves: e.Moves, path: e.Path}
	if e.Wrong != nil {
		yours.wrong = e.Wrong.N
	}
	return append(ls, yours, opt)
}

func pathText(who, seq string, n int) string {
	if n == 0 {
		return who + " (0 moves)"
	}
	return fmt.Sprintf("%s (%s): %s", who, moves(n), cut(seq, 60))
}

// join writes moves as the puzzle's output line does.
func (e *Explanation) join(ms []string) string {
	if e.p == nil {
		return strings.Join(ms, " ")
	}
	return e.p.Join(ms)
}

// thingName names a whole position in a title: "dials", "board".
func (e *Explanation) thingName() string {
	switch e.p.Definition().Layout.Show {
	case puzzle.ShowTile:
		return "board"
	case puzzle.ShowDial:
		return "dials"
	case puzzle.ShowOnOff:
		return "lights"
	case puzzle.ShowBar:
		return "stack"
	}
	return "position"
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

// distances writes the first n of ds.
func distances(ds []int, n int) string {
	var parts []string
	for i, d := range ds {
		if i == n {
			parts = append(parts, "...")
			break
		}
		parts = append(parts, strconv.Itoa(d))
	}
	return strings.Join(parts, " ")
}
