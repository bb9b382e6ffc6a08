package judge

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/optjudge/optjudge/problems"
	"github.com/optjudge/optjudge/verdict"
)

// passValidator checks a pass of the tests of multiPassProblem: the pass's
// input is "pass K X", the output must be X+1; the answer says how many
// passes the test has (wa-next: write nextpass.in and reject). Its
// messages are appended, so the test's message shows that the feedback
// directory lasts from pass to pass, and the input it reads is the
// pass's.
const passValidator = `#!/bin/sh
# input_file answer_file feedback_dir/ < the pass's output
test -e "$3/nextpass.in" && { echo "nextpass.in left from the last pass" >&2; exit 1; }
read p k x < "$1"
read want < "$2"
read got
if [ "$want" = wa-next ]; then echo "pass 2 0" > "$3/nextpass.in"; exit 43; fi
if [ "$got" != "$((x+1))" ]; then echo "pass $k: got '$got', want $((x+1))" >> "$3/judgemessage.txt"; exit 43; fi
echo "pass $k ok" >> "$3/judgemessage.txt"
[ "$k" -lt "$want" ] && echo "pass $((k+1)) $((x+1))" > "$3/nextpass.in"
exit 42
`

func multiPassProblem(t *testing.T) *problems.Problem {
	files := map[string]string{
		"problem.yaml": "problem_format_version: 2025-09\ntype: multi-pass\nname: Passes\nuuid: 5b8f0a52-7c1e-4f8e-9d0a-2e6b3c4d5e60\n" +
			"license: cc0\nsource: optjudge tests\nallow_file_writing: true\nlimits:\n  time_limit: 1\n  validation_passes: 4\n",
		"output_validator/run": passValidator,
		"data/secret/one.in":   "pass 1 10\n", "data/secret/one.ans": "1\n",
		"data/secret/three.in": "pass 1 10\n", "data/secret/three.ans": "3\n",
		"data/secret/four.in": "pass 1 10\n", "data/secret/four.ans": "4\n",
		"data/secret/five.in": "pass 1 10\n", "data/secret/five.ans": "5\n",
		"data/secret/wa-next.in": "pass 1 10\n", "data/secret/wa-next.ans": "wa-next\n",
	}
	return writePackage(t, "passes", files)
}

// TestMultiPass pins the 2025-09 rules of multi-pass problems: the
// submission runs again on the nextpass.in the validator writes, up to
// limits.validation_passes times, in a fresh working directory, under the
// limits each time; the first pass that is not accepted decides; a
// nextpass.in with a rejection, or one pass too many, is JE.
func TestMultiPass(t *testing.T) {
	t.Parallel()
	p := multiPassProblem(t)
	if p.Package.Validation.Passes != 4 {
		t.Fatalf("got %d passes, want 4", p.Package.Validation.Passes)
	}
	j := newJudge(t)
	const ok = `read p k x; echo $((x+1))`
	tests := []struct {
		test, sub string
		want      verdict.Verdict
		msg       string
		passes    []verdict.Verdict
		limit     time.Duration // the CPU limit, when not 10 s
		wall      time.Duration // the wall-clock limit, when not the default
	}{
		{"one", ok, verdict.AC, "pass 1 ok", []verdict.Verdict{verdict.AC}, 0, 0},
		{"three", ok, verdict.AC, "pass 1 ok | pass 2 ok | pass 3 ok", []verdict.Verdict{verdict.AC, verdict.AC, verdict.AC}, 0, 0},
		{"four", ok, verdict.AC, "pass 4 ok", []verdict.Verdict{verdict.AC, verdict.AC, verdict.AC, verdict.AC}, 0, 0},
		{"five", ok, verdict.JE, "asks for pass 5, but limits.validation_passes is 4", []verdict.Verdict{verdict.AC, verdict.AC, verdict.AC, verdict.JE}, 0, 0},
		{"wa-next", ok, verdict.JE, "wrote nextpass.in but did not accept", []verdict.Verdict{verdict.JE}, 0, 0},
		{"three", `read p k x; [ $k = 2 ] && echo 0 && exit; echo $((x+1))`, verdict.WA, "pass 1 ok | pass 2: got '0', want 12", []verdict.Verdict{verdict.AC, verdict.WA}, 0, 0},
		{"three", `read p k x; [ $k = 2 ] && exit 3; echo $((x+1))`, verdict.RE, "exit code 3", []verdict.Verdict{verdict.AC, verdict.RE}, 0, 0},
		{"three", `read p k x; [ $k = 3 ] && while :; do :; done; echo $((x+1))`, verdict.TLE, "CPU time", []verdict.Verdict{verdict.AC, verdict.AC, verdict.TLE}, time.Second, time.Minute},
		// nothing a pass writes in its working directory is left for the next
		{"three", `read p k x; test -e mark && { echo left; exit; }; touch mark || exit 4; echo $((x+1))`, verdict.AC, "pass 3 ok", []verdict.Verdict{verdict.AC, verdict.AC, verdict.AC}, 0, 0},
		// the limits hold for each pass: four passes of 2 s of sleep
		// under a wall-clock limit of 5 s (3 s to spare in each)
		{"four", `read p k x; sleep 2; echo $((x+1))`, verdict.AC, "pass 4 ok", []verdict.Verdict{verdict.AC, verdict.AC, verdict.AC, verdict.AC}, 0, 5 * time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.test+"/"+tt.sub, func(t *testing.T) {
			src := writeSource(t, "sub", "#!/bin/sh\n"+tt.sub+"\n")
			os.Chmod(src, 0o755)
			o := GradeOptions{Tests: testsNamed(t, p, "secret/"+tt.test), TimeLimit: 10 * time.Second, WallLimit: tt.wall}
			if tt.limit > 0 {
				o.TimeLimit = tt.limit
			}
			r, err := j.Grade(context.Background(), p, Submission{Path: src}, BuildOptions{}, o)
			if err != nil {
				t.Fatal(err)
			}
			got := r.Tests[0]
			if got.Verdict != tt.want || !strings.Contains(got.Message, tt.msg) {
				t.Errorf("got %v %q, want %v with %q", got.Verdict, got.Message, tt.want, tt.msg)
			}
			var passes []verdict.Verdict
			for _, p := range got.Passes {
				passes = append(passes, p.Verdict)
			}
			if !equalVerdicts(passes, tt.passes) {
				t.Errorf("got passes %v, want %v", passes, tt.passes)
			}
		})
	}
}

