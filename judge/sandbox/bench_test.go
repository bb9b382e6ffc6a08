//go:build linux

package sandbox

import (
	"context"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// BenchmarkRun measures the cost of one run of a program that does nothing,
// bare (os/exec fork, exec and wait) and at each isolation level.
func BenchmarkRun(b *testing.B) {
	bin := staticProgram(b, "ojtrue")
	b.Run("bare", func(b *testing.B) {
		for b.Loop() {
			if err := exec.Command(bin).Run(); err != nil {
				b.Fatal(err)
			}
		}
	})
	for _, level := range levels {
		b.Run(level, func(b *testing.B) {
			sb := useBox(b, level)
			c := &Cmd{Path: bin, Dir: b.TempDir(), Limits: Limits{CPU: time.Second}}
			for b.Loop() {
				res, err := sb.Run(context.Background(), c)
				if err != nil || res.Status != OK {
					b.Fatalf("got %v, %v", res, err)
				}
			}
		})
	}
}

// BenchmarkRunSteps shows where a run's time goes: for each step the judge
// and the supervisor trace (and "prog:main", when the program's main
// started), the median time from the call of Run, as metric "us@STEP" in
// microseconds. Tracing itself costs a little at every step.
func BenchmarkRunSteps(b *testing.B) {
	bin := staticProgram(b, "ojstamp")
	for i, level := range levels {
		b.Run(level, func(b *testing.B) {
			useBox(b, level)
			sb, err := New(Options{Isolation: level, CacheDir: testCache, FirstUID: testUID + 700 + 10*i, trace: true})
			if err != nil {
				b.Fatal(err)
			}
			defer sb.Close()
			c := &Cmd{Path: bin, Dir: b.TempDir(), Limits: Limits{CPU: time.Second}}
			at := map[string][]float64{}
			for b.Loop() {
				res, err := sb.Run(context.Background(), c)
				if err != nil || res.Status != OK {
					b.Fatalf("got %v, %v", res, err)
				}
				steps := map[string]int64{}
				for _, line := range append(res.trace, strings.TrimSpace(string(res.Stdout))) {
					us, step, _ := strings.Cut(line, " ")
					steps[step], _ = strconv.ParseInt(us, 10, 64)
				}
				for step, t := range steps {
					at[step] = append(at[step], float64(t-steps["judge:run"]))
				}
			}
			for step, ts := range at {
				slices.Sort(ts)
				b.ReportMetric(ts[len(ts)/2], "us@"+step)
			}
		})
	}
}
