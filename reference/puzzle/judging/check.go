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
// message for people in the puzzle's terms.
type Result struct {
	Accepted bool
	Message  string
}

func accept(msg string) Result                 { return Result{Accepted: true, Message: msg} }
func reject(format string, args ...any) Result { return Result{Message: fmt.Sprintf(format, args...)} }

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
func (p *Puzzle) Check(ctx context.Context, input, output []byte) (Result, error) {
	cases, err := p.Cases(input)
	if err != nil {
		return Result{}, fmt.Errorf("%s: reading the input: %w", p.name(), err)
	}
	if !p.w.multi {
		return p.checkOne(ctx, cases[0], output)
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
			return reject("missing case %d of %d", k, len(cases)), nil
		}
		ls := make([]string, per)
		copy(ls, lines[per*i:min(per*i+per, len(lines))])
		msg, err := p.checkCase(ctx, k, c.Position, ls, &t)
		var named *wrongReference
		if err != nil && !errors.As(err, &named) {
			return Result{}, fmt.Errorf("case %d (line %d): %w", k, c.Line, err)
		}
		if err != nil {
			return Result{}, err
		}
		if msg != "" {
			return reject("%s", msg), nil
		}
	}
	if len(lines) > per*len(cases) {
		return reject("unexpected output after the last case"), nil
	}
	s := plural(len(cases), "case") + ", " + plural(t.moves, "move")
	if t.unsolvable > 0 {
		s += fmt.Sprintf(", %d unsolvable", t.unsolvable)
	}
	return accept(s), nil
}

