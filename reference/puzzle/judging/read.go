package judging

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/optjudge/optjudge/reference/lex"
	"github.com/optjudge/optjudge/reference/puzzle"
	"github.com/optjudge/optjudge/reference/puzzle/engine"
)

// Case is one case of an input file.
type Case struct {
	Position
	Line int    // its first line in the input, from 1
	Text []byte // its lines as the input gives them, newlines included
}

// Cases reads an input file strictly, as the definition's input format
// says: every line ends with a newline; tokens are separated by one space
// (by runs of spaces, spaces at the ends allowed, with input.loose) or are
// one character each; a case holds every cell once (or, for a family, its
// size first) with the symbols the moves keep; the cells no move changes
// hold the goal's symbols; and, where the output has no text for a case
// without a solution, every case can reach the goal. The first problem is
// a *lex.Error at its line and column: this is the input validator.
func (p *Puzzle) Cases(input []byte) ([]Case, error) {
	r := &reader{p: p, data: input, text: string(input)}
	in := p.def.Input
	if len(input) == 0 {
		return nil, lex.Errorf(1, 0, "empty input, want %s", p.wantInput())
	}
	// As many cases as lines at most: grow the list once.
	cases := make([]Case, 0, bytes.Count(input, []byte{'\n'})/in.Lines+1)
	for k := 1; ; k++ {
		if in.Cases == puzzle.CasesTerminated {
			done, err := r.terminator()
			if done || err != nil {
				return cases, err
			}
		}
		if k > 1 {
			switch {
			case in.Cases == puzzle.CasesOne:
				l := r.next()
				return nil, lex.Errorf(l.n, 1, "unexpected line %s after the %s", quote(l.text), p.wantCase())
			case in.Cases == puzzle.CasesUntilEOF && r.eof():
				return cases, nil
			case in.BlankLineBetween:
				if err := r.separator(); err != nil {
					return nil, err
				}
			}
		}
		c, err := r.readCase(k)
		if err != nil {
			return nil, err
		}
		cases = append(cases, c)
		if in.Cases == puzzle.CasesOne && r.eof() {
			return cases, nil
		}
	}
}

// wantInput says what a whole input holds, for an empty one.
func (p *Puzzle) wantInput() string {
	switch in := p.def.Input; in.Cases {
	case puzzle.CasesTerminated:
		return "the cases and a final line holding " + in.Terminator
	case puzzle.CasesUntilEOF:
		return "at least one case: " + p.wantCase()
	}
	return p.wantCase()
}

// wantCase says what a case holds: "3 lines of 3 dials", "9 tiles".
func (p *Puzzle) wantCase() string {
	if lo, hi := p.Sizes(); hi > 0 {
		return fmt.Sprintf("a line of the size (%d to %d) and then as many %ss", lo, hi, p.w.token)
	}
	lines, perLine := p.def.Input.Lines, p.perLine(0)
	if lines > 1 {
		return fmt.Sprintf("%d lines of %s", lines, plural(perLine, p.w.token))
	}
	return plural(perLine, p.w.token)
}

// perLine is how many tokens each line of a case at size n holds.
func (p *Puzzle) perLine(n int) int {
	if n == 0 {
		n = p.lo
	}
	in := p.at(n).in
	tokens := len(in.Cells)
	if in.Facelets != nil {
		tokens = in.FaceletCount
	}
	return tokens / p.def.Input.Lines
}

// reader reads an input file line by line.
type reader struct {
	p    *Puzzle
	data []byte
	text string // data, as a string that tokens share
	off  int
	n    int // the number of the last line read

	seen     []token // by symbol value, where a token was seen (line 0: not)
	toks     []token // a line's tokens
	caseToks []token // a case's tokens
}

// line is one line of the input, without its newline.
type line struct {
	text    string
	n       int // from 1
	newline bool
}

func (r *reader) eof() bool { return r.off >= len(r.data) }

func (r *reader) peek() line {
	text, _, found := strings.Cut(r.text[r.off:], "\n")
	return line{text: text, n: r.n + 1, newline: found}
}

