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
// native problem has testdata/, loads as it is: see KattisSpec.
package problems

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/optjudge/optjudge/checkers"
	"github.com/optjudge/optjudge/judge/bytesize"
	"github.com/optjudge/optjudge/reference"
	"github.com/optjudge/optjudge/reference/puzzle/judging"
)

//go:embed rotation-game clocks eight-puzzle fifteen-puzzle pocket-cube pancakes lights-out
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
	// Dir is the problem directory on disk, as LoadDir was given it; ""
	// for a problem embedded in the judge (or loaded from another FS).
	Dir string
	// FS is the problem directory.
	FS fs.FS

	// Checker judges outputs. When the checker is a program of the
	// problem (CheckerProgram), it is a checkers.Unbuilt until the judge
	// builds the program with its language table (judge.Judge.Checker).
	Checker   checkers.Checker
	Reference *reference.Solver // nil when the problem names none
	Validator *reference.Solver // nil when the problem names none
	// Puzzle is the checker's puzzle when the checker is a defined
	// puzzle's: it draws the positions that explain a verdict. Nil else.
	Puzzle *judging.Puzzle

	// Layout says how the directory is laid out.
	Layout Layout
	// Kattis is the package's own problem.yaml, for LayoutKattis.
	Kattis *KattisSpec
	// CheckerProgram is the checker when it is a program of the problem:
	// checker.program, or a Kattis package's output validator.
	CheckerProgram *Program
	// InputValidators are the problem's validator programs (Kattis
	// protocol: the input on stdin, exit code 42 means valid).
	InputValidators []Program
	// TimeRules are the margins judge verify holds the time limit to.
	TimeRules TimeRules

	// Package is the Kattis package model: type, test groups, validators,
	// time-limit rules, warnings (see Package).
	Package

	hash      *contentHash    // Hash's, computed once; shared by copies of the Problem
	refPuzzle *judging.Puzzle // the reference's puzzle, for Tools
}

// Layout is how a problem directory is laid out.
type Layout int

const (
	// LayoutNative: problem.yaml as Spec documents it, tests in testdata/.
	LayoutNative Layout = iota
	// LayoutKattis: a Kattis/ICPC package, problem.yaml as KattisSpec
	// documents it, tests in data/ (in groups too).
	LayoutKattis
)

func (l Layout) String() string {
	if l == LayoutKattis {
		return "kattis"
	}
	return "native"
}

// Program is a program of the problem directory: a source file, or a
// directory holding one source file (and the headers or modules it uses).
// The judge builds it with its language table and runs it outside the
// sandbox: it is the problem setter's trusted code.
type Program struct {
	Path     string            // slash-separated, within the problem's FS
	Protocol checkers.Protocol // how a checker program is called; NoProtocol for validators
	Args     []string          // arguments after the protocol's
	Kind     ProgramKind       // how it is built and run (Kattis packages: build/run scripts, .ctd, .viva)
	// Files are the other files of a file program's folder that are no
	// program (a testlib.h beside a validator): copied beside it when it
	// is built, as part of the one program.
	Files []string
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
		spec   *Spec
		kattis *KattisSpec
		rules  = DefaultTimeRules
	)
	switch layout {
	case LayoutKattis:
		if kattis, err = ParseKattis(bytes.NewReader(data), specName); err != nil {
			return nil, err
		}
		if err := kattis.Validate(); err != nil {
			return nil, err
		}
		if spec, err = kattis.spec(fsys, name); err != nil {
			return nil, err
		}
		rules = kattis.rules()
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
		Origin:          origin,
		Dir:             dir,
		FS:              fsys,
		Checker:         chk,
		Layout:          layout,
		Kattis:          kattis,
		CheckerProgram:  prog,
		InputValidators: validators,
		TimeRules:       rules,
		hash:            &contentHash{},
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
	if err := p.loadPackage(); err != nil {
		return nil, err
	}
	return p, nil
}

// maxSpecFile bounds a problem.yaml.
const maxSpecFile = 1 << 20

// layoutOf tells a problem directory's layout: native with testdata/, a
// Kattis package with data/; with neither (a package whose data its
// generators make), a Kattis package unless problem.yaml has the native
// title key and no problem_format_version.
func layoutOf(fsys fs.FS, spec []byte) Layout {
	switch {
	case isDirFS(fsys, "testdata"):
		return LayoutNative
	case isDirFS(fsys, "data"), isFileFS(fsys, "generators/generators.yaml"):
		// a package whose data/ BAPCtools' generators.yaml makes may
		// not have it yet
		return LayoutKattis
	}
	var top map[string]any
	if yaml.Unmarshal(spec, &top) != nil {
		return LayoutNative // Parse says what is wrong with it
	}
	_, title := top["title"]
	_, version := top["problem_format_version"]
	if title && !version {
		return LayoutNative
	}
	return LayoutKattis
}

