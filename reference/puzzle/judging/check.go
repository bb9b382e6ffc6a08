package judging

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/optjudge/optjudge/reference/puzzle"
)

// Result is the checker's judgement of an output: accepted or not, and a
// message for people in the puzzle's terms; for an output rejected, the
// Finding the message is rendered from.
type Result struct {
	Accepted bool
	Message  string
	Finding  *Finding
}

func accept(msg string) Result { return Result{Accepted: true, Message: msg} }

// reject is the Result of f.
func (p *Puzzle) reject(f *Finding) Result { return Result{Message: p.Message(*f), Finding: f} }

// Checker is a puzzle's checker in a mode: what it accepts of a valid
// answer that reaches the goal.
type Checker struct {
	p    *Puzzle
	mode puzzle.Mode
}

// Checker returns the puzzle's checker in mode; "" is the definition's
// mode, another replaces it (a problem's checker option).
func (p *Puzzle) Checker(mode puzzle.Mode) (*Checker, error) {
	switch mode {
	case "":
		mode = p.def.Mode
	case puzzle.ModeAny, puzzle.ModeShortest, puzzle.ModeSmallest:
	case puzzle.ModeAtMost:
		if p.def.MaxMoves < 1 {
			return nil, fmt.Errorf("mode at_most needs the definition's max_moves")
		}
	default:
		return nil, fmt.Errorf("%q is not a mode (any, shortest, smallest, at_most)", mode)
	}
	return &Checker{p: p, mode: mode}, nil
}

// Prepare builds the engine's tables, or reads them from the cache, for
// every size of the puzzle, as c's mode needs them (none in mode at_most,
// which only simulates): the work of a first Check done before it.
func (c *Checker) Prepare(ctx context.Context) error {
	for _, s := range c.p.sizes {
		if err := ctx.Err(); err != nil {
			return err
		}
		solver := s.solver
		if c.mode == puzzle.ModeAtMost && s.sim != nil {
			solver = s.sim
		}
		if err := solver.Prepare(); err != nil {
			return err
		}
	}
	return nil
}

// Puzzle is the puzzle c judges.
func (c *Checker) Puzzle() *Puzzle { return c.p }

// Mode is what c accepts of a valid answer: any, the shortest, or the
// smallest of the shortest.
func (c *Checker) Mode() puzzle.Mode { return c.mode }

// Check judges a contestant's output for an input file. Per case the
// output holds the lines of output.lines: the moves (or the empty answer's
// text, or the text for a case without a solution) and the final state's
// values. Lines may carry spaces, tabs and a carriage return at their
// ends; blank lines after the last case are ignored. The moves must be
// moves of the puzzle that can be made, reach the goal and, as the mode
// asks, be of the least cost and the lexicographically smallest of those,
// listed in declared order where the output's order is ascending.
//
// A wrong output is a Result that is not accepted, with a nil error. An
// error means the judge failed: an invalid input, or a valid answer that
// beats the reference.
func (c *Checker) Check(ctx context.Context, input, output []byte) (Result, error) {
	return c.p.check(ctx, c.mode, input, output)
}

func (p *Puzzle) check(ctx context.Context, mode puzzle.Mode, input, output []byte) (Result, error) {
	cases, err := p.Cases(input)
	if err != nil {
		return Result{}, fmt.Errorf("%s: reading the input: %w", p.name(), err)
	}
	if !p.w.multi {
		return p.checkOne(ctx, mode, cases[0], output)
	}
	lines := outputLines(output)
	per := len(p.def.Output.Lines)
	var t tally
	for i, c := range cases {
		if i%256 == 0 && ctx.Err() != nil {
			return Result{}, fmt.Errorf("%s: %w", p.name(), ctx.Err())
		}
		k := i + 1
		if per*i >= len(lines) {
			if per == 1 && p.def.Output.Empty == "" && p.Solved(c.Position) {
				continue // an absent last line is an empty one
			}
			f := finding(Format, k, "missing case %d of %d", k, len(cases))
			f.bare = true
			return p.reject(f), nil
		}
		ls := make([]string, per)
		copy(ls, lines[per*i:min(per*i+per, len(lines))])
		f, err := p.checkCase(ctx, mode, k, c.Position, ls, &t)
		var named *wrongReference
		if err != nil && !errors.As(err, &named) {
			return Result{}, fmt.Errorf("case %d (line %d): %w", k, c.Line, err)
		}
		if err != nil {
			return Result{}, err
		}
		if f != nil {
			return p.reject(f), nil
		}
	}
	if len(lines) > per*len(cases) {
		return p.reject(finding(Format, 0, "unexpected output after the last case")), nil
	}
	s := plural(len(cases), "case") + ", " + plural(t.moves, "move")
	if t.unsolvable > 0 {
		s += fmt.Sprintf(", %d unsolvable", t.unsolvable)
	}
	return accept(s), nil
}

