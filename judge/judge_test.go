package judge

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/optjudge/optjudge/checkers"
	"github.com/optjudge/optjudge/judge/lang"
	"github.com/optjudge/optjudge/judge/sandbox"
	"github.com/optjudge/optjudge/problems"
	"github.com/optjudge/optjudge/problems/kattis"
	"github.com/optjudge/optjudge/verdict"
)

// slowSum prints a+b after a short sleep, so that concurrent runs overlap.
const slowSum = "#include <stdio.h>\n#include <time.h>\nint main(void){long a,b;struct timespec ts={0,30000000};" +
	"if(scanf(\"%ld %ld\",&a,&b)!=2)return 1;nanosleep(&ts,0);printf(\"%ld\\n\",a+b);return 0;}\n"

// TestJudgeConcurrent grades ten submissions at once on one Judge (one
// sandbox), with a second Judge of the same process and the same box uids
// at the same time, and watches the box processes as they run: no uid is
// ever in two boxes at once, and no more programs run at once than
// MaxRuns allows.
func TestJudgeConcurrent(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("box uids are a root judge's")
	}
	p := sumProblem(t)
	const maxRuns = 3
	j := newJudgeConfig(t, Config{MaxRuns: maxRuns})
	other := newJudge(t)
	stop := make(chan struct{})
	var sampled sync.WaitGroup
	sampled.Add(1)
	var problems []string
	var samples, most int
	go func() {
		defer sampled.Done()
		for {
			select {
			case <-stop:
				return
			default:
			}
			samples++
			p, n := checkBoxes(maxRuns + 4)
			if p != "" && len(problems) < 5 {
				problems = append(problems, p)
			}
			most = max(most, n)
			time.Sleep(time.Millisecond)
		}
	}()
	var wg sync.WaitGroup
	errs := make([]error, 12)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			jj := j
			if i >= 10 {
				jj = other
			}
			src := writeSource(t, fmt.Sprintf("sum%d.c", i), slowSum)
			r, err := jj.Grade(context.Background(), p, Submission{Path: src}, BuildOptions{}, GradeOptions{Parallel: 2})
			switch {
			case err != nil:
				errs[i] = err
			case r.Verdict != verdict.AC:
				errs[i] = fmt.Errorf("got %s: %s", r.Verdict, describe(r))
			}
		}()
	}
	wg.Wait()
	close(stop)
	sampled.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("grading %d: %v", i, err)
		}
	}
	for _, p := range problems {
		t.Error(p)
	}
	t.Logf("%d samples of the running boxes, at most %d at once", samples, most)
	if most == 0 {
		t.Error("no sample saw a box run: the test checked nothing")
	}
}

// checkBoxes looks at the processes of this package's box uids now: each
// uid must be in one box (one PID namespace), and at most maxBoxes boxes
// run. A scan of /proc is not one instant: a uid seen in two boxes counts
// only if both processes still live, in their boxes, when the scan is over.
func checkBoxes(maxBoxes int) (problem string, boxes int) {
	type seen struct{ pid, ns string }
	boxOf := map[int]seen{} // uid -> where it was first seen
	running := map[string]bool{}
	alive := func(s seen) bool {
		ns, err := os.Readlink("/proc/" + s.pid + "/ns/pid")
		return err == nil && ns == s.ns
	}
	var twice [][2]seen
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		var st syscall.Stat_t
		if syscall.Stat("/proc/"+e.Name(), &st) != nil || int(st.Uid) < firstBoxUID || int(st.Uid) >= lastBoxUID {
			continue
		}
		ns, err := os.Readlink("/proc/" + e.Name() + "/ns/pid")
		if err != nil {
			continue // ended
		}
		uid, here := int(st.Uid), seen{e.Name(), ns}
		if prev, ok := boxOf[uid]; ok && prev.ns != ns {
			twice = append(twice, [2]seen{prev, here})
		}
		if _, ok := boxOf[uid]; !ok {
			boxOf[uid] = here
		}
		running[ns] = true
	}
	for _, t := range twice {
		if alive(t[0]) && alive(t[1]) {
			return fmt.Sprintf("a box uid is in two boxes at once: process %s in %s and %s in %s", t[0].pid, t[0].ns, t[1].pid, t[1].ns), len(running)
		}
	}
	if len(running) > maxBoxes {
		return fmt.Sprintf("%d boxes run at once, want at most %d", len(running), maxBoxes), len(running)
	}
	return "", len(running)
}

