package puzzle

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/optjudge/optjudge/reference/puzzle/engine"
)

// partRE is a part's name: a Starlark identifier in lower case.
var partRE = regexp.MustCompile(`^[a-z_][a-z0-9_]*$`)

// rulesDefinition validates a puzzle given by rules: the same sections
// as any puzzle's for input, output and layout, the state's parts, the
// rules' settings, and then the rules run at every size.
func (v *validator) rulesDefinition() error {
	d := v.d
	if d.Name != "" && !nameRE.MatchString(d.Name) {
		v.bad("name", "%q: use lower-case letters, digits and '-'", d.Name)
	}
	switch d.Mode {
	case ModeAny, ModeShortest, ModeSmallest:
	default:
		v.bad("mode", "%q is not a mode for rules (any, shortest, smallest)", d.Mode)
	}
	if d.Rules == nil {
		v.bad("parts", "parts are the state of a puzzle given by rules: give rules too")
	}
	v.notWithRules()
	cells := v.ruleState()
	v.ruleSettings()
	v.input(cells)
	v.output(nil)
	v.layout(cells)
	if len(v.es) == 0 {
		v.ruleInstances()
	}
	if len(v.es) == 0 {
		return nil
	}
	sort.SliceStable(v.es, func(i, j int) bool { return v.es[i].Line < v.es[j].Line })
	return v.es
}

// notWithRules reports the keys that rules replace.
func (v *validator) notWithRules() {
	d := v.d
	given := []struct {
		field string
		on    bool
	}{
		{"moves", d.Moves != nil}, {"blank", d.Blank != ""}, {"orientation", d.Orientation != 0}, {"sets", d.Sets != nil},
		{"counts", d.Counts != nil}, {"goal", d.Line("goal") > 0}, {"input.order", d.Input.Order != nil},
		{"input.stickers", d.Input.Stickers != nil}, {"search.patterns", d.Search.Patterns != nil},
		{"output.order", d.Output.Order != OrderAsMade}, {"max_moves", d.MaxMoves != 0},
		{"input.max_distance", d.Input.MaxDistance != 0}, {"search.memory", d.Search.Memory != 0},
	}
	for _, g := range given {
		if g.on {
			v.bad(g.field, "not with rules: the rules give the moves and the goal")
		}
	}
}

// ruleState checks the parts (or the cells or grid and symbols) and
// returns the cells' names at the largest size.
func (v *validator) ruleState() map[string]int {
	d := v.d
	if s := d.Size; s != nil && (s.Min < 1 || s.Max < s.Min || s.Max > engine.MaxCells) {
		v.bad("size", "min %d, max %d: want 1 <= min <= max <= %d", s.Min, s.Max, engine.MaxCells)
	}
	if d.Size != nil && d.Input.Lines != 1 {
		v.bad("input.lines", "a family's case is one line: its size, then the cells in order")
	}
	if d.Parts == nil {
		if d.Size != nil {
			v.bad("size", "a family given by rules has parts, some of length 0 (the size)")
		}
		cells := v.cells()
		v.symbols()
		return cells
	}
	if d.Cells != nil || d.Grid != nil || d.Symbols != nil {
		v.bad("parts", "give parts, or cells (or a grid) and symbols, not both")
	}
	for i, p := range d.Parts {
		v.part(i, p)
	}
	_, hi := d.Sizes()
	parts := d.ruleParts(hi)
	syms := ruleSymbols(parts)
	if len(syms) > engine.MaxSymbols {
		v.bad("parts", "%d symbols in all, more than %d", len(syms), engine.MaxSymbols)
	}
	for i, s := range syms {
		v.sym[s] = i
	}
	names := d.ruleCellNames(parts)
	if len(names) == 0 || len(names) > engine.MaxCells {
		v.bad("parts", "%d cells in all, want 1 to %d", len(names), engine.MaxCells)
	}
	return index(names)
}

