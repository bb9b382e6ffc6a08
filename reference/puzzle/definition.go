// Package puzzle reads puzzle definitions: a move-sequence puzzle described
// as data, in a puzzle.yaml file beside a problem's problem.yaml, from
// which the judge derives the puzzle's exact reference, checker, validator,
// generators and drawings. The format is documented on Definition; its JSON
// Schema is puzzle.schema.json in this directory.
//
// Parse decodes a definition strictly (an unknown key is an error) over the
// defaults, Validate checks it and names every bad field as
// "puzzle.yaml:12: moves[3].cycles[0]: ...", and Instance turns a valid
// definition into an Instance: its names by index and the engine's Spec
// (package engine), which never sees YAML.
package puzzle

import "github.com/optjudge/optjudge/specfile"

// Definition is a puzzle as puzzle.yaml holds it. A definition is its own
// file rather than a section of problem.yaml: it is long, it has its own
// schema for editors, and the same file serves several problems.
//
// An annotated example, the eight-puzzle:
//
//	name: eight-puzzle
//	grid: {rows: 3, cols: 3}        # cells 1..9, row by row
//	symbols: [1, 2, 3, 4, 5, 6, 7, 8, x]
//	blank: x                        # the symbol that slides
//	moves:                          # declared order = lexicographic order
//	  - {name: d, slide: down}      # the blank moves down
//	  - {name: l, slide: left}
//	  - {name: r, slide: right}
//	  - {name: u, slide: up}
//	goal:
//	  state: [1, 2, 3, 4, 5, 6, 7, 8, x]
//	mode: any                       # any | shortest | smallest
//	input:
//	  cases: until_eof              # one case a line until the end
//	  loose: true                   # runs of spaces, spaces at the ends
//	output:
//	  separator: ""                 # moves written without separator
//	  unsolvable: unsolvable
//
// The keys:
//
//   - name: the puzzle's name, lower-case letters, digits and '-'.
//   - cells: the cells' names, in order (the state is one symbol a cell).
//     With grid, cells may be left out: they are then 1 to rows*cols.
//   - grid: {rows, cols}: the cells form a grid, row by row; slides move
//     on it, and it is the default drawing.
//   - size: {min, max}: a family of puzzles. The definition is written for
//     the largest size; a case first gives its size n, and the puzzle of
//     size n keeps the first n cells, the first n symbols, the moves that
//     touch only those cells, and the goal on them (pancakes).
//   - symbols: the alphabet, as tokens of the input. A symbol's value is
//     its index (moves that add work modulo the number of symbols).
//   - counts: {symbol: n}: how many cells hold each symbol, for puzzles
//     whose moves only move symbols around; required with goal.same, and
//     otherwise taken from the goal state.
//   - blank: the symbol that slides move.
//   - orientation: k: each piece has an orientation modulo k (a cube's
//     corners: 3); goal states have every orientation 0.
//   - tws: {file: skewb.tws, moves: [...]}: the puzzle as a twsearch
//     definition file beside this one, instead of cells, sets, symbols,
//     moves and goal (see Tws); cell i of set S is called S.i, and so is
//     the piece solved there.
//   - sets: the pieces in sets, each with its own cells and orientation
//     (a cube's corners twist modulo 3, its edges flip modulo 2, its
//     centres do not turn), instead of cells and orientation: [{name:
//     corners, cells: [URF, ...], orientation: 3}, {name: edges, cells:
//     [UR, ...], orientation: 2}]. The cells are the sets' cells in order;
//     a move's cycles stay within a set and twist only cells of a set with
//     orientation; symbols may repeat in the goal (identical pieces). The
//     short form (cells and orientation) is one set.
//   - moves: the moves, in the declared order that lexicographic
//     comparisons use. Each has a name (a token of the output) and one kind:
//     cycles: [[a, b, c], ...] (the content of a goes to b, b to c, c to
//     a), with twist: {cell: t} (t added to the orientation of the piece
//     landing in cell); reverse: [a, ..., z] (the contents of the listed
//     cells in reverse order: a prefix reversal); add: [a, b, b] (one added
//     to a, two to b, modulo the number of symbols); slide: up|down|left|
//     right (the blank swaps with its neighbour, not possible at the edge;
//     each direction needs its opposite too); sequence: [m1, m2, ...]
//     (earlier moves one after the other, as one move); inverse: m (undoes
//     an earlier move). cost: the move's cost (default 1); a move defined
//     by sequence costs its own cost, which is how a half turn counts as
//     one in the half-turn metric.
//   - goal: one of state: [...] (one solved state), states: [[...], ...]
//     (several), same: [cells] (those cells hold one symbol, whichever);
//     and values: [{name, cell}]: the symbol in a cell of the final state,
//     which the output gives too (the rotation game's centre digit).
//   - mode: what the checker accepts: any (any sequence that solves),
//     shortest (fewest moves, by cost), smallest (the shortest that comes
//     first comparing moves in declared order; the default) or at_most
//     (any sequence that solves at a cost of at most max_moves: the
//     checker simulates and never searches, for puzzles too large for an
//     optimum a case, as a fewest-moves challenge).
//   - max_moves: the bound of mode at_most, required with it and only
//     with it.
//   - input: how a case is read. cases: one (one case a file; the
//     default), until_eof (cases one after another), terminated (until a
//     line holding terminator); lines: how many lines a case spans (its tokens shared
//     equally); blank_line_between: cases are separated by an empty line;
//     separator: " " (default; tokens separated by one space) or "" (one
//     character a token); loose: runs of spaces and spaces at the line's
//     ends are allowed; order: the cells in the order the tokens give them
//     (default: the cells' order); stickers: the case gives the colour of
//     every sticker instead (see Stickers); max_distance: every case is
//     solvable at a cost of at most this (the input validator checks it
//     with a bounded search, the reference does not; judge gen draws
//     random cases as random sequences of that many moves, deep ones at
//     exactly that distance).
//   - output: separator between moves (default " "); empty: the text of
//     the empty answer (default ""); unsolvable: the text for a case no
//     sequence solves (none: such a case is invalid input); order: as_made
//     (default) or ascending (the moves commute and are written in
//     declared order); lines: the lines of a case's answer, "moves" and the
//     names of goal values (default [moves]).
//   - layout: the drawing. grid: rows of cell names ("." for none; with
//     stickers, facelet numbers); or circle: the cells clockwise from the
//     top; neither: the grid's rows, or the cells in one row. show: how a
//     symbol is drawn: symbol (its text in a box; the default), tile (a
//     numbered tile, the blank empty), sticker (a square of its colour),
//     dial (a hand at value/symbols of a turn from 12 o'clock), onoff (lit
//     when not the first symbol), bar (a bar as long as its value: a
//     pancake). colors: {symbol or sticker colour: CSS colour}. labels:
//     [{text, row, col}] text drawn at a grid position (row and col may be
//     -1 or past the grid, for labels around it).
//   - search: hints for the engine. method: auto (default), table, linear
//     or search, and for rules bfs, astar, ida or bidirectional (from the
//     case and from its goal state at once: moves that can be undone, of
//     one cost, and a target()); patterns: the groups of
//     tiles of a sliding puzzle's additive pattern databases (default: the
//     engine's own); memory: the budget in MiB of the pruning tables of a
//     twisty puzzle's search (default 256; as twsearch's -M).
//
// # Rules
//
// Moves with conditions (a disc only onto a larger one, a car that slides
// while the way is free) are given by rules in Starlark instead of moves
// and goal; see package rules for the functions the code defines. Tower
// of Hanoi, any start and goal, up to 10 discs:
//
//	name: hanoi
//	size: {min: 1, max: 10}          # a case gives its number of discs first
//	parts:                           # the state: typed parts, in the input's order
//	  - {name: pegs, length: 0, range: [1, 3]}   # length 0: the size; the peg of each disc, smallest first
//	  - {name: goal, length: 0, range: [1, 3]}   # where each disc must end; no move changes it
//	rules:
//	  reversible: true               # every move undone by one of the same cost: a table from the goal
//	  code: |
//	    def moves():                 # compiled once into guarded moves
//	        out = []
//	        for a in (1, 2, 3):
//	            for b in (1, 2, 3):
//	                if a != b:
//	                    for k in range(SIZE):          # the top disc of a is k: the smaller ones are on the third peg
//	                        when = {cells.pegs[j]: 6 - a - b for j in range(k)}
//	                        when[cells.pegs[k]] = a
//	                        out.append(move("%d%d" % (a, b), when = when, then = {cells.pegs[k]: b}))
//	        return out
//	    def goal():                  # every disc where the goal wants it
//	        return {cells.pegs[k]: cells.goal[k] for k in range(SIZE)}
//	    def target():                # the case's goal state, for the table
//	        return {cells.pegs[k]: cells.goal[k] for k in range(SIZE)}
//	input: {cases: until_eof}        # "3 1 1 1 3 3 3": 3 discs on peg 1, all wanted on peg 3
//	output: {separator: " "}         # "13 12 32 13 21 23 13"
//
// The keys of rules:
//
//   - parts: the state, instead of cells (or grid) and symbols: each part
//     has a name (the rules' state.NAME and cells.NAME), either length n
//     (a list; 0 for a family's size) or grid {rows, cols}, and either
//     symbols (its tokens) or range [lo, hi] (integers). A case gives the
//     parts' cells in order, a grid row by row. Without parts, cells or a
//     grid with symbols are one part called board.
//   - a part of pieces: {name: robots, pieces: [R, G, B], grid: {rows: 8,
//     cols: 8}}: named pieces, each on a square of the grid, two to a
//     square only with share: true. A case gives each piece's row and
//     column in the pieces' order, from 1 ("1 1 8 8 4 5": R in the top
//     left corner, G in the bottom right); its cells are robots.R.row,
//     robots.R.col, and so on. The rules see the pieces as a dict of
//     (row, column) pairs from 0, as they index a grid (state.robots["R"]
//     is (0, 0)), build them the same way (state(robots={"R": (0, 1),
//     ...}) or the pairs in order), and in moves() name a piece's place
//     cells.robots["R"] (when={cells.robots["R"]: (2, 3)}; unless=
//     {cells.robots["G"]: [(2, 4), (2, 5)]}: G at none of them; then=
//     {cells.robots["R"]: (2, 5)}), its row or column alone
//     cells.robots["R"].row and .col. A state with a piece off the grid,
//     or two on one square where they may not share, is not valid; the
//     drawing shows the pieces on the layout's grid, a piece at row r and
//     column c on its row r and column c (from the top left; by default
//     the grid of the first grid part of the same size, else empty
//     squares).
//   - rules.code: the Starlark (package rules), on the definition's own
//     lines, so that errors name puzzle.yaml and the line.
//   - rules.reversible: every move is undone by a move of the same cost
//     (checked on every move a table finds); with target(), a table from
//     the goal answers every case of that goal.
//   - rules.relabel: the symbols that name pieces of a shape, which are
//     interchangeable (Klotski's four soldiers): states that differ only by
//     renaming them are one state for distances.
//   - rules.max_states, rules.max_seconds: the budget of one case's search
//     (default 4,194,304 states and 60 seconds); rules.max_steps: the
//     Starlark steps of one call (default 1,048,576).
//
// The order in which the rules yield a state's moves is the order of
// lexicographic comparisons: for moves(), the order of the names' first
// appearance. goal, moves, blank, orientation and counts are not given
// with rules, nor input.order, input.stickers and search.patterns.
type Definition struct {
	Name        string         `yaml:"name" json:"name"`
	Size        *Size          `yaml:"size" json:"size"`
	Cells       []string       `yaml:"cells" json:"cells"`
	Grid        *Grid          `yaml:"grid" json:"grid"`
	Symbols     []string       `yaml:"symbols" json:"symbols"`
	Counts      map[string]int `yaml:"counts" json:"counts"`
	Blank       string         `yaml:"blank" json:"blank"`
	Orientation int            `yaml:"orientation" json:"orientation"`
	Sets        []Set          `yaml:"sets" json:"sets"`
	Tws         *Tws           `yaml:"tws" json:"tws"`
	Moves       []Move         `yaml:"moves" json:"moves"`
	Goal        Goal           `yaml:"goal" json:"goal"`
	Mode        Mode           `yaml:"mode" json:"mode"`
	MaxMoves    int            `yaml:"max_moves" json:"max_moves"`
	Input       Input          `yaml:"input" json:"input"`
	Output      Output         `yaml:"output" json:"output"`
	Layout      Layout         `yaml:"layout" json:"layout"`
	Search      Search         `yaml:"search" json:"search"`
	Parts       []Part         `yaml:"parts" json:"parts"`
	Rules       *Rules         `yaml:"rules" json:"rules"`

	file  string         // as messages name it
	lines map[string]int // the line of each key by its path, "moves[2].cycles"
	tws   bool           // the Tws file was read (by ParseFS) into sets, symbols, moves and goal
}

