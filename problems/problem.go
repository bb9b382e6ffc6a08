// Package problems loads problem directories and holds the problems that ship
// embedded in the judge.
//
// A problem directory holds:
//
//	problem.yaml           the spec (see Spec)
//	puzzle.yaml            a puzzle's definition, for a puzzle problem (see puzzle.go)
//	statement.md           the statement
//	testdata/sample/*.in   sample inputs, each with its .ans beside it
//	testdata/secret/*.in   secret inputs, each with its .ans beside it
//	solution/              the reference in contestant form
//	submissions/<verdict>/ contestant programs with their expected verdict
//
// A Kattis/ICPC problem package, recognised by its data/ directory where a
// native problem has testdata/, loads as it is: see package kattis.
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
	"slices"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/optjudge/optjudge/checkers"
	"github.com/optjudge/optjudge/judge/bytesize"
	"github.com/optjudge/optjudge/problems/kattis"
	"github.com/optjudge/optjudge/problems/specfile"
	"github.com/optjudge/optjudge/reference"
	"github.com/optjudge/optjudge/reference/puzzle/judging"
)

//go:embed rotation-game clocks eight-puzzle fifteen-puzzle pocket-cube pancakes lights-out hanoi water-jugs rush-hour klotski
var embedded embed.FS

// Problem is a loaded, validated problem: the native Spec the judge
// runs it by, with the package model of its directory (Package) beside it.
type Problem struct {
	Spec    *Spec
	Name    string
	Title   string
	Sources []string
	Limits  Limits

	// Dir is the problem directory on disk, as LoadDir was given it; ""
	// for a problem embedded in the judge (or loaded from another FS).
	// The directory itself, and where it came from, are Package.FS and
	// Package.Origin.
	Dir string

	Reference *reference.Solver // nil when the problem names none
	Validator *reference.Solver // nil when the problem names none
	// Puzzle is the checker's puzzle when the checker is a defined
	// puzzle's: it draws the positions that explain a verdict. Nil else.
	Puzzle *judging.Puzzle

	// TimeRules are the margins judge verify holds the time limit to.
	TimeRules TimeRules

	// Package is the problem's package model: its layout and directory,
	// type, test groups, checker and validators, time-limit rules and
	// warnings. A Kattis package's is read from the package; a native
	// problem's is made from its Spec and testdata/ (see nativePackage).
	Package kattis.Package

	hash      *contentHash    // Hash's, computed once; shared by copies of the Problem
	refPuzzle *judging.Puzzle // the reference's puzzle, for Tools
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
	return load(fsys, origin, "", filepath.Base(name))
}

// load loads the problem at the root of fsys, on disk in dir ("" for
// none), whose directory is called name.
func load(fsys fs.FS, origin, dir, name string) (*Problem, error) {
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
	layout := layoutOf(fsys, data)
	var (
		spec *Spec
		ks   *kattis.Spec
	)
	switch layout {
	case kattis.LayoutKattis:
		if ks, err = kattis.Parse(bytes.NewReader(data), specName); err != nil {
			return nil, err
		}
		if err := ks.Validate(); err != nil {
			return nil, err
		}
		if spec, err = kattisSpec(ks, fsys, name); err != nil {
			return nil, err
		}
	default:
		if spec, err = Parse(bytes.NewReader(data), specName); err != nil {
			return nil, err
		}
		spec.applyPuzzle(fsys)
	}
	if err := spec.Validate(); err != nil {
		return nil, err
	}
	ps, err := spec.loadPuzzles(fsys, origin)
	if err != nil {
		return nil, err
	}
	chk, prog, err := spec.checker(fsys, ps)
	if err != nil {
		return nil, err
	}
	validators, err := spec.inputValidators(fsys)
	if err != nil {
		return nil, err
	}
	if it := spec.Interactor; it != nil {
		if err := spec.programExists(fsys, "interactor.program", it.Program); err != nil {
			return nil, err
		}
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
		Dir:       dir,
		TimeRules: DefaultTimeRules,
		Package: kattis.Package{
			Layout:          layout,
			FS:              fsys,
			Origin:          origin,
			Spec:            ks,
			Checker:         chk,
			CheckerProgram:  prog,
			InputValidators: validators,
		},
		hash: &contentHash{},
	}
	if pc, ok := chk.(checkers.Puzzle); ok {
		p.Puzzle = pc.P
	}
	if p.refPuzzle, p.Reference, err = ps.reference(spec.Reference); err != nil {
		return nil, err
	}
	if _, p.Validator, err = ps.reference(spec.Validator); err != nil {
		return nil, err
	}
	if layout != kattis.LayoutKattis {
		if err := p.nativePackage(); err != nil {
			return nil, err
		}
		return p, nil
	}
	if err := p.Package.Load(name); err != nil {
		return nil, err
	}
	m := p.Package.Time.Multipliers
	p.TimeRules = TimeRules{AC: m.ACToTimeLimit, TLE: m.TimeLimitToTLE}
	if v := p.Package.Validation; v.Default {
		p.Spec.Checker = CheckerSpec{Name: "default", Options: v.DefaultOptions}
	}
	return p, nil
}