func (r *reader) next() line {
	l := r.peek()
	r.off += len(l.text)
	if l.newline {
		r.off++
	}
	r.n++
	return l
}

// ended checks that l ends with a newline.
func ended(l line) error {
	if !l.newline {
		return lex.Errorf(l.n, len(l.text)+1, "missing final newline")
	}
	return nil
}

// terminator reads the final line of a terminated input, if it comes next;
// done reports whether it did.
func (r *reader) terminator() (done bool, err error) {
	t := r.p.def.Input.Terminator
	if r.eof() {
		return true, lex.Errorf(r.n+1, 0, "missing the final line holding %s", t)
	}
	if l := r.peek(); l.text != t {
		return false, nil
	}
	l := r.next()
	if err := ended(l); err != nil {
		return true, err
	}
	if !r.eof() {
		return true, lex.Errorf(l.n+1, 1, "unexpected data after the final %s", t)
	}
	return true, nil
}

// separator reads the empty line between two cases.
func (r *reader) separator() error {
	l := r.next()
	if len(l.text) != 0 {
		return lex.Errorf(l.n, 1, "want an empty line between two cases, got %s", quote(l.text))
	}
	if err := ended(l); err != nil {
		return err
	}
	if r.eof() || r.p.def.Input.Cases == puzzle.CasesTerminated && r.peek().text == r.p.def.Input.Terminator {
		return lex.Errorf(l.n, 0, "an empty line after the last case: empty lines go between cases")
	}
	return nil
}

// token is one token of a case.
type token struct {
	text      string
	line, col int
	idx       int // its index among the case's tokens
	v         int // its symbol's value, once known
}

// readCase reads case k.
func (r *reader) readCase(k int) (Case, error) {
	p := r.p
	start, first := r.off, r.n+1
	size := 0
	if syms := len(p.at(p.hi()).in.Symbols); len(r.seen) != syms {
		r.seen = make([]token, syms)
	} else {
		clear(r.seen)
	}
	toks := r.caseToks[:0]
	defer func() { r.caseToks = toks[:0] }()
	if _, hi := p.Sizes(); hi > 0 {
		l := r.next()
		var err error
		if size, toks, err = r.familyLine(l); err != nil {
			return Case{}, err
		}
	} else {
		lines := p.def.Input.Lines
		for j := range lines {
			if r.eof() {
				return Case{}, lex.Errorf(r.n+1, 0, "%s", r.missingLine(k, j))
			}
			l := r.next()
			lt, err := r.lineTokens(l, size, j)
			if err != nil {
				return Case{}, err
			}
			toks = append(toks, lt...)
		}
	}
	pos, err := p.position(size, toks, first)
	var le *lex.Error
	if err != nil && !errors.As(err, &le) {
		return Case{}, fmt.Errorf("case %d (line %d): %w", k, first, err)
	}
	if err != nil {
		return Case{}, err
	}
	return Case{Position: pos, Line: first, Text: r.data[start:r.off]}, nil
}

// missingLine says which line of case k is missing.
func (r *reader) missingLine(k, j int) string {
	p := r.p
	lines := p.def.Input.Lines
	if p.w.multi {
		return fmt.Sprintf("case %d ends after %s, want %d lines", k, plural(j, "line"), lines)
	}
	msg := fmt.Sprintf("missing line %d of %d", j+1, lines)
	if names := r.lineCells(0, j); names != "" {
		msg += fmt.Sprintf(" (%ss %s)", p.w.cell, names)
	}
	return msg
}

// lineCells names the cells that line j of a case gives, for messages,
// where the cells have names and a line has few; "" else.
func (r *reader) lineCells(n, j int) string {
	p := r.p
	in := p.at(n).in
	per := p.perLine(n)
	if !p.w.named || in.Facelets != nil || per > 12 {
		return ""
	}
	var names []string
	for _, c := range in.Order[j*per : (j+1)*per] {
		names = append(names, in.Cells[c])
	}
	return strings.Join(names, " ")
}

