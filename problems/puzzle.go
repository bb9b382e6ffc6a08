package problems

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/optjudge/optjudge/checkers"
	"github.com/optjudge/optjudge/reference"
	"github.com/optjudge/optjudge/reference/puzzle"
	"github.com/optjudge/optjudge/reference/puzzle/engine"
	"github.com/optjudge/optjudge/reference/puzzle/judging"
	"github.com/optjudge/optjudge/specfile"
)

// Own is the name, in checker.name, reference and validator, of the
// problem's own puzzle definition.
const Own = "puzzle"

// A puzzle problem is a package with its definition beside problem.yaml,
// in puzzle.yaml:
//
//	problem.yaml                 # as the format has it: nothing of the puzzle
//	puzzle.yaml                  # the definition, with its mode
//	data/sample/, data/secret/   # the tests
//
// The definition is the package's output validator (unless the package
// has one of its own), an input validator beside input_validators/, the
// reference solver that makes answers, and the generators and drawings.
//
// A problem of the legacy native layout names its definition in
// problem.yaml, or keeps it beside problem.yaml as puzzle.yaml:
//
//	name: slide-2x3
//	title: Sliding Six
//	puzzle: puzzle.yaml          # the default when puzzle.yaml is there
//	checker:
//	  name: puzzle               # the default with a puzzle
//	  options: {mode: shortest}  # replaces the definition's mode
//	reference: puzzle            # the default with a puzzle
//	validator: puzzle            # the default with a puzzle
//
// checker.name, reference and validator may there instead name a puzzle
// shipped with the judge (an embedded problem's definition: clocks, cube,
// eight-puzzle, fifteen-puzzle, hanoi, klotski, lights-out, pancakes,
// pocket-cube, pyraminx, rotation-game, rush-hour, skewb, water-jugs), as problem.yaml
// files written before definitions did.

