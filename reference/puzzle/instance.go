package puzzle

import (
	"fmt"
	"strings"

	"github.com/optjudge/optjudge/reference/puzzle/engine"
)

// Instance is a valid definition at one size, its names by index: what
// the judging side needs to read cases, write answers and draw positions,
// and the engine's Spec.
type Instance struct {
	Def  *Definition
	Size int // the size of a family's puzzle; 0 for a single puzzle

	Cells   []string // the cells' names by index
	Symbols []string // the symbols by value
	Moves   []string // the moves' names by index, in declared order
	// Order lists the cells in the order a case gives them.
	Order []int
	// Values are the goal's values, each the symbol in a cell.
	Values []ValueCell
	// Facelets lists, for the sticker input, each cell's facelets (from 0,
	// in the input's order) in orientation order; Colors each symbol's
	// colours in the same order. Nil without stickers.
	Facelets [][]int
	Colors   [][]string
	// FaceletCount is the number of facelets of the sticker input (0
	// without): every cell's, as many as its orientations.
	FaceletCount int
	// SetOf gives each cell's set (from 0, in the order of sets; 0 for a
	// definition of one set), and SymbolSet each symbol's: the set whose
	// cells hold it in the goal (-1 for a symbol the goal does not hold).
	SetOf     []int
	SymbolSet []int
	// Parts are the parts of a puzzle given by rules, nil for others.
	Parts []RulePart

	Spec *engine.Spec

	cell, symbol, move map[string]int
}

// ValueCell is a goal value: the symbol in Cell of the final state.
type ValueCell struct {
	Name string
	Cell int
}

// Sizes returns the range of sizes of a family of puzzles, and 0, 0 for a
// single puzzle.
func (d *Definition) Sizes() (lo, hi int) {
	if d.Size == nil {
		return 0, 0
	}
	return d.Size.Min, d.Size.Max
}

// cellNames returns the cells' names, the grid's default ones when the
// definition lists none.
func (d *Definition) cellNames() []string {
	if d.Sets != nil {
		var names []string
		for _, s := range d.Sets {
			names = append(names, s.Cells...)
		}
		return names
	}
	if d.Cells == nil && d.Grid != nil {
		return gridNames(d.Grid)
	}
	return d.Cells
}

// orientations returns the number of orientations of each cell's pieces
// (at least 1) and the largest, 0 when no piece has orientations.
func (d *Definition) orientations() (per []int, largest int) {
	if d.Sets == nil {
		per = make([]int, len(d.cellNames()))
		for i := range per {
			per[i] = max(d.Orientation, 1)
		}
		return per, d.Orientation
	}
	for _, s := range d.Sets {
		for range s.Cells {
			per = append(per, max(s.Orientation, 1))
		}
		if s.Orientation >= 2 {
			largest = max(largest, s.Orientation)
		}
	}
	return per, largest
}

// setOf returns each cell's set, from 0.
func (d *Definition) setOf() []int {
	if d.Sets == nil {
		return make([]int, len(d.cellNames()))
	}
	var out []int
	for i, s := range d.Sets {
		for range s.Cells {
			out = append(out, i)
		}
	}
	return out
}

// Instance returns the puzzle of the given size of a valid definition; size
// is 0 for a single puzzle, and Min to Max for a family.
func (d *Definition) Instance(size int) (*Instance, error) {
	in, err := d.instance(size)
	if err != nil {
		return nil, err
	}
	return in, nil
}

