package rules

import (
	"fmt"
	"strings"

	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"

	"github.com/optjudge/optjudge/reference/puzzle/engine"
)

// cellRef names a cell in moves(), goal() and target(): cells.pegs[2],
// cells.board[1][3].
type cellRef struct {
	part, cell int // the part, and the cell's index in the whole state
	name       string
	// bound is, for a piece's row or column, the rows or columns of its
	// board (the cell holds 0 to bound-1); 0 for others.
	bound int
}

func (c cellRef) String() string        { return c.name }
func (c cellRef) Type() string          { return "cell" }
func (c cellRef) Freeze()               {}
func (c cellRef) Truth() starlark.Bool  { return true }
func (c cellRef) Hash() (uint32, error) { return uint32(c.cell), nil }

// cellRow is a list of cells, indexed by position: a list part, or a
// grid's row (and a grid is a cellRow of rows).
type cellRow struct {
	name  string
	items []starlark.Value
}

func (r *cellRow) String() string        { return r.name }
func (r *cellRow) Type() string          { return "cells" }
func (r *cellRow) Freeze()               {}
func (r *cellRow) Truth() starlark.Bool  { return true }
func (r *cellRow) Hash() (uint32, error) { return 0, fmt.Errorf("unhashable: cells") }
func (r *cellRow) Index(i int) starlark.Value {
	return r.items[i]
}
func (r *cellRow) Len() int { return len(r.items) }

// cellsValue is the predeclared cells: each part's cells by name.
func (l *loaded) cellsValue() starlark.Value {
	fields := starlark.StringDict{}
	for i, p := range l.c.Parts {
		off := l.offsets[i]
		ref := func(k int, name string) starlark.Value { return cellRef{part: i, cell: off + k, name: name} }
		if p.Pieces != nil {
			fields[p.Name] = l.pieceRefs(i)
			continue
		}
		if !p.grid() {
			row := &cellRow{name: "cells." + p.Name}
			for k := range p.Len {
				row.items = append(row.items, ref(k, fmt.Sprintf("cells.%s[%d]", p.Name, k)))
			}
			fields[p.Name] = row
			continue
		}
		grid := &cellRow{name: "cells." + p.Name}
		for r := range p.Rows {
			row := &cellRow{name: fmt.Sprintf("cells.%s[%d]", p.Name, r)}
			for c := range p.Cols {
				row.items = append(row.items, ref(r*p.Cols+c, fmt.Sprintf("cells.%s[%d][%d]", p.Name, r, c)))
			}
			grid.items = append(grid.items, row)
		}
		fields[p.Name] = grid
	}
	return starlarkstruct.FromStringDict(starlarkstruct.Default, fields)
}

// moveValue is what move() returns: one variant of a move.
type moveValue struct {
	name               string
	when, unless, then *starlark.Dict
	cost               int
	where              string
}

func (m *moveValue) String() string        { return "move(" + m.name + ")" }
func (m *moveValue) Type() string          { return "move" }
func (m *moveValue) Freeze()               {}
func (m *moveValue) Truth() starlark.Bool  { return true }
func (m *moveValue) Hash() (uint32, error) { return 0, fmt.Errorf("unhashable: move") }

// newMove is the builtin move(name, when={}, unless={}, then={}, cost=1).
func newMove(th *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	m := &moveValue{cost: 1}
	var name string
	if err := starlark.UnpackArgs("move", args, kwargs, "name", &name, "when?", &m.when, "unless?", &m.unless, "then?", &m.then, "cost?", &m.cost); err != nil {
		return nil, err
	}
	if name == "" || strings.ContainsAny(name, " \t\r\n") {
		return nil, fmt.Errorf("move: %q: a move's name is a word without spaces", name)
	}
	if m.cost < 1 || m.cost > 1000 {
		return nil, fmt.Errorf("move %s: cost %d, want 1 to 1000", name, m.cost)
	}
	m.name = name
	if th.CallStackDepth() > 1 {
		pos := th.CallFrame(1).Pos
		m.where = fmt.Sprintf("%s:%d", pos.Filename(), pos.Line)
	}
	return m, nil
}

// compile makes the engine's Guarded rules of moves(), goal() and target().
func (l *loaded) compile() (*Rules, error) {
	g := &engine.Guarded{Undoable: l.c.Reversible, ID: l.c.fingerprint(), DescribeFunc: l.describe}
	r := &Rules{Rules: g, Compiled: true}
	if l.arity("moves") != 0 {
		return nil, l.errorf("moves", nil, "takes no parameters: it gives every move once (successors(state) is the form called on each state)")
	}
	v, err := l.call("moves", nil)
	if err != nil {
		return nil, err
	}
	list, ok := v.(starlark.Iterable)
	if !ok {
		return nil, l.errorf("moves", nil, "returned a %s, want a list of move(...)", v.Type())
	}
	index := map[string]int{}
	for x := range starlark.Elements(list) {
		mv, ok := x.(*moveValue)
		if !ok {
			return nil, l.errorf("moves", nil, "returned %s among the moves, want move(...)", x.Type())
		}
		if err := l.addVariant(g, r, index, mv); err != nil {
			return nil, err
		}
	}
	if len(r.Names) == 0 {
		return nil, l.errorf("moves", nil, "returned no move")
	}
	g.Names = r.Names
	if err := l.hooks(g); err != nil {
		return nil, err
	}
	return r, nil
}

