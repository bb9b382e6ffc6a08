package judge

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/optjudge/optjudge/problems"
	"github.com/optjudge/optjudge/verdict"
)

func groupScores(r *Report) string {
	var parts []string
	for _, g := range r.Score.Groups {
		s := g.Name + " " + g.Verdict.String()
		if r.Score.Scoring {
			s += " " + formatFloat(g.Score)
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, ", ")
}

func formatFloat(x float64) string {
	b, _ := json.Marshal(x)
	return string(b)
}

// TestGradeScoring2025 grades the 2025-09 test package mean-2025: groups of
// 40 and 60 points, the second requiring the first, each with its own
// float tolerance for the default validator.
func TestGradeScoring2025(t *testing.T) {
	t.Parallel()
	p, err := problems.LoadDir("../problems/testdata/mean-2025")
	if err != nil {
		t.Fatal(err)
	}
	j := newJudge(t)
	tests := []struct {
		sub    string
		want   verdict.Verdict
		score  float64
		groups string
	}{
		{"accepted/mean.py", verdict.AC, 100, "sample AC 0, secret AC 100, secret/1-small AC 40, secret/2-large AC 60"},
		{"partially_accepted/int32.c", verdict.WA, 40, "sample AC 0, secret WA 40, secret/1-small AC 40, secret/2-large WA 0"},
		{"wrong_answer/rounded.py", verdict.WA, 0, "sample WA 0, secret WA 0, secret/1-small WA 0, secret/2-large WA 0"},
	}
	for _, tt := range tests {
		t.Run(tt.sub, func(t *testing.T) {
			r, err := j.Grade(context.Background(), p, Submission{Path: "../problems/testdata/mean-2025/submissions/" + tt.sub}, BuildOptions{}, ample())
			if err != nil {
				t.Fatal(err)
			}
			if r.Verdict != tt.want || r.Score.Value != tt.score || groupScores(r) != tt.groups || !r.Score.Scoring || r.Score.Max == nil || *r.Score.Max != 100 {
				t.Errorf("got %v %v (max %v), groups %s, want %v %v of 100, groups %s", r.Verdict, r.Score.Value, r.Score.Max, groupScores(r), tt.want, tt.score, tt.groups)
			}
		})
	}
}

// legacyScoring is a legacy scoring package in the shape of problemtools'
// oddecho: two subtasks of 50 points that stop at their first rejected test
// (on_reject: break), secret accepting when any subtask is accepted.
func legacyScoring(t *testing.T, extra map[string]string) *problems.Problem {
	files := map[string]string{
		"problem.yaml":                            "name: Echo\ntype: scoring\nlimits:\n  time_multiplier: 2\n",
		"data/testdata.yaml":                      "on_reject: continue\nrange: 0 100\ngrader_flags: ignore_sample\n",
		"data/sample/testdata.yaml":               "on_reject: continue\nrange: 0 0\naccept_score: 0\ngrader_flags: first_error\n",
		"data/sample/1.in":                        "1\n",
		"data/sample/1.ans":                       "1\n",
		"data/secret/testdata.yaml":               "on_reject: continue\nrange: 0 100\ngrader_flags: first_error accept_if_any_accepted\n",
		"data/secret/a/testdata.yaml":             "on_reject: break\naccept_score: 50\nrange: 0 50\ngrader_flags: min\n",
		"data/secret/a/1.in":                      "2\n",
		"data/secret/a/1.ans":                     "2\n",
		"data/secret/b/testdata.yaml":             "on_reject: break\naccept_score: 50\nrange: 0 50\ngrader_flags: min\n",
		"data/secret/b/1.in":                      "300\n",
		"data/secret/b/1.ans":                     "300\n",
		"data/secret/b/2.in":                      "4\n",
		"data/secret/b/2.ans":                     "4\n",
		"submissions/accepted/echo.py":            "print(input())\n",
		"submissions/partially_accepted/small.py": "x = int(input())\nassert x < 100\nprint(x)\n",
	}
	for k, v := range extra {
		files[k] = v
	}
	return writePackage(t, "echo", files)
}

// TestGradeLegacyScoring: the legacy rules as problemtools has them, and
// Lazy skipping the tests after a break, which the grading does not read.
func TestGradeLegacyScoring(t *testing.T) {
	t.Parallel()
	p := legacyScoring(t, nil)
	j := newJudge(t)
	for _, lazy := range []bool{false, true} {
		o := ample()
		o.Lazy = lazy
		r, err := j.Grade(context.Background(), p, Submission{Path: p.Dir + "/submissions/partially_accepted/small.py"}, BuildOptions{}, o)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := groupScores(r), "sample AC 0, secret AC 50, secret/a AC 50, secret/b RE 0"; r.Verdict != verdict.AC || r.Score.Value != 50 || got != want {
			t.Errorf("lazy %v: got %v %v, groups %s, want AC 50, groups %s", lazy, r.Verdict, r.Score.Value, got, want)
		}
		ran := len(r.Tests)
		if want := map[bool]int{false: 4, true: 3}[lazy]; ran != want {
			t.Errorf("lazy %v: got %d tests run, want %d (secret/b/2 comes after a break)", lazy, ran, want)
		}
		if lazy {
			continue
		}
		for _, tr := range r.Tests {
			if tr.Name == "secret/b/2" && tr.Score != nil {
				t.Errorf("got a score for secret/b/2, want none: it comes after a break")
			}
		}
	}
}

// TestGradeCustomGrader runs a legacy package's grader program (graders/)
// on its group's results.
func TestGradeCustomGrader(t *testing.T) {
	t.Parallel()
	p := legacyScoring(t, map[string]string{
		"data/secret/a/testdata.yaml": "on_reject: break\naccept_score: 50\nrange: 0 50\ngrading: custom\ngrader_flags: seven\n",
		// the legacy protocol: "VERDICT SCORE" lines in, one out; flags as arguments
		"graders/grade.py": "import sys\nlines = sys.stdin.read().split('\\n')\nprint('AC', 7 if sys.argv[1:] == ['seven'] and lines[0] == 'AC 50' else 1)\n",
	})
	r, err := newJudge(t).Grade(context.Background(), p, Submission{Path: p.Dir + "/submissions/accepted/echo.py"}, BuildOptions{}, ample())
	if err != nil {
		t.Fatal(err)
	}
	if got, want := groupScores(r), "sample AC 0, secret AC 57, secret/a AC 7, secret/b AC 50"; r.Score.Value != 57 || got != want {
		t.Errorf("got %v, groups %s, want 57, groups %s", r.Score.Value, got, want)
	}
}

// TestGradeValidatorFlags: the legacy validator_flags reach the default
// output validator (float_tolerance), for each test.
func TestGradeValidatorFlags(t *testing.T) {
	t.Parallel()
	p, err := problems.LoadDir("../problems/testdata/legacy-float")
	if err != nil {
		t.Fatal(err)
	}
	src := writeSource(t, "area.py", "import math\nr = int(input())\nprint(f'{math.pi * r * r:.9f}')\n")
	r, err := newJudge(t).Grade(context.Background(), p, Submission{Path: src}, BuildOptions{}, ample())
	if err != nil {
		t.Fatal(err)
	}
	if r.Verdict != verdict.AC || r.Score.Scoring || r.Score.Max != nil {
		t.Errorf("got %v (%+v), want AC, pass-fail", r.Verdict, r.Tests)
	}
}

// TestGradeOutputValidatorArgs: a custom validator gets each test's
// output_validator_args (2025-09, per group).
func TestGradeOutputValidatorArgs(t *testing.T) {
	t.Parallel()
	p := writePackage(t, "args", map[string]string{
		"problem.yaml": "problem_format_version: 2025-09\nname: Args\nuuid: 0b3f8c5e-3d2a-4e1b-9c8d-7a6b5c4d3e2f\nlicense: cc0\nsource: optjudge tests\nlimits:\n  time_limit: 1\n",
		"output_validator/validate.py": "import sys\nout = sys.stdin.read().split()\n" +
			"sys.exit(42 if out == sys.argv[4:] else 43)\n",
		"data/sample/1.in":               "",
		"data/sample/1.ans":              "",
		"data/secret/g/test_group.yaml":  "output_validator_args: [x, y]\n",
		"data/secret/g/1.in":             "",
		"data/secret/g/1.ans":            "",
		"data/secret/h/test_group.yaml":  "output_validator_args: [z]\n",
		"data/secret/h/1.in":             "",
		"data/secret/h/1.ans":            "",
		"data/secret/test_group.yaml":    "",
		"submissions/accepted/args.py":   "print()\n",
		"data/secret/g/1.files/hint.txt": "x y\n",
		"data/secret/h/1.files/hint.txt": "z\n",
	})
	// reads what the validator wants from the test's .files
	src := writeSource(t, "echo.py", "import os, sys\nprint(open('hint.txt').read() if os.path.exists('hint.txt') else '')\n")
	r, err := newJudge(t).Grade(context.Background(), p, Submission{Path: src}, BuildOptions{}, ample())
	if err != nil {
		t.Fatal(err)
	}
	if r.Verdict != verdict.AC {
		t.Errorf("got %v (%+v), want AC", r.Verdict, r.Tests)
	}
}

// TestGradeBuildRunSubmission builds a submission directory with build
// and run scripts in the sandbox and runs ./run on every test.
func TestGradeBuildRunSubmission(t *testing.T) {
	t.Parallel()
	p := sumProblem(t)
	dir := t.TempDir()
	os.WriteFile(dir+"/build", []byte("#!/bin/sh\nset -e\nmkdir lib\nprintf 'read a b\\necho $((a+b))\\n' > lib/sum.sh\nprintf '#!/bin/sh\\nexec sh \"$(dirname \"$0\")/lib/sum.sh\"\\n' > run\nchmod +x run\n"), 0o755)
	r, err := newJudge(t).Grade(context.Background(), p, Submission{Path: dir}, BuildOptions{}, ample())
	if err != nil {
		t.Fatal(err)
	}
	if r.Verdict != verdict.AC || r.Language != BuildRunLanguage {
		t.Errorf("got %v in %s (%q, %+v), want AC in %s", r.Verdict, r.Language, r.Compile.Message, r.Tests, BuildRunLanguage)
	}
	os.WriteFile(dir+"/build", []byte("#!/bin/sh\necho nothing to run\n"), 0o755)
	r, err = newJudge(t).Grade(context.Background(), p, Submission{Path: dir}, BuildOptions{}, ample())
	if err != nil {
		t.Fatal(err)
	}
	if r.Verdict != verdict.CE || !strings.Contains(r.Compile.Message, "no run script") {
		t.Errorf("got %v %q, want CE: no run script", r.Verdict, r.Compile.Message)
	}
}

// TestGradeTestArgs: a test's args (2025-09, from its group or its own
// .yaml) come after the submission's own command line.
func TestGradeTestArgs(t *testing.T) {
	t.Parallel()
	p := writePackage(t, "args", map[string]string{
		"problem.yaml":                "problem_format_version: 2025-09\nname: Args\nuuid: 0b3f8c5e-3d2a-4e1b-9c8d-7a6b5c4d3e2f\nlicense: cc0\nsource: optjudge tests\nlimits:\n  time_limit: 1\n",
		"data/sample/1.in":            "",
		"data/sample/1.ans":           "\n",
		"data/secret/test_group.yaml": "args: [a, b]\n",
		"data/secret/1.in":            "",
		"data/secret/1.ans":           "a b\n",
		"data/secret/2.in":            "",
		"data/secret/2.ans":           "c\n",
		"data/secret/2.yaml":          "args: [c]\n",
	})
	src := writeSource(t, "args.py", "import sys\nprint(*sys.argv[1:])\n")
	r, err := newJudge(t).Grade(context.Background(), p, Submission{Path: src}, BuildOptions{}, ample())
	if err != nil {
		t.Fatal(err)
	}
	if r.Verdict != verdict.AC {
		t.Errorf("got %v (%+v), want AC", r.Verdict, r.Tests)
	}
}
