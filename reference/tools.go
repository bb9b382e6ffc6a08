package reference

import "math/rand/v2"

// Kinds of generated inputs.
const (
	// Random draws each case uniformly among the valid ones.
	Random = "random"
	// Deep draws each case among those at the greatest optimal distance,
	// straight from the reference's tables.
	Deep = "deep"
)

// Tools are the test-maintenance helpers of a reference: the
// generators behind judge gen and judge stress, and the operations on cases
// that judge stress shrinks a failing input with. Every input they take is
// valid and every input they return is valid. Every function is safe for
// concurrent use.
type Tools struct {
	// Unique says the problem has one right answer per input, so an answer
	// file must equal the reference's output. False for the eight-puzzle,
	// whose problem accepts any path to the goal.
	Unique bool
	// MultiCase says an input file may hold several cases.
	MultiCase bool
	// MaxDepth returns the greatest optimal distance of any case (building
	// the reference's tables if needed).
	MaxDepth func() int
	// Generate returns an input file of n cases (one for a one-case
	// format) of a kind, Random or Deep.
	Generate func(kind string, r *rand.Rand, n int) ([]byte, error)
	// All returns input files that enumerate every case, and a sample drawn
	// with r of the cases that have no solution where there are such. All
	// is nil, or returns nil, when the state space is too large.
	All func(r *rand.Rand) [][]byte
	// Split cuts an input file into one-case input files; Join puts cases
	// back into one file.
	Split func(input []byte) ([][]byte, error)
	Join  func(cases [][]byte) ([]byte, error)
	// Depth returns the optimal distance of a one-case input, -1 when it has
	// no solution.
	Depth func(c []byte) (int, error)
	// Path returns the one-case inputs along the reference's optimal
	// solution of c, one move at a time, the nearest first and the goal
	// last: their depths are Depth(c)-1 down to 0. It is empty when c has no
	// solution.
	Path func(c []byte) ([][]byte, error)
	// AtDepth returns a random one-case input at optimal distance d, false
	// when there is none.
	AtDepth func(r *rand.Rand, d int) ([]byte, bool)
}
