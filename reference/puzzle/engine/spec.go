package engine

import (
	"errors"
	"fmt"
)

// Spec is a puzzle as the engine sees it: cells, symbols and moves by
// number. Package puzzle builds one from a validated definition; the engine
// never reads a file. A Spec must not change once given to New.
type Spec struct {
	// Cells is the number of cells.
	Cells int
	// Symbols is the size of the alphabet: a cell holds a symbol 0 to
	// Symbols-1. Moves that add work modulo Symbols.
	Symbols int
	// Orient is the number of orientations of a piece (3 for a cube's
	// corner); 0 when pieces have none. With OrientOf, the largest of it.
	Orient int
	// OrientOf gives, per cell, the number of orientations of the pieces
	// of its set, for a puzzle whose pieces come in sets of different
	// moduli (a cube's corners 3, its edges 2, 1 or 0 for none); nil when
	// every cell has Orient. Moves keep each piece within cells of its
	// modulus.
	OrientOf []int
	// Rows and Cols are the grid of the slides, cells in row-major order;
	// 0 when no move slides.
	Rows, Cols int
	// Blank is the symbol that slides move; -1 when none does.
	Blank int
	// Counts says, for a puzzle whose moves only move symbols around, how
	// many cells hold each symbol: every state has these counts. Nil when a
	// move adds.
	Counts []int
	// Moves are the moves in their declared order, the order in which
	// lexicographically smallest answers compare them.
	Moves []Move
	// Goal is the set of solved states.
	Goal Goal
	// Method forces a search method; MethodAuto lets the engine choose.
	Method Method
	// Patterns are the groups of symbols of the additive pattern databases
	// of a sliding puzzle; nil lets the engine choose.
	Patterns [][]int
	// Memory is the budget in bytes of a search's pruning tables, where
	// Options.MaxMemory gives none; 0 for the default.
	Memory uint64
	// Rules, when set, make the moves and give the goal (see Rules);
	// Budget bounds each of their searches.
	Rules  Rules
	Budget Budget
}

// Move is one move: Perm and Twist (a permutation of the cells, with the
// orientation each piece gains), then Add (a vector added modulo Symbols);
// or a slide of the blank. A move of neither kind is not valid.
type Move struct {
	Name string
	// Perm is the permutation in pull form: after the move, cell i holds
	// what cell Perm[i] held. Nil for the identity.
	Perm []int
	// Twist[i] is added, modulo Orient (OrientOf[i]), to the orientation of the piece
	// that lands in cell i. Nil for none.
	Twist []int
	// Add[i] is added, modulo Symbols, to the symbol in cell i after the
	// permutation. Nil for none.
	Add []int
	// Slide moves the blank one cell in a direction on the grid; the move
	// cannot be made where that leaves the grid. SlideNone for others.
	Slide Direction
	// Cost is what the move counts for in an answer's length, at least 1.
	Cost int
}

// Direction is where a slide takes the blank.
type Direction int

// The directions of a slide.
const (
	SlideNone Direction = iota
	SlideUp
	SlideDown
	SlideLeft
	SlideRight
)

var directionNames = [...]string{"none", "up", "down", "left", "right"}

func (d Direction) String() string {
	if d >= 0 && int(d) < len(directionNames) {
		return directionNames[d]
	}
	return fmt.Sprintf("Direction(%d)", int(d))
}

// Opposite is the slide that undoes d.
func (d Direction) Opposite() Direction {
	switch d {
	case SlideUp:
		return SlideDown
	case SlideDown:
		return SlideUp
	case SlideLeft:
		return SlideRight
	case SlideRight:
		return SlideLeft
	}
	return SlideNone
}

// delta is the change of row and column of a slide.
func (d Direction) delta() (dr, dc int) {
	switch d {
	case SlideUp:
		return -1, 0
	case SlideDown:
		return 1, 0
	case SlideLeft:
		return 0, -1
	case SlideRight:
		return 0, 1
	}
	return 0, 0
}

// Goal is the set of solved states: given states (their orientations all
// 0), or the states whose Same cells all hold one symbol, whichever it is.
// Exactly one of States and Same is set.
type Goal struct {
	States [][]uint8
	Same   []int
}

// Method is how the engine finds answers.
type Method int

