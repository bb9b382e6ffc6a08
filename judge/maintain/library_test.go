package maintain

import (
	"bufio"
	"bytes"
	"hash/fnv"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/optjudge/optjudge/reference"
)

// shippedGenerated are the secret tests of issue 20's problems that judge
// gen wrote, as their problem.yaml records the commands: each is made again
// here and must come out byte for byte the same.
var shippedGenerated = []struct {
	problem string
	opts    GenerateOptions
}{
	{"fifteen-puzzle", GenerateOptions{Kind: reference.Random, Count: 4, Cases: 5, Seed: 15}},
	{"fifteen-puzzle", GenerateOptions{Kind: reference.Deep, Count: 3, Cases: 2, Seed: 15}},
	{"pocket-cube", GenerateOptions{Kind: reference.Random, Count: 4, Cases: 20, Seed: 2}},
	{"pocket-cube", GenerateOptions{Kind: reference.Deep, Count: 4, Cases: 10, Seed: 2}},
	{"pancakes", GenerateOptions{Kind: reference.Random, Count: 3, Cases: 20, Seed: 3}},
	{"pancakes", GenerateOptions{Kind: reference.Deep, Count: 2, Cases: 5, Seed: 3}},
	{"lights-out", GenerateOptions{Kind: reference.Random, Count: 2, Cases: 30, Seed: 4}},
	{"lights-out", GenerateOptions{Kind: reference.Deep, Count: 2, Cases: 15, Seed: 4}},
	// Issue 28's problems, defined by rules.
	{"hanoi", GenerateOptions{Kind: reference.Random, Count: 3, Cases: 40, Seed: 28}},
	{"hanoi", GenerateOptions{Kind: reference.Deep, Count: 2, Cases: 10, Seed: 28}},
	{"water-jugs", GenerateOptions{Kind: reference.Random, Count: 3, Cases: 40, Seed: 28}},
	{"water-jugs", GenerateOptions{Kind: reference.Deep, Count: 2, Cases: 10, Seed: 28}},
	{"rush-hour", GenerateOptions{Kind: reference.Random, Count: 6, Cases: 1, Seed: 28}},
	{"rush-hour", GenerateOptions{Kind: reference.Deep, Count: 3, Cases: 1, Seed: 28}},
	{"klotski", GenerateOptions{Kind: reference.Random, Count: 6, Cases: 1, Seed: 28}},
	{"klotski", GenerateOptions{Kind: reference.Deep, Count: 3, Cases: 1, Seed: 28}},
	// Issue 29's twisty puzzles, defined by twsearch files.
	{"skewb", GenerateOptions{Kind: reference.Random, Count: 4, Cases: 20, Seed: 2}},
	{"skewb", GenerateOptions{Kind: reference.Deep, Count: 4, Cases: 10, Seed: 2}},
	{"pyraminx", GenerateOptions{Kind: reference.Random, Count: 4, Cases: 20, Seed: 2}},
	{"pyraminx", GenerateOptions{Kind: reference.Deep, Count: 4, Cases: 10, Seed: 2}},
	{"cube", GenerateOptions{Kind: reference.Random, Count: 4, Cases: 20, Seed: 2}},
	{"cube", GenerateOptions{Kind: reference.Deep, Count: 4, Cases: 10, Seed: 2}},
}

// TestShippedTestdataReproducible generates the shipped problems' secret
// tests again from their seeds and compares them with the files in
// problems/NAME/data/secret. The fifteen-puzzle's deep boards (the
// deepest of many random ones, each solved) and the pyraminx (a table of
// 75,582,720 positions) take a while: not with -short.
func TestShippedTestdataReproducible(t *testing.T) {
	t.Parallel()
	for _, g := range shippedGenerated {
		t.Run(g.problem+"/"+g.opts.Kind, func(t *testing.T) {
			t.Parallel()
			if testing.Short() && g.problem == "fifteen-puzzle" && g.opts.Kind == reference.Deep {
				t.Skip("-short: the fifteen-puzzle's deep boards take a minute")
			}
			if testing.Short() && g.problem == "pyraminx" {
				t.Skip("-short: the pyraminx's table takes a while")
			}
			o := g.opts
			o.Dir = t.TempDir()
			files, err := Generate(embedded(t, g.problem), o)
			if err != nil {
				t.Fatal(err)
			}
			if len(files) != o.Count {
				t.Fatalf("got %d files, want %d", len(files), o.Count)
			}
			for _, f := range files {
				for _, made := range []string{f.In, f.Ans} {
					shipped := filepath.Join("..", "..", "problems", g.problem, "data", "secret", filepath.Base(made))
					want, err := os.ReadFile(shipped)
					if err != nil {
						t.Fatal(err)
					}
					if got, _ := os.ReadFile(made); !bytes.Equal(got, want) {
						t.Errorf("%s: judge gen made it again differently (got %d bytes, want %d)", shipped, len(got), len(want))
					}
				}
			}
		})
	}
}

// TestGenerateAllPocketCube: judge gen --kind all lists every position of
// the pocket cube once, 3,674,160 of them, and their answers are as long as
// the published distribution says (OEIS A079761, as in the engine's
// TestPocketCubeDistribution).
func TestGenerateAllPocketCube(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("-short: 3,674,160 positions solved and written take a minute")
	}
	files, err := Generate(embedded(t, "pocket-cube"), GenerateOptions{Kind: All, Seed: 1, Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 1 {
		t.Fatalf("got %d files, want one", len(files))
	}
	var hashes []uint64
	eachLine(t, files[0].In, func(line string) {
		if len(line) != 24 {
			t.Fatalf("got a line %q, want 24 stickers", line)
		}
		h := fnv.New64a()
		h.Write([]byte(line))
		hashes = append(hashes, h.Sum64())
	})
	slices.Sort(hashes)
	if n := len(slices.Compact(hashes)); n != len(hashes) || n != 3674160 {
		t.Errorf("got %d positions, %d of them different, want 3,674,160", len(hashes), n)
	}
	var lengths []uint64
	eachLine(t, files[0].Ans, func(line string) {
		n := len(strings.Fields(line))
		for len(lengths) <= n {
			lengths = append(lengths, 0)
		}
		lengths[n]++
	})
	want := []uint64{1, 9, 54, 321, 1847, 9992, 50136, 227536, 870072, 1887748, 623800, 2644}
	if !slices.Equal(lengths, want) {
		t.Errorf("got answers of each length %v, want %v", lengths, want)
	}
}

func eachLine(t *testing.T, path string, f func(string)) {
	t.Helper()
	file, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	sc := bufio.NewScanner(file)
	for sc.Scan() {
		f(sc.Text())
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
}
