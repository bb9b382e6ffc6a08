package service

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/optjudge/optjudge/judge"
	"github.com/optjudge/optjudge/judge/sandbox"
	"github.com/optjudge/optjudge/problems"
)

// BenchmarkService is submissions per second through the whole service
// (POST, queue, one worker, judging stored, seen done by GET), on a
// program that is WA on the first test; BenchmarkGradeLoop is Judge.Grade
// in a loop on the same submissions. The difference is the service's own
// cost per submission.
func BenchmarkService(b *testing.B)        { benchService(b, false) }
func BenchmarkServiceCluster(b *testing.B) { benchService(b, true) }

// benchEnv is an embedded server, or a three-node cluster with every
// stream replicated three times.
func benchEnv(b *testing.B, clustered bool) *env {
	if !clustered {
		return newEnv(b, envOpts{})
	}
	c := startCluster(b)
	testReplicas[c.urls] = 3
	e := &env{t: b}
	e.connect(ConnConfig{URLs: c.urls}, envOpts{})
	return e
}

func benchService(b *testing.B, clustered bool) {
	e := benchEnv(b, clustered)
	e.startWorker("bench", newEngine(b, false))
	src := readFile(b, "wa.py")
	i := 0
	var grading time.Duration
	for b.Loop() {
		i++
		id := e.submit("clocks", "wa.py", fmt.Sprintf("%s# %d\n", src, i))
		j := e.waitDone(time.Minute, id)[id].Judgings[0]
		grading += j.FinishedAt.Sub(j.StartedAt)
	}
	b.ReportMetric(float64(grading.Microseconds())/float64(i)/1000, "ms-grading/op")
}

func BenchmarkGradeLoop(b *testing.B) {
	p, err := problems.LoadEmbedded("clocks")
	if err != nil {
		b.Fatal(err)
	}
	j, err := judge.New(judge.Config{Sandbox: sandbox.Options{FirstUID: firstBoxUID + 380}, TempDir: b.TempDir(), Path: os.Getenv("PATH")})
	if err != nil {
		b.Fatal(err)
	}
	defer j.Close()
	dir := b.TempDir()
	src := readFile(b, "wa.py")
	i := 0
	for b.Loop() {
		i++
		path := filepath.Join(dir, fmt.Sprintf("s%d.py", i))
		os.WriteFile(path, fmt.Appendf(nil, "%s# %d\n", src, i), 0o644)
		if _, err := j.Grade(context.Background(), p, judge.Submission{Path: path}, judge.BuildOptions{}, judge.GradeOptions{Lazy: true}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkQueueWait is the time from POST to a worker's start at rest
// (one idle worker), from the judgings' own timestamps.
func BenchmarkQueueWait(b *testing.B) {
	e := newEnv(b, envOpts{})
	e.startWorker("bench", newEngine(b, false))
	var total time.Duration
	n := 0
	for b.Loop() {
		n++
		id := e.submit("clocks", "wa.py", fmt.Sprintf("print(%d)\n", n))
		v := e.waitDone(time.Minute, id)[id]
		total += v.Judgings[0].StartedAt.Sub(v.CreatedAt)
	}
	b.ReportMetric(float64(total.Microseconds())/float64(n)/1000, "ms-wait/op")
}

// BenchmarkRejudgeCached rejudges 100 C++ submissions (distinct sources)
// after their first grading: the builds come from the executable cache.
// Compare its time per op with BenchmarkFirstGradingCpp's.
func BenchmarkRejudgeCached(b *testing.B)          { benchCpp(b, true, false) }
func BenchmarkFirstGradingCpp(b *testing.B)        { benchCpp(b, false, false) }
func BenchmarkRejudgeCachedCluster(b *testing.B)   { benchCpp(b, true, true) }
func BenchmarkFirstGradingCppCluster(b *testing.B) { benchCpp(b, false, true) }

func benchCpp(b *testing.B, rejudge, clustered bool) {
	e := benchEnv(b, clustered)
	eng := newEngine(b, false).(*engine)
	eng.cfg.Executables = e.store.Executables
	e.startWorker("bench", eng)
	src := readFile(b, "wa.cpp")
	round := 0
	submitAll := func() []string {
		round++
		var ids []string
		for i := range 100 {
			ids = append(ids, e.submit("clocks", "a.cpp", fmt.Sprintf("%s// %d %d\n", src, round, i)))
		}
		return ids
	}
	ids := submitAll()
	e.waitDone(5*time.Minute, ids...)
	for b.Loop() {
		if !rejudge {
			e.waitDone(5*time.Minute, submitAll()...)
			continue
		}
		if code := e.do("POST", "/api/v1/problems/clocks/rejudge", nil, nil, nil); code != 202 {
			b.Fatalf("rejudge: %d", code)
		}
		for _, id := range ids {
			e.waitDone(5*time.Minute, id)
		}
	}
}
