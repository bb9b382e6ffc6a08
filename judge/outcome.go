package judge

import (
	"fmt"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/optjudge/optjudge/checkers"
	"github.com/optjudge/optjudge/judge/sandbox"
	"github.com/optjudge/optjudge/judge/verdict"
)

// outcome is everything one test's verdict rests on: how the program's run
// ended, as the sandbox decided it (its status is final for the limits it
// enforces: the judge never compares a measurement with a limit), or why
// the sandbox could not run it; and what the checker, or an interactive
// validator, said. decide maps it to the test's verdict, the one place
// that does, for a contestant's run, an interactive one and Regrade.
type outcome struct {
	// status is the sandbox's decision (run.Status, or what it would
	// have been under a lower CPU limit: Regrade).
	status sandbox.Status
	run    sandbox.Result // the run's facts, without its output
	hint   string         // the first line of its stderr
	// failure is the sandbox's error when it could not run the program;
	// ownExec is its errno when that is the contestant's own file failing
	// to execute (execFailure).
	failure error
	ownExec syscall.Errno

	// judged is the checker's or the interactive validator's verdict;
	// nil while not asked. judgeFailure says why the checker, the
	// validator or the reference failed: a judge error.
	judged       *checkers.Result
	judgeFailure string
	// validatorFirst: an interactive validator ended before the
	// submission; a wrong answer it gives then stands whatever the
	// submission did after (problemtools' rule).
	validatorFirst bool
	// earlier are the runs of a multi-pass test's passes before the one
	// the outcome is of: each completed, and the validator asked for
	// another pass.
	earlier []sandbox.Result
}

// within is o's outcome under the lower CPU and wall-clock limits cpu and
// wall (Regrade): a pass over them ends the test there; pass is its index
// among the passes, or -1 when the passes are those of o.
func (o outcome) within(cpu, wall time.Duration) (_ outcome, pass int) {
	if o.failure != nil {
		return o, -1
	}
	for i, r := range o.earlier {
		if st := r.Within(cpu, wall); st != sandbox.OK {
			return outcome{status: st, run: r, earlier: o.earlier[:i]}, i
		}
	}
	o.status = o.run.Within(cpu, wall)
	return o, -1
}

// ran is the outcome of the sandbox's run of the program: res, or err when
// it could not run it.
func (g *grader) ran(res *sandbox.Result, err error) *outcome {
	if err != nil {
		o := &outcome{failure: err}
		o.ownExec, _ = execFailure(err, g.ownProgram())
		return o
	}
	o := &outcome{status: res.Status, run: *res, hint: firstLine(res.Stderr, 120)}
	o.run.Stdout, o.run.Stderr = nil, nil
	return o
}

// check records what the checker (or validator) said of the output, or
// why it failed.
func (o *outcome) check(res checkers.Result, failure string) {
	o.judged, o.judgeFailure = &res, failure
}

// needsChecker says whether the checker decides: the run completed, and
// the checker has not said yet.
func (o *outcome) needsChecker() bool {
	return o.failure == nil && o.status == sandbox.OK && o.judged == nil && o.judgeFailure == ""
}

// decide sets the test's verdict, message and validator scores from o under
// the limits l, and caps the CPU time of an interactive run that the
// validator stopped.
func (o *outcome) decide(tr *TestResult, l Limits) {
	tr.validatorScore, tr.validatorMultiplier = nil, nil
	tr.Verdict, tr.Message = o.verdict(l)
	switch {
	case o.validatorFirst && tr.Verdict == verdict.WA:
		// the submission may run on after the validator's verdict:
		// problemtools counts it no further than the limit
		tr.CPU = min(tr.CPU, l.Time)
		tr.TimeMS = tr.CPU.Milliseconds()
	case o.judged != nil && tr.Verdict == o.judged.Verdict && o.judgeFailure == "":
		tr.validatorScore, tr.validatorMultiplier = o.judged.Score, o.judged.Multiplier
	}
}