// addVariant adds one move() to the rules.
func (l *loaded) addVariant(g *engine.Guarded, r *Rules, index map[string]int, mv *moveValue) error {
	k, seen := index[mv.name]
	if !seen {
		k = len(r.Names)
		index[mv.name] = k
		r.Names = append(r.Names, mv.name)
		r.Costs = append(r.Costs, mv.cost)
	} else if r.Costs[k] != mv.cost {
		return l.errorAt(mv.where, "move %s: cost %d, but another of its variants costs %d", mv.name, mv.cost, r.Costs[k])
	}
	v := engine.Variant{Move: k, Where: mv.where}
	var err error
	if v.When, err = l.conds(mv.when, false, mv.where); err != nil {
		return err
	}
	unless, err := l.conds(mv.unless, true, mv.where)
	if err != nil {
		return err
	}
	v.When = append(v.When, unless...)
	if v.Set, err = l.assigns(mv.then, mv.where); err != nil {
		return err
	}
	g.Variants = append(g.Variants, v)
	return nil
}

// errorAt is an error at a place of the code ("file:line").
func (l *loaded) errorAt(where, format string, args ...any) error {
	e := &Error{File: l.c.File, Msg: fmt.Sprintf(format, args...)}
	fmt.Sscanf(strings.TrimPrefix(where, l.c.File+":"), "%d", &e.Line)
	return e
}

// conds reads a when (or, with not, an unless) mapping of cells to values:
// a value, a cell (the same as that cell), or for unless a list of them.
func (l *loaded) conds(d *starlark.Dict, not bool, where string) ([]engine.Cond, error) {
	if d == nil {
		return nil, nil
	}
	var out []engine.Cond
	for _, kv := range d.Items() {
		if p, isPiece := kv[0].(*pieceRef); isPiece {
			cs, err := l.pieceConds(p, kv[1], not, where)
			if err != nil {
				return nil, err
			}
			out = append(out, cs...)
			continue
		}
		c, ok := kv[0].(cellRef)
		if !ok {
			return nil, l.errorAt(where, "%s is a %s, want a cell (cells.PART[i])", kv[0], kv[0].Type())
		}
		vals := []starlark.Value{kv[1]}
		if list, isList := kv[1].(*starlark.List); isList && not {
			vals = nil
			for x := range starlark.Elements(list) {
				vals = append(vals, x)
			}
		}
		for _, x := range vals {
			cond := engine.Cond{Cell: c.cell, Other: -1, Not: not}
			if o, isCell := x.(cellRef); isCell {
				cond.Other = o.cell
			} else if v, err := l.cellValue(c, x, where); err == nil {
				cond.Value = v
			} else {
				return nil, err
			}
			out = append(out, cond)
		}
	}
	return out, nil
}

// assigns reads a then mapping of cells to values or cells.
func (l *loaded) assigns(d *starlark.Dict, where string) ([]engine.Assign, error) {
	if d == nil {
		return nil, nil
	}
	var out []engine.Assign
	for _, kv := range d.Items() {
		if p, isPiece := kv[0].(*pieceRef); isPiece {
			as, err := l.pieceAssigns(p, kv[1], where)
			if err != nil {
				return nil, err
			}
			out = append(out, as...)
			continue
		}
		c, ok := kv[0].(cellRef)
		if !ok {
			return nil, l.errorAt(where, "%s is a %s, want a cell (cells.PART[i])", kv[0], kv[0].Type())
		}
		a, err := l.assign(c, kv[1], where)
		if err != nil {
			return nil, err
		}
		out = append(out, a)
	}
	return out, nil
}

// assign is "cell c becomes x": a value, or what another cell holds.
func (l *loaded) assign(c cellRef, x starlark.Value, where string) (engine.Assign, error) {
	a := engine.Assign{Cell: c.cell, From: -1}
	if o, isCell := x.(cellRef); isCell {
		a.From = o.cell
		return a, nil
	}
	v, err := l.cellValue(c, x, where)
	a.Value = v
	return a, err
}

// cellValue is the value x of cell c, in conditions and sets.
func (l *loaded) cellValue(c cellRef, x starlark.Value, where string) (uint8, error) {
	p := l.c.Parts[c.part]
	if c.bound > 0 {
		var n int
		if err := starlark.AsInt(x, &n); err != nil || n < 0 || n >= c.bound {
			return 0, l.errorAt(where, "%s: %s is off the %dx%d board of %s (0 to %d)", c, x, p.Rows, p.Cols, p.Name, c.bound-1)
		}
	}
	v, ok := l.valueOf(c.part, x)
	if !ok {
		return 0, l.errorAt(where, "%s: %s is not a value of part %s (%s)", c, x, p.Name, describeValues(p))
	}
	return v, nil
}
