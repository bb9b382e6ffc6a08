package judging

import (
	"bytes"
	"context"
	"fmt"
	"github.com/optjudge/optjudge/reference/lex"
	"slices"
	"strconv"
	"strings"

	"github.com/optjudge/optjudge/reference/puzzle"
)

// Solve returns the reference's output for a whole input file: for each
// case, in order, the lines of its answer (see Answer). An invalid input
// gives the validator's *lex.Error.
func (p *Puzzle) Solve(input []byte) ([]byte, error) {
	cases, err := p.Cases(input)
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	for k, c := range cases {
		a, err := p.answer(context.Background(), c.Position)
		if err != nil {
			return nil, fmt.Errorf("case %d (line %d): %w", k+1, c.Line, err)
		}
		out.WriteString(a)
	}
	return out.Bytes(), nil
}

// Validate reports the first problem of an input file as a *lex.Error,
// nil for a valid one.
func (p *Puzzle) Validate(input []byte) error {
	cases, err := p.Cases(input)
	if err != nil {
		return err
	}
	bound := p.def.Input.MaxDistance
	if bound == 0 {
		return nil
	}
	// A search bounded by input.max_distance, in the validator only: the
	// reference (judge solve) answers deeper cases too, for setters.
	for _, c := range cases {
		ok, err := p.at(c.Size).solver.AtMost(context.Background(), c.State, bound)
		if err != nil {
			return err
		}
		if !ok {
			noun, _ := p.w.the()
			return lex.Errorf(c.Line, 0, "%s needs more than %d moves (input.max_distance)", noun, bound)
		}
	}
	return nil
}

// answer is the reference's answer for one case, its lines each ending in
// a newline: the smallest of the optimal move sequences (or the empty
// answer's text, or the text for a case without a solution), then the
// final state's values, in the order of output.lines.
func (p *Puzzle) answer(ctx context.Context, pos Position) (string, error) {
	moves, ok, err := p.Smallest(ctx, pos)
	if err != nil {
		return "", err
	}
	end := pos
	line := p.def.Output.Unsolvable
	if ok {
		line = p.formatMoves(pos.Size, moves)
		if len(p.def.Output.Lines) > 1 {
			for _, m := range moves {
				end, _ = p.Apply(end, m)
			}
		}
	}
	var b strings.Builder
	b.Grow(len(line) + 1)
	for _, l := range p.def.Output.Lines {
		if l == puzzle.LineMoves {
			b.WriteString(line)
		} else {
			b.WriteString(p.value(end, l))
		}
		b.WriteByte('\n')
	}
	return b.String(), nil
}

// value is the symbol of the goal value called name in pos.
func (p *Puzzle) value(pos Position, name string) string {
	in := p.at(pos.Size).in
	for _, v := range in.Values {
		if v.Name == name {
			return in.Symbols[pos.State.Cells[v.Cell]]
		}
	}
	return ""
}

// formatMoves writes moves (indices of the instance's moves) as the
// output's line of moves: in the order made, or in declared order where
// the moves commute and the output lists them ascending; the empty
// answer's text for none.
func (p *Puzzle) formatMoves(n int, moves []int) string {
	if len(moves) == 0 {
		return p.def.Output.Empty
	}
	if p.def.Output.Order == puzzle.OrderAscending {
		moves = slices.Clone(moves)
		slices.Sort(moves)
	}
	names, sep := p.at(n).in.Moves, p.def.Output.Separator
	var b strings.Builder
	b.Grow(len(moves) * (len(names[moves[0]]) + len(sep)))
	for i, m := range moves {
		if i > 0 {
			b.WriteString(sep)
		}
		b.WriteString(names[m])
	}
	return b.String()
}

// MoveNames are the names of moves (indices at size n).
func (p *Puzzle) MoveNames(n int, moves []int) []string {
	in := p.at(n).in
	names := make([]string, len(moves))
	for i, m := range moves {
		names[i] = in.Moves[m]
	}
	return names
}

// Join writes move names as the output's line does.
func (p *Puzzle) Join(names []string) string {
	return strings.Join(names, p.def.Output.Separator)
}

