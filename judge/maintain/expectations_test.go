package maintain

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/optjudge/optjudge/problems"
	"github.com/optjudge/optjudge/verdict"
)

// echoData is a package's tests whose answer is the input: sample 1 and
// 3, secret 2, 12 and 42.
func echoData(files map[string]string) map[string]string {
	for _, n := range []string{"sample/1", "sample/3", "secret/2", "secret/12", "secret/42"} {
		num := n[strings.Index(n, "/")+1:]
		files["data/"+n+".in"] = num + "\n"
		files["data/"+n+".ans"] = num + "\n"
	}
	return files
}

// TestVerifyNamedTests: judge verify runs every test an expectation
// names, however early another test fails: a 2023-07 package is graded
// lazily, as problemtools grades it, but its submissions.yaml requires AC
// of fortytwo.py on secret/42 (a glob with spaces, as BAPCtools reads it),
// after it fails on sample/1.
func TestVerifyNamedTests(t *testing.T) {
	t.Parallel()
	p := writeProblem(t, "named", echoData(map[string]string{
		"problem.yaml":                         "problem_format_version: 2023-07\nname: Named\nuuid: 1\nlimits: {time_limit: 2}\n",
		"submissions/accepted/echo.py":         "print(input())\n",
		"submissions/wrong_answer/fortytwo.py": "print(42)\n",
		"submissions/submissions.yaml":         "wrong_answer/fortytwo.py:\n  \"secret/*{ 4 }{ 2 }\":\n    required: [AC]\n  sample:\n    permitted: [WA]\n",
	}))
	rep, err := Verify(context.Background(), p, VerifyOptions{Judge: testJudge(t), Grade: gradeOptions()})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Errors() > 0 {
		t.Fatalf("got errors, want none:\n%s", findings(rep))
	}
	for _, s := range rep.Submissions {
		if filepath.Base(s.Path) == "fortytwo.py" && (s.Got != verdict.WA || !s.OK) {
			t.Errorf("fortytwo.py: got %s, ok %v; want WA, meeting its rules", s.Got, s.OK)
		}
	}
}

