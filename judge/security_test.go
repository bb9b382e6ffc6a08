package judge

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"

	"github.com/optjudge/optjudge/judge/lang"
	"github.com/optjudge/optjudge/judge/sandbox"
	"github.com/optjudge/optjudge/problems"
	"github.com/optjudge/optjudge/verdict"
)

// secretProblem writes a problem whose one test's answer is a random
// marker: only a program that read the answer file could print it.
func secretProblem(t *testing.T) (p *problems.Problem, ans, marker string) {
	t.Helper()
	b := make([]byte, 12)
	rand.Read(b)
	marker = "SECRET" + hex.EncodeToString(b)
	dir := t.TempDir()
	for name, content := range map[string]string{
		"problem.yaml":          "name: secret\ntitle: Secret\nlimits:\n  time_limit: 5\n  memory: 256\n  output: 1\n",
		"testdata/secret/1.in":  "what is the answer?\n",
		"testdata/secret/1.ans": marker + "\n",
	} {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	p, err := problems.LoadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	return p, filepath.Join(dir, "testdata", "secret", "1.ans"), marker
}

// contained skips a test that needs builds inside the namespaces.
func contained(t *testing.T, j *Judge) {
	t.Helper()
	if j.Isolation() == sandbox.IsolationNone {
		t.Skip("isolation none: compilation is not contained here")
	}
}

// TestBuildSeesNoTestFiles: a submission that embeds the test's answer at
// compile time, by every way a C compiler reads a file, gets CE or WA and
// never AC, and no CE message carries a byte of a file outside the
// submission: not the answer, not a file of the judge, not /etc's.
func TestBuildSeesNoTestFiles(t *testing.T) {
	t.Parallel()
	p, ans, marker := secretProblem(t)
	j := newJudge(t)
	contained(t, j)
	self, err := filepath.Abs("grade.go")
	if err != nil {
		t.Fatal(err)
	}
	judgeLine := "func (g *grader) runTest(" // a line of grade.go
	passwd, _ := os.ReadFile("/etc/passwd")
	firstPasswd, _, _ := strings.Cut(string(passwd), "\n")
	tests := []struct{ name, file, src string }{
		{"incbin", "incbin.c", `#include <stdio.h>
__asm__(".section .rodata\n.global ans\nans:\n.incbin \"` + ans + `\"\n.byte 0\n.text\n");
extern const char ans[];
int main(void) { fputs(ans, stdout); return 0; }
`},
		{"include the answer", "include.c", "#include <stdio.h>\nint main(void) { puts(\n#include \"" + ans + "\"\n); }\n"},
		{"has_include probe", "probe.c", "#include <stdio.h>\nint main(void) {\n#if __has_include(\"" + ans + "\")\n" +
			"puts(\"" + marker + "\");\n#else\nputs(\"hidden\");\n#endif\nreturn 0; }\n"},
		{"include the judge's source", "judge.c", "#include \"" + self + "\"\nint main(void) { return 0; }\n"},
		{"include the directory above", "dotdot.c", "#include \"../../../../../../../../" + ans + "\"\nint main(void) { return 0; }\n"},
		{"include /etc/passwd", "passwd.c", "#include \"/etc/passwd\"\nint main(void) { return 0; }\n"},
		{"include its own /proc", "proc.c", "#include \"/proc/self/cwd/../../../../../../../" + ans + "\"\nint main(void) { return 0; }\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := writeSource(t, tt.file, tt.src)
			r, err := j.Grade(context.Background(), p, Submission{Path: src}, BuildOptions{}, parallel())
			if err != nil {
				t.Fatal(err)
			}
			if r.Verdict != verdict.CE && r.Verdict != verdict.WA {
				t.Errorf("got %s, want CE or WA: %s", r.Verdict, describe(r))
			}
			msg := r.Compile.Message
			t.Logf("%s: %s", r.Verdict, firstLine([]byte(msg), 200))
			for _, leak := range []string{marker, judgeLine, firstPasswd} {
				if leak != "" && strings.Contains(msg, leak) {
					t.Errorf("the CE message shows %q:\n%s", leak, msg)
				}
			}
		})
	}
}

