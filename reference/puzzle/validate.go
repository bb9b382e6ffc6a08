package puzzle

import (
	"fmt"
	"github.com/optjudge/optjudge/specfile"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/optjudge/optjudge/reference/puzzle/engine"
)

// Limits of a definition beyond the engine's (engine.MaxCells and so on).
const (
	maxSequence = 1000
	maxLabels   = 1000
	maxFacelets = 1024
)

var (
	nameRE  = regexp.MustCompile(`^[a-z0-9][a-z0-9-]*$`)
	valueRE = regexp.MustCompile(`^[a-z][a-z0-9_-]*$`)
	colorRE = regexp.MustCompile(`^(#[0-9a-fA-F]{3}|#[0-9a-fA-F]{6})$`)
)

// validator collects the problems of one definition.
type validator struct {
	d   *Definition
	es  Errors
	at  map[string]bool // fields already reported, so that one cause gives one message
	sym map[string]int  // symbol -> value
}

func (v *validator) bad(field, format string, args ...any) {
	if v.at[field] {
		return
	}
	v.at[field] = true
	v.es = append(v.es, &Error{File: v.d.file, Line: v.d.Line(field), Field: field, Msg: fmt.Sprintf(format, args...)})
}

// Validate checks every field and reports every problem found, each as
// "file:line: field: message", in file order (an Errors). It checks the
// puzzle too: that every move is a permutation of the cells, the goal can
// be reached, and the engine has a way to solve it (a table, linear
// algebra or a heuristic search) at every size.
func (d *Definition) Validate() error {
	v := &validator{d: d, at: map[string]bool{}, sym: map[string]int{}}
	if d.Rules != nil || d.Parts != nil {
		return v.rulesDefinition()
	}
	if d.Tws != nil && !d.tws {
		v.bad("tws", "the twsearch file is read by ParseFS or Load, beside the definition")
		return v.es
	}
	v.top()
	cells := v.cells()
	v.symbols()
	names := v.moves(cells)
	v.goal(cells)
	v.input(cells)
	v.output(names)
	v.layout(cells)
	v.search()
	if len(v.es) == 0 {
		v.instances()
	}
	if len(v.es) == 0 {
		return nil
	}
	sort.SliceStable(v.es, func(i, j int) bool { return v.es[i].Line < v.es[j].Line })
	return v.es
}

func (v *validator) top() {
	d := v.d
	if d.Name != "" && !nameRE.MatchString(d.Name) {
		v.bad("name", "%q: use lower-case letters, digits and '-'", d.Name)
	}
	switch d.Mode {
	case ModeAny, ModeShortest, ModeSmallest:
		if d.MaxMoves != 0 {
			v.bad("max_moves", "only with mode: at_most")
		}
	case ModeAtMost:
		if d.MaxMoves < 1 {
			v.bad("max_moves", "%d: mode at_most needs the bound, at least 1", d.MaxMoves)
		}
	default:
		v.bad("mode", "%q is not a mode (any, shortest, smallest, at_most)", d.Mode)
	}
	if d.Input.MaxDistance < 0 {
		v.bad("input.max_distance", "%d: want at least 0 (0: no bound)", d.Input.MaxDistance)
	}
	if d.Search.Memory < 0 {
		v.bad("search.memory", "%d MiB: want at least 1 (0: the default)", d.Search.Memory)
	}
	if d.Orientation < 0 || d.Orientation > engine.MaxOrient {
		v.bad("orientation", "%d: want 0 (none) up to %d", d.Orientation, engine.MaxOrient)
	}
	v.sets()
	if d.Grid != nil {
		g := d.Grid
		if g.Rows < 1 || g.Cols < 1 || g.Rows*g.Cols > engine.MaxCells {
			v.bad("grid", "%dx%d: want at least one row and column and at most %d cells", g.Rows, g.Cols, engine.MaxCells)
		}
	}
	if s := d.Size; s != nil {
		switch {
		case s.Min < 1 || s.Max < s.Min:
			v.bad("size", "min %d, max %d: want 1 <= min <= max", s.Min, s.Max)
		case s.Max != len(d.Cells):
			v.bad("size.max", "%d, but there are %d cells: a family is written for its largest size", s.Max, len(d.Cells))
		}
		switch {
		case d.Grid != nil:
			v.bad("size", "a family of puzzles has no grid")
		case d.Goal.State == nil:
			v.bad("size", "a family of puzzles needs goal.state")
		case d.Counts != nil:
			v.bad("counts", "a family of puzzles takes its counts from goal.state")
		case d.Input.Order != nil || d.Input.Stickers != nil || d.Input.Lines != 1:
			v.bad("size", "a family's case is one line: its size, then the cells in order")
		}
	}
}