// newJudgeConfig is newJudge with more of the Config.
func newJudgeConfig(t testing.TB, cfg Config) *Judge {
	t.Helper()
	cfg.Sandbox.FirstUID = firstBoxUID
	cfg.TempDir = t.TempDir()
	if cfg.Path == "" {
		cfg.Path = os.Getenv("PATH")
	}
	j, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { j.Close() })
	return j
}

// countingChecker accepts every output and counts its checks.
type countingChecker struct{ n atomic.Int64 }

func (c *countingChecker) Check(context.Context, checkers.Files) (checkers.Result, error) {
	c.n.Add(1)
	return checkers.Result{Verdict: verdict.AC}, nil
}

// manyTests writes n tests of the sum problem into a directory.
func manyTests(t *testing.T, n int) []kattis.Test {
	t.Helper()
	dir := t.TempDir()
	for i := range n {
		os.WriteFile(filepath.Join(dir, fmt.Sprintf("%02d.in", i)), []byte(fmt.Sprintf("%d 1\n", i)), 0o644)
		os.WriteFile(filepath.Join(dir, fmt.Sprintf("%02d.ans", i)), []byte(fmt.Sprintf("%d\n", i+1)), 0o644)
	}
	tests, err := problems.TestsIn(dir)
	if err != nil {
		t.Fatal(err)
	}
	return tests
}

// TestProgressOffTheLock: a Progress that blocks holds up no worker: every
// test is run and checked while the first Progress call waits, and every
// call comes before Grade returns.
func TestProgressOffTheLock(t *testing.T) {
	t.Parallel()
	const n = 6
	p := sumProblem(t)
	chk := &countingChecker{}
	var calls atomic.Int64
	stalled := make(chan error, 1)
	o := GradeOptions{Tests: manyTests(t, n), Parallel: 2, Checker: chk, Progress: func(TestResult) {
		if calls.Add(1) > 1 {
			return
		}
		deadline := time.Now().Add(time.Minute)
		for chk.n.Load() < n {
			if time.Now().After(deadline) {
				stalled <- errors.New("the workers stalled while Progress ran")
				return
			}
			time.Sleep(time.Millisecond)
		}
	}}
	r, err := newJudge(t).Grade(context.Background(), p, Submission{Path: writeSource(t, "sum.c", slowSum)}, BuildOptions{}, o)
	if err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-stalled:
		t.Fatal(err)
	default:
	}
	if got := calls.Load(); got != n || r.Verdict != verdict.AC || len(r.Tests) != n {
		t.Errorf("got %d Progress calls and %s on %d tests, want %d and AC on %d", got, r.Verdict, len(r.Tests), n, n)
	}
}

// TestCancelledGrading: a cancelled grading returns the tests that
// finished, in a report marked incomplete, with ctx's error.
func TestCancelledGrading(t *testing.T) {
	p := sumProblem(t)
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "1.in"), []byte("1 2\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "1.ans"), []byte("3\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "2.in"), []byte("0 0\n"), 0o644) // the program sleeps on it
	os.WriteFile(filepath.Join(dir, "2.ans"), []byte("0\n"), 0o644)
	tests, err := problems.TestsIn(dir)
	if err != nil {
		t.Fatal(err)
	}
	src := writeSource(t, "sleepy.c", "#include <stdio.h>\n#include <unistd.h>\nint main(void){long a,b;scanf(\"%ld %ld\",&a,&b);"+
		"if(a==0)sleep(60);printf(\"%ld\\n\",a+b);return 0;}\n")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	o := GradeOptions{Tests: tests, WallLimit: time.Minute, Progress: func(tr TestResult) { cancel() }}
	r, err := newJudge(t).Grade(ctx, p, Submission{Path: src}, BuildOptions{}, o)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("got error %v, want %v", err, context.Canceled)
	}
	if r == nil || !r.Incomplete || r.Verdict != verdict.Unknown || len(r.Tests) != 1 || r.Tests[0].Verdict != verdict.AC {
		t.Fatalf("got %+v, want an incomplete report with the first test, AC", r)
	}
	if left := boxProcesses(); len(left) > 0 {
		t.Errorf("left running: %s", strings.Join(left, ", "))
	}
}

// TestOutputsInMemory: each result carries its index and the program's
// output, whatever order the tests finish in.
func TestOutputsInMemory(t *testing.T) {
	t.Parallel()
	p := sumProblem(t)
	tests := manyTests(t, 5)
	r, err := newJudge(t).Grade(context.Background(), p, Submission{Path: writeSource(t, "sum.py", "a, b = map(int, input().split())\nprint(a + b)\n")},
		BuildOptions{}, GradeOptions{Tests: tests, Parallel: 3})
	if err != nil {
		t.Fatal(err)
	}
	for i, tr := range r.Tests {
		if want := fmt.Sprintf("%d\n", i+1); tr.Index != i || tr.Name != tests[i].Name || string(tr.Output) != want {
			t.Errorf("test %d: got index %d, name %s, output %q, want %d, %s, %q", i, tr.Index, tr.Name, tr.Output, i, tests[i].Name, want)
		}
	}
}

