package rotation

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"sync"
)

// Random returns a uniformly random valid board.
func Random(r *rand.Rand) Board {
	var b Board
	for i := range b {
		b[i] = uint8(i/8 + 1)
	}
	r.Shuffle(len(b), func(i, j int) { b[i], b[j] = b[j], b[i] })
	return b
}

// Deep returns a random board among the deepest: its optimum is MaxOptimum.
func Deep(r *rand.Rand) Board {
	b, err := WithOptimum(r, MaxOptimum)
	if err != nil {
		panic(err) // unreachable: MaxOptimum is in range
	}
	return b
}

// WithOptimum returns a random board whose optimum is exactly n moves,
// 0 <= n <= MaxOptimum. One digit's set of cells is drawn from the sets at
// distance n, the other two split its complement among the sets at distance
// n or more; which digit is which is random too.
func WithOptimum(r *rand.Rand, n int) (Board, error) {
	if n < 0 || n > MaxOptimum {
		return Board{}, fmt.Errorf("optimum %d out of range 0..%d", n, MaxOptimum)
	}
	exact := setsAt(n)
	for {
		s1 := exact[r.IntN(len(exact))]
		if s2, ok := splitRest(r, s1, n); ok {
			return boardOf(r, [3]uint32{s1, s2, allCells &^ (s1 | s2)}), nil
		}
	}
}

// allCells is the set of all 24 cells.
const allCells = 1<<Cells - 1

var (
	bucketOnce sync.Once
	buckets    [][]uint32
)

// distBuckets returns, per distance d from the center, the sets of 8 cells
// at distance d in increasing order of their masks. The lists (2.9 MB in
// all) are built on first use, apart from the solver's table.
func distBuckets() [][]uint32 {
	bucketOnce.Do(func() {
		t := get()
		// Gosper's hack steps through the masks with eight bits set.
		for s := uint32(0xFF); s <= allCells; {
			d := t.distOf(s)
			for len(buckets) <= d {
				buckets = append(buckets, nil)
			}
			buckets[d] = append(buckets[d], s)
			low := s & -s
			next := s + low
			s = (next^s)>>2/low | next
		}
	})
	return buckets
}

// setsAt returns the sets of 8 cells at distance d from the center.
func setsAt(d int) []uint32 {
	b := distBuckets()
	if d < 0 || d >= len(b) {
		return nil
	}
	return b[d]
}

// splitRest picks a set s2 of 8 cells outside s1 such that s2 and the 8
// cells left outside both are at distance n or more, if there is one.
func splitRest(r *rand.Rand, s1 uint32, n int) (uint32, bool) {
	t := get()
	farther := distBuckets()[n:]
	far := 0
	for _, sets := range farther {
		far += len(sets)
	}
	// Deep sets are few and rarely fit together: list the fitting ones.
	if far < 100000 {
		var fits []uint32
		for _, sets := range farther {
			for _, s2 := range sets {
				if s2&s1 == 0 && t.distOf(allCells&^(s1|s2)) >= n {
					fits = append(fits, s2)
				}
			}
		}
		if len(fits) == 0 {
			return 0, false
		}
		return fits[r.IntN(len(fits))], true
	}
	// Otherwise most splits fit: draw them at random.
	rest := make([]int, 0, 16)
	for c := range Cells {
		if s1&(1<<c) == 0 {
			rest = append(rest, c)
		}
	}
	for range 64 {
		r.Shuffle(len(rest), func(i, j int) { rest[i], rest[j] = rest[j], rest[i] })
		var s2 uint32
		for _, c := range rest[:8] {
			s2 |= 1 << c
		}
		if t.distOf(s2) >= n && t.distOf(allCells&^(s1|s2)) >= n {
			return s2, true
		}
	}
	return 0, false
}

// boardOf builds a board from three disjoint sets of 8 cells, giving them the
// digits 1, 2 and 3 in a random order.
func boardOf(r *rand.Rand, sets [3]uint32) Board {
	digits := [3]uint8{1, 2, 3}
	r.Shuffle(3, func(i, j int) { digits[i], digits[j] = digits[j], digits[i] })
	var b Board
	for i, s := range sets {
		for s != 0 {
			c := bits.TrailingZeros32(s)
			b[c] = digits[i]
			s &= s - 1
		}
	}
	return b
}

// DeepBoards returns every board whose optimum is MaxOptimum (192 of
// them), in the order of their digits' cell sets; for the tests that hold
// other solvers to this one.
func DeepBoards() []Board {
	t := get()
	var far []uint32
	for _, sets := range distBuckets()[MaxOptimum:] {
		far = append(far, sets...)
	}
	var boards []Board
	for _, s1 := range far {
		for _, s2 := range far {
			s3 := uint32(allCells) &^ (s1 | s2)
			if s1&s2 != 0 || t.distOf(s3) < MaxOptimum || min(t.distOf(s1), t.distOf(s2), t.distOf(s3)) != MaxOptimum {
				continue
			}
			var b Board
			for i, s := range [3]uint32{s1, s2, s3} {
				for s != 0 {
					c := bits.TrailingZeros32(s)
					b[c] = uint8(i + 1)
					s &= s - 1
				}
			}
			boards = append(boards, b)
		}
	}
	return boards
}
