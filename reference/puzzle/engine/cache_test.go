package engine_test

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"github.com/optjudge/optjudge/reference/puzzle/engine"
)

// tableFiles returns the cache directory's tables, by name.
func tableFiles(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(dir, "*"))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{}
	for _, n := range names {
		if filepath.Ext(n) != ".tbl" || filepath.Base(n)[0] == '.' {
			t.Errorf("%s: unexpected file in the cache", n)
			continue
		}
		data, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		files[filepath.Base(n)] = data
	}
	return files
}

// TestCache checks the disk cache: a table is written once, read back, and
// a damaged, truncated or foreign file is rebuilt (to the same bytes).
func TestCache(t *testing.T) {
	dir := t.TempDir()
	in := instance(t, "eight-puzzle", 0)
	opts := engine.Options{CacheDir: dir}
	prepare := func() *engine.Solver {
		s, err := engine.New(in.Spec, opts)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Prepare(); err != nil {
			t.Fatal(err)
		}
		return s
	}
	want, _ := prepare().Distribution()
	files := tableFiles(t, dir)
	if len(files) != 1 {
		t.Fatalf("got %d cache files, want 1", len(files))
	}
	var name string
	var good []byte
	for n, data := range files {
		name, good = n, data
	}
	path := filepath.Join(dir, name)
	other := filepath.Join(t.TempDir(), "other")
	{ // a table of another puzzle, under this one's name
		solver(t, "pancakes", 9, engine.Options{CacheDir: other})
	}
	foreign := tableFiles(t, other)
	var foreignData []byte
	for _, d := range foreign {
		foreignData = d
	}
	damaged := slices.Clone(good)
	damaged[len(damaged)/2] ^= 0x40
	for _, tt := range []struct {
		name string
		data []byte
	}{
		{"cached", good},
		{"damaged", damaged},
		{"truncated", good[:len(good)/3]},
		{"empty", nil},
		{"foreign", foreignData},
		{"garbage", bytes.Repeat([]byte("OJPUZTBL"), 100)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if err := os.WriteFile(path, tt.data, 0o644); err != nil {
				t.Fatal(err)
			}
			got, _ := prepare().Distribution()
			if !slices.Equal(got, want) {
				t.Errorf("got distribution %v, want %v", got, want)
			}
			if data, _ := os.ReadFile(path); !bytes.Equal(data, good) {
				t.Errorf("the cache file was not rebuilt to the table")
			}
		})
	}
}

// TestCacheConcurrentBuilders builds one table from several solvers at
// once into one directory: each gets the right table, and the directory
// ends with one whole file and no temporary ones.
func TestCacheConcurrentBuilders(t *testing.T) {
	dir := t.TempDir()
	in := instance(t, "eight-puzzle", 0)
	var wg sync.WaitGroup
	dists := make([][]uint64, 4)
	for i := range dists {
		wg.Go(func() {
			s, err := engine.New(in.Spec, engine.Options{CacheDir: dir})
			if err != nil {
				t.Error(err)
				return
			}
			if err := s.Prepare(); err != nil {
				t.Error(err)
				return
			}
			dists[i], _ = s.Distribution()
		})
	}
	wg.Wait()
	for i := 1; i < len(dists); i++ {
		if !slices.Equal(dists[i], dists[0]) || len(dists[0]) != 32 {
			t.Errorf("builder %d: got %v, want %v", i, dists[i], dists[0])
		}
	}
	if files := tableFiles(t, dir); len(files) != 1 {
		t.Errorf("got %d files, want 1", len(files))
	}
}

// TestCacheUnwritable checks that a cache directory that cannot be
// written only costs the table's reuse.
func TestCacheUnwritable(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	_, s := solver(t, "eight-puzzle", 0, engine.Options{CacheDir: filepath.Join(file, "sub")})
	if d, ok := s.Distribution(); !ok || len(d) != 32 {
		t.Errorf("got %v, want the eight-puzzle's 32 layers", d)
	}
}
