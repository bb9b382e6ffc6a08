package problems

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"sync"

	"github.com/optjudge/optjudge/problems/kattis"
)

// contentHash is a problem's Hash, computed once.
type contentHash struct {
	once sync.Once
	sum  string
}

// Hash is the problem's version: the hex SHA-256 over every file of its
// directory, each as its slash-separated path, its size and its content,
// in path order. Two loads of the same files give the same hash; any
// change to a file (a test, the checker, problem.yaml) gives another. It
// is computed once per load; a file that cannot be read is hashed as its
// path and the error, so that the hash still changes with it.
//
// The files LoadDir passed over (outside the parts judging reads: see
// checkTree) are left out, and so is any file that is not a regular one,
// which reading might never end.
func (p *Problem) Hash() string {
	if p.hash == nil {
		return hashFS(p.Package.FS, nil)
	}
	p.hash.once.Do(func() { p.hash.sum = hashFS(p.Package.FS, p.tree) })
	return p.hash.sum
}

func hashFS(fsys fs.FS, t *tree) string {
	h := sha256.New()
	fs.WalkDir(fsys, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil {
			fmt.Fprintf(h, "%s error %v\n", name, err)
			return nil
		}
		if t.refused(name) != "" {
			return nil
		}
		if d.IsDir() {
			return nil
		}
		if st, err := fs.Stat(fsys, name); err == nil && !st.Mode().IsRegular() {
			return nil // a directory behind a link (WalkDir does not follow it), or a named pipe
		}
		b, err := fs.ReadFile(fsys, name)
		if err != nil {
			fmt.Fprintf(h, "%s error %v\n", name, err)
			return nil
		}
		fmt.Fprintf(h, "%s %d\n", name, len(b))
		h.Write(b)
		return nil
	})
	return hex.EncodeToString(h.Sum(nil))
}

// TestDirs lists the directories on disk that hold the problem's tests:
// testdata and the groups in it (sample, secret), or a Kattis package's
// data and every directory below it (its test groups nest). It is nil for a
// problem that is not on disk (Dir is ""), and holds only directories that
// exist.
func (p *Problem) TestDirs() []string {
	if p.Dir == "" {
		return nil
	}
	root, depth := "testdata", 1
	if p.Package.Layout == kattis.LayoutKattis {
		root, depth = "data", -1
	}
	var dirs []string
	fs.WalkDir(p.Package.FS, root, func(name string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return nil // a directory that went, or never was
		}
		dirs = append(dirs, filepath.Join(p.Dir, filepath.FromSlash(name)))
		if depth >= 0 && strings.Count(name, "/") >= depth {
			return fs.SkipDir
		}
		return nil
	})
	return dirs
}
