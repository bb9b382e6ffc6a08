package maintain

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/optjudge/optjudge/judge"
	"github.com/optjudge/optjudge/judge/verdict"
	"github.com/optjudge/optjudge/problems"
	"github.com/optjudge/optjudge/reference"
)

func embedded(t *testing.T, name string) *problems.Problem {
	t.Helper()
	p, err := problemsEmbedded(name)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func problemsEmbedded(name string) (*problems.Problem, error) { return problems.LoadEmbedded(name) }

// TestStressShrinksToShallowestDepth: a search capped at 12 moves fails
// only on boards 13 moves or more from the goal, so the shrunk input must be
// one board exactly 13 moves away. The same for clocks, capped at 5.
func TestStressShrinksToShallowestDepth(t *testing.T) {
	tests := []struct {
		problem, sub string
		cases, want  int
	}{
		{"eight-puzzle", "testdata/eight_capped.py", 5, 13},
		{"clocks", "testdata/clocks_capped.py", 1, 6},
	}
	for _, tt := range tests {
		t.Run(tt.problem, func(t *testing.T) {
			p := embedded(t, tt.problem)
			res, err := Stress(context.Background(), p, judge.Submission{Path: tt.sub},
				StressOptions{Judge: testJudge(t), Grade: gradeOptions(), Count: 20, Cases: tt.cases, Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			f := res.Failure
			if f == nil {
				t.Fatalf("got no failure in %d tests, want one", res.Tests)
			}
			tools, _ := reference.ToolsFor(tt.problem)
			depth, err := tools.Depth(f.Shrunk)
			if err != nil {
				t.Fatalf("shrunk to an invalid input %q: %v", f.Shrunk, err)
			}
			if f.Cases != 1 || f.Depth != tt.want || depth != tt.want || f.ShrunkVerdict != verdict.WA {
				t.Errorf("got %d cases at depth %d (%d by the reference), %v, want 1 case at depth %d, WA:\n%s",
					f.Cases, f.Depth, depth, f.ShrunkVerdict, tt.want, f.Shrunk)
			}
			if f.Index < 1 || f.Index > res.Tests || f.ShrunkMessage == "" || len(f.ShrunkAnswer) == 0 {
				t.Errorf("got failure %+v, want its test number, message and answer", f)
			}
		})
	}
}

// TestStressFewestCases: a program that fails (RE) only on three cases or
// more shrinks to exactly three.
func TestStressFewestCases(t *testing.T) {
	p := embedded(t, "eight-puzzle")
	res, err := Stress(context.Background(), p, judge.Submission{Path: "testdata/crash_on_three.py"},
		StressOptions{Judge: testJudge(t), Grade: gradeOptions(), Count: 5, Cases: 12, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	f := res.Failure
	if f == nil || f.Index != 1 || f.Cases != 3 || f.ShrunkVerdict != verdict.RE || strings.Count(string(f.Shrunk), "\n") != 3 {
		t.Fatalf("got %+v, want test 1 shrunk to 3 cases, RE", f)
	}
}

func TestStressAllAccepted(t *testing.T) {
	p := embedded(t, "clocks")
	res, err := Stress(context.Background(), p, judge.Submission{Path: "../../problems/clocks/submissions/accepted/three_moves.py"},
		StressOptions{Judge: testJudge(t), Grade: gradeOptions(), Count: 10, Kind: reference.Deep, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	if res.Failure != nil || res.Tests != 10 || !res.Compile.OK {
		t.Errorf("got %+v, want 10 accepted tests", res)
	}
}

func TestStressCompileError(t *testing.T) {
	src := filepath.Join(t.TempDir(), "ce.cpp")
	os.WriteFile(src, []byte("int main() { return nope; }\n"), 0o644)
	res, err := Stress(context.Background(), embedded(t, "clocks"), judge.Submission{Path: src},
		StressOptions{Judge: testJudge(t), Grade: gradeOptions(), Count: 3})
	if err != nil {
		t.Fatal(err)
	}
	if res.Compile.OK || res.Tests != 0 {
		t.Errorf("got %+v, want a compilation error and no test", res)
	}
}

func TestStressErrors(t *testing.T) {
	sub := judge.Submission{Path: "testdata/clocks_capped.py"}
	if _, err := Stress(context.Background(), embedded(t, "clocks"), sub, StressOptions{Kind: "all"}); err == nil {
		t.Error("got no error for kind all")
	}
	p, err := problems.LoadDir("../../problems/sum-kattis")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Stress(context.Background(), p, sub, StressOptions{}); err == nil || !strings.Contains(err.Error(), "no reference") {
		t.Errorf("got %v, want an error about the missing reference", err)
	}
}
