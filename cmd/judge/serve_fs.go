package main

import (
	"io/fs"
	"path"
	"strings"
)

// withoutSubmissions hides a problem's submissions/ directory, so that
// verifying an uploaded package checks its tests and programs without
// grading its example submissions.
type withoutSubmissions struct{ fsys fs.FS }

func hidden(name string) bool {
	name = path.Clean(name)
	return name == "submissions" || strings.HasPrefix(name, "submissions/")
}

func (w withoutSubmissions) Open(name string) (fs.File, error) {
	if hidden(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	return w.fsys.Open(name)
}

func (w withoutSubmissions) ReadDir(name string) ([]fs.DirEntry, error) {
	if hidden(name) {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: fs.ErrNotExist}
	}
	ents, err := fs.ReadDir(w.fsys, name)
	if path.Clean(name) != "." {
		return ents, err
	}
	out := ents[:0]
	for _, e := range ents {
		if e.Name() != "submissions" {
			out = append(out, e)
		}
	}
	return out, err
}
