package rules

import (
	"fmt"
	"hash/fnv"
	"strconv"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"
)

// stateValue is a state as the rules see it: its parts by name (a grid a
// tuple of rows, each a tuple of values; a list a tuple of values; pieces
// a dict of (row, column) pairs by name), and
// replace(part=...) for a state with some parts changed. States are
// immutable and hashable, so that rules may keep them in sets.
type stateValue struct {
	l     *loaded
	cells []uint8
}

func (l *loaded) stateOf(cells []uint8) *stateValue { return &stateValue{l: l, cells: cells} }

func (s *stateValue) String() string       { return "state(" + s.l.describe(s.cells) + ")" }
func (s *stateValue) Type() string         { return "state" }
func (s *stateValue) Freeze()              {}
func (s *stateValue) Truth() starlark.Bool { return true }
func (s *stateValue) Hash() (uint32, error) {
	h := fnv.New32a()
	h.Write(s.cells)
	return h.Sum32(), nil
}

func (s *stateValue) CompareSameType(op syntax.Token, y starlark.Value, depth int) (bool, error) {
	t := y.(*stateValue)
	switch op {
	case syntax.EQL:
		return string(s.cells) == string(t.cells), nil
	case syntax.NEQ:
		return string(s.cells) != string(t.cells), nil
	}
	return false, fmt.Errorf("states are not ordered")
}

func (s *stateValue) AttrNames() []string {
	names := []string{"replace"}
	for _, p := range s.l.c.Parts {
		names = append(names, p.Name)
	}
	return names
}

func (s *stateValue) Attr(name string) (starlark.Value, error) {
	if name == "replace" {
		return starlark.NewBuiltin("replace", s.replace), nil
	}
	for i, p := range s.l.c.Parts {
		if p.Name == name {
			return s.l.partValue(i, s.cells), nil
		}
	}
	return nil, nil
}

// partValue is part i of cells as the rules see it.
func (l *loaded) partValue(i int, cells []uint8) starlark.Value {
	p, off := l.c.Parts[i], l.offsets[i]
	if p.Pieces != nil {
		return l.piecesValue(i, cells[off:off+p.Cells()])
	}
	row := func(from, n int) starlark.Tuple {
		t := make(starlark.Tuple, n)
		for k := range t {
			t[k] = l.vals[i][cells[from+k]]
		}
		return t
	}
	if !p.grid() {
		return row(off, p.Len)
	}
	rows := make(starlark.Tuple, p.Rows)
	for r := range rows {
		rows[r] = row(off+r*p.Cols, p.Cols)
	}
	return rows
}

// newState is the builtin state(part=..., ...): every part given.
func (l *loaded) newState(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(args) > 0 {
		return nil, fmt.Errorf("state: give the parts by name (%s)", l.partNames())
	}
	cells := make([]uint8, l.cells)
	given := map[string]bool{}
	for _, kv := range kwargs {
		name := string(kv[0].(starlark.String))
		if err := l.setPart(cells, name, kv[1]); err != nil {
			return nil, fmt.Errorf("state: %v", err)
		}
		given[name] = true
	}
	for _, p := range l.c.Parts {
		if !given[p.Name] {
			return nil, fmt.Errorf("state: part %s not given", p.Name)
		}
	}
	return l.stateOf(cells), nil
}

// replace is state.replace(part=...): a copy with the parts given changed.
func (s *stateValue) replace(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(args) > 0 {
		return nil, fmt.Errorf("replace: give the parts by name (%s)", s.l.partNames())
	}
	cells := append([]uint8(nil), s.cells...)
	for _, kv := range kwargs {
		if err := s.l.setPart(cells, string(kv[0].(starlark.String)), kv[1]); err != nil {
			return nil, fmt.Errorf("replace: %v", err)
		}
	}
	return s.l.stateOf(cells), nil
}

func (l *loaded) partNames() string {
	s := ""
	for i, p := range l.c.Parts {
		if i > 0 {
			s += ", "
		}
		s += p.Name
	}
	return s
}

// setPart writes the value v of the part called name into cells, checking
// its shape and values.
func (l *loaded) setPart(cells []uint8, name string, v starlark.Value) error {
	for i, p := range l.c.Parts {
		if p.Name != name {
			continue
		}
		off := l.offsets[i]
		switch {
		case p.Pieces != nil:
			return l.setPieces(cells[off:off+p.Cells()], i, v)
		case !p.grid():
			return l.setRow(cells[off:off+p.Len], i, v, name)
		}
		rows, err := sequence(v, p.Rows, name)
		if err != nil {
			return err
		}
		for r, row := range rows {
			if err := l.setRow(cells[off+r*p.Cols:off+(r+1)*p.Cols], i, row, fmt.Sprintf("%s[%d]", name, r)); err != nil {
				return err
			}
		}
		return nil
	}
	return fmt.Errorf("no part called %s (%s)", name, l.partNames())
}

// setRow writes the values of a sequence (a string's characters, too) into
// dst, each one of part i's values.
func (l *loaded) setRow(dst []uint8, i int, v starlark.Value, what string) error {
	items, err := sequence(v, len(dst), what)
	if err != nil {
		return err
	}
	for k, x := range items {
		c, ok := l.valueOf(i, x)
		if !ok {
			return fmt.Errorf("%s[%d] is %s, not a value of part %s (%s)", what, k, x, l.c.Parts[i].Name, describeValues(l.c.Parts[i]))
		}
		dst[k] = c
	}
	return nil
}

// valueOf is the cell value of x in part i.
func (l *loaded) valueOf(i int, x starlark.Value) (uint8, bool) {
	var tok string
	switch x := x.(type) {
	case starlark.String:
		tok = string(x)
	case starlark.Int:
		tok = x.String()
		if l.c.Parts[i].Pieces != nil {
			n, ok := x.Int64()
			if !ok {
				return 0, false
			}
			tok = strconv.FormatInt(n+1, 10) // written from 1
		}
	default:
		return 0, false
	}
	c, ok := l.symbol[tok]
	if !ok || l.vals[i][c] == nil || l.vals[i][c].Type() != x.Type() {
		return 0, false
	}
	return c, true
}

func describeValues(p Part) string {
	if p.Pieces != nil {
		return fmt.Sprintf("rows 0 to %d and columns 0 to %d", p.Rows-1, p.Cols-1)
	}
	if p.Ints {
		return fmt.Sprintf("the integers %d to %d", p.Min, p.Max)
	}
	return fmt.Sprintf("%q", p.Symbols)
}

// sequence returns the n items of v, a tuple, list or string.
func sequence(v starlark.Value, n int, what string) ([]starlark.Value, error) {
	var items []starlark.Value
	switch x := v.(type) {
	case starlark.String:
		for _, c := range string(x) {
			items = append(items, starlark.String(string(c)))
		}
	case starlark.Indexable:
		for k := range x.Len() {
			items = append(items, x.Index(k))
		}
	default:
		return nil, fmt.Errorf("%s is a %s, want a list", what, v.Type())
	}
	if len(items) != n {
		return nil, fmt.Errorf("%s has %d items, want %d", what, len(items), n)
	}
	return items, nil
}
