package judge

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/optjudge/optjudge/bytesize"
	"github.com/optjudge/optjudge/checkers"
	"github.com/optjudge/optjudge/judge/sandbox"
	"github.com/optjudge/optjudge/verdict"
)

// TestOutcomeVerdict holds the one mapping from a test's outcome to its
// verdict to problemtools' order: a failed validator, then an interactive
// validator's first wrong answer, then the exec-failure rule, then the
// sandbox's status as it is (never a measurement against a limit again),
// then the checker's verdict.
func TestOutcomeVerdict(t *testing.T) {
	t.Parallel()
	l := Limits{Time: time.Second, Wall: 3 * time.Second, Memory: 64 * bytesize.MiB, Output: bytesize.MiB}
	run := func(st sandbox.Status, cpu time.Duration) *outcome {
		return &outcome{status: st, run: sandbox.Result{Status: st, CPU: cpu, ExitCode: 3, Signal: syscall.SIGSEGV}, hint: "boom"}
	}
	judged := func(o *outcome, v verdict.Verdict, msg string) *outcome {
		o.check(checkers.Result{Verdict: v, Message: msg}, "")
		return o
	}
	first := func(o *outcome) *outcome { o.validatorFirst = true; return o }
	failed := func(o *outcome, why string) *outcome { o.check(checkers.Result{Verdict: verdict.JE}, why); return o }
	tests := []struct {
		name string
		o    *outcome
		want verdict.Verdict
		msg  string
	}{
		{"completed, not checked", run(sandbox.OK, 0), verdict.Unknown, ""},
		{"accepted", judged(run(sandbox.OK, 0), verdict.AC, ""), verdict.AC, ""},
		{"wrong", judged(run(sandbox.OK, 0), verdict.WA, "no"), verdict.WA, "no"},
		{"checker failed", failed(run(sandbox.OK, 0), "checker: broken"), verdict.JE, "checker: broken"},
		{"checker said TLE", judged(run(sandbox.OK, 0), verdict.TLE, "?"), verdict.JE, "checker returned TLE: ?"},
		// the sandbox's status is final: a run it found in its memory
		// limit is MLE with any CPU time; an OK run is not TLE whatever
		// its CPU time says against the limit (the sandbox decides that)
		{"memory, then the CPU limit", run(sandbox.MemoryLimit, 1100*time.Millisecond), verdict.MLE, "memory over the 64MiB limit"},
		{"ok over the limit", judged(run(sandbox.OK, 1100*time.Millisecond), verdict.AC, ""), verdict.AC, ""},
		{"cpu", run(sandbox.TimeLimit, 1010*time.Millisecond), verdict.TLE, "CPU time over the 1s limit"},
		{"wall", run(sandbox.WallTimeLimit, 20*time.Millisecond), verdict.TLE, "wall time over the 3s limit (CPU 0.02s): waiting or sleeping?"},
		// an interaction stopped with both sides waiting: its own wall time
		{"stalled", &outcome{status: sandbox.Stalled, run: sandbox.Result{Status: sandbox.Stalled, CPU: 2 * time.Millisecond, Wall: 300 * time.Millisecond}},
			verdict.TLE, "deadlock: the submission and the validator were both waiting for each other's input; stopped after 0.3s of wall time, not at the 3s limit (CPU 0.002s)"},
		{"output", run(sandbox.OutputLimit, 0), verdict.OLE, "output over the 1MiB limit"},
		{"signal", run(sandbox.Signaled, 0), verdict.RE, "killed by SIGSEGV: boom"},
		{"exit", run(sandbox.NonZeroExit, 0), verdict.RE, "exit code 3: boom"},
		{"no status", run(sandbox.StatusUnknown, 0), verdict.JE, "sandbox: the run ended with status unknown"},
		{"the contestant's exec", &outcome{failure: errors.New("exec ./a: bad"), ownExec: syscall.ENOEXEC}, verdict.RE, "the program cannot be executed: exec format error"},
		{"the sandbox failed", &outcome{failure: errors.New("no box")}, verdict.JE, "sandbox: no box"},
		// interactive: problemtools' rules
		{"validator first with WA beats TLE", first(judged(run(sandbox.TimeLimit, 1100*time.Millisecond), verdict.WA, "bad guess")), verdict.WA, "bad guess"},
		{"validator first with AC: the limits first", first(judged(run(sandbox.TimeLimit, 1100*time.Millisecond), verdict.AC, "")), verdict.TLE, "CPU time over the 1s limit"},
		{"submission first: the limits first", judged(run(sandbox.MemoryLimit, 0), verdict.WA, "bad guess"), verdict.MLE, "memory over the 64MiB limit"},
		{"validator failed beats everything", failed(first(run(sandbox.TimeLimit, 0)), "validator v: killed by SIGSEGV"), verdict.JE, "validator v: killed by SIGSEGV"},
		{"validator failed beats an exec failure", failed(&outcome{failure: errors.New("x"), ownExec: syscall.ENOENT}, "validator v: exit 3"), verdict.JE, "validator v: exit 3"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := tt.o.decision(l)
			v, msg := d.verdict, d.message
			if v != tt.want || msg != tt.msg {
				t.Errorf("got %v %q, want %v %q", v, msg, tt.want, tt.msg)
			}
			// the stderr line an RE's message quotes is a fact too
			if quoted := v == verdict.RE && strings.HasSuffix(msg, ": boom"); quoted != (d.hint == "boom") {
				t.Errorf("hint %q for message %q", d.hint, msg)
			}
			// a broken limit's facts: its words start the message,
			// and survive the report's JSON
			limited := v == verdict.MLE || v == verdict.OLE || v == verdict.TLE
			if limited != (d.limit != nil) {
				t.Fatalf("%v with limit %+v", v, d.limit)
			}
			if d.limit != nil {
				b, err := json.Marshal(d.limit)
				if err != nil {
					t.Fatal(err)
				}
				var back Broken
				if err := json.Unmarshal(b, &back); err != nil {
					t.Fatal(err)
				}
				if !strings.HasPrefix(msg, back.Text()) || back.Text() == "" {
					t.Errorf("limit %s says %q, not the start of the message %q", b, back.Text(), msg)
				}
			}
		})
	}
}

