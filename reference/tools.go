package reference

import (
	"errors"
	"fmt"
	"math/rand/v2"

	"github.com/optjudge/optjudge/reference/clocks"
	"github.com/optjudge/optjudge/reference/eightpuzzle"
	"github.com/optjudge/optjudge/reference/rotation"
)

// Kinds of generated inputs.
const (
	// Random draws each case uniformly among the valid ones.
	Random = "random"
	// Deep draws each case among those at the greatest optimal distance,
	// straight from the reference's tables.
	Deep = "deep"
)

// Tools are the test-maintenance helpers of a built-in reference: the
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
	// with r of the cases that have no solution where there are such; nil
	// when the state space is too large.
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

var tools = map[string]Tools{
	"rotation-game": rotationTools(),
	"clocks":        clocksTools(),
	"eight-puzzle":  eightPuzzleTools(),
}

// ToolsFor returns the tools of the built-in reference called name.
func ToolsFor(name string) (Tools, bool) {
	t, ok := tools[name]
	return t, ok
}

func badKind(kind string) error {
	return fmt.Errorf("unknown kind %q (want %s or %s)", kind, Random, Deep)
}

func rotationTools() Tools {
	one := func(c []byte) (rotation.Board, error) {
		bs, err := rotation.Parse(c)
		if err == nil && len(bs) != 1 {
			err = fmt.Errorf("want one case, got %d", len(bs))
		}
		if err != nil {
			return rotation.Board{}, err
		}
		return bs[0], nil
	}
	return Tools{
		Unique: true, MultiCase: true, MaxDepth: func() int { return rotation.MaxOptimum },
		Generate: func(kind string, r *rand.Rand, n int) ([]byte, error) {
			bs := make([]rotation.Board, n)
			for i := range bs {
				switch kind {
				case Random:
					bs[i] = rotation.Random(r)
				case Deep:
					bs[i] = rotation.Deep(r)
				default:
					return nil, badKind(kind)
				}
			}
			return rotation.FormatInput(bs), nil
		},
		Split: rotation.SplitCases,
		Join:  func(cs [][]byte) ([]byte, error) { return rotation.JoinCases(cs), nil },
		Depth: func(c []byte) (int, error) {
			b, err := one(c)
			if err != nil {
				return 0, err
			}
			return rotation.Optimum(b), nil
		},
		Path: func(c []byte) ([][]byte, error) {
			b, err := one(c)
			if err != nil {
				return nil, err
			}
			var out [][]byte
			for _, p := range rotation.PathToGoal(b) {
				out = append(out, rotation.FormatInput([]rotation.Board{p}))
			}
			return out, nil
		},
		AtDepth: func(r *rand.Rand, d int) ([]byte, bool) {
			b, err := rotation.WithOptimum(r, d)
			if err != nil {
				return nil, false
			}
			return rotation.FormatInput([]rotation.Board{b}), true
		},
	}
}

func clocksTools() Tools {
	return Tools{
		Unique: true, MultiCase: false, MaxDepth: clocks.MaxMoves,
		Generate: func(kind string, r *rand.Rand, _ int) ([]byte, error) {
			switch kind {
			case Random:
				return clocks.Random(r).Input(), nil
			case Deep:
				return clocks.Deep(r).Input(), nil
			}
			return nil, badKind(kind)
		},
		All: func(*rand.Rand) [][]byte {
			files := make([][]byte, 0, clocks.NumPositions)
			for p := range clocks.All() {
				files = append(files, p.Input())
			}
			return files
		},
		Split: func(input []byte) ([][]byte, error) {
			if err := clocks.Validate(input); err != nil {
				return nil, err
			}
			return [][]byte{input}, nil
		},
		Join: func(cs [][]byte) ([]byte, error) {
			if len(cs) != 1 {
				return nil, errors.New("clocks has one case per file")
			}
			return cs[0], nil
		},
		Depth: func(c []byte) (int, error) {
			p, err := clocks.Parse(c)
			if err != nil {
				return 0, err
			}
			return clocks.Optimal(p).Total(), nil
		},
		Path: func(c []byte) ([][]byte, error) {
			p, err := clocks.Parse(c)
			if err != nil {
				return nil, err
			}
			var out [][]byte
			for _, q := range clocks.PathToGoal(p) {
				out = append(out, q.Input())
			}
			return out, nil
		},
		AtDepth: func(r *rand.Rand, d int) ([]byte, bool) {
			p, ok := clocks.WithMoves(r, d)
			if !ok {
				return nil, false
			}
			return p.Input(), true
		},
	}
}

func eightPuzzleTools() Tools {
	one := func(c []byte) (eightpuzzle.Board, error) {
		bs, err := eightpuzzle.ParseInput(c)
		if err == nil && len(bs) != 1 {
			err = fmt.Errorf("want one case, got %d", len(bs))
		}
		if err != nil {
			return eightpuzzle.Board{}, err
		}
		return bs[0], nil
	}
	return Tools{
		Unique: false, MultiCase: true, MaxDepth: eightpuzzle.MaxDistance,
		Generate: func(kind string, r *rand.Rand, n int) ([]byte, error) {
			bs := make([]eightpuzzle.Board, n)
			for i := range bs {
				switch kind {
				case Random:
					bs[i] = eightpuzzle.RandomAny(r)
				case Deep:
					bs[i], _ = eightpuzzle.AtDistance(r, eightpuzzle.MaxDistance())
				default:
					return nil, badKind(kind)
				}
			}
			return eightpuzzle.Format(bs), nil
		},
		All: func(r *rand.Rand) [][]byte {
			bs := eightpuzzle.All()
			for range 1000 {
				bs = append(bs, eightpuzzle.RandomUnsolvable(r))
			}
			return [][]byte{eightpuzzle.Format(bs)}
		},
		Split: eightpuzzle.SplitCases,
		Join:  func(cs [][]byte) ([]byte, error) { return eightpuzzle.JoinCases(cs), nil },
		Depth: func(c []byte) (int, error) {
			b, err := one(c)
			if err != nil {
				return 0, err
			}
			return eightpuzzle.Distance(b), nil
		},
		Path: func(c []byte) ([][]byte, error) {
			b, err := one(c)
			if err != nil {
				return nil, err
			}
			var out [][]byte
			for _, p := range eightpuzzle.PathToGoal(b) {
				out = append(out, eightpuzzle.Format([]eightpuzzle.Board{p}))
			}
			return out, nil
		},
		AtDepth: func(r *rand.Rand, d int) ([]byte, bool) {
			b, ok := eightpuzzle.AtDistance(r, d)
			if !ok {
				return nil, false
			}
			return eightpuzzle.Format([]eightpuzzle.Board{b}), true
		},
	}
}
