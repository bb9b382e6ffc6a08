package eightpuzzle

import (
	"math/rand/v2"
	"slices"
	"testing"
)

func TestRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	blanks := [9]int{}
	for range 9000 {
		b := Random(r)
		if !b.Valid() || !b.Solvable() {
			t.Fatalf("Random gave %v, want a valid solvable board", b)
		}
		blanks[b.Blank()]++
		u := RandomUnsolvable(r)
		if !u.Valid() || u.Solvable() {
			t.Fatalf("RandomUnsolvable gave %v, want a valid unsolvable board", u)
		}
	}
	// Uniform boards put the blank on each square 1000 times on average; a
	// count outside 800-1200 is more than six standard deviations away.
	for sq, n := range blanks {
		if n < 800 || n > 1200 {
			t.Errorf("blank on square %d in %d of 9000 random boards, want about 1000", sq, n)
		}
	}
}

func TestRandomDeterministic(t *testing.T) {
	a := rand.New(rand.NewPCG(5, 5))
	b := rand.New(rand.NewPCG(5, 5))
	for range 100 {
		if x, y := Random(a), Random(b); x != y {
			t.Fatalf("same seed gave %v and %v", x, y)
		}
	}
}

func TestDeepest(t *testing.T) {
	want := []Board{{6, 4, 7, 8, 5, 0, 3, 2, 1}, {8, 6, 7, 2, 5, 4, 3, 0, 1}}
	if got := Deepest(); !slices.Equal(got, want) {
		t.Errorf("Deepest() = %v, want %v", got, want)
	}
	if got := MaxDistance(); got != 31 {
		t.Errorf("MaxDistance() = %d, want 31", got)
	}
	for _, b := range want {
		if got := Distance(b); got != 31 {
			t.Errorf("Distance(%v) = %d, want 31", b, got)
		}
	}
}

func TestAtDistance(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for d := 0; d <= 31; d++ {
		b, ok := AtDistance(r, d)
		if !ok || Distance(b) != d {
			t.Errorf("AtDistance(%d) = %v, %v with distance %d", d, b, ok, Distance(b))
		}
	}
	for _, d := range []int{-1, 32, 255, 1000} {
		if b, ok := AtDistance(r, d); ok {
			t.Errorf("AtDistance(%d) = %v, true; want false", d, b)
		}
	}
	if b, _ := AtDistance(r, 0); b != Goal() {
		t.Errorf("AtDistance(0) = %v, want the goal", b)
	}
}

func TestAll(t *testing.T) {
	all := All()
	if len(all) != numBoards/2 {
		t.Fatalf("len(All()) = %d, want %d", len(all), numBoards/2)
	}
	for i, b := range all {
		if !b.Valid() || !b.Solvable() {
			t.Fatalf("All()[%d] = %v, want a valid solvable board", i, b)
		}
		if i > 0 && rank(all[i-1]) >= rank(b) {
			t.Fatalf("All()[%d] = %v is not after %v", i, b, all[i-1])
		}
	}
}
