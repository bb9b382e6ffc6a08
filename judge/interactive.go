package judge

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sync"

	"github.com/optjudge/optjudge/checkers"
	"github.com/optjudge/optjudge/judge/sandbox"
	"github.com/optjudge/optjudge/problems/kattis"
	"github.com/optjudge/optjudge/verdict"
)

// interaction is one run of a submission against an interactive
// validator: the submission in the sandbox, under its limits, the
// validator in a box of its own (runProgram), each one's standard output
// the other's standard input.
type interaction struct {
	g        *grader
	cmd      *sandbox.Cmd // the submission's run
	feedback string       // the validator's feedback directory, with a slash
	argv     []string     // the validator's command line
	testlib  bool         // a testlib interactor: exit 0 accepts, then the checker reads output
	output   string       // a testlib interactor's output file
	// the validator's box: the files it reads, the directory it writes
	// (a testlib interactor's output file is there too)
	read        []string
	feedbackDir string

	mu    sync.Mutex
	first string // who ended first: "validator" or "submission"

	val validatorEnd
	sub submissionEnd
}

type validatorEnd struct {
	r   *sandbox.Result
	lim programLimits
	err error
}

type submissionEnd struct {
	res *sandbox.Result
	err error
}

// interact runs test t interactively and judges it as problemtools does
// (judge/execute.py with support/interactive): a validator that fails, or
// exits with another code than 42 or 43, is a judge error; a validator that
// ends first with a wrong answer decides (the submission is then stopped);
// else a submission over its limits or that crashed gets TLE, MLE, OLE or
// RE; else the validator's verdict, with its score. Like problemtools'
// runner, the judge holds each side's pipe ends until it has seen that
// side end, so who ended first is never a race; a submission's output goes
// through the judge (sandbox.Cmd.StdoutPipe), so it never meets SIGPIPE
// when the validator leaves first.
func (g *grader) interact(ctx context.Context, tr *TestResult, t kattis.Test, input, answer []byte, cmd *sandbox.Cmd) error {
	tmp, err := os.MkdirTemp(g.j.tmp, "interact-")
	if err != nil {
		return fmt.Errorf("creating the validator's directory: %w", err)
	}
	defer removeAll(tmp)
	if err := os.Chmod(tmp, 0o711); err != nil { // the validator's box uid passes it at level none
		return fmt.Errorf("creating the validator's directory: %w", err)
	}
	fb := filepath.Join(tmp, "feedback")
	if err := os.Mkdir(fb, 0o755); err != nil {
		return fmt.Errorf("writing the validator's files: %w", err)
	}
	it, err := g.interaction(ctx, t, tmp, fb, input, answer, cmd)
	if err != nil {
		return err
	}
	o := it.outcome()
	if it.sub.err == nil {
		tr.measure(it.sub.res)
		tr.Output = nil
	}
	tr.outcome = o
	if v := o.verdict(g.limits); it.testlib && v == verdict.AC {
		// testlib: the checker judges what the interactor wrote
		out, err := os.ReadFile(it.output)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("reading the interactor's output: %w", err)
		}
		g.check(ctx, o, t, input, out, answer)
		if ctx.Err() != nil {
			return ctx.Err()
		}
	}
	o.decide(tr, g.limits)
	return nil
}

// interaction runs the submission's cmd against the interactive
// validator on input, the validator's files in tmp and its feedback
// directory fb (which exists), and returns how both ended.
func (g *grader) interaction(ctx context.Context, t kattis.Test, tmp, fb string, input, answer []byte, cmd *sandbox.Cmd) (*interaction, error) {
	in, ans := filepath.Join(tmp, "input"), filepath.Join(tmp, "answer")
	for name, data := range map[string][]byte{in: input, ans: answer} {
		if err := os.WriteFile(name, data, 0o644); err != nil {
			return nil, fmt.Errorf("writing the validator's files: %w", err)
		}
	}
	it := &interaction{g: g, cmd: cmd, feedback: fb + "/", output: filepath.Join(fb, "output"), feedbackDir: fb, read: []string{in, ans}}
	prog := g.p.Package.Validation.Program
	if it.testlib = prog.Protocol == checkers.Testlib; it.testlib {
		it.argv = append(append(slices.Clone(g.interactor.argv), in, it.output, ans), prog.Args...)
	} else {
		it.argv = append(append(slices.Clone(g.interactor.argv), in, ans, it.feedback), g.p.Package.OutputValidatorArgs(t)...)
	}
	if err := it.run(ctx); err != nil {
		return nil, err
	}
	return it, nil
}

