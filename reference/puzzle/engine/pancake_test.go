package engine_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/optjudge/optjudge/reference/puzzle/engine"
)

// TestPancakesGapAgreesWithTable solves stacks of 8 with the gap heuristic
// (forced by a small table limit) and with the distance table.
func TestPancakesGapAgreesWithTable(t *testing.T) {
	_, tab := solver(t, "pancakes", 8, engine.Options{})
	_, ida := solver(t, "pancakes", 8, engine.Options{MaxTable: 1000})
	if tab.Method() != engine.MethodTable || ida.Method() != engine.MethodSearch {
		t.Fatalf("got methods %v and %v", tab.Method(), ida.Method())
	}
	t.Logf("%v; %v", tab, ida)
	r := rand.New(rand.NewPCG(16, 16))
	for range 300 {
		st, err := ida.Random(r)
		if err != nil {
			t.Fatal(err)
		}
		want, err1 := tab.Solve(ctx, st)
		got, err2 := ida.Solve(ctx, st)
		if err1 != nil || err2 != nil || !slices.Equal(got, want) {
			t.Fatalf("%v: gap %v (%v), table %v (%v)", st.Cells, got, err2, want, err1)
		}
	}
}
