package rotation

import (
	"bytes"
	"flag"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

var genTestdata = flag.Bool("gen-testdata", false, "rewrite ../../../problems/rotation-game/data from the generators")

const testdataDir = "../../../problems/rotation-game/data"

// sampleBoards are the two boards of the official sample.
var sampleBoards = []Board{
	{1, 1, 1, 1, 3, 2, 3, 2, 3, 1, 3, 2, 2, 3, 1, 2, 2, 2, 3, 1, 2, 1, 3, 3},
	{1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3},
}

// testdataInputs returns the test files of problems/rotation-game, by path
// relative to testdataDir, generated from fixed seeds.
func testdataInputs(t *testing.T) map[string][]Board {
	t.Helper()
	in := map[string][]Board{
		"sample/01-sample.in":      sampleBoards,
		"secret/01-sample.in":      sampleBoards,
		"secret/02-sample-like.in": relabelled(sampleBoards),
	}
	r := rand.New(rand.NewPCG(1343, 2286))
	for i, n := range []int{20, 25, 30, 35, 40, 50} {
		var bs []Board
		for range n {
			bs = append(bs, Random(r))
		}
		in[fmt.Sprintf("secret/10-random-%d.in", i+1)] = bs
	}
	// The time limit is per file, so no file holds more search than one
	// 13-move board: a classic IDA* needs 1.5-2.2 s for one, 0.3-0.8 s for
	// a 12-move board. One 13-move board a file, two 12-move boards (the
	// boards and their order are those of the earlier files of two and
	// five boards).
	for i := range 8 {
		in[fmt.Sprintf("secret/20-deep-13-%d.in", i+1)] = []Board{Deep(r)}
	}
	for i := range 5 {
		in[fmt.Sprintf("secret/21-deep-12-%d.in", i+1)] = withOptimum(t, r, 12, 2)
	}
	var depths []Board
	for n := 1; n <= 11; n++ {
		depths = append(depths, withOptimum(t, r, n, 2)...)
	}
	in["secret/22-depths.in"] = depths
	in["secret/30-edge-no-moves.in"] = solvedBoards(r, 3)
	two, three := tieBoards(t, r)
	in["secret/31-edge-ties-2way.in"] = two
	in["secret/31-edge-ties-3way.in"] = three
	in["secret/32-edge-one-move.in"] = oneMoveBoards(r)
	return in
}

// relabelled returns each board under the six ways to rename the digits.
func relabelled(boards []Board) []Board {
	var out []Board
	for _, b := range boards {
		for _, p := range [][3]uint8{{1, 2, 3}, {1, 3, 2}, {2, 1, 3}, {2, 3, 1}, {3, 1, 2}, {3, 2, 1}} {
			var c Board
			for i, d := range b {
				c[i] = p[d-1]
			}
			out = append(out, c)
		}
	}
	return out
}

func withOptimum(t *testing.T, r *rand.Rand, n, count int) []Board {
	t.Helper()
	var bs []Board
	for range count {
		b, err := WithOptimum(r, n)
		if err != nil {
			t.Fatal(err)
		}
		bs = append(bs, b)
	}
	return bs
}

// solvedBoards returns count boards per digit whose center already holds
// only that digit.
func solvedBoards(r *rand.Rand, count int) []Board {
	var bs []Board
	for d := uint8(1); d <= 3; d++ {
		for range count {
			rest := make([]uint8, 0, 16)
			for e := uint8(1); e <= 3; e++ {
				if e != d {
					rest = append(rest, e, e, e, e, e, e, e, e)
				}
			}
			r.Shuffle(len(rest), func(i, j int) { rest[i], rest[j] = rest[j], rest[i] })
			var b Board
			for i := range b {
				if centerMask&(1<<i) != 0 {
					b[i] = d
				} else {
					b[i], rest = rest[0], rest[1:]
				}
			}
			bs = append(bs, b)
		}
	}
	return bs
}

// oneMoveBoards returns, per move, a board whose only answer is that move.
func oneMoveBoards(r *rand.Rand) []Board {
	var bs []Board
	for m := range Move(NumMoves) {
		for {
			b := solvedBoards(r, 1)[r.IntN(3)].Apply(m.Inverse())
			if s := Optimal(b); len(s.Moves) == 1 && s.Moves[0] == m {
				bs = append(bs, b)
				break
			}
		}
	}
	return bs
}

// tieBoards returns boards on which two digits, or all three, are equally
// far from filling the center: two-way ties at every optimum from 4 (two
// disjoint sets cannot both be closer) to 12, and three-way ties (the
// 13-move one is as much search as a deep board, hence two files).
func tieBoards(t *testing.T, r *rand.Rand) (two, three []Board) {
	t.Helper()
	for n := 4; n <= 12; n++ {
		two = append(two, tie(t, r, n, false))
	}
	for _, n := range []int{6, 8, 10, 12, 13} {
		three = append(three, tie(t, r, n, true))
	}
	return two, three
}

// tie returns a board on which two digits (three if three) need exactly n
// moves and none needs fewer.
func tie(t *testing.T, r *rand.Rand, n int, three bool) Board {
	t.Helper()
	tb := get()
	layer := setsAt(n)
	for range 1000 {
		s1 := layer[r.IntN(len(layer))]
		var fits []uint32
		for _, s2 := range layer {
			if s2&s1 != 0 {
				continue
			}
			if d := tb.distOf(allCells &^ (s1 | s2)); d == n || !three && d > n {
				fits = append(fits, s2)
			}
		}
		if len(fits) > 0 {
			s2 := fits[r.IntN(len(fits))]
			return boardOf(r, [3]uint32{s1, s2, allCells &^ (s1 | s2)})
		}
	}
	t.Fatalf("no board with a %d-move tie found", n)
	return Board{}
}

// TestTestdata checks problems/rotation-game/data: every .in is valid,
// its .ans is Solve's output byte for byte, and the generated files are all
// there unchanged. With -gen-testdata it rewrites the directory first.
func TestTestdata(t *testing.T) {
	want := testdataInputs(t)
	if *genTestdata {
		writeTestdata(t, want)
	}
	files := map[string][]byte{}
	for _, sub := range []string{"sample", "secret"} {
		paths, err := filepath.Glob(filepath.Join(testdataDir, sub, "*"))
		if err != nil {
			t.Fatal(err)
		}
		if len(paths) == 0 {
			t.Fatalf("%s/%s: no test files (run go test -run TestTestdata -gen-testdata)", testdataDir, sub)
		}
		for _, path := range paths {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			files[sub+"/"+filepath.Base(path)] = data
		}
	}
	for _, name := range slices.Sorted(maps.Keys(files)) {
		checkTestFile(t, name, files)
	}
	for name, bs := range want {
		if got, ok := files[name]; !ok || !bytes.Equal(got, FormatInput(bs)) {
			t.Errorf("%s: missing or not what the generator makes (run go test -run TestTestdata -gen-testdata)", name)
		}
	}
}

// checkTestFile checks one file of the testdata against its partner.
func checkTestFile(t *testing.T, name string, files map[string][]byte) {
	t.Helper()
	base := strings.TrimSuffix(name, filepath.Ext(name))
	switch filepath.Ext(name) {
	case ".in":
		if err := Validate(files[name]); err != nil {
			t.Errorf("%s:%v", name, err)
			return
		}
		ans, ok := files[base+".ans"]
		if !ok {
			t.Errorf("%s: no %s.ans", name, base)
			return
		}
		if out, _ := Solve(files[name]); !bytes.Equal(out, ans) {
			t.Errorf("%s.ans: got %q, want %q (Solve)", base, ans, out)
		}
	case ".ans":
		if _, ok := files[base+".in"]; !ok {
			t.Errorf("%s: no %s.in", name, base)
		}
	default:
		t.Errorf("%s: unexpected file, want only .in and .ans", name)
	}
}

// writeTestdata replaces the .in and .ans files of testdataDir with want.
func writeTestdata(t *testing.T, want map[string][]Board) {
	t.Helper()
	for _, sub := range []string{"sample", "secret"} {
		dir := filepath.Join(testdataDir, sub)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for _, pat := range []string{"*.in", "*.ans"} {
			old, _ := filepath.Glob(filepath.Join(dir, pat))
			for _, path := range old {
				if err := os.Remove(path); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	for name, bs := range want {
		in := FormatInput(bs)
		ans, err := Solve(in)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		path := filepath.Join(testdataDir, name)
		if err := os.WriteFile(path, in, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(strings.TrimSuffix(path, ".in")+".ans", ans, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
