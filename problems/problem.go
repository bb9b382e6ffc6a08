// Package problems loads problem directories and holds the problems that ship
// embedded in the judge.
//
// A problem is a Kattis/ICPC problem package (see package kattis, the one
// problem model): problem.yaml, data/sample and data/secret, statement/,
// submissions/<verdict>/, its validators. A package may bring a puzzle
// definition beside problem.yaml (puzzle.yaml, see package puzzle), the
// judge's extension of the format: the definition is then the package's
// output validator (where it has none of its own), an input validator,
// the reference that makes answer files (judge solve, judge generate),
// its generators and its drawings. problem.yaml stays what the format
// says, so the other tools read the package too (judge export writes the
// definition's checker and validator as programs they run).
//
//	problem.yaml           problem_format_version: 2025-09 (legacy and 2023-07 read too)
//	puzzle.yaml            a puzzle's definition (optional)
//	statement/problem.en.md
//	data/sample/*.in       each with its .ans beside it
//	data/secret/*.in       in groups (directories) too
//	submissions/<verdict>/ example submissions with their expected verdict
//
// The judge's earlier native layout (problem.yaml with name and title,
// testdata/ instead of data/, statement.md) still loads, as a legacy
// dialect (see nativeSpec), with a notice: judge convert rewrites it as a
// package.
package problems

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/optjudge/optjudge/bytesize"
	"github.com/optjudge/optjudge/checkers"
	"github.com/optjudge/optjudge/problems/kattis"
	"github.com/optjudge/optjudge/reference"
	"github.com/optjudge/optjudge/reference/puzzle/judging"
)

//go:embed rotation-game clocks eight-puzzle fifteen-puzzle pocket-cube pancakes lights-out hanoi water-jugs rush-hour klotski skewb pyraminx cube
var embedded embed.FS

// Problem is a loaded, validated problem: its package model (Package),
// its name, title and limits in the judge's units, and what the judge
// derives from a puzzle definition (Reference, Validator, Puzzle).
type Problem struct {
	Name    string // the package's directory name
	Title   string
	Sources []string
	Limits  Limits

	// Dir is the problem directory on disk, as LoadDir was given it; ""
	// for a problem embedded in the judge (or loaded from another FS).
	// The directory itself, and where it came from, are Package.FS and
	// Package.Origin.
	Dir string

	Reference *reference.Solver // nil when the problem has none
	Validator *reference.Solver // nil when the problem has none
	// Puzzle is the checker's puzzle when the checker is a defined
	// puzzle's: it draws the positions that explain a verdict. Nil else.
	Puzzle *judging.Puzzle

	// Package is the problem's package model: its layout and directory,
	// type, test groups, checker and validators, time-limit rules and
	// warnings.
	Package kattis.Package

	hash      *contentHash    // Hash's, computed once; shared by copies of the Problem
	refPuzzle *judging.Puzzle // the reference's puzzle, for Tools
	tree      *tree           // what LoadDir's checkTree passed over; nil for other loads
}

// TimeRules are the ICPC margins between a time limit and the running times
// of the example submissions: the slowest accepted run times AC must fit in
// the limit, and every time-limit-exceeded submission must exceed the limit
// times TLE.
type TimeRules struct {
	AC  float64
	TLE float64
}

// DefaultTimeRules are the ICPC margins.
var DefaultTimeRules = TimeRules{AC: 2, TLE: 1.5}

// TimeRules are the margins judge verify holds the time limit to: the
// package's time multipliers.
func (p *Problem) TimeRules() TimeRules {
	m := p.Package.Time.Multipliers
	return TimeRules{AC: m.ACToTimeLimit, TLE: m.TimeLimitToTLE}
}

// Limits are a problem's limits in the judge's units.
type Limits struct {
	Time   time.Duration // CPU time per test file
	Memory bytesize.Size // peak resident memory
	Output bytesize.Size // standard output
}

// Load reads and validates the problem at the root of fsys; origin names it in
// messages (the directory path, say), and its last element is the
// problem's directory name.
func Load(fsys fs.FS, origin string) (*Problem, error) {
	name := filepath.Clean(origin)
	if abs, err := filepath.Abs(name); err == nil {
		name = abs
	}
	return load(fsys, origin, "", filepath.Base(name), nil)
}

// load loads the problem at the root of fsys, on disk in dir ("" for
// none), whose directory is called name; t is what checkTree found in
// it (nil when it was not walked).
func load(fsys fs.FS, origin, dir, name string, t *tree) (*Problem, error) {
	specName := filepath.Join(origin, "problem.yaml")
	f, err := fsys.Open("problem.yaml")
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("%s: not a problem directory (no problem.yaml)", origin)
		}
		return nil, fmt.Errorf("loading %s: %w", origin, err)
	}
	data, err := io.ReadAll(io.LimitReader(f, maxSpecFile+1))
	f.Close()
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", specName, err)
	}
	if len(data) > maxSpecFile {
		return nil, fmt.Errorf("%s: over %d KiB", specName, maxSpecFile>>10)
	}
	layout, err := layoutOf(fsys, data, origin)
	if err != nil {
		return nil, err
	}
	var p *Problem
	if layout == kattis.LayoutNative {
		p, err = loadNative(fsys, origin, specName, data, t)
	} else {
		p, err = loadPackage(fsys, origin, name, specName, data)
	}
	if err != nil {
		return nil, err
	}
	p.Dir, p.tree = dir, t
	p.hash = &contentHash{}
	if t != nil {
		p.Package.Warnings = append(t.warnings, p.Package.Warnings...)
	}
	return p, nil
}

// maxSpecFile bounds a problem.yaml.
const maxSpecFile = 1 << 20