// cells checks the cells (or the grid's default names) and returns them by
// name.
func (v *validator) cells() map[string]int {
	d := v.d
	names := d.Cells
	if names == nil && d.Grid != nil && d.Grid.Rows > 0 && d.Grid.Cols > 0 && d.Grid.Rows*d.Grid.Cols <= engine.MaxCells {
		names = gridNames(d.Grid)
	}
	if d.Sets != nil {
		names = d.cellNames()
	}
	cells := map[string]int{}
	switch {
	case len(names) == 0:
		v.bad("cells", "required (or a grid)")
	case len(names) > engine.MaxCells:
		v.bad("cells", "%d cells, more than %d", len(names), engine.MaxCells)
	case d.Grid != nil && len(names) != d.Grid.Rows*d.Grid.Cols:
		v.bad("cells", "%d cells for a %dx%d grid", len(names), d.Grid.Rows, d.Grid.Cols)
	}
	for i, c := range names {
		f := v.cellField(i)
		switch j, dup := cells[c]; {
		case !token(c) || c == ".":
			v.bad(f, "%q: a cell's name is a word without spaces, not \".\"", c)
		case dup:
			v.bad(f, "%q is cell %d already", c, j)
		}
		cells[c] = i
	}
	return cells
}

// sets checks the sets of pieces, given instead of cells and orientation.
func (v *validator) sets() {
	d := v.d
	if d.Sets == nil {
		return
	}
	for _, k := range []struct {
		key   string
		given bool
	}{{"cells", d.Cells != nil}, {"orientation", d.Orientation != 0}, {"grid", d.Grid != nil}, {"size", d.Size != nil}} {
		if k.given {
			v.bad(k.key, "not with sets: the sets give the cells and their orientations")
		}
	}
	if len(d.Sets) == 0 {
		v.bad("sets", "want at least one set")
	}
	names := map[string]int{}
	for i, s := range d.Sets {
		f := fmt.Sprintf("sets[%d]", i)
		switch j, dup := names[s.Name]; {
		case !token(s.Name):
			v.bad(f+".name", "%q: a set's name is a word without spaces", s.Name)
		case dup:
			v.bad(f+".name", "%q is set %d already", s.Name, j)
		}
		names[s.Name] = i
		if len(s.Cells) == 0 {
			v.bad(f+".cells", "want at least one cell")
		}
		if s.Orientation < 0 || s.Orientation > engine.MaxOrient {
			v.bad(f+".orientation", "%d: want 0 (none) up to %d", s.Orientation, engine.MaxOrient)
		}
	}
}

// cellField names the field of the i-th cell: cells[i], or with sets the
// set's cells[j].
func (v *validator) cellField(i int) string {
	if v.d.Sets == nil {
		return fmt.Sprintf("cells[%d]", i)
	}
	for j, s := range v.d.Sets {
		if i < len(s.Cells) {
			return fmt.Sprintf("sets[%d].cells[%d]", j, i)
		}
		i -= len(s.Cells)
	}
	return "sets"
}

// gridNames are the default names of a grid's cells: 1 to rows*cols.
func gridNames(g *Grid) []string {
	names := make([]string, g.Rows*g.Cols)
	for i := range names {
		names[i] = fmt.Sprint(i + 1)
	}
	return names
}

// token reports whether s is a non-empty word without white space.
func token(s string) bool {
	return s != "" && !strings.ContainsAny(s, " \t\r\n\v\f")
}

