package eightpuzzle

import (
	"math/rand/v2"
	"testing"
)

// bfsFromGoal is the slow, table-free search: a plain breadth-first search
// from the goal over a map, giving the distance of every reachable board.
func bfsFromGoal() map[Board]int {
	dist := map[Board]int{Goal(): 0}
	queue := []Board{Goal()}
	for len(queue) > 0 {
		b := queue[0]
		queue = queue[1:]
		for _, m := range moveOrder {
			if nb, ok := b.Apply(m); ok {
				if _, seen := dist[nb]; !seen {
					dist[nb] = dist[b] + 1
					queue = append(queue, nb)
				}
			}
		}
	}
	return dist
}

// TestTableAgainstBFS checks every one of the 9! boards: the table's distance
// equals the plain search's, and parity says solvable exactly when the plain
// search reached the board.
func TestTableAgainstBFS(t *testing.T) {
	slow := bfsFromGoal()
	if len(slow) != numBoards/2 {
		t.Errorf("plain BFS reached %d boards, want %d", len(slow), numBoards/2)
	}
	for r := range numBoards {
		b := unrank(r)
		want, reached := slow[b]
		if !reached {
			want = -1
		}
		if got := Distance(b); got != want {
			t.Fatalf("Distance(%v) = %d, plain BFS says %d", b, got, want)
		}
		if b.Solvable() != reached {
			t.Fatalf("%v.Solvable() = %v, plain BFS reached it: %v", b, b.Solvable(), reached)
		}
	}
}

// slowSmallest searches from start, level by level, without the table. For
// every board of a level it keeps the smallest of all the paths that reach
// it in that many moves, as a number in base 4 (d=0, l=1, r=2, u=3, first
// move most significant): among paths of one length the numeric order is
// the letter order. It stops at the goal's level; false if never reached.
func slowSmallest(start Board) (string, bool) {
	best := map[Board]uint64{start: 0}
	level := map[Board]uint64{start: 0}
	for d := 0; len(level) > 0; d++ {
		if code, ok := level[Goal()]; ok {
			return decode(code, d), true
		}
		next := map[Board]uint64{}
		for b, code := range level {
			for digit, m := range moveOrder {
				nb, ok := b.Apply(m)
				if _, seen := best[nb]; !ok || seen {
					continue
				}
				c := code<<2 | uint64(digit)
				if old, ok := next[nb]; !ok || c < old {
					next[nb] = c
				}
			}
		}
		for b, c := range next {
			best[b] = c
		}
		level = next
	}
	return "", false
}

func decode(code uint64, n int) string {
	path := make([]byte, n)
	for i := n - 1; i >= 0; i-- {
		path[i] = byte(moveOrder[code&3])
		code >>= 2
	}
	return string(path)
}

func TestSmallestAgainstSlowSearch(t *testing.T) {
	r := rand.New(rand.NewPCG(1077, 1043))
	n := 200
	if testing.Short() {
		n = 20
	}
	starts := append([]Board{Goal(), {2, 3, 4, 1, 5, 0, 7, 6, 8}}, Deepest()...)
	for range n {
		starts = append(starts, Random(r))
	}
	for d := 1; d <= 8; d++ { // near the goal, ties between letters are common
		b, _ := AtDistance(r, d)
		starts = append(starts, b)
	}
	for _, b := range starts {
		t.Run(b.Line(), func(t *testing.T) {
			t.Parallel()
			want, _ := slowSmallest(b)
			if got := Distance(b); got != len(want) {
				t.Errorf("Distance(%v) = %d, slow search says %d", b, got, len(want))
			}
			if got, ok := Smallest(b); !ok || got != want {
				t.Errorf("Smallest(%v) = %q, %v; slow search says %q", b, got, ok, want)
			}
		})
	}
}

func TestSlowSmallestUnsolvable(t *testing.T) {
	b := Board{1, 2, 3, 4, 5, 6, 8, 7, 0}
	if path, ok := slowSmallest(b); ok {
		t.Errorf("slow search solved %v with %q", b, path)
	}
	if path, ok := Smallest(b); ok || path != "" {
		t.Errorf("Smallest(%v) = %q, %v; want \"\", false", b, path, ok)
	}
}

func TestSmallestWalksToGoal(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	for range 1000 {
		b := Random(r)
		path, ok := Smallest(b)
		if !ok || len(path) != Distance(b) {
			t.Fatalf("Smallest(%v) = %q, %v; distance %d", b, path, ok, Distance(b))
		}
		end := b
		for _, m := range []byte(path) {
			end, ok = end.Apply(Move(m))
			if !ok {
				t.Fatalf("Smallest(%v) = %q makes an illegal move", b, path)
			}
		}
		if !end.Solved() {
			t.Fatalf("Smallest(%v) = %q ends at %v", b, path, end)
		}
	}
}

func TestDistanceInvalid(t *testing.T) {
	for _, b := range []Board{{}, {1, 2, 3, 4, 5, 6, 7, 8, 9}, {1, 2, 3, 4, 5, 6, 8, 7, 0}} {
		if got := Distance(b); got != -1 {
			t.Errorf("Distance(%v) = %d, want -1", b, got)
		}
	}
}

func TestBuildTime(t *testing.T) {
	if d := BuildTime(); d <= 0 {
		t.Errorf("BuildTime() = %v, want > 0", d)
	}
}

// TestConcurrentUse has many goroutines use the table at once; run it with
// -race to check that the lazy build is safe.
func TestConcurrentUse(t *testing.T) {
	want, _ := slowSmallest(Board{2, 3, 4, 1, 5, 0, 7, 6, 8})
	errs := make(chan string, 8)
	for range 8 {
		go func() {
			got, _ := Smallest(Board{2, 3, 4, 1, 5, 0, 7, 6, 8})
			if got != want {
				errs <- got
				return
			}
			errs <- ""
		}()
	}
	for range 8 {
		if got := <-errs; got != "" {
			t.Errorf("Smallest from a goroutine = %q, want %q", got, want)
		}
	}
}