// Tws names a twsearch (ksolve) definition file beside puzzle.yaml, read
// as it is (see readTws for what is read): its sets, solved state and
// moves, each with its powers, become the definition's sets, symbols,
// goal and moves. Moves lists, by those names, the moves an answer may
// use in the order comparisons take them; all in the file's order when
// left out. The definition then gives only what a judge adds: mode,
// input, output, layout and search.
type Tws struct {
	File  string   `yaml:"file" json:"file"`
	Moves []string `yaml:"moves" json:"moves"`
}

// Set is a set of pieces: the cells that hold them and the number of
// orientations each has (0 or 1: none).
type Set struct {
	Name        string   `yaml:"name" json:"name"`
	Cells       []string `yaml:"cells" json:"cells"`
	Orientation int      `yaml:"orientation" json:"orientation"`
}

// Part is a typed part of the state of a puzzle given by rules: a list of
// Length cells (0: the family's size) or a grid, of Symbols or of the
// integers Range[0] to Range[1]; or Pieces on the squares of a Grid, which
// may Share a square or not.
type Part struct {
	Name    string   `yaml:"name" json:"name"`
	Length  int      `yaml:"length" json:"length"`
	Grid    *Grid    `yaml:"grid" json:"grid"`
	Symbols []string `yaml:"symbols" json:"symbols"`
	Range   []int    `yaml:"range" json:"range"`
	Pieces  []string `yaml:"pieces" json:"pieces"`
	Share   bool     `yaml:"share" json:"share"`
}

