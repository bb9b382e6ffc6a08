package judge

import (
	"context"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/optjudge/optjudge/problems"
	"github.com/optjudge/optjudge/verdict"
)

// echoPackage writes and loads a pass-fail package whose secret tests,
// named names, each have their name as input and answer.
func echoPackage(t *testing.T, name, uuid string, names ...string) *problems.Problem {
	files := map[string]string{
		"problem.yaml": "problem_format_version: 2023-07\nname: " + name + "\nuuid: " + uuid + "\nlicense: cc0\nsource: optjudge tests\n",
	}
	for _, n := range names {
		files["data/secret/"+n+".in"] = n + "\n"
		files["data/secret/"+n+".ans"] = n + "\n"
	}
	return writePackage(t, name, files)
}

// TestAsleepLendsRun grades, on a Judge of one run at a time and one test
// at a time, a submission that sleeps forever on three tests and sleeps a
// second before it answers on a fourth: each sleeper gives its run back
// and the next test starts beside it, so the three wall-limit waits
// overlap (one at a time, the last would end two wall limits after the
// first); the verdicts are those of one test at a time.
func TestAsleepLendsRun(t *testing.T) {
	t.Parallel()
	p := echoPackage(t, "sleep", "0c6f3e0a-5a4e-4b7e-9d59-2f0d8c1e3b71", "s1", "s2", "a1", "s3")
	j := newJudgeConfig(t, Config{MaxRuns: 1})
	src := writeSource(t, "sub", "#!/bin/sh\nread x\ncase $x in s*) exec sleep 600 ;; esac\nsleep 1\necho $x\n")
	os.Chmod(src, 0o755)
	const wall = 10 * time.Second
	var mu sync.Mutex
	ended := map[string]time.Time{}
	o := GradeOptions{Tests: testsNamed(t, p, "secret/s1", "secret/s2", "secret/a1", "secret/s3"), TimeLimit: time.Second, WallLimit: wall, Parallel: 1,
		Progress: func(tr TestResult) {
			mu.Lock()
			ended[tr.Name] = time.Now()
			mu.Unlock()
		}}
	r, err := j.Grade(context.Background(), p, Submission{Path: src}, BuildOptions{}, o)
	if err != nil {
		t.Fatal(err)
	}
	want := []verdict.Verdict{verdict.TLE, verdict.TLE, verdict.AC, verdict.TLE}
	if len(r.Tests) != len(want) {
		t.Fatalf("got %d tests, want %d", len(r.Tests), len(want))
	}
	for i, tr := range r.Tests {
		if tr.Verdict != want[i] {
			t.Errorf("%s: got %v %q, want %v", tr.Name, tr.Verdict, tr.Message, want[i])
		}
	}
	first, last := ended["secret/s1"], ended["secret/s3"]
	if first.IsZero() || last.IsZero() {
		t.Fatalf("ends seen: %v", ended)
	}
	if gap := last.Sub(first); gap >= wall {
		t.Errorf("the last sleeper ended %s after the first: they ran one at a time (the wall limit is %s)", gap, wall)
	}
	if j.lent.n != 0 || j.lent.memory != 0 || len(j.runs) != 0 {
		t.Errorf("after the grading: %d runs lent (%v), %d tokens held; want none", j.lent.n, j.lent.memory, len(j.runs))
	}
}

