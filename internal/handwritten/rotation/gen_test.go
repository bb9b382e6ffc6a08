package rotation

import (
	"math/rand/v2"
	"testing"
)

func TestRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var counts [Cells][4]int
	const n = 3000
	for range n {
		b := Random(r)
		if err := b.Valid(); err != nil {
			t.Fatalf("board %v: %v", b, err)
		}
		for i, d := range b {
			counts[i][d]++
		}
	}
	// Every cell holds each digit about a third of the time.
	for i, c := range counts {
		for d := 1; d <= 3; d++ {
			if c[d] < n/3-150 || c[d] > n/3+150 {
				t.Errorf("cell %d holds %d in %d of %d boards, want about %d", i, d, c[d], n, n/3)
			}
		}
	}
}

func TestGeneratorsDeterministic(t *testing.T) {
	gen := func() []Board {
		r := rand.New(rand.NewPCG(8, 9))
		b, err := WithOptimum(r, 10)
		if err != nil {
			t.Fatal(err)
		}
		return []Board{Random(r), b, Deep(r)}
	}
	a, b := gen(), gen()
	for i := range a {
		if a[i] != b[i] {
			t.Errorf("board %d: got %v, then %v", i, a[i], b[i])
		}
	}
}

func TestWithOptimum(t *testing.T) {
	r := rand.New(rand.NewPCG(10, 11))
	for n := 0; n <= MaxOptimum; n++ {
		for range 5 {
			b, err := WithOptimum(r, n)
			if err != nil {
				t.Fatalf("optimum %d: %v", n, err)
			}
			if err := b.Valid(); err != nil {
				t.Fatalf("optimum %d: board %v: %v", n, b, err)
			}
			if got := Optimum(b); got != n {
				t.Errorf("board %v: got optimum %d, want %d", b, got, n)
			}
		}
	}
	for _, n := range []int{-1, MaxOptimum + 1} {
		if _, err := WithOptimum(r, n); err == nil {
			t.Errorf("optimum %d: got no error, want one", n)
		}
	}
}

func TestDeep(t *testing.T) {
	r := rand.New(rand.NewPCG(12, 12))
	digits := map[uint8]bool{}
	for range 12 {
		b := Deep(r)
		if err := b.Valid(); err != nil {
			t.Fatalf("board %v: %v", b, err)
		}
		if got := Optimum(b); got != MaxOptimum {
			t.Errorf("board %v: got optimum %d, want %d", b, got, MaxOptimum)
		}
		digits[Optimal(b).Digit] = true
	}
	if len(digits) != 3 {
		t.Errorf("got center digits %v over 12 deep boards, want all three", digits)
	}
}
