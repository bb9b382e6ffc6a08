package engine_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/optjudge/optjudge/reference/puzzle/engine"
)

// manhattan is an independent fifteen-puzzle solver for the tests:
// iterative deepening A* with the Manhattan distance, the blank's moves
// tried in the order D, L, R, U and never straight back, so that its
// first solution at the least depth is the smallest shortest one. It
// shares nothing with the engine. Tiles are 1..15, the blank 0, the goal
// 1 2 ... 15 0.
type manhattan struct {
	board [16]int
	path  []byte
}

var fifteenMoves = [4]struct {
	name   byte
	dr, dc int
}{{'D', 1, 0}, {'L', 0, -1}, {'R', 0, 1}, {'U', -1, 0}}

func (p *manhattan) h() int {
	h := 0
	for c, t := range p.board {
		if t != 0 {
			g := t - 1
			h += abs(g/4-c/4) + abs(g%4-c%4)
		}
	}
	return h
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func (p *manhattan) dfs(blank, g, bound, last int) (int, bool) {
	h := p.h()
	if g+h > bound {
		return g + h, false
	}
	if h == 0 {
		return g, true
	}
	next := 1 << 30
	for m, mv := range fifteenMoves {
		if last >= 0 && m == 3-last { // D/U and L/R are 0/3 and 1/2
			continue
		}
		r, c := blank/4+mv.dr, blank%4+mv.dc
		if r < 0 || r > 3 || c < 0 || c > 3 {
			continue
		}
		q := 4*r + c
		p.board[blank], p.board[q] = p.board[q], 0
		p.path = append(p.path, mv.name)
		t, found := p.dfs(q, g+1, bound, m)
		if found {
			return t, true
		}
		p.path = p.path[:len(p.path)-1]
		p.board[q], p.board[blank] = p.board[blank], 0
		next = min(next, t)
	}
	return next, false
}

func (p *manhattan) solve() string {
	blank := slices.Index(p.board[:], 0)
	for bound := p.h(); ; {
		p.path = p.path[:0]
		t, found := p.dfs(blank, 0, bound, -1)
		if found {
			return string(p.path)
		}
		bound = t
	}
}

// TestFifteenPuzzleAgainstManhattan solves boards of up to 40 moves with
// the engine's method, additive pattern databases (of 5, 5 and 5 tiles
// here, so that the test builds them in seconds; the shipped 6-6-3 is the
// same code with larger groups, timed by BenchmarkFifteenPuzzleBuild), and
// with the Manhattan-distance search: the same answer, which replays to
// the goal.
func TestFifteenPuzzleAgainstManhattan(t *testing.T) {
	in, s := solver(t, "fifteen-puzzle", 0, engine.Options{CacheDir: t.TempDir(), MaxPattern: 524160})
	t.Logf("%v", s)
	r := rand.New(rand.NewPCG(40, 40))
	n, longest, lengths := 12, 0, []int{}
	if testing.Short() {
		n = 4
	}
	for solved := 0; solved < n; {
		st := in.Spec.Goal.States[0]
		state := engine.State{Cells: append([]uint8(nil), st...)}
		// A walk that never steps straight back, long enough to reach
		// 30 to 40 moves from the goal most times.
		last := -1
		for steps := 40 + r.IntN(80); steps > 0; {
			m := r.IntN(4)
			if m == 3-last {
				continue
			}
			if next, ok := in.Spec.Apply(state, m); ok {
				state, last = next, m
				steps--
			}
		}
		if ok, err := s.AtMost(ctx, state, 40); err != nil || !ok {
			continue
		}
		moves, err := s.Solve(ctx, state)
		if err != nil {
			t.Fatal(err)
		}
		var p manhattan
		for c, v := range state.Cells {
			p.board[c] = (int(v) + 1) % 16 // symbols 0..14 are tiles 1..15, 15 the blank
		}
		want := p.solve()
		if got := in.FormatMoves(moves); got != want {
			t.Fatalf("%v: got %q, want %q", state.Cells, got, want)
		}
		end := state
		for _, m := range moves {
			end, _ = in.Spec.Apply(end, m)
		}
		if !in.Spec.IsGoal(end) {
			t.Fatalf("%v: %q does not reach the goal", state.Cells, want)
		}
		longest = max(longest, len(moves))
		lengths = append(lengths, len(moves))
		solved++
	}
	t.Logf("%d boards of %v moves", n, lengths)

	// A random board (about 53 moves): the weighted search's answer
	// replays to the goal, and a cancelled search stops with the
	// context's error.
	st, err := s.Random(r)
	if err != nil {
		t.Fatal(err)
	}
	moves, err := s.SolveAny(ctx, st)
	if err != nil {
		t.Fatal(err)
	}
	end := st
	for _, m := range moves {
		end, _ = in.Spec.Apply(end, m)
	}
	if !in.Spec.IsGoal(end) {
		t.Errorf("SolveAny's %d moves do not reach the goal", len(moves))
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := s.Solve(cancelled, st); !errors.Is(err, context.Canceled) {
		t.Errorf("a cancelled search: got %v, want context.Canceled", err)
	}
	if !testing.Short() && longest < 30 {
		t.Errorf("the longest board needs %d moves, want some of 30 to 40", longest)
	}
}
