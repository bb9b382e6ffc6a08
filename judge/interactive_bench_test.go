package judge

import (
	"context"
	"os"
	"syscall"
	"testing"
	"time"

	"github.com/optjudge/optjudge/problems"
	"github.com/optjudge/optjudge/verdict"
)

// BenchmarkInteractive measures what the stall watch costs normal
// interactive runs, with it ("watch") and without it ("off":
// noStallWatch), side by side:
//
//   - guess: the accepted bisect.c of the test package guess-interactive
//     on all its tests, a quick exchange of a few lines per test: the
//     watch's ticker and its CPU reads, hardly a look at /proc;
//   - pause: one test whose validator sleeps a second (nanosleep) before
//     it talks, while the submission waits reading: the watch looks at
//     /proc every 100 ms and finds no stall.
//
// ns/op is the wall time of a grading; judge-cpu-ms/op the judge's own
// CPU time (getrusage(RUSAGE_SELF): the watch runs in the judge).
func BenchmarkInteractive(b *testing.B) {
	guess, err := problems.LoadDir("../problems/testdata/guess-interactive")
	if err != nil {
		b.Fatal(err)
	}
	pause := writePackage(b, "pause", map[string]string{
		"problem.yaml": "problem_format_version: 2023-07\ntype: interactive\nname: Pause\nuuid: 8e1a3d85-af4b-4c1a-a03d-5b9e6f7a8b92\n" +
			"license: cc0\nsource: optjudge tests\nlimits:\n  time_limit: 1\n  validation_time: 10\n",
		"output_validator/run": stallInteractor,
		"data/secret/late.in":  "late\n", "data/secret/late.ans": "",
	})
	echo := writeSource(b, "echo", "#!/bin/sh\nread x\necho \"$x\"\n")
	os.Chmod(echo, 0o755)
	j := newJudge(b)
	cases := []struct {
		name string
		p    *problems.Problem
		sub  string
	}{
		{"guess", guess, "../problems/testdata/guess-interactive/submissions/accepted/bisect.c"},
		{"pause", pause, echo},
	}
	for _, c := range cases {
		pp, err := j.Prepare(context.Background(), Submission{Path: c.sub}, BuildOptions{})
		if err != nil {
			b.Fatal(err)
		}
		defer pp.Close()
		for _, mode := range []string{"watch", "off"} {
			b.Run(c.name+"/"+mode, func(b *testing.B) {
				noStallWatch = mode == "off"
				defer func() { noStallWatch = false }()
				cpu := judgeCPU()
				for b.Loop() {
					r, err := pp.Grade(context.Background(), c.p, GradeOptions{TimeLimit: 10 * time.Second})
					if err != nil {
						b.Fatal(err)
					}
					if r.Verdict != verdict.AC {
						b.Fatalf("got %v: %+v", r.Verdict, r.Tests)
					}
				}
				b.ReportMetric(float64((judgeCPU()-cpu).Microseconds())/1000/float64(b.N), "judge-cpu-ms/op")
			})
		}
	}
}

// judgeCPU is the judge process's own CPU time so far.
func judgeCPU() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