// familyLine reads the line of a family's case: its size, then its cells.
func (r *reader) familyLine(l line) (int, []token, error) {
	p := r.p
	lo, hi := p.Sizes()
	all, err := r.split(l, -1, 0)
	if err != nil {
		return 0, nil, err
	}
	n, err := strconv.Atoi(all[0].text)
	if err != nil || strconv.Itoa(n) != all[0].text || n < lo || n > hi {
		return 0, nil, lex.Errorf(l.n, 1, "want the size first, a number %d to %d, got %s", lo, hi, quote(all[0].text))
	}
	toks := append([]token(nil), all[1:]...)
	for i := range toks {
		toks[i].idx = i
	}
	want := len(p.at(n).in.Cells) // n, or for rules, the parts' cells at size n
	switch {
	case len(toks) > want:
		t := toks[want]
		return 0, nil, lex.Errorf(l.n, t.col, "unexpected %s after the %s of size %d", quote(t.text), plural(want, p.w.token), n)
	case len(toks) < want:
		return 0, nil, lex.Errorf(l.n, len(l.text)+1, "only %s, want %d after the size %d%s", plural(len(toks), p.w.token), want, n, r.missing(n, toks))
	}
	for i := range toks {
		if err := r.symbolOf(n, &toks[i]); err != nil {
			return 0, nil, err
		}
	}
	if err := r.duplicates(n, toks); err != nil {
		return 0, nil, err
	}
	return n, toks, ended(l)
}

// lineTokens reads line j of a case (size n): its tokens, each a symbol
// (or a sticker's colour), as many as a line holds.
func (r *reader) lineTokens(l line, n, j int) ([]token, error) {
	p := r.p
	want := p.perLine(n)
	toks, err := r.split(l, want, j)
	if err != nil {
		return nil, err
	}
	for i := range toks {
		toks[i].idx = j*want + i
	}
	if len(toks) > want {
		t := toks[want]
		return nil, lex.Errorf(l.n, t.col, "unexpected %s after the %s", quote(t.text), plural(want, p.w.token))
	}
	for i := range toks {
		if err := r.symbolOf(n, &toks[i]); err != nil {
			return nil, err
		}
	}
	if err := r.duplicates(n, toks); err != nil {
		return nil, err
	}
	if len(toks) < want {
		extra := r.missing(n, toks)
		if names := r.lineCells(n, j); names != "" && extra == "" {
			extra = " (" + names + ")"
		}
		return nil, lex.Errorf(l.n, len(l.text)+1, "only %s, want %d%s", plural(len(toks), p.w.token), want, extra)
	}
	return toks, ended(l)
}

// split cuts a line into its tokens, as the input's separator says; j is
// the line's index in its case, for the message about an empty line.
func (r *reader) split(l line, want, j int) ([]token, error) {
	p := r.p
	in := p.def.Input
	text := l.text
	if text == "" || in.Loose && strings.Trim(text, " ") == "" {
		msg := "empty line"
		if want > 0 {
			msg += ", want " + plural(want, p.w.token)
			if names := r.lineCells(0, j); names != "" {
				msg += " (" + names + ")"
			}
		} else {
			msg += ", want a case"
		}
		if in.Cases == puzzle.CasesTerminated && j == 0 {
			msg += " or the final " + in.Terminator
		}
		return nil, lex.Errorf(l.n, 0, "%s", msg)
	}
	if !in.Loose && strings.HasSuffix(text, "\r") {
		return nil, lex.Errorf(l.n, len(text), "carriage return at the end of the line (CRLF), want \\n line ends")
	}
	toks := r.toks[:0]
	defer func() { r.toks = toks[:0] }()
	switch {
	case in.Separator == "":
		for i := range len(text) {
			toks = append(toks, token{text: text[i : i+1], line: l.n, col: i + 1})
		}
	case in.Loose:
		for i := 0; i < len(text); {
			if text[i] == ' ' {
				i++
				continue
			}
			k := i
			for k < len(text) && text[k] != ' ' {
				k++
			}
			tok := text[i:k]
			if t := strings.IndexByte(tok, '\t'); t >= 0 {
				return nil, lex.Errorf(l.n, i+t+1, "tab character: separate the %ss with spaces", p.w.token)
			}
			if t := strings.IndexByte(tok, '\r'); t >= 0 {
				return nil, lex.Errorf(l.n, i+t+1, "carriage return: lines must end with a bare newline")
			}
			toks = append(toks, token{text: tok, line: l.n, col: i + 1})
			i = k
		}
	default:
		col := 1
		for tok := range strings.SplitSeq(text, " ") {
			switch {
			case tok == "" && col == 1:
				return nil, lex.Errorf(l.n, 1, "leading space")
			case tok == "" && col > len(text):
				return nil, lex.Errorf(l.n, len(text), "trailing space")
			case tok == "":
				return nil, lex.Errorf(l.n, col, "two spaces in a row, want one")
			}
			if t := strings.IndexByte(tok, '\t'); t >= 0 {
				return nil, lex.Errorf(l.n, col+t, "tab character: separate the %ss with one space", p.w.token)
			}
			toks = append(toks, token{text: tok, line: l.n, col: col})
			col += len(tok) + 1
		}
	}
	return toks, nil
}

