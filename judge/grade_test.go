package judge

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/optjudge/optjudge/bytesize"
	"github.com/optjudge/optjudge/judge/internal/busy"
	"github.com/optjudge/optjudge/judge/lang"
	"github.com/optjudge/optjudge/judge/sandbox"
	"github.com/optjudge/optjudge/problems"
	"github.com/optjudge/optjudge/problems/kattis"
	"github.com/optjudge/optjudge/verdict"
)

// sumProblem writes a tiny problem (print a+b) with two tests. Its time
// limit, 5 s of CPU (11 s of wall clock), is far above what any program of
// the tests that take it needs, however busy the machine: a test that wants
// a TLE sets its own limit and a program that never ends.
func sumProblem(t testing.TB) *problems.Problem {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"problem.yaml":          "name: sum\ntitle: Sum\nlimits:\n  time_limit: 5\n  memory: 256\n  output: 1\n",
		"testdata/sample/1.in":  "1 2\n",
		"testdata/sample/1.ans": "3\n",
		"testdata/secret/2.in":  "40 2\n",
		"testdata/secret/2.ans": "42\n",
	}
	for name, content := range files {
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

// programs hit every verdict, each by the one limit it is meant to meet:
// the CPU limit is 10 s (far above what any of them costs, however busy the
// machine) but for the loop that never ends, and the wall-clock limit a
// minute but for the sleeper.
var programs = []struct {
	name, file, src string
	want            verdict.Verdict
	msg             string        // a substring of the first test's message
	wall            time.Duration // the wall-clock limit; 0: a minute, so that only a sleeper meets it
	cpu             time.Duration // the CPU limit; 0: 10 s, so that only a program that never ends meets it
}{
	{"c ac", "sum.c", "#include <stdio.h>\nint main(void){long a,b;scanf(\"%ld %ld\",&a,&b);printf(\"%ld\\n\",a+b);return 0;}\n", verdict.AC, "", 0, 0},
	{"cpp ac", "sum.cpp", "#include <iostream>\nint main(){long a,b;std::cin>>a>>b;std::cout<<a+b<<\"\\n\";}\n", verdict.AC, "", 0, 0},
	{"go ac", "sum.go", "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tvar a, b int\n\tfmt.Scan(&a, &b)\n\tfmt.Println(a + b)\n}\n", verdict.AC, "", 0, 0},
	{"python ac", "sum.py", "a, b = map(int, input().split())\nprint(a + b)\n", verdict.AC, "", 0, 0},
	{"wa", "wa.py", "a, b = map(int, input().split())\nprint(a - b)\n", verdict.WA, `got "-1", want "3"`, 0, 0},
	{"tle cpu loop", "loop.c", "int main(void){volatile unsigned long x=0;for(;;)x++;}\n", verdict.TLE, "CPU time", 0, time.Second},
	{"tle sleeping", "sleep.c", "#include <unistd.h>\nint main(void){sleep(30);return 0;}\n", verdict.TLE, "wall time", 2 * time.Second, 0},
	{"mle", "mle.c", "#include <stdlib.h>\nint main(void){size_t n=512u<<20;volatile char*p=malloc(n);if(!p)return 1;for(size_t i=0;i<n;i+=4096)p[i]=1;return 0;}\n", verdict.MLE, "memory", 0, 0},
	{"ole", "ole.c", "#include <stdio.h>\nint main(void){for(;;)fputs(\"0123456789abcdef0123456789abcdef\\n\",stdout);}\n", verdict.OLE, "output", 0, 0},
	{"re signal", "segv.c", "int main(void){volatile int*p=0;*p=1;return 0;}\n", verdict.RE, "SIGSEGV", 0, 0},
	{"re abort", "abort.cpp", "#include <cstdlib>\nint main(){std::abort();}\n", verdict.RE, "SIGABRT", 0, 0},
	{"re exit code", "exit3.py", "import sys\nsys.exit(3)\n", verdict.RE, "exit code 3", 0, 0},
	{"setsid grandchild", "escape.c", "#include <stdio.h>\n#include <unistd.h>\nint main(void){long a,b;if(scanf(\"%ld %ld\",&a,&b)!=2)return 1;if(fork()==0){setsid();if(fork()==0){sleep(60);return 0;}return 0;}printf(\"%ld\\n\",a+b);return 0;}\n", verdict.AC, "", 0, 0},
	{"stdout closed early", "closed.c", "#include <stdio.h>\n#include <unistd.h>\nint main(void){fclose(stdout);close(1);usleep(1000);return 0;}\n", verdict.WA, "output ends after 0 tokens", 0, 0},
	{"binary garbage", "garbage.c", "#include <stdio.h>\nint main(void){fwrite(\"\\0\\377\\1\\n\",1,4,stdout);return 0;}\n", verdict.WA, `got "\x00\xff\x01", want "3"`, 0, 0},
	{"no final newline", "nonl.py", "import sys\na, b = map(int, input().split())\nsys.stdout.write(str(a + b))\n", verdict.AC, "", 0, 0},
	{"ce", "ce.cpp", "int main() { return undeclared; }\n", verdict.CE, "", 0, 0},
	{"ce python", "ce.py", "def f(:\n", verdict.CE, "", 0, 0},
}

// newJudge makes a Judge for a test, closed at its end, with the box uids
// of this package, the user's cache directory (warm Go caches) and the
// package's build cache.
func newJudge(t testing.TB) *Judge {
	t.Helper()
	j, err := New(Config{
		Sandbox:    sandbox.Options{FirstUID: firstBoxUID},
		TempDir:    t.TempDir(),
		Path:       os.Getenv("PATH"),
		Home:       os.Getenv("HOME"),
		BuildCache: testBuildCache,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := j.Close(); err != nil {
			t.Errorf("closing the judge: %v", err)
		}
		if left, _ := os.ReadDir(j.cfg.TempDir); len(left) > 0 {
			t.Errorf("the judge left %d entries in its temporary directory, e.g. %s", len(left), left[0].Name())
		}
	})
	return j
}

// leftBuilds fails the test if a grading left a build or a working
// directory in the Judge's directory (the problems' programs stay, for the
// next grading).
func leftBuilds(t testing.TB, j *Judge) {
	t.Helper()
	ents, _ := os.ReadDir(j.tmp)
	for _, e := range ents {
		if !strings.HasPrefix(e.Name(), "tool-") && e.Name() != lockName {
			t.Errorf("a grading left %s in the judge's directory", e.Name())
		}
	}
}

func parallel() GradeOptions { return GradeOptions{Parallel: runtime.NumCPU()} }

// ample is parallel() under a CPU limit of 10 s (21 s of wall clock), for
// the tests whose programs are fast and meet no limit: their verdicts
// hold on a machine many times slower or busier than this one, whatever
// the limit of the problem they run on.
func ample() GradeOptions {
	o := parallel()
	o.TimeLimit = 10 * time.Second
	return o
}

// TestGradeVerdicts grades small programs in C, C++, Go and Python that hit
// every verdict.
func TestGradeVerdicts(t *testing.T) {
	t.Parallel()
	p := sumProblem(t)
	j := newJudge(t)
	// the gradings run at once: each leaves no build behind, checked once
	// they have all returned
	t.Cleanup(func() { leftBuilds(t, j) })
	for _, pr := range programs {
		t.Run(pr.name, func(t *testing.T) {
			t.Parallel()
			opts := parallel()
			opts.TimeLimit, opts.WallLimit = 10*time.Second, time.Minute
			if pr.wall > 0 {
				opts.WallLimit = pr.wall
			}
			if pr.cpu > 0 {
				opts.TimeLimit = pr.cpu
			}
			src := filepath.Join(t.TempDir(), pr.file)
			if err := os.WriteFile(src, []byte(pr.src), 0o644); err != nil {
				t.Fatal(err)
			}
			r, err := j.Grade(context.Background(), p, Submission{Path: src}, BuildOptions{}, opts)
			if err != nil {
				t.Fatal(err)
			}
			if r.Verdict != pr.want {
				t.Fatalf("got %v, want %v; report: %+v", r.Verdict, pr.want, r)
			}
			if pr.want == verdict.CE {
				if r.Compile.OK || r.Compile.Message == "" {
					t.Errorf("got compile %+v, want a failure with the compiler's message", r.Compile)
				}
				return
			}
			if len(r.Tests) != 2 {
				t.Fatalf("got %d test results, want 2", len(r.Tests))
			}
			if first := r.Tests[0]; !strings.Contains(first.Message, pr.msg) {
				t.Errorf("%s: got message %q, want it to contain %q", first.Name, first.Message, pr.msg)
			}
		})
	}
}

// TestGradeMemoryReachedThenCPULimit: a program that reached its memory
// limit is MLE even when the CPU limit ended it, whatever the load: the
// sandbox decides, and the judge does not decide again from the CPU time.
// The program's child reaches the limit (the OOM killer or the judge's
// memory poll ends it), then the parent spins until the CPU limit kills
// it, while busy loops run beside it.
func TestGradeMemoryReachedThenCPULimit(t *testing.T) {
	stop := busy.Loops(runtime.NumCPU())
	defer stop()
	p := sumProblem(t)
	src := writeSource(t, "oomspin.c", `#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>
int main(void) {
	size_t n = (size_t)256 << 20;
	pid_t c = fork();
	if (c == 0) {
		char *p = malloc(n);
		if (!p) _exit(9);
		for (size_t i = 0; i < n; i += 4096) p[i] = 1;
		for (;;) pause();
	}
	waitpid(c, 0, 0);
	volatile unsigned long x = 0;
	for (;;) x++;
}
`)
	opts := GradeOptions{Parallel: 2, TimeLimit: time.Second, WallLimit: time.Minute, MemoryLimit: 64 * bytesize.MiB}
	r, err := newJudge(t).Grade(context.Background(), p, Submission{Path: src}, BuildOptions{}, opts)
	if err != nil {
		t.Fatal(err)
	}
	for _, tr := range r.Tests {
		if tr.Verdict != verdict.MLE || tr.Message != "memory over the 64MiB limit" {
			t.Errorf("%s: got %v %q (CPU %v, memory %v), want MLE: memory over the 64MiB limit", tr.Name, tr.Verdict, tr.Message, tr.CPU, tr.Memory)
		}
	}
	if r.Verdict != verdict.MLE || len(r.Tests) != 2 {
		t.Errorf("got %v on %d tests, want MLE on 2", r.Verdict, len(r.Tests))
	}
}

func TestGradeLazyStopsAtFirstFailure(t *testing.T) {
	t.Parallel()
	p := sumProblem(t)
	opts := parallel()
	opts.Lazy = true
	src := filepath.Join(t.TempDir(), "wa.py")
	os.WriteFile(src, []byte("print(0)\n"), 0o644)
	r, err := newJudge(t).Grade(context.Background(), p, Submission{Path: src}, BuildOptions{}, opts)
	if err != nil {
		t.Fatal(err)
	}
	if r.Verdict != verdict.WA || len(r.Tests) != 1 || r.Summary.Run != 1 || r.Summary.Tests != 2 {
		t.Errorf("got %v with %d tests run (summary %+v), want WA after 1 of 2", r.Verdict, len(r.Tests), r.Summary)
	}
}

// TestGradeStop: without Lazy, Stop ends the grading at the first test,
// in test order, whose verdict it names; the results are those up to it
// however many tests ran at once, and a Stop that never fires changes
// nothing.
func TestGradeStop(t *testing.T) {
	t.Parallel()
	p := sumProblem(t)
	src := filepath.Join(t.TempDir(), "wa.py")
	os.WriteFile(src, []byte("print(0)\n"), 0o644)
	j := newJudge(t)
	for _, tt := range []struct {
		stop verdict.Verdict
		want int
	}{{verdict.WA, 1}, {verdict.TLE, 2}} {
		opts := parallel()
		opts.Stop = func(_ kattis.Test, v verdict.Verdict) bool { return v == tt.stop }
		r, err := j.Grade(context.Background(), p, Submission{Path: src}, BuildOptions{}, opts)
		if err != nil {
			t.Fatal(err)
		}
		if r.Verdict != verdict.WA || len(r.Tests) != tt.want || r.Tests[0].Index != 0 {
			t.Errorf("stop at %v: got %v on %d tests (%+v), want WA on the first %d", tt.stop, r.Verdict, len(r.Tests), r.Tests, tt.want)
		}
	}
}

// TestGradeFreshDirectory checks that every test starts in a working
// directory as new, though one worker's tests share it: a file a test left
// is gone, a program that replaced itself runs as built, and nothing set on
// the directory itself (mode, times, an extended attribute) is seen by the
// next test.
func TestGradeFreshDirectory(t *testing.T) {
	t.Parallel()
	p := sumProblem(t)
	opts := GradeOptions{Parallel: 1}
	src := filepath.Join(t.TempDir(), "leave.c")
	os.WriteFile(src, []byte(`#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/xattr.h>
#include <unistd.h>
int main(int argc, char **argv) {
	long a, b;
	if (scanf("%ld %ld", &a, &b) != 2) return 1;
	if (access("left", F_OK) == 0) a++;
	close(open("left", O_CREAT | O_WRONLY, 0644));
	char v[8];
	struct stat st;
	if (getxattr(".", "user.oj", v, sizeof v) > 0) a += 10;
	if (stat(".", &st) == 0 && ((st.st_mode & 0777) == 0777 || st.st_mtime == 12345)) a += 100;
	setxattr(".", "user.oj", "x", 1, 0);
	chmod(".", 0777);
	struct timeval tv[2] = {{12345, 0}, {12345, 0}};
	utimes(".", tv);
	unlink(argv[0]);
	int fd = open(argv[0], O_CREAT | O_WRONLY, 0755);
	if (fd < 0 || write(fd, "#!/bin/sh\necho 0\n", 17) != 17) return 2;
	close(fd);
	printf("%ld\n", a + b);
	return 0;
}
`), 0o644)
	r, err := newJudge(t).Grade(context.Background(), p, Submission{Path: src}, BuildOptions{}, opts)
	if err != nil {
		t.Fatal(err)
	}
	if r.Verdict != verdict.AC {
		t.Errorf("got %s, want AC on both tests", describe(r))
	}
}

func TestGradeLimitsOverride(t *testing.T) {
	t.Parallel()
	p := sumProblem(t)
	opts := parallel()
	opts.MemoryLimit = 64 * bytesize.MiB
	opts.TimeLimit = 10 * time.Second // far above what touching 64 MiB costs
	src := filepath.Join(t.TempDir(), "m.c")
	// 100 MiB is fine under the problem's 256 MiB, not under the 64 MiB override.
	os.WriteFile(src, []byte("#include <stdlib.h>\n#include <string.h>\n#include <stdio.h>\nint main(void){size_t n=100u<<20;char*p=malloc(n);memset(p,1,n);long a,b;scanf(\"%ld %ld\",&a,&b);printf(\"%ld\\n\",a+b+p[5]-1);}\n"), 0o644)
	r, err := newJudge(t).Grade(context.Background(), p, Submission{Path: src}, BuildOptions{}, opts)
	if err != nil {
		t.Fatal(err)
	}
	if r.Verdict != verdict.MLE || r.Limits.MemoryKiB != 64*1024 {
		t.Errorf("got %v under %d KiB, want MLE under 65536 KiB", r.Verdict, r.Limits.MemoryKiB)
	}
}

func TestGradeErrors(t *testing.T) {
	t.Parallel()
	p := sumProblem(t)
	j := newJudge(t)
	if _, err := j.Grade(context.Background(), p, Submission{Path: "/no/such/file.cpp"}, BuildOptions{}, parallel()); err == nil {
		t.Error("got no error for a missing submission")
	}
	odd := filepath.Join(t.TempDir(), "x.unknown")
	os.WriteFile(odd, []byte("x"), 0o644)
	if _, err := j.Grade(context.Background(), p, Submission{Path: odd}, BuildOptions{}, parallel()); err == nil || !strings.Contains(err.Error(), "no language") {
		t.Errorf("got %v, want a no-language error", err)
	}
}

// TestGradeCheckerErrorIsJE: a checker that cannot work makes the test JE,
// never AC. The tokens checker fails without an answer file, and this problem
// has no reference to make one.
func TestGradeCheckerErrorIsJE(t *testing.T) {
	t.Parallel()
	p := sumProblem(t)
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "1.in"), []byte("1 2\n"), 0o644)
	tests, err := problems.TestsIn(dir)
	if err != nil {
		t.Fatal(err)
	}
	opts := parallel()
	opts.Tests = tests
	src := filepath.Join(t.TempDir(), "ok.py")
	os.WriteFile(src, []byte("print(3)\n"), 0o644)
	r, err := newJudge(t).Grade(context.Background(), p, Submission{Path: src}, BuildOptions{}, opts)
	if err != nil {
		t.Fatal(err)
	}
	if r.Verdict != verdict.JE || !strings.Contains(r.Tests[0].Message, "no answer file") {
		t.Errorf("got %v %q, want JE about the answer file", r.Verdict, r.Tests[0].Message)
	}
}

