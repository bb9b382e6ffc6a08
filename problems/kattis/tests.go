package kattis

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
)

// Test is one test case of a problem: an input and, usually, its answer.
type Test struct {
	Name   string // e.g. "sample/1" or "secret/20-deep-1"
	Group  string // "sample", "secret", or the --tests directory's base name
	FS     fs.FS
	In     string // path of the .in file within FS
	Ans    string // path of the .ans file within FS; "" when absent
	Origin string // where FS lives, for messages
	// Config is the test's effective configuration in a Kattis package
	// (its group, arguments, validator flags, files); nil in the native
	// layout and for --tests.
	Config *TestConfig
}

// Input reads the test's input.
func (t Test) Input() ([]byte, error) { return t.read(t.In) }

// Answer reads the test's answer file; nil with no error when it has none.
func (t Test) Answer() ([]byte, error) {
	if t.Ans == "" {
		return nil, nil
	}
	return t.read(t.Ans)
}

func (t Test) read(name string) ([]byte, error) {
	b, err := fs.ReadFile(t.FS, name)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", t.Path(name), unwrapPath(err))
	}
	return b, nil
}

// Path names a file of the test for people: origin/name.
func (t Test) Path(name string) string {
	if t.Origin == "" {
		return name
	}
	return t.Origin + "/" + name
}

// Tests lists the problem's tests: testdata/sample, then testdata/secret, each
// sorted by name. In a Kattis package they are data/sample then data/secret,
// groups (subdirectories) included, in the lexicographic order of their
// paths.
func (p *Package) Tests() ([]Test, error) {
	if p.Layout == LayoutKattis && p.Spec != nil {
		return p.kattisTests()
	}
	var all []Test
	for _, g := range []string{"sample", "secret"} {
		list := ListTests
		if p.Layout == LayoutKattis {
			list = listTestsDeep
		}
		ts, err := list(p.FS, p.TestDir(g), g, p.Origin)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
		all = append(all, ts...)
	}
	return all, nil
}

// TestDir is where the tests of a group (sample or secret) live in the
// problem's FS: testdata/GROUP, or data/GROUP in a Kattis package.
func (p *Package) TestDir(group string) string {
	if p.Layout == LayoutKattis {
		return path.Join("data", group)
	}
	return path.Join("testdata", group)
}

// listTestsDeep lists the tests of dir and of its subdirectories, named
// group/sub/base.
func listTestsDeep(fsys fs.FS, dir, group, origin string) ([]Test, error) {
	ts, err := ListTests(fsys, dir, group, origin)
	if err != nil {
		return nil, err
	}
	entries, _ := fs.ReadDir(fsys, dir)
	for _, e := range entries {
		if e.IsDir() {
			sub, err := listTestsDeep(fsys, path.Join(dir, e.Name()), path.Join(group, e.Name()), origin)
			if err != nil {
				return nil, err
			}
			for i := range sub {
				sub[i].Group = group
			}
			ts = append(ts, sub...)
		}
	}
	sort.Slice(ts, func(i, j int) bool { return ts[i].Name < ts[j].Name })
	return ts, nil
}

// ListTests lists every dir/*.in of fsys with the .ans beside it, as
// tests of the group group, named group/BASE; origin is where fsys lives.
func ListTests(fsys fs.FS, dir, group, origin string) ([]Test, error) {
	entries, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return nil, err
	}
	names := map[string]bool{}
	for _, e := range entries {
		names[e.Name()] = true
	}
	var ts []Test
	for _, e := range entries {
		base, ok := strings.CutSuffix(e.Name(), ".in")
		if !ok || e.IsDir() {
			continue
		}
		t := Test{Name: path.Join(group, base), Group: group, FS: fsys, In: path.Join(dir, e.Name()), Origin: origin}
		if names[base+".ans"] {
			t.Ans = path.Join(dir, base+".ans")
		}
		ts = append(ts, t)
	}
	sort.Slice(ts, func(i, j int) bool { return ts[i].Name < ts[j].Name })
	return ts, nil
}

func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
