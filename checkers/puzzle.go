package checkers

import (
	"context"
	"fmt"

	"github.com/optjudge/optjudge/reference/puzzle"
	"github.com/optjudge/optjudge/reference/puzzle/judging"
	"github.com/optjudge/optjudge/verdict"
)

// Puzzle judges a defined puzzle's output (see package judging): per case
// the moves, replayed on the input's position, must reach the goal and,
// as the puzzle's mode asks, be of the least cost and the smallest of
// those; the final state's values must be right. A rejected answer that
// reaches the goal the long way is told where it left the optimum. The
// optimum is the engine's; the answer file is ignored.
type Puzzle struct {
	C *judging.Checker
}

// Check judges one test file. An invalid input, or a valid answer that
// beats the reference, is an error.
func (c Puzzle) Check(ctx context.Context, f Files) (Result, error) {
	r, err := c.C.Check(ctx, f.Input, f.Output)
	if err != nil {
		return Result{}, err
	}
	if r.Accepted {
		return accepted(r.Message), nil
	}
	return Result{Verdict: verdict.WA, Message: r.Message, Finding: r.Finding}, nil
}

// Prepare builds the engine's tables, or reads them from the cache, at
// every size of the puzzle (checkers.Preparer).
func (c Puzzle) Prepare(ctx context.Context) error { return c.C.Prepare(ctx) }

// PuzzleMode reads the options of a puzzle's checker in problem.yaml: only
// mode, one of any, shortest and smallest, which replaces the
// definition's; "" when not given.
func PuzzleMode(opts Options) (puzzle.Mode, error) {
	var mode puzzle.Mode
	for k, v := range opts {
		if k != "mode" {
			return "", &OptionError{Key: k, Msg: "unknown option (a puzzle's checker takes only mode)"}
		}
		switch m := puzzle.Mode(v); m {
		case puzzle.ModeAny, puzzle.ModeShortest, puzzle.ModeSmallest:
			mode = m
		default:
			return "", &OptionError{Key: k, Msg: fmt.Sprintf("%q is not a mode (any, shortest, smallest)", v)}
		}
	}
	return mode, nil
}
