package rotation

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkBuild builds a fresh set of tables each time, bypassing the
// sync.Once of the package's own.
func BenchmarkBuild(b *testing.B) {
	for b.Loop() {
		if t := build(); len(t.dist) != NumSets {
			b.Fatalf("got %d distances, want %d", len(t.dist), NumSets)
		}
	}
}

func benchmarkOptimal(b *testing.B, boards []Board) {
	get()
	i := 0
	for b.Loop() {
		Optimal(boards[i%len(boards)])
		i++
	}
}

// BenchmarkOptimalRandom solves uniformly random boards, after the build.
func BenchmarkOptimalRandom(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 1))
	boards := make([]Board, 1000)
	for i := range boards {
		boards[i] = Random(r)
	}
	benchmarkOptimal(b, boards)
}

// BenchmarkOptimalDeep solves boards that need 13 moves, after the build.
func BenchmarkOptimalDeep(b *testing.B) {
	r := rand.New(rand.NewPCG(2, 2))
	boards := make([]Board, 50)
	for i := range boards {
		boards[i] = Deep(r)
	}
	benchmarkOptimal(b, boards)
}

// BenchmarkSolve parses and solves a file of 50 random boards.
func BenchmarkSolve(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 3))
	boards := make([]Board, 50)
	for i := range boards {
		boards[i] = Random(r)
	}
	in := FormatInput(boards)
	get()
	b.SetBytes(int64(len(in)))
	for b.Loop() {
		if _, err := Solve(in); err != nil {
			b.Fatal(err)
		}
	}
}