// layoutOf tells a problem directory's layout: a package with data/, the
// native layout with testdata/ (both is an error); with neither (a package
// whose data its generators make), a package unless problem.yaml has the
// native title key and no problem_format_version.
func layoutOf(fsys fs.FS, spec []byte, origin string) (kattis.Layout, error) {
	data, testdata := isDirFS(fsys, "data"), isDirFS(fsys, "testdata")
	switch {
	case data && testdata:
		return 0, fmt.Errorf("%s: both data/ and testdata/: a package keeps its tests in data/ (testdata/ is the judge's legacy native layout); keep one", origin)
	case testdata:
		return kattis.LayoutNative, nil
	case data, isFileFS(fsys, "generators/generators.yaml"):
		// a package whose data/ BAPCtools' generators.yaml makes may
		// not have it yet
		return kattis.LayoutKattis, nil
	}
	var top map[string]any
	if yaml.Unmarshal(spec, &top) != nil {
		return kattis.LayoutNative, nil // the native parser says what is wrong with it
	}
	_, title := top["title"]
	_, version := top["problem_format_version"]
	if title && !version {
		return kattis.LayoutNative, nil
	}
	return kattis.LayoutKattis, nil
}

// loadPackage loads a Kattis/ICPC package, with the puzzle definition
// beside its problem.yaml if it has one.
func loadPackage(fsys fs.FS, origin, name, specName string, data []byte) (*Problem, error) {
	ks, err := kattis.Parse(bytes.NewReader(data), specName)
	if err != nil {
		return nil, err
	}
	if err := ks.Validate(); err != nil {
		return nil, err
	}
	ps, err := packagePuzzles(fsys, origin)
	if err != nil {
		return nil, err
	}
	pk := kattis.Package{Layout: kattis.LayoutKattis, FS: fsys, Origin: origin, Spec: ks}
	if ps.own != nil {
		if pk.OwnChecker, err = ps.checker(Own, nil); err != nil {
			return nil, err
		}
	}
	if err := pk.Load(name); err != nil {
		return nil, err
	}
	p := &Problem{Name: name, Title: ks.Title(), Sources: ks.Sources(), Package: pk,
		Limits: Limits{Time: pk.Time.Limit, Memory: ks.Memory(), Output: ks.Output()}}
	if strings.TrimSpace(p.Title) == "" {
		p.Title = name
	}
	if p.Limits.Time == 0 {
		p.Limits.Time = time.Second // until the judge derives it
	}
	if ps.own != nil {
		if err := p.usePuzzles(ps, Own, Own); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// usePuzzles takes the problem's reference and input validator from the
// puzzles named so ("" for none), and its drawings from the checker's.
func (p *Problem) usePuzzles(ps *puzzles, reference, validator string) error {
	if c := p.PuzzleChecker(); c != nil {
		p.Puzzle = c.Puzzle()
	}
	var err error
	if p.refPuzzle, p.Reference, err = ps.reference(reference); err != nil {
		return err
	}
	_, p.Validator, err = ps.reference(validator)
	return err
}

// PuzzleChecker is the problem's checker when it is a defined puzzle's,
// which explains its verdicts (see package explain); nil else.
func (p *Problem) PuzzleChecker() *judging.Checker {
	if pc, ok := p.Package.Checker.(checkers.Puzzle); ok {
		return pc.C
	}
	return nil
}

// LoadDir loads the problem in the directory dir. Its symbolic links are
// followed, but a link that leads out of dir (or nowhere, or to a
// directory that holds it) is an error naming it: the format allows links
// only within the package. So is a file that is not a regular file (a
// named pipe, a device), and a tree of more than maxTreeEntries entries.
// In a part of the directory that judging never reads (a problem.pdf
// beside problem.yaml) such a file is a warning (see checkTree).
func LoadDir(dir string) (*Problem, error) {
	name := filepath.Clean(dir)
	if abs, err := filepath.Abs(name); err == nil {
		name = abs
	}
	t, err := checkTree(dir, maxTreeEntries)
	if err != nil {
		return nil, err
	}
	return load(os.DirFS(dir), dir, dir, filepath.Base(name), t)
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
	return load(sub, "embedded:"+name, "", name, nil)
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

func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// IsExample says whether the file or directory at path, on disk, is one of
// the problem's example submissions: below its submissions/ directory.
func (p *Problem) IsExample(path string) bool {
	if p.Dir == "" {
		return false
	}
	root, err1 := filepath.Abs(filepath.Join(p.Dir, "submissions"))
	abs, err2 := filepath.Abs(path)
	if err1 != nil || err2 != nil {
		return false
	}
	rel, err := filepath.Rel(root, abs)
	return err == nil && rel != "." && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// TestsIn lists every DIR/*.in with the .ans beside it, for --tests DIR.
func TestsIn(dir string) ([]kattis.Test, error) {
	if !isDir(dir) {
		return nil, fmt.Errorf("%s: no such directory", dir)
	}
	return kattis.ListTests(os.DirFS(dir), ".", filepath.Base(filepath.Clean(dir)), dir)
}

func isDirFS(fsys fs.FS, name string) bool {
	st, err := fs.Stat(fsys, name)
	return err == nil && st.IsDir()
}

func isFileFS(fsys fs.FS, name string) bool {
	st, err := fs.Stat(fsys, name)
	return err == nil && st.Mode().IsRegular()
}

// ignoredName: the format has the judge behave as if files and directories
// whose names start with a period or a dash were not there.
func ignoredName(name string) bool {
	return strings.HasPrefix(name, ".") || strings.HasPrefix(name, "-")
}
