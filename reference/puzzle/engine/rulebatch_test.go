package engine

import (
	"context"
	"fmt"
	"slices"
	"testing"
)

// slidingGuarded are the rules of a rows x cols sliding puzzle as guarded
// moves: the blank (symbol 0) swaps with a neighbour, moves D L R U; with
// twice, one more variant of R where the first row is 0 1 2 3, so that R
// can be made two ways from those states (deep in the graph).
func slidingGuarded(rows, cols int, twice bool) *Guarded {
	g := &Guarded{Names: []string{"D", "L", "R", "U"}, Undoable: true}
	dirs := [][2]int{{1, 0}, {0, -1}, {0, 1}, {-1, 0}}
	for m, d := range dirs {
		for r := range rows {
			for c := range cols {
				rr, cc := r+d[0], c+d[1]
				if rr < 0 || rr >= rows || cc < 0 || cc >= cols {
					continue
				}
				p, q := r*cols+c, rr*cols+cc
				g.Variants = append(g.Variants, Variant{Move: m, Where: fmt.Sprint("slide ", p, q),
					When: []Cond{{Cell: p, Value: 0, Other: -1}},
					Set:  []Assign{{Cell: p, From: q}, {Cell: q, Value: 0, From: -1}}})
			}
		}
	}
	if twice {
		g.Variants = append(g.Variants, Variant{Move: 2, Where: "twice",
			When: []Cond{{Cell: 0, Value: 0, Other: -1}, {Cell: 1, Value: 1, Other: -1}, {Cell: 2, Value: 2, Other: -1}, {Cell: 3, Value: 3, Other: -1}},
			Set:  []Assign{{Cell: 0, Value: 1, From: -1}, {Cell: 1, Value: 0, From: -1}}})
	}
	g.Goals = [][]Cond{{{Cell: 0, Value: 0, Other: -1}}}
	return g
}

func slidingSpec(g *Guarded, cells int, budget Budget) *Spec {
	sp := &Spec{Cells: cells, Symbols: cells, Blank: -1, Rules: g, Budget: budget}
	for _, n := range g.Names {
		sp.Moves = append(sp.Moves, Move{Name: n, Cost: 1})
	}
	return sp
}

// TestBatchesAsOneByOne explores graphs in batches on several workers and
// one state at a time: the same states in the same order, the same moves,
// and the same errors (a move made two ways, deep in the graph; the
// budget passed).
func TestBatchesAsOneByOne(t *testing.T) {
	start := []uint8{7, 6, 5, 4, 3, 2, 1, 0}
	for _, c := range []struct {
		name   string
		twice  bool
		budget Budget
	}{
		{"whole", false, Budget{}},
		{"twice", true, Budget{}},
		{"budget", false, Budget{States: 9000}},
	} {
		t.Run(c.name, func(t *testing.T) {
			sp := slidingSpec(slidingGuarded(2, 4, c.twice), 8, c.budget)
			var graphs []*graphOf
			batched := false
			var errs []string
			for _, workers := range []int{1, 3} {
				g := newGraph(context.Background(), sp)
				g.workers = workers
				err := g.explore(start)
				batched = batched || g.batched
				graphs, errs = append(graphs, g), append(errs, fmt.Sprint(err))
			}
			if errs[0] != errs[1] {
				t.Fatalf("one by one: %s; in batches: %s", errs[0], errs[1])
			}
			if c.name == "whole" && (errs[0] != "<nil>" || graphs[0].size() != 20160) {
				t.Fatalf("got %s, %d states; want no error, 20160 states", errs[0], graphs[0].size())
			}
			if c.name != "whole" && errs[0] == "<nil>" {
				t.Fatalf("got no error, want one")
			}
			a, b := graphs[0], graphs[1]
			if !batched {
				t.Fatal("no batch expanded: the test tells nothing")
			}
			if c.name == "whole" && (!slices.Equal(a.keys.arena, b.keys.arena) || !slices.Equal(a.edges, b.edges) || !slices.Equal(a.off, b.off) || !slices.Equal(a.goal, b.goal)) {
				t.Fatalf("the graphs differ: %d and %d states, %d and %d moves", a.size(), b.size(), len(a.edges), len(b.edges))
			}
		})
	}
}
