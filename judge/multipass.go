package judge

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/optjudge/optjudge/checkers"
	"github.com/optjudge/optjudge/judge/sandbox"
	"github.com/optjudge/optjudge/problems/kattis"
	"github.com/optjudge/optjudge/verdict"
)

// nextPass is the file in which a multi-pass problem's output validator
// writes the next pass's input.
const nextPass = "nextpass.in"

// multiPass runs test t of a multi-pass problem as the 2025-09 format has
// it (and problemtools' judge/execute.py, BAPCtools' run.py): the
// submission runs on the test's input, in a fresh working directory,
// under the test's limits; the output validator checks its output (or
// talks with it, in an interactive problem) with the pass's input as its
// input file, in a feedback directory that lasts from pass to pass. A
// validator that accepts and writes nextpass.in there asks for another
// pass, on that input (the file is taken away first). The test ends at
// the first pass that is not accepted, or that asks for no other; a
// nextpass.in beside a validator's rejection is a judge error, and so is
// asking for more passes than limits.validation_passes. A submission
// that fails in a pass (TLE, RE...) ends the test with that verdict. The
// test's measurements are its slowest pass's; tr.Passes lists each.
func (g *grader) multiPass(ctx context.Context, tr *TestResult, t kattis.Test, input, answer []byte, w *workDir) error {
	tmp, err := os.MkdirTemp(g.j.tmp, "passes-")
	if err != nil {
		return fmt.Errorf("creating the validator's directory: %w", err)
	}
	defer removeAll(tmp)
	if err := os.Chmod(tmp, 0o711); err != nil { // the validator's box uid passes it at level none
		return fmt.Errorf("creating the validator's directory: %w", err)
	}
	fb := filepath.Join(tmp, "feedback")
	if err := os.Mkdir(fb, 0o755); err != nil {
		return fmt.Errorf("creating the validator's directory: %w", err)
	}
	var earlier []sandbox.Result
	for pass := 1; ; pass++ {
		o, res, err := g.pass(ctx, tr, t, tmp, fb, input, answer, w)
		if err != nil {
			return err
		}
		tr.measurePass(res)
		next, err := os.ReadFile(filepath.Join(fb, nextPass))
		switch {
		case errors.Is(err, fs.ErrNotExist):
			next = nil
		case err != nil:
			return fmt.Errorf("reading the validator's %s: %w", nextPass, err)
		default:
			if err := os.Remove(filepath.Join(fb, nextPass)); err != nil {
				return fmt.Errorf("taking away the validator's %s: %w", nextPass, err)
			}
		}
		accepted := o.judged != nil && o.judgeFailure == "" && o.judged.Verdict == verdict.AC
		v := o.verdict(g.limits)
		switch {
		case next != nil && o.judged != nil && !accepted && o.judgeFailure == "":
			o.judgeFailure = fmt.Sprintf("validator %s wrote %s but did not accept (exit code 42): a judge error", g.validatorPath(), nextPass)
		case next != nil && v == verdict.AC && pass >= g.p.Package.Validation.Passes:
			o.judgeFailure = fmt.Sprintf("validator %s asks for pass %d, but limits.validation_passes is %d", g.validatorPath(), pass+1, g.p.Package.Validation.Passes)
		case next != nil && v == verdict.AC:
			if err := shareFeedback(fb); err != nil {
				return err
			}
			said := ""
			if n := len(tr.Passes); n > 0 {
				said = tr.Passes[n-1].said
			}
			tr.Passes = append(tr.Passes, PassResult{Verdict: verdict.AC, TimeMS: res.CPU.Milliseconds(), WallMS: res.Wall.Milliseconds(),
				MemoryKiB: res.Memory.KiB(), Message: passMessage(o.judged.Message, said), said: o.judged.Message})
			earlier = append(earlier, o.run)
			input = next
			continue
		}
		o.earlier = earlier
		tr.outcome = o
		tr.Passes = append(tr.Passes, PassResult{})
		if res != nil {
			tr.Passes[len(tr.Passes)-1] = PassResult{TimeMS: res.CPU.Milliseconds(), WallMS: res.Wall.Milliseconds(), MemoryKiB: res.Memory.KiB()}
		}
		o.decide(tr, g.limits)
		tr.lastPass()
		return nil
	}
}

// pass runs one pass of a multi-pass test on input: the submission in a
// fresh working directory (nothing it wrote in a pass is left for the
// next), then the output validator on its output, or both together in an
// interactive problem. The sandbox's result is nil when it could not run
// the submission (the outcome says why).
func (g *grader) pass(ctx context.Context, tr *TestResult, t kattis.Test, tmp, fb string, input, answer []byte, w *workDir) (*outcome, *sandbox.Result, error) {
	dir, err := g.workDir(tr, w)
	if err != nil {
		return nil, nil, err
	}
	if err := g.testFiles(t, dir); err != nil {
		return nil, nil, err
	}
	cmd := g.command(t, dir)
	if g.interactor != nil {
		it, err := g.interaction(ctx, t, tmp, fb, input, answer, cmd)
		if err != nil {
			return nil, nil, err
		}
		return it.outcome(), it.sub.res, nil
	}
	cmd.Stdin = input
	res, err := g.j.run(ctx, cmd)
	if ctx.Err() != nil {
		return nil, nil, ctx.Err()
	}
	o := g.ran(res, err)
	if err != nil {
		return o, nil, nil
	}
	if g.opts.Keep {
		saveOutputs(dir, res)
	}
	if o.needsChecker() {
		x, ok := g.checkerFor(t).(*checkers.External)
		if !ok {
			o.check(checkers.Result{}, "a multi-pass problem's output is checked by its output validator program, and this grading has another checker")
			return o, res, nil
		}
		cr, err := x.Pass(ctx, checkers.Files{Input: input, Output: res.Stdout, Answer: answer}, fb)
		switch {
		case ctx.Err() != nil:
			return nil, nil, ctx.Err()
		case err != nil:
			o.check(cr, "checker: "+err.Error())
		default:
			o.check(cr, "")
		}
	}
	return o, res, nil
}

// validatorPath names the problem's output validator for messages.
func (g *grader) validatorPath() string {
	if prog := g.p.Package.Validation.Program; prog != nil {
		return prog.Path
	}
	return "output_validator"
}

// shareFeedback opens what a pass's validator left in the feedback
// directory to the next pass's validator: each runs in a box of its own
// uid, and the sandbox gives a box's files back to the judge when it
// ends, so the next box could read them but not append to them
// (judgemessage.txt). The directory is the test's alone, below the
// judge's own temporary directory.
func shareFeedback(fb string) error {
	err := filepath.WalkDir(fb, func(p string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.IsDir():
			return os.Chmod(p, 0o777)
		case d.Type().IsRegular():
			return os.Chmod(p, 0o666)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("opening the feedback directory to the next pass: %w", err)
	}
	return nil
}
