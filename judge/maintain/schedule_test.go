package maintain

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/optjudge/optjudge/judge"
)

// TestVerifyLongRunsFirst: once the time limit is known, the
// time-limit-exceeded submission, whose run to the raised limit is the
// longest, is graded before the others (one at a time here): at once when
// the problem gives the limit, ahead of the accepted submission; right
// after the accepted one when the limit is derived from it. The report
// keeps the order of the submissions.
func TestVerifyLongRunsFirst(t *testing.T) {
	t.Parallel()
	subs := map[string]string{
		"submissions/run_time_error/crash.py":     "raise SystemExit(3)\n",
		"submissions/time_limit_exceeded/spin.py": "while True:\n    pass\n",
	}
	tests := []struct {
		name   string
		files  map[string]string
		graded []string // the order the gradings start in
	}{
		{"limit given", with(sumFiles(), subs),
			[]string{"time_limit_exceeded/spin.py", "accepted/sum.py", "run_time_error/crash.py"}},
		{"limit derived", echoData(with(subs, map[string]string{
			"problem.yaml":                 "problem_format_version: 2023-07\nname: Order\nuuid: 1\n",
			"submissions/accepted/echo.py": "print(input())\n",
		})), []string{"accepted/echo.py", "time_limit_exceeded/spin.py", "run_time_error/crash.py"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := writeProblem(t, "order", tt.files)
			var graded, reported []string
			rep, err := Verify(context.Background(), p, VerifyOptions{Judge: testJudge(t), Grade: gradeOptions(), Jobs: 1,
				Progress: func(step string) {
					if rel, ok := strings.CutPrefix(step, "grading submissions/"); ok {
						graded = append(graded, rel)
					}
				},
				Graded: func(s SubmissionResult) {
					rel, _ := filepath.Rel(filepath.Join(p.Package.Origin, "submissions"), s.Path)
					reported = append(reported, rel)
				},
			})
			if err != nil {
				t.Fatal(err)
			}
			if rep.Errors() > 0 {
				t.Errorf("got findings\n%s\nwant no errors", findings(rep))
			}
			if !slices.Equal(graded, tt.graded) {
				t.Errorf("got gradings in the order %q, want %q", graded, tt.graded)
			}
			want := slices.Clone(tt.graded)
			slices.Sort(want)
			if !slices.Equal(reported, want) {
				t.Errorf("got the submissions reported in the order %q, want %q", reported, want)
			}
		})
	}
}

// buildBegun is a stepHook that holds the step hold until an example
// submission's build has begun: one that fails if the builds wait for the
// checks of the tests.
func buildBegun(t *testing.T, hold string, then func()) func(string) {
	began := make(chan struct{})
	var once sync.Once
	return func(step string) {
		switch {
		case strings.HasPrefix(step, "building submissions/"):
			once.Do(func() { close(began) })
		case step == hold:
			// a guard against a deadlock, no measure: the build
			// begins as Verify does
			select {
			case <-began:
			case <-time.After(time.Minute):
				t.Errorf("no example submission began building before %q", hold)
			}
			if then != nil {
				then()
			}
		}
	}
}

// TestVerifyBuildsBesideChecks: the example submissions build from the
// start, beside the checks of the tests, and a Verify that stops early
// (a checker that does not build, ctx ended) stops and removes them.
func TestVerifyBuildsBesideChecks(t *testing.T) {
	t.Parallel()
	j, err := judge.New(judge.Config{Path: os.Getenv("PATH")})
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	before := entries(t, j.TempDir())
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	tests := []struct {
		name  string
		files map[string]string
		ctx   context.Context
		hook  func(string)
		err   error
	}{
		{"whole", sumFiles(), context.Background(), buildBegun(t, "checking the answers", nil), nil},
		{"checker does not build", with(sumFiles(), map[string]string{
			"problem.yaml": "name: sum\ntitle: Sum\nchecker:\n  program: check.cpp\n", "check.cpp": "int main() { return nope; }\n"}),
			context.Background(), buildBegun(t, "building the checker", nil), nil},
		{"ctx ended", sumFiles(), ctx, buildBegun(t, "checking the answers", cancel), context.Canceled},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := writeProblem(t, "sum", tt.files)
			_, err := Verify(tt.ctx, p, VerifyOptions{Judge: j, Grade: gradeOptions(), stepHook: tt.hook})
			if !errors.Is(err, tt.err) {
				t.Fatalf("got %v, want %v", err, tt.err)
			}
			if left := entries(t, j.TempDir()); !slices.Equal(left, before) {
				t.Errorf("got %q in the judge's temporary directory, want %q: builds left behind", left, before)
			}
		})
	}
}

func entries(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return names
}