// instance builds an Instance; its errors are *Error.
func (d *Definition) instance(size int) (*Instance, error) {
	lo, hi := d.Sizes()
	if d.Rules != nil && size >= lo && size <= hi {
		return d.rulesInstance(size)
	}
	if size < lo || size > hi {
		if d.Size == nil {
			return nil, d.errorf("size", "this puzzle has no sizes: want size 0, got %d", size)
		}
		return nil, d.errorf("size", "size %d out of range %d to %d", size, lo, hi)
	}
	cells, symbols := d.cellNames(), d.Symbols
	if size > 0 {
		cells, symbols = cells[:size], symbols[:size]
	}
	in := &Instance{Def: d, Size: size, Cells: cells, Symbols: symbols,
		cell: index(cells), symbol: index(symbols), move: map[string]int{}}
	mods, largest := d.orientations()
	sp := &engine.Spec{Cells: len(cells), Symbols: len(symbols), Orient: largest, Blank: -1}
	if d.Sets != nil && largest >= 2 {
		sp.OrientOf = make([]int, len(cells))
		for c, k := range mods {
			if k >= 2 {
				sp.OrientOf[c] = k
			}
		}
	}
	if d.Grid != nil {
		sp.Rows, sp.Cols = d.Grid.Rows, d.Grid.Cols
	}
	if d.Blank != "" {
		sp.Blank = in.symbol[d.Blank]
	}
	if err := in.buildMoves(sp); err != nil {
		return nil, err
	}
	if err := in.buildGoal(sp); err != nil {
		return nil, err
	}
	in.buildIO(sp)
	m, _ := engine.ParseMethod(d.Search.Method)
	sp.Method = m
	sp.Memory = uint64(d.Search.Memory) << 20
	for _, g := range d.Search.Patterns {
		var group []int
		for _, s := range g {
			group = append(group, in.symbol[s])
		}
		sp.Patterns = append(sp.Patterns, group)
	}
	in.Spec = sp
	if err := sp.Check(); err != nil {
		return nil, d.errorf("", "%v", err)
	}
	return in, nil
}

func index(names []string) map[string]int {
	m := make(map[string]int, len(names))
	for i, n := range names {
		m[n] = i
	}
	return m
}

func (d *Definition) errorf(field, format string, args ...any) *Error {
	return &Error{File: d.file, Line: d.Line(field), Field: field, Msg: fmt.Sprintf(format, args...)}
}

// buildMoves makes the engine's moves: every declared move, at a family's
// size n only those that touch the first n cells alone.
func (in *Instance) buildMoves(sp *engine.Spec) error {
	d := in.Def
	built := make([]*engine.Move, len(d.Moves)) // by declared index; nil if left out
	for i, m := range d.Moves {
		f := fmt.Sprintf("moves[%d]", i)
		mv, ok := in.buildMove(sp, m, built)
		if !ok {
			continue
		}
		mv.Name, mv.Cost = m.Name, max(m.Cost, 1)
		if mv.Slide == engine.SlideNone && sp.IsIdentity(mv) {
			return d.errorf(f, "%q does nothing", m.Name)
		}
		built[i] = mv
		in.move[m.Name] = len(sp.Moves)
		in.Moves = append(in.Moves, m.Name)
		sp.Moves = append(sp.Moves, *mv)
	}
	if len(sp.Moves) == 0 {
		return d.errorf("moves", "no move at size %d", in.Size)
	}
	return nil
}

// buildMove makes one move; false when it touches a cell this size lacks.
func (in *Instance) buildMove(sp *engine.Spec, m Move, built []*engine.Move) (*engine.Move, bool) {
	cell := func(name string) (int, bool) {
		c, ok := in.cell[name]
		return c, ok
	}
	mv := &engine.Move{}
	switch {
	case m.Cycles != nil:
		perm := identity(sp.Cells)
		for _, cyc := range m.Cycles {
			for k, name := range cyc {
				from, ok1 := cell(name)
				to, ok2 := cell(cyc[(k+1)%len(cyc)])
				if !ok1 || !ok2 {
					return nil, false
				}
				perm[to] = from
			}
		}
		mv.Perm = perm
		if m.Twist != nil {
			mv.Twist = make([]int, sp.Cells)
			for name, t := range m.Twist {
				c, ok := cell(name)
				if !ok {
					return nil, false
				}
				k := sp.Mod(c)
				mv.Twist[c] = ((t % k) + k) % k
			}
		}
	case m.Reverse != nil:
		perm := identity(sp.Cells)
		for k, name := range m.Reverse {
			to, ok1 := cell(name)
			from, ok2 := cell(m.Reverse[len(m.Reverse)-1-k])
			if !ok1 || !ok2 {
				return nil, false
			}
			perm[to] = from
		}
		mv.Perm = perm
	case m.Add != nil:
		mv.Add = make([]int, sp.Cells)
		for _, name := range m.Add {
			c, ok := cell(name)
			if !ok {
				return nil, false
			}
			mv.Add[c] = (mv.Add[c] + 1) % sp.Symbols
		}
	case m.Slide != "":
		if in.Size > 0 {
			return nil, false
		}
		mv.Slide = map[string]engine.Direction{"up": engine.SlideUp, "down": engine.SlideDown,
			"left": engine.SlideLeft, "right": engine.SlideRight}[m.Slide]
	case m.Sequence != nil:
		var acc *engine.Move
		for _, name := range m.Sequence {
			part := built[in.Def.moveIndex(name)]
			if part == nil {
				return nil, false
			}
			if acc == nil {
				c := *part
				acc = &c
			} else {
				c := sp.Then(acc, part)
				acc = &c
			}
		}
		*mv = *acc
	case m.Inverse != "":
		part := built[in.Def.moveIndex(m.Inverse)]
		if part == nil {
			return nil, false
		}
		*mv = sp.Inverse(part)
	}
	return mv, true
}

