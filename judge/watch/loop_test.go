package watch

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/optjudge/optjudge/judge"
	"github.com/optjudge/optjudge/verdict"
)

// fakeTimer stands in for the debounce timer: the test fires it by hand, so
// what a burst of changes gives does not depend on the machine's speed.
type fakeTimer struct {
	fire   func()
	resets chan time.Duration
}

func (t *fakeTimer) Reset(d time.Duration) bool { t.resets <- d; return true }
func (t *fakeTimer) Stop() bool                 { return true }

// loopHarness runs a Loop over a fed channel of changes with a fake timer
// and a grade function the test controls.
type loopHarness struct {
	t       *testing.T
	source  string
	changes chan Change
	events  chan Event
	timer   *fakeTimer
	grades  chan gradeCall // each grade, as it starts
	cancel  context.CancelFunc
	done    chan struct{} // closed when Run returns

	hold    chan struct{} // when set, a cancelled grade returns only once it is closed
	active  atomic.Int32  // grade functions running
	overlap atomic.Bool   // two grade functions ran at once
}

// gradeCall is one call of the fake grade function; the test answers it.
type gradeCall struct {
	ctx    context.Context
	answer chan gradeAnswer
}

type gradeAnswer struct {
	outcome *Outcome
	err     error
}

func newLoopHarness(t *testing.T, hold chan struct{}) *loopHarness {
	t.Helper()
	h := &loopHarness{
		hold:    hold,
		t:       t,
		source:  filepath.Join(t.TempDir(), "main.py"),
		changes: make(chan Change),
		events:  make(chan Event, 100),
		timer:   &fakeTimer{resets: make(chan time.Duration, 100)},
		grades:  make(chan gradeCall, 10),
		done:    make(chan struct{}),
	}
	h.write("print(1)\n")
	l := &Loop{
		Source: h.source,
		Show:   func(e Event) { h.events <- e },
		Grade: func(ctx context.Context, progress func(judge.TestResult)) (*Outcome, error) {
			if h.active.Add(1) > 1 {
				h.overlap.Store(true)
			}
			defer h.active.Add(-1)
			c := gradeCall{ctx: ctx, answer: make(chan gradeAnswer)}
			h.grades <- c
			select {
			case a := <-c.answer:
				progress(judge.TestResult{Name: "sample/1", Verdict: verdict.AC})
				return a.outcome, a.err
			case <-ctx.Done():
				if h.hold != nil {
					<-h.hold
				}
				return nil, ctx.Err()
			}
		},
		afterFunc: func(_ time.Duration, f func()) timer {
			h.timer.fire = f
			return h.timer
		},
	}
	ctx, cancel := context.WithCancel(context.Background())
	h.cancel = cancel
	go func() {
		defer close(h.done)
		l.Run(ctx, h.changes)
	}()
	t.Cleanup(func() {
		cancel()
		<-h.done
	})
	return h
}

func (h *loopHarness) write(content string) {
	h.t.Helper()
	if err := os.WriteFile(h.source, []byte(content), 0o644); err != nil {
		h.t.Fatal(err)
	}
}

// wait returns the next event, which must be of kind k.
func (h *loopHarness) wait(k Kind) Event {
	h.t.Helper()
	select {
	case e := <-h.events:
		if e.Kind != k {
			h.t.Fatalf("got event %v (%+v), want %v", e.Kind, e, k)
		}
		return e
	case <-time.After(10 * time.Second):
		h.t.Fatalf("no event; want %v", k)
	}
	return Event{}
}

// grade returns the next call of the grade function.
func (h *loopHarness) grade() gradeCall {
	h.t.Helper()
	select {
	case c := <-h.grades:
		return c
	case <-time.After(10 * time.Second):
		h.t.Fatal("the grade function was not called")
	}
	return gradeCall{}
}

// change sends a change of the source and waits until the loop has reset
// the debounce timer for it.
func (h *loopHarness) change(path string) {
	h.t.Helper()
	h.changes <- Change{Path: path}
	select {
	case <-h.timer.resets:
	case <-time.After(10 * time.Second):
		h.t.Fatal("the debounce timer was not reset")
	}
}

