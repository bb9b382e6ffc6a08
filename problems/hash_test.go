package problems

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestDir(t *testing.T) {
	p, err := LoadDir("sum-kattis")
	if err != nil {
		t.Fatal(err)
	}
	if p.Dir != "sum-kattis" {
		t.Errorf("LoadDir: got Dir %q, want sum-kattis", p.Dir)
	}
	e, err := LoadEmbedded("clocks")
	if err != nil {
		t.Fatal(err)
	}
	if e.Dir != "" || e.TestDirs() != nil {
		t.Errorf("embedded: got Dir %q and test directories %q, want none", e.Dir, e.TestDirs())
	}
}

// TestHash: a problem's hash is the same for the same files and changes
// with any of them.
func TestHash(t *testing.T) {
	files := map[string]string{
		"problem.yaml":          "name: sum\ntitle: Sum\n",
		"testdata/sample/1.in":  "1 2\n",
		"testdata/sample/1.ans": "3\n",
	}
	dir := writeTree(t, "sum", files)
	load := func() *Problem {
		t.Helper()
		p, err := LoadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	first := load().Hash()
	if len(first) != 64 {
		t.Fatalf("got hash %q, want 64 hex digits", first)
	}
	p := load()
	if h := p.Hash(); h != first {
		t.Errorf("the same files: got %s, want %s", h, first)
	}
	for _, change := range []struct{ file, content string }{
		{"testdata/sample/1.ans", "4\n"},
		{"testdata/secret/2.in", "1 1\n"},
		{"problem.yaml", "name: sum\ntitle: Sums\n"},
	} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, change.file)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, change.file), []byte(change.content), 0o644); err != nil {
			t.Fatal(err)
		}
		if h := load().Hash(); h == first {
			t.Errorf("after writing %s: the hash did not change", change.file)
		}
	}
	if h := p.Hash(); h != first {
		t.Errorf("a loaded problem's hash changed with the files: got %s, want %s (computed once)", h, first)
	}
}

func TestTestDirs(t *testing.T) {
	native := writeTree(t, "sum", map[string]string{
		"problem.yaml":           "name: sum\ntitle: Sum\n",
		"testdata/sample/1.in":   "",
		"testdata/secret/2.in":   "",
		"testdata/secret/x/3.in": "", // not a test: native groups do not nest
	})
	kattis := writeTree(t, "sum", map[string]string{
		"problem.yaml":            "name: Sum\n",
		"data/sample/1.in":        "",
		"data/secret/a/1.in":      "",
		"data/secret/a/b/2.in":    "",
		"output_validators/x.txt": "",
	})
	for _, tt := range []struct {
		dir  string
		want []string
	}{
		{native, []string{"testdata", "testdata/sample", "testdata/secret"}},
		{kattis, []string{"data", "data/sample", "data/secret", "data/secret/a", "data/secret/a/b"}},
	} {
		p, err := LoadDir(tt.dir)
		if err != nil {
			t.Fatal(err)
		}
		var want []string
		for _, w := range tt.want {
			want = append(want, filepath.Join(tt.dir, w))
		}
		if got := p.TestDirs(); !slices.Equal(got, want) {
			t.Errorf("%v layout: got %q, want %q", p.Package.Layout, got, want)
		}
	}
}