// The methods. MethodAuto picks the best that applies; the others fail in
// New where they do not apply.
const (
	MethodAuto Method = iota
	// MethodTable is a breadth-first distance table over every reachable
	// state (for a Same goal, one per symbol over the cells holding it).
	MethodTable
	// MethodLinear solves puzzles whose moves all add, by linear algebra
	// modulo Symbols.
	MethodLinear
	// MethodSearch is iterative deepening A* with pattern databases or,
	// for prefix reversals, the gap heuristic.
	MethodSearch
	// MethodBFS, for rules, explores every state a case reaches,
	// breadth-first, and measures their distances to the goal backwards
	// over the moves found: a table of the case's component.
	MethodBFS
	// MethodAStar, for rules, is A* with the rules' heuristic from the
	// case, then a depth-first search bounded by the optimum for the
	// smallest answer.
	MethodAStar
	// MethodIDA, for rules, is iterative deepening A* with the rules'
	// heuristic and a table of the states known to fail each bound.
	MethodIDA
	// MethodBidirectional, for rules whose moves can be undone and cost
	// the same and that give each case its goal state, is a breadth-first
	// search from both ends of each case.
	MethodBidirectional
)

var methodNames = [...]string{"auto", "table", "linear", "search", "bfs", "astar", "ida", "bidirectional"}

func (m Method) String() string {
	if m >= 0 && int(m) < len(methodNames) {
		return methodNames[m]
	}
	return fmt.Sprintf("Method(%d)", int(m))
}

// ParseMethod reads a method's name as String writes it.
func ParseMethod(s string) (Method, bool) {
	for i, n := range methodNames {
		if n == s {
			return Method(i), true
		}
	}
	return MethodAuto, false
}

// State is a position: Cells[i] is the symbol in cell i and, for a puzzle
// with orientations, Orient[i] is the orientation of the piece there (nil
// otherwise).
type State struct {
	Cells  []uint8
	Orient []uint8
}

// Clone returns a copy of s that shares no memory with it.
func (s State) Clone() State {
	c := State{Cells: append([]uint8(nil), s.Cells...)}
	if s.Orient != nil {
		c.Orient = append([]uint8(nil), s.Orient...)
	}
	return c
}

// Equal reports whether s and t are the same position.
func (s State) Equal(t State) bool {
	if len(s.Cells) != len(t.Cells) {
		return false
	}
	for i := range s.Cells {
		if s.Cells[i] != t.Cells[i] {
			return false
		}
	}
	for i := range max(len(s.Orient), len(t.Orient)) {
		if orientAt(s, i) != orientAt(t, i) {
			return false
		}
	}
	return true
}

func orientAt(s State, i int) uint8 {
	if i < len(s.Orient) {
		return s.Orient[i]
	}
	return 0
}

// Limits of a Spec: cells and symbols are bytes, and the canonical
// sequences keep one bit per move.
const (
	MaxCells   = 256
	MaxSymbols = 256
	MaxMoves   = 64
	MaxOrient  = 64
)

// ErrUnsolvable is returned for a state from which no sequence of moves
// reaches the goal.
var ErrUnsolvable = errors.New("no sequence of moves reaches the goal")

// Check reports the first inconsistency of sp: lengths that do not match
// the cells, symbols or orientations out of range, a Perm that is not a
// permutation, a slide without a grid or blank.
func (sp *Spec) Check() error {
	if sp.Rules != nil {
		return sp.checkRules()
	}
	switch {
	case sp.Cells < 1 || sp.Cells > MaxCells:
		return fmt.Errorf("%d cells, want 1 to %d", sp.Cells, MaxCells)
	case sp.Symbols < 1 || sp.Symbols > MaxSymbols:
		return fmt.Errorf("%d symbols, want 1 to %d", sp.Symbols, MaxSymbols)
	case sp.Orient < 0 || sp.Orient > MaxOrient:
		return fmt.Errorf("%d orientations, want 0 to %d", sp.Orient, MaxOrient)
	case sp.OrientOf != nil && len(sp.OrientOf) != sp.Cells:
		return fmt.Errorf("orientations of %d cells, want %d", len(sp.OrientOf), sp.Cells)
	case len(sp.Moves) < 1 || len(sp.Moves) > MaxMoves:
		return fmt.Errorf("%d moves, want 1 to %d", len(sp.Moves), MaxMoves)
	case sp.Blank < -1 || sp.Blank >= sp.Symbols:
		return fmt.Errorf("blank %d out of range", sp.Blank)
	case sp.Rows*sp.Cols != 0 && sp.Rows*sp.Cols != sp.Cells:
		return fmt.Errorf("a %dx%d grid for %d cells", sp.Rows, sp.Cols, sp.Cells)
	}
	for c, k := range sp.OrientOf {
		if k < 0 || k > sp.Orient {
			return fmt.Errorf("cell %d has %d orientations, want 0 to %d", c, k, sp.Orient)
		}
	}
	if sp.Counts != nil {
		if len(sp.Counts) != sp.Symbols {
			return fmt.Errorf("%d counts for %d symbols", len(sp.Counts), sp.Symbols)
		}
		total := 0
		for _, c := range sp.Counts {
			if c < 0 {
				return fmt.Errorf("negative count")
			}
			total += c
		}
		if total != sp.Cells {
			return fmt.Errorf("counts add up to %d, want %d cells", total, sp.Cells)
		}
	}
	for i := range sp.Moves {
		if err := sp.checkMove(&sp.Moves[i]); err != nil {
			return fmt.Errorf("move %d (%s): %w", i, sp.Moves[i].Name, err)
		}
	}
	return sp.checkGoal()
}