// TestVerifyTimeBoundsOnTests: in 2025-09 a rule on some tests bounds the
// time limit by those tests only: tle/forever.py is fast on the samples
// (use_for_time_limit: lower there, so permitted AC, WA or RTE) and never
// ends on the secret tests (upper there, so TLE required). The derived
// limit counts its samples; it meets both rules. A nested directory
// submission whose files are links within the package is one submission.
func TestVerifyTimeBoundsOnTests(t *testing.T) {
	t.Parallel()
	files := echoData(map[string]string{
		"problem.yaml":                              "problem_format_version: 2025-09\nname: Bounds\nuuid: 1\n",
		"submissions/accepted/echo.py":              "print(input())\n",
		"submissions/accepted/tree/__main__.py":     "from lib.helper import echo\necho()\n",
		"submissions/accepted/tree/lib/__init__.py": "",
		"submissions/accepted/tree/real.py":         "def echo():\n    print(input())\n",
		"submissions/tle/forever.py":                "n = int(input())\nwhile n > 5:\n    pass\nprint(n)\n",
		"submissions/submissions.yaml":              "tle:\n  sample:\n    use_for_time_limit: lower\n  secret:\n    use_for_time_limit: upper\n",
	})
	p := writeProblem(t, "bounds", files)
	// the helper is a link to a file of the submission; another submission
	// is a link to a file of the package
	dir := p.Dir
	if err := os.Symlink("../real.py", filepath.Join(dir, "submissions/accepted/tree/lib/helper.py")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("echo.py", filepath.Join(dir, "submissions/accepted/again.py")); err != nil {
		t.Fatal(err)
	}
	p, err := problems.LoadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Verify(context.Background(), p, VerifyOptions{Judge: testJudge(t), Grade: gradeOptions()})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Errors() > 0 {
		t.Fatalf("got errors, want none:\n%s", findings(rep))
	}
	if rep.Derived == nil {
		t.Fatalf("got no derived time limit\n%s", findings(rep))
	}
	got := map[string]verdict.Verdict{}
	for _, s := range rep.Submissions {
		got[filepath.Base(s.Path)] = s.Got
	}
	want := map[string]verdict.Verdict{"echo.py": verdict.AC, "again.py": verdict.AC, "tree": verdict.AC, "forever.py": verdict.TLE}
	for name, v := range want {
		if got[name] != v {
			t.Errorf("%s: got %s, want %s\n%s", name, got[name], v, findings(rep))
		}
	}
}

// TestVerifyPackageName: a package whose directory's name the format
// disallows (NWERC's "I") is one error, and everything else is checked:
// its submissions are graded.
func TestVerifyPackageName(t *testing.T) {
	t.Parallel()
	p := writeProblem(t, "I", echoData(map[string]string{
		"problem.yaml":                 "name: I\nauthor: Some One\nlimits: {time_multiplier: 2}\n",
		"submissions/accepted/echo.py": "print(input())\n",
		"input_validators/README.txt":  "no validator here\n",
		"include/pascal/x.inc":         "",
	}))
	rep, err := Verify(context.Background(), p, VerifyOptions{Judge: testJudge(t), Grade: gradeOptions()})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Errors() != 1 || !hasFinding(rep, Error, "problem.yaml", `the package directory's name "I" is not one the format allows`) {
		t.Errorf("got findings\n%s\nwant one error, about the name", findings(rep))
	}
	if !hasFinding(rep, Warning, "input_validators/README.txt", "skipped: not a program") {
		t.Errorf("got findings\n%s\nwant README.txt skipped", findings(rep))
	}
	if !hasFinding(rep, Warning, "include/pascal", "no language of the table has the code pascal") {
		t.Errorf("got findings\n%s\nwant include/pascal warned about", findings(rep))
	}
	if len(rep.Submissions) != 1 || rep.Submissions[0].Got != verdict.AC {
		t.Errorf("got %+v, want echo.py graded AC", rep.Submissions)
	}
}

// TestVerifySleepWall: a time-limit-exceeded submission that sleeps is TLE
// at the raised limit and a second (BAPCtools' timeout), 9 s, not at the
// raised wall limit, 1.5 times the raised limit and a second, 13 s.
func TestVerifySleepWall(t *testing.T) {
	t.Parallel()
	p := writeProblem(t, "sleeper", echoData(map[string]string{
		"problem.yaml":                          "problem_format_version: 2025-09\nname: Sleeper\nuuid: 1\nlimits:\n  time_limit: 2\n  time_multipliers: {time_limit_to_tle: 4}\n",
		"submissions/accepted/echo.py":          "print(input())\n",
		"submissions/time_limit_exceeded/zz.py": "import time\ntime.sleep(1000)\n",
	}))
	o := gradeOptions()
	o.WallLimit = 0 // the default ones: 5 s under the 2 s limit, 13 s under the raised 8 s
	rep, err := Verify(context.Background(), p, VerifyOptions{Judge: testJudge(t), Grade: o})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Errors() > 0 {
		t.Fatalf("got errors, want none:\n%s", findings(rep))
	}
	for _, s := range rep.Submissions {
		if filepath.Base(s.Path) == "zz.py" && (s.Got != verdict.TLE || !s.OK || !strings.Contains(s.Message, "over the 9s limit of a run that sleeps")) {
			t.Errorf("zz.py: got %s %q, ok %v; want TLE over the 9s limit of a run that sleeps", s.Got, s.Message, s.OK)
		}
	}
}

// TestVerifyWallLimitAskedFor: a wall-clock limit asked for holds when the
// runs are judged again under the derived time limit: slow.py sleeps 3.5 s,
// over the 3 s that go with a 1 s limit, under the minute asked for.
func TestVerifyWallLimitAskedFor(t *testing.T) {
	t.Parallel()
	p := writeProblem(t, "walls", echoData(map[string]string{
		"problem.yaml":                 "problem_format_version: 2025-09\nname: Walls\nuuid: 1\n",
		"submissions/accepted/echo.py": "print(input())\n",
		"submissions/accepted/slow.py": "import time\ntime.sleep(3.5)\nprint(input())\n",
	}))
	o := gradeOptions()
	o.WallLimit = time.Minute
	rep, err := Verify(context.Background(), p, VerifyOptions{Judge: testJudge(t), Grade: o})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Errors() > 0 || rep.TimeLimit != time.Second {
		t.Fatalf("got errors under %v, want none under a derived 1s:\n%s", rep.TimeLimit, findings(rep))
	}
}