// verdict is the one mapping from an outcome to a test's verdict, in
// problemtools' order: a validator or checker that failed (JE); an
// interactive validator that ended first with a wrong answer (WA); a
// program the sandbox could not run (the exec-failure rule: RE for the
// contestant's own file, else JE); the sandbox's status (MLE, TLE, OLE,
// wall-time TLE, RE); then the checker's verdict. Unknown: the run
// completed and the checker has not said yet.
func (o *outcome) verdict(l Limits) (verdict.Verdict, string) {
	switch {
	case o.judgeFailure != "":
		return verdict.JE, o.judgeFailure
	case o.validatorFirst && o.judged != nil && o.judged.Verdict == verdict.WA:
		return verdict.WA, o.judged.Message
	case o.failure != nil && o.ownExec != 0:
		return verdict.RE, "the program cannot be executed: " + o.ownExec.Error()
	case o.failure != nil:
		return verdict.JE, "sandbox: " + o.failure.Error()
	}
	if v, msg := o.statusVerdict(l); v != verdict.Unknown {
		return v, msg
	}
	switch {
	case o.judged == nil:
		return verdict.Unknown, ""
	case o.judged.Verdict != verdict.AC && o.judged.Verdict != verdict.WA:
		return verdict.JE, fmt.Sprintf("checker returned %v: %s", o.judged.Verdict, o.judged.Message)
	}
	return o.judged.Verdict, o.judged.Message
}

// statusVerdict names the sandbox's status as a verdict, with the limit in
// force; Unknown for a run that completed.
func (o *outcome) statusVerdict(l Limits) (verdict.Verdict, string) {
	switch o.status {
	case sandbox.OK:
		return verdict.Unknown, ""
	case sandbox.MemoryLimit:
		return verdict.MLE, fmt.Sprintf("memory over the %s limit", l.Memory)
	case sandbox.TimeLimit:
		return verdict.TLE, fmt.Sprintf("CPU time over the %s limit", seconds(l.Time))
	case sandbox.OutputLimit:
		return verdict.OLE, fmt.Sprintf("output over the %s limit", l.Output)
	case sandbox.WallTimeLimit:
		if l.SleepWall > 0 && o.run.Wall < l.Wall {
			return verdict.TLE, fmt.Sprintf("wall time over the %s limit of a run that sleeps (CPU %s, none for %s)",
				seconds(l.SleepWall), seconds(o.run.CPU), seconds(sandbox.SleepFor))
		}
		return verdict.TLE, fmt.Sprintf("wall time over the %s limit (CPU %s): waiting or sleeping?", seconds(l.Wall), seconds(o.run.CPU))
	case sandbox.Stalled:
		// the wall time is the run's own, up to the stop: it never
		// reached the limit, and would have only by waiting
		return verdict.TLE, fmt.Sprintf("deadlock: the submission and the validator were both waiting for each other's input; "+
			"stopped after %s of wall time, not at the %s limit (CPU %s)", seconds(o.run.Wall), seconds(l.Wall), seconds(o.run.CPU))
	case sandbox.Signaled:
		return verdict.RE, "killed by " + signalName(o.run.Signal) + hintOf(o.hint)
	case sandbox.NonZeroExit:
		return verdict.RE, fmt.Sprintf("exit code %d", o.run.ExitCode) + hintOf(o.hint)
	}
	return verdict.JE, fmt.Sprintf("sandbox: the run ended with status %v", o.status)
}

func hintOf(line string) string {
	if line != "" {
		return ": " + line
	}
	return ""
}

// execFailure is the one exec-failure rule, for a submission's runs (an
// RE) and for its build script (a CE) alike: a failed exec is the
// contestant's doing, as Kattis and DOMjudge have it, when the file
// executed is the submission's own (own: in its working or build
// directory: an executable submission, a build's executable, a run or
// build script) and the machine cannot execute it: it is no program of
// this machine (ENOEXEC, a bad ELF interpreter), its #! or ELF interpreter
// does not exist (ENOENT), or it is not executable (EACCES). An
// interpreter of the language table that cannot be executed is the
// judge's failure, and so is anything else.
func execFailure(err error, own bool) (syscall.Errno, bool) {
	errno, ok := sandbox.ExecFailure(err)
	if !ok || !own {
		return 0, false
	}
	if errno == syscall.ENOEXEC || errno == syscall.ENOENT || errno == syscall.EACCES || badELF(errno) {
		return errno, true
	}
	return 0, false
}

// ownProgram says whether the program a test runs is the submission's own
// file, in the test's working directory (a build's executable, a run
// script, an executable submission), not an interpreter of the language
// table.
func (g *grader) ownProgram() bool {
	argv0 := g.prog.run[0]
	return !filepath.IsAbs(argv0) && strings.HasPrefix(argv0, "./")
}