// TestThenTimeLimit grades, one test at a time, a submission that is fast
// on the first test and loops forever on the others, under a time limit
// of 4 s and a ThenTimeLimit of 1 s: the first two tests run under 4 s
// (CPU 4 s, or the wall clock's 9 s on a busy machine), and once the
// second has been TLE, the others under 1 s (or 3 s of wall clock).
func TestThenTimeLimit(t *testing.T) {
	t.Parallel()
	p := echoPackage(t, "loop", "1d7f4e1b-6b5f-4c8f-8e6a-3a1e9d2f4c82", "1", "2", "3", "4")
	j := newJudge(t)
	src := writeSource(t, "sub.c", "#include <stdio.h>\nint main(void) { int x; if (scanf(\"%d\", &x) == 1 && x == 1) { puts(\"1\"); return 0; } for (volatile int i = 0;; i++); }\n")
	o := GradeOptions{Tests: testsNamed(t, p, "secret/1", "secret/2", "secret/3", "secret/4"), TimeLimit: 4 * time.Second, ThenTimeLimit: time.Second, Parallel: 1}
	r, err := j.Grade(context.Background(), p, Submission{Path: src}, BuildOptions{}, o)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		v      verdict.Verdict
		limits []string
	}{
		{verdict.AC, nil},
		{verdict.TLE, []string{"over the 4s limit", "over the 9s limit"}},
		{verdict.TLE, []string{"over the 1s limit", "over the 3s limit"}},
		{verdict.TLE, []string{"over the 1s limit", "over the 3s limit"}},
	}
	if len(r.Tests) != len(want) {
		t.Fatalf("got %d tests, want %d", len(r.Tests), len(want))
	}
	for i, tr := range r.Tests {
		ok := tr.Verdict == want[i].v && (want[i].limits == nil || strings.Contains(tr.Message, want[i].limits[0]) || strings.Contains(tr.Message, want[i].limits[1]))
		if !ok {
			t.Errorf("%s: got %v %q, want %v %v", tr.Name, tr.Verdict, tr.Message, want[i].v, want[i].limits)
		}
	}
	if r.Verdict != verdict.TLE || r.Limits.Time != 4*time.Second {
		t.Errorf("got %v under %v, want TLE under the time limit, 4s", r.Verdict, r.Limits.Time)
	}
}

// TestThenTimeLimitBeside grades two tests at a time under a time limit
// of 3 s and a ThenTimeLimit of 0.5 s, a submission that answers "a" tests
// at once, "s" tests after 1.2 s of CPU time and loops for ever on "l"
// tests: one test at a time runs under 3 s, the others beside it under
// 0.5 s; a test TLE under 0.5 s while none has been TLE under 3 s runs
// again under 3 s, its result replacing the first, so the report has a
// TLE only beside one over 3 s, and none when no test is over 3 s.
func TestThenTimeLimitBeside(t *testing.T) {
	t.Parallel()
	p := echoPackage(t, "beside", "8c2e41d7-93a5-4f0b-b6de-5a7c0e9f1d24", "a1", "s1", "s2", "l1", "l2", "l3")
	j := newJudgeConfig(t, Config{MaxRuns: 2})
	src := writeSource(t, "sub.c", "#include <stdio.h>\n#include <time.h>\n"+
		"int main(void) { char s[9]; if (scanf(\"%8s\", s) != 1) return 1;\n"+
		"if (s[0] == 's') while (clock() < 6 * CLOCKS_PER_SEC / 5);\n"+
		"if (s[0] == 'l') for (volatile int i = 0;; i++);\n"+
		"puts(s); return 0; }\n")
	overRaised := func(tr TestResult) bool {
		return tr.Verdict == verdict.TLE && strings.Contains(tr.Message, "over the 3s limit")
	}
	overThen := func(tr TestResult) bool {
		return tr.Verdict == verdict.TLE && (strings.Contains(tr.Message, "over the 0.5s limit") || strings.Contains(tr.Message, "over the 2s limit"))
	}
	for _, tt := range []struct {
		name  string
		tests []string
		want  verdict.Verdict
		check func(t *testing.T, r *Report)
	}{
		// the old rule ran a1 and l1 under 3 s at once, then l2 under 3 s
		// beside l1: two tests over 3 s
		{"one-over-raised", []string{"a1", "l1", "l2", "l3"}, verdict.TLE, func(t *testing.T, r *Report) {
			raised := 0
			for _, tr := range r.Tests[1:] {
				switch {
				case overRaised(tr):
					raised++
				case !overThen(tr):
					t.Errorf("%s: got %v %q, want TLE over 3s or 0.5s", tr.Name, tr.Verdict, tr.Message)
				}
			}
			if raised != 1 {
				t.Errorf("%d tests ran over the 3s limit, want 1", raised)
			}
		}},
		// l1, TLE under 0.5 s beside s1, runs again under 3 s
		{"again-over-raised", []string{"s1", "l1"}, verdict.TLE, func(t *testing.T, r *Report) {
			if tr := r.Tests[1]; !overRaised(tr) {
				t.Errorf("l1: got %v %q, want TLE over the 3s limit", tr.Verdict, tr.Message)
			}
		}},
		// s2, TLE under 0.5 s beside s1, runs again under 3 s: AC
		{"again-within-raised", []string{"s1", "s2"}, verdict.AC, func(t *testing.T, r *Report) {
			at, err := j.Regrade(context.Background(), p, nil, r, 500*time.Millisecond, 0)
			if err != nil {
				t.Fatal(err)
			}
			for _, tr := range at.Tests {
				if !overThen(tr) {
					t.Errorf("%s regraded to 0.5s: got %v %q, want TLE", tr.Name, tr.Verdict, tr.Message)
				}
			}
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if testing.Short() && tt.name != "again-within-raised" {
				t.Skip("-short: loops under the raised 3s limit; again-within-raised runs a test again under it, TestThenTimeLimit loops under both limits")
			}
			var names []string
			for _, n := range tt.tests {
				names = append(names, "secret/"+n)
			}
			o := GradeOptions{Tests: testsNamed(t, p, names...), TimeLimit: 3 * time.Second, ThenTimeLimit: 500 * time.Millisecond,
				WallLimit: time.Minute, Parallel: 2}
			r, err := j.Grade(context.Background(), p, Submission{Path: src}, BuildOptions{}, o)
			if err != nil {
				t.Fatal(err)
			}
			if len(r.Tests) != len(tt.tests) {
				t.Fatalf("got %d tests, want %d", len(r.Tests), len(tt.tests))
			}
			for _, tr := range r.Tests {
				t.Logf("%s: %v %s", tr.Name, tr.Verdict, tr.Message)
				if tr.Name[len("secret/")] != 'l' && tr.Verdict != verdict.AC {
					t.Errorf("%s: got %v %q, want AC", tr.Name, tr.Verdict, tr.Message)
				}
			}
			if r.Verdict != tt.want {
				t.Errorf("got %v, want %v", r.Verdict, tt.want)
			}
			tt.check(t, r)
		})
	}
}

