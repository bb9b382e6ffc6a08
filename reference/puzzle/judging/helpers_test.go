package judging

import (
	"path/filepath"
	"sync"
	"testing"

	"github.com/optjudge/optjudge/reference/puzzle"
)

// problemsDir holds the shipped problems, each with its puzzle.yaml.
var problemsDir = filepath.Join("..", "..", "..", "problems")

var (
	loadedMu sync.Mutex
	loaded   = map[string]*Puzzle{}
)

// shipped returns the puzzle of the shipped problem name, in the mode
// given ("" for the definition's).
func shipped(tb testing.TB, name string, mode puzzle.Mode) *Puzzle {
	tb.Helper()
	loadedMu.Lock()
	defer loadedMu.Unlock()
	key := name + "/" + string(mode)
	if p, ok := loaded[key]; ok {
		return p
	}
	d, err := puzzle.Load(filepath.Join(problemsDir, name))
	if err != nil {
		tb.Fatal(err)
	}
	p, err := New(d, Options{Mode: mode})
	if err != nil {
		tb.Fatal(err)
	}
	loaded[key] = p
	return p
}
