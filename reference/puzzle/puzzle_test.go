package puzzle

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/optjudge/optjudge/internal/handwritten/clocks"
	"github.com/optjudge/optjudge/internal/handwritten/eightpuzzle"
	"github.com/optjudge/optjudge/internal/handwritten/rotation"
	"github.com/optjudge/optjudge/reference/puzzle/engine"
)

// shipped are the definitions in testdata, by file name without .yaml.
var shipped = []string{"rotation-game", "clocks", "eight-puzzle", "fifteen-puzzle", "pocket-cube", "pancakes", "lights-out", "two-by-three", "hanoi", "water-jugs", "rush-hour", "klotski"}

// load parses and validates testdata/name.yaml.
func load(tb testing.TB, name string) *Definition {
	tb.Helper()
	path := filepath.Join("testdata", name+".yaml")
	f, err := os.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	d, err := Parse(f, path)
	if err != nil {
		tb.Fatalf("Parse: %v", err)
	}
	if err := d.Validate(); err != nil {
		tb.Fatalf("Validate: %v", err)
	}
	return d
}

func instance(tb testing.TB, d *Definition, size int) *Instance {
	tb.Helper()
	in, err := d.Instance(size)
	if err != nil {
		tb.Fatalf("Instance(%d): %v", size, err)
	}
	return in
}

func TestShipped(t *testing.T) {
	tests := []struct {
		name                  string
		size                  int
		cells, symbols, moves int
		counts                []int // nil for puzzles whose moves add
	}{
		{"rotation-game", 0, 24, 3, 8, []int{8, 8, 8}},
		{"clocks", 0, 9, 4, 9, nil},
		{"eight-puzzle", 0, 9, 9, 4, []int{1, 1, 1, 1, 1, 1, 1, 1, 1}},
		{"fifteen-puzzle", 0, 16, 16, 4, []int{1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}},
		{"pocket-cube", 0, 8, 8, 9, []int{1, 1, 1, 1, 1, 1, 1, 1}},
		{"pancakes", 2, 2, 2, 1, []int{1, 1}},
		{"pancakes", 16, 16, 16, 15, []int{1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}},
		{"lights-out", 0, 25, 2, 25, nil},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%s-%d", tt.name, tt.size), func(t *testing.T) {
			in := instance(t, load(t, tt.name), tt.size)
			sp := in.Spec
			if sp.Cells != tt.cells || sp.Symbols != tt.symbols || len(sp.Moves) != tt.moves {
				t.Errorf("got %d cells, %d symbols, %d moves, want %d, %d, %d", sp.Cells, sp.Symbols, len(sp.Moves), tt.cells, tt.symbols, tt.moves)
			}
			if fmt.Sprint(sp.Counts) != fmt.Sprint(tt.counts) {
				t.Errorf("got counts %v, want %v", sp.Counts, tt.counts)
			}
			if len(in.Cells) != sp.Cells || len(in.Symbols) != sp.Symbols || len(in.Moves) != len(sp.Moves) {
				t.Errorf("names: got %d cells, %d symbols, %d moves", len(in.Cells), len(in.Symbols), len(in.Moves))
			}
		})
	}
}

func TestPancakeSizes(t *testing.T) {
	d := load(t, "pancakes")
	if lo, hi := d.Sizes(); lo != 2 || hi != 16 {
		t.Fatalf("got sizes %d..%d, want 2..16", lo, hi)
	}
	for n := 2; n <= 16; n++ {
		in := instance(t, d, n)
		if got := strings.Join(in.Moves, " "); got != moveRange(2, n) {
			t.Errorf("size %d: got moves %q, want %q", n, got, moveRange(2, n))
		}
		// Flip k reverses the top k.
		top := in.Spec.Moves[len(in.Spec.Moves)-1].Perm
		for i := range n {
			if top[i] != n-1-i {
				t.Fatalf("size %d: flip %d: got %v", n, n, top)
			}
		}
	}
	for _, n := range []int{0, 1, 17} {
		if _, err := d.Instance(n); err == nil {
			t.Errorf("size %d: got no error", n)
		}
	}
}

func moveRange(lo, hi int) string {
	var s []string
	for k := lo; k <= hi; k++ {
		s = append(s, fmt.Sprint(k))
	}
	return strings.Join(s, " ")
}

// numbered is a state whose cells hold distinct values, to follow cells
// (not a valid state of most puzzles, which Apply does not mind).
func numbered(n int) engine.State {
	s := engine.State{Cells: make([]uint8, n)}
	for i := range s.Cells {
		s.Cells[i] = uint8(i)
	}
	return s
}

