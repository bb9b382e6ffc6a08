package maintain

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/optjudge/optjudge/judge"
	"github.com/optjudge/optjudge/problems"
	"github.com/optjudge/optjudge/verdict"
)

// writeProblem writes a problem directory named name from files.
func writeProblem(t testing.TB, name string, files map[string]string) *problems.Problem {
	t.Helper()
	dir := filepath.Join(t.TempDir(), name)
	for f, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	p, err := problems.LoadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

var (
	sharedJudge *judge.Judge
	sharedCache string     // its build cache
	sharedMu    sync.Mutex // parallel tests start it too
)

// testJudge is the Judge the tests share (one sandbox), closed by TestMain.
func testJudge(t testing.TB) *judge.Judge {
	t.Helper()
	sharedMu.Lock()
	defer sharedMu.Unlock()
	if sharedJudge == nil {
		// the tests verify the same packages again and again: their
		// submissions compile once (TestMain removes the cache)
		cache, err := os.MkdirTemp("", "optjudge-test-builds-")
		if err != nil {
			t.Fatal(err)
		}
		j, err := judge.New(judge.Config{Path: os.Getenv("PATH"), BuildCache: cache})
		if err != nil {
			os.RemoveAll(cache)
			t.Fatal(err)
		}
		sharedJudge, sharedCache = j, cache
	}
	return sharedJudge
}

func gradeOptions() judge.GradeOptions {
	return judge.GradeOptions{
		Parallel: runtime.NumCPU(),
		// The tests' programs that take time burn CPU (busy), and the
		// CPU limit decides; the default wall limit (2 x CPU + 1 s) would
		// cut a busy program short on a machine loaded enough to give it
		// less than a fifth of a core.
		WallLimit: time.Minute,
	}
}

func TestMain(m *testing.M) {
	code := m.Run()
	if sharedJudge != nil {
		sharedJudge.Close()
		os.RemoveAll(sharedCache)
	}
	os.Exit(code)
}

// clocksFiles is a small clocks problem: the sample and one secret test.
func clocksFiles() map[string]string {
	return map[string]string{
		"problem.yaml":          "name: tiny-clocks\ntitle: Tiny Clocks\nlimits:\n  time_limit: 2\nchecker:\n  name: clocks\nreference: clocks\nvalidator: clocks\n",
		"testdata/sample/1.in":  "3 3 0\n2 2 2\n2 1 2\n",
		"testdata/sample/1.ans": "4 5 8 9\n",
		"testdata/secret/2.in":  "0 0 0\n0 0 0\n0 0 1\n",
		"testdata/secret/2.ans": "2 2 3 4 4 5 6 7 8 9\n",
		// Reads the input, looks it up: right on these two tests only.
		"submissions/accepted/table.py": "import sys\nt = sys.stdin.read()\nprint({'3 3 0\\n2 2 2\\n2 1 2\\n': '4 5 8 9'}.get(t, '2 2 3 4 4 5 6 7 8 9'))\n",
	}
}

// sumFiles is "print a+b" with the tokens checker and no reference.
func sumFiles() map[string]string {
	return map[string]string{
		"problem.yaml":                "name: sum\ntitle: Sum\nlimits:\n  time_limit: 1\n",
		"testdata/sample/1.in":        "1 2\n",
		"testdata/sample/1.ans":       "3\n",
		"testdata/secret/2.in":        "40 2\n",
		"testdata/secret/2.ans":       "42\n",
		"submissions/accepted/sum.py": "a, b = map(int, input().split())\nprint(a + b)\n",
	}
}

// busy is a Python program that burns seconds of CPU, then prints a+b.
func busy(seconds string) string {
	return "import time\na, b = map(int, input().split())\nwhile time.process_time() < " + seconds + ":\n    pass\nprint(a + b)\n"
}

func with(base map[string]string, edits map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range base {
		out[k] = v
	}
	for k, v := range edits {
		if v == "" {
			delete(out, k)
		} else {
			out[k] = v
		}
	}
	return out
}

// TestVerifyFindings builds problems with one defect each and looks for the
// finding, on the right file.
func TestVerifyFindings(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		files map[string]string
		sev   Severity
		file  string // the finding's file, relative to the problem
		msg   string
	}{
		{"wrong answer file", with(clocksFiles(), map[string]string{"testdata/secret/2.ans": "9 9 9\n"}),
			Error, "testdata/secret/2.ans", "the checker rejects it: after 3 moves the dials are"},
		{"answer differs from the reference", with(clocksFiles(), map[string]string{
			"problem.yaml": "name: tiny-clocks\ntitle: T\nreference: clocks\nvalidator: clocks\n", "testdata/secret/2.ans": "3 3 3\n",
			"submissions/accepted/table.py": ""}),
			Error, "testdata/secret/2.ans", `differs from the reference's output: got "3 3 3", want "2 2 3 4 4 5 6 7 8 9"`},
		{"invalid input", with(clocksFiles(), map[string]string{"testdata/secret/2.in": "0 0 0\n0 9 0\n0 0 0\n"}),
			Error, "testdata/secret/2.in", `dial E: "9" is out of range 0-3`},
		{"accepted submission fails", with(clocksFiles(), map[string]string{"submissions/accepted/wrong.py": "print('1 2 3')\n"}),
			Error, "submissions/accepted/wrong.py", "got WA on sample/1 ("},
		{"time limit too tight", with(sumFiles(), map[string]string{"problem.yaml": "name: sum\ntitle: Sum\nlimits:\n  time_limit: 0.5\n",
			"submissions/accepted/slow.py": busy("0.3")}),
			Error, "submissions/accepted/slow.py", "2x that is"},
		{"time-limit-exceeded submission is fast", with(sumFiles(), map[string]string{"submissions/time_limit_exceeded/fast.py": "print(sum(map(int, input().split())))\n"}),
			Error, "submissions/time_limit_exceeded/fast.py", "accepted within 1.5x the time limit (1.5s)"},
		{"wrong answer submission accepted", with(sumFiles(), map[string]string{"submissions/wrong_answer/right.py": "print(sum(map(int, input().split())))\n"}),
			Error, "submissions/wrong_answer/right.py", "got AC, want WA"},
		{"compile error", with(sumFiles(), map[string]string{"submissions/accepted/broken.cpp": "int main() { return x; }\n"}),
			Error, "submissions/accepted/broken.cpp", "was not declared in this scope (g++ failed: exit status 1)), want AC"},
		{"no samples", with(sumFiles(), map[string]string{"testdata/sample/1.in": "", "testdata/sample/1.ans": ""}),
			Error, "testdata/sample", "no sample tests"},
		{"no answer file", with(sumFiles(), map[string]string{"testdata/secret/2.ans": ""}),
			Error, "testdata/secret/2.in", "no .ans beside it"},
		{"answer without input", with(sumFiles(), map[string]string{"testdata/secret/3.ans": "1\n"}),
			Warning, "testdata/secret/3.ans", "no .in beside it"},
		{"unknown folder", with(sumFiles(), map[string]string{"submissions/slow/x.py": "print(1)\n"}),
			Error, "submissions/slow", "not a verdict folder"},
		{"no accepted submission", with(sumFiles(), map[string]string{"submissions/accepted/sum.py": "", "submissions/wrong_answer/w.py": "print(0)\n"}),
			Error, "submissions/accepted", "no accepted submission"},
		{"no validator", sumFiles(), Warning, "problem.yaml", "no input validator"},
		{"checker does not build", with(sumFiles(), map[string]string{
			"problem.yaml": "name: sum\ntitle: Sum\nchecker:\n  program: check.cpp\n", "check.cpp": "int main() { return nope; }\n"}),
			Error, "check.cpp", "building check.cpp (cpp): g++ failed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := writeProblem(t, "p", tt.files)
			rep, err := Verify(context.Background(), p, VerifyOptions{Judge: testJudge(t), Grade: gradeOptions()})
			if err != nil {
				t.Fatal(err)
			}
			want := filepath.Join(p.Package.Origin, tt.file)
			for _, f := range rep.Findings {
				if f.File == want && f.Severity == tt.sev && strings.Contains(f.Msg, tt.msg) {
					return
				}
			}
			t.Errorf("got findings\n%s\nwant a %v on %s containing %q", findings(rep), tt.sev, want, tt.msg)
		})
	}
}