// maxSpecFile bounds a problem.yaml.
const maxSpecFile = 1 << 20

// layoutOf tells a problem directory's layout: native with testdata/, a
// Kattis package with data/; with neither (a package whose data its
// generators make), a Kattis package unless problem.yaml has the native
// title key and no problem_format_version.
func layoutOf(fsys fs.FS, spec []byte) kattis.Layout {
	switch {
	case isDirFS(fsys, "testdata"):
		return kattis.LayoutNative
	case isDirFS(fsys, "data"), isFileFS(fsys, "generators/generators.yaml"):
		// a package whose data/ BAPCtools' generators.yaml makes may
		// not have it yet
		return kattis.LayoutKattis
	}
	var top map[string]any
	if yaml.Unmarshal(spec, &top) != nil {
		return kattis.LayoutNative // Parse says what is wrong with it
	}
	_, title := top["title"]
	_, version := top["problem_format_version"]
	if title && !version {
		return kattis.LayoutNative
	}
	return kattis.LayoutKattis
}

// checker makes the problem's checker: a puzzle's, a built-in one, or a
// stand-in for a program of the problem, which must exist.
func (s *Spec) checker(fsys fs.FS, ps *puzzles) (checkers.Checker, *kattis.Program, error) {
	c := s.Checker
	if c.Program == "" && isPuzzleName(c.Name) {
		chk, err := ps.checker(c.Name, c.Options)
		if err != nil {
			return nil, nil, err // the definition's, at its file and line
		}
		return chk, nil, nil
	}
	if c.Program == "" {
		chk, err := checkers.New(c.Name, c.Options)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", s.file, err)
		}
		return chk, nil, nil
	}
	if err := s.programExists(fsys, "checker.program", c.Program); err != nil {
		return nil, nil, err
	}
	proto := checkers.Testlib
	if c.Protocol != "" {
		proto, _ = checkers.ParseProtocol(c.Protocol) // Validate checked it
	}
	prog := &kattis.Program{Path: c.Program, Protocol: proto, Args: c.Args}
	return checkers.Unbuilt{Path: c.Program}, prog, nil
}

func (s *Spec) inputValidators(fsys fs.FS) ([]kattis.Program, error) {
	var progs []kattis.Program
	for i, v := range s.InputValidators {
		if err := s.programExists(fsys, fmt.Sprintf("input_validators[%d]", i), v); err != nil {
			return nil, err
		}
		progs = append(progs, kattis.Program{Path: v})
	}
	return progs, nil
}

func (s *Spec) programExists(fsys fs.FS, field, p string) error {
	if _, err := fs.Stat(fsys, p); err != nil {
		return &specfile.Error{File: s.file, Line: s.lineOf(field), Field: field, Msg: fmt.Sprintf("%s: %v", p, unwrapPath(err))}
	}
	return nil
}

