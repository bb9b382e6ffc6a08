package rules

import (
	"fmt"
	"strings"

	"go.starlark.net/starlark"

	"github.com/optjudge/optjudge/reference/puzzle/engine"
)

// A part of pieces is named pieces on a board of rows and columns (robots
// on a maze, knights on a chessboard): two cells a piece, its row then its
// column. The rules see it as a dict of (row, column) pairs by name, from
// 0 as they index a grid (state.robots["R"]), and build it the same way
// (state(robots={"R": (0, 3), ...}), or the pairs in the pieces' order);
// moves() names a piece's place cells.robots["R"], its row and column
// cells.robots["R"].row and .col.

// piecesValue is part i's pieces as the rules see them.
func (l *loaded) piecesValue(i int, cells []uint8) starlark.Value {
	p := l.c.Parts[i]
	d := starlark.NewDict(len(p.Pieces))
	for k, name := range p.Pieces {
		d.SetKey(starlark.String(name), starlark.Tuple{l.vals[i][cells[2*k]], l.vals[i][cells[2*k+1]]})
	}
	d.Freeze()
	return d
}

// setPieces writes the pieces v (a dict of every piece's (row, column),
// or the pairs in order) into cells, checking that each is on the board
// and, unless they may share, that no two are on one square.
func (l *loaded) setPieces(cells []uint8, i int, v starlark.Value) error {
	p := l.c.Parts[i]
	pairs := make([]starlark.Value, len(p.Pieces))
	if d, ok := v.(*starlark.Dict); ok {
		for k, name := range p.Pieces {
			x, found, _ := d.Get(starlark.String(name))
			if !found {
				return fmt.Errorf("%s: no place for piece %s", p.Name, name)
			}
			pairs[k] = x
		}
		if d.Len() != len(p.Pieces) {
			return fmt.Errorf("%s: %d pieces given, want %d (%s)", p.Name, d.Len(), len(p.Pieces), strings.Join(p.Pieces, ", "))
		}
	} else {
		var err error
		if pairs, err = sequence(v, len(p.Pieces), p.Name); err != nil {
			return fmt.Errorf("%v: give a dict of (row, column) by piece, or the pairs in order", err)
		}
	}
	for k, x := range pairs {
		pair, err := sequence(x, 2, fmt.Sprintf("%s[%q]", p.Name, p.Pieces[k]))
		if err != nil {
			return fmt.Errorf("%v: want (row, column)", err)
		}
		for j, bound := range []int{p.Rows, p.Cols} {
			var n int
			if err := starlark.AsInt(pair[j], &n); err != nil || n < 0 || n >= bound {
				return fmt.Errorf("%s: %s at %s is off the %dx%d board", p.Name, p.Pieces[k], x, p.Rows, p.Cols)
			}
			cells[2*k+j], _ = l.valueOf(i, pair[j])
		}
	}
	if why := l.sharing(p, cells); why != "" {
		return fmt.Errorf("%s", why)
	}
	return nil
}

// sharing says which two pieces of p stand on one square, where they may
// not; "" if none do.
func (l *loaded) sharing(p Part, cells []uint8) string {
	if p.Share {
		return ""
	}
	seen := map[[2]uint8]int{}
	for k := range p.Pieces {
		sq := [2]uint8{cells[2*k], cells[2*k+1]}
		if j, ok := seen[sq]; ok {
			return fmt.Sprintf("%s: %s and %s are both at %s,%s", p.Name, p.Pieces[j], p.Pieces[k], l.c.Symbols[sq[0]], l.c.Symbols[sq[1]])
		}
		seen[sq] = k
	}
	return ""
}

// piecesText writes pieces as cases do: "R at 1,2 G at 3,1".
func (l *loaded) piecesText(p Part, cells []uint8) string {
	var b strings.Builder
	for k, name := range p.Pieces {
		if k > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "%s at %s,%s", name, l.c.Symbols[cells[2*k]], l.c.Symbols[cells[2*k+1]])
	}
	return b.String()
}

// checkParts reports a state whose pieces stand off their boards or on
// one square where they may not, as Rules.Check does: the parts' own
// rules, before valid().
func (l *loaded) checkParts(st []uint8) error {
	for i, p := range l.c.Parts {
		if p.Pieces == nil {
			continue
		}
		cells := st[l.offsets[i] : l.offsets[i]+p.Cells()]
		for k, name := range p.Pieces {
			r, c := l.vals[i][cells[2*k]], l.vals[i][cells[2*k+1]]
			if !l.onBoard(p, r, p.Rows) || !l.onBoard(p, c, p.Cols) {
				return &engine.Invalid{Why: fmt.Sprintf("%s: %s at %s,%s is off the %dx%d board", p.Name, name, l.c.Symbols[cells[2*k]], l.c.Symbols[cells[2*k+1]], p.Rows, p.Cols)}
			}
		}
		if why := l.sharing(p, cells); why != "" {
			return &engine.Invalid{Why: why}
		}
	}
	return nil
}