func identity(n int) []int {
	p := make([]int, n)
	for i := range p {
		p[i] = i
	}
	return p
}

// moveIndex is the declared index of the move called name, -1 if none.
func (d *Definition) moveIndex(name string) int {
	for i, m := range d.Moves {
		if m.Name == name {
			return i
		}
	}
	return -1
}

func (in *Instance) buildGoal(sp *engine.Spec) error {
	d := in.Def
	g := d.Goal
	states := g.States
	if g.State != nil {
		states = [][]string{g.State}
	}
	for _, s := range states {
		if in.Size > 0 {
			s = s[:in.Size]
		}
		st := make([]uint8, len(s))
		for i, sym := range s {
			v, ok := in.symbol[sym]
			if !ok {
				return d.errorf("goal", "at size %d the goal holds %q, which is not among the first %d symbols", in.Size, sym, in.Size)
			}
			st[i] = uint8(v)
		}
		sp.Goal.States = append(sp.Goal.States, st)
	}
	for _, c := range g.Same {
		sp.Goal.Same = append(sp.Goal.Same, in.cell[c])
	}
	for _, val := range g.Values {
		in.Values = append(in.Values, ValueCell{Name: val.Name, Cell: in.cell[val.Cell]})
	}
	return in.buildCounts(sp)
}

// buildCounts sets the counts of a puzzle whose moves only move symbols
// around: from counts, or else from the goal state.
func (in *Instance) buildCounts(sp *engine.Spec) error {
	d := in.Def
	for _, m := range sp.Moves {
		if m.Add != nil {
			if d.Counts != nil {
				return d.errorf("counts", "moves that add change how many cells hold a symbol: counts do not apply")
			}
			return nil
		}
	}
	switch {
	case d.Counts != nil:
		sp.Counts = make([]int, sp.Symbols)
		total := 0
		for s, n := range d.Counts {
			sp.Counts[in.symbol[s]] = n
			total += n
		}
		if total != sp.Cells {
			return d.errorf("counts", "the counts add up to %d, want the %d cells", total, sp.Cells)
		}
	case len(sp.Goal.States) > 0:
		sp.Counts = make([]int, sp.Symbols)
		for _, v := range sp.Goal.States[0] {
			sp.Counts[v]++
		}
	default:
		return d.errorf("counts", "required with goal.same: how many cells hold each symbol")
	}
	return nil
}

func (in *Instance) buildIO(sp *engine.Spec) {
	d := in.Def
	if d.Input.Order != nil {
		for _, c := range d.Input.Order {
			in.Order = append(in.Order, in.cell[c])
		}
	} else {
		in.Order = identity(len(in.Cells))
	}
	in.SetOf = d.setOf()[:len(in.Cells)]
	in.SymbolSet = make([]int, len(in.Symbols))
	for v := range in.SymbolSet {
		in.SymbolSet[v] = -1
	}
	if len(sp.Goal.States) > 0 {
		for c, v := range sp.Goal.States[0] {
			in.SymbolSet[v] = in.SetOf[c]
		}
	}
	st := d.Input.Stickers
	if st == nil {
		return
	}
	mods, _ := d.orientations()
	for _, k := range mods[:len(in.Cells)] {
		in.FaceletCount += k
	}
	in.Facelets = make([][]int, len(in.Cells))
	for name, fs := range st.Cells {
		c := in.cell[name]
		for _, f := range fs {
			in.Facelets[c] = append(in.Facelets[c], f-1)
		}
	}
	in.Colors = make([][]string, len(in.Symbols))
	for name, cols := range st.Pieces {
		in.Colors[in.symbol[name]] = append([]string(nil), cols...)
	}
}

