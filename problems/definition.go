package problems

import (
	"os"
	"path/filepath"

	"github.com/optjudge/optjudge/checkers"
	"github.com/optjudge/optjudge/reference"
	"github.com/optjudge/optjudge/reference/puzzle"
	"github.com/optjudge/optjudge/reference/puzzle/judging"
)

// Definition is a puzzle definition on its own, outside a problem: its
// checker (in the definition's mode), its input validator and its
// reference. It is what a validator that judge export ships judges with.
type Definition struct {
	Checker   checkers.Checker
	Validator *reference.Solver
	Reference *reference.Solver
}

// LoadDefinition reads the definition file (a puzzle.yaml) and readies it
// for judging, its tables kept in cacheDir ("" for the judge's own cache
// directory, where it can write there, else the system's temporary one).
func LoadDefinition(file, cacheDir string) (*Definition, error) {
	d, err := puzzle.ParseFS(os.DirFS(filepath.Dir(file)), filepath.Base(file), file)
	if err != nil {
		return nil, err
	}
	if err := d.Validate(); err != nil {
		return nil, err
	}
	if cacheDir == "" {
		cacheDir = writableCacheDir()
	}
	p, err := judging.New(d, judging.Options{CacheDir: cacheDir})
	if err != nil {
		return nil, err
	}
	c, err := p.Checker("")
	if err != nil {
		return nil, err
	}
	ref := p.Reference()
	return &Definition{Checker: checkers.Puzzle{C: c}, Validator: ref, Reference: ref}, nil
}

// writableCacheDir is the judge's cache directory for tables if it can
// write there (a judging host's validator may run as a user without a
// home), else one in the system's temporary directory.
func writableCacheDir() string {
	if dir := cacheDir(); dir != "" && os.MkdirAll(dir, 0o755) == nil {
		if f, err := os.CreateTemp(dir, ".probe-*"); err == nil {
			f.Close()
			os.Remove(f.Name())
			return dir
		}
	}
	return filepath.Join(os.TempDir(), "optjudge-puzzles")
}
