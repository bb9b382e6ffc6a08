package watch

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/optjudge/optjudge/internal/handwritten/clocks"
	"github.com/optjudge/optjudge/judge"
	"github.com/optjudge/optjudge/problems"
	"github.com/optjudge/optjudge/verdict"
)

// The end-to-end tests watch a Python solution of clocks on a small --tests
// directory, with the real file watcher, judge and sandbox. The debounce is
// longer than the default so that a slow machine cannot split one burst of
// writes in two.
const testDebounce = 300 * time.Millisecond

var clocksTests = []string{"3 3 0\n2 2 2\n2 1 2\n", "0 0 0\n0 0 0\n0 0 1\n"}

// rightSolution answers the inputs of clocksTests from a table.
func rightSolution(t testing.TB) string {
	t.Helper()
	var table []string
	for _, in := range clocksTests {
		ans, err := clocks.Solve([]byte(in))
		if err != nil {
			t.Fatal(err)
		}
		table = append(table, fmt.Sprintf("%q: %q", strings.Join(strings.Fields(in), " "), strings.TrimSpace(string(ans))))
	}
	return "import sys\nANSWERS = {" + strings.Join(table, ", ") + "}\n" +
		"print(ANSWERS[\" \".join(sys.stdin.read().split())])\n"
}

const wrongSolution = "print(1)\n"

// sleeper execs sleep with a number no other process uses, so the test can
// find it in /proc.
func sleeper() (src, marker string) {
	marker = fmt.Sprintf("317.%09d", rand.IntN(1e9))
	return fmt.Sprintf("import os\nos.execv(\"/usr/bin/sleep\", [\"sleep\", %q])\n", marker), marker
}

// running reports whether a process runs with marker among its arguments.
func running(t testing.TB, marker string) bool {
	t.Helper()
	procs, err := filepath.Glob("/proc/[0-9]*/cmdline")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range procs {
		if b, err := os.ReadFile(p); err == nil && bytes.Contains(b, []byte(marker)) {
			return true
		}
	}
	return false
}

func needPython(t testing.TB) {
	t.Helper()
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is not installed")
	}
}

// watched is a running watch of a source file.
type watched struct {
	t        testing.TB
	source   string
	testsDir string
	tmp      string // the grades' temporary directories go here
	judge    *judge.Judge
	events   chan Event
	stop     context.CancelFunc
	done     chan struct{}
	grades   int // Started events seen
}

func startWatch(t testing.TB, solution string) *watched {
	t.Helper()
	return startWatchDebounce(t, solution, testDebounce)
}

func startWatchDebounce(t testing.TB, solution string, debounce time.Duration) *watched {
	t.Helper()
	needPython(t)
	p, err := problems.LoadEmbedded("clocks")
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	w := &watched{
		t:        t,
		source:   filepath.Join(root, "main.py"),
		testsDir: filepath.Join(root, "tests"),
		tmp:      filepath.Join(root, "tmp"),
		events:   make(chan Event, 1000),
		done:     make(chan struct{}),
	}
	for _, d := range []string{w.testsDir, w.tmp} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for i, in := range clocksTests {
		w.writeTest(fmt.Sprint(i+1), in)
	}
	w.write(w.source, solution)
	ctx, cancel := context.WithCancel(context.Background())
	w.stop = cancel
	changes, err := Files(ctx, w.source, TestDirs(p, w.testsDir))
	if err != nil {
		t.Fatal(err)
	}
	w.judge = newJudge(t, w.tmp)
	// no program of these tests meets a limit (the sleeper is cancelled):
	// 10 s of CPU and a minute of wall clock, however busy the machine
	g := &Grader{Judge: w.judge, Problem: p, Source: w.source, TestsDir: w.testsDir, Options: judge.GradeOptions{
		Parallel: 1, TimeLimit: 10 * time.Second, WallLimit: time.Minute,
	}}
	loop := &Loop{Source: w.source, Grade: g.Grade, Show: func(e Event) { w.events <- e }, Debounce: debounce}
	go func() {
		defer close(w.done)
		loop.Run(ctx, changes)
	}()
	t.Cleanup(w.end)
	return w
}