// symbolOf checks that t is a symbol (a colour, for stickers) at size n,
// and sets its value.
func (r *reader) symbolOf(n int, t *token) error {
	p := r.p
	in := p.at(n).in
	if in.Facelets != nil {
		for _, cols := range in.Colors {
			for _, c := range cols {
				if c == t.text {
					return nil
				}
			}
		}
		return lex.Errorf(t.line, t.col, "%s is not a colour (want %s)", quote(t.text), describe(r.colours(n), "or"))
	}
	if len(t.text) == 1 {
		if v := p.at(n).byByte[t.text[0]]; v >= 0 {
			t.v = int(v)
			return nil
		}
	} else if v, ok := in.Symbol(t.text); ok {
		t.v = v
		return nil
	}
	if c, ok := r.cellOf(n, *t); ok && in.Parts != nil {
		if msg := pieceToken(in, c, t.text); msg != "" {
			return lex.Errorf(t.line, t.col, "%s", msg)
		}
	}
	prefix := ""
	if p.w.named && !r.permutation(n) {
		if c, ok := r.cellOf(n, *t); ok {
			prefix = fmt.Sprintf("%s %s: ", p.w.cell, in.Cells[c])
		}
	}
	if lo, hi, ok := numericRange(in.Symbols); ok {
		if v, err := strconv.Atoi(t.text); err == nil && strconv.Itoa(v) == t.text {
			return lex.Errorf(t.line, t.col, "%s%s is out of range %d-%d", prefix, quote(t.text), lo, hi)
		}
		return lex.Errorf(t.line, t.col, "%sgot %s, want a number %d-%d", prefix, quote(t.text), lo, hi)
	}
	if strings.ContainsRune(t.text, '\r') {
		return lex.Errorf(t.line, t.col+strings.IndexByte(t.text, '\r'), "carriage return: lines must end with a bare newline")
	}
	// "is not one of the letters": "Y" may well be a letter, just not
	// one of the puzzle's
	return lex.Errorf(t.line, t.col, "%s%s is not one of the %ss (want %s)", prefix, quote(t.text), p.w.symbol, describe(in.Symbols, "or"))
}

// cellOf is the cell that token t gives.
func (r *reader) cellOf(n int, t token) (int, bool) {
	in := r.p.at(n).in
	if t.idx < 0 || t.idx >= len(in.Order) {
		return 0, false
	}
	return in.Order[t.idx], true
}

// permutation reports whether every symbol is in exactly one cell.
func (r *reader) permutation(n int) bool { return r.p.at(n).perm }

// permutation reports whether every symbol of a puzzle read by symbols
// is in exactly one cell.
func permutation(in *puzzle.Instance) bool {
	sp := in.Spec
	if sp.Counts == nil || in.Facelets != nil {
		return false
	}
	for _, c := range sp.Counts {
		if c != 1 {
			return false
		}
	}
	return true
}

