package checkers

import (
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

// shippedChecker is the checker of a shipped problem's puzzle.yaml, in the
// mode given ("" for the definition's).
func shippedChecker(tb testing.TB, name string, mode puzzle.Mode) Puzzle {
	tb.Helper()
	puzzlesMu.Lock()
	defer puzzlesMu.Unlock()
	p, ok := puzzles[name]
	if !ok {
		d, err := puzzle.Load(filepath.Join("..", "problems", name))
		if err != nil {
			tb.Fatal(err)
		}
		if p, err = judging.New(d, judging.Options{}); err != nil {
			tb.Fatal(err)
		}
		puzzles[name] = p
	}
	c, err := p.Checker(mode)
	if err != nil {
		tb.Fatal(err)
	}
	return Puzzle{C: c}
}