// Tokens are the input's tokens of pos, in the input's order: symbols, or
// with stickers the colours of the facelets.
func (p *Puzzle) Tokens(pos Position) []string {
	in := p.at(pos.Size).in
	if in.Facelets != nil {
		toks := make([]string, in.FaceletCount)
		for c, fs := range in.Facelets {
			k := len(fs)
			v, t := pos.State.Cells[c], 0
			if pos.State.Orient != nil {
				t = int(pos.State.Orient[c])
			}
			// piece colour j is read at facelet index (t+j) mod k
			for j := range k {
				toks[fs[(t+j)%k]] = in.Colors[v][j]
			}
		}
		return toks
	}
	toks := make([]string, len(in.Order))
	for k, c := range in.Order {
		toks[k] = in.Symbols[pos.State.Cells[c]]
	}
	return toks
}

// groups cuts a position's tokens into the rows a person reads them in:
// the grid's rows, or the input's lines.
func (p *Puzzle) groups(pos Position) [][]string {
	toks := p.Tokens(pos)
	per := len(toks)
	switch {
	case p.def.Grid != nil && p.def.Input.Order == nil && p.at(pos.Size).in.Facelets == nil:
		per = p.def.Grid.Cols
	case p.def.Input.Lines > 1:
		per = len(toks) / p.def.Input.Lines
	}
	var gs [][]string
	for i := 0; i < len(toks); i += per {
		gs = append(gs, toks[i:min(i+per, len(toks))])
	}
	return gs
}

// String writes pos on one line for messages: its tokens, a " / " between
// the rows of a grid or the lines of a case: "2 3 4 / 1 5 x / 7 6 8".
func (p *Puzzle) String(pos Position) string {
	sep := p.def.Input.Separator
	var rows []string
	for _, g := range p.groups(pos) {
		rows = append(rows, strings.Join(g, sep))
	}
	return strings.Join(rows, " / ")
}

// format writes positions as an input file, one case each.
func (p *Puzzle) format(ps []Position) []byte {
	var b bytes.Buffer
	in := p.def.Input
	for i, pos := range ps {
		if i > 0 && in.BlankLineBetween {
			b.WriteByte('\n')
		}
		b.Write(p.caseText(pos))
	}
	if in.Cases == puzzle.CasesTerminated {
		b.WriteString(in.Terminator + "\n")
	}
	return b.Bytes()
}

// caseText writes one case as the input gives it.
func (p *Puzzle) caseText(pos Position) []byte {
	in := p.def.Input
	toks := p.Tokens(pos)
	var b bytes.Buffer
	if _, hi := p.def.Sizes(); hi > 0 {
		toks = append([]string{strconv.Itoa(pos.Size)}, toks...)
		b.WriteString(strings.Join(toks, in.Separator))
		b.WriteByte('\n')
		return b.Bytes()
	}
	per := len(toks) / in.Lines
	for j := range in.Lines {
		b.WriteString(strings.Join(toks[j*per:(j+1)*per], in.Separator))
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// Split cuts an input file into one-case input files, each case's lines
// kept byte for byte, so that a case cut out of a failing input fails the
// same way.
func (p *Puzzle) Split(input []byte) ([][]byte, error) {
	cases, err := p.Cases(input)
	if err != nil {
		return nil, err
	}
	files := make([][]byte, len(cases))
	for i, c := range cases {
		f := append([]byte(nil), c.Text...)
		if p.def.Input.Cases == puzzle.CasesTerminated {
			f = append(f, p.def.Input.Terminator+"\n"...)
		}
		files[i] = f
	}
	return files, nil
}

// joinCases puts one-case input files, as Split makes them, back into one;
// for a puzzle of one case a file, there must be one.
func (p *Puzzle) joinCases(files [][]byte) ([]byte, error) {
	in := p.def.Input
	if in.Cases == puzzle.CasesOne {
		if len(files) != 1 {
			return nil, fmt.Errorf("%s has one case a file, got %d", p.name(), len(files))
		}
		return files[0], nil
	}
	var b bytes.Buffer
	for i, f := range files {
		if in.Cases == puzzle.CasesTerminated {
			f = bytes.TrimSuffix(f, []byte(in.Terminator+"\n"))
		}
		if i > 0 && in.BlankLineBetween {
			b.WriteByte('\n')
		}
		b.Write(f)
	}
	if in.Cases == puzzle.CasesTerminated {
		b.WriteString(in.Terminator + "\n")
	}
	return b.Bytes(), nil
}

// name is the puzzle's name for messages.
func (p *Puzzle) name() string {
	if p.def.Name != "" {
		return p.def.Name
	}
	return "the puzzle"
}
