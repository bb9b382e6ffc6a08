package engine_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/optjudge/optjudge/reference/puzzle/engine"
)

// cubeSpec is twsearch's 3x3x3 definition (corners modulo 3, edges modulo
// 2, centres fixed; the 18 moves of the half-turn metric).
func cubeSpec(tb testing.TB) *engine.Spec {
	tb.Helper()
	d, err := twsDefinition(tb, "3x3x3")
	if err != nil {
		tb.Fatal(err)
	}
	in, err := d.Instance(0)
	if err != nil {
		tb.Fatal(err)
	}
	return in.Spec
}

// cubeSolver is a prepared solver of the 3x3x3 with small pruning tables
// (a 1 MiB budget: quick to build, enough for shallow positions).
func cubeSolver(tb testing.TB, sp *engine.Spec, threads int) *engine.Solver {
	tb.Helper()
	s, err := engine.New(sp, engine.Options{MaxMemory: 1 << 20, Threads: threads})
	if err != nil {
		tb.Fatal(err)
	}
	if err := s.Prepare(); err != nil {
		tb.Fatal(err)
	}
	return s
}

// scramble applies n random moves to the goal.
func scramble(sp *engine.Spec, r *rand.Rand, n int) (engine.State, []int) {
	st := engine.State{Cells: slices.Clone(sp.Goal.States[0]), Orient: make([]uint8, sp.Cells)}
	var moves []int
	for range n {
		m := r.IntN(len(sp.Moves))
		st, _ = sp.Apply(st, m)
		moves = append(moves, m)
	}
	return st, moves
}

// plainSmallest is the test's own search: depth-first over every
// sequence of moves in declared order, depth by depth, with no pruning
// table and no canonical sequences; its first solution is the
// lexicographically smallest of the shortest.
func plainSmallest(sp *engine.Spec, st engine.State, maxDepth int) []int {
	var path []int
	var dfs func(s engine.State, left int) bool
	dfs = func(s engine.State, left int) bool {
		if left == 0 {
			return sp.IsGoal(s)
		}
		for m := range sp.Moves {
			t, _ := sp.Apply(s, m)
			path = append(path, m)
			if dfs(t, left-1) {
				return true
			}
			path = path[:len(path)-1]
		}
		return false
	}
	for d := 0; d <= maxDepth; d++ {
		if dfs(st, d) {
			return path
		}
	}
	return nil
}

func replays(sp *engine.Spec, st engine.State, moves []int) bool {
	for _, m := range moves {
		st, _ = sp.Apply(st, m)
	}
	return sp.IsGoal(st)
}

// TestCubeSearchSmallest solves shallow scrambles of the 3x3x3 and
// compares each answer with the plain search's: the same moves, so the
// same optimal length and the same smallest answer.
func TestCubeSearchSmallest(t *testing.T) {
	sp := cubeSpec(t)
	s := cubeSolver(t, sp, 1)
	if s.Method() != engine.MethodSearch || !strings.Contains(s.String(), "sets of pieces") {
		t.Fatalf("method %v: %s", s.Method(), s)
	}
	r := rand.New(rand.NewPCG(29, 1))
	depths := []int{0, 1, 2, 3, 3, 4, 4, 4}
	if !testing.Short() {
		depths = append(depths, 5, 5)
	}
	for _, n := range depths {
		st, scr := scramble(sp, r, n)
		got, err := s.Solve(ctx, st)
		if err != nil {
			t.Fatal(err)
		}
		if !replays(sp, st, got) {
			t.Fatalf("scramble %v: answer %v does not solve", scr, got)
		}
		want := plainSmallest(sp, st, n)
		if !slices.Equal(got, want) {
			t.Errorf("scramble %v: answer %v, the plain search's %v", scr, got, want)
		}
	}
}