// Rules are the Starlark rules of a puzzle and their settings.
type Rules struct {
	Code       string   `yaml:"code" json:"code"`
	Reversible bool     `yaml:"reversible" json:"reversible"`
	Relabel    []string `yaml:"relabel" json:"relabel"`
	MaxStates  int      `yaml:"max_states" json:"max_states"`
	MaxSeconds int      `yaml:"max_seconds" json:"max_seconds"`
	MaxSteps   int      `yaml:"max_steps" json:"max_steps"`
}

// Size is the range of sizes of a family of puzzles.
type Size struct {
	Min int `yaml:"min" json:"min"`
	Max int `yaml:"max" json:"max"`
}

// Grid is a grid of cells, row by row.
type Grid struct {
	Rows int `yaml:"rows" json:"rows"`
	Cols int `yaml:"cols" json:"cols"`
}

// Move is one declared move; exactly one of Cycles (with Twist), Reverse,
// Add, Slide, Sequence and Inverse is given.
type Move struct {
	Name     string         `yaml:"name" json:"name"`
	Cycles   [][]string     `yaml:"cycles" json:"cycles"`
	Twist    map[string]int `yaml:"twist" json:"twist"`
	Reverse  []string       `yaml:"reverse" json:"reverse"`
	Add      []string       `yaml:"add" json:"add"`
	Slide    string         `yaml:"slide" json:"slide"`
	Sequence []string       `yaml:"sequence" json:"sequence"`
	Inverse  string         `yaml:"inverse" json:"inverse"`
	Cost     int            `yaml:"cost" json:"cost"`
}

