package watch

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/fsnotify/fsnotify"
)

// Files watches the directory of source and each of testDirs, and sends a
// Change for every event about source itself, or about a test file (.in,
// .ans) or subdirectory in one of testDirs. It watches directories, not
// files, so that a source an editor replaces (write a temporary file, rename
// it over the source) stays watched, and a deleted one is seen coming back.
// A directory created in a test directory is watched too. A source that is
// a directory (a submission of several files) is watched whole: an event
// about any file in it, or in a directory below it, is a change, but for
// the hidden files and editors' backups (~) that are no part of the
// submission. The channel is closed once ctx is done.
func Files(ctx context.Context, source string, testDirs []string) (<-chan Change, error) {
	source, err := filepath.Abs(source)
	if err != nil {
		return nil, err
	}
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, fmt.Errorf("starting the file watcher: %w", err)
	}
	f := &fileWatch{w: w, source: source, tests: map[string]bool{}, srcDirs: map[string]bool{}}
	if err := f.add(filepath.Dir(source)); err != nil {
		w.Close()
		return nil, err
	}
	if err := f.addSource(source); err != nil {
		w.Close()
		return nil, err
	}
	for _, d := range testDirs {
		if d, err = filepath.Abs(d); err == nil {
			err = f.add(d)
		}
		if err != nil {
			w.Close()
			return nil, err
		}
		f.tests[d] = true
	}
	out := make(chan Change)
	go f.run(ctx, out)
	return out, nil
}

// fileWatch is the state of one Files.
type fileWatch struct {
	w       *fsnotify.Watcher
	source  string          // absolute
	tests   map[string]bool // absolute test directories, and the ones created in them
	srcDirs map[string]bool // a directory source and the directories in it
}

// addSource watches the directory dir of a directory source, and the
// directories in it; a file source needs nothing more than its directory.
func (f *fileWatch) addSource(dir string) error {
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return nil
	}
	return filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case !d.IsDir():
			return nil
		case p != dir && notSubmitted(d.Name()):
			return filepath.SkipDir
		}
		if err := f.add(p); err != nil {
			return err
		}
		f.srcDirs[p] = true
		return nil
	})
}

// notSubmitted reports whether a name in a directory submission is left
// out of it, as judge.Prepare leaves it: hidden, or an editor's backup.
func notSubmitted(name string) bool {
	return strings.HasPrefix(name, ".") || strings.HasSuffix(name, "~")
}

func (f *fileWatch) add(dir string) error {
	if err := f.w.Add(dir); err != nil {
		return fmt.Errorf("watching %s: %w", dir, err)
	}
	return nil
}

func (f *fileWatch) run(ctx context.Context, out chan<- Change) {
	defer close(out)
	defer f.w.Close()
	for {
		var c Change
		select {
		case <-ctx.Done():
			return
		case ev, ok := <-f.w.Events:
			if !ok {
				return
			}
			if !f.relevant(ev) {
				continue
			}
			c.Path = ev.Name
		case err, ok := <-f.w.Errors:
			if !ok {
				return
			}
			c.Err = err
		}
		select {
		case out <- c:
		case <-ctx.Done():
			return
		}
	}
}

// relevant reports whether ev concerns the grade; it starts watching a
// directory created in a test directory.
func (f *fileWatch) relevant(ev fsnotify.Event) bool {
	if ev.Name == f.source {
		if ev.Has(fsnotify.Create) {
			f.addSource(ev.Name) // a directory source came back
		}
		return true
	}
	if f.srcDirs[filepath.Dir(ev.Name)] {
		if notSubmitted(filepath.Base(ev.Name)) {
			return false
		}
		if ev.Has(fsnotify.Create) {
			f.addSource(ev.Name)
		}
		return true
	}
	if f.tests[ev.Name] {
		return true // a test directory itself went or came back
	}
	if !f.tests[filepath.Dir(ev.Name)] {
		return false
	}
	switch filepath.Ext(ev.Name) {
	case ".in", ".ans":
		return true
	}
	if ev.Has(fsnotify.Create) {
		if st, err := os.Stat(ev.Name); err == nil && st.IsDir() {
			if f.add(ev.Name) == nil {
				f.tests[ev.Name] = true
			}
			return true
		}
	}
	return false
}
