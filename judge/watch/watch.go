// Package watch re-grades a submission every time it is saved, for fast
// local practice.
//
// Loop is the heart of it: a function over a channel of changes, so that a
// test can feed it events and a real watch feeds it the events of Files
// (fsnotify on the directories, not the files, so a source replaced by an
// editor's rename stays watched). The several events of one save, or of a
// burst of saves, are debounced into one grade; a change during a grade
// cancels it, and the grade's processes with it, before the next one starts.
//
// Grader grades with a judge.Judge, the sample tests first, and explains
// the first failing test from the outputs in its report; Display shows the
// grades, as plain appended lines or, on a terminal, a screen redrawn for
// each grade.
package watch

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/optjudge/optjudge/judge"
)

// DefaultDebounce is how long the loop waits after the last change before it
// grades: long enough to gather the events of one save, short enough not to
// be noticed.
const DefaultDebounce = 100 * time.Millisecond

// Change is a change on disk that concerns the watch, or a watcher's error.
type Change struct {
	Path string // the file or directory that changed
	Err  error  // the watcher failed; the watch goes on
}

// Kind says what an Event reports.
type Kind int

// The kinds of events, in the order they usually come.
const (
	KindUnknown Kind = iota
	Started          // a grade starts: N, Why, At
	TestDone         // a test finished: Test
	Finished         // a grade finished: N, At, Outcome
	Cancelled        // a grade was cancelled by a change, or by the end of the watch: N, At
	Failed           // the judge could not grade: N, At, Err
	Missing          // the source does not exist: Path
	WatchFailed      // the watcher reported an error: Err
)

var kindNames = [...]string{"unknown", "started", "test", "finished", "cancelled", "failed", "missing", "watch error"}

func (k Kind) String() string {
	if k < 0 || int(k) >= len(kindNames) {
		return "unknown"
	}
	return kindNames[k]
}

// Event is what the loop reports to its display.
type Event struct {
	Kind    Kind
	N       int       // the grade's number, from 1
	Why     string    // what started the grade: "start", "main.py changed"
	At      time.Time // when it happened
	Test    *judge.TestResult
	Outcome *Outcome
	Err     error
	Path    string
}

// GradeFunc grades the submission once. The loop cancels ctx when the grade
// is no longer wanted; the function must then stop its processes and return.
// progress is called as each test finishes, never concurrently.
type GradeFunc func(ctx context.Context, progress func(judge.TestResult)) (*Outcome, error)

// Loop grades Source at start and after every change, debounced.
type Loop struct {
	Source   string        // a file or a directory; a missing source is reported, not graded
	Grade    GradeFunc     // grades once
	Show     func(Event)   // called from one goroutine at a time
	Debounce time.Duration // quiet time after the last change; 0: DefaultDebounce

	// afterFunc makes the debounce timer; tests replace it to fire the
	// timer by hand.
	afterFunc func(time.Duration, func()) timer
}

// timer is the part of *time.Timer the loop uses.
type timer interface {
	Reset(time.Duration) bool
	Stop() bool
}

// result is a grade's return, handed back to the loop.
type result struct {
	outcome *Outcome
	err     error
	stale   bool // cancelled before it completed
}

// Run grades once, then again after each burst of changes, until ctx is
// done or changes is closed. It returns only when no grade is running.
func (l *Loop) Run(ctx context.Context, changes <-chan Change) {
	s := &loopState{Loop: l, ctx: ctx, done: make(chan result, 1), why: "start"}
	fire := make(chan struct{}, 1)
	after := l.afterFunc
	if after == nil {
		after = func(d time.Duration, f func()) timer { return time.AfterFunc(d, f) }
	}
	debounce := l.Debounce
	if debounce <= 0 {
		debounce = DefaultDebounce
	}
	// The timer is made stopped; each change (re)arms it.
	t := after(time.Hour, func() {
		select {
		case fire <- struct{}{}:
		default: // a fire is already waiting
		}
	})
	t.Stop()
	defer t.Stop()

	s.start()
	for {
		select {
		case <-ctx.Done():
			s.stop()
			return
		case c, ok := <-changes:
			if !ok {
				s.stop()
				return
			}
			if c.Err != nil {
				s.show(Event{Kind: WatchFailed, Err: c.Err, At: time.Now()})
				continue
			}
			s.changed(c.Path)
			t.Reset(debounce)
		case <-fire:
			if s.running {
				s.pending = true // starts when the cancelled grade is over
			} else {
				s.start()
			}
		case r := <-s.done:
			s.finish(r)
			if s.pending {
				s.pending = false
				s.start()
			}
		}
	}
}

// loopState is the state of one Run.
type loopState struct {
	*Loop
	ctx     context.Context
	mu      sync.Mutex // serializes Show
	n       int        // grades started
	running bool
	pending bool // a grade is due once the running one has stopped
	cancel  context.CancelFunc
	done    chan result
	why     string   // what the next grade is for
	changes []string // names changed since the last grade started
}

// changed notes a change; it makes the running grade stale.
func (s *loopState) changed(path string) {
	if s.running {
		s.cancel()
	}
	name := filepath.Base(path)
	for _, c := range s.changes {
		if c == name {
			return
		}
	}
	s.changes = append(s.changes, name)
}

// start begins a grade, unless the source is missing.
func (s *loopState) start() {
	if len(s.changes) > 0 {
		names := s.changes
		if len(names) > 3 {
			names = append(names[:3:3], "...")
		}
		s.why = strings.Join(names, ", ") + " changed"
		s.changes = nil
	}
	if st, err := os.Stat(s.Source); err != nil || !(st.Mode().IsRegular() || st.IsDir()) {
		s.show(Event{Kind: Missing, Path: s.Source, At: time.Now()})
		return
	}
	s.n++
	ctx, cancel := context.WithCancel(s.ctx)
	s.running, s.cancel = true, cancel
	s.show(Event{Kind: Started, N: s.n, Why: s.why, At: time.Now()})
	n := s.n
	progress := func(tr judge.TestResult) {
		if ctx.Err() == nil { // a stale grade's last lines would only confuse
			s.show(Event{Kind: TestDone, N: n, Test: &tr, At: time.Now()})
		}
	}
	go func() {
		o, err := s.Grade(ctx, progress)
		// A grade that completed is shown even if a change came as it
		// ended; the next grade follows anyway.
		s.done <- result{outcome: o, err: err, stale: err != nil && ctx.Err() != nil}
	}()
}

// finish reports a grade that returned.
func (s *loopState) finish(r result) {
	s.running = false
	s.cancel()
	e := Event{N: s.n, At: time.Now()}
	switch {
	case r.stale:
		e.Kind = Cancelled
	case r.err != nil:
		e.Kind, e.Err = Failed, r.err
	default:
		e.Kind, e.Outcome = Finished, r.outcome
	}
	s.show(e)
}

// show hands e to the display, one event at a time: test lines come from
// the grade's goroutine, the rest from the loop's.
func (s *loopState) show(e Event) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.Show(e)
}

// stop cancels the running grade and waits for it.
func (s *loopState) stop() {
	if s.running {
		s.cancel()
		s.finish(<-s.done)
	}
}