// TestBuildAtNone is the control of TestBuildSeesNoTestFiles: at isolation
// none, where compilation is not contained (and Warning says so), the same
// .incbin program reads an answer the compiler's user can read and is
// accepted: the attack is real, only the box stops it. A root judge's
// compiler runs as a box uid there, never as root: an answer in the
// judge's private directory is out of its reach.
func TestBuildAtNone(t *testing.T) {
	t.Parallel()
	j, err := New(Config{Sandbox: sandbox.Options{Isolation: sandbox.IsolationNone, FirstUID: firstBoxUID}, Path: os.Getenv("PATH")})
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	incbin := func(t *testing.T, p *problems.Problem, file string) *Report {
		t.Helper()
		src := writeSource(t, "incbin.c", `#include <stdio.h>
__asm__(".section .rodata\n.global ans\nans:\n.incbin \"`+file+`\"\n.byte 0\n.text\n");
extern const char ans[];
int main(void) { fputs(ans, stdout); return 0; }
`)
		r, err := j.Grade(context.Background(), p, Submission{Path: src}, BuildOptions{}, GradeOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	t.Run("readable", func(t *testing.T) {
		p, ans, _ := secretProblem(t)
		// every directory on the way open to every user, as a shared
		// checkout's often are
		for d := filepath.Dir(ans); d != os.TempDir() && d != "/"; d = filepath.Dir(d) {
			if err := os.Chmod(d, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		r := incbin(t, p, ans)
		if r.Verdict != verdict.AC {
			t.Errorf("got %s, want AC: the uncontained build reads the answer (%s)", r.Verdict, describe(r))
		}
	})
	if os.Geteuid() != 0 {
		return
	}
	t.Run("private", func(t *testing.T) {
		p, ans, _ := secretProblem(t) // below a directory of mode 0700
		if r := incbin(t, p, ans); r.Verdict != verdict.CE {
			t.Errorf("got %s, want CE: a box uid cannot read the judge's private answer (%s)", r.Verdict, describe(r))
		}
	})
	t.Run("uid", func(t *testing.T) {
		langs, err := lang.Parse(strings.NewReader(`languages:
  - name: whoami
    extensions: [.who]
    file: main.who
    compile: [sh, -c, "echo compiler uid $(id -u); exit 1", "{src}"]
    run: ["{exe}"]
`), "whoami.yaml")
		if err != nil {
			t.Fatal(err)
		}
		pp, err := j.Prepare(context.Background(), Submission{Path: writeSource(t, "x.who", "")}, BuildOptions{Languages: langs})
		if err != nil {
			t.Fatal(err)
		}
		defer pp.Close()
		msg := pp.Compile.Message
		if m := regexp.MustCompile(`compiler uid (\d+)`).FindStringSubmatch(msg); m == nil || m[1] == "0" {
			t.Errorf("want the compiler to run as a box uid, not root; it said:\n%s", msg)
		}
	})
}

// TestBuildLimits: a build that never ends, that forks without end, that
// reads /dev/zero, or that writes without end ends as CE within the
// language's compile limits, with nothing left running. The fork bomb's
// shell forks once, then execs its sleep: a fork of its own once the bomb
// runs would fail at the process limit and end the build (exit 2) before
// any limit, as it did on a busy machine.
func TestBuildLimits(t *testing.T) {
	langs, err := lang.Parse(strings.NewReader(`languages:
  - name: spin
    extensions: [.spin]
    file: main.spin
    compile: [sh, -c, "while :; do :; done", "{src}"]
    run: ["{exe}"]
    compile_limits: {time: 1}
  - name: forks
    extensions: [.forks]
    file: main.forks
    compile: [sh, -c, "f() { f | f & }; f & exec sleep 60", "{src}"]
    run: ["{exe}"]
    compile_limits: {time: 2, processes: 16}
  - name: writes
    extensions: [.writes]
    file: main.writes
    compile: [sh, -c, "exec cat /dev/zero > main.exe", "{src}"]
    run: ["{exe}"]
    compile_limits: {time: 10, output: 4}
  - name: c
    extensions: [.c]
    file: main.c
    compile: [gcc, -o, "{exe}", "{src}"]
    run: ["{exe}"]
    compile_limits: {time: 10, memory: 256}
`), "test.yaml")
	if err != nil {
		t.Fatal(err)
	}
	j := newJudge(t)
	tests := []struct{ file, src, want string }{
		// never ends: its CPU limit ends it, or on a machine busy enough
		// to give it less than a third of a core, its wall-clock limit
		{"x.spin", "", "compilation exceeded the "},
		{"x.forks", "", "limit"},
		{"x.writes", "", "wrote more than its limit"},
		{"zero.c", "#include \"/dev/zero\"\nint main(void) { return 0; }\n", "limit"},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			pp, err := j.Prepare(context.Background(), Submission{Path: writeSource(t, tt.file, tt.src)}, BuildOptions{Languages: langs})
			if err != nil {
				t.Fatal(err)
			}
			defer pp.Close()
			if pp.Compile.OK || !strings.Contains(pp.Compile.Message, tt.want) {
				t.Errorf("got %+v, want a failure with %q", pp.Compile, tt.want)
			}
			if left := boxProcesses(); len(left) > 0 {
				t.Errorf("left running: %s", strings.Join(left, ", "))
			}
			leftBuilds(t, j)
		})
	}
}

// TestBuildLargeExecutable: under the default limits a build may write an
// executable as large as a 512 MiB static array makes it (DOMjudge's and
// BAPCtools' hello has one, to be judged RE or WA, never CE); a sparse file
// costs no disk.
func TestBuildLargeExecutable(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("-short: a build of an 1100 MiB executable (46 s under load)")
	}
	langs, err := lang.Parse(strings.NewReader(`languages:
  - name: large
    extensions: [.large]
    file: main.large
    compile: [sh, -c, "truncate -s 1100M main.exe && chmod +x main.exe", "{src}"]
    run: ["{exe}"]
`), "test.yaml")
	if err != nil {
		t.Fatal(err)
	}
	j := newJudge(t)
	pp, err := j.Prepare(context.Background(), Submission{Path: writeSource(t, "x.large", "")}, BuildOptions{Languages: langs})
	if err != nil {
		t.Fatal(err)
	}
	defer pp.Close()
	if !pp.Compile.OK {
		t.Errorf("a 1100 MiB executable: got %+v, want it built", pp.Compile)
	}
}

// boxProcesses lists the processes of this package's box uids that have not
// ended.
func boxProcesses() []string {
	var left []string
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		var st syscall.Stat_t
		if syscall.Stat("/proc/"+e.Name(), &st) != nil || int(st.Uid) < firstBoxUID || int(st.Uid) >= lastBoxUID {
			continue
		}
		stat, _ := os.ReadFile("/proc/" + e.Name() + "/stat")
		if i := strings.LastIndexByte(string(stat), ')'); i > 0 && i+2 < len(stat) && stat[i+2] == 'Z' {
			continue
		}
		comm, _ := os.ReadFile("/proc/" + e.Name() + "/comm")
		left = append(left, e.Name()+" ("+strings.TrimSpace(string(comm))+")")
	}
	return left
}

