// Package explain draws the positions of the puzzle problems, so that a
// person can see why an output was rejected: the failing case at the start,
// the move where the output went wrong, the position it reached and the
// goal, and for a valid answer that is not the one wanted, its path beside
// the reference's.
//
// Explain computes one model, an Explanation, and the drawings are its
// renderings: Text for the terminal (judge watch) and SVG for web pages, so
// the two never disagree. Cases draws the cases of an input with no output,
// for a statement's sample.
//
// The failing case is the one the checker's message names ("case 3, move 5:
// ..."); when the message names none, it is the first case whose moves,
// replayed here with the reference packages, do not solve it. Replaying is
// lenient and never fails: it stops at the first token that is not a move
// and says so, so any output, garbage included, gets a drawing.
package explain

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// Explanation is one case of a puzzle as the drawings show it.
type Explanation struct {
	Puzzle string   // the checker's name: rotation-game, clocks or eight-puzzle
	Case   int      // the case, from 1
	Cases  int      // how many cases the input holds
	Start  Position // the case's position

	// Replayed is true when the explanation is of an output: Moves, Path,
	// Wrong and Note describe it. Cases leaves it false.
	Replayed bool
	Moves    []string   // the output's moves that could be made, as written
	Path     []Position // the position after each of Moves
	Wrong    *Step      // the move where the output went wrong, or nil
	Note     string     // what else the replay found: "no output for this case", ...

	// Goal is where the reference's answer leads (for the rotation game,
	// one of the positions with an equal center); nil when the case cannot
	// be solved.
	Goal Position
	// Optimal is the reference's answer and OptimalPath the position after
	// each of its moves. Explain sets them only for an output that reaches
	// the goal but is not the answer wanted (too long, not the smallest,
	// out of order); Cases always does. They give the answer away: a page
	// for contestants may clear them.
	Optimal     []string
	OptimalPath []Position

	truncated bool // the replay stopped at maxReplay moves
}

// Step is the move where an output went wrong.
type Step struct {
	N      int      // the move's number in the output, from 1
	Move   string   // the move as written
	Before Position // the position it was made from
	After  Position // the position it led to; nil when it could not be made
	Why    string   // "it leads away from the goal (...)", "'Q' is not a move (A-H)"
}

// Position is a position of one of the puzzles. Only this package
// implements it.
type Position interface {
	// String is the position on one line: "3 3 0 / 2 2 2 / 2 1 2".
	String() string
	// Text is the position drawn for a terminal.
	Text() string

	// svg draws the position with its top left corner at the origin; see
	// drawing.
	svg(w *svgWriter, d drawing)
	// svgSize is the size of the drawing.
	svgSize(small bool) (width, height int)
}

// drawing says how to draw a position in SVG.
type drawing struct {
	small bool   // a thumbnail for a path: no labels
	mark  string // a move to show on the position, or ""
}

// Reached is the position after the moves replayed.
func (e *Explanation) Reached() Position {
	if len(e.Path) > 0 {
		return e.Path[len(e.Path)-1]
	}
	return e.Start
}

// Explain explains the case of input that the checker named checker (its
// name in problem.yaml: rotation-game, clocks or eight-puzzle) rejected with
// message, replaying the moves of output. It returns nil for other checkers
// and for inputs the reference cannot read.
func Explain(checker string, input, output []byte, message string) *Explanation {
	switch checker {
	case "rotation-game":
		return rotationFailure(input, output, message)
	case "clocks":
		return clocksFailure(input, output)
	case "eight-puzzle":
		return eightFailure(input, output, message)
	}
	return nil
}

// Failure is Explain drawn for a terminal, or "" when there is nothing to
// draw.
func Failure(checker string, input, output []byte, message string) string {
	if e := Explain(checker, input, output, message); e != nil {
		return e.Text()
	}
	return ""
}

// Cases explains every case of input with no output: its start, its goal
// and the reference's answer, as a statement's sample would show them. It
// returns nil for other checkers and for inputs the reference cannot read.
func Cases(checker string, input []byte) []*Explanation {
	switch checker {
	case "rotation-game":
		return rotationCases(input)
	case "clocks":
		return clocksCases(input)
	case "eight-puzzle":
		return eightCases(input)
	}
	return nil
}

