// Package reference names the exact solvers that ship with the judge. Each
// puzzle lives in its own package (rotation, clocks, eightpuzzle); this one
// only maps the names used in problem.yaml to them.
package reference

import (
	"sort"
	"time"

	"github.com/optjudge/optjudge/reference/clocks"
	"github.com/optjudge/optjudge/reference/eightpuzzle"
	"github.com/optjudge/optjudge/reference/rotation"
)

// Solver is a built-in reference: it validates and solves whole input files.
// Every function is safe for concurrent use.
type Solver struct {
	Name string
	// Solve returns the reference output for a whole input file; an invalid
	// input gives the validator's error.
	Solve func(input []byte) ([]byte, error)
	// Validate reports the first problem of a malformed input as a
	// *lex.Error (line:col), or nil.
	Validate func(input []byte) error
	// BuildTime builds the solver's tables if needed and says how long
	// the build took.
	BuildTime func() time.Duration
}

var builtins = map[string]Solver{
	"rotation-game": {"rotation-game", rotation.Solve, rotation.Validate, rotation.BuildTime},
	"clocks":        {"clocks", clocks.Solve, clocks.Validate, clocks.BuildTime},
	"eight-puzzle":  {"eight-puzzle", eightpuzzle.Solve, eightpuzzle.Validate, eightpuzzle.BuildTime},
}

// Lookup returns the built-in solver called name.
func Lookup(name string) (Solver, bool) {
	s, ok := builtins[name]
	return s, ok
}

// Names lists the built-in solvers, sorted.
func Names() []string {
	var ns []string
	for n := range builtins {
		ns = append(ns, n)
	}
	sort.Strings(ns)
	return ns
}
