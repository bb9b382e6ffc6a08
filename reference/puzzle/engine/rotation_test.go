package engine_test

import (
	"math/rand/v2"
	"testing"

	"github.com/optjudge/optjudge/reference/puzzle"
	"github.com/optjudge/optjudge/reference/puzzle/engine"
	"github.com/optjudge/optjudge/reference/rotation"
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
	moves, err := s.Solve(st)
	if err != nil {
		t.Fatalf("board %v: %v", b, err)
	}
	end := st
	for _, m := range moves {
		end, _ = in.Spec.Apply(end, m)
	}
	return in.FormatMoves(moves) + "\n" + in.Symbols[end.Cells[in.Values[0].Cell]] + "\n"
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