func equalVerdicts(a, b []verdict.Verdict) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestMultiPassRegrade regrades a multi-pass test under a lower limit: a
// pass before the last that ran over it ends the test there, TLE.
func TestMultiPassRegrade(t *testing.T) {
	t.Parallel()
	p := multiPassProblem(t)
	j := newJudge(t)
	src := writeSource(t, "sub", "#!/bin/sh\nread p k x; [ $k = 1 ] && { i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done; }; echo $((x+1))\n")
	os.Chmod(src, 0o755)
	o := GradeOptions{Tests: testsNamed(t, p, "secret/three"), TimeLimit: time.Minute, WallLimit: 2 * time.Minute}
	r, err := j.Grade(context.Background(), p, Submission{Path: src}, BuildOptions{}, o)
	if err != nil {
		t.Fatal(err)
	}
	if r.Verdict != verdict.AC || len(r.Tests[0].Passes) != 3 {
		t.Fatalf("got %v with %d passes, want AC with 3", r.Verdict, len(r.Tests[0].Passes))
	}
	first := time.Duration(r.Tests[0].Passes[0].TimeMS) * time.Millisecond
	if first == 0 {
		t.Skip("the first pass took under a millisecond of CPU: nothing to regrade")
	}
	out, err := j.Regrade(context.Background(), p, nil, r, first/2, 0)
	if err != nil {
		t.Fatal(err)
	}
	got := out.Tests[0]
	if got.Verdict != verdict.TLE || len(got.Passes) != 1 || got.Passes[0].Verdict != verdict.TLE {
		t.Errorf("got %v with passes %+v, want TLE on pass 1", got.Verdict, got.Passes)
	}
}

// talkValidator is an interactive multi-pass validator: pass K of a test
// whose input is "K X" sends "K X" and wants X+1 back; the answer says
// how many passes (and "flood": in pass 2 it then writes 3 MB, more than
// any pipe holds, before it reads).
const talkValidator = `#!/bin/sh
# input_file answer_file feedback_dir/ < submission's output > submission's input
test -e "$3/nextpass.in" && { echo "nextpass.in left from the last pass" >&2; exit 1; }
read k x < "$1"
read want mode < "$2"
echo "$k $x"
if [ "$mode" = flood ] && [ "$k" = 2 ]; then
	i=0
	while [ $i -lt 3000 ]; do printf '%01000d\n' 0; i=$((i+1)); done
fi
read got
if [ "$got" != "$((x+1))" ]; then echo "pass $k: got '$got', want $((x+1))" >> "$3/judgemessage.txt"; exit 43; fi
echo "pass $k ok" >> "$3/judgemessage.txt"
[ "$k" -lt "$want" ] && echo "$((k+1)) $((x+1))" > "$3/nextpass.in"
exit 42
`