// dropNameWarning drops the warning about a package directory's name
// with a '-' (the test packages are named so).
func dropNameWarning(rep *VerifyReport) {
	rep.Findings = slices.DeleteFunc(rep.Findings, func(f Finding) bool {
		return f.Severity == Warning && strings.Contains(f.Msg, "the package directory's name")
	})
}

func findings(rep *VerifyReport) string {
	var b strings.Builder
	for _, f := range rep.Sorted() {
		b.WriteString("\t" + f.String() + "\n")
	}
	return b.String()
}

// TestVerifyClean: a problem without defects has no findings and says
// which time limit the rules imply: the native clocksFiles converted to a
// package (the native layout itself is a warning).
func TestVerifyClean(t *testing.T) {
	t.Parallel()
	native := writeProblem(t, "p", with(clocksFiles(), map[string]string{
		"submissions/wrong_answer/nothing.py": "print()\n",
	}))
	if _, err := problems.Convert(native.Dir, ""); err != nil {
		t.Fatal(err)
	}
	p, err := problems.LoadDir(native.Dir)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Verify(context.Background(), p, VerifyOptions{Judge: testJudge(t), Grade: gradeOptions()})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Findings) != 0 || len(rep.Submissions) != 2 {
		t.Errorf("got %d submissions and findings\n%s\nwant 2 and none", len(rep.Submissions), findings(rep))
	}
	if rep.SlowestAC == nil || rep.Suggested < rep.Resolution || rep.Suggested%rep.Resolution != 0 {
		t.Errorf("got slowest %+v, suggested %v, want a multiple of %v", rep.SlowestAC, rep.Suggested, rep.Resolution)
	}
}

