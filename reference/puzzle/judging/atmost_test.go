package judging

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/optjudge/optjudge/reference/puzzle"
	"github.com/optjudge/optjudge/reference/puzzle/engine"
)

// megaminx reads twsearch's megaminx definition through a puzzle.yaml of
// the given extra keys; the error is Validate's.
func megaminx(tb testing.TB, keys string) (*puzzle.Definition, error) {
	tb.Helper()
	data, err := os.ReadFile(filepath.Join("..", "testdata", "tws", "megaminx.tws"))
	if err != nil {
		tb.Fatal(err)
	}
	fsys := fstest.MapFS{
		"p/puzzle.yaml":  {Data: []byte("name: megaminx\ntws: {file: megaminx.tws}\ninput: {cases: until_eof}\nsearch: {memory: 16}\n" + keys)},
		"p/megaminx.tws": {Data: data},
	}
	d, err := puzzle.ParseFS(fsys, "p/puzzle.yaml", "p/puzzle.yaml")
	if err != nil {
		tb.Fatal(err)
	}
	return d, d.Validate()
}

// TestAtMostRefusal checks that a definition whose search does not fit
// its memory budget is refused, with the sizes, in an optimal mode and
// loads in mode at_most.
func TestAtMostRefusal(t *testing.T) {
	_, err := megaminx(t, "mode: smallest\n")
	if err == nil || !strings.Contains(err.Error(), "more than the memory budget of 16,777,216 bytes") || !strings.Contains(err.Error(), "4 of 30 pieces") {
		t.Fatalf("got %v, want the refusal with the sizes", err)
	}
	if _, err := megaminx(t, "mode: at_most\n"); err == nil || !strings.Contains(err.Error(), "max_moves") {
		t.Errorf("at_most without max_moves: got %v", err)
	}
	if _, err := megaminx(t, "mode: shortest\nmax_moves: 3\n"); err == nil || !strings.Contains(err.Error(), "only with mode: at_most") {
		t.Errorf("max_moves in mode shortest: got %v", err)
	}
}

// threeCycles is a puzzle of two 3-cycles on five cells (even
// permutations only) in mode at_most with a bound of 3.
const threeCycles = `name: three-cycles
cells: [a, b, c, d, e]
symbols: [1, 2, 3, 4, 5]
moves:
  - {name: X, cycles: [[a, b, c]]}
  - {name: Y, cycles: [[c, d, e]]}
  - {name: x, inverse: X}
  - {name: y, inverse: Y}
goal: {state: [1, 2, 3, 4, 5]}
mode: at_most
max_moves: 3
input: {cases: until_eof}
`

// TestAtMostCheck judges answers to a position two moves from solved
// with a bound of 3: any answer that solves in at most 3 moves is
// accepted, longer ones and ones that do not solve are not; an odd
// permutation is invalid input, found by the moves' group. The solver
// used is the simulation: it never searches.
func TestAtMostCheck(t *testing.T) {
	d, err := puzzle.Parse(strings.NewReader(threeCycles), "puzzle.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Validate(); err != nil {
		t.Fatal(err)
	}
	p, err := New(d, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := p.at(0).sim.String(); got != "a simulation (no table, no search)" {
		t.Errorf("the checker's solver: %s", got)
	}
	sp := p.Instance(0).Spec
	goal := engine.State{Cells: sp.Goal.States[0]}
	s, _ := sp.Apply(goal, 0) // X
	s, _ = sp.Apply(s, 1)     // Y
	input := p.format([]Position{{State: s}})
	tests := []struct {
		out  string
		kind Kind
	}{
		{"y x\n", ""},
		{"Y Y x\n", ""}, // Y Y is y
		{"Y y y x\n", OverBound},
		{"y\n", NotSolved},
		{"nope\n", Illegal},
	}
	c, err := p.Checker("")
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		res, err := c.Check(context.Background(), input, []byte(tt.out))
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case tt.kind == "" && !res.Accepted:
			t.Errorf("%q: rejected (%s), want accepted", tt.out, res.Message)
		case tt.kind != "" && (res.Accepted || res.Finding == nil || res.Finding.Kind != tt.kind):
			t.Errorf("%q: %v %s, want %s", tt.out, res.Accepted, res.Message, tt.kind)
		}
		if tt.kind == OverBound && res.Message != "case 1: 4 moves, more than the 3 allowed" {
			t.Errorf("message %q", res.Message)
		}
	}
	odd := engine.State{Cells: []uint8{1, 0, 2, 3, 4}}
	if _, err := p.Cases(p.format([]Position{{State: odd}})); err == nil || !strings.Contains(err.Error(), "cannot be solved") {
		t.Errorf("an odd permutation: got %v", err)
	}
}
