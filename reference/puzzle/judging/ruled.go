package judging

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/optjudge/optjudge/reference/lex"
	"github.com/optjudge/optjudge/reference/puzzle"
	"github.com/optjudge/optjudge/reference/puzzle/engine"
)

// ruled checks a case of a puzzle given by rules beyond its tokens: each
// cell holds a value of its part ("pegs: 4 is not one of 1 to 3"), each
// piece stands on its board and on a square of its own where pieces may
// not share, and the rules' valid accepts the whole (at the case's first
// line). An error of the rules themselves is the judge's, not the
// input's.
func (p *Puzzle) ruled(n int, st engine.State, toks []token, first int) error {
	in := p.at(n).in
	if in.Spec.Rules == nil {
		return nil
	}
	at := func(c int) (int, int) {
		if c < len(toks) {
			return toks[c].line, toks[c].col
		}
		return first, 0
	}
	for _, part := range in.Parts {
		if part.Pieces != nil {
			if c, msg := pieces(in.Symbols, part, st.Cells); msg != "" {
				line, col := at(c)
				return lex.Errorf(line, col, "%s", msg)
			}
			continue
		}
		for c := part.First; c < part.First+part.Cells; c++ {
			if v := st.Cells[c]; !part.Allowed[v] {
				line, col := at(c)
				return lex.Errorf(line, col, "%s: %s is not one of %s", part.Name, in.Symbols[v], part.Describe)
			}
		}
	}
	err := in.Spec.Rules.Check(st.Cells)
	var invalid *engine.Invalid
	if errors.As(err, &invalid) {
		noun, verb := p.w.the()
		return lex.Errorf(first, 0, "%s %s not valid: %s", noun, verb, invalid.Why)
	}
	return err
}

// pieces checks a part of pieces: each piece's row and column on its
// board, and no two on one square unless they may share. It returns the
// cell at fault and what is wrong, "" if nothing.
func pieces(symbols []string, part puzzle.RulePart, cells []uint8) (int, string) {
	at := map[[2]uint8]string{}
	for k, name := range part.Pieces {
		c := part.First + 2*k
		for j := range 2 {
			if msg := offBoard(part, c+j, symbols[cells[c+j]]); msg != "" {
				return c + j, msg
			}
		}
		sq := [2]uint8{cells[c], cells[c+1]}
		if other, ok := at[sq]; ok && !part.Share {
			return c, fmt.Sprintf("%s: %s and %s are both at row %s, column %s", part.Name, other, name, symbols[sq[0]], symbols[sq[1]])
		}
		at[sq] = name
	}
	return 0, ""
}

// offBoard says that text, cell c's token, is off the board where c is a
// piece's row or column and it is; "" else.
func offBoard(part puzzle.RulePart, c int, text string) string {
	if part.Pieces == nil || c < part.First || c >= part.First+part.Cells {
		return ""
	}
	k, j := (c-part.First)/2, (c-part.First)%2
	what, bound := "row", part.Rows
	if j == 1 {
		what, bound = "column", part.Cols
	}
	n, err := strconv.Atoi(text)
	switch {
	case err != nil || strconv.Itoa(n) != text:
		return fmt.Sprintf("%s: %s's %s %q is not a number (%ss 1 to %d)", part.Name, part.Pieces[k], what, text, what, bound)
	case n < 1 || n > bound:
		return fmt.Sprintf("%s: %s's %s %d is off the %dx%d board (%ss 1 to %d)", part.Name, part.Pieces[k], what, n, part.Rows, part.Cols, what, bound)
	}
	return ""
}

// pieceToken says what is wrong with a token of a piece's row or column
// that is not a symbol at all (a number past every board, a letter); ""
// where cell c is not a piece's.
func pieceToken(in *puzzle.Instance, c int, text string) string {
	for _, part := range in.Parts {
		if msg := offBoard(part, c, text); msg != "" {
			return msg
		}
	}
	return ""
}
