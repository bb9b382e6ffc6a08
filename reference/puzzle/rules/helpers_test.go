package rules_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/optjudge/optjudge/reference/puzzle"
	"github.com/optjudge/optjudge/reference/puzzle/engine"
)

var ctx = context.Background()

// parse parses and validates a definition given as text.
func parse(tb testing.TB, name, text string) (*puzzle.Definition, error) {
	tb.Helper()
	d, err := puzzle.Parse(strings.NewReader(text), name)
	if err != nil {
		return nil, err
	}
	return d, d.Validate()
}

// solverOf is a fresh solver of an instance: no table kept from another
// test.
func solverOf(tb testing.TB, in *puzzle.Instance) *engine.Solver {
	tb.Helper()
	s, err := engine.New(in.Spec, engine.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

// names writes moves (indices) by their names.
func names(in *puzzle.Instance, moves []int) string {
	out := make([]string, len(moves))
	for i, m := range moves {
		out[i] = in.Moves[m]
	}
	return strings.Join(out, " ")
}

// solvers are the shipped problems' solvers by name and size, shared by
// the tests so that a table is built once.
var solvers = map[string]*engine.Solver{}

func solver(tb testing.TB, name string, size int) *engine.Solver {
	tb.Helper()
	k := fmt.Sprint(name, size)
	if s, ok := solvers[k]; ok {
		return s
	}
	s := solverOf(tb, shipped(tb, name, size))
	solvers[k] = s
	return s
}
