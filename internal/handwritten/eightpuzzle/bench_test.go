package eightpuzzle

import (
	"math/rand/v2"
	"testing"
)

func BenchmarkBuildTable(b *testing.B) {
	for b.Loop() {
		build()
	}
}

func BenchmarkSmallest(b *testing.B) {
	distances()
	r := rand.New(rand.NewPCG(1, 2))
	boards := make([]Board, 1024)
	for i := range boards {
		boards[i] = Random(r)
	}
	i := 0
	for b.Loop() {
		Smallest(boards[i%len(boards)])
		i++
	}
}

// BenchmarkSolveAll solves one file holding every solvable board and 1,000
// unsolvable ones.
func BenchmarkSolveAll(b *testing.B) {
	all := All()
	r := rand.New(rand.NewPCG(3, 4))
	for range 1000 {
		all = append(all, RandomUnsolvable(r))
	}
	in := Format(all)
	b.SetBytes(int64(len(in)))
	for b.Loop() {
		if _, err := Solve(in); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkValidate(b *testing.B) {
	in := Format(All())
	b.SetBytes(int64(len(in)))
	for b.Loop() {
		if err := Validate(in); err != nil {
			b.Fatal(err)
		}
	}
}
