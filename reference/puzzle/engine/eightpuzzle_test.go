package engine_test

import (
	"bytes"
	"context"
	"math/rand/v2"
	"testing"

	"github.com/optjudge/optjudge/internal/handwritten/eightpuzzle"
	"github.com/optjudge/optjudge/reference/puzzle"
	"github.com/optjudge/optjudge/reference/puzzle/engine"
)

// eightState is a hand-written board as a state of the definition (tiles
// 1..8 are symbols 0..7, the blank x symbol 8).
func eightState(b eightpuzzle.Board) engine.State {
	st := engine.State{Cells: make([]uint8, 9)}
	for i, t := range b {
		st.Cells[i] = 8
		if t != 0 {
			st.Cells[i] = t - 1
		}
	}
	return st
}

// eightOutput is the reference output of boards by the definition.
func eightOutput(t testing.TB, in *puzzle.Instance, s *engine.Solver, boards []eightpuzzle.Board) []byte {
	var out bytes.Buffer
	for _, b := range boards {
		moves, err := s.Solve(ctx, eightState(b))
		switch err {
		case nil:
			out.WriteString(in.FormatMoves(moves))
		case engine.ErrUnsolvable:
			out.WriteString(in.Def.Output.Unsolvable)
		default:
			t.Fatalf("%v: %v", b, err)
		}
		out.WriteByte('\n')
	}
	return out.Bytes()
}

// TestEightPuzzleAllBoards compares the output of every solvable board,
// and of as many unsolvable ones, with the hand-written reference's, byte
// for byte; the answer is the same in every mode (the smallest of the
// shortest is a shortest answer and an answer). Each answer replays to the
// goal, and the fast "any" answer too.
func TestEightPuzzleAllBoards(t *testing.T) {
	in, s := solver(t, "eight-puzzle", 0, engine.Options{})
	boards := eightpuzzle.All()
	r := rand.New(rand.NewPCG(1077, 1))
	n := len(boards)
	if testing.Short() {
		r.Shuffle(n, func(i, j int) { boards[i], boards[j] = boards[j], boards[i] })
		boards = boards[:n/10]
	}
	for range len(boards) {
		boards = append(boards, eightpuzzle.RandomUnsolvable(r))
	}
	want, err := eightpuzzle.Solve(eightpuzzle.Format(boards))
	if err != nil {
		t.Fatal(err)
	}
	got := eightOutput(t, in, s, boards)
	if !bytes.Equal(got, want) {
		gl, wl := bytes.Split(got, []byte("\n")), bytes.Split(want, []byte("\n"))
		for i := range gl {
			if !bytes.Equal(gl[i], wl[i]) {
				t.Fatalf("board %v: got %q, want %q", boards[i], gl[i], wl[i])
			}
		}
	}
	for i, b := range boards[:min(len(boards), 2000)] {
		st := eightState(b)
		for _, solve := range []func(context.Context, engine.State) ([]int, error){s.Solve, s.SolveAny} {
			moves, err := solve(ctx, st)
			if err == engine.ErrUnsolvable {
				continue
			}
			end := st
			for _, m := range moves {
				end, _ = in.Spec.Apply(end, m)
			}
			if !in.Spec.IsGoal(end) {
				t.Fatalf("board %d %v: %v does not reach the goal", i, b, moves)
			}
		}
	}
	t.Logf("%d boards", len(boards))
}