// part checks one part.
func (v *validator) part(i int, p Part) {
	f := fmt.Sprintf("parts[%d]", i)
	if !partRE.MatchString(p.Name) {
		v.bad(f+".name", "%q: a part's name is a lower-case identifier (pegs, board)", p.Name)
	}
	for j := range i {
		if v.d.Parts[j].Name == p.Name {
			v.bad(f+".name", "%q is parts[%d] already", p.Name, j)
		}
	}
	switch {
	case p.Grid != nil && p.Length != 0:
		v.bad(f, "give length or grid, not both")
	case p.Grid != nil && (p.Grid.Rows < 1 || p.Grid.Cols < 1 || p.Grid.Rows*p.Grid.Cols > engine.MaxCells):
		v.bad(f+".grid", "%dx%d: want at least one row and column and at most %d cells", p.Grid.Rows, p.Grid.Cols, engine.MaxCells)
	case p.Length < 0 || p.Length > engine.MaxCells:
		v.bad(f+".length", "%d: want 1 to %d, or 0 for the family's size", p.Length, engine.MaxCells)
	case p.Grid == nil && p.Length == 0 && v.d.Size == nil:
		v.bad(f+".length", "0 is the family's size, but the puzzle has no size")
	}
	if p.Pieces != nil {
		v.pieceParts(f, p)
		return
	}
	if p.Share {
		v.bad(f+".share", "only for a part of pieces")
	}
	switch {
	case (p.Symbols == nil) == (p.Range == nil):
		v.bad(f, "give symbols or range, one of them")
	case p.Range != nil && (len(p.Range) != 2 || p.Range[0] < 0 || p.Range[1] < p.Range[0] || p.Range[1]-p.Range[0] >= engine.MaxSymbols):
		v.bad(f+".range", "%v: want [lo, hi], 0 <= lo <= hi, at most %d values", p.Range, engine.MaxSymbols)
	}
	seen := map[string]bool{}
	for j, s := range p.Symbols {
		if !token(s) || seen[s] {
			v.bad(fmt.Sprintf("%s.symbols[%d]", f, j), "%q: a symbol is a token without spaces, once", s)
		}
		seen[s] = true
	}
}

// pieceParts checks a part of pieces: on a grid, named each once.
func (v *validator) pieceParts(f string, p Part) {
	switch {
	case p.Grid == nil:
		v.bad(f+".grid", "required: the board the pieces stand on")
	case p.Length != 0 || p.Symbols != nil || p.Range != nil:
		v.bad(f, "a part of pieces has pieces and a grid, no length, symbols or range")
	case len(p.Pieces) == 0 || 2*len(p.Pieces) > engine.MaxCells:
		v.bad(f+".pieces", "%d pieces: want 1 to %d", len(p.Pieces), engine.MaxCells/2)
	case max(p.Grid.Rows, p.Grid.Cols) > engine.MaxSymbols:
		v.bad(f+".grid", "%dx%d: at most %d rows and columns", p.Grid.Rows, p.Grid.Cols, engine.MaxSymbols)
	}
	seen := map[string]bool{}
	for j, s := range p.Pieces {
		if !token(s) || seen[s] || strings.ContainsAny(s, ".") {
			v.bad(fmt.Sprintf("%s.pieces[%d]", f, j), "%q: a piece's name is a token without spaces or '.', once", s)
		}
		seen[s] = true
	}
}

// ruleSettings checks the rules' own keys and the search method.
func (v *validator) ruleSettings() {
	r := v.d.Rules
	if r == nil {
		return
	}
	if strings.TrimSpace(r.Code) == "" {
		v.bad("rules.code", "required: the rules, in Starlark")
	}
	for _, f := range []struct {
		name string
		n    int
	}{{"max_states", r.MaxStates}, {"max_seconds", r.MaxSeconds}, {"max_steps", r.MaxSteps}} {
		if f.n < 0 {
			v.bad("rules."+f.name, "%d: want at least 0 (0: the default)", f.n)
		}
	}
	for i, s := range r.Relabel {
		if _, ok := v.sym[s]; !ok {
			v.bad(fmt.Sprintf("rules.relabel[%d]", i), "%q is not a symbol", s)
		}
	}
	switch m, ok := engine.ParseMethod(v.d.Search.Method); {
	case !ok || m == engine.MethodLinear || m == engine.MethodSearch:
		v.bad("search.method", "%q is not a method for rules (auto, table, bfs, astar, ida, bidirectional)", v.d.Search.Method)
	}
}

// ruleInstances runs the rules at every size and checks what only they
// tell: the moves' names against the output, and that the engine has a
// way to solve them.
func (v *validator) ruleInstances() {
	d := v.d
	lo, hi := d.Sizes()
	for n := lo; n <= hi; n++ {
		in, err := d.instance(n)
		if err != nil {
			v.es = append(v.es, err.(*Error))
			return
		}
		v.ruleNames(in)
		if _, err := engine.New(in.Spec, engine.Options{}); err != nil {
			v.bad("search.method", "%v", err)
		}
		if len(v.es) > 0 {
			return
		}
	}
}

// ruleNames checks the moves' names against the output's separator.
func (v *validator) ruleNames(in *Instance) {
	out := v.d.Output
	names := index(in.Moves)
	for _, m := range in.Moves {
		switch {
		case out.Separator == "" && len(m) != 1:
			v.bad("output.separator", "\"\", but the rules' move %q is not one character", m)
			return
		case out.Separator != "" && strings.Contains(m, out.Separator):
			v.bad("output.separator", "the rules' move %q holds the separator %q", m, out.Separator)
			return
		}
	}
	if out.Unsolvable != "" && readsAsMoves(out.Unsolvable, out.Separator, names) {
		v.bad("output.unsolvable", "%q reads as moves", out.Unsolvable)
	}
}