// run starts both sides and waits for both to end, holding the pipe ends
// as problemtools' runner (support/interactive) holds them:
//
//   - the write end of each channel stays open in the judge until its
//     writer has ended, so that a reader never sees the end of its input
//     before the writer is known to have ended (who ended first is never
//     a race); but a validator that closes its standard output while it
//     runs on (a pseudo-interactive one: it writes the whole input, then
//     reads the answer) is seen to (sandbox.Probe.OutputClosed), and once
//     it is seen asleep reading the submission's output, so neither
//     ending nor about to, the judge lets go of that write end and the
//     submission reads the end of its input, as BAPCtools and DOMjudge
//     pass it on (problemtools does not: such a submission waits forever);
//     the submission's end of output is passed on only once it has ended,
//     as all three do;
//   - the read end of the validator-to-submission channel is never closed
//     while the validator runs: once the submission has ended, the judge
//     reads and drops what the validator still writes, so a validator
//     that writes to a submission that left never dies of SIGPIPE nor
//     blocks on a full pipe; it reads the end of the submission's output
//     and decides;
//   - the submission's output goes through the judge (sandbox.Cmd.
//     StdoutPipe), which drops what the validator no longer reads: the
//     submission never dies of SIGPIPE either;
//   - a validator that ends first with anything but an accept decides:
//     the submission is stopped then (as BAPCtools stops it; problemtools
//     lets it run on to its limits, which changes nothing of the verdict).
//     One that accepts first leaves the submission to end by itself: it
//     reads the end of its input.
//   - while both run, a stall watch (stallWatch) looks for both sides
//     asleep waiting for each other's input with nothing on its way:
//     then neither can ever go on, and the submission is stopped at once
//     (TLE, sandbox.Stalled) rather than at its wall limit; the validator
//     reads the end of its output and ends as after a wall-time kill.
//
// Both pipes are 1 MiB where the system allows it, as problemtools makes
// them.
func (it *interaction) run(ctx context.Context) error {
	toSubR, toSubW, err := interactionPipe() // the validator's stdout, the submission's stdin
	if err != nil {
		return err
	}
	fromSubR, fromSubW, err := interactionPipe() // the submission's stdout (through the judge), the validator's stdin
	if err != nil {
		toSubR.Close()
		toSubW.Close()
		return err
	}
	it.cmd.StdinPipe, it.cmd.StdoutPipe = toSubR, fromSubW
	stall := &stallWatch{
		sub: &sandbox.Probe{}, val: &sandbox.Probe{}, toSubR: toSubR, fromSubR: fromSubR,
		toSub: pipeInode(toSubR), fromSub: pipeInode(fromSubR),
		release: func() { toSubW.Close() },
	}
	it.cmd.Probe = stall.sub
	vctx, vcancel := context.WithCancel(ctx)
	defer vcancel()
	sctx, scancel := context.WithCancel(ctx)
	defer scancel()
	vdone, sdone, drained := make(chan struct{}), make(chan struct{}), make(chan struct{})
	go func() {
		defer close(vdone)
		it.val.lim = it.validatorLimits()
		it.val.r, it.val.err = it.g.j.runProgram(vctx, it.g.interactor, programRun{
			args: it.argv[len(it.g.interactor.argv):], stdinPipe: fromSubR, stdoutPipe: toSubW,
			read: it.read, dir: it.feedbackDir, limits: it.val.lim, probe: stall.val,
		})
		it.ended("validator")
		toSubW.Close()   // the submission reads the end of its input (if it has not yet)
		fromSubR.Close() // what the submission still writes, the judge drops
	}()
	go func() {
		defer close(sdone)
		it.sub.res, it.sub.err = it.g.j.run(sctx, it.cmd)
		it.ended("submission")
		fromSubW.Close() // the validator reads the end of the submission's output
		setNonblock(toSubR)
		go func() {
			// what the validator still writes goes nowhere; this
			// ends when the validator does, or at the close below
			defer close(drained)
			io.Copy(io.Discard, toSubR)
		}()
	}()
	// the stall watch, while both run
	either, watched := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(watched)
		if stall.watch(either) {
			stall.sub.Stop()
		}
	}()
	select {
	case <-vdone:
	case <-sdone:
	}
	close(either)
	<-watched
	<-vdone
	if it.firstEnded() == "validator" && !it.validatorAccepts() {
		scancel() // the verdict is the validator's: stop the submission
	}
	<-sdone
	toSubR.Close()
	<-drained
	return ctx.Err()
}