// end stops the watch and checks that it left no file behind.
func (w *watched) end() {
	w.stop()
	<-w.done
	if err := w.judge.Close(); err != nil {
		w.t.Errorf("closing the judge: %v", err)
	}
	if left, _ := os.ReadDir(w.tmp); len(left) > 0 {
		w.t.Errorf("the grades left %d files in their temporary directory, e.g. %s", len(left), left[0].Name())
	}
}

func (w *watched) write(path, content string) {
	w.t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		w.t.Fatal(err)
	}
}

func (w *watched) writeTest(name, input string) {
	w.t.Helper()
	ans, err := clocks.Solve([]byte(input))
	if err != nil {
		w.t.Fatal(err)
	}
	w.write(filepath.Join(w.testsDir, name+".ans"), string(ans))
	w.write(filepath.Join(w.testsDir, name+".in"), input)
}

// saveAtomically saves content as many editors do: a temporary file in the
// same directory, renamed over the source.
func (w *watched) saveAtomically(content string) {
	w.t.Helper()
	tmp := filepath.Join(filepath.Dir(w.source), ".main.py.tmp1234")
	w.write(tmp, content)
	if err := os.Rename(tmp, w.source); err != nil {
		w.t.Fatal(err)
	}
}

// next returns the next event other than a test line, which must be of kind k.
func (w *watched) next(k Kind) Event {
	w.t.Helper()
	for {
		select {
		case e := <-w.events:
			if e.Kind == TestDone {
				continue
			}
			if e.Kind == Started {
				w.grades++
			}
			if e.Kind != k {
				w.t.Fatalf("got event %v (grade %d, %v %v), want %v", e.Kind, e.N, e.Err, e.Path, k)
			}
			return e
		case <-time.After(60 * time.Second):
			w.t.Fatalf("no event in a minute, want %v", k)
		}
	}
}

// finished waits for the next grade to start and finish, and checks its
// verdict.
func (w *watched) finished(want verdict.Verdict) *Outcome {
	w.t.Helper()
	w.next(Started)
	o := w.next(Finished).Outcome
	if got := o.Report.Verdict; got != want {
		w.t.Fatalf("got %v, want %v", got, want)
	}
	return o
}

// settle checks that no other grade started or is due: the burst before
// it gave exactly the grades seen. A test file written after the burst
// starts the next grade, and for that file alone; a grade the burst still
// owed would come first or name the burst's files too.
func (w *watched) settle() {
	w.t.Helper()
	grades := w.grades
	w.writeTest("settle", clocksTests[0])
	if e := w.next(Started); e.N != grades+1 || e.Why != "settle.ans, settle.in changed" {
		w.t.Errorf("after grade %d: got grade %d for %q, want %d for \"settle.ans, settle.in changed\" (an unexpected grade)", grades, e.N, e.Why, grades+1)
	}
	w.next(Finished)
	w.grades = grades
}

func TestWatchWrongThenRight(t *testing.T) {
	w := startWatch(t, wrongSolution)
	o := w.finished(verdict.WA)
	f := o.Failure
	if f == nil || f.Test.Name != "tests/1" || string(f.Output) != "1\n" || string(f.Input) != clocksTests[0] {
		t.Fatalf("got failure %+v, want test tests/1 with output \"1\\n\"", f)
	}
	if !strings.Contains(f.Picture, "after the first 1 move: 1") && !strings.Contains(f.Picture, "after 1 move: 1") {
		t.Errorf("got picture\n%s\nwant the dials after move 1", f.Picture)
	}
	w.saveAtomically(rightSolution(t))
	if e := w.next(Started); e.Why != "main.py changed" {
		t.Errorf("got why %q, want \"main.py changed\"", e.Why)
	}
	if o := w.next(Finished).Outcome; o.Report.Verdict != verdict.AC || o.Failure != nil {
		t.Errorf("got %v (failure %+v), want AC", o.Report.Verdict, o.Failure)
	}
	w.settle()
}

