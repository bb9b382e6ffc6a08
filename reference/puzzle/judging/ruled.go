package judging

import (
	"errors"

	"github.com/optjudge/optjudge/reference/lex"
	"github.com/optjudge/optjudge/reference/puzzle/engine"
)

// ruled checks a case of a puzzle given by rules beyond its tokens: each
// cell holds a value of its part ("pegs: 4 is not one of 1 to 3"), and
// the rules' valid accepts the whole (at the case's first line). An error
// of the rules themselves is the judge's, not the input's.
func (p *Puzzle) ruled(n int, st engine.State, toks []token, first int) error {
	in := p.at(n).in
	if in.Spec.Rules == nil {
		return nil
	}
	for _, part := range in.Parts {
		for c := part.First; c < part.First+part.Cells; c++ {
			if v := st.Cells[c]; !part.Allowed[v] {
				line, col := first, 0
				if c < len(toks) {
					line, col = toks[c].line, toks[c].col
				}
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