// TestNoneNeverRoot: at isolation none a root judge runs the contestant's
// program as a box uid, and every report says that builds are not
// contained.
func TestNoneNeverRoot(t *testing.T) {
	t.Parallel()
	j, err := New(Config{Sandbox: sandbox.Options{Isolation: sandbox.IsolationNone, FirstUID: firstBoxUID}, Path: os.Getenv("PATH")})
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	p := sumProblem(t)
	src := writeSource(t, "uid.c", "#include <stdio.h>\n#include <unistd.h>\nint main(void) { printf(\"%d\\n\", (int)getuid()); return 0; }\n")
	r, err := j.Grade(context.Background(), p, Submission{Path: src}, BuildOptions{}, GradeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(r.Warning, "compilation and the problem's programs are not contained") {
		t.Errorf("got warning %q, want it to say that compilation is not contained", r.Warning)
	}
	if len(r.Tests) == 0 {
		t.Fatalf("no test ran: %s", describe(r))
	}
	uid := strings.TrimSpace(string(r.Tests[0].Output))
	if os.Geteuid() == 0 && uid == "0" {
		t.Errorf("the program ran as root")
	}
}

// TestGoCacheReadOnly: a build sees the Judge's Go cache but cannot write
// to it, so that no build plants a compiled package for the next.
func TestGoCacheReadOnly(t *testing.T) {
	t.Parallel()
	langs, err := lang.Parse(strings.NewReader(`languages:
  - name: planter
    extensions: [.plant]
    file: main.plant
    compile: [sh, -c, "ls \"$GOCACHE\" > /dev/null && echo planted > \"$GOCACHE/planted\"", "{src}"]
    run: ["{exe}"]
    go_cache: true
`), "planter.yaml")
	if err != nil {
		t.Fatal(err)
	}
	j := newJudge(t)
	contained(t, j)
	pp, err := j.Prepare(context.Background(), Submission{Path: writeSource(t, "x.plant", "")}, BuildOptions{Languages: langs})
	if err != nil {
		t.Fatal(err)
	}
	defer pp.Close()
	if pp.Compile.OK || !strings.Contains(pp.Compile.Message, "Read-only file system") {
		t.Errorf("got %+v, want a failure to write to a read-only cache", pp.Compile)
	}
	if _, err := os.Stat(filepath.Join(j.boxGoCache, "planted")); err == nil {
		os.Remove(filepath.Join(j.boxGoCache, "planted"))
		t.Error("the build wrote to the Go cache")
	}
}