// TestRegradeDecidesAsGrade: Regrade decides each test again with the
// mapping Grade uses, under the lower limit: a run over it is TLE, even one
// that reached its memory limit (which may have come after); an
// interactive validator's first wrong answer stands, its CPU time capped
// at the lower limit, as problemtools' verifyproblem has it; a run that
// took longer than the wall-clock limit that goes with the lower one (3 s
// with 1 s) is TLE by the wall clock, and not under a wall limit asked for.
func TestRegradeDecidesAsGrade(t *testing.T) {
	t.Parallel()
	p := sumProblem(t)
	l := Limits{Time: 4 * time.Second, Wall: 9 * time.Second, Memory: 64 * bytesize.MiB, Output: bytesize.MiB}
	l.fill()
	mk := func(name string, o *outcome, cpu time.Duration) TestResult {
		o.run.CPU = cpu
		tr := TestResult{Name: name, CPU: cpu, TimeMS: cpu.Milliseconds(), outcome: o}
		o.decide(&tr, l)
		return tr
	}
	ok := func(v verdict.Verdict) *outcome {
		o := &outcome{status: sandbox.OK, run: sandbox.Result{Status: sandbox.OK}}
		o.check(checkers.Result{Verdict: v}, "")
		return o
	}
	slept := ok(verdict.AC)
	slept.run.Wall = 5 * time.Second
	first := ok(verdict.WA)
	first.status, first.run.Status, first.validatorFirst = sandbox.TimeLimit, sandbox.TimeLimit, true
	r := &Report{Submission: "s", Limits: l, Compile: CompileResult{OK: true}, Tests: []TestResult{
		mk("sample/fast", ok(verdict.AC), 100*time.Millisecond),
		mk("sample/slow", ok(verdict.AC), 1500*time.Millisecond),
		mk("secret/slow wrong", ok(verdict.WA), 1500*time.Millisecond),
		mk("secret/memory late", &outcome{status: sandbox.MemoryLimit, run: sandbox.Result{Status: sandbox.MemoryLimit}}, 1500*time.Millisecond),
		mk("secret/memory early", &outcome{status: sandbox.MemoryLimit, run: sandbox.Result{Status: sandbox.MemoryLimit}}, 500*time.Millisecond),
		mk("secret/validator first", first, 4*time.Second),
		mk("secret/sleeps", slept, 10*time.Millisecond),
	}}
	want := []struct {
		v   verdict.Verdict
		msg string
		cpu time.Duration
	}{
		{verdict.AC, "", 100 * time.Millisecond},
		{verdict.TLE, "CPU time over the 1s limit", 1500 * time.Millisecond},
		{verdict.TLE, "CPU time over the 1s limit", 1500 * time.Millisecond},
		{verdict.TLE, "CPU time over the 1s limit", 1500 * time.Millisecond},
		{verdict.MLE, "memory over the 64MiB limit", 500 * time.Millisecond},
		{verdict.WA, "", time.Second},
		{verdict.TLE, "wall time over the 3s limit", 10 * time.Millisecond},
	}
	out, err := (&Judge{}).Regrade(context.Background(), p, nil, r, time.Second, 0)
	if err != nil {
		t.Fatal(err)
	}
	for i, w := range want {
		tr := out.Tests[i]
		if tr.Verdict != w.v || !strings.HasPrefix(tr.Message, w.msg) || (w.msg == "" && tr.Message != "") || tr.CPU != w.cpu {
			t.Errorf("%s: got %v %q CPU %v, want %v %q CPU %v", tr.Name, tr.Verdict, tr.Message, tr.CPU, w.v, w.msg, w.cpu)
		}
	}
	if out.Verdict != verdict.TLE || out.Limits.TimeMS != 1000 || r.Tests[1].Verdict != verdict.AC {
		t.Errorf("got %v under %d ms (the original's slow test %v), want TLE under 1000 ms, the original untouched", out.Verdict, out.Limits.TimeMS, r.Tests[1].Verdict)
	}
	// a wall limit asked for (judge verify --wall-limit) holds under the
	// lower limit too
	if out, err = (&Judge{}).Regrade(context.Background(), p, nil, r, time.Second, 6*time.Second); err != nil {
		t.Fatal(err)
	}
	if tr := out.Tests[6]; tr.Verdict != verdict.AC || out.Limits.Wall != 6*time.Second {
		t.Errorf("under a 6s wall limit: %s got %v %q under %v, want AC", tr.Name, tr.Verdict, tr.Message, out.Limits.Wall)
	}
	r.Tests[0].outcome = nil
	if _, err := (&Judge{}).Regrade(context.Background(), p, nil, r, time.Second, 0); err == nil {
		t.Error("got no error regrading a test without its outcome")
	}
}

// TestExecFailureRule: the one rule for a failed exec, a run's and a build
// script's: the contestant's when the file is the submission's own and the
// machine cannot execute it, the judge's otherwise.
func TestExecFailureRule(t *testing.T) {
	t.Parallel()
	exec := func(errno syscall.Errno) error {
		return &sandbox.HelperError{Errno: errno, Msg: "exec ./run: " + errno.Error()}
	}
	tests := []struct {
		err  error
		own  bool
		want bool
	}{
		{exec(syscall.ENOEXEC), true, true},
		{exec(syscall.ENOENT), true, true},
		{exec(syscall.EACCES), true, true},
		{exec(syscall.ELIBBAD), true, true},
		{exec(syscall.E2BIG), true, false},
		{exec(syscall.ENOEXEC), false, false}, // the language table's interpreter
		{&sandbox.HelperError{Errno: syscall.ENOENT, Msg: "mount /usr: no such file"}, true, false}, // the box, not the exec
		{errors.New("sandbox: bad helper report"), true, false},
	}
	for _, tt := range tests {
		if _, got := execFailure(tt.err, tt.own); got != tt.want {
			t.Errorf("%v (own %v): got %v, want %v", tt.err, tt.own, got, tt.want)
		}
	}
}
