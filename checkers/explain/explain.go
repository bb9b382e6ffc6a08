// Package explain draws the positions of a defined puzzle (see package
// judging), so that a person can see why an output was rejected: the
// failing case at the start, the move where the output went wrong, the
// position it reached and the goal, and for a valid answer that is not the
// one wanted, its path beside the reference's, with the distance to the
// goal after each of its moves.
//
// Explain computes one model, an Explanation, and the drawings are its
// renderings: Text for the terminal (judge watch) and SVG for web pages, so
// the two never disagree. Cases draws the cases of an input with no output,
// for a statement's sample. How a position is drawn comes from the
// definition's layout: where each cell sits (a grid, a circle) and how a
// symbol is shown (a numbered tile, a coloured sticker, a dial, on/off, a
// bar, its text).
//
// The failing case is the one the checker's finding names; without a
// finding (another checker's WA), it is the first case whose moves,
// replayed here, do not solve it. What went wrong, and where, is the
// finding's (the move that left the optimum and the distances, the first
// difference from the smallest answer): the checker's message is never
// read. Replaying is lenient and never fails: it stops at the first token
// that is not a move and says so, so any output, garbage included, gets a
// drawing.
package explain

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/optjudge/optjudge/reference/puzzle"
	"github.com/optjudge/optjudge/reference/puzzle/judging"
)

// Explanation is one case of a puzzle as the drawings show it.
type Explanation struct {
	Puzzle string   // the puzzle's name
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
	// Distances are the distance to the goal after each of Moves, for an
	// output that reaches the goal the long way: where it left the
	// optimum. Nil else.
	Distances []int

	// Goal is where the reference's answer leads (for a goal of several
	// states, the one it reaches); nil when the case cannot be solved.
	Goal Position
	// Optimal is the reference's answer and OptimalPath the position after
	// each of its moves. Explain sets them only for an output that reaches
	// the goal but is not the answer wanted (too long, not the smallest,
	// out of order); Cases always does. They give the answer away: a page
	// for contestants may clear them (see Public).
	Optimal     []string
	OptimalPath []Position

	p         *judging.Puzzle
	mode      puzzle.Mode     // what the checker wants of an answer
	ctx       context.Context // bounds the searches while explaining
	idx       []int           // Moves as indices of the puzzle's moves
	truncated bool            // the replay stopped at maxReplay moves
}

// Step is the move where an output went wrong.
type Step struct {
	N      int      // the move's number in the output, from 1
	Move   string   // the move as written
	Before Position // the position it was made from
	After  Position // the position it led to; nil when it could not be made
	Why    string   // "it leads away from the goal (...)", "'Q' is not a move (A-H)"
}

// Position is a position of a defined puzzle, drawn by its layout. Only
// this package implements it.
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

// Explain explains the case of input that the checker c rejected with
// the finding f (nil: rejected by another checker), replaying the moves
// of output. It returns nil for a nil c and for inputs the puzzle cannot
// read.
func Explain(c *judging.Checker, input, output []byte, f *judging.Finding) *Explanation {
	if c == nil {
		return nil
	}
	p := c.Puzzle()
	cases, err := p.Cases(input)
	if err != nil || len(cases) == 0 {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), budget)
	defer cancel()
	lines := answers(p, output)
	replay := func(k int) *Explanation {
		e := newExplanation(ctx, p, c.Mode(), k, cases)
		e.replayCase(lines(k))
		return e
	}
	k := failingCase(f, len(cases), func(k int) bool { return replay(k).solved() })
	e := replay(k)
	if e.Note == "" || e.truncated {
		if f == nil || f.Case != k || !e.found(f) {
			e.judge(e.unwanted())
		}
	}
	e.Goal = e.goalOf()
	return e
}

// Failure is Explain drawn for a terminal, or "" when there is nothing to
// draw.
func Failure(c *judging.Checker, input, output []byte, f *judging.Finding) string {
	if e := Explain(c, input, output, f); e != nil {
		return e.Text()
	}
	return ""
}