// LoadDir loads the problem in the directory dir. Its symbolic links are
// followed, but a link that leads out of dir (or nowhere, or to a
// directory that holds it) is an error naming it: the format allows links
// only within the package. So is a file that is not a regular file (a
// named pipe, a device), and a tree of more than maxTreeEntries entries.
func LoadDir(dir string) (*Problem, error) {
	name := filepath.Clean(dir)
	if abs, err := filepath.Abs(name); err == nil {
		name = abs
	}
	if err := CheckDir(dir); err != nil {
		return nil, err
	}
	return load(os.DirFS(dir), dir, dir, filepath.Base(name))
}

// CheckDir refuses what LoadDir refuses in the tree of dir before loading
// it (see checkTree): for a caller that loads dir through a file system of
// its own.
func CheckDir(dir string) error { return checkTree(dir, maxTreeEntries) }

// maxTreeEntries bounds a package's files and directories, counted as the
// loaders walk them, through its links: links within the package may
// share a directory, so a few dozen links can make a tree of 2^30
// entries (and the loaders walk every one).
const maxTreeEntries = 1 << 20

// checkTree refuses, below dir, what the loaders must not meet as they
// walk the package (following its links): a symbolic link whose target is
// outside dir or does not exist; a link to a directory the link is in,
// whose tree never ends; a file that is not a regular file, whose reading
// blocks (a named pipe) or never ends (/dev/zero, were it in the package);
// and more than max entries. It passes over the names a package ignores,
// but for timeLimitFile.
func checkTree(dir string, max int) error {
	root, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return nil // load says what is wrong with dir
	}
	w := treeWalk{dir: dir, root: root, max: max}
	return w.walk(dir, root, nil)
}

// timeLimitFile is the one file with an ignored name that the loaders
// read: the legacy time limit, in the package's root.
const timeLimitFile = ".timelimit"

type treeWalk struct {
	dir, root string // as given, and as the links' targets name it
	entries   int
	max       int
}

// walk checks the directory p, at real (its path with no links);
// holders are the real paths of the directories it is in.
func (w *treeWalk) walk(p, real string, holders []string) error {
	entries, err := os.ReadDir(real) // not p: its links would be resolved again, all of them
	if err != nil {
		return nil // the loaders say what is wrong with it, if they read it
	}
	holders = append(holders, real)
	for _, e := range entries {
		if ignoredName(e.Name()) && !(p == w.dir && e.Name() == timeLimitFile) {
			continue
		}
		if w.entries++; w.entries > w.max {
			return fmt.Errorf("%s: more than %d files and directories (its links followed)", w.dir, w.max)
		}
		q, target, mode := filepath.Join(p, e.Name()), filepath.Join(real, e.Name()), e.Type()
		if mode&fs.ModeSymlink != 0 {
			if target, err = w.link(q, target); err != nil {
				return err
			}
			st, err := os.Stat(target)
			if err != nil {
				return fmt.Errorf("%s: %v", q, unwrapPath(err))
			}
			mode = st.Mode().Type()
			if mode.IsDir() && slices.Contains(holders, target) {
				link, _ := os.Readlink(q)
				return fmt.Errorf("%s: a symbolic link to a directory that holds it (to %s): its tree would never end", q, link)
			}
		}
		switch {
		case mode.IsDir():
			if err := w.walk(q, target, holders); err != nil {
				return err
			}
		case !mode.IsRegular():
			return fmt.Errorf("%s: %s, not a file: a package holds files, directories and links to them", q, modeName(mode))
		}
	}
	return nil
}

// link is the target of the link q, at real, with no links in it, which
// must be within the package.
func (w *treeWalk) link(q, real string) (string, error) {
	target, err := filepath.EvalSymlinks(real)
	if err != nil {
		return "", fmt.Errorf("%s: a symbolic link to nothing (%v)", q, unwrapPath(err))
	}
	if rel, err := filepath.Rel(w.root, target); err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		link, _ := os.Readlink(q)
		return "", fmt.Errorf("%s: a symbolic link out of the package (to %s): the format allows links within it only", q, link)
	}
	return target, nil
}

// modeName names a kind of file that is neither a regular file nor a
// directory.
func modeName(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return "a special file"
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
	return load(sub, "embedded:"+name, "", name)
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
