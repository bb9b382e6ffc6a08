package engine_test

import (
	"math/rand/v2"
	"testing"

	"github.com/optjudge/optjudge/internal/handwritten/rotation"
	"github.com/optjudge/optjudge/reference/puzzle"
	"github.com/optjudge/optjudge/reference/puzzle/engine"
)

// rotationState is a hand-written board as a state of the definition
// (digits 1..3 are symbols 0..2).
func rotationState(b rotation.Board) engine.State {
	st := engine.State{Cells: make([]uint8, rotation.Cells)}
	for i, d := range b {
		st.Cells[i] = d - 1
	}
	return st
}

// rotationAnswer is the reference output of a board by the definition.
func rotationAnswer(t testing.TB, in *puzzle.Instance, s *engine.Solver, b rotation.Board) string {
	st := rotationState(b)
	moves, err := s.Solve(ctx, st)
	if err != nil {
		t.Fatalf("board %v: %v", b, err)
	}
	end := st
	for _, m := range moves {
		end, _ = in.Spec.Apply(end, m)
	}
	return in.FormatMoves(moves) + "\n" + in.ValuesOf(end)[0] + "\n"
}

func TestRotationRandomBoards(t *testing.T) {
	in, s := solver(t, "rotation-game", 0, engine.Options{})
	r := rand.New(rand.NewPCG(1343, 1))
	n := 10000
	for range n {
		b := rotation.Random(r)
		if got, want := rotationAnswer(t, in, s, b), rotation.Optimal(b).String(); got != want {
			t.Fatalf("board %v: got %q, want %q", b, got, want)
		}
	}
	t.Logf("%v", s)
}

// deepRotationBoards lists every board whose optimum is 13, the deepest,
// from the hand-written reference's distances alone: the sets of eight
// cells at distance 13 or more, and the ways three of them, each digit's,
// split the board with at least one at 13.
func deepRotationBoards(t *testing.T) []rotation.Board {
	t.Helper()
	dist := map[uint32]int{}
	var far []uint32
	for s := uint32(0xFF); s < 1<<24; {
		var b rotation.Board
		for i := range b {
			b[i] = 2
		}
		for i, k := 0, 0; i < 24; i++ {
			if s>>i&1 != 0 {
				b[i] = 1
			} else if k++; k > 8 {
				b[i] = 3
			}
		}
		if d := rotation.Distances(b)[0]; d >= 13 {
			dist[s] = d
			far = append(far, s)
		}
		low := s & -s
		next := s + low
		s = (next^s)>>2/low | next
	}
	var boards []rotation.Board
	for _, s1 := range far {
		for _, s2 := range far {
			s3 := (1<<24 - 1) &^ (s1 | s2)
			d3, ok := dist[s3]
			if s1&s2 != 0 || !ok || min(dist[s1], dist[s2], d3) != 13 {
				continue
			}
			var b rotation.Board
			for i := range b {
				switch {
				case s1>>i&1 != 0:
					b[i] = 1
				case s2>>i&1 != 0:
					b[i] = 2
				default:
					b[i] = 3
				}
			}
			boards = append(boards, b)
		}
	}
	return boards
}

// TestRotationDeepBoards compares the answers of all 192 boards that need
// 13 moves with the hand-written reference's.
func TestRotationDeepBoards(t *testing.T) {
	if testing.Short() {
		t.Skip("enumerates the 735,471 sets of cells with the hand-written reference")
	}
	boards := deepRotationBoards(t)
	if len(boards) != 192 {
		t.Fatalf("got %d boards of optimum 13, want 192", len(boards))
	}
	in, s := solver(t, "rotation-game", 0, engine.Options{})
	for _, b := range boards {
		if rotation.Optimum(b) != 13 {
			t.Fatalf("board %v: optimum %d, want 13", b, rotation.Optimum(b))
		}
		if got, want := rotationAnswer(t, in, s, b), rotation.Optimal(b).String(); got != want {
			t.Fatalf("board %v: got %q, want %q", b, got, want)
		}
	}
}