// Cases explains every case of input with no output: its start, its goal
// and the reference's answer, as a statement's sample would show them. It
// returns nil for a nil p and for inputs the puzzle cannot read.
func Cases(p *judging.Puzzle, input []byte) []*Explanation {
	if p == nil {
		return nil
	}
	cases, err := p.Cases(input)
	if err != nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), budget)
	defer cancel()
	var es []*Explanation
	for k := range cases {
		e := newExplanation(ctx, p, p.Definition().Mode, k+1, cases)
		if e.Goal = e.goalOf(); e.Goal != nil {
			e.setOptimal()
		} else {
			e.Note = e.cannot()
		}
		es = append(es, e)
	}
	return es
}

// Answers explains every case of input as output answers it: each case's
// moves replayed, where they went wrong, and, for an answer that reaches
// the goal but is not the one the checker c wants, the reference's beside
// it (as Explain does for the case c rejected). It returns nil for a nil
// c and for inputs the puzzle cannot read.
func Answers(c *judging.Checker, input, output []byte) []*Explanation {
	if c == nil {
		return nil
	}
	p := c.Puzzle()
	cases, err := p.Cases(input)
	if err != nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), budget)
	defer cancel()
	lines := answers(p, output)
	var es []*Explanation
	for k := range cases {
		e := newExplanation(ctx, p, c.Mode(), k+1, cases)
		e.replayCase(lines(k + 1))
		if e.Note == "" || e.truncated {
			e.judge(e.unwanted())
		}
		e.Goal = e.goalOf()
		es = append(es, e)
	}
	return es
}

// Public is e without what gives the answer away, for a contestant's page:
// the reference's answer and, where the goal is one of several (or the
// answer gives values of it), the goal reached.
func (e *Explanation) Public() *Explanation {
	pub := *e
	pub.Optimal, pub.OptimalPath = nil, nil
	if e.p != nil {
		d := e.p.Definition()
		if d.Goal.State == nil || len(d.Goal.Values) > 0 {
			pub.Goal = nil
		}
	}
	return &pub
}

func newExplanation(ctx context.Context, p *judging.Puzzle, mode puzzle.Mode, k int, cases []judging.Case) *Explanation {
	return &Explanation{Puzzle: p.Name(), Case: k, Cases: len(cases), Start: positionOf(p, cases[k-1].Position), p: p, mode: mode, ctx: ctx}
}

// budget bounds the searches of one explanation: a drawing is worth a few
// seconds of a puzzle that needs searches (the fifteen-puzzle), not more.
const budget = 20 * time.Second

// answers returns, for case k, its line of moves in output and whether the
// output has one: the case's first line of moves, where a file holds
// several cases; else the output's first line.
func answers(p *judging.Puzzle, output []byte) func(k int) (string, bool) {
	d := p.Definition()
	per := len(d.Output.Lines)
	mi := 0
	for i, l := range d.Output.Lines {
		if l == puzzle.LineMoves {
			mi = i
		}
	}
	if d.Input.Cases == puzzle.CasesOne {
		lines := strings.SplitN(string(output), "\n", per+1)
		return func(int) (string, bool) {
			if mi < len(lines) {
				return strings.Trim(lines[mi], " \t\r"), true
			}
			return "", true
		}
	}
	lines := outputLines(output)
	return func(k int) (string, bool) {
		i := per*(k-1) + mi
		if per*(k-1) >= len(lines) {
			return "", false
		}
		if i >= len(lines) {
			return "", true
		}
		return lines[i], true
	}
}

// replayCase explains the line of moves of the case; present is false
// when the output has no line for it.
func (e *Explanation) replayCase(line string, present bool) {
	p := e.p
	e.Replayed = true
	start := e.start()
	text := p.Definition().Output.Unsolvable
	solvable := true
	if text != "" {
		solvable, _ = p.Solvable(start)
	}
	switch {
	case !present:
		if !p.Solved(start) || p.Definition().Output.Empty != "" {
			e.Note = "no output for this case"
		}
	case text != "" && strings.EqualFold(line, text):
		if solvable {
			e.Note = fmt.Sprintf("the output says %s, but %s can be solved", text, e.this())
		} else if line != text {
			e.Note = fmt.Sprintf("write %q in lower case", text)
		}
	case !solvable:
		e.Note = e.cannot()
	default:
		e.replay(line)
	}
}