// checkOne judges the output of an input of one case: its first lines are
// the answer, and the rest must be blank.
func (p *Puzzle) checkOne(ctx context.Context, mode puzzle.Mode, c Case, output []byte) (Result, error) {
	per := len(p.def.Output.Lines)
	ls := make([]string, per)
	rest := output
	for i := range per {
		var l []byte
		l, rest, _ = bytes.Cut(rest, []byte{'\n'})
		ls[i] = strings.Trim(string(l), " \t\r")
	}
	for n := per + 1; len(rest) > 0; n++ {
		var l []byte
		l, rest, _ = bytes.Cut(rest, []byte{'\n'})
		if len(bytes.Trim(l, " \t\r")) > 0 {
			return p.reject(finding(Format, 1, "unexpected output after the answer (line %d: %s)", n, quote(string(l)))), nil
		}
	}
	var t tally
	f, err := p.checkCase(ctx, mode, 1, c.Position, ls, &t)
	switch {
	case err != nil:
		return Result{}, err
	case f != nil:
		return p.reject(f), nil
	}
	switch {
	case t.unsolvable > 0:
		noun, verb := p.w.the()
		return accept(fmt.Sprintf("%s %s unsolvable, as the output says", noun, verb)), nil
	case t.moves == 0:
		return accept("0 moves: " + p.alreadySolved()), nil
	}
	return accept(plural(t.moves, "move")), nil
}

// alreadySolved says that a case needs no move: "every dial is already at
// 12", "the board is already solved".
func (p *Puzzle) alreadySolved() string {
	in := p.sizes[0].in
	if g := in.Spec.Goal.States; len(g) == 1 && p.def.Layout.Show == puzzle.ShowDial {
		same := true
		for _, v := range g[0] {
			same = same && v == g[0][0]
		}
		if same {
			return fmt.Sprintf("every %s is already at %s", p.w.cell, DialText(int(g[0][0]), len(in.Symbols)))
		}
	}
	noun, verb := p.w.the()
	return fmt.Sprintf("%s %s already solved", noun, verb)
}

// DialText is what a dial of k positions shows at value v: the hour, 12
// for 0, where the positions divide the clock's twelve hours; else v.
func DialText(v, k int) string {
	if k > 0 && 12%k == 0 {
		h := v * 12 / k
		if h == 0 {
			h = 12
		}
		return fmt.Sprint(h)
	}
	return fmt.Sprint(v)
}

// wrongReference is the error of an answer that beats the reference: it
// names its case already.
type wrongReference struct{ error }

func (e *wrongReference) Unwrap() error { return e.error }

// tally counts what an accepted output did.
type tally struct{ moves, unsolvable int }

// outputLines splits an output into lines, spaces, tabs and a carriage
// return trimmed at both ends, and drops the blank lines at the end.
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

// lineIndex is the index of the answer's line called name.
func (p *Puzzle) lineIndex(name string) int {
	for i, l := range p.def.Output.Lines {
		if l == name {
			return i
		}
	}
	return -1
}

// lineName says "line 1" where the answer has several lines, "the line"
// else.
func (p *Puzzle) lineName(i int) string {
	if len(p.def.Output.Lines) > 1 {
		return fmt.Sprintf("line %d", i+1)
	}
	return "the line"
}

