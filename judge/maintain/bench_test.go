package maintain

import (
	"context"
	"testing"

	"github.com/optjudge/optjudge/judge"
	"github.com/optjudge/optjudge/reference"
)

// BenchmarkGenerateDeep writes 10 files of 10 boards each 13 moves from
// the goal, with the reference's answers.
func BenchmarkGenerateDeep(b *testing.B) {
	p, err := problemsEmbedded("rotation-game")
	if err != nil {
		b.Fatal(err)
	}
	dir := b.TempDir()
	for b.Loop() {
		if _, err := Generate(p, GenerateOptions{Kind: reference.Deep, Count: 10, Cases: 10, Seed: 1, Dir: dir}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkStressShrink is judge stress on the capped eight-puzzle search:
// one failing test of 5 boards, shrunk to one board 13 moves away, every
// candidate graded in the sandbox (Python runs of ~70 ms each).
func BenchmarkStressShrink(b *testing.B) {
	p, err := problemsEmbedded("eight-puzzle")
	if err != nil {
		b.Fatal(err)
	}
	o := StressOptions{Judge: testJudge(b), Grade: gradeOptions(), Count: 20, Cases: 5, Seed: 1}
	for b.Loop() {
		res, err := Stress(context.Background(), p, judge.Submission{Path: "testdata/eight_capped.py"}, o)
		if err != nil || res.Failure == nil || res.Failure.Depth != 13 {
			b.Fatalf("got %+v, %v", res, err)
		}
	}
}

// BenchmarkStressAccepted is the throughput of judge stress on a correct
// Python submission: 64 random clocks tests per op.
func BenchmarkStressAccepted(b *testing.B) {
	p, err := problemsEmbedded("clocks")
	if err != nil {
		b.Fatal(err)
	}
	o := StressOptions{Judge: testJudge(b), Grade: gradeOptions(), Count: 64, Seed: 1}
	for b.Loop() {
		res, err := Stress(context.Background(), p, judge.Submission{Path: "../../problems/clocks/submissions/accepted/three_moves.py"}, o)
		if err != nil || res.Failure != nil {
			b.Fatalf("got %+v, %v", res, err)
		}
	}
}