// TestSleepWallLimit: a test's run that sleeps past SleepWallLimit is TLE
// there, not at its wall limit, and stays TLE regraded to a lower limit
// whose wall limit SleepWallLimit meets.
func TestSleepWallLimit(t *testing.T) {
	t.Parallel()
	p := echoPackage(t, "sleeper", "5b0c8f6e-2f1d-4a47-9d3c-7e8a1f2b9c64", "1", "2")
	j := newJudge(t)
	src := writeSource(t, "sub.c", "#include <stdio.h>\n#include <unistd.h>\nint main(void) { int x; if (scanf(\"%d\", &x) == 1 && x == 1) { puts(\"1\"); return 0; } for (;;) pause(); }\n")
	o := GradeOptions{Tests: testsNamed(t, p, "secret/1", "secret/2"), TimeLimit: 2 * time.Second, WallLimit: time.Minute,
		SleepWallLimit: DefaultWallLimit(time.Second), Parallel: 1}
	r, err := j.Grade(context.Background(), p, Submission{Path: src}, BuildOptions{}, o)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Tests) != 2 || r.Tests[0].Verdict != verdict.AC {
		t.Fatalf("got %+v, want secret/1 AC and secret/2", r.Tests)
	}
	slept := r.Tests[1]
	if slept.Verdict != verdict.TLE || !strings.Contains(slept.Message, "over the 3s limit of a run that sleeps") || slept.WallMS >= time.Minute.Milliseconds() {
		t.Errorf("secret/2: got %v %q after %d ms, want TLE at the 3s limit of a run that sleeps", slept.Verdict, slept.Message, slept.WallMS)
	}
	at, err := j.Regrade(context.Background(), p, nil, r, time.Second, 0)
	if err != nil {
		t.Fatal(err)
	}
	if v, msg := at.Tests[1].Verdict, at.Tests[1].Message; v != verdict.TLE || !strings.Contains(msg, "wall time over the 3s limit (CPU") {
		t.Errorf("regraded to 1s: got %v %q, want TLE over the 3s wall limit", v, msg)
	}
}