// TestCheckerBuiltOnce: a problem's checker program is built once per
// Judge and problem version, and again when the problem changes.
func TestCheckerBuiltOnce(t *testing.T) {
	t.Parallel()
	files := map[string]string{
		"problem.yaml":      "name: sum\ntitle: Sum\nchecker:\n  program: checker/check.cpp\n  protocol: testlib\n",
		"checker/check.cpp": testlibSum,
	}
	p := checkerProblem(t, files)
	j := newJudge(t)
	src := writeSource(t, "s.py", "a, b = map(int, input().split())\nprint(a + b)\n")
	for range 2 {
		r, err := j.Grade(context.Background(), p, Submission{Path: src}, BuildOptions{}, ample())
		if err != nil || r.Verdict != verdict.AC {
			t.Fatalf("got %v, %v, want AC", r, err)
		}
	}
	if n := toolsBuilt(j); n != 1 {
		t.Errorf("after two gradings: %d checker builds, want 1", n)
	}
	same, err := problems.LoadDir(p.Dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := j.Checker(context.Background(), same, nil); err != nil {
		t.Fatal(err)
	}
	if n := toolsBuilt(j); n != 1 {
		t.Errorf("the same files loaded again: %d checker builds, want 1", n)
	}
	os.WriteFile(filepath.Join(p.Dir, "testdata", "secret", "3.in"), []byte("1 1\n"), 0o644)
	changed, err := problems.LoadDir(p.Dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := j.Checker(context.Background(), changed, nil); err != nil {
		t.Fatal(err)
	}
	if n := toolsBuilt(j); n != 2 {
		t.Errorf("a new version of the problem: %d checker builds, want 2", n)
	}
}

func toolsBuilt(j *Judge) int {
	j.mu.Lock()
	defer j.mu.Unlock()
	return len(j.tools)
}

// TestKeep: Keep keeps the build and the working directories, with the
// outputs beside them, past the Judge's Close.
func TestKeep(t *testing.T) {
	t.Parallel()
	p := sumProblem(t)
	tmp := t.TempDir()
	j, err := New(Config{Sandbox: sandbox.Options{FirstUID: firstBoxUID}, TempDir: tmp, Path: os.Getenv("PATH")})
	if err != nil {
		t.Fatal(err)
	}
	r, err := j.Grade(context.Background(), p, Submission{Path: writeSource(t, "sum.py", "a, b = map(int, input().split())\nprint(a + b)\n")},
		BuildOptions{Keep: true}, GradeOptions{Keep: true})
	j.Close()
	if err != nil || r.Verdict != verdict.AC {
		t.Fatalf("got %v, %v, want AC", r, err)
	}
	if _, err := os.Stat(filepath.Join(r.KeptIn, "sum.py")); err != nil {
		t.Errorf("the kept build: %v", err)
	}
	if out, err := os.ReadFile(filepath.Join(r.Tests[0].Dir, "stdout.txt")); err != nil || string(out) != "3\n" {
		t.Errorf("the kept working directory's stdout.txt: got %q, %v, want \"3\\n\"", out, err)
	}
}

// TestExportImport: a build exported from one Judge grades the same in
// another without compiling; a build's key names its source (the file's
// name too: a Java class must be in its file), language and compiler.
func TestExportImport(t *testing.T) {
	t.Parallel()
	p := sumProblem(t)
	a, b := newJudge(t), newJudge(t)
	src := writeSource(t, "sum.cpp", "#include <iostream>\nint main(){long a,b;std::cin>>a>>b;std::cout<<a+b<<\"\\n\";}\n")
	ce := writeSource(t, "ce.cpp", "int main() { return nope; }\n")
	ctx := context.Background()
	for _, tt := range []struct {
		src  string
		want verdict.Verdict
	}{{src, verdict.AC}, {ce, verdict.CE}} {
		pp, err := a.Prepare(ctx, Submission{Path: tt.src}, BuildOptions{})
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := pp.Export(&buf); err != nil {
			t.Fatal(err)
		}
		pp.Close()
		imported, err := b.Import(&buf)
		if err != nil {
			t.Fatal(err)
		}
		r, err := imported.Grade(ctx, p, ample())
		imported.Close()
		if err != nil || r.Verdict != tt.want || r.Language != "cpp" || r.Compile.OK != (tt.want != verdict.CE) {
			t.Errorf("%s imported: got %+v, %v, want %s", filepath.Base(tt.src), r, err, tt.want)
		}
	}
	k1, err := a.BuildKey(Submission{Path: src}, BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	copied := writeSource(t, "other-name.cpp", mustRead(t, src))
	for _, tt := range []struct {
		name  string
		sub   string
		o     BuildOptions
		other bool // in the other Judge
		same  bool
	}{
		{"the same file", src, BuildOptions{}, false, true},
		{"the same file in another Judge", src, BuildOptions{}, true, true},
		{"the same source under another name", copied, BuildOptions{}, false, false},
		{"another source", ce, BuildOptions{}, false, false},
		{"another language", src, BuildOptions{Lang: "c"}, false, false},
	} {
		j := a
		if tt.other {
			j = b
		}
		k, err := j.BuildKey(Submission{Path: tt.sub}, tt.o)
		if err != nil {
			t.Fatal(err)
		}
		if (k == k1) != tt.same {
			t.Errorf("%s: got key %s against %s, want the same: %v", tt.name, k, k1, tt.same)
		}
	}
}

func mustRead(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestImportRefuses: an archive that is not a build of this Judge's table
// is refused.
func TestImportRefuses(t *testing.T) {
	t.Parallel()
	j := newJudge(t)
	ctx := context.Background()
	pp, err := j.Prepare(ctx, Submission{Path: writeSource(t, "a.py", "print(1)\n")}, BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var good bytes.Buffer
	if err := pp.Export(&good); err != nil {
		t.Fatal(err)
	}
	other, err := lang.Parse(strings.NewReader("languages:\n  - name: python\n    extensions: [.py]\n    file: main.py\n    run: [python3, -S, \"{src}\"]\n"), "other.yaml")
	if err != nil {
		t.Fatal(err)
	}
	pp2, err := j.Prepare(ctx, Submission{Path: writeSource(t, "b.py", "print(1)\n")}, BuildOptions{Languages: other})
	if err != nil {
		t.Fatal(err)
	}
	var otherTable bytes.Buffer
	if err := pp2.Export(&otherTable); err != nil {
		t.Fatal(err)
	}
	pp.Close()
	pp2.Close()
	for _, tt := range []struct {
		name string
		data []byte
		want string
	}{
		{"not a tar", []byte("hello"), "no manifest"},
		{"cut short", good.Bytes()[:good.Len()/2], ""},
		{"another table's entry", otherTable.Bytes(), "another table entry"},
	} {
		imported, err := j.Import(bytes.NewReader(tt.data))
		if err == nil {
			imported.Close()
			t.Errorf("%s: imported, want an error", tt.name)
			continue
		}
		if !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: got %v, want %q", tt.name, err, tt.want)
		}
	}
	leftBuilds(t, j)
}

// TestBuildKeyVersion: a toolchain upgraded behind a program file that
// stays the same (a wrapper script, a launcher) is a new key: the key
// holds what the language's version command says, asked once per Judge.
func TestBuildKeyVersion(t *testing.T) {
	t.Parallel()
	ver := filepath.Join(t.TempDir(), "version")
	if err := os.WriteFile(ver, []byte("wrapped 1.0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	langs, err := lang.Parse(strings.NewReader(`languages:
  - name: wrapped
    extensions: [.wrap]
    file: main.wrap
    compile: [sh, -c, "cp {src} {exe}"]
    run: ["{exe}"]
    version: [sh, -c, "cat `+ver+`"]
`), "wrapped.yaml")
	if err != nil {
		t.Fatal(err)
	}
	src := writeSource(t, "x.wrap", "#!/bin/sh\n")
	key := func(j *Judge) string {
		t.Helper()
		k, err := j.BuildKey(Submission{Path: src}, BuildOptions{Languages: langs})
		if err != nil {
			t.Fatal(err)
		}
		return k
	}
	a := newJudge(t)
	k1 := key(a)
	if err := os.WriteFile(ver, []byte("wrapped 2.0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if k := key(newJudge(t)); k == k1 {
		t.Errorf("the key stayed %s when the version changed", k)
	}
	if k := key(a); k != k1 {
		t.Errorf("the same Judge asked the version again: got %s, want %s", k, k1)
	}
}

// TestStaleDirsSwept: the directory a crashed Judge left (its lock file
// free) goes when the next Judge of the same TempDir starts; a live
// Judge's, a kept build's and a foreign directory stay.
func TestStaleDirsSwept(t *testing.T) {
	t.Parallel()
	tmp := t.TempDir()
	os.Chmod(tmp, 0o755)
	live, err := New(Config{TempDir: tmp, Sandbox: sandbox.Options{FirstUID: firstBoxUID}})
	if err != nil {
		t.Fatal(err)
	}
	defer live.Close()
	stale := filepath.Join(tmp, "optjudge-12345")
	kept := filepath.Join(tmp, "optjudge-build-678")
	foreign := filepath.Join(tmp, "optjudge-999")
	for _, d := range []string{filepath.Join(stale, "build-1"), kept, foreign} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(stale, lockName), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	next, err := New(Config{TempDir: tmp, Sandbox: sandbox.Options{FirstUID: firstBoxUID}})
	if err != nil {
		t.Fatal(err)
	}
	defer next.Close()
	if _, err := os.Stat(stale); err == nil {
		t.Errorf("the crashed Judge's %s is still there", stale)
	}
	for _, d := range []string{live.TempDir(), next.TempDir(), kept, foreign} {
		if _, err := os.Stat(d); err != nil {
			t.Errorf("%s went: %v", d, err)
		}
	}
}

// TestOutputsKept: GradeOptions.Outputs keeps every test's output, the
// rejected tests' only, or none.
func TestOutputsKept(t *testing.T) {
	t.Parallel()
	p := sumProblem(t)
	tests := manyTests(t, 4)
	j := newJudge(t)
	// right on the odd tests, one too many on the even ones
	src := writeSource(t, "sum.py", "a, b = map(int, input().split())\nprint(a + b + (a % 2 == 0))\n")
	pp, err := j.Prepare(context.Background(), Submission{Path: src}, BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer pp.Close()
	for _, tt := range []struct {
		o    Outputs
		kept func(verdict.Verdict) bool
	}{
		{OutputsAll, func(verdict.Verdict) bool { return true }},
		{OutputsRejected, func(v verdict.Verdict) bool { return v != verdict.AC }},
		{OutputsNone, func(verdict.Verdict) bool { return false }},
	} {
		r, err := pp.Grade(context.Background(), p, GradeOptions{Tests: tests, Parallel: 2, Outputs: tt.o})
		if err != nil {
			t.Fatal(err)
		}
		var acs, was int
		for _, tr := range r.Tests {
			if (tr.Output != nil) != tt.kept(tr.Verdict) {
				t.Errorf("Outputs %d: %s (%s) has output %q", tt.o, tr.Name, tr.Verdict, tr.Output)
			}
			switch tr.Verdict {
			case verdict.AC:
				acs++
			case verdict.WA:
				was++
			}
		}
		if acs == 0 || was == 0 {
			t.Fatalf("want both AC and WA tests, got %s", describe(r))
		}
	}
}

// TestChmodDirNoFollow: the removal's fallback changes a directory's mode
// even without the right to read it, and never a link's target.
func TestChmodDirNoFollow(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	target, locked, link := filepath.Join(root, "target"), filepath.Join(root, "locked"), filepath.Join(root, "link")
	for _, d := range []string{target, locked} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	os.Chmod(locked, 0)
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	chmodDir(link, 0o700)
	chmodDir(locked, 0o700)
	if fi, _ := os.Stat(target); fi.Mode().Perm() != 0o755 {
		t.Errorf("the link's target became %v", fi.Mode().Perm())
	}
	if fi, _ := os.Stat(locked); fi.Mode().Perm() != 0o700 {
		t.Errorf("the unreadable directory is %v, want 0700", fi.Mode().Perm())
	}
}

// TestStaleSweepOwnOnly: a directory that looks like a crashed Judge's but
// is another user's, or whose lock file is a link, stays.
func TestStaleSweepOwnOnly(t *testing.T) {
	t.Parallel()
	if os.Geteuid() != 0 {
		t.Skip("making another user's directory needs root")
	}
	tmp := t.TempDir()
	foreign, linked := filepath.Join(tmp, "optjudge-111"), filepath.Join(tmp, "optjudge-222")
	for _, d := range []string{foreign, linked} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(foreign, lockName), nil, 0o644)
	os.Chown(filepath.Join(foreign, lockName), 12345, 12345)
	os.Chown(foreign, 12345, 12345)
	other := filepath.Join(tmp, "other-lock")
	os.WriteFile(other, nil, 0o644)
	if err := os.Symlink(other, filepath.Join(linked, lockName)); err != nil {
		t.Fatal(err)
	}
	sweepStale(tmp, "")
	for _, d := range []string{foreign, linked} {
		if _, err := os.Stat(d); err != nil {
			t.Errorf("%s went: %v", d, err)
		}
	}
}
