package judge

import (
	"context"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/optjudge/optjudge/problems"
	"github.com/optjudge/optjudge/verdict"
)

// BenchmarkGradeRotationGame grades the C++ accepted table solution of
// rotation-game over the problem's whole testdata (27 files), built once
// outside the loop, so the figure is the judge's running and checking.
func BenchmarkGradeRotationGame(b *testing.B) {
	for _, src := range []string{"bfs_table.cpp", "ida_star.cpp"} {
		b.Run(src, func(b *testing.B) {
			p, err := problems.LoadEmbedded("rotation-game")
			if err != nil {
				b.Fatal(err)
			}
			exe := filepath.Join(b.TempDir(), "sol")
			out, err := exec.Command("g++", "-O2", "-std=gnu++17", "-o", exe,
				"../problems/rotation-game/submissions/accepted/"+src).CombinedOutput()
			if err != nil {
				b.Fatalf("g++: %v\n%s", err, out)
			}
			j := newJudge(b)
			for b.Loop() {
				r, err := j.Grade(context.Background(), p, Submission{Path: exe}, BuildOptions{}, parallel())
				if err != nil {
					b.Fatal(err)
				}
				if r.Verdict != verdict.AC {
					b.Fatalf("got %v, want AC", r.Verdict)
				}
			}
		})
	}
}
