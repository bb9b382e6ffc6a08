package explain

import (
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/optjudge/optjudge/reference/puzzle"
	"github.com/optjudge/optjudge/reference/puzzle/judging"
)

var (
	puzzlesMu sync.Mutex
	puzzles   = map[string]*judging.Puzzle{}
)

// byName is the puzzle of the shipped problem name (its puzzle.yaml, in
// the problem's checker mode); nil for a name that is no puzzle.
func byName(tb testing.TB, name string) *judging.Puzzle {
	tb.Helper()
	puzzlesMu.Lock()
	defer puzzlesMu.Unlock()
	if p, ok := puzzles[name]; ok {
		return p
	}
	modes := map[string]puzzle.Mode{"rotation-game": "", "clocks": "", "eight-puzzle": puzzle.ModeAny}
	mode, ok := modes[name]
	var d *puzzle.Definition
	var err error
	switch {
	case ok:
		d, err = puzzle.Load(filepath.Join("..", "..", "problems", name))
	default:
		// the definitions of issue 20's puzzles
		path := filepath.Join("..", "..", "reference", "puzzle", "testdata", name+".yaml")
		f, ferr := os.Open(path)
		if ferr != nil {
			return nil
		}
		defer f.Close()
		if d, err = puzzle.Parse(f, path); err == nil {
			err = d.Validate()
		}
	}
	if err != nil {
		tb.Fatal(err)
	}
	p, err := judging.New(d, judging.Options{Mode: mode})
	if err != nil {
		tb.Fatal(err)
	}
	puzzles[name] = p
	return p
}

// firstCase is the position of the first case of input.
func firstCase(tb testing.TB, name, input string) Position {
	tb.Helper()
	p := byName(tb, name)
	cases, err := p.Cases([]byte(input))
	if err != nil {
		tb.Fatal(err)
	}
	return positionOf(p, cases[0].Position)
}
