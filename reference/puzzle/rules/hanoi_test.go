package rules_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/optjudge/optjudge/reference/puzzle/engine"
)

// hanoiState is n discs on pegs (1 to 3, as written) and their goal.
func hanoiState(pegs, goal []int) engine.State {
	st := engine.State{}
	for _, p := range append(append([]int(nil), pegs...), goal...) {
		st.Cells = append(st.Cells, uint8(p-1)) // the symbols are "1", "2", "3"
	}
	return st
}

// TestHanoiClassic checks the published fact: n discs from one peg to
// another take 2^n - 1 moves (Lucas 1883), for n = 1 to 10.
func TestHanoiClassic(t *testing.T) {
	for n := 1; n <= 10; n++ {
		in := shipped(t, "hanoi", n)
		s := solverOf(t, in)
		pegs, goal := make([]int, n), make([]int, n)
		for i := range n {
			pegs[i], goal[i] = 1, 3
		}
		moves, err := s.Solve(ctx, hanoiState(pegs, goal))
		if err != nil {
			t.Fatal(err)
		}
		if len(moves) != 1<<n-1 {
			t.Errorf("%d discs: got %d moves, want %d", n, len(moves), 1<<n-1)
		}
	}
}

// hanoiBFS is an independent solver: breadth-first search from the goal
// over every arrangement of n discs, then from the start the first move,
// in the order 12 13 21 23 31 32, that brings the goal closer.
func hanoiBFS(n int, start, goal []int) []string {
	key := func(p []int) string { return fmt.Sprint(p) }
	moves := func(p []int) (out [][]int, names []string) {
		for a := 1; a <= 3; a++ {
			for b := 1; b <= 3; b++ {
				top, topB := -1, -1
				for k := n - 1; k >= 0; k-- {
					if p[k] == a {
						top = k
					}
					if p[k] == b {
						topB = k
					}
				}
				if a == b || top < 0 || topB >= 0 && topB < top {
					continue
				}
				q := append([]int(nil), p...)
				q[top] = b
				out, names = append(out, q), append(names, fmt.Sprintf("%d%d", a, b))
			}
		}
		return out, names
	}
	dist := map[string]int{key(goal): 0}
	queue := [][]int{goal}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		next, _ := moves(p)
		for _, q := range next {
			if _, ok := dist[key(q)]; !ok {
				dist[key(q)] = dist[key(p)] + 1
				queue = append(queue, q)
			}
		}
	}
	var path []string
	for p := start; dist[key(p)] > 0; {
		next, names := moves(p)
		for i, q := range next {
			if dist[key(q)] == dist[key(p)]-1 {
				path, p = append(path, names[i]), q
				break
			}
		}
	}
	return path
}

// hanoiAll is every arrangement of n discs.
func hanoiAll(n int) (out [][]int) {
	for code := range pow3(n) {
		p := make([]int, n)
		for k, c := 0, code; k < n; k, c = k+1, c/3 {
			p[k] = c%3 + 1
		}
		out = append(out, p)
	}
	return out
}

// TestHanoiEveryState compares the engine with hanoiBFS on every start
// and goal of three discs, and on every start towards one goal of five.
func TestHanoiEveryState(t *testing.T) {
	all := hanoiAll
	check := func(n int, start, goal []int) {
		t.Helper()
		in := shipped(t, "hanoi", n)
		moves, err := solver(t, "hanoi", n).Solve(ctx, hanoiState(start, goal))
		if err != nil {
			t.Fatal(err)
		}
		if got, want := names(in, moves), strings.Join(hanoiBFS(n, start, goal), " "); got != want {
			t.Errorf("%d discs from %v to %v: got %q, want %q", n, start, goal, got, want)
		}
	}
	for _, goal := range all(3) {
		for _, start := range all(3) {
			check(3, start, goal)
		}
	}
	goal := []int{2, 3, 1, 1, 3}
	for _, start := range all(5) {
		check(5, start, goal)
	}
}

func pow3(n int) int {
	r := 1
	for range n {
		r *= 3
	}
	return r
}

// TestHanoiBidirectional answers every start of five discs towards one
// goal, and every start and goal of three, from both ends (the search
// for spaces too large for a table from the goal) and compares the
// answers with hanoiBFS's.
func TestHanoiBidirectional(t *testing.T) {
	for _, n := range []int{3, 5} {
		in := shipped(t, "hanoi", n)
		sp := *in.Spec
		sp.Method = engine.MethodBidirectional
		s, err := engine.New(&sp, engine.Options{})
		if err != nil {
			t.Fatal(err)
		}
		goals := hanoiAll(n)
		if n == 5 {
			goals = [][]int{{2, 3, 1, 1, 3}}
		}
		for _, goal := range goals {
			for _, start := range hanoiAll(n) {
				moves, err := s.Solve(ctx, hanoiState(start, goal))
				if err != nil {
					t.Fatal(err)
				}
				if got, want := names(in, moves), strings.Join(hanoiBFS(n, start, goal), " "); got != want {
					t.Fatalf("%d discs from %v to %v: got %q, want %q", n, start, goal, got, want)
				}
			}
		}
	}
}
