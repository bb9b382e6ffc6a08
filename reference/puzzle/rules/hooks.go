package rules

import (
	"fmt"
	"math/rand/v2"

	"go.starlark.net/starlark"

	"github.com/optjudge/optjudge/reference/puzzle/engine"
)

// hooks sets what the compiled rules take from the code besides the moves:
// the goal (compiled, or called on a state), the target, valid, the
// heuristic and random.
func (l *loaded) hooks(g *engine.Guarded) error {
	switch l.arity("goal") {
	case -1:
		return &Error{File: l.c.File, Line: l.c.Line, Msg: "the rules give no goal: define goal() (a list of when-mappings) or goal(state)"}
	case 0:
		alts, err := l.compiledGoal()
		if err != nil {
			return err
		}
		g.Goals = alts
	case 1:
		g.GoalFunc = l.goalFunc
	default:
		return l.errorf("goal", nil, "takes no parameter (compiled) or one, the state")
	}
	switch l.arity("target") {
	case -1:
	case 0:
		v, err := l.call("target", nil)
		if err != nil {
			return err
		}
		d, ok := v.(*starlark.Dict)
		if !ok {
			return l.errorf("target", nil, "returned a %s, want a mapping of cells to values or cells", v.Type())
		}
		if g.Targets, err = l.assigns(d, l.where("target")); err != nil {
			return err
		}
	case 1:
		g.TargetFunc = l.targetFunc
	default:
		return l.errorf("target", nil, "takes no parameter (compiled) or one, the state")
	}
	if l.fn("relabel") != nil {
		return l.errorf("relabel", nil, "is a setting of the definition: rules.relabel")
	}
	g.CheckFunc, g.HeuristicFunc, g.RandomFunc = l.checkFunc, l.heuristicFunc(), l.randomFunc()
	g.Relabel = l.relabel()
	return nil
}

// where is the place of the code's function called name.
func (l *loaded) where(name string) string {
	if f := l.fn(name); f != nil {
		return fmt.Sprintf("%s:%d", l.c.File, f.Position().Line)
	}
	return l.c.File
}

// relabel marks the symbols that name pieces; nil when none do.
func (l *loaded) relabel() []bool {
	if len(l.c.Relabel) == 0 {
		return nil
	}
	out := make([]bool, len(l.c.Symbols))
	for _, s := range l.c.Relabel {
		if v, ok := l.symbol[s]; ok {
			out[v] = true
		}
	}
	return out
}

// compiledGoal reads goal(): a when-mapping or a list of them.
func (l *loaded) compiledGoal() ([][]engine.Cond, error) {
	v, err := l.call("goal", nil)
	if err != nil {
		return nil, err
	}
	var dicts []*starlark.Dict
	switch x := v.(type) {
	case *starlark.Dict:
		dicts = append(dicts, x)
	case *starlark.List, starlark.Tuple:
		for e := range starlark.Elements(x.(starlark.Iterable)) {
			d, ok := e.(*starlark.Dict)
			if !ok {
				return nil, l.errorf("goal", nil, "returned %s among its mappings, want a mapping of cells to values", e.Type())
			}
			dicts = append(dicts, d)
		}
	default:
		return nil, l.errorf("goal", nil, "returned a %s, want a mapping of cells to values, or a list of them", v.Type())
	}
	alts := [][]engine.Cond{}
	for _, d := range dicts {
		cs, err := l.conds(d, false, l.where("goal"))
		if err != nil {
			return nil, err
		}
		alts = append(alts, cs)
	}
	return alts, nil
}

func (l *loaded) goalFunc(st []uint8) (bool, error) {
	v, err := l.call("goal", st, l.stateOf(st))
	if err != nil {
		return false, err
	}
	b, ok := v.(starlark.Bool)
	if !ok {
		return false, l.errorf("goal", st, "returned a %s, want True or False", v.Type())
	}
	return bool(b), nil
}

func (l *loaded) targetFunc(dst, st []uint8) (bool, error) {
	v, err := l.call("target", st, l.stateOf(st))
	if err != nil {
		return false, err
	}
	t, ok := v.(*stateValue)
	if !ok {
		return false, l.errorf("target", st, "returned a %s, want a state", v.Type())
	}
	copy(dst, t.cells)
	return true, nil
}

// checkFunc is the parts' own rules (pieces on their boards, on squares
// of their own), then valid(state): nil for True or None, the reason for
// False ("valid() says no") or a string.
func (l *loaded) checkFunc(st []uint8) error {
	if err := l.checkParts(st); err != nil {
		return err
	}
	if l.fn("valid") == nil {
		return nil
	}
	v, err := l.call("valid", st, l.stateOf(st))
	if err != nil {
		return err
	}
	switch x := v.(type) {
	case starlark.NoneType:
		return nil
	case starlark.Bool:
		if x {
			return nil
		}
		return &engine.Invalid{Why: "valid() says no"}
	case starlark.String:
		if x == "" {
			return nil
		}
		return &engine.Invalid{Why: string(x)}
	}
	return l.errorf("valid", st, "returned a %s, want True, False or a string saying why not", v.Type())
}

// heuristicFunc is heuristic(state), nil without one.
func (l *loaded) heuristicFunc() func([]uint8) (int, error) {
	if l.fn("heuristic") == nil {
		return nil
	}
	return func(st []uint8) (int, error) {
		v, err := l.call("heuristic", st, l.stateOf(st))
		if err != nil {
			return 0, err
		}
		n, ok := v.(starlark.Int)
		h, exact := int64(-1), false
		if ok {
			h, exact = n.Int64()
		}
		if !exact || h < 0 || h > 1<<30 {
			return 0, l.errorf("heuristic", st, "returned %s, want a whole number of at least 0", v)
		}
		return int(h), nil
	}
}

// randomFunc is random(rng), nil without one.
func (l *loaded) randomFunc() func(*rand.Rand) ([]uint8, error) {
	if l.fn("random") == nil {
		return nil
	}
	return func(r *rand.Rand) ([]uint8, error) {
		v, err := l.call("random", nil, &rngValue{r: r})
		if err != nil {
			return nil, err
		}
		t, ok := v.(*stateValue)
		if !ok {
			return nil, l.errorf("random", nil, "returned a %s, want a state", v.Type())
		}
		return t.cells, nil
	}
}