// TestMultiPassInteractive runs an interactive multi-pass problem: each
// pass an interaction under problemtools' pipe rules, so a submission
// that leaves in a pass while the validator still writes is judged (WA
// from the validator), not JE.
func TestMultiPassInteractive(t *testing.T) {
	t.Parallel()
	p := writePackage(t, "talkpasses", map[string]string{
		"problem.yaml": "problem_format_version: 2025-09\ntype: [interactive, multi-pass]\nname: Talk\nuuid: 6c9e1b63-8d2f-4a9e-8e1b-3f7c4d5e6f70\n" +
			"license: cc0\nsource: optjudge tests\nlimits:\n  time_limit: 1\n  validation_passes: 3\n",
		"output_validator/run": talkValidator,
		"data/secret/three.in": "1 10\n", "data/secret/three.ans": "3\n",
		"data/secret/flood.in": "1 10\n", "data/secret/flood.ans": "3 flood\n",
	})
	j := newJudge(t)
	const ok = `read k x; echo $((x+1))`
	tests := []struct {
		test, sub string
		want      verdict.Verdict
		msg       string
		passes    []verdict.Verdict
	}{
		{"three", ok, verdict.AC, "pass 1 ok | pass 2 ok | pass 3 ok", []verdict.Verdict{verdict.AC, verdict.AC, verdict.AC}},
		{"flood", `read k x; [ $k = 2 ] && head -c 3003000 > /dev/null; echo $((x+1))`, verdict.AC, "pass 3 ok", []verdict.Verdict{verdict.AC, verdict.AC, verdict.AC}},
		{"three", `read k x; [ $k = 2 ] && echo 0 && exit; echo $((x+1))`, verdict.WA, "pass 2: got '0', want 12", []verdict.Verdict{verdict.AC, verdict.WA}},
		// pass 2: the submission leaves while the validator writes
		{"flood", `read k x; [ $k = 2 ] && exit 0; echo $((x+1))`, verdict.WA, "pass 2: got ''", []verdict.Verdict{verdict.AC, verdict.WA}},
		{"flood", `read k x; [ $k = 2 ] && exit 3; echo $((x+1))`, verdict.RE, "exit code 3", []verdict.Verdict{verdict.AC, verdict.RE}},
	}
	for _, tt := range tests {
		t.Run(tt.test+"/"+tt.sub, func(t *testing.T) {
			src := writeSource(t, "sub", "#!/bin/sh\n"+tt.sub+"\n")
			os.Chmod(src, 0o755)
			o := GradeOptions{Tests: testsNamed(t, p, "secret/"+tt.test), TimeLimit: 10 * time.Second}
			r, err := j.Grade(context.Background(), p, Submission{Path: src}, BuildOptions{}, o)
			if err != nil {
				t.Fatal(err)
			}
			got := r.Tests[0]
			if got.Verdict != tt.want || !strings.Contains(got.Message, tt.msg) {
				t.Errorf("got %v %q, want %v with %q", got.Verdict, got.Message, tt.want, tt.msg)
			}
			var passes []verdict.Verdict
			for _, p := range got.Passes {
				passes = append(passes, p.Verdict)
			}
			if !equalVerdicts(passes, tt.passes) {
				t.Errorf("got passes %v, want %v", passes, tt.passes)
			}
		})
	}
}

// TestMultiPassInteractiveStall: a pass whose submission and validator
// each wait for the other's input is TLE at once, as an interactive
// test's is (the stall watch serves every pass), under a wall limit of a
// minute.
func TestMultiPassInteractiveStall(t *testing.T) {
	t.Parallel()
	p := writePackage(t, "talkpasses", map[string]string{
		"problem.yaml": "problem_format_version: 2025-09\ntype: [interactive, multi-pass]\nname: Talk\nuuid: 7d0f2c74-9e3a-4b0f-9f2c-4a8d5e6f7a81\n" +
			"license: cc0\nsource: optjudge tests\nlimits:\n  time_limit: 1\n  validation_passes: 3\n",
		"output_validator/run": talkValidator,
		"data/secret/three.in": "1 10\n", "data/secret/three.ans": "3\n",
	})
	j := newJudge(t)
	// pass 2: it reads a second line, which the validator never sends
	src := writeSource(t, "sub", "#!/bin/sh\nread k x\n[ $k = 2 ] && read y\necho $((x+1))\n")
	os.Chmod(src, 0o755)
	o := GradeOptions{Tests: testsNamed(t, p, "secret/three"), TimeLimit: 10 * time.Second, WallLimit: time.Minute}
	start := time.Now()
	r, err := j.Grade(context.Background(), p, Submission{Path: src}, BuildOptions{}, o)
	if err != nil {
		t.Fatal(err)
	}
	took := time.Since(start)
	got := r.Tests[0]
	var passes []verdict.Verdict
	for _, p := range got.Passes {
		passes = append(passes, p.Verdict)
	}
	if got.Verdict != verdict.TLE || !strings.Contains(got.Message, "waiting for each other") ||
		!equalVerdicts(passes, []verdict.Verdict{verdict.AC, verdict.TLE}) {
		t.Errorf("got %v %q with passes %v, want TLE on pass 2, both waiting for each other", got.Verdict, got.Message, passes)
	}
	if took > 30*time.Second {
		if armed, _ := alarmsArmed(); armed {
			t.Skipf("took %s: an alarm(2) timer runs on this machine, so no stall can be declared", took)
		}
		t.Errorf("took %s: the stall was not seen", took)
	}
	t.Logf("%v in %s: %s", got.Verdict, took, got.Message)
}
