// Package reference is the vocabulary of exact references: what the judge
// asks of one (Solver: validate and solve whole input files) and what the
// test-maintenance commands ask of one (Tools: generate, split, measure
// and shrink cases). A puzzle is data: package judging (in
// reference/puzzle/judging) makes both from a puzzle definition, for any
// puzzle; this package names no puzzle.
package reference

import "time"

// Solver is an exact reference: it validates and solves whole input
// files. Every function is safe for concurrent use.
type Solver struct {
	// Name is the puzzle's name.
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