// duplicates reports, for a puzzle whose every symbol is in one cell, a
// symbol the case gave before (in toks or on its earlier lines): at its
// second place.
func (r *reader) duplicates(n int, toks []token) error {
	if !r.permutation(n) {
		return nil
	}
	for _, t := range toks {
		if f := r.seen[t.v]; f.line > 0 {
			at := fmt.Sprintf("column %d", f.col)
			if f.line != t.line {
				at = fmt.Sprintf("line %d, column %d", f.line, f.col)
			}
			return lex.Errorf(t.line, t.col, "%s %s appears twice (also at %s)", r.p.w.symbol, t.text, at)
		}
		r.seen[t.v] = t
	}
	return nil
}

// missing lists, for a puzzle whose every symbol is in one cell, the
// symbols a short line lacks: " (4, 5, x missing)"; "" else.
func (r *reader) missing(n int, toks []token) string {
	if !r.permutation(n) || r.p.def.Input.Lines > 1 {
		return ""
	}
	have := map[string]bool{}
	for _, t := range toks {
		have[t.text] = true
	}
	var miss []string
	for _, s := range r.p.at(n).in.Symbols {
		if !have[s] {
			miss = append(miss, s)
		}
	}
	return " (" + strings.Join(miss, ", ") + " missing)"
}

// colours lists the sticker colours in the order a goal state shows them
// (for a cube: the faces' order), then any other the pieces have.
func (r *reader) colours(n int) []string {
	var cols []string
	seen := map[string]bool{}
	add := func(c string) {
		if !seen[c] {
			seen[c] = true
			cols = append(cols, c)
		}
	}
	in := r.p.at(n).in
	if g := in.Spec.Goal.States; len(g) > 0 {
		pos := r.p.full(Position{Size: n, State: engine.State{Cells: g[0]}})
		for _, c := range r.p.Tokens(pos) {
			add(c)
		}
	}
	for _, cs := range in.Colors {
		for _, c := range cs {
			add(c)
		}
	}
	return cols
}

// position turns the tokens of a case into its state and checks it: the
// symbols' counts, the cells no move changes, and where the output has no
// text for a case without a solution, that it has one.
func (p *Puzzle) position(n int, toks []token, first int) (Position, error) {
	in := p.at(n).in
	sp := in.Spec
	st := engine.State{Cells: make([]uint8, sp.Cells)}
	if sp.Orient >= 2 {
		st.Orient = make([]uint8, sp.Cells)
	}
	if in.Facelets != nil {
		if err := p.stickers(n, toks, st); err != nil {
			return Position{}, err
		}
	} else {
		for k, t := range toks {
			st.Cells[in.Order[k]] = uint8(t.v)
		}
	}
	pos := Position{Size: n, State: st}
	if err := p.counts(n, st, first); err != nil {
		return Position{}, err
	}
	if err := p.fixedHold(n, st, toks, first); err != nil {
		return Position{}, err
	}
	if err := p.ruled(n, st, toks, first); err != nil {
		return Position{}, err
	}
	if p.def.Output.Unsolvable == "" {
		ok, err := p.Solvable(pos)
		if err != nil {
			return Position{}, err
		}
		if !ok {
			noun, _ := p.w.the()
			return Position{}, lex.Errorf(first, 0, "%s cannot be solved: no sequence of moves reaches the goal", noun)
		}
	}
	return pos, nil
}

