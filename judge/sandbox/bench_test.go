//go:build linux

package sandbox

import (
	"context"
	"os"
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

// BenchmarkProbeWaiting measures one Probe.Waiting look at a run asleep
// reading its input pipe (cat): the cost of one of the stall watch's looks
// at a side (it takes four per look at an interaction, two per side), and
// the share of looks that saw it waiting.
func BenchmarkProbeWaiting(b *testing.B) {
	for _, level := range levels {
		b.Run(level, func(b *testing.B) {
			sb := useBox(b, level)
			inR, inW, err := os.Pipe()
			if err != nil {
				b.Fatal(err)
			}
			defer inR.Close()
			outR, outW, err := os.Pipe()
			if err != nil {
				b.Fatal(err)
			}
			defer outR.Close()
			defer outW.Close()
			p := &Probe{}
			done := make(chan struct{})
			go func() {
				defer close(done)
				sb.Run(context.Background(), &Cmd{Path: "cat", Dir: b.TempDir(), StdinPipe: inR, StdoutPipe: outW, Probe: p,
					Limits: Limits{CPU: 5 * time.Second, Wall: time.Minute}})
			}()
			for end := time.Now().Add(20 * time.Second); ; time.Sleep(10 * time.Millisecond) {
				if _, ok := p.Waiting(); ok {
					break
				}
				if time.Now().After(end) {
					b.Fatal("cat never seen waiting")
				}
			}
			seen := 0
			for b.Loop() {
				if _, ok := p.Waiting(); ok {
					seen++
				}
			}
			// a look may miss now and then (wchan reads 0 for a moment,
			// or a process passes through the box): the watch looks again
			b.ReportMetric(float64(seen)/float64(b.N), "seen/op")
			inW.Close()
			<-done
		})
	}
}