// cannot is the note for a case without a solution.
func (e *Explanation) cannot() string {
	s := e.this() + " cannot be solved"
	if why := e.p.WhyUnsolvable(e.start(), true); why != "" {
		s += " (" + why + ")"
	}
	return s
}

// this points at the position: "this board", "these dials".
func (e *Explanation) this() string {
	switch t := e.thingName(); t {
	case "dials", "lights":
		return "these " + t
	default:
		return "this " + t
	}
}

// solved reports whether e's line is a right answer for its case, as far
// as replaying tells.
func (e *Explanation) solved() bool {
	if e.Note != "" || e.Wrong != nil {
		return false
	}
	if ok, _ := e.p.Solvable(e.start()); !ok {
		return len(e.Moves) == 0
	}
	return e.p.Solved(e.Reached().(position).pos)
}

// unwanted is how an output that reaches the goal in the fewest moves may
// still not be the one wanted: out of order, where the moves are listed
// ascending; else not the smallest, where that is wanted.
func (e *Explanation) unwanted() func(optimal []string) (int, string) {
	d := e.p.Definition()
	switch {
	case d.Output.Order == puzzle.OrderAscending:
		return unordered(e.Moves, e.p.Instance(e.start().Size).Moves)
	case e.mode == puzzle.ModeSmallest:
		return firstDifference(e.Moves)
	}
	return func([]string) (int, string) { return 0, "" }
}

// found explains the replayed case from the checker's finding f, of it,
// where f says where the answer went wrong after moves that could all be
// made and reach the goal: the move that left the optimum, with the
// distances the checker measured; the first difference from the smallest
// answer; the move out of order. Else (another kind, or moves the replay
// does not hold) it reports false, and the replay is judged here.
func (e *Explanation) found(f *judging.Finding) bool {
	n := f.Move
	var why string
	switch f.Kind {
	case judging.TooLong:
		if n == 0 {
			return false
		}
		why = e.p.Departed(*f).Why()
	case judging.NotSmallest:
		why = "the smallest of the shortest answers has " + f.Want + " here"
	case judging.Unordered:
		why = "it comes after " + f.Prev + ", and the moves go in ascending order"
	default:
		return false
	}
	if n < 0 || n > len(e.Moves) || n > 0 && e.Moves[n-1] != f.Token {
		return false
	}
	if n > 0 {
		e.Wrong = &Step{N: n, Move: e.Moves[n-1], Before: e.position(n - 1), After: e.Path[n-1], Why: why}
	}
	if f.Kind == judging.TooLong {
		e.Distances = f.Distances
	}
	e.setOptimal()
	return true
}

// unordered is the unwanted of moves listed in ascending order: the first
// move below the one before it.
func unordered(moves, declared []string) func([]string) (int, string) {
	order := map[string]int{}
	for i, m := range declared {
		order[m] = i
	}
	return func([]string) (int, string) {
		for i := 1; i < len(moves); i++ {
			if order[moves[i]] < order[moves[i-1]] {
				return i + 1, "it comes after " + moves[i-1] + ", and the moves go in ascending order"
			}
		}
		return 0, ""
	}
}

// start is the case's position.
func (e *Explanation) start() judging.Position { return e.Start.(position).pos }

// goalOf is where the reference's answer leads from the start, or nil.
func (e *Explanation) goalOf() Position {
	start := e.start()
	moves, ok, err := e.p.Smallest(e.ctx, start)
	if err != nil || !ok {
		return nil
	}
	pos := start
	for _, m := range moves {
		pos, _ = e.p.Apply(pos, m)
	}
	return positionOf(e.p, pos)
}

// maxReplay is the most moves replayed: every answer of the puzzles is far
// shorter (13, 27 and 31 moves at most), so the move that went wrong comes
// before, and a hostile output costs no more than this.
const maxReplay = 10000

