package main

import (
	"testing"
	"time"

	"github.com/optjudge/optjudge/judge/maintain"
	"github.com/optjudge/optjudge/verdict"
)

// TestSubmissionLine: an accepted submission's line says how thin its
// margin is, as its slowest test's share of the time limit.
func TestSubmissionLine(t *testing.T) {
	t.Parallel()
	tests := []struct {
		s    maintain.SubmissionResult
		want string
	}{
		{maintain.SubmissionResult{Path: "p/submissions/accepted/ida.cpp", Want: verdict.AC, Got: verdict.AC, OK: true,
			Test: "secret/20-deep-13-8", Slowest: 2389 * time.Millisecond, TimeLimit: 15 * time.Second},
			"ok  AC (want AC) p/submissions/accepted/ida.cpp, slowest 2389ms on secret/20-deep-13-8, 16% of the 15s limit"},
		{maintain.SubmissionResult{Path: "p/submissions/accepted/bfs.go", Want: verdict.AC, Got: verdict.AC, OK: true,
			Test: "secret/1", Slowest: 44 * time.Millisecond, TimeLimit: time.Second},
			"ok  AC (want AC) p/submissions/accepted/bfs.go, slowest 44ms on secret/1, 4.4% of the 1s limit"},
		{maintain.SubmissionResult{Path: "p/submissions/time_limit_exceeded/slow.py", Want: verdict.TLE, Got: verdict.AC,
			Test: "secret/2", Slowest: 1200 * time.Millisecond, TimeLimit: 1875 * time.Millisecond},
			"BAD AC (want TLE) p/submissions/time_limit_exceeded/slow.py, slowest 1200ms on secret/2"},
		{maintain.SubmissionResult{Path: "p/submissions/wrong_answer/w.py", Want: verdict.WA, Got: verdict.WA, OK: true,
			Test: "sample/1", Message: "case 1: wrong", TimeLimit: time.Second},
			"ok  WA (want WA) p/submissions/wrong_answer/w.py on sample/1: case 1: wrong"},
		{maintain.SubmissionResult{Path: "p/submissions/partially_accepted/sol.py", Expect: "AC, partially", Got: verdict.AC, OK: true,
			Scored: true, Score: 50, Test: "secret/a/1", Slowest: 12 * time.Millisecond, TimeLimit: time.Second},
			"ok  AC 50 (want AC, partially) p/submissions/partially_accepted/sol.py, slowest 12ms on secret/a/1, 1.2% of the 1s limit"},
	}
	for _, tt := range tests {
		if got := submissionLine(tt.s); got != tt.want {
			t.Errorf("got  %q\nwant %q", got, tt.want)
		}
	}
}
