package rules

import (
	"go.starlark.net/starlark"

	"github.com/optjudge/optjudge/reference/puzzle/engine"
)

// script are rules whose moves come from successors(state), called on
// every state: the general form, for moves that data cannot say (a pour
// that depends on two jugs' contents and capacities). The rest is the
// compiled rules' (goal, target, valid, heuristic, random).
type script struct {
	*engine.Guarded
	l     *loaded
	index map[string]int // move name -> index
}

// script loads rules given by successors(state), their moves' names in
// the global MOVES and costs in COSTS.
func (l *loaded) script() (*Rules, error) {
	if l.arity("successors") != 1 {
		return nil, &Error{File: l.c.File, Line: l.c.Line, Msg: "the rules give no moves: define moves() (compiled) or successors(state)"}
	}
	r := &Rules{}
	names, ok := l.globals["MOVES"].(starlark.Iterable)
	if !ok {
		return nil, l.errorf("successors", nil, "needs the global MOVES: the list of every move's name, in order")
	}
	s := &script{l: l, index: map[string]int{}}
	for v := range starlark.Elements(names) {
		name, ok := starlark.AsString(v)
		if !ok || name == "" || containsSpace(name) {
			return nil, l.errorf("successors", nil, "MOVES holds %s: a move's name is a word without spaces", v)
		}
		if _, dup := s.index[name]; dup {
			return nil, l.errorf("successors", nil, "MOVES holds %q twice", name)
		}
		s.index[name] = len(r.Names)
		r.Names = append(r.Names, name)
		r.Costs = append(r.Costs, 1)
	}
	if err := l.costs(r, s.index); err != nil {
		return nil, err
	}
	s.Guarded = &engine.Guarded{Names: r.Names, Undoable: l.c.Reversible, ID: l.c.fingerprint(), DescribeFunc: l.describe}
	if err := l.hooks(s.Guarded); err != nil {
		return nil, err
	}
	r.Rules = s
	return r, nil
}

// costs reads the global COSTS, a mapping of moves' names to their costs.
func (l *loaded) costs(r *Rules, index map[string]int) error {
	v, ok := l.globals["COSTS"]
	if !ok {
		return nil
	}
	d, ok := v.(*starlark.Dict)
	if !ok {
		return l.errorf("successors", nil, "COSTS is a %s, want a mapping of moves' names to costs", v.Type())
	}
	for _, kv := range d.Items() {
		name, _ := starlark.AsString(kv[0])
		k, known := index[name]
		var c int
		err := starlark.AsInt(kv[1], &c)
		switch {
		case !known:
			return l.errorf("successors", nil, "COSTS names %s, which is not in MOVES", kv[0])
		case err != nil || c < 1 || c > 1000:
			return l.errorf("successors", nil, "COSTS[%q] is %s, want a whole number 1 to 1000", name, kv[1])
		}
		r.Costs[k] = c
	}
	return nil
}

func containsSpace(s string) bool {
	for _, c := range s {
		if c == ' ' || c == '\t' || c == '\n' || c == '\r' {
			return true
		}
	}
	return false
}

// Successors calls successors(state) and checks what it yields: pairs of
// a name among MOVES, each once, and a state.
func (s *script) Successors(st []uint8, yield func(m int, next []uint8)) error {
	l := s.l
	v, err := l.call("successors", st, l.stateOf(st))
	if err != nil {
		return err
	}
	list, ok := v.(starlark.Iterable)
	if !ok {
		return l.errorf("successors", st, "returned a %s, want a list of (name, state) pairs", v.Type())
	}
	seen := map[int]bool{}
	for x := range starlark.Elements(list) {
		pair, ok := x.(starlark.Tuple)
		if !ok || len(pair) != 2 {
			return l.errorf("successors", st, "yields %s, want a (name, state) pair", x)
		}
		name, _ := starlark.AsString(pair[0])
		m, known := s.index[name]
		next, isState := pair[1].(*stateValue)
		switch {
		case !known:
			return l.errorf("successors", st, "yields the move %s, which is not in MOVES", pair[0])
		case seen[m]:
			return l.errorf("successors", st, "yields the move %q twice", name)
		case !isState:
			return l.errorf("successors", st, "yields %q with a %s, want a state", name, pair[1].Type())
		}
		seen[m] = true
		yield(m, next.cells)
	}
	return nil
}
