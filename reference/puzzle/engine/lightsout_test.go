package engine_test

import (
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/optjudge/optjudge/reference/puzzle/engine"
)

// chase solves 5x5 Lights Out the classic way, sharing nothing with the
// engine: each of the 32 press sets of the top row determines the rest
// (press under every lit cell, row by row); those that clear the bottom row
// solve the board. It returns the fewest presses, the ascending list
// smallest first, and false for a board no press set clears.
func chase(board uint32) ([]int, bool) {
	var best []int
	found := false
	for top := range uint32(32) {
		lit, presses := board, top
		press := func(r, c int) {
			presses |= 1 << (5*r + c)
			for _, d := range [][2]int{{0, 0}, {-1, 0}, {1, 0}, {0, -1}, {0, 1}} {
				if rr, cc := r+d[0], c+d[1]; rr >= 0 && rr < 5 && cc >= 0 && cc < 5 {
					lit ^= 1 << (5*rr + cc)
				}
			}
		}
		for c := range 5 {
			if top>>c&1 != 0 {
				presses &^= 1 << c
				press(0, c)
			}
		}
		for r := 1; r < 5; r++ {
			for c := range 5 {
				if lit>>(5*(r-1)+c)&1 != 0 {
					press(r, c)
				}
			}
		}
		if lit != 0 {
			continue
		}
		list := []int{}
		for x := presses; x != 0; x &= x - 1 {
			list = append(list, bits.TrailingZeros32(x))
		}
		if !found || len(list) < len(best) || len(list) == len(best) && slices.Compare(list, best) < 0 {
			best, found = list, true
		}
	}
	return best, found
}

func TestLightsOutAgainstChasing(t *testing.T) {
	_, s := solver(t, "lights-out", 0, engine.Options{})
	r := rand.New(rand.NewPCG(25, 25))
	solvable := 0
	const n = 20000
	for i := range n {
		board := r.Uint32() & (1<<25 - 1)
		if i < 32 {
			board = uint32(i) << 20 // the bottom row alone
		}
		st := engine.State{Cells: make([]uint8, 25)}
		for c := range 25 {
			st.Cells[c] = uint8(board >> c & 1)
		}
		want, ok := chase(board)
		got, err := s.Solve(ctx, st)
		if !ok {
			if err != engine.ErrUnsolvable {
				t.Fatalf("board %025b: got %v, %v, want unsolvable", board, got, err)
			}
			continue
		}
		solvable++
		if err != nil || !slices.Equal(got, want) && !(len(got) == 0 && len(want) == 0) {
			t.Fatalf("board %025b: got %v (%v), want %v", board, got, err, want)
		}
	}
	// The presses' kernel has dimension 2: a quarter of the boards can be
	// cleared.
	if solvable < n/4-400 || solvable > n/4+400 {
		t.Errorf("%d of %d boards solvable, want about a quarter", solvable, n)
	}
	t.Logf("%v", s)
}
