package judging

import (
	"testing"

	"github.com/optjudge/optjudge/internal/handwritten/clocks"
	"github.com/optjudge/optjudge/internal/handwritten/eightpuzzle"
	"github.com/optjudge/optjudge/internal/handwritten/rotation"
)

// The benchmarks run judge solve's whole path (reading the input file,
// the answers, writing them) through a shipped definition and through the
// hand-written reference it replaced, side by side, on the same input, the
// tables built beforehand:
//
//	go test ./reference/puzzle/judging -run '^$' -bench . -benchtime 3x

func benchSolve(b *testing.B, in []byte, cases int, solve func([]byte) ([]byte, error)) {
	if _, err := solve(in); err != nil { // builds the tables
		b.Fatal(err)
	}
	b.SetBytes(int64(len(in)))
	for b.Loop() {
		if _, err := solve(in); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(cases), "ns/case")
}

// BenchmarkSolveEightPuzzleAll solves a file of the 181,440 solvable
// boards.
func BenchmarkSolveEightPuzzleAll(b *testing.B) {
	boards := eightpuzzle.All()
	in := eightpuzzle.Format(boards)
	b.Run("hand-written", func(b *testing.B) { benchSolve(b, in, len(boards), eightpuzzle.Solve) })
	b.Run("defined", func(b *testing.B) { benchSolve(b, in, len(boards), shipped(b, "eight-puzzle").Solve) })
}

// BenchmarkSolveRotationDeep solves a file of the 192 boards of depth 13.
func BenchmarkSolveRotationDeep(b *testing.B) {
	boards := rotation.DeepBoards()
	in := rotation.FormatInput(boards)
	b.Run("hand-written", func(b *testing.B) { benchSolve(b, in, len(boards), rotation.Solve) })
	b.Run("defined", func(b *testing.B) { benchSolve(b, in, len(boards), shipped(b, "rotation-game").Solve) })
}

// BenchmarkSolveClocks solves the deepest position's file.
func BenchmarkSolveClocks(b *testing.B) {
	in := []byte("3 0 3\n0 1 0\n3 0 3\n")
	b.Run("hand-written", func(b *testing.B) { benchSolve(b, in, 1, clocks.Solve) })
	b.Run("defined", func(b *testing.B) { benchSolve(b, in, 1, shipped(b, "clocks").Solve) })
}

// BenchmarkValidateEightPuzzleAll validates the file of every board.
func BenchmarkValidateEightPuzzleAll(b *testing.B) {
	boards := eightpuzzle.All()
	in := eightpuzzle.Format(boards)
	validate := func(f func([]byte) error) func([]byte) ([]byte, error) {
		return func(in []byte) ([]byte, error) { return nil, f(in) }
	}
	b.Run("hand-written", func(b *testing.B) { benchSolve(b, in, len(boards), validate(eightpuzzle.Validate)) })
	b.Run("defined", func(b *testing.B) { benchSolve(b, in, len(boards), validate(shipped(b, "eight-puzzle").Validate)) })
}
