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

// TestRelevantDirectorySource: a source that is a directory is watched
// whole: any file in it or below it, but hidden files and backups, which
// are no part of the submission.
func TestRelevantDirectorySource(t *testing.T) {
	src := filepath.Join(t.TempDir(), "sol")
	sub := filepath.Join(src, "pkg")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	w, err := fsnotify.NewWatcher()
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	f := &fileWatch{w: w, source: src, tests: map[string]bool{}, srcDirs: map[string]bool{}}
	if err := f.addSource(src); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		op   fsnotify.Op
		want bool
	}{
		{src, fsnotify.Remove, true},
		{filepath.Join(src, "main.cpp"), fsnotify.Write, true},
		{filepath.Join(src, "util.h"), fsnotify.Create, true},
		{filepath.Join(sub, "solve.py"), fsnotify.Write, true},
		{filepath.Join(src, ".main.cpp.swp"), fsnotify.Write, false},
		{filepath.Join(src, "main.cpp~"), fsnotify.Create, false},
		{filepath.Join(filepath.Dir(src), "other.cpp"), fsnotify.Write, false},
	} {
		if got := f.relevant(fsnotify.Event{Name: c.name, Op: c.op}); got != c.want {
			t.Errorf("%v %s: got relevant %v, want %v", c.op, c.name, got, c.want)
		}
	}
}

// TestFilesDirectorySource: a save of a file deep in a directory source,
// and of a file in a directory made after the watch started, is a change.
func TestFilesDirectorySource(t *testing.T) {
	src := filepath.Join(t.TempDir(), "sol")
	if err := os.MkdirAll(filepath.Join(src, "pkg"), 0o755); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	changes, err := Files(ctx, src, nil)
	if err != nil {
		t.Fatal(err)
	}
	wait := func(what string) {
		t.Helper()
		select {
		case c := <-changes:
			if c.Err != nil {
				t.Fatal(c.Err)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: no change seen", what)
		}
	}
	if err := os.WriteFile(filepath.Join(src, "pkg", "a.py"), []byte("x = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	wait("a file in pkg")
	if err := os.Mkdir(filepath.Join(src, "new"), 0o755); err != nil {
		t.Fatal(err)
	}
	wait("a new directory") // its watch is added before its change is sent
	if err := os.WriteFile(filepath.Join(src, "new", "b.py"), []byte("y = 2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	wait("a file in the new directory")
}