// TestCubeSearchParallel checks that an iteration split among goroutines
// gives the answer of the single-threaded search, on scrambles deep
// enough for several optimal answers, the split made from bound 2.
func TestCubeSearchParallel(t *testing.T) {
	sp := cubeSpec(t)
	one := cubeSolver(t, sp, 1)
	old := engine.SetParallelFrom(2)
	defer engine.SetParallelFrom(old)
	two := cubeSolver(t, sp, 2)
	four := cubeSolver(t, sp, 4)
	r := rand.New(rand.NewPCG(29, 2))
	n := 6
	if testing.Short() {
		n = 5
	}
	for range 4 {
		st, scr := scramble(sp, r, n)
		want, err := one.Solve(ctx, st)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range []*engine.Solver{two, four} {
			got, err := s.Solve(ctx, st)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, want) || !replays(sp, st, got) {
				t.Errorf("scramble %v: %v with threads, %v without", scr, got, want)
			}
		}
		ok, err := two.AtMost(ctx, st, len(want)-1)
		if err != nil || ok {
			t.Errorf("scramble %v: at most %d moves: %v, %v; want false", scr, len(want)-1, ok, err)
		}
	}
}

// TestCubeSearchBudget checks that a budget too small for the smallest
// useful pruning tables refuses the puzzle, with the sizes.
func TestCubeSearchBudget(t *testing.T) {
	sp := cubeSpec(t)
	_, err := engine.New(sp, engine.Options{MaxMemory: 100 << 10})
	if err == nil || !strings.Contains(err.Error(), "more than the memory budget of 102,400 bytes") || !strings.Contains(err.Error(), "4 of 8 pieces") {
		t.Errorf("got %v, want the refusal with the sizes", err)
	}
	s, err := engine.New(sp, engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// The default budget: the edges in two groups of 6, the corners whole.
	if want := "6 of 12 pieces (42,577,920 entries), 6 of 12 pieces (42,577,920 entries), 8 of 8 pieces (88,179,840 entries)"; !strings.Contains(s.String(), want) {
		t.Errorf("%s; want %s", s, want)
	}
}

// BenchmarkCubeSearch solves 3x3x3 positions scrambled by 11 random moves
// (16 MiB of pruning tables, built before the timer), an op a position,
// with one goroutine and with two side by side: the ratio is what the
// split of the iterations gives on this machine. The whole-process
// comparison with twsearch is in docs/twisty.md.
func BenchmarkCubeSearch(b *testing.B) {
	sp := cubeSpec(b)
	r := rand.New(rand.NewPCG(29, 3))
	var states []engine.State
	for range 8 {
		st, _ := scramble(sp, r, 11)
		states = append(states, st)
	}
	for _, threads := range []int{1, 2} {
		s, err := engine.New(sp, engine.Options{MaxMemory: 16 << 20, Threads: threads})
		if err != nil {
			b.Fatal(err)
		}
		if err := s.Prepare(); err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("threads=%d", threads), func(b *testing.B) {
			i := 0
			for b.Loop() {
				if _, err := s.Solve(ctx, states[i%len(states)]); err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
	}
}

// TestCubePatternsBothWays checks that the pattern databases found
// bottom-up (each unseen entry looking for one at the current distance)
// equal those found top-down only.
func TestCubePatternsBothWays(t *testing.T) {
	same, err := engine.BuildBothWays(cubeSpec(t), 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	if !same {
		t.Error("the tables differ")
	}
}

// BenchmarkCubePatternBuild builds the 3x3x3's first pattern database of
// the default budget (edges 6 of 12, 42,577,920 entries) top-down only
// and with the bottom-up layers, side by side.
func BenchmarkCubePatternBuild(b *testing.B) {
	sp := cubeSpec(b)
	for _, up := range []bool{false, true} {
		b.Run(fmt.Sprintf("bottomup=%v", up), func(b *testing.B) {
			for b.Loop() {
				if err := engine.BuildPattern(sp, engine.DefaultMaxMemory, 0, up); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
