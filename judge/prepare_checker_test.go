package judge

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"

	"github.com/optjudge/optjudge/checkers"
	"github.com/optjudge/optjudge/verdict"
)

// preparingChecker accepts every output; it counts its Prepares and the
// checks made before the first.
type preparingChecker struct {
	prepares, early atomic.Int64
	err             error
}

func (c *preparingChecker) Prepare(context.Context) error {
	c.prepares.Add(1)
	return c.err
}

func (c *preparingChecker) Check(context.Context, checkers.Files) (checkers.Result, error) {
	if c.prepares.Load() == 0 {
		c.early.Add(1)
	}
	return checkers.Result{Verdict: verdict.AC}, nil
}

// TestCheckerPrepared: a checker with work to do before its first check
// (checkers.Preparer: a puzzle's tables) does it once, before the runs;
// when it fails, the grading is the judge's failure.
func TestCheckerPrepared(t *testing.T) {
	t.Parallel()
	p := sumProblem(t)
	j := newJudge(t)
	src := writeSource(t, "sum.py", "a, b = map(int, input().split())\nprint(a + b)\n")
	c := &preparingChecker{}
	o := ample()
	o.Checker = c
	r, err := j.Grade(context.Background(), p, Submission{Path: src}, BuildOptions{}, o)
	if err != nil || r.Verdict != verdict.AC {
		t.Fatalf("got %v, %v, want AC", r, err)
	}
	if n, early := c.prepares.Load(), c.early.Load(); n != 1 || early != 0 {
		t.Errorf("prepared %d times, %d checks before, want once before any", n, early)
	}
	broken := &preparingChecker{err: errors.New("no room for the tables")}
	o.Checker = broken
	if r, err := j.Grade(context.Background(), p, Submission{Path: src}, BuildOptions{}, o); err == nil {
		t.Errorf("a checker that cannot prepare: got %v, want an error", r.Verdict)
	}
	var _ checkers.Preparer = checkers.Puzzle{}
}
