package engine_test

import (
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/optjudge/optjudge/reference/puzzle"
	"github.com/optjudge/optjudge/reference/puzzle/engine"
)

// twsDefinition reads ../testdata/tws/name.tws through a puzzle.yaml
// that names it, and validates it.
func twsDefinition(tb testing.TB, name string) (*puzzle.Definition, error) {
	tb.Helper()
	data, err := os.ReadFile(filepath.Join("..", "testdata", "tws", name+".tws"))
	if err != nil {
		tb.Fatal(err)
	}
	fsys := fstest.MapFS{
		"p/puzzle.yaml":      {Data: []byte("name: " + strings.ToLower(strings.ReplaceAll(name, "_", "-")) + "\ntws: {file: " + name + ".tws}\nsearch: {method: search}\n")},
		"p/" + name + ".tws": {Data: data},
	}
	d, err := puzzle.ParseFS(fsys, "p/puzzle.yaml", "p/puzzle.yaml")
	if err != nil {
		return nil, err
	}
	return d, nil
}

// TestTwsSampleStates loads twsearch's sample definitions that fit and
// compares the number of states their moves reach with what twsearch's
// own Schreier-Sims (twsearch --schreiersims file.tws, forked-cpp-main at
// aeed0ed) prints; it prints some as floating point, compared to their
// 17 significant digits.
func TestTwsSampleStates(t *testing.T) {
	tests := []struct {
		name, states string
		moves        int
	}{
		{"2x2x2", "88179840", 18},
		{"skewb", "37791360", 16},
		{"pyraminx", "302330880", 16},
		{"dino", "239500800", 16},
		{"helicopter", "11848661611315200000", 12},
		{"3x3x3", "43252003274489856000", 18},
		{"megaminx", "1.0066961655352334713e+68", 48},
		{"master_skewb", "5.1917458740671585431e+32", 16},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			d, err := twsDefinition(t, tt.name)
			if err != nil {
				t.Fatal(err)
			}
			// A puzzle the engine cannot solve exactly is refused with
			// its size; the others validate.
			err = d.Validate()
			if tt.name == "master_skewb" {
				if err == nil || !strings.Contains(err.Error(), "the puzzle has 4.87e+64 states, more than the 134,217,728 a table may hold") {
					t.Errorf("validate: got %v, want the refusal with the sizes", err)
				}
			} else if err != nil {
				t.Fatal(err)
			}
			in, err := d.Instance(0)
			if err != nil {
				t.Fatal(err)
			}
			if len(in.Moves) != tt.moves {
				t.Errorf("%d moves (%v), want %d", len(in.Moves), in.Moves, tt.moves)
			}
			got := engine.GroupOrder(in.Spec)
			want, ok := new(big.Int).SetString(tt.states, 10)
			if !ok {
				f, _, err := big.ParseFloat(tt.states, 10, 200, big.ToNearestEven)
				if err != nil {
					t.Fatal(err)
				}
				g := new(big.Float).SetPrec(200).SetInt(got)
				if g.Text('e', 16) != f.Text('e', 16) {
					t.Errorf("%s states, twsearch %s", g.Text('e', 19), tt.states)
				}
				return
			}
			if got.Cmp(want) != 0 {
				t.Errorf("%v states, twsearch %v", got, want)
			}
		})
	}
}

// TestTwsRefused checks that features the reader does not take are
// errors naming the file, the line and the feature.
func TestTwsRefused(t *testing.T) {
	tests := map[string]string{
		"squareone": "p/squareone.tws:31: Illegal: not supported",
		"arecibo":   "p/arecibo.tws:48: Move Fv: rotations (x, y, z, names ending in v) are not supported",
	}
	for name, want := range tests {
		_, err := twsDefinition(t, name)
		if err == nil || err.Error() != want {
			t.Errorf("%s: got %v, want %s", name, err, want)
		}
	}
}
