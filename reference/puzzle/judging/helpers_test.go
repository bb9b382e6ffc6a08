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

// shipped returns the puzzle of the shipped problem name.
func shipped(tb testing.TB, name string) *Puzzle {
	tb.Helper()
	loadedMu.Lock()
	defer loadedMu.Unlock()
	if p, ok := loaded[name]; ok {
		return p
	}
	d, err := puzzle.Load(filepath.Join(problemsDir, name))
	if err != nil {
		tb.Fatal(err)
	}
	p, err := New(d, Options{})
	if err != nil {
		tb.Fatal(err)
	}
	loaded[name] = p
	return p
}

// checker is p's checker in mode ("" for the definition's).
func checker(tb testing.TB, p *Puzzle, mode puzzle.Mode) *Checker {
	tb.Helper()
	c, err := p.Checker(mode)
	if err != nil {
		tb.Fatal(err)
	}
	return c
}