// checkCase judges the answer lines of case k, from pos. It returns what
// is wrong, nil when nothing is; an error when the reference failed.
func (p *Puzzle) checkCase(ctx context.Context, mode puzzle.Mode, k int, pos Position, lines []string, t *tally) (*Finding, error) {
	mi := p.lineIndex(puzzle.LineMoves)
	line := lines[mi]
	out := p.def.Output
	if out.Unsolvable != "" {
		ok, err := p.Solvable(pos)
		if err != nil {
			return nil, err
		}
		if strings.EqualFold(line, out.Unsolvable) || !ok {
			d := -1
			if ok {
				if d, err = p.Distance(ctx, pos); err != nil {
					return nil, err
				}
			}
			return p.checkUnsolvable(k, pos, line, d, t), nil
		}
	}
	if f := p.emptyLine(k, line, lines); f != nil {
		return f, nil
	}
	r, f := p.replay(k, pos, line)
	if f != nil {
		return f, nil
	}
	if !p.Solved(r.end) {
		return p.notSolved(ctx, k, pos, r)
	}
	for i, l := range lines {
		if i != mi {
			if f := p.checkValue(k, i, r.end, l); f != nil {
				return f, nil
			}
		}
	}
	t.moves += r.n
	return p.checkOptimal(ctx, mode, k, pos, r)
}

// emptyLine judges a line of moves that is empty or is the empty answer's
// text, and explains common mistakes of layout; nil when it is neither.
func (p *Puzzle) emptyLine(k int, line string, lines []string) *Finding {
	out := p.def.Output
	if line == out.Empty || line != "" && !strings.ContainsAny(line, " \t") && !strings.EqualFold(line, out.Empty) {
		return nil // the common case, checked without allocating
	}
	name := p.lineName(p.lineIndex(puzzle.LineMoves))
	switch {
	case line == "":
		return finding(Format, k, "%s is empty: write the moves, or %s when no move is needed", name, quote(out.Empty))
	case out.Empty != "" && strings.EqualFold(line, out.Empty):
		f := finding(Format, k, "write %s exactly (letters are case-sensitive), got %s", quote(out.Empty), quote(line))
		f.Got, f.Want = line, out.Empty
		return f
	}
	fields := strings.Fields(line)
	if len(fields) < 2 {
		return nil
	}
	last := fields[len(fields)-1]
	first := strings.Join(fields[:len(fields)-1], " ")
	if vi, v := p.firstValue(); vi >= 0 && p.isSymbol(last) && (first == out.Empty || p.allMoves(first)) {
		return finding(Format, k, "the moves and the %s %s are on one line; write the %s on line %d", v, p.w.symbol, p.w.symbol, vi+1)
	}
	if out.Separator == "" && p.allMoves(line) {
		return finding(Format, k, "%s has spaces between the moves; write the %s without spaces, e.g. %s",
			name, kindOfLetters(p.sizes[0].in.Moves), strings.Join(fields, ""))
	}
	return nil
}

// firstValue is the line of the first goal value in the answer and its
// name; -1 without.
func (p *Puzzle) firstValue() (int, string) {
	for i, l := range p.def.Output.Lines {
		if l != puzzle.LineMoves {
			return i, l
		}
	}
	return -1, ""
}

func (p *Puzzle) isSymbol(s string) bool {
	for _, sym := range p.def.Symbols {
		if sym == s {
			return true
		}
	}
	return false
}

// allMoves reports whether s, without separator, holds only moves' names
// (one character each), spaces and tabs, and at least one move.
func (p *Puzzle) allMoves(s string) bool {
	if p.def.Output.Separator != "" {
		return false
	}
	n := 0
	for i := range len(s) {
		switch c := s[i]; {
		case c == ' ' || c == '\t':
		case p.hasMove(string(c)):
			n++
		default:
			return false
		}
	}
	return n > 0
}

func (p *Puzzle) hasMove(name string) bool {
	for _, m := range p.def.Moves {
		if m.Name == name {
			return true
		}
	}
	return false
}

// replayed is what making an answer's moves found.
type replayed struct {
	end   Position
	moves []int // the first maxKept moves, as indices
	n     int   // how many moves
	cost  int
	// unordered is the first move, from 1, listed before one that comes
	// earlier in declared order (0 if none); prev is the move before it.
	unordered  int
	move, prev string
}

// maxKept bounds the moves a replay keeps: an answer this long is far
// longer than any optimum, and the analysis of where it left the optimum
// looks at the first ones only.
const maxKept = 1 << 16

