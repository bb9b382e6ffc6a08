package explain

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/optjudge/optjudge/reference/puzzle"
	"github.com/optjudge/optjudge/reference/puzzle/judging"
)

var (
	puzzlesMu sync.Mutex
	puzzles   = map[string]*judging.Puzzle{}
)

// checkerModes are the checker modes of the shipped problems that replace
// their definition's.
var checkerModes = map[string]puzzle.Mode{"eight-puzzle": puzzle.ModeAny}

// byName is the puzzle of the shipped problem name (its puzzle.yaml); nil
// for a name that is no puzzle.
func byName(tb testing.TB, name string) *judging.Puzzle {
	tb.Helper()
	puzzlesMu.Lock()
	defer puzzlesMu.Unlock()
	if p, ok := puzzles[name]; ok {
		return p
	}
	dir := filepath.Join("..", "..", "problems", name)
	if _, err := os.Stat(filepath.Join(dir, puzzle.FileName)); err != nil {
		return nil
	}
	d, err := puzzle.Load(dir)
	if err != nil {
		tb.Fatal(err)
	}
	p, err := judging.New(d, judging.Options{})
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

// checkerOf is p's checker in the mode of its shipped problem's checker;
// nil for a nil p.
func checkerOf(tb testing.TB, p *judging.Puzzle) *judging.Checker {
	tb.Helper()
	if p == nil {
		return nil
	}
	c, err := p.Checker(checkerModes[p.Name()])
	if err != nil {
		tb.Fatal(err)
	}
	return c
}

// findingOf is the finding of p's checker on output for input, as the
// engine hands it to Explain: nil where msg is "" (a case found by
// replay), where the checker accepts the output and where it cannot read
// the input. A rejection's message must start with msg.
func findingOf(tb testing.TB, p *judging.Puzzle, input, output, msg string) *judging.Finding {
	tb.Helper()
	if msg == "" || p == nil {
		return nil
	}
	r, err := checkerOf(tb, p).Check(context.Background(), []byte(input), []byte(output))
	if err != nil || r.Accepted {
		return nil
	}
	if !strings.HasPrefix(r.Message, msg) {
		tb.Fatalf("the checker says %q, want %q...", r.Message, msg)
	}
	return r.Finding
}