// TestVerifyThinMargin: an accepted run between 40% and 50% of the limit
// keeps the 2x rule, but a run 25% slower would not. The program burns
// 0.82 s of its own CPU clock under a 2 s limit, which leaves 0.18 s for
// Python to start and exit: several times what it needs on a machine three
// times slower than this one.
func TestVerifyThinMargin(t *testing.T) {
	t.Parallel()
	p := writeProblem(t, "p", with(sumFiles(), map[string]string{
		"problem.yaml":                "name: sum\ntitle: Sum\nlimits:\n  time_limit: 2\n",
		"submissions/accepted/sum.py": busy("0.82"),
	}))
	rep, err := Verify(context.Background(), p, VerifyOptions{Judge: testJudge(t), Grade: gradeOptions()})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range rep.Findings {
		if f.Severity == Warning && strings.Contains(f.Msg, "the margin is thin") {
			if rep.Errors() != 0 {
				t.Errorf("got errors:\n%s", findings(rep))
			}
			return
		}
	}
	t.Errorf("got findings\n%s\nwant a thin-margin warning", findings(rep))
}

// TestVerifyKattisPackage verifies the Kattis package shipped with the
// judge, then a copy with a broken answer and an input its validator
// refuses.
func TestVerifyKattisPackage(t *testing.T) {
	t.Parallel()
	p, err := problems.LoadDir("../../problems/sum-kattis")
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Verify(context.Background(), p, VerifyOptions{Judge: testJudge(t), Grade: gradeOptions()})
	if err != nil {
		t.Fatal(err)
	}
	dropNameWarning(rep)
	if len(rep.Findings) != 0 || len(rep.Submissions) != 4 {
		t.Errorf("got %d submissions, findings\n%s\nwant 4 and none", len(rep.Submissions), findings(rep))
	}

	dir := filepath.Join(t.TempDir(), "sum-kattis")
	if err := os.CopyFS(dir, os.DirFS("../../problems/sum-kattis")); err != nil {
		t.Fatal(err)
	}
	os.RemoveAll(filepath.Join(dir, "submissions"))
	// a rejected answer is an error in sample, a warning in secret (as
	// problemtools has it: a validator may take no answer for an output)
	os.WriteFile(filepath.Join(dir, "data/sample/1.ans"), []byte("0 4\n10 930\n0 17\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "data/secret/02-fours.ans"), []byte("0 4\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "data/secret/04-negative.in"), []byte("1\n-3\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "data/secret/04-negative.ans"), []byte("0 -3\n"), 0o644)
	if p, err = problems.LoadDir(dir); err != nil {
		t.Fatal(err)
	}
	if rep, err = Verify(context.Background(), p, VerifyOptions{Judge: testJudge(t), Grade: gradeOptions()}); err != nil {
		t.Fatal(err)
	}
	dropNameWarning(rep)
	want := []string{
		dir + "/data/sample/1.ans: error: the checker rejects it: case 1: B = 4 contains the digit 4",
		dir + "/data/secret/02-fours.ans: warning: the checker rejects it: case 1: B = 4 contains the digit 4",
		dir + "/data/secret/04-negative.in: error: input_validators/validate.py: exit code 43, want 42: line 2: want N, 0 <= N <= 10^18, got '-3'",
		dir + "/submissions: error: no example submissions: want at least one under submissions/accepted/",
	}
	got := strings.Split(strings.TrimSpace(findings(rep)), "\n")
	for i := range got {
		got[i] = strings.TrimSpace(got[i])
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got findings\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestVerifyKattisModel: in a Kattis package, what problemtools only warns
// about is a warning (an unknown key, a folder of no format version, a
// checktestdata script the judge does not run), and a program over the
// memory limit is a run-time error.
func TestVerifyKattisModel(t *testing.T) {
	t.Parallel()
	p := writeProblem(t, "ksum", map[string]string{
		"problem.yaml":                         "name: Sum\ntimelimit: 3\nlimits:\n  memory: 64\n",
		"data/sample/1.in":                     "1 2\n",
		"data/sample/1.ans":                    "3\n",
		"data/secret/2.in":                     "40 2\n",
		"data/secret/2.ans":                    "42\n",
		"input_validators/sum.ctd":             "INT(0, 100) SPACE INT(0, 100) NEWLINE\n",
		"submissions/accepted/sum.py":          "a, b = map(int, input().split())\nprint(a + b)\n",
		"submissions/run_time_error/memory.py": "x = bytearray(400 * 1024 * 1024)\nprint(len(x))\n",
		"submissions/slow_accepted/slow.py":    "print(3)\n",
	})
	rep, err := Verify(context.Background(), p, VerifyOptions{Judge: testJudge(t), Grade: gradeOptions()})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Errors() > 0 {
		t.Errorf("got findings\n%s\nwant no errors", findings(rep))
	}
	want := []struct{ file, pos, msg string }{
		{"problem.yaml", ":2", "timelimit: unknown key, ignored"},
		{"input_validators/sum.ctd", "", "skipped: a checktestdata script"},
		{"submissions/slow_accepted", "", "not a submissions folder of format legacy"},
	}
	for _, w := range want {
		found := false
		for _, f := range rep.Findings {
			found = found || (f.Severity == Warning && f.File == filepath.Join(p.Package.Origin, w.file) && f.Pos == w.pos && strings.Contains(f.Msg, w.msg))
		}
		if !found {
			t.Errorf("got findings\n%s\nwant a warning on %s%s containing %q", findings(rep), w.file, w.pos, w.msg)
		}
	}
	if len(rep.Submissions) != 2 {
		t.Fatalf("got %d submissions graded, want sum.py and memory.py", len(rep.Submissions))
	}
	for _, s := range rep.Submissions {
		if strings.HasSuffix(s.Path, "memory.py") && s.Got != verdict.RE {
			t.Errorf("got %v for memory.py, want RE: over the memory limit is a run-time error in the Kattis verdicts", s.Got)
		}
	}
}

// copyPackage copies a test package of problems/testdata into a directory
// of the same name, applies edits (an empty content removes the file) and
// loads it.
func copyPackage(t *testing.T, name string, edits map[string]string) *problems.Problem {
	t.Helper()
	dir := filepath.Join(t.TempDir(), name)
	if err := os.CopyFS(dir, os.DirFS("../../problems/testdata/"+name)); err != nil {
		t.Fatal(err)
	}
	for f, content := range edits {
		p := filepath.Join(dir, filepath.FromSlash(f))
		if content == "" {
			os.Remove(p)
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	p, err := problems.LoadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// slowSubmissions are the test packages' submissions that run until
// their time limit: under -short, withoutSlowShort leaves them out of the
// copies whose checks are about other files (TestVerifyKattisPackage
// verifies a time_limit_exceeded submission).
var slowSubmissions = []string{
	"submissions/time_limit_exceeded/small_only.py",
	"submissions/time_limit_exceeded/spin.py",
}

// withoutSlowShort returns edits, under -short with slowSubmissions
// removed as well.
func withoutSlowShort(edits map[string]string) map[string]string {
	if !testing.Short() {
		return edits
	}
	out := map[string]string{}
	for f, content := range edits {
		out[f] = content
	}
	for _, f := range slowSubmissions {
		if _, ok := out[f]; !ok {
			out[f] = ""
		}
	}
	return out
}

func hasFinding(rep *VerifyReport, sev Severity, file, msg string) bool {
	for _, f := range rep.Findings {
		if f.Severity == sev && strings.HasSuffix(f.File, file) && strings.Contains(f.Msg, msg) {
			return true
		}
	}
	return false
}

// TestVerifyTestPackages verifies the Kattis test packages of every
// format version: scores, group rules, interactive validation, answer
// validators and expectations as each version states them.
func TestVerifyTestPackages(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("-short: verifies four Kattis test packages; TestVerifyKattisPackage verifies one")
	}
	tests := []struct {
		name     string
		got      map[string]string // submission file -> "VERDICT" or "VERDICT SCORE"
		warnings []string          // file: message
		derived  bool              // the package gives no time limit: verify derives it
	}{
		{"mean-2025", map[string]string{"mean.py": "AC 100", "mean.c": "AC 100", "int32.c": "WA 40", "rounded.py": "WA 0"}, nil, true},
		{"legacy-float", map[string]string{"area.py": "AC", "area.c": "AC", "zero.py": "RE", "three.py": "WA"},
			[]string{"input_validators/radius.ctd: skipped: a checktestdata script needs checktestdata"}, true},
		{"guess-interactive", map[string]string{"bisect.py": "AC", "bisect.c": "AC", "crash.py": "RE", "linear.py": "WA", "spin.py": "TLE"}, nil, false},
		{"sort-answers", map[string]string{"sort.py": "AC", "reverse.py": "WA", "unique.py": "WA"},
			[]string{"input_validators/format.ctd: skipped", "submissions/slow_accepted: not a submissions folder of format 2025-09"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := problems.LoadDir("../../problems/testdata/" + tt.name)
			if err != nil {
				t.Fatal(err)
			}
			rep, err := Verify(context.Background(), p, VerifyOptions{Judge: testJudge(t), Grade: gradeOptions()})
			if err != nil {
				t.Fatal(err)
			}
			if rep.Errors() > 0 {
				t.Errorf("got findings\n%s\nwant no errors", findings(rep))
			}
			for _, w := range tt.warnings {
				file, msg, _ := strings.Cut(w, ": ")
				if !hasFinding(rep, Warning, file, msg) {
					t.Errorf("got findings\n%s\nwant a warning on %s: %s", findings(rep), file, msg)
				}
			}
			for _, s := range rep.Submissions {
				want, ok := tt.got[filepath.Base(s.Path)]
				got := s.Got.String()
				if s.Scored {
					got += " " + strconv.FormatFloat(s.Score, 'g', -1, 64)
				}
				if ok && got != want {
					t.Errorf("%s: got %s, want %s", s.Path, got, want)
				}
				delete(tt.got, filepath.Base(s.Path))
			}
			for sub := range tt.got {
				t.Errorf("%s was not graded", sub)
			}
			// the derived limit is the rule applied to the slowest
			// accepted run as measured (1 s here on a quiet machine, more
			// on a busy one: not a number to pin)
			switch d := rep.Derived; {
			case !tt.derived && d != nil:
				t.Errorf("got a derived limit %v, want the package's", d.Limit)
			case tt.derived && d == nil:
				t.Errorf("got the limit %v, want one derived", rep.TimeLimit)
			case tt.derived:
				if want, _ := d.Multipliers.Derive(d.Slowest); d.Limit != want || rep.TimeLimit != want || d.Slowest <= 0 {
					t.Errorf("got derived %+v, limit %v, want %v: the slowest accepted run %v by the rule", d, rep.TimeLimit, want, d.Slowest)
				}
			}
		})
	}
}

// TestVerifyPackageDefects: what the validators of a package must catch,
// and expectations a submission misses, in the file at fault.
func TestVerifyPackageDefects(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, pkg string
		edits     map[string]string
		sev       Severity
		file, msg string
	}{
		{"answer validator", "sort-answers", map[string]string{"data/secret/01.ans": "3 2 1\n"},
			Error, "data/secret/01.ans", "answer_validators/sorted.py: exit code 43, want 42: the answer is not the input sorted"},
		{"invalid input accepted", "sort-answers", map[string]string{"data/invalid_input/too-few.in": "2\n1 2\n"},
			Error, "data/invalid_input/too-few.in", "an invalid input, but every input validator accepts it"},
		{"input validator arguments per group", "mean-2025", map[string]string{"data/secret/1-small/02.in": "2\n5000 1\n", "data/secret/1-small/02.ans": "2500.5\n"},
			Error, "data/secret/1-small/02.in", "input_validators/validate.py"},
		{"score expectation", "mean-2025", map[string]string{"submissions/submissions.yaml": "partially_accepted/int32.c:\n  score: 50\n"},
			Error, "submissions/partially_accepted/int32.c", "scores 40, want [50, 50]"},
		{"message expectation", "guess-interactive", map[string]string{"submissions/submissions.yaml": "wrong_answer/linear.py:\n  message: not what it says\n"},
			Error, "submissions/wrong_answer/linear.py", `no judge message of test contains "not what it says"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := copyPackage(t, tt.pkg, withoutSlowShort(tt.edits))
			rep, err := Verify(context.Background(), p, VerifyOptions{Judge: testJudge(t), Grade: gradeOptions()})
			if err != nil {
				t.Fatal(err)
			}
			if !hasFinding(rep, tt.sev, tt.file, tt.msg) {
				t.Errorf("got findings\n%s\nwant a %v on %s containing %q", findings(rep), tt.sev, tt.file, tt.msg)
			}
		})
	}
}

// TestVerifyCheckTestData runs the packages' .ctd input validators with a
// checktestdata on the judge's PATH: a stand-in that accepts lines of
// digits and spaces.
func TestVerifyCheckTestData(t *testing.T) {
	t.Parallel()
	bin := t.TempDir()
	fake := "#!/bin/sh\ncase \"$1\" in *.ctd) ;; *) exit 2 ;; esac\nif grep -q '[^0-9 ]'; then echo 'not a number' >&2; exit 1; fi\nexit 0\n"
	if err := os.WriteFile(filepath.Join(bin, "checktestdata"), []byte(fake), 0o755); err != nil {
		t.Fatal(err)
	}
	j, err := judge.New(judge.Config{Path: bin + ":" + os.Getenv("PATH")})
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	p := copyPackage(t, "legacy-float", nil)
	rep, err := Verify(context.Background(), p, VerifyOptions{Judge: j, Grade: gradeOptions()})
	if err != nil {
		t.Fatal(err)
	}
	dropNameWarning(rep)
	if len(rep.Findings) != 0 {
		t.Errorf("got findings\n%s\nwant none: the .ctd runs", findings(rep))
	}
	p = copyPackage(t, "legacy-float", map[string]string{"data/secret/2.in": "1.5\n", "data/secret/2.ans": "7.0685834705770345\n"})
	rep, err = Verify(context.Background(), p, VerifyOptions{Judge: j, Grade: gradeOptions()})
	if err != nil {
		t.Fatal(err)
	}
	if !hasFinding(rep, Error, "data/secret/2.in", "input_validators/radius.ctd: exit code 1, want 0: not a number") {
		t.Errorf("got findings\n%s\nwant radius.ctd to reject data/secret/2.in", findings(rep))
	}
}

// TestVerifyLegacyScoring: in a legacy scoring package, problemtools only
// warns about a partially accepted submission with the full score, and an
// accepted one without it.
func TestVerifyLegacyScoring(t *testing.T) {
	t.Parallel()
	p := writeProblem(t, "echo", map[string]string{
		"problem.yaml":                           "name: Echo\ntype: scoring\n",
		"data/testdata.yaml":                     "on_reject: continue\nrange: 0 100\ngrader_flags: ignore_sample\n",
		"data/sample/testdata.yaml":              "range: 0 0\naccept_score: 0\n",
		"data/sample/1.in":                       "1\n",
		"data/sample/1.ans":                      "1\n",
		"data/secret/testdata.yaml":              "on_reject: continue\nrange: 0 100\naccept_score: 50\ngrader_flags: accept_if_any_accepted\n",
		"data/secret/1.in":                       "2\n",
		"data/secret/1.ans":                      "2\n",
		"data/secret/2.in":                       "300\n",
		"data/secret/2.ans":                      "300\n",
		"submissions/accepted/small.py":          "x = int(input())\nprint(x if x < 100 else 0)\n",
		"submissions/partially_accepted/echo.py": "print(input())\n",
		"submissions/wrong_answer/zero.py":       "print(0)\n",
	})
	rep, err := Verify(context.Background(), p, VerifyOptions{Judge: testJudge(t), Grade: gradeOptions()})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Errors() > 0 {
		t.Errorf("got findings\n%s\nwant no errors", findings(rep))
	}
	for _, w := range []struct{ file, msg string }{
		{"submissions/accepted/small.py", "scores 50, not the full 100 (consider partially_accepted/)"},
		{"submissions/partially_accepted/echo.py", "fully accepted (score 100), though partially accepted"},
	} {
		if !hasFinding(rep, Warning, w.file, w.msg) {
			t.Errorf("got findings\n%s\nwant a warning on %s: %s", findings(rep), w.file, w.msg)
		}
	}
}

// TestVerifyEntrypoint: submissions.yaml's entrypoint names a directory
// submission's entry file, where the files alone would pick main.py.
func TestVerifyEntrypoint(t *testing.T) {
	t.Parallel()
	mean, err := os.ReadFile("../../problems/testdata/mean-2025/submissions/accepted/mean.py")
	if err != nil {
		t.Fatal(err)
	}
	yaml, err := os.ReadFile("../../problems/testdata/mean-2025/submissions/submissions.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		entry string
		want  string
	}{
		{"accepted/multi:\n  entrypoint: solve.py\n", "AC"},
		{"", "WA"},
	} {
		p := copyPackage(t, "mean-2025", withoutSlowShort(map[string]string{
			"submissions/accepted/multi/main.py":  "print(0)\n",
			"submissions/accepted/multi/solve.py": string(mean),
			"submissions/submissions.yaml":        string(yaml) + tt.entry,
		}))
		rep, err := Verify(context.Background(), p, VerifyOptions{Judge: testJudge(t), Grade: gradeOptions()})
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, s := range rep.Submissions {
			if filepath.Base(s.Path) == "multi" {
				found = true
				if got := s.Got.String(); got != tt.want {
					t.Errorf("entry %q: got %s, want %s\n%s", tt.entry, got, tt.want, findings(rep))
				}
			}
		}
		if !found {
			t.Errorf("entry %q: the directory submission was not graded\n%s", tt.entry, findings(rep))
		}
	}
}

// TestVerifyUnsolvableNeverWritten: a puzzle whose every case can be
// solved, and that gives a text for a case that cannot, is told the text
// may never be written; one with such cases is not.
func TestVerifyUnsolvableNeverWritten(t *testing.T) {
	t.Parallel()
	def := func(out string) string {
		return "name: toggles\ncells: [a, b]\nsymbols: [\"0\", \"1\"]\nmoves:\n  - {name: A, add: [a]}\n  - {name: B, add: [b]}\ngoal: {state: [\"0\", \"0\"]}\ninput: {cases: until_eof}\noutput: {separator: \" \"" + out + "}\n"
	}
	for _, tt := range []struct {
		out  string
		warn bool
	}{{", unsolvable: impossible", true}, {"", false}} {
		p := writeProblem(t, "toggles", map[string]string{
			"problem.yaml":      "problem_format_version: 2025-09\nname: Toggles\nuuid: 1b8e5f0a-2c3d-4e5f-8a9b-0c1d2e3f4a5b\n",
			"puzzle.yaml":       def(tt.out),
			"data/secret/1.in":  "1 0\n",
			"data/secret/1.ans": "A\n",
		})
		rep, err := Verify(context.Background(), p, VerifyOptions{Judge: testJudge(t), Grade: gradeOptions()})
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(findings(rep), `output.unsolvable: "impossible" may never be written`); got != tt.warn {
			t.Errorf("output %q: got the warning %v, want %v\n%s", tt.out, got, tt.warn, findings(rep))
		}
	}
}