// counts checks that a puzzle whose moves only move symbols around holds
// each symbol in as many cells as the goal.
func (p *Puzzle) counts(n int, st engine.State, first int) error {
	in := p.at(n).in
	sp := in.Spec
	if sp.Counts == nil || p.at(n).perm {
		return nil // a permutation's duplicates are found as they come
	}
	got := make([]int, sp.Symbols)
	for _, v := range st.Cells {
		got[v]++
	}
	equal := true
	for _, c := range sp.Counts {
		equal = equal && c == sp.Counts[0]
	}
	for v, c := range got {
		if c == sp.Counts[v] {
			continue
		}
		want := strconv.Itoa(sp.Counts[v])
		if equal && sp.Counts[v] > 1 {
			want = inWords(sp.Counts[v]) + " of each " + p.w.symbol
		}
		what := in.Symbols[v]
		if in.Facelets != nil {
			what = p.w.symbol + " " + what
		}
		return lex.Errorf(first, 0, "%s %s, want %s", cellsHold(c), what, want)
	}
	return nil
}

// fixedHold checks the cells no move changes: they hold the goal's symbol,
// untwisted.
func (p *Puzzle) fixedHold(n int, st engine.State, toks []token, first int) error {
	s := p.at(n)
	in := s.in
	if len(s.fixed) == 0 {
		return nil
	}
	goal := in.Spec.Goal.States[0]
	for _, c := range s.fixed {
		line, col := first, 0
		if in.Facelets == nil {
			for k, o := range in.Order {
				if o == c && k < len(toks) {
					line, col = toks[k].line, toks[k].col
				}
			}
		} else if f := in.Facelets[c]; len(f) > 0 && f[0] < len(toks) {
			line, col = toks[f[0]].line, toks[f[0]].col
		}
		switch {
		case st.Cells[c] != goal[c]:
			return lex.Errorf(line, col, "%s %s holds %s, but no move changes it: want %s", p.w.cell, in.Cells[c], in.Symbols[st.Cells[c]], in.Symbols[goal[c]])
		case st.Orient != nil && st.Orient[c] != 0:
			return lex.Errorf(line, col, "%s %s is twisted, but no move turns it", p.w.cell, in.Cells[c])
		}
	}
	return nil
}

// stickers reads the colours of the facelets: each cell's, in its
// orientation order, must be those of a piece read from one of its
// colours on.
func (p *Puzzle) stickers(n int, toks []token, st engine.State) error {
	in := p.at(n).in
	where := map[int]token{} // the token of the first facelet of each piece found
	found := make([]int, len(in.Symbols))
	for c, fs := range in.Facelets {
		k := len(fs)
		read := make([]string, k)
		for i, f := range fs {
			read[i] = toks[f].text
		}
		at := toks[fs[0]]
		piece, twist := -1, 0
		for v, cols := range in.Colors {
			// Only the pieces of the cell's own set: a pyraminx's tip and
			// centre show the same colours.
			if len(cols) != k || in.SymbolSet[v] != in.SetOf[c] {
				continue
			}
			for t := range k {
				match := true
				for j := range k {
					if cols[j] != read[(t+j)%k] {
						match = false
						break
					}
				}
				if match {
					piece, twist = v, t
				}
			}
		}
		if piece < 0 {
			return lex.Errorf(at.line, at.col, "%s %s reads %s: no %s has these colours", p.w.cell, in.Cells[c], strings.Join(read, " "), p.w.symbol)
		}
		found[piece]++
		if f, dup := where[piece]; dup && found[piece] > pieceCount(in.Spec, piece) {
			if n := pieceCount(in.Spec, piece); n > 1 {
				return lex.Errorf(at.line, at.col, "%s %s appears %d times, want %d (first at column %d)", p.w.symbol, in.Symbols[piece], found[piece], n, f.col)
			}
			return lex.Errorf(at.line, at.col, "%s %s appears twice (also at column %d)", p.w.symbol, in.Symbols[piece], f.col)
		}
		if _, seen := where[piece]; !seen {
			where[piece] = at
		}
		st.Cells[c] = uint8(piece)
		if st.Orient != nil {
			st.Orient[c] = uint8(twist)
		}
	}
	return nil
}

// pieceCount is how many cells hold symbol v in every state: 1 unless the
// goal repeats it (identical pieces).
func pieceCount(sp *engine.Spec, v int) int {
	if sp.Counts == nil || v >= len(sp.Counts) {
		return 1
	}
	return sp.Counts[v]
}