func (v *validator) symbols() {
	d := v.d
	switch {
	case len(d.Symbols) == 0:
		v.bad("symbols", "required: the alphabet of the cells")
	case len(d.Symbols) > engine.MaxSymbols:
		v.bad("symbols", "%d symbols, more than %d", len(d.Symbols), engine.MaxSymbols)
	}
	for i, s := range d.Symbols {
		f := fmt.Sprintf("symbols[%d]", i)
		switch j, dup := v.sym[s]; {
		case !token(s):
			v.bad(f, "%q: a symbol is a token without spaces", s)
		case dup:
			v.bad(f, "%q is symbol %d already", s, j)
		}
		v.sym[s] = i
	}
	for _, s := range sortedKeys(d.Counts) {
		f := "counts." + s
		if _, ok := v.sym[s]; !ok {
			v.bad(f, "%q is not a symbol", s)
		} else if d.Counts[s] < 0 {
			v.bad(f, "%d: want a count of at least 0", d.Counts[s])
		}
	}
	if d.Blank != "" {
		if _, ok := v.sym[d.Blank]; !ok {
			v.bad("blank", "%q is not a symbol", d.Blank)
		}
	}
}

func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// moves checks each move on its own; the puzzle as a whole is checked by
// instances. It returns the moves' indices by name.
func (v *validator) moves(cells map[string]int) map[string]int {
	d := v.d
	names := map[string]int{}
	switch {
	case len(d.Moves) == 0:
		v.bad("moves", "required: at least one move")
	case len(d.Moves) > engine.MaxMoves:
		v.bad("moves", "%d moves, more than %d", len(d.Moves), engine.MaxMoves)
	}
	slides := map[string]bool{}
	for i, m := range d.Moves {
		f := fmt.Sprintf("moves[%d]", i)
		switch j, dup := names[m.Name]; {
		case !token(m.Name):
			v.bad(f+".name", "%q: a move's name is a token without spaces", m.Name)
		case dup:
			v.bad(f+".name", "%q is move %d already", m.Name, j)
		}
		v.move(f, m, cells, names)
		names[m.Name] = i
		if m.Slide != "" {
			slides[m.Slide] = true
		}
		if _, given := d.lines[f+".cost"]; given && (m.Cost < 1 || m.Cost > 1000) {
			v.bad(f+".cost", "%d: want 1 to 1000", m.Cost)
		}
	}
	for i, m := range d.Moves {
		if opp := oppositeSlide(m.Slide); opp != "" && !slides[opp] {
			v.bad(fmt.Sprintf("moves[%d].slide", i), "%s without a move that slides %s: every slide needs its opposite", m.Slide, opp)
		}
	}
	return names
}

func (v *validator) move(f string, m Move, cells, earlier map[string]int) {
	d := v.d
	kinds := 0
	for _, given := range []bool{m.Cycles != nil, m.Reverse != nil, m.Add != nil, m.Slide != "", m.Sequence != nil, m.Inverse != ""} {
		if given {
			kinds++
		}
	}
	if kinds != 1 {
		v.bad(f, "give exactly one of cycles, reverse, add, slide, sequence and inverse")
		return
	}
	switch {
	case m.Cycles != nil:
		v.cycles(f, m, cells)
	case m.Reverse != nil:
		if len(m.Reverse) < 2 {
			v.bad(f+".reverse", "want at least two cells")
		}
		v.distinctCells(f+".reverse", m.Reverse, cells)
	case m.Add != nil:
		if len(d.Symbols) < 2 {
			v.bad(f+".add", "adding needs at least two symbols")
		}
		if len(m.Add) == 0 || len(m.Add) > engine.MaxCells*engine.MaxSymbols {
			v.bad(f+".add", "want 1 to %d cells", engine.MaxCells*engine.MaxSymbols)
		}
		for j, c := range m.Add {
			if _, ok := cells[c]; !ok {
				v.bad(fmt.Sprintf("%s.add[%d]", f, j), "%q is not a cell", c)
			}
		}
	case m.Slide != "":
		switch {
		case oppositeSlide(m.Slide) == "":
			v.bad(f+".slide", "%q is not a direction (up, down, left, right)", m.Slide)
		case d.Grid == nil:
			v.bad(f+".slide", "a slide needs a grid")
		case d.Blank == "":
			v.bad(f+".slide", "a slide needs a blank")
		}
	case m.Sequence != nil:
		if len(m.Sequence) == 0 || len(m.Sequence) > maxSequence {
			v.bad(f+".sequence", "want 1 to %d moves", maxSequence)
		}
		for j, name := range m.Sequence {
			v.earlierMove(fmt.Sprintf("%s.sequence[%d]", f, j), name, earlier)
		}
	case m.Inverse != "":
		v.earlierMove(f+".inverse", m.Inverse, earlier)
	}
	if m.Twist != nil && m.Cycles == nil {
		v.bad(f+".twist", "only with cycles")
	}
}