// onBoard reports whether x, a row or column's value, is below bound.
func (l *loaded) onBoard(p Part, x starlark.Value, bound int) bool {
	var n int
	return x != nil && starlark.AsInt(x, &n) == nil && n >= 0 && n < bound
}

// pieceRef is cells.PART["name"] in moves(), goal() and target(): a
// piece's place, its row and column cells together; .row and .col are
// the cells alone.
type pieceRef struct {
	row, col cellRef
	name     string
}

func (r *pieceRef) String() string        { return r.name }
func (r *pieceRef) Type() string          { return "piece" }
func (r *pieceRef) Freeze()               {}
func (r *pieceRef) Truth() starlark.Bool  { return true }
func (r *pieceRef) Hash() (uint32, error) { return uint32(r.row.cell), nil }
func (r *pieceRef) AttrNames() []string   { return []string{"col", "row"} }

func (r *pieceRef) Attr(name string) (starlark.Value, error) {
	switch name {
	case "row":
		return r.row, nil
	case "col":
		return r.col, nil
	}
	return nil, nil
}

// pieceRefs is cells.PART for a part of pieces: its pieces by name.
type pieceRefs struct {
	name   string
	pieces map[string]*pieceRef
	order  []string
}

func (m *pieceRefs) String() string        { return m.name }
func (m *pieceRefs) Type() string          { return "pieces" }
func (m *pieceRefs) Freeze()               {}
func (m *pieceRefs) Truth() starlark.Bool  { return true }
func (m *pieceRefs) Hash() (uint32, error) { return 0, fmt.Errorf("unhashable: pieces") }
func (m *pieceRefs) Len() int              { return len(m.order) }

func (m *pieceRefs) Get(k starlark.Value) (starlark.Value, bool, error) {
	name, ok := starlark.AsString(k)
	if !ok {
		return nil, false, fmt.Errorf("%s[%s]: a piece's name is a string (%s)", m.name, k, strings.Join(m.order, ", "))
	}
	r, ok := m.pieces[name]
	if !ok {
		return nil, false, fmt.Errorf("%s has no piece %q (%s)", m.name, name, strings.Join(m.order, ", "))
	}
	return r, true, nil
}

func (m *pieceRefs) Iterate() starlark.Iterator {
	names := make([]starlark.Value, len(m.order))
	for i, n := range m.order {
		names[i] = starlark.String(n)
	}
	return starlark.Tuple(names).Iterate()
}

// pieceRefs makes cells.PART for part i, a part of pieces.
func (l *loaded) pieceRefs(i int) *pieceRefs {
	p, off := l.c.Parts[i], l.offsets[i]
	m := &pieceRefs{name: "cells." + p.Name, pieces: map[string]*pieceRef{}, order: p.Pieces}
	for k, name := range p.Pieces {
		at := fmt.Sprintf("cells.%s[%q]", p.Name, name)
		m.pieces[name] = &pieceRef{name: at,
			row: cellRef{part: i, cell: off + 2*k, name: at + ".row", bound: p.Rows},
			col: cellRef{part: i, cell: off + 2*k + 1, name: at + ".col", bound: p.Cols}}
	}
	return m
}

// pieceConds reads the condition "piece r is at x" (with not, "is not";
// for unless, x may be a list of places): x a (row, column) pair, or
// another piece, for "where that piece is".
func (l *loaded) pieceConds(r *pieceRef, x starlark.Value, not bool, where string) ([]engine.Cond, error) {
	places := []starlark.Value{x}
	if list, isList := x.(*starlark.List); isList && not {
		places = nil
		for y := range starlark.Elements(list) {
			places = append(places, y)
		}
	}
	var out []engine.Cond
	for _, y := range places {
		as, err := l.pieceAssigns(r, y, where)
		if err != nil {
			return nil, err
		}
		row, col := condOf(as[0]), condOf(as[1])
		if not {
			row.Not, row.Also = true, &col
			out = append(out, row)
		} else {
			out = append(out, row, col)
		}
	}
	return out, nil
}

// condOf is the condition that a holds already.
func condOf(a engine.Assign) engine.Cond {
	return engine.Cond{Cell: a.Cell, Value: a.Value, Other: a.From}
}

// pieceAssigns reads "piece r goes to x": x a (row, column) pair, or
// another piece, for "where that piece was".
func (l *loaded) pieceAssigns(r *pieceRef, x starlark.Value, where string) ([]engine.Assign, error) {
	if o, isPiece := x.(*pieceRef); isPiece {
		return []engine.Assign{{Cell: r.row.cell, From: o.row.cell}, {Cell: r.col.cell, From: o.col.cell}}, nil
	}
	pair, err := sequence(x, 2, r.name)
	if err != nil {
		return nil, l.errorAt(where, "%s: %s is not a place: want (row, column) or another piece", r, x)
	}
	row, err := l.assign(r.row, pair[0], where)
	if err != nil {
		return nil, err
	}
	col, err := l.assign(r.col, pair[1], where)
	return []engine.Assign{row, col}, err
}
