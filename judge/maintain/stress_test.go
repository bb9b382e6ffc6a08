package maintain

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/optjudge/optjudge/judge"
	"github.com/optjudge/optjudge/problems"
	"github.com/optjudge/optjudge/reference"
	"github.com/optjudge/optjudge/verdict"
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

// stressGrade are the stress tests' grading options: their programs end
// with AC, WA or RE, and the capped searches take a third of clocks' 1 s
// here, so a CPU limit of 20 s keeps a TLE from ever deciding them.
func stressGrade() judge.GradeOptions {
	g := gradeOptions()
	g.TimeLimit = 20 * time.Second
	return g
}

// TestStressShrinksToShallowestDepth: a search capped at 12 moves fails
// only on boards 13 moves or more from the goal, so the shrunk input must be
// one board exactly 13 moves away. The same for clocks, capped at 5.
func TestStressShrinksToShallowestDepth(t *testing.T) {
	t.Parallel()
	tests := []struct {
		problem, sub string
		cases, want  int
	}{
		{"eight-puzzle", "testdata/eight_capped.py", 5, 13},
		{"clocks", "testdata/clocks_capped.py", 1, 6},
	}
	for _, tt := range tests {
		t.Run(tt.problem, func(t *testing.T) {
			if testing.Short() && tt.problem == "eight-puzzle" {
				t.Skip("-short: 20 tests of 5 boards, then shrinking (clocks shrinks)")
			}
			p := embedded(t, tt.problem)
			res, err := Stress(context.Background(), p, judge.Submission{Path: tt.sub},
				StressOptions{Judge: testJudge(t), Grade: stressGrade(), Count: 20, Cases: tt.cases, Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			f := res.Failure
			if f == nil {
				t.Fatalf("got no failure in %d tests, want one", res.Tests)
			}
			tools, err := p.Tools()
			if err != nil {
				t.Fatal(err)
			}
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
	t.Parallel()
	p := embedded(t, "eight-puzzle")
	cases := 12
	if testing.Short() {
		cases = 4 // shrinks 4 cases to 3: the full run shrinks 12
	}
	res, err := Stress(context.Background(), p, judge.Submission{Path: "testdata/crash_on_three.py"},
		StressOptions{Judge: testJudge(t), Grade: stressGrade(), Count: 5, Cases: cases, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	f := res.Failure
	if f == nil || f.Index != 1 || f.Cases != 3 || f.ShrunkVerdict != verdict.RE || strings.Count(string(f.Shrunk), "\n") != 3 {
		t.Fatalf("got %+v, want test 1 shrunk to 3 cases, RE", f)
	}
}

func TestStressAllAccepted(t *testing.T) {
	t.Parallel()
	p := embedded(t, "clocks")
	res, err := Stress(context.Background(), p, judge.Submission{Path: "../../problems/clocks/submissions/accepted/three_moves.py"},
		StressOptions{Judge: testJudge(t), Grade: stressGrade(), Count: 10, Kind: reference.Deep, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	if res.Failure != nil || res.Tests != 10 || !res.Compile.OK {
		t.Errorf("got %+v, want 10 accepted tests", res)
	}
}

func TestStressCompileError(t *testing.T) {
	t.Parallel()
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
	t.Parallel()
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

// writeProgram writes a program for a test into its own directory.
func writeProgram(t *testing.T, name, src string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestStressGenerator stresses Kattis packages, which have no reference
// of ours, with a generator run as GEN SEED: an interactive one (answers
// empty, the validator reads the input) and a scoring one whose generated
// tests take the last secret group's validator flags and are answered by
// its accepted submission. A failure names its seed and is not shrunk; a
// generator whose input the validators refuse, or that crashes, is an
// error naming the seed.
func TestStressGenerator(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("-short: stresses with generators, ten programs; TestStressAllAccepted stresses")
	}
	guess, err := problems.LoadDir("../../problems/testdata/guess-interactive")
	if err != nil {
		t.Fatal(err)
	}
	mean, err := problems.LoadDir("../../problems/testdata/mean-2025")
	if err != nil {
		t.Fatal(err)
	}
	guessGen := writeProgram(t, "gen.py", "import sys, random\nprint(random.Random(int(sys.argv[1])).randint(1, 1000))\n")
	meanGen := writeProgram(t, "gen.py", "import sys, random\nr = random.Random(int(sys.argv[1]))\nn = r.randint(1, 5)\nprint(n)\nprint(*[r.randint(-10, 10) for _ in range(n)])\n")
	o := func(gen string, count int) StressOptions {
		g := gradeOptions()
		g.TimeLimit = 10 * time.Second // generous: the verdicts here are AC or WA
		return StressOptions{Judge: testJudge(t), Grade: g, Count: count, Seed: 5, Generator: gen}
	}
	sub := func(p *problems.Problem, rel string) judge.Submission {
		return judge.Submission{Path: filepath.Join(p.Dir, filepath.FromSlash(rel))}
	}
	ctx := context.Background()
	t.Run("interactive accepted", func(t *testing.T) {
		res, err := Stress(ctx, guess, sub(guess, "submissions/accepted/bisect.py"), o(guessGen, 12))
		if err != nil || res.Failure != nil || res.Tests != 12 {
			t.Errorf("got %+v, %v, want 12 accepted tests", res, err)
		}
	})
	t.Run("interactive wrong", func(t *testing.T) {
		res, err := Stress(ctx, guess, sub(guess, "submissions/wrong_answer/linear.py"), o(guessGen, 12))
		if err != nil {
			t.Fatal(err)
		}
		f := res.Failure
		if f == nil || f.Verdict != verdict.WA || f.Seed != strconv.Itoa(5+f.Index-1) || len(f.Input) == 0 {
			t.Errorf("got %+v, want a WA with its seed and input", f)
		}
	})
	t.Run("scoring wrong", func(t *testing.T) {
		res, err := Stress(ctx, mean, sub(mean, "submissions/wrong_answer/rounded.py"), o(meanGen, 40))
		if err != nil {
			t.Fatal(err)
		}
		f := res.Failure
		// the message names the last group's tolerance (secret/2-large,
		// relative 1e-9), not the sample's (1e-6)
		if f == nil || f.Verdict != verdict.WA || !strings.Contains(f.Message, "1e-9") || len(f.ShrunkAnswer) == 0 {
			t.Errorf("got %+v, want a WA under the last group's tolerance, with the accepted submission's answer", f)
		}
	})
	t.Run("invalid input", func(t *testing.T) {
		_, err := Stress(ctx, mean, sub(mean, "submissions/accepted/mean.py"), o(writeProgram(t, "bad.py", "print(0)\n"), 4))
		if err == nil || !strings.Contains(err.Error(), "seed 5 is invalid") {
			t.Errorf("got %v, want the generator's input for seed 5 refused", err)
		}
	})
	t.Run("generator crashes", func(t *testing.T) {
		_, err := Stress(ctx, mean, sub(mean, "submissions/accepted/mean.py"), o(writeProgram(t, "crash.py", "raise SystemExit(3)\n"), 4))
		if err == nil || !strings.Contains(err.Error(), "the generator failed (RE): seed 5") {
			t.Errorf("got %v, want the generator's crash on seed 5", err)
		}
	})
	t.Run("model solution with entrypoint", func(t *testing.T) {
		meanPy, err := os.ReadFile(filepath.Join(mean.Dir, "submissions/accepted/mean.py"))
		if err != nil {
			t.Fatal(err)
		}
		yaml, err := os.ReadFile(filepath.Join(mean.Dir, "submissions/submissions.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		// the brute force is the model solution, a directory whose entry
		// is not main.py: built as verify builds it, it answers right
		p := copyPackage(t, "mean-2025", map[string]string{
			"submissions/accepted/multi/main.py":  "print(0)\n",
			"submissions/accepted/multi/solve.py": string(meanPy),
			"submissions/submissions.yaml":        string(yaml) + "accepted/multi:\n  entrypoint: solve.py\n  model_solution: true\n",
		})
		res, err := Stress(ctx, p, sub(p, "submissions/accepted/mean.py"), o(meanGen, 8))
		if err != nil || res.Failure != nil || res.Tests != 8 {
			t.Errorf("got %+v, %v, want 8 accepted tests", res, err)
		}
	})
	t.Run("input over the output limit", func(t *testing.T) {
		p := copyPackage(t, "mean-2025", map[string]string{"input_validators/validate.py": ""})
		big := writeProgram(t, "big.py", "import sys\nsys.stdout.write('1\\n' + ' ' * 12_000_000 + sys.argv[1] + '\\n')\n")
		res, err := Stress(ctx, p, sub(p, "submissions/accepted/mean.py"), o(big, 2))
		if err != nil || res.Failure != nil || res.Tests != 2 {
			t.Errorf("a 12 MB input (the package's output limit is 8 MiB): got %+v, %v, want 2 accepted tests", res, err)
		}
	})
	t.Run("no generator", func(t *testing.T) {
		_, err := Stress(ctx, mean, sub(mean, "submissions/accepted/mean.py"), StressOptions{Judge: testJudge(t)})
		if err == nil || !strings.Contains(err.Error(), "--generator") {
			t.Errorf("got %v, want a pointer to --generator", err)
		}
	})
}