func (v *validator) earlierMove(f, name string, earlier map[string]int) {
	j, ok := earlier[name]
	switch {
	case !ok:
		v.bad(f, "%q is not a move declared before this one", name)
	case v.d.Moves[j].Slide != "":
		v.bad(f, "%q is a slide: a move made of others is made of permutations and additions", name)
	}
}

func (v *validator) cycles(f string, m Move, cells map[string]int) {
	seen := map[string]string{}
	for j, cyc := range m.Cycles {
		cf := fmt.Sprintf("%s.cycles[%d]", f, j)
		if len(cyc) == 0 {
			v.bad(cf, "empty cycle")
		}
		for k, c := range cyc {
			kf := fmt.Sprintf("%s[%d]", cf, k)
			if _, ok := cells[c]; !ok {
				v.bad(kf, "%q is not a cell", c)
				continue
			}
			if prev, dup := seen[c]; dup {
				v.bad(kf, "cell %q is in %s already: a move must be a permutation, moving each cell at most once", c, prev)
			}
			seen[c] = kf
		}
	}
	if v.d.Sets != nil {
		set := v.d.setOf()
		for j, cyc := range m.Cycles {
			for k, c := range cyc {
				if i, ok := cells[c]; ok && set[i] != set[cells[cyc[0]]] {
					v.bad(fmt.Sprintf("%s.cycles[%d][%d]", f, j, k), "%q is a cell of set %s, %q of set %s: a cycle stays within a set", c, v.d.Sets[set[i]].Name, cyc[0], v.d.Sets[set[cells[cyc[0]]]].Name)
				}
			}
		}
	}
	if m.Twist == nil {
		return
	}
	mods, largest := v.d.orientations()
	if largest < 2 {
		v.bad(f+".twist", "a twist needs orientation of at least 2")
		return
	}
	for _, c := range sortedKeys(m.Twist) {
		if i, ok := cells[c]; !ok {
			v.bad(f+".twist."+c, "%q is not a cell", c)
		} else if mods[i] < 2 {
			v.bad(f+".twist."+c, "cell %q is of set %s, whose pieces have no orientation", c, v.d.Sets[v.d.setOf()[i]].Name)
		}
	}
}

// distinctCells checks a list of cells that must each be a cell, once.
func (v *validator) distinctCells(f string, list []string, cells map[string]int) {
	seen := map[string]bool{}
	for j, c := range list {
		jf := fmt.Sprintf("%s[%d]", f, j)
		if _, ok := cells[c]; !ok {
			v.bad(jf, "%q is not a cell", c)
		} else if seen[c] {
			v.bad(jf, "cell %q is listed twice", c)
		}
		seen[c] = true
	}
}

func oppositeSlide(s string) string {
	return map[string]string{"up": "down", "down": "up", "left": "right", "right": "left"}[s]
}

func (v *validator) goal(cells map[string]int) {
	g := v.d.Goal
	given := 0
	for _, b := range []bool{g.State != nil, g.States != nil, g.Same != nil} {
		if b {
			given++
		}
	}
	if given != 1 {
		v.bad("goal", "give exactly one of state, states and same")
		return
	}
	if g.State != nil {
		v.goalState("goal.state", g.State, len(cells))
	}
	for i, s := range g.States {
		v.goalState(fmt.Sprintf("goal.states[%d]", i), s, len(cells))
	}
	if g.States != nil && len(g.States) == 0 {
		v.bad("goal.states", "want at least one state")
	}
	if g.Same != nil {
		if len(g.Same) == 0 {
			v.bad("goal.same", "want at least one cell")
		}
		v.distinctCells("goal.same", g.Same, cells)
	}
	names := map[string]bool{}
	for i, val := range g.Values {
		f := fmt.Sprintf("goal.values[%d]", i)
		switch {
		case !valueRE.MatchString(val.Name) || val.Name == LineMoves:
			v.bad(f+".name", "%q: a value's name is a lower-case word, not %q", val.Name, LineMoves)
		case names[val.Name]:
			v.bad(f+".name", "%q is given twice", val.Name)
		}
		names[val.Name] = true
		if _, ok := cells[val.Cell]; !ok {
			v.bad(f+".cell", "%q is not a cell", val.Cell)
		}
	}
}