// EachMove calls f with each move's text in a line of moves, in order,
// until f returns false: one character each without separator, else the
// tokens between separators (blanks, where the separator is a space).
// rest is the line from the token on.
func (p *Puzzle) EachMove(line string, f func(tok, rest string) bool) {
	sep := p.def.Output.Separator
	switch {
	case line == p.def.Output.Empty:
	case sep == "":
		for i := range len(line) {
			if !f(line[i:i+1], line[i:]) {
				return
			}
		}
	case strings.Trim(sep, " \t") == "":
		for tok := range strings.FieldsFuncSeq(line, func(c rune) bool { return c == ' ' || c == '\t' }) {
			if !f(tok, tok) {
				return
			}
		}
	default:
		for tok := range strings.SplitSeq(line, sep) {
			tok = strings.Trim(tok, " \t")
			if !f(tok, tok) {
				return
			}
		}
	}
}

// Step makes the move written tok on pos; why says, when it cannot, what
// is wrong: tok is not a move, or the move cannot be made there. rest is
// the line from tok on, as EachMove gives it, to show the character that
// is not a move where moves are single characters.
func (p *Puzzle) Step(pos Position, tok, rest string) (next Position, move int, why string) {
	in := p.at(pos.Size).in
	m := p.at(pos.Size).moveOf(tok)
	if m < 0 {
		q := quote(tok)
		if p.def.Output.Separator == "" && len(rest) > 0 {
			q = quoteRune(rest)
		}
		return pos, -1, fmt.Sprintf("%s is not a move (%s)", q, describe(in.Moves, ""))
	}
	next, ok := p.Apply(pos, m)
	switch {
	case !ok && in.Spec.Rules != nil:
		return pos, m, fmt.Sprintf("%s cannot be made from %s", tok, p.String(pos))
	case !ok:
		return pos, m, tok + " moves the blank off the board"
	}
	return next, m, ""
}

// replay makes the moves of a line on pos; f says what was wrong, nil
// when nothing was.
func (p *Puzzle) replay(k int, pos Position, line string) (r replayed, f *Finding) {
	s := p.at(pos.Size)
	in := s.in
	w := newWalker(in.Spec, pos.State)
	ascending := p.def.Output.Order == puzzle.OrderAscending
	last := -1
	p.EachMove(line, func(tok, rest string) bool {
		m := s.moveOf(tok)
		if m < 0 || !w.move(m) {
			_, _, why := p.Step(Position{Size: pos.Size, State: w.cur}, tok, rest)
			if m >= 0 {
				why += p.blankAt(Position{Size: pos.Size, State: w.cur})
			}
			f = &Finding{Kind: Illegal, Case: k, Move: r.n + 1, Token: tok, Moves: r.n, why: why}
			return false
		}
		r.n++
		r.cost += in.Spec.Moves[m].Cost
		if len(r.moves) < maxKept {
			r.moves = append(r.moves, m)
		}
		if ascending && m < last && r.unordered == 0 {
			r.unordered, r.move, r.prev = r.n, tok, in.Moves[last]
		}
		last = m
		return true
	})
	r.end = Position{Size: pos.Size, State: w.state()}
	return r, f
}

// blankAt says where the blank is: " (blank at row 3, column 3)".
func (p *Puzzle) blankAt(pos Position) string {
	sp := p.at(pos.Size).in.Spec
	for i, v := range pos.State.Cells {
		if int(v) == sp.Blank && sp.Cols > 0 {
			return fmt.Sprintf(" (blank at row %d, column %d)", i/sp.Cols+1, i%sp.Cols+1)
		}
	}
	return ""
}

// phrase says what a position holds, in the puzzle's terms: "the center
// holds 2 2 3 2 2 2 2 2", "the board is 1 2 3 / 4 5 6 / 7 x 8".
func (p *Puzzle) phrase(pos Position) string {
	in := p.at(pos.Size).in
	if p.w.group != "" {
		var syms []string
		for _, c := range in.Spec.Goal.Same {
			syms = append(syms, in.Symbols[pos.State.Cells[c]])
		}
		return fmt.Sprintf("the %s holds %s", p.w.group, strings.Join(syms, " "))
	}
	noun, verb := p.w.the()
	return fmt.Sprintf("%s %s %s", noun, verb, p.String(pos))
}

