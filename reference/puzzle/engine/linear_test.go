package engine_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/optjudge/optjudge/internal/handwritten/clocks"
	"github.com/optjudge/optjudge/reference/puzzle/engine"
)

func clocksState(p clocks.Position) engine.State {
	return engine.State{Cells: append([]uint8(nil), p[:]...)}
}

// TestClocksAllPositions compares the answer of every one of the 262,144
// positions with the hand-written reference's.
func TestClocksAllPositions(t *testing.T) {
	in, s := solver(t, "clocks", 0, engine.Options{})
	if s.Method() != engine.MethodLinear {
		t.Fatalf("got method %v, want linear", s.Method())
	}
	n := 0
	for p := range clocks.All() {
		moves, err := s.Solve(ctx, clocksState(p))
		if err != nil {
			t.Fatal(err)
		}
		if got, want := in.FormatMoves(moves), clocks.Optimal(p).String(); got != want {
			t.Fatalf("%v: got %q, want %q", p, got, want)
		}
		n++
	}
	if n != clocks.NumPositions {
		t.Fatalf("got %d positions", n)
	}
	dist, ok := s.Distribution()
	if !ok || len(dist)-1 != clocks.MaxMoves() {
		t.Errorf("got distribution %v, want its deepest at %d", dist, clocks.MaxMoves())
	}
	st, d, err := s.Deepest(ctx, rand.New(rand.NewPCG(1, 1)))
	if err != nil || d != 27 || !slices.Equal(st.Cells, clocks.Deepest()[0][:]) {
		t.Errorf("deepest: got %v at %d (%v), want %v at 27", st, d, err, clocks.Deepest())
	}
}

// TestClocksTableAgrees solves the clocks with a distance table too.
func TestClocksTableAgrees(t *testing.T) {
	in := instance(t, "clocks", 0)
	sp := *in.Spec
	sp.Method = engine.MethodTable
	tab, err := engine.New(&sp, engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	_, lin := solver(t, "clocks", 0, engine.Options{})
	r := rand.New(rand.NewPCG(2, 2))
	for range 3000 {
		st := clocksState(clocks.Random(r))
		a, err1 := tab.Solve(ctx, st)
		b, err2 := lin.Solve(ctx, st)
		if err1 != nil || err2 != nil || !slices.Equal(a, b) {
			t.Fatalf("%v: table %v (%v), linear %v (%v)", st.Cells, a, err1, b, err2)
		}
	}
	d1, _ := tab.Distribution()
	d2, _ := lin.Distribution()
	if !slices.Equal(d1, d2) {
		t.Errorf("distributions: table %v, linear %v", d1, d2)
	}
}