func (it *interaction) firstEnded() string {
	it.mu.Lock()
	defer it.mu.Unlock()
	return it.first
}

func (it *interaction) ended(who string) {
	it.mu.Lock()
	if it.first == "" {
		it.first = who
	}
	it.mu.Unlock()
}

// validatorLimits are the validator's: its CPU time within
// validation_time, its memory within validation_memory, and its wall time
// within the submission's wall limit and validation_time (its waiting for
// the submission does not count). What it writes to the submission is
// bounded as a submission's output is by default; its files (the
// feedback directory) by validation_output.
func (it *interaction) validatorLimits() programLimits {
	p := it.g.p
	return programLimits{
		time: programTimeout(p), wall: it.cmd.Limits.Wall + programTimeout(p),
		memory: programMemory(p), output: programOutput(p), stdout: interactorOutput,
	}
}

// interactorOutput bounds what an interactive validator writes to the
// submission.
const interactorOutput = 1 << 30

// validatorAccepts says whether the validator ran to its end and accepted.
func (it *interaction) validatorAccepts() bool {
	r := it.val.r
	accept := 42
	if it.testlib {
		accept = 0
	}
	return it.val.err == nil && programFailure(r, it.val.lim) == "" && r.ExitCode == accept
}

// outcome gathers what both ends did into the test's outcome (decide
// judges it).
func (it *interaction) outcome() *outcome {
	o := it.g.ran(it.sub.res, it.sub.err)
	v, failure := it.validatorVerdict()
	o.check(v, failure)
	o.validatorFirst = it.firstEnded() == "validator"
	return o
}

// validatorVerdict reads the validator's verdict: JE, with why, when it
// failed.
func (it *interaction) validatorVerdict() (checkers.Result, string) {
	name := it.g.interactor.path
	r, err := it.val.r, it.val.err
	switch {
	case err != nil:
		return checkers.Result{Verdict: verdict.JE}, fmt.Sprintf("validator %s: %v", name, err)
	case programFailure(r, it.val.lim) != "":
		return checkers.Result{Verdict: verdict.JE}, fmt.Sprintf("validator %s: %s", name, programFailure(r, it.val.lim))
	}
	var res checkers.Result
	if it.testlib {
		res, err = checkers.TestlibResult("interactor "+name, r.ExitCode, r.Stderr)
	} else {
		res, err = checkers.KattisResult("validator "+name, r.ExitCode, it.feedback, r.Stderr)
	}
	if err != nil {
		return checkers.Result{Verdict: verdict.JE}, err.Error()
	}
	return res, ""
}

// testFiles copies a test's .files directory into its working directory
// (replacing a program file of the same name: the placed one may be a link
// to the build), as the 2025-09 format has it.
func (g *grader) testFiles(t kattis.Test, dir string) error {
	if t.Config == nil || t.Config.Files == "" {
		return nil
	}
	root := t.Config.Files
	err := fs.WalkDir(t.FS, root, func(name string, d fs.DirEntry, err error) error {
		if err != nil || name == root {
			return err
		}
		dst := filepath.Join(dir, filepath.FromSlash(name[len(root)+1:]))
		if d.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		b, err := fs.ReadFile(t.FS, name)
		if err != nil {
			return err
		}
		os.Remove(dst)
		return os.WriteFile(dst, b, 0o644)
	})
	if err != nil {
		return fmt.Errorf("copying %s: %w", t.Path(path.Clean(root)), err)
	}
	return nil
}