// TestGradeReferenceSolutions grades the contestant-form reference
// (problems/internal/solution, the definition's solver as a program) of
// three embedded problems: it must be accepted on every test.
// TestGradeSubmissions grades every problem's examples.
func TestGradeReferenceSolutions(t *testing.T) {
	t.Parallel()
	j := newJudge(t)
	names := []string{"clocks", "eight-puzzle", "rotation-game"}
	if testing.Short() {
		names = names[:1] // the quickest; the full run grades all three
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			p, err := problems.LoadEmbedded(name)
			if err != nil {
				t.Fatal(err)
			}
			exe := filepath.Join(t.TempDir(), "solution")
			build := exec.Command("go", "build", "-ldflags", "-X main.problem="+name, "-o", exe, "../problems/internal/solution")
			if out, err := build.CombinedOutput(); err != nil {
				t.Fatalf("building the solution: %v\n%s", err, out)
			}
			// whether the reference is fast enough is the shipped time
			// limit's business (judge verify's margins): here, ten times
			// the limit, so that the verdict holds under any load
			opts := parallel()
			opts.TimeLimit = 10 * p.Limits.Time
			r, err := j.Grade(context.Background(), p, Submission{Path: exe}, BuildOptions{}, opts)
			if err != nil {
				t.Fatal(err)
			}
			if r.Verdict != verdict.AC {
				t.Errorf("got %v, want AC: %+v", r.Verdict, r.Tests)
			}
		})
	}
}

