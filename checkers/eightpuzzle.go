package checkers

import (
	"bytes"
	"context"
	"fmt"

	"github.com/optjudge/optjudge/reference/eightpuzzle"
)

func init() {
	register("eight-puzzle",
		"eight-puzzle (POJ 1077): moves u d l r of the blank to 1 2 3 / 4 5 6 / 7 8 x, or unsolvable; "+
			"option mode: any (default), shortest or smallest",
		func(opts Options) (Checker, error) { return NewEightPuzzle(opts) })
}

// EightPuzzleMode says which solutions the eight-puzzle checker accepts.
type EightPuzzleMode int

const (
	// EightPuzzleAny accepts any sequence that reaches the goal, as the
	// original judges do.
	EightPuzzleAny EightPuzzleMode = iota
	// EightPuzzleShortest accepts only sequences of the optimal length.
	EightPuzzleShortest
	// EightPuzzleSmallest accepts only the lexicographically smallest of
	// the shortest sequences (d < l < r < u).
	EightPuzzleSmallest
)

var eightPuzzleModes = map[string]EightPuzzleMode{
	"any":      EightPuzzleAny,
	"shortest": EightPuzzleShortest,
	"smallest": EightPuzzleSmallest,
}

func (m EightPuzzleMode) String() string {
	for name, mm := range eightPuzzleModes {
		if mm == m {
			return name
		}
	}
	return fmt.Sprintf("EightPuzzleMode(%d)", int(m))
}

// EightPuzzle checks the output of the eight-puzzle: one line per input
// board, in order, holding either the moves of the blank (u, d, l, r) that
// take the board to 1 2 3 / 4 5 6 / 7 8 x, or the word unsolvable, exactly
// when the board cannot be solved. It recomputes everything from the input
// and ignores the answer file.
//
// Lines may carry leading spaces or tabs and trailing spaces, tabs or a
// carriage return; blank lines after the last case are ignored, and so is a
// missing last line when that case's board is already solved.
type EightPuzzle struct {
	Mode EightPuzzleMode

	// distance and smallest stand in for the reference in tests.
	distance func(eightpuzzle.Board) int
	smallest func(eightpuzzle.Board) (string, bool)
}

// NewEightPuzzle returns the checker for the options of problem.yaml: only
// mode, one of any (the default), shortest and smallest.
func NewEightPuzzle(opts Options) (*EightPuzzle, error) {
	c := &EightPuzzle{Mode: EightPuzzleAny}
	for k, v := range opts {
		if k != "mode" {
			return nil, &OptionError{Key: k, Msg: "unknown option (this checker takes only mode)"}
		}
		m, ok := eightPuzzleModes[v]
		if !ok {
			return nil, &OptionError{Key: k, Msg: fmt.Sprintf("%q is not a mode (any, shortest, smallest)", v)}
		}
		c.Mode = m
	}
	return c, nil
}

// epTally counts what an accepted output did.
type epTally struct{ moves, unsolvable int }

// Check judges f.Output against the boards of f.Input.
func (c *EightPuzzle) Check(ctx context.Context, f Files) (Result, error) {
	boards, err := eightpuzzle.ParseInput(f.Input)
	if err != nil {
		return Result{}, fmt.Errorf("eight-puzzle: reading the input: %w", err)
	}
	lines := epOutputLines(f.Output)
	var tally epTally
	for i, b := range boards {
		if i%4096 == 0 && ctx.Err() != nil {
			return Result{}, fmt.Errorf("eight-puzzle: %w", ctx.Err())
		}
		if i >= len(lines) {
			if b.Solved() {
				continue // an absent trailing line is an empty one
			}
			return wrong("missing case %d of %d", i+1, len(boards)), nil
		}
		msg, err := c.checkCase(i+1, b, lines[i], &tally)
		if err != nil {
			return Result{}, err
		}
		if msg != "" {
			return wrong("%s", msg), nil
		}
	}
	if len(lines) > len(boards) {
		return wrong("unexpected output after the last case"), nil
	}
	return accepted(tally.summary(len(boards))), nil
}

func (t epTally) summary(cases int) string {
	s := fmt.Sprintf("%d cases, %s", cases, epMoves(t.moves))
	if cases == 1 {
		s = "1 case, " + epMoves(t.moves)
	}
	if t.unsolvable > 0 {
		s += fmt.Sprintf(", %d unsolvable", t.unsolvable)
	}
	return s
}