// game is what replaying and judging moves needs of a puzzle.
type game interface {
	// apply makes move on p, or says why it cannot ("'Q' is not a move").
	apply(p Position, move string) (Position, string)
	// distance is the number of moves from p to the goal, -1 if there is
	// no way.
	distance(p Position) int
	// solve is the reference's answer for p; nil when p cannot be solved.
	solve(p Position) []string
}

// maxReplay is the most moves replayed: every answer of the puzzles is far
// shorter (13, 27 and 31 moves at most), so the move that went wrong comes
// before, and a hostile output costs no more than this.
const maxReplay = 10000

// replay makes moves on e.Start until one cannot be made, which becomes
// e.Wrong.
func (e *Explanation) replay(g game, moves []string) {
	e.Replayed = true
	if len(moves) > maxReplay {
		moves, e.truncated = moves[:maxReplay], true
		e.Note = fmt.Sprintf("the output has more moves; the drawing replays the first %d", maxReplay)
	}
	p := e.Start
	for i, m := range moves {
		next, why := g.apply(p, m)
		if why != "" {
			e.Wrong = &Step{N: i + 1, Move: m, Before: p, Why: why}
			return
		}
		e.Moves = append(e.Moves, m)
		e.Path = append(e.Path, next)
		p = next
	}
}

// judge finds, for moves that could all be made, the first that does not
// bring the goal closer; for an output that reaches the goal in the fewest
// moves, unwanted reports the first move that is not the answer wanted
// (0 when there is none).
func (e *Explanation) judge(g game, unwanted func(optimal []string) (int, string)) {
	if e.Wrong != nil {
		return
	}
	before := g.distance(e.Start)
	if before < 0 {
		return
	}
	for i, p := range e.Path {
		after := g.distance(p)
		if after >= before && e.Wrong == nil {
			e.Wrong = &Step{N: i + 1, Move: e.Moves[i], Before: e.position(i), After: p, Why: awayWhy(before, after)}
		}
		before = after
	}
	switch {
	case before > 0 && e.Wrong == nil && len(e.Moves) > 0:
		e.Note = "the moves stop " + moves(before) + " short of the goal"
	case before > 0 && e.Wrong == nil:
		e.Note = "the goal is " + moves(before) + " away"
	case before == 0 && e.Wrong != nil:
		e.setOptimal(g) // reached, but the long way
	case before == 0:
		if n, why := unwanted(g.solve(e.Start)); n > 0 {
			e.Wrong = &Step{N: n, Move: e.Moves[n-1], Before: e.position(n - 1), After: e.Path[n-1], Why: why}
			e.setOptimal(g)
		}
	}
}

// position is the position before move i (from 0) of the output.
func (e *Explanation) position(i int) Position {
	if i == 0 {
		return e.Start
	}
	return e.Path[i-1]
}

func awayWhy(before, after int) string {
	if before == 0 {
		return "the goal was already reached, and it leads " + moves(after) + " away from it"
	}
	if after == before {
		return "it brings the goal no closer (" + moves(before) + " from it before and after)"
	}
	return "it leads away from the goal (" + strconv.Itoa(before) + " moves from it before, " + strconv.Itoa(after) + " after)"
}

// setOptimal sets the reference's answer and its path.
func (e *Explanation) setOptimal(g game) {
	e.Optimal = g.solve(e.Start)
	e.OptimalPath = nil
	p := e.Start
	for _, m := range e.Optimal {
		p, _ = g.apply(p, m)
		e.OptimalPath = append(e.OptimalPath, p)
	}
	if e.Optimal == nil {
		e.Optimal = []string{}
	}
}

// firstDifference is an unwanted for puzzles that want the smallest of the
// shortest answers.
func firstDifference(moves []string) func(optimal []string) (int, string) {
	return func(optimal []string) (int, string) {
		for i := range min(len(moves), len(optimal)) {
			if moves[i] != optimal[i] {
				return i + 1, "the smallest of the shortest answers has " + optimal[i] + " here"
			}
		}
		return 0, ""
	}
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

// failingCase is the case message names, or else the first of n cases that
// solved says is not solved, or else case 1.
func failingCase(message string, n int, solved func(k int) bool) int {
	if k, ok := namedCase(message, n); ok {
		return k
	}
	for k := 1; k <= n; k++ {
		if !solved(k) {
			return k
		}
	}
	return 1
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

// bytesOf splits a line into one-byte moves, at most one more than
// maxReplay.
func bytesOf(line string) []string {
	ms := make([]string, min(len(line), maxReplay+1))
	for i := range ms {
		ms[i] = line[i : i+1]
	}
	return ms
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