func (v *validator) goalState(f string, s []string, cells int) {
	if len(s) != cells {
		v.bad(f, "%d symbols for %d cells", len(s), cells)
	}
	for i, sym := range s {
		if _, ok := v.sym[sym]; !ok {
			v.bad(fmt.Sprintf("%s[%d]", f, i), "%q is not a symbol (%s)", sym, strings.Join(v.d.Symbols, " "))
		}
	}
}

func (v *validator) input(cells map[string]int) {
	in := v.d.Input
	switch in.Cases {
	case CasesOne, CasesUntilEOF:
		if in.Terminator != "" {
			v.bad("input.terminator", "only with cases: terminated")
		}
	case CasesTerminated:
		if !validLine(in.Terminator) || in.Terminator == "" {
			v.bad("input.terminator", "required with cases: terminated: the text of the last line")
		}
	default:
		v.bad("input.cases", "%q is not a way of giving cases (one, until_eof, terminated)", in.Cases)
	}
	if in.BlankLineBetween && in.Cases == CasesOne {
		v.bad("input.blank_line_between", "only with several cases a file")
	}
	switch in.Separator {
	case " ":
	case "":
		if in.Loose {
			v.bad("input.loose", "only with separator \" \"")
		}
		for i, s := range v.d.Symbols {
			if len(s) != 1 && in.Stickers == nil {
				v.bad(fmt.Sprintf("symbols[%d]", i), "%q: with input.separator \"\" every symbol is one character", s)
			}
		}
	case "none", "null", "nothing":
		v.bad("input.separator", "%q: for tokens of one character each, with nothing between them, write separator: \"\"", in.Separator)
	default:
		v.bad("input.separator", "%q: want \" \" or \"\"", in.Separator)
	}
	tokens := len(cells)
	if in.Order != nil {
		if len(in.Order) != len(cells) {
			v.bad("input.order", "%d cells, want each of the %d cells once", len(in.Order), len(cells))
		}
		v.distinctCells("input.order", in.Order, cells)
	}
	if in.Stickers != nil {
		tokens = v.stickers(cells)
	}
	if in.Lines < 1 || in.Lines > tokens || tokens%in.Lines != 0 {
		v.bad("input.lines", "%d: want a number of lines that shares the %d tokens of a case equally", in.Lines, tokens)
	}
}

// validLine reports whether s fits on one line.
func validLine(s string) bool { return !strings.ContainsAny(s, "\r\n") }

// stickers checks the sticker input and returns the number of facelets.
func (v *validator) stickers(cells map[string]int) int {
	st := v.d.Input.Stickers
	mods, largest := v.d.orientations()
	if largest < 2 {
		v.bad("input.stickers", "stickers need orientation of at least 2")
		return len(cells)
	}
	n := 0
	for _, k := range mods {
		n += k
	}
	if n > maxFacelets {
		v.bad("input.stickers", "%d facelets, more than %d", n, maxFacelets)
		return len(cells)
	}
	used := make([]string, n+1)
	for _, c := range sortedKeys(st.Cells) {
		f := "input.stickers.cells." + c
		if _, ok := cells[c]; !ok {
			v.bad(f, "%q is not a cell", c)
			continue
		}
		if k := mods[cells[c]]; len(st.Cells[c]) != k {
			v.bad(f, "%d facelets, want %d (the orientation)", len(st.Cells[c]), k)
		}
		for _, x := range st.Cells[c] {
			switch {
			case x < 1 || x > n:
				v.bad(f, "facelet %d: want 1 to %d", x, n)
			case used[x] != "":
				v.bad(f, "facelet %d is cell %s's already", x, used[x])
			default:
				used[x] = c
			}
		}
	}
	for _, c := range v.d.cellNames() {
		if _, ok := st.Cells[c]; !ok {
			v.bad("input.stickers.cells", "cell %q has no facelets", c)
		}
	}
	v.pieces(mods)
	return n
}

