package rules

import (
	"fmt"
	"math/rand/v2"

	"go.starlark.net/starlark"
)

// rngValue is random()'s source of randomness, drawn from the
// generator's seeded source so that tests come out the same every time:
// rng.int(n) is 0 to n-1, rng.choice(seq) an item of seq, rng.shuffle(list)
// a shuffled copy.
type rngValue struct{ r *rand.Rand }

func (g *rngValue) String() string        { return "rng" }
func (g *rngValue) Type() string          { return "rng" }
func (g *rngValue) Freeze()               {}
func (g *rngValue) Truth() starlark.Bool  { return true }
func (g *rngValue) Hash() (uint32, error) { return 0, fmt.Errorf("unhashable: rng") }
func (g *rngValue) AttrNames() []string   { return []string{"choice", "int", "shuffle"} }

func (g *rngValue) Attr(name string) (starlark.Value, error) {
	switch name {
	case "int":
		return starlark.NewBuiltin("int", g.intn), nil
	case "choice":
		return starlark.NewBuiltin("choice", g.choice), nil
	case "shuffle":
		return starlark.NewBuiltin("shuffle", g.shuffle), nil
	}
	return nil, nil
}

func (g *rngValue) intn(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var n int
	if err := starlark.UnpackPositionalArgs("int", args, kwargs, 1, &n); err != nil {
		return nil, err
	}
	if n < 1 {
		return nil, fmt.Errorf("rng.int(%d): want n >= 1", n)
	}
	return starlark.MakeInt(g.r.IntN(n)), nil
}

func (g *rngValue) choice(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var seq starlark.Indexable
	if err := starlark.UnpackPositionalArgs("choice", args, kwargs, 1, &seq); err != nil {
		return nil, err
	}
	if seq.Len() == 0 {
		return nil, fmt.Errorf("rng.choice of an empty sequence")
	}
	return seq.Index(g.r.IntN(seq.Len())), nil
}

func (g *rngValue) shuffle(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var seq starlark.Indexable
	if err := starlark.UnpackPositionalArgs("shuffle", args, kwargs, 1, &seq); err != nil {
		return nil, err
	}
	items := make([]starlark.Value, seq.Len())
	for i := range items {
		items[i] = seq.Index(i)
	}
	g.r.Shuffle(len(items), func(i, j int) { items[i], items[j] = items[j], items[i] })
	return starlark.NewList(items), nil
}
