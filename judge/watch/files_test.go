package watch

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/fsnotify/fsnotify"
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