// shippedPuzzles lists the embedded problems that hold a definition.
func shippedPuzzles() []string {
	var names []string
	for _, n := range Embedded() {
		if _, err := fs.Stat(embedded, path.Join(n, puzzle.FileName)); err == nil {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	return names
}

// isPuzzleName reports whether name, in checker.name, reference or
// validator, names a puzzle: the problem's own or a shipped one.
func isPuzzleName(name string) bool {
	if name == Own {
		return true
	}
	for _, n := range shippedPuzzles() {
		if n == name {
			return true
		}
	}
	return false
}

// puzzleNames says which puzzles a problem.yaml may name, for messages.
func puzzleNames() string {
	return fmt.Sprintf("%s, the problem's own definition, or one shipped with the judge: %s", Own, strings.Join(shippedPuzzles(), ", "))
}

// packagePuzzles reads a package's own definition, puzzle.yaml beside
// problem.yaml, if it has one.
func packagePuzzles(fsys fs.FS, origin string) (*puzzles, error) {
	ps := &puzzles{origin: origin}
	if !isFileFS(fsys, puzzle.FileName) {
		return ps, nil
	}
	var err error
	ps.own, err = readDefinition(fsys, puzzle.FileName, filepath.Join(origin, puzzle.FileName))
	return ps, err
}

// readDefinition reads and validates the definition file of fsys, called
// name in messages.
func readDefinition(fsys fs.FS, file, name string) (*puzzle.Definition, error) {
	d, err := puzzle.ParseFS(fsys, file, name)
	if err != nil {
		return nil, err
	}
	if err := d.Validate(); err != nil {
		return nil, err
	}
	return d, nil
}

// applyPuzzle makes a problem with a definition judge by it: the
// definition found beside problem.yaml where none is named, and the
// checker, reference and validator the definition's where problem.yaml
// names none.
func (s *nativeSpec) applyPuzzle(fsys fs.FS) {
	if s.Puzzle == "" {
		if st, err := fs.Stat(fsys, puzzle.FileName); err != nil || st.IsDir() {
			return
		}
		s.Puzzle = puzzle.FileName
	}
	if _, given := s.lines["checker"]; !given {
		s.Checker.Name = Own
	}
	if s.Reference == "" {
		s.Reference = Own
	}
	if s.Validator == "" {
		s.Validator = Own
	}
}

// puzzles resolves the puzzles a problem names: its own definition, read
// once, and the shipped ones. Each is readied for judging once: its
// checker, reference and validator are one judging.Puzzle.
type puzzles struct {
	origin string
	own    *puzzle.Definition
	ready  map[string]*judging.Puzzle // by name
}

// loadPuzzles reads the problem's own definition, if it has one; a bad
// one gives its errors, each at its file and line.
func (s *nativeSpec) loadPuzzles(fsys fs.FS, origin string) (*puzzles, error) {
	ps := &puzzles{origin: origin}
	if s.Puzzle == "" {
		for _, f := range []struct{ field, name string }{{"checker.name", s.Checker.Name}, {"reference", s.Reference}, {"validator", s.Validator}} {
			if f.name == Own && (f.field != "checker.name" || s.Checker.Program == "") {
				return nil, &specfile.Error{File: s.file, Line: s.lineOf(f.field), Field: f.field,
					Msg: fmt.Sprintf("%s names the problem's own definition, but it has none (give puzzle: FILE, or put a %s beside problem.yaml)", Own, puzzle.FileName)}
			}
		}
		return ps, nil
	}
	if _, err := fs.Stat(fsys, s.Puzzle); err != nil {
		return nil, &specfile.Error{File: s.file, Line: s.lineOf("puzzle"), Field: "puzzle", Msg: fmt.Sprintf("%s: %v", s.Puzzle, unwrapPath(err))}
	}
	if err := s.programExists(fsys, "puzzle", s.Puzzle); err != nil {
		return nil, err
	}
	var err error
	ps.own, err = readDefinition(fsys, s.Puzzle, filepath.Join(origin, filepath.FromSlash(s.Puzzle)))
	return ps, err
}

// get returns the puzzle called name (Own or a shipped one), readied for
// judging on its first use.
func (ps *puzzles) get(name string) (*judging.Puzzle, error) {
	if p, ok := ps.ready[name]; ok {
		return p, nil
	}
	d := ps.own
	if name != Own {
		var err error
		if d, err = shippedDefinition(name); err != nil {
			return nil, err
		}
	}
	p, err := judging.New(d, judging.Options{CacheDir: cacheDir()})
	if err != nil {
		return nil, err
	}
	if ps.ready == nil {
		ps.ready = map[string]*judging.Puzzle{}
	}
	ps.ready[name] = p
	return p, nil
}

// reference returns the puzzle whose reference solver, or input
// validator, a problem.yaml names; nil when it names none.
func (ps *puzzles) reference(name string) (*judging.Puzzle, *reference.Solver, error) {
	if name == "" {
		return nil, nil, nil
	}
	p, err := ps.get(name)
	if err != nil {
		return nil, nil, err // the definition's, at its file and line
	}
	return p, p.Reference(), nil
}

// checker returns the checker of a puzzle called name.
func (ps *puzzles) checker(name string, opts checkers.Options) (checkers.Puzzle, error) {
	mode, err := checkers.PuzzleMode(opts)
	if err != nil {
		return checkers.Puzzle{}, err
	}
	p, err := ps.get(name)
	if err != nil {
		return checkers.Puzzle{}, err
	}
	c, err := p.Checker(mode)
	if err != nil {
		return checkers.Puzzle{}, err
	}
	return checkers.Puzzle{C: c}, nil
}

var (
	shippedMu   sync.Mutex
	shippedDefs = map[string]*puzzle.Definition{}
)

// shippedDefinition reads the definition of the embedded problem name.
func shippedDefinition(name string) (*puzzle.Definition, error) {
	shippedMu.Lock()
	defer shippedMu.Unlock()
	if d, ok := shippedDefs[name]; ok {
		return d, nil
	}
	file := path.Join(name, puzzle.FileName)
	if _, err := fs.Stat(embedded, file); err != nil {
		return nil, fmt.Errorf("no shipped puzzle %q (shipped: %s)", name, strings.Join(shippedPuzzles(), ", "))
	}
	d, err := readDefinition(embedded, file, "embedded:"+file)
	if err != nil {
		return nil, err
	}
	shippedDefs[name] = d
	return d, nil
}

// cacheDir is where the engine keeps puzzles' tables between runs: the
// user's cache directory, or memory only where there is none.
func cacheDir() string {
	dir, err := engine.DefaultCacheDir()
	if err != nil {
		return ""
	}
	return dir
}

// Tools are the generators and operations on cases of the problem's
// reference, for judge gen and judge stress; an error when the problem has
// no reference or it is not a puzzle's.
func (p *Problem) Tools() (*reference.Tools, error) {
	if p.Reference == nil || p.refPuzzle == nil {
		return nil, errors.New(p.Package.Origin + ": the problem names no reference solver to generate with")
	}
	return p.refPuzzle.Tools(), nil
}
