//go:build linux

package sandbox

import (
	"context"
	"os/exec"
	"testing"
	"time"
)

// BenchmarkRun measures the cost of one run of a program that does nothing,
// bare (os/exec fork, exec and wait) and at each isolation level.
func BenchmarkRun(b *testing.B) {
	bin := program(b, "ojtrue")
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