// notSolved explains moves that do not reach the goal.
func (p *Puzzle) notSolved(ctx context.Context, k int, pos Position, r replayed) (*Finding, error) {
	out := p.def.Output
	not := func(format string, args ...any) *Finding {
		f := finding(NotSolved, k, format, args...)
		f.Moves, f.Cost = r.n, r.cost
		return f
	}
	if r.n > 0 {
		return not("after %s %s", plural(r.n, "move"), p.phrase(r.end)), nil
	}
	noun, _ := p.w.the()
	switch {
	case out.Empty != "":
		return not("%s, but %s", quote(out.Empty), p.phrase(pos)), nil
	case p.w.multi && p.w.group != "":
		return not("empty line, but %s", p.phrase(pos)), nil
	case p.w.multi:
		return not("empty line, but %s %s is not solved", noun, p.String(pos)), nil
	}
	d, err := p.Distance(ctx, pos)
	if err != nil {
		return nil, err
	}
	f := not("no moves, but %s (the optimum is %s)", p.phrase(pos), p.costText(d))
	f.Optimum = d
	return f, nil
}

// costText says "4 moves" where every move costs 1, "a cost of 4" else.
func (p *Puzzle) costText(c int) string {
	if p.unitCost() {
		return plural(c, "move")
	}
	return fmt.Sprintf("a cost of %d", c)
}

// checkValue judges line i of an answer, a goal value of the final state.
func (p *Puzzle) checkValue(k, i int, end Position, line string) *Finding {
	name := p.def.Output.Lines[i]
	want := p.value(end, name)
	var f *Finding
	switch {
	case line == "":
		f = finding(WrongValue, k, "line %d is empty, want the %s %s", i+1, name, p.w.symbol)
	case p.isSymbol(line) && line != want:
		f = finding(WrongValue, k, "line %d says %s, the %s shows %s", i+1, line, name, want)
	case line != want:
		f = finding(WrongValue, k, "line %d should be the %s %s (%s), got %s", i+1, name, p.w.symbol,
			describe(p.at(end.Size).in.Symbols, "or"), quote(line))
	default:
		return nil
	}
	f.Line, f.Name, f.Got, f.Want = i+1, name, line, want
	return f
}

// checkOptimal compares an answer that reaches the goal with the optimum,
// as mode asks.
func (p *Puzzle) checkOptimal(ctx context.Context, mode puzzle.Mode, k int, pos Position, r replayed) (*Finding, error) {
	if mode == puzzle.ModeAtMost {
		// The bound alone: no search.
		if r.cost > p.def.MaxMoves {
			return &Finding{Kind: OverBound, Case: k, Moves: r.n, Cost: r.cost, Bound: p.def.MaxMoves}, nil
		}
		return nil, nil
	}
	opt, err := p.Distance(ctx, pos)
	if err != nil {
		return nil, err
	}
	if mode == puzzle.ModeAny && r.cost >= opt {
		return nil, nil
	}
	at := p.w.caseAt(k)
	found := func(kind Kind) *Finding {
		return &Finding{Kind: kind, Case: k, Moves: r.n, Cost: r.cost, Optimum: opt}
	}
	switch {
	case r.cost < opt:
		return nil, &wrongReference{fmt.Errorf("%s: %sa valid answer of %s solves %s, but the reference's optimum is %d: the reference is wrong",
			p.name(), at, p.countText(r), p.String(pos), opt)}
	case mode == puzzle.ModeAny:
		return nil, nil
	case r.cost > opt:
		return p.tooLong(ctx, found(TooLong), pos, r)
	case r.unordered > 0:
		f := found(Unordered)
		f.Move, f.Token, f.Prev = r.unordered, r.move, r.prev
		return f, nil
	case mode == puzzle.ModeShortest:
		return nil, nil
	}
	best, ok, err := p.Smallest(ctx, pos)
	if err != nil {
		return nil, err
	}
	if !ok || p.cost(pos.Size, best) != opt {
		return nil, &wrongReference{fmt.Errorf("%s: %sthe reference's smallest answer %q for %s does not have the optimal cost %d",
			p.name(), at, p.formatMoves(pos.Size, best), p.String(pos), opt)}
	}
	for j := range min(len(best), len(r.moves)) {
		if best[j] != r.moves[j] {
			f := found(NotSmallest)
			moves := p.at(pos.Size).in.Moves
			f.Move, f.Token, f.Want = j+1, moves[r.moves[j]], moves[best[j]]
			f.Yours, f.Smallest = p.formatMoves(pos.Size, r.moves), p.formatMoves(pos.Size, best)
			return f, nil
		}
	}
	return nil, nil
}