// TestRotationMovesAgree checks the rotation game's definition against the
// hand-written reference's moves.
func TestRotationMovesAgree(t *testing.T) {
	in := instance(t, load(t, "rotation-game"), 0)
	var b rotation.Board
	for i := range b {
		b[i] = uint8(i)
	}
	for m := range rotation.Move(rotation.NumMoves) {
		k, ok := in.Move(m.String())
		if !ok {
			t.Fatalf("no move %v", m)
		}
		// Numbered cells with a wide alphabet: copy the spec to allow it.
		sp := *in.Spec
		sp.Symbols, sp.Counts = 24, nil
		got, _ := sp.Apply(numbered(24), k)
		want := b.Apply(m)
		if string(got.Cells) != string(want[:]) {
			t.Errorf("%v: got %v, want %v", m, got.Cells, want)
		}
	}
	if got, want := in.Values, []ValueCell{{"center", 6}}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("values: got %v, want %v", got, want)
	}
	if got := fmt.Sprint(in.Spec.Goal.Same); got != fmt.Sprint(rotation.CenterCells[:]) {
		t.Errorf("goal: got %s, want %v", got, rotation.CenterCells)
	}
}

func TestClocksMovesAgree(t *testing.T) {
	in := instance(t, load(t, "clocks"), 0)
	r := rand.New(rand.NewPCG(1, 2))
	for range 100 {
		p := clocks.Random(r)
		s := engine.State{Cells: append([]uint8(nil), p[:]...)}
		for k := 1; k <= clocks.NumMoves; k++ {
			m, _ := in.Move(fmt.Sprint(k))
			got, _ := in.Spec.Apply(s, m)
			want := p.Apply(k)
			if string(got.Cells) != string(want[:]) {
				t.Fatalf("%v, move %d: got %v, want %v", p, k, got.Cells, want)
			}
		}
	}
}

func TestEightPuzzleMovesAgree(t *testing.T) {
	in := instance(t, load(t, "eight-puzzle"), 0)
	blank, _ := in.Symbol("x")
	r := rand.New(rand.NewPCG(3, 4))
	for range 200 {
		b := eightpuzzle.RandomAny(r)
		s := engine.State{Cells: make([]uint8, 9)}
		for i, tile := range b {
			s.Cells[i] = uint8(blank)
			if tile != 0 {
				s.Cells[i] = tile - 1
			}
		}
		for _, m := range eightpuzzle.Moves() {
			k, _ := in.Move(string(rune(m)))
			got, ok := in.Spec.Apply(s, k)
			want, wantOK := b.Apply(m)
			if ok != wantOK {
				t.Fatalf("%v, %c: got ok %v, want %v", b, m, ok, wantOK)
			}
			for i, tile := range want {
				if v := got.Cells[i]; ok && (tile == 0) != (int(v) == blank) || tile != 0 && v != tile-1 {
					t.Fatalf("%v, %c: got %v, want %v", b, m, got.Cells, want)
				}
			}
		}
	}
}

func TestLightsOutMoves(t *testing.T) {
	in := instance(t, load(t, "lights-out"), 0)
	for k, mv := range in.Spec.Moves {
		r, c := k/5, k%5
		for i, a := range mv.Add {
			dr, dc := i/5-r, i%5-c
			want := 0
			if dr*dr+dc*dc <= 1 {
				want = 1
			}
			if a != want {
				t.Fatalf("press %d: cell %d gets %d, want %d", k+1, i+1, a, want)
			}
		}
	}
	for i := range in.Spec.Moves {
		for j := range i {
			if !in.Spec.Commute(i, j) {
				t.Errorf("presses %d and %d do not commute", j+1, i+1)
			}
		}
	}
}

func TestFormatMoves(t *testing.T) {
	rot := instance(t, load(t, "rotation-game"), 0)
	cube := instance(t, load(t, "pocket-cube"), 0)
	tests := []struct {
		in    *Instance
		moves []int
		want  string
	}{
		{rot, nil, "No moves needed"},
		{rot, []int{0, 2}, "AC"},
		{cube, []int{0, 2, 4}, "U U' R2"},
		{cube, nil, ""},
	}
	for _, tt := range tests {
		if got := tt.in.FormatMoves(tt.moves); got != tt.want {
			t.Errorf("%s %v: got %q, want %q", tt.in.Def.Name, tt.moves, got, tt.want)
		}
	}
}

// TestErrorType checks that Load's errors are Errors naming the file.
func TestErrorType(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, FileName), []byte("symbols: [a]\nmoves: []\ngoal: {state: [a]}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Load(dir)
	var es Errors
	if !errors.As(err, &es) || len(es) == 0 {
		t.Fatalf("got %v (%T), want Errors", err, err)
	}
	if !strings.HasPrefix(err.Error(), filepath.Join(dir, FileName)+":") {
		t.Errorf("got %q, want it to start with the file's path", err)
	}
	if _, err := Load(t.TempDir()); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: got %v, want ErrNotExist", err)
	}
}
