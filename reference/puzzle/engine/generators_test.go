package engine_test

import (
	"math/rand/v2"
	"testing"

	"github.com/optjudge/optjudge/reference/puzzle/engine"
)

// TestGenerators checks, for each shipped puzzle, that random states can
// be solved, that AtDistance's states are at their distance, that
// Deepest's is as deep as the known maximum, and that Path walks one move
// closer at a time.
func TestGenerators(t *testing.T) {
	tests := []struct {
		name     string
		size     int
		opts     engine.Options
		deepest  int // -1 where only a sample is measured
		distance []int
	}{
		{"eight-puzzle", 0, engine.Options{}, 31, []int{0, 1, 17, 31}},
		{"pocket-cube", 0, engine.Options{}, 11, []int{0, 5, 11}},
		{"rotation-game", 0, engine.Options{}, 13, []int{0, 4, 12, 13}},
		{"clocks", 0, engine.Options{}, 27, []int{0, 9, 27}},
		{"lights-out", 0, engine.Options{}, 15, []int{0, 3, 15}},
		{"pancakes", 7, engine.Options{}, 8, []int{0, 4, 8}},
		{"pancakes", 12, engine.Options{}, -1, []int{3, 9}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in, s := solver(t, tt.name, tt.size, tt.opts)
			sp := in.Spec
			r := rand.New(rand.NewPCG(3, uint64(tt.size)))
			for range 20 {
				st, err := s.Random(r)
				if err != nil {
					t.Fatal(err)
				}
				if ok, err := s.Solvable(st); !ok || err != nil {
					t.Fatalf("random state %v: solvable %v, %v", st, ok, err)
				}
			}
			for _, d := range tt.distance {
				st, ok, err := s.AtDistance(ctx, r, d)
				if err != nil || !ok {
					t.Fatalf("distance %d: %v, %v", d, ok, err)
				}
				if got, err := s.Distance(ctx, st); got != d || err != nil {
					t.Errorf("distance %d: got a state at %d (%v)", d, got, err)
				}
				checkPath(t, s, sp, st, d)
			}
			st, d, err := s.Deepest(ctx, r)
			if err != nil {
				t.Fatal(err)
			}
			if got, _ := s.Distance(ctx, st); got != d || tt.deepest >= 0 && d != tt.deepest {
				t.Errorf("deepest: got a state at %d said to be at %d, want %d", got, d, tt.deepest)
			}
			if tt.deepest >= 0 {
				if _, ok, _ := s.AtDistance(ctx, r, tt.deepest+1); ok {
					t.Errorf("got a state at distance %d, past the deepest", tt.deepest+1)
				}
			}
		})
	}
}

// checkPath checks that Path from st goes one move closer each step and
// ends solved, and that AtMost agrees with the distance.
func checkPath(t *testing.T, s *engine.Solver, sp *engine.Spec, st engine.State, d int) {
	t.Helper()
	path, err := s.Path(ctx, st)
	if err != nil || len(path) != d {
		t.Fatalf("path of a state at %d: %d states, %v", d, len(path), err)
	}
	for i, p := range path {
		if got, _ := s.Distance(ctx, p); got != d-1-i {
			t.Fatalf("path step %d: at %d, want %d", i+1, got, d-1-i)
		}
	}
	if d > 0 && !sp.IsGoal(path[d-1]) {
		t.Fatalf("the path ends at %v, not the goal", path[d-1])
	}
	for _, limit := range []int{d - 1, d} {
		if ok, err := s.AtMost(ctx, st, limit); ok != (limit >= d) || err != nil {
			t.Errorf("AtMost(%d) of a state at %d: %v, %v", limit, d, ok, err)
		}
	}
}

// TestAll enumerates the states of the puzzles small enough.
func TestAll(t *testing.T) {
	tests := []struct {
		name string
		want int
	}{{"eight-puzzle", 181440}, {"clocks", 262144}, {"pancakes", 40320}}
	for _, tt := range tests {
		size := 0
		if tt.name == "pancakes" {
			size = 8
		}
		_, s := solver(t, tt.name, size, engine.Options{})
		all, ok := s.All()
		if !ok {
			t.Fatalf("%s: no enumeration", tt.name)
		}
		n := 0
		for st := range all {
			if n%997 == 0 {
				if ok, _ := s.Solvable(st); !ok {
					t.Fatalf("%s: %v cannot be solved", tt.name, st)
				}
			}
			n++
		}
		if n != tt.want {
			t.Errorf("%s: got %d states, want %d", tt.name, n, tt.want)
		}
	}
	_, s := solver(t, "rotation-game", 0, engine.Options{})
	if _, ok := s.All(); ok {
		t.Errorf("rotation-game: got an enumeration of 9,465,511,770 boards")
	}
}

// TestBadStates checks that states of the wrong shape are errors, not
// answers.
func TestBadStates(t *testing.T) {
	_, s := solver(t, "eight-puzzle", 0, engine.Options{})
	for _, st := range []engine.State{
		{Cells: []uint8{0, 1, 2}},
		{Cells: []uint8{0, 1, 2, 3, 4, 5, 6, 7, 9}},
		{Cells: []uint8{0, 0, 2, 3, 4, 5, 6, 7, 8}},
	} {
		if _, err := s.Solve(ctx, st); err == nil || err == engine.ErrUnsolvable {
			t.Errorf("%v: got %v, want an error about the state", st.Cells, err)
		}
	}
}

// TestTwoByThree solves the docs' example (docs/puzzle-format.md): half of the 720 boards, the
// other half impossible.
func TestTwoByThree(t *testing.T) {
	in, s := solver(t, "two-by-three", 0, engine.Options{})
	d, _ := s.Distribution()
	total := uint64(0)
	for _, n := range d {
		total += n
	}
	if total != 360 {
		t.Errorf("got %d reachable boards, want 360", total)
	}
	st := in.Spec.Goal.States[0]
	swapped := engine.State{Cells: []uint8{st[1], st[0], st[2], st[3], st[4], st[5]}}
	if _, err := s.Solve(ctx, swapped); err != engine.ErrUnsolvable {
		t.Errorf("two tiles swapped: got %v, want ErrUnsolvable", err)
	}
	// The blank in the top left corner, the tiles after it in order.
	corner := engine.State{Cells: []uint8{5, 0, 1, 2, 3, 4}}
	moves, err := s.Solve(ctx, corner)
	if err != nil {
		t.Fatal(err)
	}
	end := corner
	for _, m := range moves {
		end, _ = in.Spec.Apply(end, m)
	}
	if !in.Spec.IsGoal(end) {
		t.Errorf("%s does not solve %v", in.FormatMoves(moves), corner.Cells)
	}
}