// pieces checks the pieces' colours: k each, and no two (piece, twist)
// showing the same colours, so that every cell reads one way.
func (v *validator) pieces(mods []int) {
	st := v.d.Input.Stickers
	reads := map[string]string{}
	// A piece's set is that of the cells that hold it in the goal.
	setOf, set := v.d.setOf(), map[string]int{}
	cellNames := v.d.cellNames()
	if g := v.d.Goal.State; len(g) == len(cellNames) {
		for c, sym := range g {
			set[sym] = c
		}
	}
	for _, p := range sortedKeys(st.Pieces) {
		f := "input.stickers.pieces." + p
		cols := st.Pieces[p]
		if _, ok := v.sym[p]; !ok {
			v.bad(f, "%q is not a symbol", p)
			continue
		}
		k, group := mods[0], 0
		if c, ok := set[p]; ok {
			k, group = mods[c], setOf[c]
		} else if v.d.Sets != nil {
			v.bad(f, "%q is not in goal.state: with sets, a piece's set is that of its goal cells", p)
			continue
		}
		if len(cols) != k {
			v.bad(f, "%d colours, want %d (the orientation)", len(cols), k)
			continue
		}
		for _, c := range cols {
			if !token(c) || v.d.Input.Separator == "" && len(c) != 1 {
				v.bad(f, "%q: a colour is a token (one character with input.separator \"\")", c)
			}
		}
		for t := range k {
			rot := make([]string, k)
			for j := range k {
				rot[(t+j)%k] = cols[j]
			}
			key := strings.Join(rot, " ")
			if q, dup := reads[fmt.Sprint(group, " ", key)]; dup {
				v.bad(f, "reads %s like %s: every piece and twist of a set must show other colours", key, q)
			}
			reads[fmt.Sprint(group, " ", key)] = fmt.Sprintf("%s twisted %d", p, t)
		}
	}
	for _, s := range v.d.Symbols {
		if _, ok := st.Pieces[s]; !ok {
			v.bad("input.stickers.pieces", "symbol %q has no colours", s)
		}
	}
}

func (v *validator) output(moves map[string]int) {
	out := v.d.Output
	for _, f := range []struct{ name, s string }{{"separator", out.Separator}, {"empty", out.Empty}, {"unsolvable", out.Unsolvable}} {
		if !validLine(f.s) {
			v.bad("output."+f.name, "%q: want text without line breaks", f.s)
		}
	}
	if s := out.Separator; s == "none" || s == "null" || s == "nothing" {
		v.bad("output.separator", "%q would be written between the moves, word for word: for moves written with nothing between them, write separator: \"\"", s)
	}
	if out.Unsolvable != "" && out.Unsolvable == out.Empty {
		v.bad("output.unsolvable", "%q is the empty answer's text too", out.Unsolvable)
	}
	if out.Unsolvable != "" && readsAsMoves(out.Unsolvable, out.Separator, moves) {
		v.bad("output.unsolvable", "%q reads as moves", out.Unsolvable)
	}
	for i, m := range v.d.Moves {
		switch {
		case out.Separator == "" && len(m.Name) != 1:
			v.bad(fmt.Sprintf("moves[%d].name", i), "%q: with output.separator \"\" every move's name is one character", m.Name)
		case out.Separator != "" && strings.Contains(m.Name, out.Separator):
			v.bad(fmt.Sprintf("moves[%d].name", i), "%q holds the output's separator %q", m.Name, out.Separator)
		}
	}
	switch out.Order {
	case OrderAsMade, OrderAscending:
	default:
		v.bad("output.order", "%q is not an order (as_made, ascending)", out.Order)
	}
	values := map[string]bool{}
	for _, val := range v.d.Goal.Values {
		values[val.Name] = true
	}
	used := map[string]bool{}
	for i, l := range out.Lines {
		f := fmt.Sprintf("output.lines[%d]", i)
		switch {
		case used[l]:
			v.bad(f, "%q is given twice", l)
		case l != LineMoves && !values[l]:
			v.bad(f, "%q is neither %q nor a goal value", l, LineMoves)
		}
		used[l] = true
	}
	if !used[LineMoves] {
		v.bad("output.lines", "want the line %q", LineMoves)
	}
	for i, val := range v.d.Goal.Values {
		if !used[val.Name] {
			v.bad(fmt.Sprintf("goal.values[%d]", i), "%q is not in output.lines", val.Name)
		}
	}
}

