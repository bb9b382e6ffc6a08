package engine_test

import (
	"math/rand/v2"
	"testing"

	"github.com/optjudge/optjudge/internal/handwritten/clocks"
	"github.com/optjudge/optjudge/internal/handwritten/eightpuzzle"
	"github.com/optjudge/optjudge/internal/handwritten/rotation"
	"github.com/optjudge/optjudge/reference/puzzle/engine"
)

// The benchmarks' .../handwritten halves run the hand-written references
// on the same work as the engine's halves beside them; the references'
// table builds are their own packages' BenchmarkBuildTable and
// BenchmarkBuild, run in the same command (see docs/benchmarks.md).

// benchPrepare builds a shipped definition's tables from scratch.
func benchPrepare(b *testing.B, name string, size int) {
	in := instance(b, name, size)
	b.ReportAllocs()
	for b.Loop() {
		s, err := engine.New(in.Spec, engine.Options{})
		if err != nil {
			b.Fatal(err)
		}
		if err := s.Prepare(); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkEightPuzzleBuild(b *testing.B) { benchPrepare(b, "eight-puzzle", 0) }
func BenchmarkRotationBuild(b *testing.B)    { benchPrepare(b, "rotation-game", 0) }
func BenchmarkPocketCubeBuild(b *testing.B)  { benchPrepare(b, "pocket-cube", 0) }

// BenchmarkEightPuzzleAll solves every solvable board, an op each.
func BenchmarkEightPuzzleAll(b *testing.B) {
	boards := eightpuzzle.All()
	b.Run("handwritten", func(b *testing.B) {
		i := 0
		for b.Loop() {
			eightpuzzle.Smallest(boards[i%len(boards)])
			i++
		}
	})
	_, s := solver(b, "eight-puzzle", 0, engine.Options{})
	states := make([]engine.State, len(boards))
	for i, bd := range boards {
		states[i] = eightState(bd)
	}
	b.Run("engine", func(b *testing.B) {
		i := 0
		for b.Loop() {
			s.Solve(ctx, states[i%len(states)])
			i++
		}
	})
}

func benchRotation(b *testing.B, boards []rotation.Board) {
	b.Run("handwritten", func(b *testing.B) {
		rotation.Optimal(boards[0])
		i := 0
		for b.Loop() {
			rotation.Optimal(boards[i%len(boards)])
			i++
		}
	})
	_, s := solver(b, "rotation-game", 0, engine.Options{})
	states := make([]engine.State, len(boards))
	for i, bd := range boards {
		states[i] = rotationState(bd)
	}
	b.Run("engine", func(b *testing.B) {
		i := 0
		for b.Loop() {
			s.Solve(ctx, states[i%len(states)])
			i++
		}
	})
}

// BenchmarkRotationDeep solves boards that need 13 moves, the deepest.
func BenchmarkRotationDeep(b *testing.B) {
	r := rand.New(rand.NewPCG(2, 2))
	boards := make([]rotation.Board, 50)
	for i := range boards {
		boards[i] = rotation.Deep(r)
	}
	benchRotation(b, boards)
}

// BenchmarkRotationRandom solves uniformly random boards.
func BenchmarkRotationRandom(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 1))
	boards := make([]rotation.Board, 1000)
	for i := range boards {
		boards[i] = rotation.Random(r)
	}
	benchRotation(b, boards)
}

// BenchmarkClocks solves random positions.
func BenchmarkClocks(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 3))
	ps := make([]clocks.Position, 1000)
	for i := range ps {
		ps[i] = clocks.Random(r)
	}
	b.Run("handwritten", func(b *testing.B) {
		clocks.Optimal(ps[0])
		i := 0
		for b.Loop() {
			clocks.Optimal(ps[i%len(ps)])
			i++
		}
	})
	_, s := solver(b, "clocks", 0, engine.Options{})
	b.Run("engine", func(b *testing.B) {
		i := 0
		for b.Loop() {
			s.Solve(ctx, clocksState(ps[i%len(ps)]))
			i++
		}
	})
}

// benchSolve solves random states of a shipped definition, with its
// tables in the user's cache directory (built on the first run).
func benchSolve(b *testing.B, name string, size int, n int) {
	dir, err := engine.DefaultCacheDir()
	if err != nil {
		b.Skip(err)
	}
	_, s := solver(b, name, size, engine.Options{CacheDir: dir})
	r := rand.New(rand.NewPCG(uint64(size), 99))
	states := make([]engine.State, n)
	for i := range states {
		if states[i], err = s.Random(r); err != nil {
			b.Fatal(err)
		}
	}
	i := 0
	for b.Loop() {
		if _, err := s.Solve(ctx, states[i%len(states)]); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

func BenchmarkPocketCubeSolve(b *testing.B) { benchSolve(b, "pocket-cube", 0, 1000) }
func BenchmarkPancakes16(b *testing.B)      { benchSolve(b, "pancakes", 16, 100) }
func BenchmarkLightsOut(b *testing.B)       { benchSolve(b, "lights-out", 0, 1000) }

// BenchmarkFifteenPuzzleSolve answers random solvable boards (about 53
// moves on average) once the pattern databases exist; the first run
// builds them (BenchmarkFifteenPuzzleBuild times that alone).
func BenchmarkFifteenPuzzleSolve(b *testing.B) { benchSolve(b, "fifteen-puzzle", 0, 100) }

// BenchmarkFifteenPuzzleBuild builds the fifteen-puzzle's pattern
// databases from scratch (6, 6 and 3 tiles).
func BenchmarkFifteenPuzzleBuild(b *testing.B) { benchPrepare(b, "fifteen-puzzle", 0) }