// checkOne judges the output of an input of one case: its first lines are
// the answer, and the rest must be blank.
func (p *Puzzle) checkOne(ctx context.Context, c Case, output []byte) (Result, error) {
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
			return reject("unexpected output after the answer (line %d: %s)", n, quote(string(l))), nil
		}
	}
	var t tally
	msg, err := p.checkCase(ctx, 1, c.Position, ls, &t)
	if err != nil || msg != "" {
		return reject("%s", msg), err
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
// is wrong, "" when nothing is; an error when the reference failed.
func (p *Puzzle) checkCase(ctx context.Context, k int, pos Position, lines []string, t *tally) (string, error) {
	mi := p.lineIndex(puzzle.LineMoves)
	line := lines[mi]
	out := p.def.Output
	if out.Unsolvable != "" {
		ok, err := p.Solvable(pos)
		if err != nil {
			return "", err
		}
		if strings.EqualFold(line, out.Unsolvable) || !ok {
			d := -1
			if ok {
				if d, err = p.Distance(ctx, pos); err != nil {
					return "", err
				}
			}
			return p.checkUnsolvable(k, pos, line, d, t), nil
		}
	}
	if msg := p.emptyLine(k, line, lines); msg != "" {
		return msg, nil
	}
	r, msg := p.replay(k, pos, line)
	if msg != "" {
		return msg, nil
	}
	if !p.Solved(r.end) {
		return p.notSolved(ctx, k, pos, r)
	}
	for i, l := range lines {
		if i != mi {
			if msg := p.checkValue(k, i, r.end, l); msg != "" {
				return msg, nil
			}
		}
	}
	t.moves += r.n
	return p.checkOptimal(ctx, k, pos, r)
}

// emptyLine judges a line of moves that is empty or is the empty answer's
// text, and explains common mistakes of layout; "" when it is neither.
func (p *Puzzle) emptyLine(k int, line string, lines []string) string {
	out := p.def.Output
	if line == out.Empty || line != "" && !strings.ContainsAny(line, " \t") && !strings.EqualFold(line, out.Empty) {
		return "" // the common case, checked without allocating
	}
	at := p.w.caseAt(k)
	name := p.lineName(p.lineIndex(puzzle.LineMoves))
	switch {
	case line == "":
		return fmt.Sprintf("%s%s is empty: write the moves, or %s when no move is needed", at, name, quote(out.Empty))
	case out.Empty != "" && strings.EqualFold(line, out.Empty):
		return fmt.Sprintf("%swrite %s exactly (letters are case-sensitive), got %s", at, quote(out.Empty), quote(line))
	}
	fields := strings.Fields(line)
	if len(fields) < 2 {
		return ""
	}
	last := fields[len(fields)-1]
	first := strings.Join(fields[:len(fields)-1], " ")
	if vi, v := p.firstValue(); vi >= 0 && p.isSymbol(last) && (first == out.Empty || p.allMoves(first)) {
		return fmt.Sprintf("%sthe moves and the %s %s are on one line; write the %s on line %d", at, v, p.w.symbol, p.w.symbol, vi+1)
	}
	if out.Separator == "" && p.allMoves(line) {
		return fmt.Sprintf("%s%s has spaces between the moves; write the %s without spaces, e.g. %s",
			at, name, kindOfLetters(p.sizes[0].in.Moves), strings.Join(fields, ""))
	}
	return ""
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

// replay makes the moves of a line on pos; msg says what was wrong.
func (p *Puzzle) replay(k int, pos Position, line string) (r replayed, msg string) {
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
			msg = p.w.moveAt(k, r.n+1) + why
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
	return r, msg
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
func (p *Puzzle) notSolved(ctx context.Context, k int, pos Position, r replayed) (string, error) {
	at := p.w.caseAt(k)
	out := p.def.Output
	if r.n > 0 {
		return fmt.Sprintf("%safter %s %s", at, plural(r.n, "move"), p.phrase(r.end)), nil
	}
	noun, _ := p.w.the()
	switch {
	case out.Empty != "":
		return fmt.Sprintf("%s%s, but %s", at, quote(out.Empty), p.phrase(pos)), nil
	case p.w.multi && p.w.group != "":
		return fmt.Sprintf("%sempty line, but %s", at, p.phrase(pos)), nil
	case p.w.multi:
		return fmt.Sprintf("%sempty line, but %s %s is not solved", at, noun, p.String(pos)), nil
	}
	d, err := p.Distance(ctx, pos)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%sno moves, but %s (the optimum is %s)", at, p.phrase(pos), p.costText(d)), nil
}

// costText says "4 moves" where every move costs 1, "a cost of 4" else.
func (p *Puzzle) costText(c int) string {
	if p.unitCost() {
		return plural(c, "move")
	}
	return fmt.Sprintf("a cost of %d", c)
}

// checkValue judges line i of an answer, a goal value of the final state.
func (p *Puzzle) checkValue(k, i int, end Position, line string) string {
	at := p.w.caseAt(k)
	name := p.def.Output.Lines[i]
	want := p.value(end, name)
	switch {
	case line == "":
		return fmt.Sprintf("%sline %d is empty, want the %s %s", at, i+1, name, p.w.symbol)
	case p.isSymbol(line) && line != want:
		return fmt.Sprintf("%sline %d says %s, the %s shows %s", at, i+1, line, name, want)
	case line != want:
		return fmt.Sprintf("%sline %d should be the %s %s (%s), got %s", at, i+1, name, p.w.symbol,
			describe(p.at(end.Size).in.Symbols, "or"), quote(line))
	}
	return ""
}

// checkOptimal compares an answer that reaches the goal with the optimum,
// as the mode asks.
func (p *Puzzle) checkOptimal(ctx context.Context, k int, pos Position, r replayed) (string, error) {
	opt, err := p.Distance(ctx, pos)
	if err != nil {
		return "", err
	}
	if p.mode == puzzle.ModeAny && r.cost >= opt {
		return "", nil
	}
	at := p.w.caseAt(k)
	switch {
	case r.cost < opt:
		return "", &wrongReference{fmt.Errorf("%s: %sa valid answer of %s solves %s, but the reference's optimum is %d: the reference is wrong",
			p.name(), at, p.countText(r), p.String(pos), opt)}
	case p.mode == puzzle.ModeAny:
		return "", nil
	case r.cost > opt:
		return p.tooLong(ctx, at, pos, r, opt)
	case r.unordered > 0:
		return fmt.Sprintf("%smove %d (%s) comes after %s: the moves must be in ascending order", at, r.unordered, r.move, r.prev), nil
	case p.mode == puzzle.ModeShortest:
		return "", nil
	}
	best, ok, err := p.Smallest(ctx, pos)
	if err != nil {
		return "", err
	}
	if !ok || p.cost(pos.Size, best) != opt {
		return "", &wrongReference{fmt.Errorf("%s: %sthe reference's smallest answer %q for %s does not have the optimal cost %d",
			p.name(), at, p.formatMoves(pos.Size, best), p.String(pos), opt)}
	}
	for j := range min(len(best), len(r.moves)) {
		if best[j] != r.moves[j] {
			yours, smallest := p.formatMoves(pos.Size, r.moves), p.formatMoves(pos.Size, best)
			return fmt.Sprintf("%sshortest, but not the smallest: yours %s, smallest %s (first difference at move %d)",
				at, yours, smallest, j+1), nil
		}
	}
	return "", nil
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
func (p *Puzzle) tooLong(ctx context.Context, at string, pos Position, r replayed, opt int) (string, error) {
	msg := fmt.Sprintf("%s%s, the optimum is %d", at, p.countText(r), opt)
	if opt == 0 && p.def.Output.Empty != "" {
		msg += fmt.Sprintf(" (%s)", quote(p.def.Output.Empty))
	}
	dep, err := p.Departure(ctx, pos, r.moves)
	if err != nil {
		return "", err
	}
	if dep.Move > 0 {
		msg += fmt.Sprintf("; move %d (%s): %s", dep.Move, p.at(pos.Size).in.Moves[r.moves[dep.Move-1]], dep.Why())
	}
	if len(dep.Distances) > 0 {
		msg += "; distances to the goal after each move: " + dep.List(40, r.n)
	}
	return msg, nil
}

// checkUnsolvable judges a line that says the case has no solution (in any
// letter case), or the line of a case that has none; d is its distance,
// -1 for none.
func (p *Puzzle) checkUnsolvable(k int, pos Position, line string, d int, t *tally) string {
	at := p.w.caseAt(k)
	text := p.def.Output.Unsolvable
	noun, _ := p.w.the()
	switch {
	case d >= 0:
		return fmt.Sprintf("%ssays %s, but %s %s can be solved in %s", at, text, noun, p.String(pos), p.costText(d))
	case line == text:
		t.unsolvable++
		return ""
	case strings.EqualFold(line, text) && text == strings.ToLower(text):
		return fmt.Sprintf("%s%s is not %s (lower case)", at, quote(line), quote(text))
	case strings.EqualFold(line, text):
		return fmt.Sprintf("%s%s is not %s (letters are case-sensitive)", at, quote(line), quote(text))
	}
	why := ""
	if r := p.WhyUnsolvable(pos, false); r != "" {
		why = " (" + r + ")"
	}
	return fmt.Sprintf("%s%s %s cannot be solved%s, want %s, got %s", at, noun, p.String(pos), why, quote(text), quote(line))
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
