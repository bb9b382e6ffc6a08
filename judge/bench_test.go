package judge

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/optjudge/optjudge/judge/sandbox"
	"github.com/optjudge/optjudge/judge/verdict"
	"github.com/optjudge/optjudge/problems"
)

// BenchmarkPerTest measures the judge's cost per test: a do-nothing static C
// program graded on perTestN tests (empty input and answer, the tokens
// checker) at each isolation level, against perTestN bare fork, exec and
// waits of the same binary (os/exec). The metric ns/test is the figure to
// compare; ns/op is perTestN of them.
func BenchmarkPerTest(b *testing.B) {
	const perTestN = 50
	exe := staticTrue(b)
	b.Run("bare", func(b *testing.B) {
		for b.Loop() {
			for range perTestN {
				if err := exec.Command(exe).Run(); err != nil {
					b.Fatal(err)
				}
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*perTestN), "ns/test")
	})
	p := emptyTestsProblem(b, perTestN)
	for _, level := range []string{sandbox.IsolationNone, sandbox.IsolationNamespaces, sandbox.IsolationCgroup} {
		b.Run(level, func(b *testing.B) {
			// TempDir "": a box uid at level none must pass the
			// directories above the judge's
			j, err := New(Config{Sandbox: sandbox.Options{Isolation: level, FirstUID: firstBoxUID}})
			if err != nil {
				b.Skipf("isolation %q is not available here: %v", level, err)
			}
			defer j.Close()
			pp, err := j.Prepare(context.Background(), Submission{Path: exe}, BuildOptions{})
			if err != nil {
				b.Fatal(err)
			}
			defer pp.Close()
			for b.Loop() {
				r, err := pp.Grade(context.Background(), p, GradeOptions{})
				if err != nil {
					b.Fatal(err)
				}
				if r.Verdict != verdict.AC || len(r.Tests) != perTestN {
					b.Fatalf("got %v on %d tests, want AC on %d: %+v", r.Verdict, len(r.Tests), perTestN, r.Tests[0])
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*perTestN), "ns/test")
		})
	}
}

// staticTrue builds a C program that does nothing, linked statically where
// the C library allows it.
func staticTrue(b *testing.B) string {
	b.Helper()
	if _, err := exec.LookPath("gcc"); err != nil {
		b.Skip("gcc is not installed")
	}
	dir := b.TempDir()
	src, exe := filepath.Join(dir, "true.c"), filepath.Join(dir, "true")
	if err := os.WriteFile(src, []byte("int main(void) { return 0; }\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	out, err := exec.Command("gcc", "-O2", "-static", "-o", exe, src).CombinedOutput()
	if err != nil {
		if out, err = exec.Command("gcc", "-O2", "-o", exe, src).CombinedOutput(); err != nil {
			b.Fatalf("gcc: %v\n%s", err, out)
		}
	}
	return exe
}

// emptyTestsProblem writes a problem with n tests whose input and answer are
// empty, checked by the tokens checker.
func emptyTestsProblem(b *testing.B, n int) *problems.Problem {
	b.Helper()
	dir := b.TempDir()
	yaml := "name: empty\ntitle: Empty\nlimits:\n  time_limit: 1\n  memory: 256\n  output: 1\n"
	if err := os.WriteFile(filepath.Join(dir, "problem.yaml"), []byte(yaml), 0o644); err != nil {
		b.Fatal(err)
	}
	secret := filepath.Join(dir, "testdata", "secret")
	if err := os.MkdirAll(secret, 0o755); err != nil {
		b.Fatal(err)
	}
	for i := range n {
		for _, ext := range []string{".in", ".ans"} {
			if err := os.WriteFile(filepath.Join(secret, fmt.Sprintf("%02d%s", i, ext)), nil, 0o644); err != nil {
				b.Fatal(err)
			}
		}
	}
	p, err := problems.LoadDir(dir)
	if err != nil {
		b.Fatal(err)
	}
	return p
}

// BenchmarkCompile measures the build of a small C++ and a small Python
// submission inside the sandbox, as every contestant's build runs (a box of
// its own, the toolchain read-only, the language's limits), against the
// same build outside it, as a problem's own trusted programs build: the
// same build path, run by proc. Run the two side by side:
//
//	go test ./judge -run '^$' -bench Compile -benchtime 20x -count 5
func BenchmarkCompile(b *testing.B) {
	j, err := New(Config{Sandbox: sandbox.Options{FirstUID: firstBoxUID}, TempDir: b.TempDir(), Path: os.Getenv("PATH")})
	if err != nil {
		b.Fatal(err)
	}
	defer j.Close()
	for _, sub := range []struct{ lang, src string }{
		{"cpp", "#include <iostream>\nint main(){long a,b;std::cin>>a>>b;std::cout<<a+b<<\"\\n\";}\n"},
		{"python", "a, b = map(int, input().split())\nprint(a + b)\n"},
	} {
		lang, err := j.Languages().ByName(sub.lang)
		if err != nil {
			b.Fatal(err)
		}
		tc, err := j.toolchain(lang)
		if err != nil {
			b.Skipf("%s: %v", sub.lang, err)
		}
		for _, where := range []string{"sandbox", "outside"} {
			b.Run(sub.lang+"/"+where, func(b *testing.B) {
				for b.Loop() {
					dir, err := os.MkdirTemp(j.tmp, "bench-")
					if err != nil {
						b.Fatal(err)
					}
					if err := os.WriteFile(filepath.Join(dir, lang.File), []byte(sub.src), 0o644); err != nil {
						b.Fatal(err)
					}
					res, err := j.compile(context.Background(), &build{lang: lang, dir: dir, trusted: where == "outside"}, tc)
					if err != nil || !res.OK {
						b.Fatalf("got %+v, %v, want a build", res, err)
					}
					removeAll(dir)
				}
			})
		}
	}
}
