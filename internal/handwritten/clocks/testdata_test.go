package clocks

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

var genTestdata = flag.Bool("gen-testdata", false, "rewrite ../../../problems/clocks/data from the generators")

const testdataDir = "../../../problems/clocks/data"

// testdataInputs returns the test inputs of problems/clocks, by path
// relative to testdataDir, generated from fixed seeds.
func testdataInputs() map[string]Position {
	in := map[string]Position{
		"sample/01-sample.in":     sample,
		"secret/01-sample.in":     sample,
		"secret/20-deepest.in":    Deepest()[0],
		"secret/30-edge-at-12.in": {},
	}
	r := rand.New(rand.NewPCG(1994, 1166))
	for i := range 20 {
		in[fmt.Sprintf("secret/10-random-%02d.in", i+1)] = Random(r)
	}
	// The next longest answers: every move three times but one, twice.
	for i, k := range r.Perm(NumMoves)[:4] {
		c := Counts{3, 3, 3, 3, 3, 3, 3, 3, 3}
		c[k] = 2
		in[fmt.Sprintf("secret/21-deep-26-%d.in", i+1)] = Needing(c)
	}
	for v := range uint8(3) {
		var p Position
		for i := range p {
			p[i] = v + 1
		}
		in[fmt.Sprintf("secret/31-edge-all-%d.in", v+1)] = p
	}
	for k := range NumMoves {
		var c Counts
		c[k] = 1
		in[fmt.Sprintf("secret/40-single-move-%d.in", k+1)] = Needing(c)
	}
	return in
}

// TestTestdata checks problems/clocks/data: every .in is valid, its .ans
// is Solve's output byte for byte, and the generated files are all there
// unchanged. With -gen-testdata it rewrites the directory first.
func TestTestdata(t *testing.T) {
	want := testdataInputs()
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
			files[filepath.Join(sub, filepath.Base(path))] = data
		}
	}
	for _, name := range slices.Sorted(maps.Keys(files)) {
		checkTestFile(t, name, files)
	}
	for name, p := range want {
		if got, ok := files[name]; !ok || !bytes.Equal(got, p.Input()) {
			t.Errorf("%s: missing or different from the generator (run go test -run TestTestdata -gen-testdata)", name)
		}
	}
}

// checkTestFile checks one file of the testdata against its partner.
func checkTestFile(t *testing.T, name string, files map[string][]byte) {
	t.Helper()
	base, ext := strings.TrimSuffix(name, filepath.Ext(name)), filepath.Ext(name)
	switch ext {
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
func writeTestdata(t *testing.T, want map[string]Position) {
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
	for name, p := range want {
		ans, err := Solve(p.Input())
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		path := filepath.Join(testdataDir, name)
		if err := os.WriteFile(path, p.Input(), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(strings.TrimSuffix(path, ".in")+".ans", ans, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