// readsAsMoves reports whether text is a sequence of moves as the output
// writes them.
func readsAsMoves(text, sep string, moves map[string]int) bool {
	var toks []string
	if sep == "" {
		for _, r := range text {
			toks = append(toks, string(r))
		}
	} else {
		toks = strings.Split(text, sep)
	}
	for _, t := range toks {
		if _, ok := moves[t]; !ok {
			return false
		}
	}
	return true
}

func (v *validator) layout(cells map[string]int) {
	l := v.d.Layout
	if l.Grid != nil && l.Circle != nil {
		v.bad("layout", "give grid or circle, not both")
	}
	places := map[string]bool{}
	what := "cell"
	if v.d.Input.Stickers != nil && l.Grid != nil {
		what = "facelet"
		mods, _ := v.d.orientations()
		n := 0
		for _, k := range mods {
			n += k
		}
		for i := range n {
			places[fmt.Sprint(i+1)] = true
		}
	} else {
		for c := range cells {
			places[c] = true
		}
	}
	seen := map[string]string{}
	check := func(f, name string) {
		switch {
		case name == ".":
		case !places[name]:
			v.bad(f, "%q is not a %s", name, what)
		case seen[name] != "":
			v.bad(f, "%s %q is at %s already", what, name, seen[name])
		default:
			seen[name] = f
		}
	}
	for i, row := range l.Grid {
		for _, name := range strings.Fields(row) {
			check(fmt.Sprintf("layout.grid[%d]", i), name)
		}
	}
	for i, name := range l.Circle {
		check(fmt.Sprintf("layout.circle[%d]", i), name)
	}
	if (l.Grid != nil || l.Circle != nil) && len(seen) < len(places) {
		var missing []string
		for p := range places {
			if seen[p] == "" {
				missing = append(missing, p)
			}
		}
		slices.SortFunc(missing, func(a, b string) int { return strings.Compare(fmt.Sprintf("%8s", a), fmt.Sprintf("%8s", b)) })
		field := "layout.grid"
		if l.Circle != nil {
			field = "layout.circle"
		}
		if len(missing) > 1 {
			what += "s"
		}
		v.bad(field, "misses %d %s: %s", len(missing), what, strings.Join(missing, " "))
	}
	switch l.Show {
	case ShowSymbol, ShowTile, ShowDial, ShowOnOff, ShowBar:
	case ShowSticker:
		if len(l.Colors) == 0 {
			v.bad("layout.colors", "required with show: sticker")
		}
	default:
		v.bad("layout.show", "%q is not a way of drawing (symbol, tile, sticker, dial, onoff, bar)", l.Show)
	}
	v.colors()
	if len(l.Labels) > maxLabels {
		v.bad("layout.labels", "%d labels, more than %d", len(l.Labels), maxLabels)
	}
	for i, lb := range l.Labels {
		if strings.TrimSpace(lb.Text) == "" || !validLine(lb.Text) {
			v.bad(fmt.Sprintf("layout.labels[%d].text", i), "want a text on one line")
		}
	}
}

// colors checks layout.colors: keys are symbols, sticker colours or
// pieces' names, values CSS colours.
func (v *validator) colors() {
	keys := map[string]bool{}
	for s := range v.sym {
		keys[s] = true
	}
	if st := v.d.Input.Stickers; st != nil {
		for _, cols := range st.Pieces {
			for _, c := range cols {
				keys[c] = true
			}
		}
	}
	for _, p := range v.d.Parts {
		for _, name := range p.Pieces {
			keys[name] = true
		}
	}
	for _, k := range sortedKeys(v.d.Layout.Colors) {
		f := "layout.colors." + k
		if !keys[k] {
			v.bad(f, "%q is neither a symbol, a sticker's colour nor a piece", k)
		}
		if c := v.d.Layout.Colors[k]; !colorRE.MatchString(c) && !cssColors[c] {
			msg := fmt.Sprintf("%q: want #rgb, #rrggbb or a CSS colour's name (red, orange, gold, forestgreen, royalblue, ...)", c)
			if near := specfile.Nearest(c, cssColorNames()); near != "" {
				msg = fmt.Sprintf("%q is not a colour: did you mean %s? (#rgb, #rrggbb or a CSS colour's name)", c, near)
			}
			v.bad(f, "%s", msg)
		}
	}
	if v.d.Layout.Show == ShowSticker && v.d.Input.Stickers != nil {
		for k := range keys {
			if _, isSym := v.sym[k]; !isSym && v.d.Layout.Colors[k] == "" {
				v.bad("layout.colors", "sticker colour %q has no colour to draw it in", k)
			}
		}
	}
}