// checker makes the problem's checker: a puzzle's, a built-in one, or a
// stand-in for a program of the problem, which must exist.
func (s *Spec) checker(fsys fs.FS, ps *puzzles) (checkers.Checker, *Program, error) {
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
	prog := &Program{Path: c.Program, Protocol: proto, Args: c.Args}
	return checkers.Unbuilt{Path: c.Program}, prog, nil
}

func (s *Spec) inputValidators(fsys fs.FS) ([]Program, error) {
	var progs []Program
	for i, v := range s.InputValidators {
		if err := s.programExists(fsys, fmt.Sprintf("input_validators[%d]", i), v); err != nil {
			return nil, err
		}
		progs = append(progs, Program{Path: v})
	}
	return progs, nil
}

func (s *Spec) programExists(fsys fs.FS, field, p string) error {
	if _, err := fs.Stat(fsys, p); err != nil {
		return &SpecError{File: s.file, Line: s.lineOf(field), Field: field, Msg: fmt.Sprintf("%s: %v", p, unwrapPath(err))}
	}
	return nil
}

// kattisNameRE is the name every version of the Kattis format wants for a
// package's directory.
var kattisNameRE = regexp.MustCompile(`^[a-z0-9]+$`)

// checkName reports a package directory's name that the format
// disallows: as problemtools reports it, an error (a Defect), but for a
// name whose only fault is a '-' (lower-case letters, digits and dashes:
// the judge's own problems are named so, and BAPCtools and DOMjudge take
// them), a warning. The package loads and runs whatever its name.
func (p *Problem) checkName() {
	name := p.Name
	if kattisNameRE.MatchString(name) {
		return
	}
	if nameRE.MatchString(name) {
		p.Warnings = append(p.Warnings, Warning{File: p.file("problem.yaml"),
			Msg: fmt.Sprintf("the package directory's name %q has a '-': the format allows a-z and 0-9 only (problemtools: an error)", name)})
		return
	}
	p.Defects = append(p.Defects, Warning{File: p.file("problem.yaml"),
		Msg: fmt.Sprintf("the package directory's name %q is not one the format allows: lower-case letters a-z and digits 0-9 only", name)})
}

// LoadDir loads the problem in the directory dir. Its symbolic links are
// followed, but a link that leads out of dir (or nowhere) is an error
// naming it: the format allows links only within the package.
func LoadDir(dir string) (*Problem, error) {
	name := filepath.Clean(dir)
	if abs, err := filepath.Abs(name); err == nil {
		name = abs
	}
	if err := checkLinks(dir); err != nil {
		return nil, err
	}
	return load(os.DirFS(dir), dir, dir, filepath.Base(name))
}

// maxLinkWalk bounds the entries checkLinks looks at.
const maxLinkWalk = 1 << 20

// checkLinks refuses a symbolic link below dir whose target is outside
// dir or does not exist, passing over the names a package ignores.
func checkLinks(dir string) error {
	root, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return nil // load says what is wrong with dir
	}
	n := 0
	return filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == dir {
			return nil
		}
		if n++; n > maxLinkWalk {
			return fs.SkipAll
		}
		if ignoredName(d.Name()) {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if d.Type()&fs.ModeSymlink == 0 {
			return nil
		}
		target, err := filepath.EvalSymlinks(p)
		if err != nil {
			return fmt.Errorf("%s: a symbolic link to nothing (%v)", p, unwrapPath(err))
		}
		if rel, err := filepath.Rel(root, target); err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			link, _ := os.Readlink(p)
			return fmt.Errorf("%s: a symbolic link out of the package (to %s): the format allows links within it only", p, link)
		}
		return nil
	})
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

func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// Tests lists the problem's tests: testdata/sample, then testdata/secret, each
// sorted by name. In a Kattis package they are data/sample then data/secret,
// groups (subdirectories) included, in the lexicographic order of their
// paths.
func (p *Problem) Tests() ([]Test, error) {
	if p.Layout == LayoutKattis && p.Kattis != nil {
		return p.kattisTests()
	}
	var all []Test
	for _, g := range []string{"sample", "secret"} {
		list := listTests
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
func (p *Problem) TestDir(group string) string {
	if p.Layout == LayoutKattis {
		return path.Join("data", group)
	}
	return path.Join("testdata", group)
}

// listTestsDeep lists the tests of dir and of its subdirectories, named
// group/sub/base.
func listTestsDeep(fsys fs.FS, dir, group, origin string) ([]Test, error) {
	ts, err := listTests(fsys, dir, group, origin)
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