// Goal is the set of solved states and the values an answer reports.
type Goal struct {
	State  []string   `yaml:"state" json:"state"`
	States [][]string `yaml:"states" json:"states"`
	Same   []string   `yaml:"same" json:"same"`
	Values []Value    `yaml:"values" json:"values"`
}

// Value is a value of the final state that an answer gives: the symbol in
// Cell.
type Value struct {
	Name string `yaml:"name" json:"name"`
	Cell string `yaml:"cell" json:"cell"`
}

// Mode is what a checker accepts.
type Mode string

// The modes.
const (
	// ModeAny accepts any sequence that reaches the goal.
	ModeAny Mode = "any"
	// ModeShortest accepts the sequences of least cost.
	ModeShortest Mode = "shortest"
	// ModeSmallest accepts only the first of the shortest sequences,
	// comparing moves in their declared order.
	ModeSmallest Mode = "smallest"
	// ModeAtMost accepts any sequence that reaches the goal at a cost of
	// at most Definition.MaxMoves: the checker only simulates, it never
	// searches.
	ModeAtMost Mode = "at_most"
)

// Input is how the input file gives the cases.
type Input struct {
	Cases            Cases     `yaml:"cases" json:"cases"`
	Terminator       string    `yaml:"terminator" json:"terminator"`
	Lines            int       `yaml:"lines" json:"lines"`
	BlankLineBetween bool      `yaml:"blank_line_between" json:"blank_line_between"`
	Separator        string    `yaml:"separator" json:"separator"`
	Loose            bool      `yaml:"loose" json:"loose"`
	Order            []string  `yaml:"order" json:"order"`
	Stickers         *Stickers `yaml:"stickers" json:"stickers"`
	MaxDistance      int       `yaml:"max_distance" json:"max_distance"`
}