func (sp *Spec) checkMove(m *Move) error {
	if m.Cost < 1 {
		return fmt.Errorf("cost %d, want at least 1", m.Cost)
	}
	if m.Slide != SlideNone {
		switch {
		case m.Perm != nil || m.Twist != nil || m.Add != nil:
			return errors.New("a slide that also permutes or adds")
		case m.Slide < SlideUp || m.Slide > SlideRight:
			return fmt.Errorf("bad direction %d", int(m.Slide))
		case sp.Rows == 0 || sp.Blank < 0:
			return errors.New("a slide needs a grid and a blank")
		}
		return nil
	}
	if m.Perm == nil && m.Twist == nil && m.Add == nil {
		return errors.New("neither permutes, adds nor slides")
	}
	if m.Perm != nil {
		if len(m.Perm) != sp.Cells {
			return fmt.Errorf("permutation of %d cells, want %d", len(m.Perm), sp.Cells)
		}
		seen := make([]bool, sp.Cells)
		for _, j := range m.Perm {
			if j < 0 || j >= sp.Cells || seen[j] {
				return errors.New("not a permutation")
			}
			seen[j] = true
		}
	}
	if m.Twist != nil && (len(m.Twist) != sp.Cells || sp.Orient < 2) {
		return errors.New("a twist needs orientations and one entry a cell")
	}
	if sp.OrientOf != nil {
		for i := range sp.Cells {
			j := i
			if m.Perm != nil {
				j = m.Perm[i]
			}
			if sp.Mod(i) != sp.Mod(j) {
				return fmt.Errorf("moves a piece from cell %d to cell %d, of other orientations (%d, %d)", j, i, sp.Mod(j), sp.Mod(i))
			}
			if m.Twist != nil && (m.Twist[i] < 0 || m.Twist[i] >= sp.Mod(i)) {
				return fmt.Errorf("twist %d in cell %d, want 0 to %d", m.Twist[i], i, sp.Mod(i)-1)
			}
		}
	}
	if m.Add != nil && len(m.Add) != sp.Cells {
		return fmt.Errorf("an addition of %d cells, want %d", len(m.Add), sp.Cells)
	}
	return nil
}

func (sp *Spec) checkGoal() error {
	g := sp.Goal
	if (len(g.States) == 0) == (len(g.Same) == 0) {
		return errors.New("the goal needs either states or same cells")
	}
	for _, s := range g.States {
		if len(s) != sp.Cells {
			return fmt.Errorf("a goal state of %d cells, want %d", len(s), sp.Cells)
		}
		for _, v := range s {
			if int(v) >= sp.Symbols {
				return fmt.Errorf("symbol %d out of range in a goal state", v)
			}
		}
	}
	seen := make([]bool, sp.Cells)
	for _, c := range g.Same {
		if c < 0 || c >= sp.Cells || seen[c] {
			return errors.New("bad same cells")
		}
		seen[c] = true
	}
	return nil
}

