package engine

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// slidingTarget is the 2x3 sliding puzzle whose every case wants the
// state 0 1 2 3 4 5 (the blank first): a target, so that a table from the
// goal and a search from both ends both apply.
func slidingTarget() *Guarded {
	g := slidingGuarded(2, 3, false)
	g.Goals = [][]Cond{nil}
	for c := range 6 {
		g.Goals[0] = append(g.Goals[0], Cond{Cell: c, Value: uint8(c), Other: -1})
		g.Targets = append(g.Targets, Assign{Cell: c, Value: uint8(c), From: -1})
	}
	return g
}

// permutations calls f with every arrangement of 0 to n-1.
func permutations(n int, f func([]uint8)) {
	p := make([]uint8, n)
	var rec func(k int, used int)
	rec = func(k int, used int) {
		if k == n {
			f(slices.Clone(p))
			return
		}
		for v := range n {
			if used&(1<<v) == 0 {
				p[k] = uint8(v)
				rec(k+1, used|1<<v)
			}
		}
	}
	rec(0, 0)
}

// TestBidirectionalAsTable answers every arrangement of the 2x3 sliding
// puzzle (720, half of them unsolvable) from both ends and by the table
// from the goal: the same answers, move for move.
func TestBidirectionalAsTable(t *testing.T) {
	sp := slidingSpec(slidingTarget(), 6, Budget{})
	table, both := *sp, *sp
	table.Method, both.Method = MethodTable, MethodBidirectional
	st, err := New(&table, Options{})
	if err != nil {
		t.Fatal(err)
	}
	sb, err := New(&both, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := sb.Method(); got != MethodBidirectional {
		t.Fatalf("method %s, want bidirectional", got)
	}
	solved := 0
	permutations(6, func(p []uint8) {
		want, errT := st.Solve(context.Background(), State{Cells: p})
		got, errB := sb.Solve(context.Background(), State{Cells: p})
		if fmt.Sprint(errT) != fmt.Sprint(errB) || !slices.Equal(got, want) {
			t.Fatalf("%v: from both ends %v (%v), by the table %v (%v)", p, got, errB, want, errT)
		}
		if errT == nil {
			solved++
		}
	})
	if solved != 360 {
		t.Errorf("%d solved, want 360", solved)
	}
}

// TestBidirectionalRefused: a search from both ends needs a target, moves
// that can be undone and of one cost, and keeps to the budget.
func TestBidirectionalRefused(t *testing.T) {
	for _, c := range []struct {
		name   string
		change func(g *Guarded, sp *Spec)
		want   string
	}{
		{"no target", func(g *Guarded, sp *Spec) { g.Targets = nil }, "needs the case's one goal state"},
		{"not undoable", func(g *Guarded, sp *Spec) { g.Undoable = false }, "needs moves that can be undone"},
		{"costs", func(g *Guarded, sp *Spec) { sp.Moves[2].Cost = 2 }, "needs moves of one cost: D costs 1, R 2"},
	} {
		t.Run(c.name, func(t *testing.T) {
			g := slidingTarget()
			sp := slidingSpec(g, 6, Budget{})
			sp.Method = MethodBidirectional
			c.change(g, sp)
			if _, err := New(sp, Options{}); err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("got %v, want %q", err, c.want)
			}
		})
	}
	sp := slidingSpec(slidingTarget(), 6, Budget{States: 50})
	sp.Method = MethodBidirectional
	s, err := New(sp, Options{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = s.Solve(context.Background(), State{Cells: []uint8{5, 4, 3, 2, 1, 0}})
	if !errors.Is(err, ErrBudget) {
		t.Errorf("got %v, want the budget's error", err)
	}
}
