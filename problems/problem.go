// Package problems loads problem directories and holds the problems that ship
// embedded in the judge.
//
// A problem directory holds:
//
//	problem.yaml           the spec (see Spec)
//	statement.md           the statement
//	testdata/sample/*.in   sample inputs, each with its .ans beside it
//	testdata/secret/*.in   secret inputs, each with its .ans beside it
//	solution/              the reference in contestant form
//	submissions/<verdict>/ contestant programs with their expected verdict
package problems

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/optjudge/optjudge/checkers"
	"github.com/optjudge/optjudge/judge/bytesize"
	"github.com/optjudge/optjudge/reference"
)

//go:embed rotation-game clocks eight-puzzle
var embedded embed.FS

// Problem is a loaded, validated problem.
type Problem struct {
	Spec    *Spec
	Name    string
	Title   string
	Sources []string
	Limits  Limits

	// Origin says where the problem came from, for messages: a directory
	// path, or "embedded:NAME".
	Origin string
	// FS is the problem directory.
	FS fs.FS

	Checker   checkers.Checker
	Reference *reference.Solver // nil when the problem names none
	Validator *reference.Solver // nil when the problem names none
}

// Limits are a problem's limits in the judge's units.
type Limits struct {
	Time   time.Duration // CPU time per test file
	Memory bytesize.Size // peak resident memory
	Output bytesize.Size // standard output
}

// Load reads and validates the problem at the root of fsys; origin names it in
// messages (the directory path, say).
func Load(fsys fs.FS, origin string) (*Problem, error) {
	specName := filepath.Join(origin, "problem.yaml")
	f, err := fsys.Open("problem.yaml")
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("%s: not a problem directory (no problem.yaml)", origin)
		}
		return nil, fmt.Errorf("loading %s: %w", origin, err)
	}
	defer f.Close()
	spec, err := Parse(f, specName)
	if err != nil {
		return nil, err
	}
	if err := spec.Validate(); err != nil {
		return nil, err
	}
	chk, err := checkers.New(spec.Checker.Name, spec.Checker.Options)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", specName, err)
	}
	p := &Problem{
		Spec:    spec,
		Name:    spec.Name,
		Title:   spec.Title,
		Sources: spec.Sources,
		Limits: Limits{
			Time:   time.Duration(spec.Limits.TimeLimit * float64(time.Second)),
			Memory: bytesize.Size(spec.Limits.Memory * float64(bytesize.MiB)),
			Output: bytesize.Size(spec.Limits.Output * float64(bytesize.MiB)),
		},
		Origin:  origin,
		FS:      fsys,
		Checker: chk,
	}
	if spec.Reference != "" {
		r, _ := reference.Lookup(spec.Reference)
		p.Reference = &r
	}
	if spec.Validator != "" {
		v, _ := reference.Lookup(spec.Validator)
		p.Validator = &v
	}
	return p, nil
}

// LoadDir loads the problem in the directory dir.
func LoadDir(dir string) (*Problem, error) {
	return Load(os.DirFS(dir), dir)
}

// Embedded returns the names of the problems built into the judge.
func Embedded() []string {
	entries, _ := fs.ReadDir(embedded, ".")
	var names []string
	for _, e := range entries {
		if e.IsDir() {
			names = append(names, e.Name())
		}
	}
	return names
}

// LoadEmbedded loads a problem built into the judge.
func LoadEmbedded(name string) (*Problem, error) {
	sub, err := fs.Sub(embedded, name)
	if err != nil {
		return nil, err
	}
	if _, err := fs.Stat(sub, "problem.yaml"); err != nil {
		return nil, fmt.Errorf("no embedded problem %q (embedded: %s)", name, strings.Join(Embedded(), ", "))
	}
	return Load(sub, "embedded:"+name)
}

// Find resolves what a user typed as PROBLEM: a directory holding a
// problem.yaml; else a name looked up in each of dirs in turn; else a problem
// embedded in the judge.
func Find(ref string, dirs []string) (*Problem, error) {
	if isDir(ref) {
		return LoadDir(ref)
	}
	if strings.ContainsAny(ref, `/\`) || ref == "." || ref == ".." {
		return nil, fmt.Errorf("%s: no such problem directory", ref)
	}
	for _, d := range dirs {
		if dir := filepath.Join(d, ref); isDir(dir) {
			return LoadDir(dir)
		}
	}
	for _, n := range Embedded() {
		if n == ref {
			return LoadEmbedded(ref)
		}
	}
	where := "embedded: " + strings.Join(Embedded(), ", ")
	if len(dirs) > 0 {
		where = "looked in " + strings.Join(dirs, ", ") + "; " + where
	}
	return nil, fmt.Errorf("unknown problem %q (%s)", ref, where)
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

// Test is one test case of a problem: an input and, usually, its answer.
type Test struct {
	Name   string // e.g. "sample/1" or "secret/20-deep-1"
	Group  string // "sample", "secret", or the --tests directory's base name
	FS     fs.FS
	In     string // path of the .in file within FS
	Ans    string // path of the .ans file within FS; "" when absent
	Origin string // where FS lives, for messages
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

func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// Tests lists the problem's tests: testdata/sample, then testdata/secret, each
// sorted by name.
func (p *Problem) Tests() ([]Test, error) {
	var all []Test
	for _, g := range []string{"sample", "secret"} {
		ts, err := listTests(p.FS, path.Join("testdata", g), g, p.Origin)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
		all = append(all, ts...)
	}
	return all, nil
}

// TestsIn lists every DIR/*.in with the .ans beside it, for --tests DIR.
func TestsIn(dir string) ([]Test, error) {
	if !isDir(dir) {
		return nil, fmt.Errorf("%s: no such directory", dir)
	}
	return listTests(os.DirFS(dir), ".", filepath.Base(filepath.Clean(dir)), dir)
}

func listTests(fsys fs.FS, dir, group, origin string) ([]Test, error) {
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