// TestGradeSubmissions grades every program under problems/*/submissions and
// compares with the verdict its folder names.
func TestGradeSubmissions(t *testing.T) {
	t.Parallel()
	pattern := "../problems/*/submissions/*/*"
	if testing.Short() {
		// one problem with an accepted, a wrong and a too slow program,
		// each quick to grade; the full run grades every problem's
		pattern = "../problems/lights-out/submissions/*/*"
	}
	subs, err := filepath.Glob(pattern)
	if err != nil {
		t.Fatal(err)
	}
	if len(subs) == 0 {
		t.Fatal("no submissions found")
	}
	j := newJudge(t)
	for _, sub := range subs {
		rel := strings.TrimPrefix(sub, "../problems/")
		t.Run(rel, func(t *testing.T) {
			t.Parallel() // the Judge's run tokens bound the CPUs they take
			parts := strings.Split(rel, string(filepath.Separator))
			want, err := verdict.Parse(parts[2])
			if err != nil {
				t.Fatal(err)
			}
			p, err := problems.LoadDir(filepath.Join("../problems", parts[0]))
			if err != nil {
				t.Fatal(err)
			}
			if p.Package.Layout == kattis.LayoutKattis {
				// a package's verdict is one of the ICPC's: a run over
				// the memory limit is a run-time error there
				want = kattis.Verdict(want)
			}
			opts := parallel()
			opts.Lazy = want != verdict.AC
			// Only TLE rests on the limit, and the time_limit_exceeded
			// programs need several times the problem's limit. Every
			// other verdict must hold on a machine three times slower
			// or under load: a generous limit (the slowest accepted
			// program needs a quarter of the problem's).
			if want != verdict.TLE {
				opts.TimeLimit = 10 * p.Limits.Time
			} else {
				// one test at a time: a second worker would spend up to
				// the whole limit (15 s of CPU on rotation-game) on a test
				// that the first TLE makes unneeded
				opts.Parallel = 1
			}
			r, err := j.Grade(context.Background(), p, Submission{Path: sub}, BuildOptions{}, opts)
			if err != nil {
				t.Fatal(err)
			}
			if r.Verdict != want {
				t.Errorf("got %v, want %v; first tests: %s", r.Verdict, want, describe(r))
			}
		})
	}
}