// quiet checks that nothing else happened: no event, no grade.
func (h *loopHarness) quiet() {
	h.t.Helper()
	select {
	case e := <-h.events:
		h.t.Errorf("unexpected event %v: %+v", e.Kind, e)
	case <-h.grades:
		h.t.Error("unexpected grade")
	default:
	}
}

func accepted() *Outcome {
	return &Outcome{Report: &judge.Report{Verdict: verdict.AC}}
}

// finishGrade answers grade call c with AC and checks the events it gives.
func (h *loopHarness) finishGrade(c gradeCall, n int) {
	h.t.Helper()
	c.answer <- gradeAnswer{outcome: accepted()}
	h.wait(TestDone)
	if e := h.wait(Finished); e.N != n || e.Outcome.Report.Verdict != verdict.AC {
		h.t.Errorf("got grade %d %v, want grade %d AC", e.N, e.Outcome.Report.Verdict, n)
	}
}

func TestLoopGradesAtStart(t *testing.T) {
	h := newLoopHarness(t, nil)
	if e := h.wait(Started); e.N != 1 || e.Why != "start" {
		t.Errorf("got grade %d for %q, want grade 1 for \"start\"", e.N, e.Why)
	}
	h.finishGrade(h.grade(), 1)
	h.quiet()
}

func TestLoopBurstGivesOneGrade(t *testing.T) {
	h := newLoopHarness(t, nil)
	h.wait(Started)
	h.finishGrade(h.grade(), 1)
	// The events of one editor's save: a temporary file renamed over the
	// source, then a chmod; and a second file in the same burst.
	for _, p := range []string{h.source, h.source, h.source, filepath.Join(filepath.Dir(h.source), "1.in"), h.source} {
		h.change(p)
	}
	h.quiet() // nothing before the timer fires
	h.timer.fire()
	e := h.wait(Started)
	if e.N != 2 || e.Why != "main.py, 1.in changed" {
		t.Errorf("got grade %d for %q, want grade 2 for \"main.py, 1.in changed\"", e.N, e.Why)
	}
	h.finishGrade(h.grade(), 2)
	h.quiet()
}

func TestLoopChangeCancelsRunningGrade(t *testing.T) {
	h := newLoopHarness(t, nil)
	h.wait(Started)
	first := h.grade()
	h.change(h.source)
	select {
	case <-first.ctx.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("the running grade was not cancelled by the change")
	}
	if e := h.wait(Cancelled); e.N != 1 {
		t.Errorf("got grade %d cancelled, want grade 1", e.N)
	}
	h.timer.fire()
	h.wait(Started)
	h.finishGrade(h.grade(), 2)
	h.quiet()
}

// A fire while the cancelled grade still runs starts the next grade only
// once the cancelled one has returned, so two grades never overlap.
func TestLoopWaitsForCancelledGrade(t *testing.T) {
	hold := make(chan struct{})
	h := newLoopHarness(t, hold)
	h.wait(Started)
	first := h.grade()
	h.change(h.source)
	<-first.ctx.Done()
	h.timer.fire()
	// A loop that did not wait would call the grade function again now,
	// while the first call is held; give it the chance to.
	time.Sleep(50 * time.Millisecond)
	h.quiet()
	close(hold)
	h.wait(Cancelled)
	h.wait(Started)
	h.finishGrade(h.grade(), 2)
	if h.overlap.Load() {
		t.Error("two grades ran at once")
	}
}

func TestLoopMissingSource(t *testing.T) {
	h := newLoopHarness(t, nil)
	h.wait(Started)
	h.finishGrade(h.grade(), 1)
	if err := os.Remove(h.source); err != nil {
		t.Fatal(err)
	}
	h.change(h.source)
	h.timer.fire()
	if e := h.wait(Missing); e.Path != h.source {
		t.Errorf("got missing %q, want %q", e.Path, h.source)
	}
	h.quiet()
	h.write("print(2)\n")
	h.change(h.source)
	h.timer.fire()
	if e := h.wait(Started); e.N != 2 {
		t.Errorf("got grade %d, want 2", e.N)
	}
	h.finishGrade(h.grade(), 2)
}

