package engine

import (
	"context"
	"fmt"
	"slices"
	"testing"
)

// TestDistancesAgainstBellmanFord measures a sliding puzzle's distances
// to a goal state, forward and backward, with moves of one cost (breadth
// first) and of several (Dial's buckets), against Bellman-Ford over the
// same moves.
func TestDistancesAgainstBellmanFord(t *testing.T) {
	for _, costs := range [][]int{{1, 1, 1, 1}, {1, 2, 3, 5}} {
		for _, backward := range []bool{false, true} {
			t.Run(fmt.Sprint(costs, backward), func(t *testing.T) {
				sp := slidingSpec(slidingGuarded(2, 3, false), 6, Budget{})
				for m, c := range costs {
					sp.Moves[m].Cost = c
				}
				g := newGraph(context.Background(), sp)
				if err := g.explore([]uint8{5, 4, 3, 2, 1, 0}); err != nil {
					t.Fatal(err)
				}
				seeds := []int32{0, 17}
				got := g.distances(seeds, backward)
				if want := bellmanFord(g, seeds, backward); !slices.Equal(got, want) {
					t.Fatalf("got %v, want %v", got[:20], want[:20])
				}
			})
		}
	}
}

// bellmanFord is the least cost from each state to the seeds (backward)
// or from them, relaxing every move until nothing changes.
func bellmanFord(g *graphOf, seeds []int32, backward bool) []int32 {
	dist := make([]int32, g.size())
	for i := range dist {
		dist[i] = -1
	}
	for _, s := range seeds {
		dist[s] = 0
	}
	for changed := true; changed; {
		changed = false
		for u := range int32(g.size()) {
			for _, e := range g.edges[g.off[u]:g.off[u+1]] {
				from, to := u, e.to
				if backward {
					from, to = e.to, u
				}
				c := int32(g.sp.Moves[e.move].Cost)
				if dist[from] >= 0 && (dist[to] < 0 || dist[from]+c < dist[to]) {
					dist[to], changed = dist[from]+c, true
				}
			}
		}
	}
	return dist
}
