// Package rules runs the rules of a puzzle definition, written in
// Starlark (go.starlark.net: Python-like, deterministic, hermetic, made for
// embedding rules in Go programs, as Bazel and Tilt do), and gives the
// engine what it needs of them (engine.Rules).
//
// A state is made of typed parts (see Part): grids of symbols, lists of
// symbols or integers, and named pieces on a grid, which the rules see by
// name (state.board[r][c], state.pegs[i], state.robots["R"], a (row,
// column) pair). The rules are top-level functions of the code:
//
//   - moves(): the moves, compiled once: a list of move(name, when={cell:
//     value}, unless={cell: value or [values]}, then={cell: value},
//     cost=1), each a variant of the move called name, made where every
//     cell of when holds its value and no cell of unless does, setting the
//     cells of then. Cells are named cells.PART[i] or cells.PART[r][c]; a
//     value may be a cell, for "what that cell holds". The engine applies
//     them itself, at native speed. Or:
//   - successors(state): the general form, called on every state: a list
//     of (name, next state) pairs, the names among the global MOVES (with
//     their costs in the global COSTS, 1 by default).
//   - goal(): a list of when-mappings, any of which is the goal; or
//     goal(state): True where state is solved.
//   - target() (a then-mapping) or target(state): the one goal state a
//     case wants, for a table from the goal; optional.
//   - valid(state): True, or False or a string saying why state is not a
//     valid case; optional. heuristic(state): an admissible lower bound of
//     the distance; optional. random(rng): a random valid state, for the
//     generators (rng.int(n), rng.choice(seq), rng.shuffle(list)).
//
// Either way, the order in which the moves come from a state defines the
// lexicographic order of answers: the order of their names' first
// appearance for moves(), the order successors yields them in otherwise.
// state(part=..., ...) makes a state, state.replace(part=...) changes
// some parts; SIZE is a family's size (0 for a single puzzle).
//
// Rules run without I/O (print is dropped, load is refused) and under a
// step limit a call (Thread.SetMaxExecutionSteps); an error names the file
// and line of the code and the state it happened at.
package rules

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"

	"go.starlark.net/starlark"

	"github.com/optjudge/optjudge/reference/puzzle/engine"
)

// Config is what a definition says of its rules.
type Config struct {
	File string // the definition's file, as messages name it
	// Line is the line of File that the code's first line is on.
	Line int
	Code string
	Size int // a family's size, 0 for a single puzzle
	// Parts are the parts of the state, in order; their cells follow one
	// another.
	Parts []Part
	// Symbols are the tokens the cells' values stand for: a cell holds
	// an index into Symbols.
	Symbols []string
	// Relabel are the symbols that name pieces of a shape; Reversible
	// declares that every move is undone by one of the same cost.
	Relabel    []string
	Reversible bool
	// MaxSteps bounds a call's Starlark steps; 0 means DefaultMaxSteps.
	MaxSteps uint64
}

// DefaultMaxSteps is a call's step limit where the definition gives none:
// a call of the shipped rules takes at most a few thousand.
const DefaultMaxSteps = 1 << 20

// Part is a part of the state: a grid of Rows x Cols cells, or a list of
// Len cells, each holding one of Symbols or, with Ints, an integer Min to
// Max; or named Pieces, each on a square of a Rows x Cols board.
type Part struct {
	Name       string
	Rows, Cols int // a grid, or the board of Pieces; 0 for a list
	Len        int
	Symbols    []string
	Ints       bool
	Min, Max   int
	// Pieces are two cells each, its row and its column: the tokens 1 to
	// Rows and 1 to Cols, which the rules see as 0 to Rows-1 and 0 to
	// Cols-1, as they index a grid. Share: pieces may stand on one
	// square.
	Pieces []string
	Share  bool
}

// Cells is the number of cells of the part.
func (p Part) Cells() int {
	switch {
	case p.Pieces != nil:
		return 2 * len(p.Pieces)
	case p.Rows > 0:
		return p.Rows * p.Cols
	}
	return p.Len
}

// Values are the tokens of the part's values, in order.
func (p Part) Values() []string {
	lo, hi := p.Min, p.Max
	switch {
	case p.Pieces != nil:
		lo, hi = 1, max(p.Rows, p.Cols)
	case !p.Ints:
		return p.Symbols
	}
	var out []string
	for v := lo; v <= hi; v++ {
		out = append(out, strconv.Itoa(v))
	}
	return out
}

// grid reports whether the part is a grid of symbols.
func (p Part) grid() bool { return p.Rows > 0 && p.Pieces == nil }

// Rules are loaded rules: the engine's Rules, the moves' names and costs.
type Rules struct {
	engine.Rules
	Names []string
	Costs []int
	// Compiled says the moves are the engine's own (moves()), not
	// successors called on every state.
	Compiled bool
}

// Load runs the code at the config's size and returns its rules. Its
// errors name the file and line.
func Load(c Config) (*Rules, error) {
	l, err := newLoaded(c)
	if err != nil {
		return nil, err
	}
	if l.fn("moves") != nil {
		return l.compile()
	}
	return l.script()
}

// fingerprint identifies the code and its settings.
func (c Config) fingerprint() string {
	h := sha256.New()
	fmt.Fprintf(h, "%d\x00%q\x00%v\x00%v\x00%q\x00", c.Size, c.Symbols, c.Relabel, c.Reversible, c.Code)
	for _, p := range c.Parts {
		fmt.Fprintf(h, "%+v\x00", p)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// Error is an error of the rules, at a line of the definition's file.
type Error struct {
	File string
	Line int
	Msg  string
}

func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.File, e.Msg)
}

// describe writes a state for messages: a grid's rows separated by " / "
// (its symbols run together where each is one character), a list's values
// separated by spaces, pieces as "R at 1,2" (the row and column as cases
// write them), and where there are several parts, each named.
func (l *loaded) describe(st []uint8) string {
	var parts []string
	off := 0
	for _, p := range l.c.Parts {
		s := l.partText(p, st[off:off+p.Cells()])
		if len(l.c.Parts) > 1 {
			s = p.Name + ": " + s
		}
		parts = append(parts, s)
		off += p.Cells()
	}
	return strings.Join(parts, "; ")
}

func (l *loaded) partText(p Part, cells []uint8) string {
	if p.Pieces != nil {
		return l.piecesText(p, cells)
	}
	toks := make([]string, len(cells))
	short := true
	for i, v := range cells {
		toks[i] = l.c.Symbols[v]
		short = short && len(toks[i]) == 1
	}
	if !p.grid() {
		return strings.Join(toks, " ")
	}
	sep := " "
	if short {
		sep = ""
	}
	rows := make([]string, p.Rows)
	for r := range rows {
		rows[r] = strings.Join(toks[r*p.Cols:(r+1)*p.Cols], sep)
	}
	return strings.Join(rows, " / ")
}

var _ starlark.Value = (*stateValue)(nil)