func TestWatchBurstOfWritesGivesOneGrade(t *testing.T) {
	w := startWatch(t, rightSolution(t))
	w.finished(verdict.AC)
	// Truncate and write, twenty times in a row; the last version is wrong.
	for i := range 20 {
		content := rightSolution(t)
		if i == 19 {
			content = wrongSolution
		}
		w.write(w.source, content)
	}
	w.finished(verdict.WA)
	w.settle()
	if w.grades != 2 {
		t.Errorf("got %d grades, want 2", w.grades)
	}
}

// TestWatchBackupAndRename saves as vim does by default on Linux: rename the
// source to a backup, write a new file, set its mode, delete the backup.
func TestWatchBackupAndRename(t *testing.T) {
	w := startWatch(t, wrongSolution)
	w.finished(verdict.WA)
	backup := w.source + "~"
	if err := os.Rename(w.source, backup); err != nil {
		t.Fatal(err)
	}
	w.write(w.source, rightSolution(t))
	if err := os.Chmod(w.source, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(backup); err != nil {
		t.Fatal(err)
	}
	w.finished(verdict.AC)
	w.settle()
	if w.grades != 2 {
		t.Errorf("got %d grades, want 2", w.grades)
	}
}

func TestWatchSaveCancelsRunningGrade(t *testing.T) {
	src, marker := sleeper()
	w := startWatch(t, src)
	w.next(Started)
	for deadline := time.Now().Add(60 * time.Second); !running(t, marker); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the sleeping solution never started")
		}
	}
	w.saveAtomically(rightSolution(t))
	if e := w.next(Cancelled); e.N != 1 {
		t.Errorf("got grade %d cancelled, want grade 1", e.N)
	}
	w.next(Started)
	// The next grade starts only once the cancelled one has returned, and
	// judge.Grade returns only once its processes are dead.
	if running(t, marker) {
		t.Error("the cancelled grade's process still runs")
	}
	if o := w.next(Finished).Outcome; o.Report.Verdict != verdict.AC {
		t.Errorf("got %v, want AC", o.Report.Verdict)
	}
}

func TestWatchStopKillsRunningGrade(t *testing.T) {
	src, marker := sleeper()
	w := startWatch(t, src)
	w.next(Started)
	for deadline := time.Now().Add(60 * time.Second); !running(t, marker); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the sleeping solution never started")
		}
	}
	w.end()
	w.next(Cancelled)
	if running(t, marker) {
		t.Error("the grade's process still runs after the watch ended")
	}
}

func TestWatchDeletedSource(t *testing.T) {
	w := startWatch(t, rightSolution(t))
	w.finished(verdict.AC)
	if err := os.Remove(w.source); err != nil {
		t.Fatal(err)
	}
	if e := w.next(Missing); e.Path != w.source {
		t.Errorf("got missing %q, want %q", e.Path, w.source)
	}
	w.write(w.source, wrongSolution)
	w.finished(verdict.WA)
	w.settle()
}

func TestWatchTestsChange(t *testing.T) {
	w := startWatch(t, rightSolution(t))
	if n := w.finished(verdict.AC).Report.Summary.Tests; n != 2 {
		t.Fatalf("got %d tests, want 2", n)
	}
	w.writeTest("3", clocksTests[1])
	if e := w.next(Started); e.Why != "3.ans, 3.in changed" {
		t.Errorf("got why %q, want \"3.ans, 3.in changed\"", e.Why)
	}
	if n := w.next(Finished).Outcome.Report.Summary.Tests; n != 3 {
		t.Errorf("got %d tests, want 3", n)
	}
	w.settle()
}