// epOutputLines splits an output into lines without their ends, leading
// spaces and tabs, or trailing spaces, tabs and carriage returns, and drops
// the blank lines at the end.
func epOutputLines(out []byte) [][]byte {
	lines := bytes.Split(out, []byte{'\n'})
	for i, l := range lines {
		lines[i] = bytes.TrimRight(bytes.TrimLeft(l, " \t"), " \t\r")
	}
	for len(lines) > 0 && len(lines[len(lines)-1]) == 0 {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// checkCase judges one line against board b of case k; a non-empty message
// is a wrong answer, an error means the reference failed.
func (c *EightPuzzle) checkCase(k int, b eightpuzzle.Board, line []byte, t *epTally) (string, error) {
	if bytes.EqualFold(line, []byte(eightpuzzle.Unsolvable)) || !b.Solvable() {
		return c.checkUnsolvable(k, b, line, t), nil
	}
	end, msg := epPlayMoves(k, b, line)
	if msg != "" {
		return msg, nil
	}
	if !end.Solved() {
		if len(line) == 0 {
			return fmt.Sprintf("case %d: empty line, but the board %v is not solved", k, b), nil
		}
		return fmt.Sprintf("case %d: after %s the board is %v", k, epMoves(len(line)), end), nil
	}
	t.moves += len(line)
	return c.checkOptimal(k, b, string(line))
}

// checkUnsolvable judges a line that says unsolvable (in any letter case)
// or a line for a board that cannot be solved.
func (c *EightPuzzle) checkUnsolvable(k int, b eightpuzzle.Board, line []byte, t *epTally) string {
	switch {
	case b.Solvable():
		return fmt.Sprintf("case %d: says unsolvable, but the board %v can be solved in %d moves",
			k, b, c.dist(b))
	case string(line) == eightpuzzle.Unsolvable:
		t.unsolvable++
		return ""
	case bytes.EqualFold(line, []byte(eightpuzzle.Unsolvable)):
		return fmt.Sprintf("case %d: %s is not %q (lower case)", k, eightpuzzle.Quote(line), eightpuzzle.Unsolvable)
	}
	return fmt.Sprintf("case %d: the board %v cannot be solved (its tiles 1-8 are an odd permutation), "+
		"want %q, got %s", k, b, eightpuzzle.Unsolvable, eightpuzzle.Quote(line))
}

// epPlayMoves makes the moves of line on b; the message says what was wrong.
func epPlayMoves(k int, b eightpuzzle.Board, line []byte) (eightpuzzle.Board, string) {
	for j, ch := range line {
		m := eightpuzzle.Move(ch)
		switch m {
		case eightpuzzle.Up, eightpuzzle.Down, eightpuzzle.Left, eightpuzzle.Right:
		default:
			return b, fmt.Sprintf("case %d, move %d: %s is not a move (u, d, l, r)", k, j+1, epQuoteByte(ch))
		}
		next, ok := b.Apply(m)
		if !ok {
			p := b.Blank()
			return b, fmt.Sprintf("case %d, move %d: %c moves the blank off the board (blank at row %d, column %d)",
				k, j+1, ch, p/3+1, p%3+1)
		}
		b = next
	}
	return b, ""
}

// checkOptimal compares a path that solves b with the optimum, as the mode
// asks. A path shorter than the optimum means the reference is wrong.
func (c *EightPuzzle) checkOptimal(k int, b eightpuzzle.Board, path string) (string, error) {
	opt := c.dist(b)
	switch {
	case len(path) < opt:
		return "", fmt.Errorf("eight-puzzle: case %d: the output solves %v in %d moves, but the reference's optimum is %d",
			k, b, len(path), opt)
	case c.Mode == EightPuzzleAny:
		return "", nil
	case len(path) > opt:
		return fmt.Sprintf("case %d: %s, the optimum is %d", k, epMoves(len(path)), opt), nil
	case c.Mode == EightPuzzleShortest:
		return "", nil
	}
	best, ok := c.small(b)
	if !ok || len(best) != len(path) {
		return "", fmt.Errorf("eight-puzzle: case %d: the reference's smallest path %q for %v does not have the optimal length %d",
			k, best, b, opt)
	}
	if path == best {
		return "", nil
	}
	j := 0
	for path[j] == best[j] {
		j++
	}
	return fmt.Sprintf("case %d: shortest, but not the smallest: yours %s, smallest %s (first difference at move %d)",
		k, path, best, j+1), nil
}

func (c *EightPuzzle) dist(b eightpuzzle.Board) int {
	if c.distance != nil {
		return c.distance(b)
	}
	return eightpuzzle.Distance(b)
}

func (c *EightPuzzle) small(b eightpuzzle.Board) (string, bool) {
	if c.smallest != nil {
		return c.smallest(b)
	}
	return eightpuzzle.Smallest(b)
}

// epMoves says "1 move" or "n moves".
func epMoves(n int) string {
	if n == 1 {
		return "1 move"
	}
	return fmt.Sprintf("%d moves", n)
}

// epQuoteByte shows one byte of an output in single quotes: 'Q', '\x00'.
func epQuoteByte(ch byte) string {
	if ch < 0x80 {
		return fmt.Sprintf("%q", rune(ch))
	}
	return fmt.Sprintf(`'\x%02x'`, ch)
}