// Cell returns the index of the cell called name.
func (in *Instance) Cell(name string) (int, bool) { i, ok := in.cell[name]; return i, ok }

// Symbol returns the value of the symbol written tok.
func (in *Instance) Symbol(tok string) (int, bool) { i, ok := in.symbol[tok]; return i, ok }

// Move returns the index of the move called name.
func (in *Instance) Move(name string) (int, bool) { i, ok := in.move[name]; return i, ok }

// FormatMoves writes moves (indices into Moves) as the output's moves line,
// the empty answer's text for none.
func (in *Instance) FormatMoves(moves []int) string {
	if len(moves) == 0 {
		return in.Def.Output.Empty
	}
	names := make([]string, len(moves))
	for i, m := range moves {
		names[i] = in.Moves[m]
	}
	return strings.Join(names, in.Def.Output.Separator)
}

// ValuesOf returns the goal's values in st, in order: the symbol in each
// value's cell (the rotation game's centre digit).
func (in *Instance) ValuesOf(st engine.State) []string {
	out := make([]string, len(in.Values))
	for i, v := range in.Values {
		out[i] = in.Symbols[st.Cells[v.Cell]]
	}
	return out
}

// check finds what makes the instance's goal unreachable or its answers
// ill-defined, before any search.
func (in *Instance) check() error {
	d, sp := in.Def, in.Spec
	at := ""
	if in.Size > 0 {
		at = fmt.Sprintf(" (at size %d)", in.Size)
	}
	if err := in.checkGoalCounts(at); err != nil {
		return err
	}
	if _, err := engine.New(sp, engine.Options{Simulate: d.Mode == ModeAtMost}); err != nil {
		return d.errorf("moves", "%v%s", err, at)
	}
	if d.Output.Order == OrderAscending {
		for i := range sp.Moves {
			for j := range i {
				if !sp.Commute(i, j) {
					return d.errorf("output.order", "ascending, but moves %q and %q do not commute%s", sp.Moves[j].Name, sp.Moves[i].Name, at)
				}
			}
		}
	}
	return nil
}

func (in *Instance) checkGoalCounts(at string) error {
	d, sp := in.Def, in.Spec
	if sp.Counts == nil {
		return nil
	}
	for i, g := range sp.Goal.States {
		counts := make([]int, sp.Symbols)
		for _, v := range g {
			counts[v]++
		}
		for v, n := range counts {
			if n != sp.Counts[v] {
				field := "goal.state"
				if d.Goal.States != nil {
					field = fmt.Sprintf("goal.states[%d]", i)
				}
				return d.errorf(field, "%s %q where %d do%s: moves never change how many cells hold a symbol, so this goal cannot be reached",
					cellsHold(n), in.Symbols[v], sp.Counts[v], at)
			}
		}
	}
	if sp.Blank >= 0 && sp.Counts[sp.Blank] != 1 {
		return d.errorf("blank", "%s the blank %q, want one%s", cellsHold(sp.Counts[sp.Blank]), d.Blank, at)
	}
	if g := sp.Goal.Same; len(g) > 0 {
		most := 0
		for _, n := range sp.Counts {
			most = max(most, n)
		}
		if most < len(g) {
			return d.errorf("goal.same", "%d cells to fill with one symbol, but no symbol is in more than %d cells: the goal cannot be reached", len(g), most)
		}
		if !sp.Moved(g) {
			return d.errorf("goal.same", "no move moves any of these cells: only a case already solved could be")
		}
	}
	return nil
}

// cellsHold is "1 cell holds" or "n cells hold".
func cellsHold(n int) string {
	if n == 1 {
		return "1 cell holds"
	}
	return fmt.Sprintf("%d cells hold", n)
}