// countText says how many moves an answer makes, and their cost where
// moves cost other than 1.
func (p *Puzzle) countText(r replayed) string {
	if p.unitCost() {
		return plural(r.n, "move")
	}
	return fmt.Sprintf("%s of cost %d", plural(r.n, "move"), r.cost)
}

// tooLong explains a valid answer that costs more than the optimum: the
// first move that did not bring the goal closer, and the distance to the
// goal after each move.
func (p *Puzzle) tooLong(ctx context.Context, f *Finding, pos Position, r replayed) (*Finding, error) {
	dep, err := p.Departure(ctx, pos, r.moves)
	if err != nil {
		return nil, err
	}
	f.Distances = dep.Distances
	if dep.Move > 0 {
		f.Move, f.Token, f.Before, f.After = dep.Move, p.at(pos.Size).in.Moves[r.moves[dep.Move-1]], dep.Before, dep.After
	}
	return f, nil
}

// checkUnsolvable judges a line that says the case has no solution (in any
// letter case), or the line of a case that has none; d is its distance,
// -1 for none.
func (p *Puzzle) checkUnsolvable(k int, pos Position, line string, d int, t *tally) *Finding {
	text := p.def.Output.Unsolvable
	noun, _ := p.w.the()
	var f *Finding
	switch {
	case d >= 0:
		f = finding(Unsolvable, k, "says %s, but %s %s can be solved in %s", text, noun, p.String(pos), p.costText(d))
		f.Optimum = d
	case line == text:
		t.unsolvable++
		return nil
	case strings.EqualFold(line, text) && text == strings.ToLower(text):
		f = finding(Format, k, "%s is not %s (lower case)", quote(line), quote(text))
	case strings.EqualFold(line, text):
		f = finding(Format, k, "%s is not %s (letters are case-sensitive)", quote(line), quote(text))
	default:
		why := ""
		if r := p.WhyUnsolvable(pos, false); r != "" {
			why = " (" + r + ")"
		}
		f = finding(Unsolvable, k, "%s %s cannot be solved%s, want %s, got %s", noun, p.String(pos), why, quote(text), quote(line))
	}
	f.Got, f.Want = line, text
	return f
}

// WhyUnsolvable says why pos cannot be solved, where the puzzle's moves
// give a simple reason: for a sliding puzzle, the parity of its tiles'
// order ("its tiles 1-8 are an odd permutation"; short leaves out which
// tiles); "" else.
func (p *Puzzle) WhyUnsolvable(pos Position, short bool) string {
	sp := p.at(pos.Size).in.Spec
	in := p.at(pos.Size).in
	if sp.Blank < 0 || sp.Rows < 2 || sp.Cols < 2 || len(sp.Goal.States) != 1 {
		return ""
	}
	for _, m := range sp.Moves {
		if m.Slide == 0 {
			return ""
		}
	}
	goal := sp.Goal.States[0]
	// The tiles' order, read row by row without the blank, as a
	// permutation of the goal's; and the blank's rows from its goal's.
	rank := make([]int, sp.Symbols)
	i := 0
	blankGoal := 0
	for c, v := range goal {
		if int(v) == sp.Blank {
			blankGoal = c
			continue
		}
		rank[v] = i
		i++
	}
	var order []int
	blank := 0
	for c, v := range pos.State.Cells {
		if int(v) == sp.Blank {
			blank = c
			continue
		}
		order = append(order, rank[v])
	}
	inversions := 0
	for a := range order {
		for b := a + 1; b < len(order); b++ {
			if order[a] > order[b] {
				inversions++
			}
		}
	}
	var tiles []string
	for _, v := range goal {
		if int(v) != sp.Blank {
			tiles = append(tiles, in.Symbols[v])
		}
	}
	which := " " + describe(tiles, "and")
	if short {
		which = ""
	}
	if sp.Cols%2 == 1 {
		if inversions%2 == 1 {
			return fmt.Sprintf("its tiles%s are an odd permutation", which)
		}
		return ""
	}
	rows := blank/sp.Cols - blankGoal/sp.Cols
	if (inversions+rows)%2 != 0 {
		return "the order of its tiles and the row of its blank do not match in parity"
	}
	return ""
}
