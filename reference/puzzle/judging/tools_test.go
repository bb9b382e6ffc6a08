package judging

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/optjudge/optjudge/reference"
)

// The tools of judge gen and judge stress, on the shipped problems: the
// tests the hand-written references' tools had, on the definitions.

// shippedNames are the shipped problems.
var shippedNames = []string{"clocks", "eight-puzzle", "rotation-game"}

func TestToolsGenerate(t *testing.T) {
	for _, name := range shippedNames {
		p := shipped(t, name)
		tl, s := p.Tools(), p.Reference()
		t.Run(name, func(t *testing.T) {
			for _, kind := range []string{reference.Random, reference.Deep} {
				a, err := tl.Generate(kind, rand.New(rand.NewPCG(1, 2)), 4)
				if err != nil {
					t.Fatal(err)
				}
				b, _ := tl.Generate(kind, rand.New(rand.NewPCG(1, 2)), 4)
				if !bytes.Equal(a, b) {
					t.Errorf("%s: two runs with one seed differ", kind)
				}
				if err := s.Validate(a); err != nil {
					t.Fatalf("%s: generated an invalid input: %v", kind, err)
				}
				cases, err := tl.Split(a)
				if err != nil {
					t.Fatal(err)
				}
				want := 4
				if !tl.MultiCase {
					want = 1
				}
				if len(cases) != want {
					t.Fatalf("%s: got %d cases, want %d", kind, len(cases), want)
				}
				joined, err := tl.Join(cases)
				if err != nil || !bytes.Equal(joined, a) {
					t.Errorf("%s: Join(Split(x)) = %q, %v, want x = %q", kind, joined, err, a)
				}
				for _, c := range cases {
					d, err := tl.Depth(c)
					if err != nil {
						t.Fatal(err)
					}
					if kind == reference.Deep && d != tl.MaxDepth() {
						t.Errorf("deep case %q at depth %d, want %d", c, d, tl.MaxDepth())
					}
				}
			}
			if _, err := tl.Generate("shallow", rand.New(rand.NewPCG(1, 2)), 1); err == nil {
				t.Error("got no error for an unknown kind")
			}
		})
	}
}

// TestToolsPath: every step of the path is one move closer, down to 0.
func TestToolsPath(t *testing.T) {
	for _, name := range shippedNames {
		tl := shipped(t, name).Tools()
		t.Run(name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(3, 4))
			for d := 0; d <= tl.MaxDepth(); d += 3 {
				c, ok := tl.AtDepth(r, d)
				if !ok {
					t.Fatalf("no case at depth %d", d)
				}
				if got, err := tl.Depth(c); err != nil || got != d {
					t.Fatalf("AtDepth(%d) gave %q at depth %d, %v", d, c, got, err)
				}
				path, err := tl.Path(c)
				if err != nil {
					t.Fatal(err)
				}
				if len(path) != d {
					t.Fatalf("depth %d: got a path of %d, want %d", d, len(path), d)
				}
				for i, p := range path {
					if got, _ := tl.Depth(p); got != d-1-i {
						t.Errorf("depth %d: step %d at depth %d, want %d", d, i+1, got, d-1-i)
					}
				}
			}
			if _, ok := tl.AtDepth(r, tl.MaxDepth()+1); ok {
				t.Errorf("got a case beyond the greatest depth %d", tl.MaxDepth())
			}
		})
	}
}

func TestToolsAll(t *testing.T) {
	cl := shipped(t, "clocks").Tools()
	files := cl.All(nil)
	seen := map[string]bool{}
	for _, f := range files {
		seen[string(f)] = true
	}
	if len(files) != 1<<18 || len(seen) != 1<<18 {
		t.Errorf("clocks: got %d files, %d distinct, want 262144", len(files), len(seen))
	}
	ep := shipped(t, "eight-puzzle").Tools()
	all := ep.All(rand.New(rand.NewPCG(1, 1)))
	if len(all) != 1 || bytes.Count(all[0], []byte{'\n'}) != 181440+1000 {
		t.Errorf("eight-puzzle: got %d files, want one of 182,440 lines", len(all))
	}
	if rt := shipped(t, "rotation-game").Tools(); rt.All != nil && rt.All(nil) != nil {
		t.Error("rotation-game: got every case, want none: its state space is too large")
	}
}

// TestToolsSplitKeepsBytes: a case keeps its line exactly, spaces and all,
// so that a shrunk input still fails the way the original did.
func TestToolsSplitKeepsBytes(t *testing.T) {
	ep := shipped(t, "eight-puzzle").Tools()
	in := []byte("  1 2 3 4 5 6 7 8 x\n8 6 7 2 5 4 3 x 1  \n")
	cases, err := ep.Split(in)
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) != 2 || string(cases[0]) != "  1 2 3 4 5 6 7 8 x\n" || string(cases[1]) != "8 6 7 2 5 4 3 x 1  \n" {
		t.Errorf("got %q", cases)
	}
}