func TestLoopErrors(t *testing.T) {
	h := newLoopHarness(t, nil)
	h.wait(Started)
	h.grade().answer <- gradeAnswer{err: errors.New("starting the sandbox: broken")}
	h.wait(TestDone)
	if e := h.wait(Failed); e.N != 1 || !strings.Contains(e.Err.Error(), "broken") {
		t.Errorf("got grade %d error %v, want grade 1 error broken", e.N, e.Err)
	}
	h.changes <- Change{Err: errors.New("inotify queue overflow")}
	if e := h.wait(WatchFailed); !strings.Contains(e.Err.Error(), "overflow") {
		t.Errorf("got %v, want the watcher's error", e.Err)
	}
	h.change(h.source) // the watch goes on
	h.timer.fire()
	h.wait(Started)
	h.finishGrade(h.grade(), 2)
}

func TestLoopStopCancelsGrade(t *testing.T) {
	h := newLoopHarness(t, nil)
	h.wait(Started)
	c := h.grade()
	h.cancel()
	<-h.done // Run returns only once the grade has
	if c.ctx.Err() == nil {
		t.Error("the running grade's context is not cancelled after the loop ended")
	}
	h.wait(Cancelled)
}

func TestLoopClosedChangesEnd(t *testing.T) {
	h := newLoopHarness(t, nil)
	h.wait(Started)
	h.finishGrade(h.grade(), 1)
	close(h.changes)
	select {
	case <-h.done:
	case <-time.After(10 * time.Second):
		t.Fatal("Run did not return after its channel of changes was closed")
	}
}

func TestQuit(t *testing.T) {
	tests := []struct {
		input string
		quits bool
	}{
		{"q", true},
		{"abc\nq\n", true},
		{"Q", true},
		{"\x03", true},
		{"\x04", true},
		{"", false},
		{"hello\n", false},
	}
	for _, tt := range tests {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		end := &endSeen{r: r, seen: make(chan struct{})}
		quit := Quit(end)
		w.WriteString(tt.input)
		w.Close()
		var got bool
		if tt.quits {
			select {
			case <-quit:
				got = true
			case <-time.After(10 * time.Second):
			}
		} else {
			// Quit has looked at every byte once it reads the end
			select {
			case <-end.seen:
			case <-time.After(10 * time.Second):
				t.Fatalf("Quit(%q) never read the end of its input", tt.input)
			}
			select {
			case <-quit:
				got = true
			default:
			}
		}
		r.Close()
		if got != tt.quits {
			t.Errorf("Quit(%q): got quit %v, want %v", tt.input, got, tt.quits)
		}
	}
}

// TestLoopDirectorySource: a source that is a directory is graded, and a
// change to a file in it grades it again, that file named as the reason.
func TestLoopDirectorySource(t *testing.T) {
	h := newLoopHarness(t, nil)
	h.wait(Started)
	h.finishGrade(h.grade(), 1)
	// the source becomes a directory of files
	if err := os.Remove(h.source); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(h.source, "pkg"), 0o755); err != nil {
		t.Fatal(err)
	}
	h.change(filepath.Join(h.source, "pkg", "solve.py"))
	h.timer.fire()
	if e := h.wait(Started); e.N != 2 || e.Why != "solve.py changed" {
		t.Errorf("got grade %d for %q, want 2 for \"solve.py changed\"", e.N, e.Why)
	}
	h.finishGrade(h.grade(), 2)
}

// endSeen closes seen when a read of r returns its end with no bytes: the
// reader (Quit) has looked at every byte before it, since it read again.
type endSeen struct {
	r    io.Reader
	seen chan struct{}
	err  error // the end, held back from a read that returned bytes
}

func (e *endSeen) Read(p []byte) (int, error) {
	if e.err != nil {
		close(e.seen)
		return 0, e.err
	}
	n, err := e.r.Read(p)
	if err != nil {
		if n > 0 {
			e.err = err
			return n, nil
		}
		close(e.seen)
	}
	return n, err
}
