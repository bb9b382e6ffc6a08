package judge

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/optjudge/optjudge/bytesize"
	"github.com/optjudge/optjudge/judge/sandbox"
	"github.com/optjudge/optjudge/problems"
	"github.com/optjudge/optjudge/verdict"
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
// submission in the contestants' sandbox (a box of its own, the toolchain
// read-only, /etc next to empty, the language's limits), against the same
// build as a problem's program builds: in a box of the programs'
// sandbox. Run the two side by side:
//
//	go test ./judge -run '^$' -bench Compile -benchtime 20x -count 5
func BenchmarkCompile(b *testing.B) {
	j, err := New(Config{Sandbox: sandbox.Options{FirstUID: firstBoxUID}, TempDir: b.TempDir(), Path: os.Getenv("PATH")})
	if err != nil {
		b.Fatal(err)
	}
	defer j.Close()
	for _, sub := range []struct{ lang, file, src string }{
		{"cpp", "sum.cpp", "#include <iostream>\nint main(){long a,b;std::cin>>a>>b;std::cout<<a+b<<\"\\n\";}\n"},
		{"python3", "sum.py", "a, b = map(int, input().split())\nprint(a + b)\n"},
	} {
		lang, err := j.Languages().ByName(sub.lang)
		if err != nil {
			b.Fatal(err)
		}
		tc, err := j.finder.Find(lang, true)
		if err != nil {
			b.Skipf("%s: %v", sub.lang, err)
		}
		for _, where := range []string{"contestant", "problem"} {
			b.Run(sub.lang+"/"+where, func(b *testing.B) {
				for b.Loop() {
					dir, err := os.MkdirTemp(j.tmp, "bench-")
					if err != nil {
						b.Fatal(err)
					}
					if err := os.WriteFile(filepath.Join(dir, sub.file), []byte(sub.src), 0o644); err != nil {
						b.Fatal(err)
					}
					bd := &build{lang: lang, dir: dir, trusted: where == "problem", entry: sub.file, sources: []string{sub.file}}
					res, err := j.compile(context.Background(), bd, tc)
					if err != nil || !res.OK {
						b.Fatalf("got %+v, %v, want a build", res, err)
					}
					removeAll(dir)
				}
			})
		}
	}
}

// BenchmarkCompileLanguages measures the whole build of a small program
// (testdata/langs/LANG/ac.*, the clocks solution) in every language whose
// compiler is installed, as Prepare makes it: copied, compiled in a box of
// its own, its files collected (a JVM language's main class found and its
// jar packed).
//
//	go test ./judge -run '^$' -bench CompileLanguages -benchtime 5x
func BenchmarkCompileLanguages(b *testing.B) {
	j, err := New(Config{Sandbox: sandbox.Options{FirstUID: firstBoxUID}, TempDir: b.TempDir(), Path: os.Getenv("PATH"), Home: os.Getenv("HOME")})
	if err != nil {
		b.Fatal(err)
	}
	defer j.Close()
	for _, name := range j.Languages().Names() {
		b.Run(name, func(b *testing.B) {
			lang, _ := j.Languages().ByName(name)
			if err := j.Installed(lang); err != nil {
				b.Skipf("%v", err)
			}
			dir, force := filepath.Join("testdata/langs", name), ""
			if name == "cpython3" {
				dir, force = "testdata/langs/python3", name
			}
			files, _ := filepath.Glob(filepath.Join(dir, "ac.*"))
			if len(files) != 1 {
				b.Fatalf("%s/ac.*: %d files", dir, len(files))
			}
			for b.Loop() {
				pp, err := j.Prepare(context.Background(), Submission{Path: files[0]}, BuildOptions{Lang: force})
				if err != nil || !pp.Compile.OK {
					b.Fatalf("got %+v, %v, want a build", pp, err)
				}
				pp.Close()
			}
		})
	}
}

// BenchmarkEmptyProgram measures what a program that does nothing costs
// under the sandbox, in C and in the languages with a heavy start: the JVM
// (Java, Kotlin) and the Python interpreters. ns/op is the wall time of a
// one-test grading; cpu-ms is the run's CPU time (the whole process tree:
// a JVM's JIT compiler and garbage collector threads too), peak-MiB its
// peak resident memory, under a 256 MiB limit.
//
//	go test ./judge -run '^$' -bench EmptyProgram -benchtime 20x
func BenchmarkEmptyProgram(b *testing.B) {
	j, err := New(Config{Sandbox: sandbox.Options{FirstUID: firstBoxUID}, TempDir: b.TempDir(), Path: os.Getenv("PATH"), Home: os.Getenv("HOME")})
	if err != nil {
		b.Fatal(err)
	}
	defer j.Close()
	p := emptyTestsProblem(b, 1)
	for _, e := range []struct{ lang, file, src string }{
		{"c", "empty.c", "int main(void) { return 0; }\n"},
		{"java", "Empty.java", "public class Empty { public static void main(String[] args) {} }\n"},
		{"kotlin", "empty.kt", "fun main() {}\n"},
		{"python3", "empty.py", "\n"},
		{"cpython3", "empty.py", "\n"},
	} {
		b.Run(e.lang, func(b *testing.B) {
			lang, _ := j.Languages().ByName(e.lang)
			if err := j.Installed(lang); err != nil {
				b.Skipf("%v", err)
			}
			src := filepath.Join(b.TempDir(), e.file)
			if err := os.WriteFile(src, []byte(e.src), 0o644); err != nil {
				b.Fatal(err)
			}
			pp, err := j.Prepare(context.Background(), Submission{Path: src}, BuildOptions{Lang: e.lang})
			if err != nil || !pp.Compile.OK {
				b.Fatalf("got %+v, %v, want a build", pp, err)
			}
			defer pp.Close()
			var cpu, mem float64
			for b.Loop() {
				r, err := pp.Grade(context.Background(), p, GradeOptions{TimeLimit: 10 * time.Second, MemoryLimit: 256 * bytesize.MiB})
				if err != nil || r.Verdict != verdict.AC {
					b.Fatalf("got %v, %v, want AC", r, err)
				}
				cpu += float64(r.Tests[0].CPU.Microseconds()) / 1000
				mem = max(mem, float64(r.Tests[0].Memory)/float64(bytesize.MiB))
			}
			b.ReportMetric(cpu/float64(b.N), "cpu-ms")
			b.ReportMetric(mem, "peak-MiB")
		})
	}
}
