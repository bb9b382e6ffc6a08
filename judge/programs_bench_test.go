package judge

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/optjudge/optjudge/checkers"
	"github.com/optjudge/optjudge/judge/sandbox"
	"github.com/optjudge/optjudge/problems"
	"github.com/optjudge/optjudge/verdict"
)

// BenchmarkProgramCheck measures the cost per test of a problem's output
// validator (a small C++ Kattis validator that reads the team's output
// and accepts): run in its box (the programs' sandbox: a box of its own,
// its build and the test's input and answer read-only, its feedback
// directory writable, validation_time, validation_memory and
// validation_output as the box's limits) against the same program run
// unboxed, as every validator ran before (proc: a process group, a
// timeout, an address-space limit), alternated check by check:
//
//	go test ./judge -run '^$' -bench ProgramCheck -benchtime 200x -count 5
func BenchmarkProgramCheck(b *testing.B) {
	if _, err := os.Stat("/usr/bin/g++"); err != nil {
		b.Skip("g++ is not installed")
	}
	dir := filepath.Join(b.TempDir(), "bench")
	for name, content := range map[string]string{
		"problem.yaml":                      "problem_format_version: legacy\nname: bench\nvalidation: custom\n",
		"output_validators/check/check.cpp": "#include <iostream>\n#include <string>\nint main(){std::string s;while(std::cin>>s){}return 42;}\n",
		"data/secret/1.in":                  "1 2\n",
		"data/secret/1.ans":                 "3\n",
	} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	p, err := problems.LoadDir(dir)
	if err != nil {
		b.Fatal(err)
	}
	j, err := New(Config{Sandbox: sandbox.Options{FirstUID: firstBoxUID}, TempDir: b.TempDir(), Path: os.Getenv("PATH")})
	if err != nil {
		b.Fatal(err)
	}
	defer j.Close()
	chk, err := j.Checker(context.Background(), p, nil)
	if err != nil {
		b.Fatal(err)
	}
	boxed := chk.(*checkers.External)
	unboxed := *boxed
	unboxed.Runner = nil
	files := checkers.Files{Input: []byte("1 2\n"), Output: []byte("3\n"), Answer: []byte("3\n")}
	b.Logf("isolation %s", j.Isolation())
	// one check of each a loop, alternated, so that a shared machine's
	// load weighs on both alike; the figures are the means
	var took [2]time.Duration
	for b.Loop() {
		for k, x := range []*checkers.External{&unboxed, boxed} {
			start := time.Now()
			r, err := x.Check(context.Background(), files)
			took[k] += time.Since(start)
			if err != nil || r.Verdict != verdict.AC {
				b.Fatalf("got %+v, %v, want AC", r, err)
			}
		}
	}
	n := float64(b.N)
	b.ReportMetric(float64(took[0].Microseconds())/1000/n, "ms-unboxed/check")
	b.ReportMetric(float64(took[1].Microseconds())/1000/n, "ms-boxed/check")
	b.ReportMetric(float64(took[1])/float64(took[0]), "boxed/unboxed")
}
