package judge

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// workDir is one worker's working directory, emptied between its tests
// rather than made anew: the same directory also lets the sandbox run the
// tests in the same (refreshed) box. The contestant owns the directory
// during a run; what it could leave on the directory itself is reset or
// makes a new one.
type workDir struct {
	path   string
	mode   os.FileMode            // the directory's, as made
	placed map[string]os.FileInfo // the program's files where they were placed
	linked bool                   // the sandbox placed them as links to the build
	// readable: made readable by all, for a program that may not write
	// in it (and so is not lent it)
	readable bool
}

// workDirTime is the modification time of a working directory between
// tests, so that a test cannot pass anything on in it.
var workDirTime = time.Unix(0, 0)

// fresh returns the directory as a new one would be: nothing in it but the
// program. The program's files stay from the last test if they are still
// the files placed; anything else the last test left is removed.
func (w *workDir) fresh(j *Judge, p *program) (string, error) {
	if w.path != "" {
		if err := w.empty(j, p); err == nil {
			return w.path, nil
		}
		w.remove() // cannot be emptied (a program made it unreadable): a new one
	}
	dir, err := os.MkdirTemp(j.tmp, "run-")
	if err != nil {
		return "", fmt.Errorf("creating a working directory: %w", err)
	}
	if w.readable {
		if err := os.Chmod(dir, 0o755); err != nil {
			os.Remove(dir)
			return "", fmt.Errorf("creating a working directory: %w", err)
		}
	}
	fi, err := os.Lstat(dir)
	if err != nil {
		os.Remove(dir)
		return "", fmt.Errorf("creating a working directory: %w", err)
	}
	w.path, w.mode = dir, fi.Mode()
	if err := w.place(j, p, p.files); err != nil {
		return "", err
	}
	return dir, nil
}

// empty removes what the last test left and puts back the program's files
// that are not the files placed there, untouched (those below a directory,
// of a submission of several files, are placed anew). A directory whose mode
// changed or that carries extended attributes (or an ACL) is not emptied:
// the caller makes a new one.
func (w *workDir) empty(j *Judge, p *program) error {
	fi, err := os.Lstat(w.path)
	if err != nil {
		return err
	}
	if fi.Mode() != w.mode {
		return errors.New("working directory changed")
	}
	if hasXattrs(w.path) {
		return errors.New("working directory has extended attributes")
	}
	ents, err := os.ReadDir(w.path)
	if err != nil {
		return err
	}
	kept := map[string]bool{}
	for _, e := range ents {
		path := filepath.Join(w.path, e.Name())
		if placed := w.placed[e.Name()]; placed != nil && slices.Contains(p.files, e.Name()) {
			if fi, err := os.Lstat(path); err == nil && untouched(fi, placed, w.linked) {
				kept[e.Name()] = true
				continue
			}
		}
		if err := os.RemoveAll(path); err != nil {
			return err
		}
	}
	var missing []string
	for _, f := range p.files {
		if !kept[f] {
			missing = append(missing, f)
		}
	}
	if err := w.place(j, p, missing); err != nil {
		return err
	}
	return os.Chtimes(w.path, workDirTime, workDirTime)
}

// place has the sandbox put the program's files into the directory, as its
// policy needs (see sandbox.Sandbox.Place).
func (w *workDir) place(j *Judge, p *program, files []string) error {
	if w.placed == nil {
		w.placed = map[string]os.FileInfo{}
	}
	for _, f := range files {
		delete(w.placed, f)
		dst := filepath.Join(w.path, filepath.FromSlash(f))
		linked, err := placeFile(j, p, f, w.path)
		if err != nil {
			return err
		}
		fi, err := os.Lstat(dst)
		if err != nil {
			return fmt.Errorf("placing the program: %w", err)
		}
		w.placed[f], w.linked = fi, linked
	}
	return nil
}

// placeFile has the sandbox put the program's file f into the working
// directory dir, making the directories it is in (a submission of several
// files may have some).
func placeFile(j *Judge, p *program, f, dir string) (linked bool, err error) {
	dst := filepath.Join(dir, filepath.FromSlash(f))
	if strings.Contains(f, "/") {
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return false, fmt.Errorf("placing the program: %w", err)
		}
	}
	return j.sb.Place(filepath.Join(p.dir, filepath.FromSlash(f)), dst)
}

// remove removes the directory, once the worker is done.
func (w *workDir) remove() {
	if w.path != "" {
		removeAll(w.path)
		w.path, w.placed = "", nil
	}
}
