package clocks

import (
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
)

// slowMoves spells the moves out again, as dial indices (A is 0), for the
// slow solvers below, so a typo in moveDials cannot hide in both.
var slowMoves = [NumMoves][]int{
	{0, 1, 3, 4}, {0, 1, 2}, {1, 2, 4, 5},
	{0, 3, 6}, {1, 3, 4, 5, 7}, {2, 5, 8},
	{3, 4, 6, 7}, {6, 7, 8}, {4, 5, 7, 8},
}

// slowTurn turns the dials of move k (0-based) by delta, one at a time.
func slowTurn(p Position, k, delta int) Position {
	for _, d := range slowMoves[k] {
		p[d] = uint8((int(p[d]) + delta + 4) % 4)
	}
	return p
}

// slowIndex is the base-4 number of p, A the most significant digit.
func slowIndex(p Position) int {
	i := 0
	for _, d := range p {
		i = 4*i + int(d)
	}
	return i
}

func TestSolveSamples(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"sample", "3 3 0\n2 2 2\n2 1 2\n", "4 5 8 9\n"},
		{"at 12", "0 0 0\n0 0 0\n0 0 0\n", "\n"},
		{"deepest", "3 0 3\n0 1 0\n3 0 3\n", "1 1 1 2 2 2 3 3 3 4 4 4 5 5 5 6 6 6 7 7 7 8 8 8 9 9 9\n"},
		{"move 5 only", "0 3 0\n3 3 3\n0 3 0\n", "5\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Solve([]byte(tt.in))
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestInverse(t *testing.T) {
	m := moveMatrix()
	inv := get().inv
	for i := range 9 {
		for j := range 9 {
			var left, right int
			for k := range 9 {
				left += int(inv[i][k]) * int(m[k][j])
				right += int(m[i][k]) * int(inv[k][j])
			}
			want := 0
			if i == j {
				want = 1
			}
			if left%4 != want || right%4 != want {
				t.Errorf("entry %d,%d: got inv*M %d, M*inv %d (mod 4), want %d", i, j, left%4, right%4, want)
			}
		}
	}
}

// TestOptimalBruteForce tries all 4^9 count vectors and, for every position,
// keeps the fewest moves that solve it; the minimum must be unique and equal
// Optimal's answer, which must itself solve the position.
func TestOptimalBruteForce(t *testing.T) {
	type best struct {
		c      Counts
		n      int
		unique bool
	}
	found := make([]*best, NumPositions)
	for code := range NumPositions {
		var c Counts
		var q Position // where c takes 12; c solves -q
		for k := range c {
			c[k] = uint8(code >> (2 * k) & 3)
			for range c[k] {
				q = slowTurn(q, k, +1)
			}
		}
		var p Position
		for i := range q {
			p[i] = (4 - q[i]) % 4
		}
		b, n := found[slowIndex(p)], c.Total()
		switch {
		case b == nil:
			found[slowIndex(p)] = &best{c, n, true}
		case n < b.n:
			*b = best{c, n, true}
		case n == b.n:
			b.unique = false
		}
	}
	for p := range All() {
		b := found[slowIndex(p)]
		switch got := Optimal(p); {
		case b == nil:
			t.Fatalf("%v: no count vector solves it", p)
		case !b.unique:
			t.Fatalf("%v: two shortest solutions of %d moves", p, b.n)
		case got != b.c:
			t.Fatalf("%v: got %v, want %v", p, got.Moves(), b.c.Moves())
		}
		q := p
		for _, m := range Optimal(p).Moves() {
			q = slowTurn(q, m-1, +1)
		}
		if !q.Solved() {
			t.Fatalf("%v: the answer %v leaves %v", p, Optimal(p).Moves(), q)
		}
	}
}

// TestOptimalBFS checks the answer lengths, MaxMoves and Deepest against a
// breadth-first search from 12 that does not assume counts below 4.
func TestOptimalBFS(t *testing.T) {
	dist := make([]int, NumPositions)
	for i := range dist {
		dist[i] = -1
	}
	dist[0] = 0
	queue := []Position{{}}
	for len(queue) > 0 {
		q := queue[0]
		queue = queue[1:]
		for k := range NumMoves {
			// A move taking p to q means p is q turned back.
			p := slowTurn(q, k, -1)
			if i := slowIndex(p); dist[i] < 0 {
				dist[i] = dist[slowIndex(q)] + 1
				queue = append(queue, p)
			}
		}
	}
	maxDist, deepest := 0, []Position(nil)
	for p := range All() {
		d := dist[slowIndex(p)]
		if got := Optimal(p).Total(); got != d {
			t.Fatalf("%v: got %d moves, want %d", p, got, d)
		}
		if d > maxDist {
			maxDist, deepest = d, nil
		}
		if d == maxDist {
			deepest = append(deepest, p)
		}
	}
	if got := MaxMoves(); got != maxDist {
		t.Errorf("MaxMoves: got %d, want %d", got, maxDist)
	}
	if got := Deepest(); !slices.Equal(got, deepest) {
		t.Errorf("Deepest: got %v, want %v", got, deepest)
	}
}

func TestApply(t *testing.T) {
	for k := range NumMoves {
		got := Position{}.Apply(k + 1)
		if want := slowTurn(Position{}, k, +1); got != want {
			t.Errorf("move %d (%s): got %v, want %v", k+1, Dials(k+1), got, want)
		}
		if p := got.Apply(k + 1).Apply(k + 1).Apply(k + 1); !p.Solved() {
			t.Errorf("move %d four times: got %v, want 12 everywhere", k+1, p)
		}
	}
}

func TestNeeding(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 1000 {
		var c Counts
		for k := range c {
			c[k] = uint8(r.IntN(4))
		}
		if got := Optimal(Needing(c)); got != c {
			t.Fatalf("Optimal(Needing(%v)): got %v", c, got)
		}
		wrapped := c
		wrapped[r.IntN(NumMoves)] += 4
		if Needing(wrapped) != Needing(c) {
			t.Fatalf("Needing(%v): got %v, want %v", wrapped, Needing(wrapped), Needing(c))
		}
	}
}

func TestGenerators(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	seen := map[Position]bool{}
	for range 1000 {
		p := Random(r)
		if err := Validate(p.Input()); err != nil {
			t.Fatalf("Random gave %v: %v", p, err)
		}
		seen[p] = true
	}
	if len(seen) < 990 {
		t.Errorf("Random: got %d distinct positions in 1000 draws, want nearly all", len(seen))
	}
	deep := Deep(r)
	if n := Optimal(deep).Total(); n != MaxMoves() {
		t.Errorf("Deep gave %v with %d moves, want %d", deep, n, MaxMoves())
	}
	want := Position{3, 0, 3, 0, 1, 0, 3, 0, 3}
	if got := Deepest(); len(got) != 1 || got[0] != want {
		t.Errorf("Deepest: got %v, want [%v]", got, want)
	}
	n, prev := 0, -1
	for p := range All() {
		if i := slowIndex(p); i != prev+1 {
			t.Fatalf("All: got index %d after %d, want %d", i, prev, prev+1)
		}
		prev++
		n++
	}
	if n != NumPositions {
		t.Errorf("All: got %d positions, want %d", n, NumPositions)
	}
	for range All() {
		break // stopping early must not panic
	}
}

func TestConcurrentUse(t *testing.T) {
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			if got := Optimal(sample).String(); got != "4 5 8 9" {
				t.Errorf("got %q, want %q", got, "4 5 8 9")
			}
		})
	}
	wg.Wait()
	if BuildTime() <= 0 {
		t.Errorf("BuildTime: got %v, want > 0", BuildTime())
	}
}

func BenchmarkBuild(b *testing.B) {
	for b.Loop() {
		build()
	}
}

func BenchmarkOptimal(b *testing.B) {
	get()
	r := rand.New(rand.NewPCG(5, 6))
	ps := make([]Position, 1024)
	for i := range ps {
		ps[i] = Random(r)
	}
	i := 0
	for b.Loop() {
		Optimal(ps[i%len(ps)])
		i++
	}
}

func BenchmarkSolve(b *testing.B) {
	get()
	in := Position{3, 0, 3, 0, 1, 0, 3, 0, 3}.Input()
	for b.Loop() {
		if _, err := Solve(in); err != nil {
			b.Fatal(err)
		}
	}
}
