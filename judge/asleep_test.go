package judge

import (
	"context"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/optjudge/optjudge/judge/verdict"
)

// TestAsleepLendsRun grades, on a Judge of one run at a time and one test
// at a time, a submission that sleeps forever on three tests and sleeps a
// second before it answers on a fourth: each sleeper gives its run back
// and the next test starts beside it, so the three wall-limit waits
// overlap (one at a time, the last would end two wall limits after the
// first); the verdicts are those of one test at a time.
func TestAsleepLendsRun(t *testing.T) {
	files := map[string]string{
		"problem.yaml": "problem_format_version: 2023-07\nname: Sleep\nuuid: 0c6f3e0a-5a4e-4b7e-9d59-2f0d8c1e3b71\n" +
			"license: cc0\nsource: optjudge tests\n",
	}
	names := []string{"s1", "s2", "a1", "s3"}
	for _, name := range names {
		files["data/secret/"+name+".in"] = name + "\n"
		files["data/secret/"+name+".ans"] = name + "\n"
	}
	p := writePackage(t, "sleep", files)
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