// Cases says how an input file holds its cases.
type Cases string

// The ways of holding cases.
const (
	// CasesOne is one case a file.
	CasesOne Cases = "one"
	// CasesUntilEOF is cases one after another until the end of the file.
	CasesUntilEOF Cases = "until_eof"
	// CasesTerminated is cases until a line holding the terminator.
	CasesTerminated Cases = "terminated"
)

// Stickers is the input of a twisty puzzle given by the colour of each
// sticker (facelet), as a cube is photographed, rather than by piece: a
// case is the facelets' colours in order, one token each. A cell's
// facelets, listed in its orientation order, read colours c0..c(k-1); the
// cell holds the piece whose colours, in its own order, are those read
// starting at some index t (piece colour j is c((t+j) mod k)), with
// orientation t.
type Stickers struct {
	// Cells gives, per cell, the numbers (from 1, in the input's order) of
	// its facelets in orientation order.
	Cells map[string][]int `yaml:"cells" json:"cells"`
	// Pieces gives, per symbol, its colours in orientation order.
	Pieces map[string][]string `yaml:"pieces" json:"pieces"`
}

// Output is how the answer of a case is written.
type Output struct {
	Separator  string   `yaml:"separator" json:"separator"`
	Empty      string   `yaml:"empty" json:"empty"`
	Unsolvable string   `yaml:"unsolvable" json:"unsolvable"`
	Order      Order    `yaml:"order" json:"order"`
	Lines      []string `yaml:"lines" json:"lines"`
}

// Order is the order of an answer's moves.
type Order string

// The orders.
const (
	// OrderAsMade lists the moves in the order they are made.
	OrderAsMade Order = "as_made"
	// OrderAscending lists commuting moves in their declared order.
	OrderAscending Order = "ascending"
)

// LineMoves is the output line of the moves in Output.Lines.
const LineMoves = "moves"

// Layout is how the puzzle is drawn.
type Layout struct {
	Grid   []string          `yaml:"grid" json:"grid"`
	Circle []string          `yaml:"circle" json:"circle"`
	Show   Show              `yaml:"show" json:"show"`
	Colors map[string]string `yaml:"colors" json:"colors"`
	Labels []Label           `yaml:"labels" json:"labels"`
}

// Show is how a symbol is drawn.
type Show string

// The ways of drawing a symbol.
const (
	ShowSymbol  Show = "symbol"
	ShowTile    Show = "tile"
	ShowSticker Show = "sticker"
	ShowDial    Show = "dial"
	ShowOnOff   Show = "onoff"
	ShowBar     Show = "bar"
)

// Label is a text drawn at a position of the layout's grid.
type Label struct {
	Text string `yaml:"text" json:"text"`
	Row  int    `yaml:"row" json:"row"`
	Col  int    `yaml:"col" json:"col"`
}

// Search holds hints for the engine.
type Search struct {
	Method   string     `yaml:"method" json:"method"`
	Patterns [][]string `yaml:"patterns" json:"patterns"`
	Memory   int        `yaml:"memory" json:"memory"`
}

// File is the name the definition was parsed under.
func (d *Definition) File() string { return d.file }

// Line returns the line of the key at path ("moves[2].cycles"), or of its
// nearest enclosing key; 0 when unknown.
func (d *Definition) Line(path string) int { return specfile.LineOf(d.lines, path) }