// replay makes the moves of line on e.Start until one cannot be made,
// which becomes e.Wrong.
func (e *Explanation) replay(line string) {
	e.Replayed = true
	p := e.p
	pos := e.start()
	n := 0
	p.EachMove(line, func(tok, rest string) bool {
		if n == maxReplay {
			e.truncated = true
			e.Note = fmt.Sprintf("the output has more moves; the drawing replays the first %d", maxReplay)
			return false
		}
		n++
		next, m, why := p.Step(pos, tok, rest)
		if why != "" {
			e.Wrong = &Step{N: n, Move: tok, Before: positionOf(p, pos), Why: why}
			return false
		}
		e.idx = append(e.idx, m)
		e.Moves = append(e.Moves, tok)
		e.Path = append(e.Path, positionOf(p, next))
		pos = next
		return true
	})
}

// judge finds, for moves that could all be made, the first that does not
// bring the goal closer; for an output that reaches the goal in the fewest
// moves, unwanted reports the first move that is not the answer wanted
// (0 when there is none).
func (e *Explanation) judge(unwanted func(optimal []string) (int, string)) {
	if e.Wrong != nil {
		return
	}
	p := e.p
	start := e.start()
	dep, err := p.Departure(e.ctx, start, e.idx)
	if err != nil || dep.Start < 0 {
		return
	}
	end := dep.Start
	if n := len(e.idx); n > 0 && len(dep.Distances) == n {
		end = dep.Distances[n-1]
	} else if n > 0 {
		if end, err = p.Distance(e.ctx, e.Reached().(position).pos); err != nil {
			return
		}
	}
	if dep.Move > 0 {
		e.Wrong = &Step{N: dep.Move, Move: e.Moves[dep.Move-1], Before: e.position(dep.Move - 1), After: e.Path[dep.Move-1], Why: dep.Why()}
	}
	switch {
	case end > 0 && e.Wrong == nil && len(e.Moves) > 0:
		e.Note = "the moves stop " + moves(end) + " short of the goal"
	case end > 0 && e.Wrong == nil:
		e.Note = "the goal is " + moves(end) + " away"
	case end == 0 && e.Wrong != nil:
		e.Distances = dep.Distances
		e.setOptimal() // reached, but the long way
	case end == 0:
		if n, why := unwanted(e.optimal()); n > 0 {
			e.Wrong = &Step{N: n, Move: e.Moves[n-1], Before: e.position(n - 1), After: e.Path[n-1], Why: why}
			e.setOptimal()
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

// optimal is the reference's answer, as written; nil when there is none.
func (e *Explanation) optimal() []string {
	ms, ok, err := e.p.Smallest(e.ctx, e.start())
	if err != nil || !ok {
		return nil
	}
	return e.p.MoveNames(e.start().Size, ms)
}

// setOptimal sets the reference's answer and its path.
func (e *Explanation) setOptimal() {
	start := e.start()
	ms, ok, err := e.p.Smallest(e.ctx, start)
	e.Optimal, e.OptimalPath = []string{}, nil
	if err != nil || !ok {
		return
	}
	names := e.p.MoveNames(start.Size, ms)
	if e.p.Definition().Output.Order == puzzle.OrderAscending {
		ms, names = sortedMoves(ms, names)
	}
	e.Optimal = names
	pos := start
	for _, m := range ms {
		pos, _ = e.p.Apply(pos, m)
		e.OptimalPath = append(e.OptimalPath, positionOf(e.p, pos))
	}
}

// sortedMoves sorts commuting moves in declared order.
func sortedMoves(ms []int, names []string) ([]int, []string) {
	idx := make([]int, len(ms))
	for i := range idx {
		idx[i] = i
	}
	for i := 1; i < len(idx); i++ {
		for j := i; j > 0 && ms[idx[j]] < ms[idx[j-1]]; j-- {
			idx[j], idx[j-1] = idx[j-1], idx[j]
		}
	}
	sm, sn := make([]int, len(ms)), make([]string, len(ms))
	for i, k := range idx {
		sm[i], sn[i] = ms[k], names[k]
	}
	return sm, sn
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

// failingCase is the case the finding f names, or else the first of n
// cases that solved says is not solved, or else case 1.
func failingCase(f *judging.Finding, n int, solved func(k int) bool) int {
	if f != nil && f.Case >= 1 && f.Case <= n {
		return f.Case
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