func describe(r *Report) string {
	var b strings.Builder
	for _, t := range r.Tests {
		if t.Verdict != verdict.AC {
			b.WriteString(t.Name + " " + t.Verdict.String() + " " + t.Message + "; ")
		}
	}
	if !r.Compile.OK {
		b.WriteString("compile: " + r.Compile.Message)
	}
	return b.String()
}

// TestExecFailureIsRE: an executable submission the machine cannot start
// (an ELF whose dynamic linker does not exist, as a musl binary on a glibc
// machine) is a run-time error, the contestant's, never JE.
func TestExecFailureIsRE(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("no gcc")
	}
	exe := filepath.Join(t.TempDir(), "prog")
	src := writeSource(t, "p.c", "int main(void) { return 0; }\n")
	if out, err := exec.Command("gcc", "-o", exe, "-Wl,--dynamic-linker=/nonexistent/ld.so.1", src).CombinedOutput(); err != nil {
		t.Skipf("gcc: %v\n%s", err, out)
	}
	r, err := newJudge(t).Grade(context.Background(), sumProblem(t), Submission{Path: exe}, BuildOptions{}, GradeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Verdict != verdict.RE || len(r.Tests) == 0 || !strings.Contains(r.Tests[0].Message, "cannot be executed") {
		t.Errorf("got %s, want RE: the program cannot be executed (%s)", r.Verdict, describe(r))
	}
}

