package judge

import (
	"fmt"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/optjudge/optjudge/bytesize"
	"github.com/optjudge/optjudge/checkers"
	"github.com/optjudge/optjudge/judge/sandbox"
	"github.com/optjudge/optjudge/reference/puzzle/judging"
	"github.com/optjudge/optjudge/verdict"
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
	d := o.decision(l)
	tr.Verdict, tr.Message, tr.Limit, tr.Finding, tr.Hint = d.verdict, d.message, d.limit, d.finding, d.hint
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

// decision is a test's verdict and what it rests on: the message, and the
// facts it is rendered from where there are some (the limit broken, the
// puzzle checker's finding).
type decision struct {
	verdict verdict.Verdict
	message string
	limit   *Broken
	finding *judging.Finding
	hint    string // the line of the program's stderr the message quotes
}

// verdict is the test's verdict under the limits l (see decision).
func (o *outcome) verdict(l Limits) verdict.Verdict { return o.decision(l).verdict }

// decision is the one mapping from an outcome to a test's verdict, in
// problemtools' order: a validator or checker that failed (JE); an
// interactive validator that ended first with a wrong answer (WA); a
// program the sandbox could not run (the exec-failure rule: RE for the
// contestant's own file, else JE); the sandbox's status (MLE, TLE, OLE,
// wall-time TLE, RE); then the checker's verdict. Unknown: the run
// completed and the checker has not said yet.
func (o *outcome) decision(l Limits) decision {
	switch {
	case o.judgeFailure != "":
		return decision{verdict: verdict.JE, message: o.judgeFailure}
	case o.validatorFirst && o.judged != nil && o.judged.Verdict == verdict.WA:
		return decision{verdict: verdict.WA, message: o.judged.Message, finding: o.judged.Finding}
	case o.failure != nil && o.ownExec != 0:
		return decision{verdict: verdict.RE, message: "the program cannot be executed: " + o.ownExec.Error()}
	case o.failure != nil:
		return decision{verdict: verdict.JE, message: "sandbox: " + o.failure.Error()}
	}
	if d := o.statusDecision(l); d.verdict != verdict.Unknown {
		return d
	}
	switch {
	case o.judged == nil:
		return decision{}
	case o.judged.Verdict != verdict.AC && o.judged.Verdict != verdict.WA:
		return decision{verdict: verdict.JE, message: fmt.Sprintf("checker returned %v: %s", o.judged.Verdict, o.judged.Message)}
	}
	return decision{verdict: o.judged.Verdict, message: o.judged.Message, finding: o.judged.Finding}
}

// statusDecision names the sandbox's status as a verdict, with the limit
// in force; Unknown for a run that completed. The message of a broken
// limit starts with the limit's own words (Broken.Text).
func (o *outcome) statusDecision(l Limits) decision {
	broke := func(v verdict.Verdict, b Broken, more string) decision {
		return decision{verdict: v, message: b.Text() + more, limit: &b}
	}
	switch o.status {
	case sandbox.OK:
		return decision{}
	case sandbox.MemoryLimit:
		return broke(verdict.MLE, Broken{Limit: LimitMemory, Bytes: int64(l.Memory)}, "")
	case sandbox.TimeLimit:
		return broke(verdict.TLE, Broken{Limit: LimitCPU, MS: l.Time.Milliseconds()}, "")
	case sandbox.OutputLimit:
		return broke(verdict.OLE, Broken{Limit: LimitOutput, Bytes: int64(l.Output)}, "")
	case sandbox.WallTimeLimit:
		if l.SleepWall > 0 && o.run.Wall < l.Wall {
			return broke(verdict.TLE, Broken{Limit: LimitSleep, MS: l.SleepWall.Milliseconds()},
				fmt.Sprintf(" of a run that sleeps (CPU %s, none for %s)", seconds(o.run.CPU), seconds(sandbox.SleepFor)))
		}
		return broke(verdict.TLE, Broken{Limit: LimitWall, MS: l.Wall.Milliseconds()},
			fmt.Sprintf(" (CPU %s): waiting or sleeping?", seconds(o.run.CPU)))
	case sandbox.Stalled:
		// the wall time is the run's own, up to the stop: it never
		// reached the limit, and would have only by waiting
		return broke(verdict.TLE, Broken{Limit: LimitDeadlock, MS: l.Wall.Milliseconds()},
			fmt.Sprintf("; stopped after %s of wall time, not at the %s limit (CPU %s)", seconds(o.run.Wall), seconds(l.Wall), seconds(o.run.CPU)))
	case sandbox.Signaled:
		return decision{verdict: verdict.RE, message: "killed by " + signalName(o.run.Signal) + hintOf(o.hint), hint: o.hint}
	case sandbox.NonZeroExit:
		return decision{verdict: verdict.RE, message: fmt.Sprintf("exit code %d", o.run.ExitCode) + hintOf(o.hint), hint: o.hint}
	}
	return decision{verdict: verdict.JE, message: fmt.Sprintf("sandbox: the run ended with status %v", o.status)}
}

// Broken is the limit a test's run broke (TLE, MLE, OLE), as facts: which
// limit and its value. Its Text is the judge's own words for it, which
// start the test's message and are all a contestant is shown of a secret
// test's.
type Broken struct {
	Limit string `json:"limit"`           // one of the Limit... names
	MS    int64  `json:"ms,omitempty"`    // a time limit's value, in milliseconds
	Bytes int64  `json:"bytes,omitempty"` // a memory or output limit's value
}

// The limits a run may break.
const (
	LimitCPU    = "cpu"
	LimitWall   = "wall"
	LimitSleep  = "sleep_wall" // the wall-clock limit of a run that sleeps
	LimitMemory = "memory"
	LimitOutput = "output"
	// LimitDeadlock: an interactive run and its validator were both
	// waiting for each other's input (MS is the wall-clock limit it was
	// stopped before).
	LimitDeadlock = "deadlock"
)

// Text says which limit b is, with its value: "CPU time over the 1s
// limit", "memory over the 256MiB limit".
func (b Broken) Text() string {
	ms := time.Duration(b.MS) * time.Millisecond
	switch b.Limit {
	case LimitCPU:
		return fmt.Sprintf("CPU time over the %s limit", seconds(ms))
	case LimitWall, LimitSleep:
		return fmt.Sprintf("wall time over the %s limit", seconds(ms))
	case LimitMemory:
		return fmt.Sprintf("memory over the %s limit", bytesize.Size(b.Bytes))
	case LimitOutput:
		return fmt.Sprintf("output over the %s limit", bytesize.Size(b.Bytes))
	case LimitDeadlock:
		return "deadlock: the submission and the validator were both waiting for each other's input"
	}
	return b.Limit + " limit exceeded"
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
