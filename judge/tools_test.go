package judge

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/optjudge/optjudge/problems"
	"github.com/optjudge/optjudge/verdict"
)

// testlibSum is a testlib-protocol checker for "print a+b", written against
// the protocol: checker input output answer, exit 0 AC, 1 WA, 3 fail.
const testlibSum = `#include <cstdio>
int main(int argc, char **argv) {
    if (argc != 4) return 3;
    FILE *in = std::fopen(argv[1], "r"), *out = std::fopen(argv[2], "r"), *ans = std::fopen(argv[3], "r");
    if (!in || !out || !ans) { std::fprintf(stderr, "cannot open the files"); return 3; }
    long a, b, got, want;
    if (std::fscanf(in, "%ld %ld", &a, &b) != 2 || std::fscanf(ans, "%ld", &want) != 1) { std::fprintf(stderr, "bad input or answer"); return 3; }
    if (a + b != want) { std::fprintf(stderr, "the answer file says %ld, not %ld", want, a + b); return 3; }
    if (std::fscanf(out, "%ld", &got) != 1) { std::fprintf(stderr, "wrong output format: no number"); return 2; }
    if (got != want) { std::fprintf(stderr, "wrong answer %ld + %ld is %ld, not %ld", a, b, want, got); return 1; }
    std::fprintf(stderr, "ok %ld", got);
    return 0;
}
`

// checkerProblem writes the sum problem of sumProblem with a checker
// program instead of the tokens checker.
func checkerProblem(t *testing.T, files map[string]string) *problems.Problem {
	t.Helper()
	dir := t.TempDir()
	base := map[string]string{
		"testdata/sample/1.in":  "1 2\n",
		"testdata/sample/1.ans": "3\n",
		"testdata/secret/2.in":  "40 2\n",
		"testdata/secret/2.ans": "42\n",
	}
	for k, v := range files {
		base[k] = v
	}
	for name, content := range base {
		p := filepath.Join(dir, name)
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

func writeSource(t testing.TB, name, src string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestGradeTestlibChecker(t *testing.T) {
	t.Parallel()
	p := checkerProblem(t, map[string]string{
		"problem.yaml":      "name: sum\ntitle: Sum\nchecker:\n  program: checker/check.cpp\n  protocol: testlib\n",
		"checker/check.cpp": testlibSum,
	})
	tests := []struct {
		name, src string
		want      verdict.Verdict
		msg       string
	}{
		{"ac", "a, b = map(int, input().split())\nprint(a + b)\n", verdict.AC, "ok 3"},
		{"wa", "a, b = map(int, input().split())\nprint(a - b)\n", verdict.WA, "wrong answer 1 + 2 is 3, not -1"},
		{"pe", "print('three')\n", verdict.WA, "presentation error: wrong output format: no number"},
	}
	j := newJudge(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := j.Grade(context.Background(), p, Submission{Path: writeSource(t, "s.py", tt.src)}, BuildOptions{}, ample())
			if err != nil {
				t.Fatal(err)
			}
			if r.Verdict != tt.want || !strings.Contains(r.Tests[0].Message, tt.msg) {
				t.Errorf("got %v %q, want %v with %q", r.Verdict, r.Tests[0].Message, tt.want, tt.msg)
			}
		})
	}
}

// TestGradeCheckerFailIsJE: testlib's "fail" exit code (here: the answer
// file is wrong) makes the test JE, never AC.
func TestGradeCheckerFailIsJE(t *testing.T) {
	t.Parallel()
	p := checkerProblem(t, map[string]string{
		"problem.yaml":          "name: sum\ntitle: Sum\nchecker:\n  program: check.cpp\n",
		"check.cpp":             testlibSum,
		"testdata/secret/2.ans": "41\n",
	})
	src := writeSource(t, "s.py", "a, b = map(int, input().split())\nprint(a + b)\n")
	r, err := newJudge(t).Grade(context.Background(), p, Submission{Path: src}, BuildOptions{}, ample())
	if err != nil {
		t.Fatal(err)
	}
	if r.Verdict != verdict.JE || !strings.Contains(r.Tests[1].Message, "check.cpp failed: the answer file says 41, not 42") {
		t.Errorf("got %v %q, want JE naming the checker's message", r.Verdict, r.Tests[1].Message)
	}
}

func TestGradeKattisValidator(t *testing.T) {
	t.Parallel()
	p, err := problems.LoadDir("../problems/sum-kattis")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		sub  string
		want verdict.Verdict
		msg  string
	}{
		{"accepted/digits.py", verdict.AC, "3 cases"},
		{"wrong_answer/zero_and_n.py", verdict.WA, "case 1: B = 4 contains the digit 4"},
	}
	j := newJudge(t)
	for _, tt := range tests {
		t.Run(tt.sub, func(t *testing.T) {
			opts := ample()
			opts.Lazy = true
			r, err := j.Grade(context.Background(), p, Submission{Path: "../problems/sum-kattis/submissions/" + tt.sub}, BuildOptions{}, opts)
			if err != nil {
				t.Fatal(err)
			}
			if r.Verdict != tt.want || !strings.Contains(r.Tests[0].Message, tt.msg) {
				t.Errorf("got %v %q, want %v with %q", r.Verdict, r.Tests[0].Message, tt.want, tt.msg)
			}
		})
	}
}

func TestBuildToolErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		files map[string]string
		want  string
	}{
		{"does not compile", map[string]string{"check.cpp": "int main() { return nope; }\n"},
			"building check.cpp (cpp): g++ failed"},
		{"two sources", map[string]string{"check/a.py": "", "check/b.py": ""},
			"building check: 2 source files (a.py, b.py); want one, or one named __main__ or main"},
		{"no source", map[string]string{"check/notes.txt": ""},
			"building check: no source file of a known language"},
		{"build script fails", map[string]string{"check/build": "#!/bin/sh\necho no compiler here >&2\nexit 1\n", "check/run": "#!/bin/sh\n"},
			"building check (build/run): build failed: exit status 1\nno compiler here"},
		{"no run script", map[string]string{"check/build": "#!/bin/sh\n"},
			"building check (build/run): no run script"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			prog := "check.cpp"
			if _, ok := tt.files["check.cpp"]; !ok {
				prog = "check"
			}
			tt.files["problem.yaml"] = "name: sum\ntitle: Sum\nchecker:\n  program: " + prog + "\n"
			p := checkerProblem(t, tt.files)
			src := writeSource(t, "s.py", "print(3)\n")
			_, err := newJudge(t).Grade(context.Background(), p, Submission{Path: src}, BuildOptions{}, parallel())
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v, want an error containing %q", err, tt.want)
			}
		})
	}
}

// TestToolDirectoryWithHeader builds a program directory whose source
// includes a header beside it.
func TestToolDirectoryWithHeader(t *testing.T) {
	t.Parallel()
	p := checkerProblem(t, map[string]string{
		"problem.yaml":           "name: sum\ntitle: Sum\nchecker:\n  program: check\n  protocol: kattis\n",
		"check/verdicts.h":       "#define ACCEPT 42\n",
		"check/validate_sum.cpp": "#include \"verdicts.h\"\nint main() { return ACCEPT; }\n",
	})
	r, err := newJudge(t).Grade(context.Background(), p, Submission{Path: writeSource(t, "s.py", "print(0)\n")}, BuildOptions{}, ample())
	if err != nil {
		t.Fatal(err)
	}
	if r.Verdict != verdict.AC {
		t.Errorf("got %v, want AC from a validator that accepts everything", r.Verdict)
	}
}

func TestBuildInputValidators(t *testing.T) {
	t.Parallel()
	p, err := problems.LoadDir("../problems/sum-kattis")
	if err != nil {
		t.Fatal(err)
	}
	vs, err := newJudge(t).InputValidators(context.Background(), p, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(vs) != 1 {
		t.Fatalf("got %d validators, want 1", len(vs))
	}
	for _, tt := range []struct{ in, want string }{
		{"2\n4\n17\n", ""},
		{"2\n4\n", "want 2 cases after line 1, got 1 lines"},
		{"1\n-4\n", "line 2: want N"},
	} {
		got, err := vs[0].Validate(context.Background(), []byte(tt.in))
		if err != nil {
			t.Fatal(err)
		}
		if (got == "") != (tt.want == "") || !strings.Contains(got, tt.want) {
			t.Errorf("validate(%q): got %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestToolFailureNotKept: a checker whose build failed (a full disk, a
// loaded machine) is built again by the next grading of the same Judge,
// not failed from a cache for as long as the Judge lives.
func TestToolFailureNotKept(t *testing.T) {
	t.Parallel()
	p := checkerProblem(t, map[string]string{
		"problem.yaml": "name: sum\ntitle: Sum\nchecker:\n  program: check\n",
		"check/build":  "#!/bin/sh\necho disk full >&2\nexit 1\n",
		"check/run":    "#!/bin/sh\nexit 0\n",
	})
	build := filepath.Join(p.Dir, "check", "build")
	os.Chmod(build, 0o755)
	os.Chmod(filepath.Join(p.Dir, "check", "run"), 0o755)
	j := newJudge(t)
	src := writeSource(t, "s.py", "a, b = map(int, input().split())\nprint(a + b)\n")
	if _, err := j.Grade(context.Background(), p, Submission{Path: src}, BuildOptions{}, parallel()); err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Fatalf("got %v, want the build's failure", err)
	}
	// the same problem version (its hash was taken by the first grading),
	// whose build now works: the build box sees nothing of the test's
	// files, so the transient failure is in the script the build copies
	if err := os.WriteFile(build, []byte("#!/bin/sh\nexit 0\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	r, err := j.Grade(context.Background(), p, Submission{Path: src}, BuildOptions{}, ample())
	if err != nil {
		t.Fatalf("the second grading: %v", err)
	}
	if r.Verdict != verdict.AC {
		t.Errorf("got %s, want AC: %s", r.Verdict, describe(r))
	}
}

// TestCancelledCheckerNoJE: a grading cancelled while the checker runs
// ends with the context's error, and no test gets a JE for the checker
// that was cut short.
func TestCancelledCheckerNoJE(t *testing.T) {
	t.Parallel()
	p := checkerProblem(t, map[string]string{
		"problem.yaml": "name: sum\ntitle: Sum\nchecker:\n  program: check\n",
		"check/build":  "#!/bin/sh\n",
		"check/run":    "#!/bin/sh\nexec sleep 600\n",
	})
	os.Chmod(filepath.Join(p.Dir, "check", "build"), 0o755)
	os.Chmod(filepath.Join(p.Dir, "check", "run"), 0o755)
	j := newJudge(t)
	src := writeSource(t, "s.py", "a, b = map(int, input().split())\nprint(a + b)\n")
	pp, err := j.Prepare(context.Background(), Submission{Path: src}, BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer pp.Close()
	// the submission ends within milliseconds; the checker never does
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	r, err := pp.Grade(ctx, p, parallel())
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("got %v, want the cancellation", err)
	}
	if r != nil {
		for _, tr := range r.Tests {
			if tr.Verdict == verdict.JE {
				t.Errorf("%s: JE %s", tr.Name, tr.Message)
			}
		}
	}
}