// CheckState reports why s is not a state of sp: wrong lengths, symbols
// or orientations out of range, or (for a puzzle that only moves symbols
// around) other counts than Counts.
func (sp *Spec) CheckState(s State) error {
	if len(s.Cells) != sp.Cells {
		return fmt.Errorf("%d cells, want %d", len(s.Cells), sp.Cells)
	}
	if sp.Orient >= 2 && s.Orient != nil && len(s.Orient) != sp.Cells {
		return fmt.Errorf("%d orientations, want %d", len(s.Orient), sp.Cells)
	}
	var small [16]int
	counts := small[:]
	if sp.Symbols > len(small) {
		counts = make([]int, sp.Symbols)
	}
	for i, v := range s.Cells {
		if int(v) >= sp.Symbols {
			return fmt.Errorf("cell %d holds symbol %d, want less than %d", i, v, sp.Symbols)
		}
		counts[v]++
		if o := orientAt(s, i); o != 0 && int(o) >= sp.Mod(i) {
			return fmt.Errorf("cell %d has orientation %d, want less than %d", i, o, sp.Mod(i))
		}
	}
	if sp.Counts != nil {
		for v, c := range counts[:sp.Symbols] {
			if c != sp.Counts[v] {
				return fmt.Errorf("%d cells hold symbol %d, want %d", c, v, sp.Counts[v])
			}
		}
	}
	return nil
}

// Apply returns the state after move m, and false (with s itself) when m
// is a slide that would take the blank off the grid or s has no blank. s
// is not changed.
func (sp *Spec) Apply(s State, m int) (State, bool) {
	if sp.Rules != nil {
		return sp.applyRules(s, m)
	}
	mv := &sp.Moves[m]
	if mv.Slide != SlideNone {
		b := sp.blankAt(s.Cells)
		q, ok := sp.slideTarget(b, mv.Slide)
		if !ok {
			return s, false
		}
		t := s.Clone()
		t.Cells[b], t.Cells[q] = t.Cells[q], t.Cells[b]
		if t.Orient != nil {
			t.Orient[b], t.Orient[q] = t.Orient[q], t.Orient[b]
		}
		return t, true
	}
	t := State{Cells: make([]uint8, sp.Cells)}
	if sp.Orient >= 2 {
		t.Orient = make([]uint8, sp.Cells)
	}
	for i := range t.Cells {
		j := i
		if mv.Perm != nil {
			j = mv.Perm[i]
		}
		t.Cells[i] = s.Cells[j]
		if t.Orient != nil {
			o := int(orientAt(s, j))
			if mv.Twist != nil {
				o = (o + mv.Twist[i]) % sp.Mod(i)
			}
			t.Orient[i] = uint8(o)
		}
		if mv.Add != nil {
			t.Cells[i] = uint8((int(t.Cells[i]) + mv.Add[i]) % sp.Symbols)
		}
	}
	return t, true
}

// Mod is the number of orientations of the pieces in cell c, at least 1.
func (sp *Spec) Mod(c int) int {
	if sp.OrientOf != nil {
		return max(sp.OrientOf[c], 1)
	}
	return max(sp.Orient, 1)
}

// mods is Mod of every cell.
func (sp *Spec) mods() []int {
	out := make([]int, sp.Cells)
	for c := range out {
		out[c] = sp.Mod(c)
	}
	return out
}

// blankAt is the cell holding the blank, -1 if none.
func (sp *Spec) blankAt(cells []uint8) int {
	for i, v := range cells {
		if int(v) == sp.Blank {
			return i
		}
	}
	return -1
}

// slideTarget is the cell the blank at b reaches by sliding in d.
func (sp *Spec) slideTarget(b int, d Direction) (int, bool) {
	if b < 0 {
		return b, false
	}
	dr, dc := d.delta()
	r, c := b/sp.Cols+dr, b%sp.Cols+dc
	if r < 0 || r >= sp.Rows || c < 0 || c >= sp.Cols {
		return b, false
	}
	return r*sp.Cols + c, true
}

// IsGoal reports whether s is solved.
func (sp *Spec) IsGoal(s State) bool {
	if sp.Rules != nil {
		ok, err := sp.Rules.Goal(s.Cells)
		return ok && err == nil
	}
	if len(sp.Goal.Same) > 0 {
		v := s.Cells[sp.Goal.Same[0]]
		for _, c := range sp.Goal.Same[1:] {
			if s.Cells[c] != v {
				return false
			}
		}
		return true
	}
	for _, g := range sp.Goal.States {
		if sp.matches(s, g) {
			return true
		}
	}
	return false
}

func (sp *Spec) matches(s State, g []uint8) bool {
	for i, v := range g {
		if s.Cells[i] != v || orientAt(s, i) != 0 {
			return false
		}
	}
	return true
}
