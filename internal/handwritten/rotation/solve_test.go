package rotation

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// idaLines are the moves' lines again, copied from the problem statement so
// that the slow solver shares no code with the fast one.
var idaLines = [8][7]int{
	{0, 2, 6, 11, 15, 20, 22}, {1, 3, 8, 12, 17, 21, 23},
	{10, 9, 8, 7, 6, 5, 4}, {19, 18, 17, 16, 15, 14, 13},
	{23, 21, 17, 12, 8, 3, 1}, {22, 20, 15, 11, 6, 2, 0},
	{13, 14, 15, 16, 17, 18, 19}, {4, 5, 6, 7, 8, 9, 10},
}

var idaInverse = [8]int{5, 4, 7, 6, 1, 0, 3, 2}

var idaCenter = [8]int{6, 7, 8, 11, 12, 15, 16, 17}

// ida is the classic iterative-deepening solver: depth limits 0, 1, 2, ...,
// letters tried in order A..H, never the inverse of the previous move, and
// the bound 8 - (the most cells of the center holding one digit). The first
// solution found at the least depth is the smallest shortest one.
type ida struct {
	cells [24]uint8
	path  []byte
}

func (s *ida) shift(m int) {
	l := &idaLines[m]
	first := s.cells[l[0]]
	for i := 0; i < 6; i++ {
		s.cells[l[i]] = s.cells[l[i+1]]
	}
	s.cells[l[6]] = first
}

// need is the heuristic: a move changes at most one center cell.
func (s *ida) need() int {
	var n [4]int
	for _, c := range idaCenter {
		n[s.cells[c]]++
	}
	return 8 - max(n[1], n[2], n[3])
}

func (s *ida) dfs(limit, last int) bool {
	h := s.need()
	if h == 0 {
		return true
	}
	if len(s.path)+h > limit {
		return false
	}
	for m := 0; m < 8; m++ {
		if last >= 0 && m == idaInverse[last] {
			continue
		}
		s.shift(m)
		s.path = append(s.path, byte('A'+m))
		if s.dfs(limit, m) {
			return true
		}
		s.path = s.path[:len(s.path)-1]
		s.shift(idaInverse[m])
	}
	return false
}

// idaSolve returns the smallest shortest sequence of letters and the digit it
// gathers in the center.
func idaSolve(b Board) (string, uint8) {
	s := &ida{cells: b}
	for limit := 0; ; limit++ {
		s.path = s.path[:0]
		if s.dfs(limit, -1) {
			return string(s.path), s.cells[idaCenter[0]]
		}
	}
}

// idaDepthCap bounds the boards the slow solver takes: random boards rarely
// need more, and the deepest are covered by TestDeepPaths.
const idaDepthCap = 11

func TestOptimalMatchesIDA(t *testing.T) {
	r := rand.New(rand.NewPCG(1343, 2286))
	n := 1200
	if testing.Short() {
		n = 200
	}
	tested := 0
	for range n {
		b := Random(r)
		if Optimum(b) > idaDepthCap {
			continue
		}
		tested++
		want, digit := idaSolve(b)
		got := Optimal(b)
		if got.Moves.String() != want || got.Digit != digit {
			t.Fatalf("board %v: got %q digit %d, want %q digit %d", b, got.Moves, got.Digit, want, digit)
		}
	}
	t.Logf("%d boards", tested)
}

// TestDeepIDA runs the slow solver on a few of the deepest boards too.
func TestDeepIDA(t *testing.T) {
	r := rand.New(rand.NewPCG(12, 13))
	depths := []int{12, 12, 12, 13}
	if testing.Short() {
		depths = depths[:1]
	}
	for i, n := range depths {
		b, err := WithOptimum(r, n)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(fmt.Sprintf("%d-%d", i, n), func(t *testing.T) {
			want, digit := idaSolve(b)
			got := Optimal(b)
			if got.Moves.String() != want || got.Digit != digit {
				t.Errorf("board %v: got %q digit %d, want %q digit %d", b, got.Moves, got.Digit, want, digit)
			}
		})
	}
}

// TestDeepPaths checks the greedy path of deep boards against the table:
// the moves, replayed by the slow solver's own code, fill the center with
// the digit; no digit gets there sooner; and at every step no smaller letter
// leaves any digit on a shortest path.
func TestDeepPaths(t *testing.T) {
	r := rand.New(rand.NewPCG(99, 100))
	for n := 9; n <= MaxOptimum; n++ {
		for range 20 {
			b, err := WithOptimum(r, n)
			if err != nil {
				t.Fatal(err)
			}
			checkPath(t, b, Optimal(b), n)
		}
	}
}

func checkPath(t *testing.T, b Board, sol Solution, n int) {
	t.Helper()
	if len(sol.Moves) != n {
		t.Fatalf("board %v: got %d moves, want %d", b, len(sol.Moves), n)
	}
	s := &ida{cells: b}
	for i, m := range sol.Moves {
		left := n - i
		for smaller := range m {
			d := Distances(s.cellsAfter(int(smaller)))
			if min(d[0], d[1], d[2]) < left {
				t.Fatalf("board %v: move %d is %v, but %v also leads to a shortest solution", b, i+1, m, smaller)
			}
		}
		s.shift(int(m))
		d := Distances(Board(s.cells))
		if min(d[0], d[1], d[2]) != left-1 {
			t.Fatalf("board %v: after move %d the optimum is %d, want %d", b, i+1, min(d[0], d[1], d[2]), left-1)
		}
	}
	if s.need() != 0 || s.cells[idaCenter[0]] != sol.Digit {
		t.Fatalf("board %v: %v leaves the center %v, want all %d", b, sol.Moves, Board(s.cells).Center(), sol.Digit)
	}
}

func (s *ida) cellsAfter(m int) Board {
	c := *s
	c.shift(m)
	return c.cells
}

func TestSolveSample(t *testing.T) {
	in := "1 1 1 1 3 2 3 2 3 1 3 2 2 3 1 2 2 2 3 1 2 1 3 3\n1 1 1 1 1 1 1 1 2 2 2 2 2 2 2 2 3 3 3 3 3 3 3 3\n0\n"
	want := "AC\n2\nDDHH\n2\n"
	got, err := Solve([]byte(in))
	if err != nil || string(got) != want {
		t.Errorf("got %q, %v, want %q", got, err, want)
	}
}

func TestSolveNoMoves(t *testing.T) {
	// The center holds only 3s already.
	b := Board{1, 1, 1, 1, 1, 1, 3, 3, 3, 1, 1, 3, 3, 2, 2, 3, 3, 3, 2, 2, 2, 2, 2, 2}
	got := Optimal(b)
	if got.String() != "No moves needed\n3\n" {
		t.Errorf("got %q, want %q", got.String(), "No moves needed\n3\n")
	}
}

func TestSolveInvalid(t *testing.T) {
	if _, err := Solve([]byte("1 2 3\n0\n")); err == nil {
		t.Error("got no error, want one")
	}
}