func (v *validator) search() {
	s := v.d.Search
	if m, ok := engine.ParseMethod(s.Method); !ok {
		v.bad("search.method", "%q is not a method (auto, table, linear, search)", s.Method)
	} else if m > engine.MethodSearch {
		v.bad("search.method", "%s is a method for rules", m)
	}
	if s.Patterns == nil {
		return
	}
	if v.d.Blank == "" {
		v.bad("search.patterns", "only for a sliding puzzle")
		return
	}
	seen := map[string]bool{}
	for i, g := range s.Patterns {
		f := fmt.Sprintf("search.patterns[%d]", i)
		if len(g) == 0 {
			v.bad(f, "empty group")
		}
		for j, sym := range g {
			jf := fmt.Sprintf("%s[%d]", f, j)
			switch _, ok := v.sym[sym]; {
			case !ok:
				v.bad(jf, "%q is not a symbol", sym)
			case sym == v.d.Blank:
				v.bad(jf, "the blank is in no group")
			case seen[sym]:
				v.bad(jf, "%q is in another group already", sym)
			}
			seen[sym] = true
		}
	}
}

// instances builds the puzzle at every size and has the engine check it.
func (v *validator) instances() {
	lo, hi := v.d.Sizes()
	for n := lo; n <= hi; n++ {
		in, err := v.d.instance(n)
		if err != nil {
			v.es = append(v.es, err.(*Error))
			return
		}
		if err := in.check(); err != nil {
			v.es = append(v.es, err.(*Error))
			return
		}
	}
}

// cssColors are the colour names of CSS (CSS Color Module Level 4's named
// colours), which the drawings' SVG takes.
var cssColors = func() map[string]bool {
	m := map[string]bool{}
	for _, c := range strings.Fields(`aliceblue antiquewhite aqua aquamarine azure beige bisque black
		blanchedalmond blue blueviolet brown burlywood cadetblue chartreuse chocolate coral
		cornflowerblue cornsilk crimson cyan darkblue darkcyan darkgoldenrod darkgray darkgreen
		darkgrey darkkhaki darkmagenta darkolivegreen darkorange darkorchid darkred darksalmon
		darkseagreen darkslateblue darkslategray darkslategrey darkturquoise darkviolet deeppink
		deepskyblue dimgray dimgrey dodgerblue firebrick floralwhite forestgreen fuchsia gainsboro
		ghostwhite gold goldenrod gray green greenyellow grey honeydew hotpink indianred indigo
		ivory khaki lavender lavenderblush lawngreen lemonchiffon lightblue lightcoral lightcyan
		lightgoldenrodyellow lightgray lightgreen lightgrey lightpink lightsalmon lightseagreen
		lightskyblue lightslategray lightslategrey lightsteelblue lightyellow lime limegreen linen
		magenta maroon mediumaquamarine mediumblue mediumorchid mediumpurple mediumseagreen
		mediumslateblue mediumspringgreen mediumturquoise mediumvioletred midnightblue mintcream
		mistyrose moccasin navajowhite navy oldlace olive olivedrab orange orangered orchid
		palegoldenrod palegreen paleturquoise palevioletred papayawhip peachpuff peru pink plum
		powderblue purple rebeccapurple red rosybrown royalblue saddlebrown salmon sandybrown
		seagreen seashell sienna silver skyblue slateblue slategray slategrey snow springgreen
		steelblue tan teal thistle tomato turquoise violet wheat white whitesmoke yellow
		yellowgreen`) {
		m[c] = true
	}
	return m
}()

func cssColorNames() []string {
	names := make([]string, 0, len(cssColors))
	for c := range cssColors {
		names = append(names, c)
	}
	sort.Strings(names)
	return names
}