// TestExecFailureBlame: an exec that fails is the contestant's when the
// file is the submission's own (a run script whose #! names nothing: RE; a
// build script's: CE) and the judge's when it is the language table's
// interpreter (JE).
func TestExecFailureBlame(t *testing.T) {
	t.Parallel()
	j := newJudge(t)
	p := sumProblem(t)
	script := func(files map[string]string) string {
		dir := t.TempDir()
		for name, content := range files {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o755); err != nil {
				t.Fatal(err)
			}
		}
		return dir
	}
	r, err := j.Grade(context.Background(), p, Submission{Path: script(map[string]string{"run": "#!/nonexistent/sh\n"})}, BuildOptions{}, GradeOptions{})
	if err != nil || r.Verdict != verdict.RE {
		t.Errorf("run with a bad #!: got %v, want RE (%s)", err, describeOrNil(r))
	}
	r, err = j.Grade(context.Background(), p, Submission{Path: script(map[string]string{"build": "#!/nonexistent/sh\n", "run": "#!/bin/sh\n"})}, BuildOptions{}, GradeOptions{})
	if err != nil || r.Verdict != verdict.CE || !strings.Contains(r.Compile.Message, "build cannot be executed") {
		t.Errorf("build with a bad #!: got %v, want CE (%s)", err, describeOrNil(r))
	}
	broken := filepath.Join(t.TempDir(), "interp")
	if err := os.WriteFile(broken, []byte("no #! and no ELF\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	os.Chmod(filepath.Dir(broken), 0o755)
	langs, err := lang.Parse(strings.NewReader(`languages:
  - name: broken
    extensions: [.brk]
    run: [`+broken+`, "{src}"]
    toolchain: ["`+filepath.Dir(broken)+`"]
`), "broken.yaml")
	if err != nil {
		t.Fatal(err)
	}
	r, err = j.Grade(context.Background(), p, Submission{Path: writeSource(t, "x.brk", "")}, BuildOptions{Languages: langs}, GradeOptions{})
	if err != nil || r.Verdict != verdict.JE {
		t.Errorf("a table interpreter that cannot run: got %v, want JE (%s)", err, describeOrNil(r))
	}
}

func describeOrNil(r *Report) string {
	if r == nil {
		return "no report"
	}
	return r.Verdict.String() + ": " + describe(r)
}
