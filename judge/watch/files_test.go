package watch

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/fsnotify/fsnotify"
	"github.com/optjudge/optjudge/problems"
)

func TestRelevant(t *testing.T) {
	root := t.TempDir()
	src, tests := filepath.Join(root, "main.py"), filepath.Join(root, "tests")
	w, err := fsnotify.NewWatcher()
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	f := &fileWatch{w: w, source: src, tests: map[string]bool{tests: true}}
	if err := os.MkdirAll(filepath.Join(tests, "sample"), 0o755); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		op   fsnotify.Op
		want bool
	}{
		{src, fsnotify.Write, true},
		{src, fsnotify.Create, true},
		{src, fsnotify.Remove, true},
		{src, fsnotify.Chmod, true},
		{filepath.Join(root, ".main.py.swp"), fsnotify.Write, false},
		{filepath.Join(root, "main.py~"), fsnotify.Create, false},
		{filepath.Join(root, "4913"), fsnotify.Create, false}, // vim's probe file
		{filepath.Join(root, "1.in"), fsnotify.Create, false}, // not in a test directory
		{filepath.Join(tests, "3.in"), fsnotify.Create, true},
		{filepath.Join(tests, "3.ans"), fsnotify.Remove, true},
		{filepath.Join(tests, "notes.txt"), fsnotify.Write, false},
		{tests, fsnotify.Remove, true},
		{filepath.Join(tests, "sample"), fsnotify.Create, true}, // a new directory, watched from now on
		{filepath.Join(tests, "sample", "1.in"), fsnotify.Write, true},
		{filepath.Join(tests, "sample", "1.txt"), fsnotify.Write, false},
	}
	for _, c := range cases {
		if got := f.relevant(fsnotify.Event{Name: c.name, Op: c.op}); got != c.want {
			t.Errorf("%v %s: got relevant %v, want %v", c.op, c.name, got, c.want)
		}
	}
}

// TestFilesKattisGroups: a change to a test in a nested group of a Kattis
// package's data/ is a change the watch sees.
func TestFilesKattisGroups(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "sum")
	for name, content := range map[string]string{
		"problem.yaml":         "name: Sum\n",
		"data/sample/1.in":     "1 2\n",
		"data/secret/a/b/2.in": "3 4\n",
		"main.py":              "print(3)\n",
	} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	p, err := problems.LoadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	changes, err := Files(ctx, filepath.Join(dir, "main.py"), TestDirs(p, ""))
	if err != nil {
		t.Fatal(err)
	}
	test := filepath.Join(dir, "data", "secret", "a", "b", "2.in")
	if err := os.WriteFile(test, []byte("5 6\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	select {
	case c := <-changes:
		if c.Err != nil || c.Path != test {
			t.Errorf("got change %+v, want %s", c, test)
		}
	case <-time.After(time.Minute):
		t.Fatal("no change seen in a minute")
	}
}
