package engine_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/optjudge/optjudge/reference/puzzle"
	"github.com/optjudge/optjudge/reference/puzzle/engine"
)

// ctx is the tests' context: no search of theirs is cancelled.
var ctx = context.Background()

// definition loads a shipped definition from ../testdata.
func definition(tb testing.TB, name string) *puzzle.Definition {
	tb.Helper()
	path := filepath.Join("..", "testdata", name+".yaml")
	f, err := os.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	d, err := puzzle.Parse(f, path)
	if err != nil {
		tb.Fatal(err)
	}
	if err := d.Validate(); err != nil {
		tb.Fatal(err)
	}
	return d
}

// instance returns a shipped definition at a size.
func instance(tb testing.TB, name string, size int) *puzzle.Instance {
	tb.Helper()
	in, err := definition(tb, name).Instance(size)
	if err != nil {
		tb.Fatal(err)
	}
	return in
}

// solver returns a prepared solver of a shipped definition, its tables
// cached in a directory of the test's.
func solver(tb testing.TB, name string, size int, opts engine.Options) (*puzzle.Instance, *engine.Solver) {
	tb.Helper()
	in := instance(tb, name, size)
	s, err := engine.New(in.Spec, opts)
	if err != nil {
		tb.Fatal(err)
	}
	if err := s.Prepare(); err != nil {
		tb.Fatal(err)
	}
	return in, s
}
