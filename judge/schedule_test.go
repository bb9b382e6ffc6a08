package judge

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/optjudge/optjudge/problems"
	"github.com/optjudge/optjudge/problems/kattis"
	"github.com/optjudge/optjudge/verdict"
)

// The scheduler's tests run it on a fake runTest: no sandbox, no program.
// A test's run is a function of the test's index and its limit, and waits,
// where the order of events matters, on a condition of the others (waitFor),
// never for a time.

// fakeRuns is a runTest that runs test i as behave says, and records the
// runs: every one started, in order, and how many run at once.
type fakeRuns struct {
	behave func(ctx context.Context, i int, then bool) (verdict.Verdict, error)

	mu      sync.Mutex
	started []fakeRun
	ended   []fakeRun
	running int
	most    int // the most runs at once
	// atStart is how many ran, this one included, when each test started
	// (its last run)
	atStart map[int]int
}

type fakeRun struct {
	i    int
	then bool
}

func newFakeRuns(behave func(ctx context.Context, i int, then bool) (verdict.Verdict, error)) *fakeRuns {
	return &fakeRuns{behave: behave, atStart: map[int]int{}}
}

func (f *fakeRuns) run(ctx context.Context, i int, then bool, _ *workDir) (TestResult, error) {
	f.mu.Lock()
	f.running++
	f.most = max(f.most, f.running)
	f.atStart[i] = f.running
	f.started = append(f.started, fakeRun{i, then})
	f.mu.Unlock()
	v, err := f.behave(ctx, i, then)
	f.mu.Lock()
	f.running--
	f.ended = append(f.ended, fakeRun{i, then})
	f.mu.Unlock()
	return TestResult{Name: fmt.Sprint(i), Index: i, Verdict: v}, err
}

// hasEnded says whether test i has had a run end (then: under
// ThenTimeLimit).
func (f *fakeRuns) hasEnded(i int, then bool) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Contains(f.ended, fakeRun{i, then})
}

func (f *fakeRuns) hasStarted(i int) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.ContainsFunc(f.started, func(r fakeRun) bool { return r.i == i })
}

// recorded says whether the scheduler has taken test i's result.
func (s *scheduler) recorded(i int) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.results[i] != nil
}

// failed says whether the scheduler has taken a failure to run a test.
func (s *scheduler) failed() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err != nil
}

// sorted is runs in the order of their tests, then under the time limit
// first: runs at once start in any order.
func sorted(runs []fakeRun) []fakeRun {
	runs = slices.Clone(runs)
	slices.SortStableFunc(runs, func(a, b fakeRun) int {
		if a.i != b.i {
			return a.i - b.i
		}
		if a.then == b.then {
			return 0
		}
		if b.then {
			return -1
		}
		return 1
	})
	return runs
}

// waitFor waits until cond holds, polling; past a deadline it fails tb
// (from any goroutine) and returns false.
func waitFor(tb testing.TB, what string, cond func() bool) bool {
	tb.Helper()
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		if cond() {
			return true
		}
	}
	tb.Errorf("waited 20s for %s", what)
	return false
}

// untilCancelled is the run of test i that runs until it is cancelled:
// it fails t if it never is.
func untilCancelled(tb testing.TB, ctx context.Context, i int) (verdict.Verdict, error) {
	if !waitFor(tb, fmt.Sprintf("test %d to be cancelled", i), func() bool { return ctx.Err() != nil }) {
		return verdict.AC, nil
	}
	return verdict.Unknown, ctx.Err()
}

// seen records what Progress was given, and fails t if it is ever called
// concurrently or after the grading has returned.
type seen struct {
	t        *testing.T
	mu       sync.Mutex
	inside   bool
	returned bool
	results  []TestResult
}

func (s *seen) progress(tr TestResult) {
	s.mu.Lock()
	if s.inside || s.returned {
		s.t.Errorf("Progress(%s) called concurrently (%v) or after the grading returned (%v)", tr.Name, s.inside, s.returned)
	}
	s.inside = true
	s.mu.Unlock()
	s.mu.Lock()
	s.inside = false
	s.results = append(s.results, tr)
	s.mu.Unlock()
}

func (s *seen) done() {
	s.mu.Lock()
	s.returned = true
	s.mu.Unlock()
}

// verdicts are the tests' names and verdicts, "0:AC 1:WA".
func verdicts(rs []TestResult) string {
	var out []string
	for _, r := range rs {
		out = append(out, r.Name+":"+r.Verdict.String())
	}
	return fmt.Sprint(out)
}

// TestSchedulerParallel: Parallel tests run at once, never more (one at
// most for 0 or 1, one per test at most), every test once, the results in
// test order, Progress called once per test, never concurrently nor after
// the grading.
func TestSchedulerParallel(t *testing.T) {
	t.Parallel()
	const n = 6
	for _, tt := range []struct{ parallel, want int }{{0, 1}, {1, 1}, {3, 3}, {6, 6}, {10, 6}} {
		t.Run(fmt.Sprint(tt.parallel), func(t *testing.T) {
			t.Parallel()
			var f *fakeRuns
			f = newFakeRuns(func(ctx context.Context, i int, then bool) (verdict.Verdict, error) {
				if i < tt.want { // the first ones wait until want run at once
					waitFor(t, fmt.Sprintf("%d runs at once", tt.want), func() bool {
						f.mu.Lock()
						defer f.mu.Unlock()
						return f.most == tt.want
					})
				}
				return verdict.AC, nil
			})
			p := &seen{t: t}
			s := &scheduler{runTest: f.run, progress: p.progress, crew: newCrew(tt.parallel, n, true)}
			got, err := s.run(context.Background(), n)
			p.done()
			if err != nil {
				t.Fatal(err)
			}
			if want := "[0:AC 1:AC 2:AC 3:AC 4:AC 5:AC]"; verdicts(got) != want {
				t.Errorf("got %s, want %s", verdicts(got), want)
			}
			if f.most != tt.want || len(f.started) != n {
				t.Errorf("got %d runs, at most %d at once; want %d, %d", len(f.started), f.most, n, tt.want)
			}
			slices.SortFunc(p.results, func(a, b TestResult) int { return a.Index - b.Index })
			if verdicts(p.results) != verdicts(got) {
				t.Errorf("Progress saw %s, want each test once: %s", verdicts(p.results), verdicts(got))
			}
		})
	}
}

// TestSchedulerOrder: one at a time, the tests start in test order.
func TestSchedulerOrder(t *testing.T) {
	t.Parallel()
	f := newFakeRuns(func(context.Context, int, bool) (verdict.Verdict, error) { return verdict.AC, nil })
	s := &scheduler{runTest: f.run, crew: newCrew(1, 4, true)}
	if _, err := s.run(context.Background(), 4); err != nil {
		t.Fatal(err)
	}
	if want := []fakeRun{{0, false}, {1, false}, {2, false}, {3, false}}; !slices.Equal(f.started, want) {
		t.Errorf("started %v, want %v", f.started, want)
	}
}

// TestSchedulerSleeperLendsPlace: one at a time, a test whose run lends its
// token (its asleep hook, called twice as a run of two passes may) has one
// worker start in its place, which takes the next tests one after the
// other; once the sleeper has woken, one test at a time runs again.
func TestSchedulerSleeperLendsPlace(t *testing.T) {
	t.Parallel()
	var f *fakeRuns
	f = newFakeRuns(func(ctx context.Context, i int, then bool) (verdict.Verdict, error) {
		switch i {
		case 0:
			asleep := asleepHook(ctx)
			if asleep == nil {
				t.Error("test 0 has no asleep hook")
				return verdict.JE, nil
			}
			asleep()
			asleep()
			waitFor(t, "tests 1 and 2 to run in the sleeper's place", func() bool { return f.hasEnded(2, false) })
			return verdict.TLE, nil
		case 3:
			waitFor(t, "test 0 to end", func() bool { return f.hasEnded(0, false) })
		}
		return verdict.AC, nil
	})
	s := &scheduler{runTest: f.run, crew: newCrew(1, 5, true)}
	got, err := s.run(context.Background(), 5)
	if err != nil {
		t.Fatal(err)
	}
	if want := "[0:TLE 1:AC 2:AC 3:AC 4:AC]"; verdicts(got) != want {
		t.Errorf("got %s, want %s", verdicts(got), want)
	}
	if f.atStart[1] != 2 || f.atStart[2] != 2 || f.most != 2 {
		t.Errorf("runs at once when tests 1 and 2 started: %d, %d, at most %d; want 2, 2, 2 (one in the sleeper's place)", f.atStart[1], f.atStart[2], f.most)
	}
	if f.atStart[4] != 1 {
		t.Errorf("%d runs at once when test 4 started, after the sleeper woke; want 1", f.atStart[4])
	}
	if s.crew.n != 1 || s.crew.asleep != 0 {
		t.Errorf("after the grading: crew of %d, %d asleep; want 1, 0", s.crew.n, s.crew.asleep)
	}
}

// TestSchedulerSleeperLast: a test that sleeps when no test is left to
// start has no worker start in its place.
func TestSchedulerSleeperLast(t *testing.T) {
	t.Parallel()
	f := newFakeRuns(func(ctx context.Context, i int, then bool) (verdict.Verdict, error) {
		if i == 1 {
			asleepHook(ctx)()
		}
		return verdict.AC, nil
	})
	s := &scheduler{runTest: f.run, crew: newCrew(1, 2, true)}
	if _, err := s.run(context.Background(), 2); err != nil {
		t.Fatal(err)
	}
	if f.most != 1 || s.crew.n != 1 {
		t.Errorf("%d runs at once, a crew of %d; want 1, 1", f.most, s.crew.n)
	}
}

// TestSchedulerRaise: under a ThenTimeLimit, one test at a time runs under
// the time limit and the others beside it under ThenTimeLimit; a test TLE
// under ThenTimeLimit runs again under the time limit, once none runs
// there, its result replacing the first (which Progress saw, and only it);
// after a test TLE under the time limit, every test runs under
// ThenTimeLimit, and none again.
func TestSchedulerRaise(t *testing.T) {
	t.Parallel()
	// "a" is AC, "s" TLE under ThenTimeLimit only, "l" TLE under both
	rule := func(kind byte, then bool) verdict.Verdict {
		if kind == 'a' || kind == 's' && !then {
			return verdict.AC
		}
		return verdict.TLE
	}
	for _, tt := range []struct {
		name, tests string
		parallel    int
		// waitFor: test 0 ends once test waitFor's first run has
		waitFor  int
		lend     bool
		want     string
		runs     []fakeRun
		progress string
	}{{
		name: "reruns", tests: "assa", parallel: 2, waitFor: 3,
		want: "[0:AC 1:AC 2:AC 3:AC]",
		runs: []fakeRun{{0, false}, {1, true}, {2, true}, {3, true}, {1, false}, {2, false}},
		// Progress sees the first runs
		progress: "[0:AC 1:TLE 2:TLE 3:AC]",
	}, {
		name: "over", tests: "lsl", parallel: 2, waitFor: 1,
		want:     "[0:TLE 1:TLE 2:TLE]",
		runs:     []fakeRun{{0, false}, {1, true}, {2, true}},
		progress: "[0:TLE 1:TLE 2:TLE]",
	}, {
		// test 0 sleeps: a worker in its place runs test 1 under
		// ThenTimeLimit, and ends for want of a test; test 0's own
		// worker ends once it has, being one too many: the grading
		// runs test 1 again itself
		name: "rerun by the last", tests: "as", parallel: 1, waitFor: 1, lend: true,
		want:     "[0:AC 1:AC]",
		runs:     []fakeRun{{0, false}, {1, true}, {1, false}},
		progress: "[0:AC 1:TLE]",
	}, {
		name: "one at a time", tests: "asls", parallel: 1, waitFor: -1,
		want:     "[0:AC 1:AC 2:TLE 3:TLE]",
		runs:     []fakeRun{{0, false}, {1, false}, {2, false}, {3, true}},
		progress: "[0:AC 1:AC 2:TLE 3:TLE]",
	}} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var f *fakeRuns
			f = newFakeRuns(func(ctx context.Context, i int, then bool) (verdict.Verdict, error) {
				if i == 0 && tt.waitFor > 0 {
					if tt.lend {
						asleepHook(ctx)()
					}
					waitFor(t, fmt.Sprintf("test %d's first run", tt.waitFor), func() bool { return f.hasEnded(tt.waitFor, true) })
				}
				return rule(tt.tests[i], then), nil
			})
			p := &seen{t: t}
			s := &scheduler{runTest: f.run, progress: p.progress, crew: newCrew(tt.parallel, len(tt.tests), tt.lend), raise: raise{on: true}}
			got, err := s.run(context.Background(), len(tt.tests))
			if err != nil {
				t.Fatal(err)
			}
			if verdicts(got) != tt.want {
				t.Errorf("got %s, want %s", verdicts(got), tt.want)
			}
			if !slices.Equal(sorted(f.started), sorted(tt.runs)) {
				t.Errorf("runs (test, under ThenTimeLimit): got %v, want %v", f.started, tt.runs)
			}
			slices.SortFunc(p.results, func(a, b TestResult) int { return a.Index - b.Index })
			if verdicts(p.results) != tt.progress {
				t.Errorf("Progress saw %s, want %s", verdicts(p.results), tt.progress)
			}
		})
	}
}

// TestSchedulerStop: the grading ends at the first test, in test order,
// that Stop names: the tests after it are cancelled while they run, or
// never start, and those that finished before it did are dropped; an
// earlier test that Stop names later moves the end up.
func TestSchedulerStop(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name string
		// each test's verdict; "c": runs until cancelled; a digit d:
		// WA once test d has ended
		tests    string
		want     string
		progress string // the tests Progress saw
	}{
		{name: "cancels", tests: "ACcccc", want: "[0:AC 1:WA]", progress: "[0:AC 1:WA]"},
		{name: "drops", tests: "A2Acc", want: "[0:AC 1:WA]", progress: "[0:AC 1:WA 2:AC]"},
		{name: "moves up", tests: "A3cW", want: "[0:AC 1:WA]", progress: "[0:AC 1:WA 3:WA]"},
		{name: "none", tests: "AAAA", want: "[0:AC 1:AC 2:AC 3:AC]", progress: "[0:AC 1:AC 2:AC 3:AC]"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var s *scheduler
			f := newFakeRuns(func(ctx context.Context, i int, then bool) (verdict.Verdict, error) {
				switch c := tt.tests[i]; {
				case c == 'A':
					return verdict.AC, nil
				case c == 'W':
					return verdict.WA, nil
				case c == 'c':
					return untilCancelled(t, ctx, i)
				case c >= '0' && c <= '9' || c == 'C':
					if c != 'C' {
						waitFor(t, fmt.Sprintf("test %c's result", c), func() bool { return s.recorded(int(c - '0')) })
					}
					return verdict.WA, nil
				}
				panic("no such test")
			})
			p := &seen{t: t}
			s = &scheduler{runTest: f.run, progress: p.progress, crew: newCrew(3, len(tt.tests), true),
				stop: stopper{stop: func(_ int, v verdict.Verdict) bool { return v == verdict.WA }}}
			got, err := s.run(context.Background(), len(tt.tests))
			if err != nil {
				t.Fatal(err)
			}
			if verdicts(got) != tt.want {
				t.Errorf("got %s, want %s", verdicts(got), tt.want)
			}
			slices.SortFunc(p.results, func(a, b TestResult) int { return a.Index - b.Index })
			if verdicts(p.results) != tt.progress {
				t.Errorf("Progress saw %s, want %s", verdicts(p.results), tt.progress)
			}
		})
	}
}

// TestSchedulerLazy: under Lazy, the tests that a rejected one makes
// unneeded are cancelled while they run, or never start, and no test lends
// its place.
func TestSchedulerLazy(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name string
		// each test's verdict; "c": runs until cancelled; "w": WA once
		// the next test has started; a digit d: AC once test d's result
		// is in
		tests string
		want  string
		ran   int // the tests that started: the first ran
	}{
		{name: "beside", tests: "1Wcc", want: "[0:AC 1:WA]", ran: 2},
		{name: "in order", tests: "wcccc", want: "[0:WA]", ran: 2},
		{name: "in order, later", tests: "AAwcc", want: "[0:AC 1:AC 2:WA]", ran: 4},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var s *scheduler
			var f *fakeRuns
			f = newFakeRuns(func(ctx context.Context, i int, then bool) (verdict.Verdict, error) {
				if asleepHook(ctx) != nil {
					t.Errorf("test %d may lend its place under Lazy", i)
				}
				switch c := tt.tests[i]; {
				case c == 'W':
					return verdict.WA, nil
				case c == 'w':
					waitFor(t, fmt.Sprintf("test %d to start", i+1), func() bool { return f.hasStarted(i + 1) })
					return verdict.WA, nil
				case c == 'c':
					return untilCancelled(t, ctx, i)
				case c >= '0' && c <= '9':
					waitFor(t, fmt.Sprintf("test %c's result", c), func() bool { return s.recorded(int(c - '0')) })
				}
				return verdict.AC, nil
			})
			tests := make([]kattis.Test, len(tt.tests))
			g := &grader{p: &problems.Problem{}, opts: &GradeOptions{}} // the first-rejected rule
			s = &scheduler{runTest: f.run, crew: newCrew(2, len(tests), false), lazy: g.lazyRun(tests)}
			got, err := s.run(context.Background(), len(tests))
			if err != nil {
				t.Fatal(err)
			}
			if verdicts(got) != tt.want {
				t.Errorf("got %s, want %s", verdicts(got), tt.want)
			}
			var want []fakeRun
			for i := range tt.ran {
				want = append(want, fakeRun{i, false})
			}
			if !slices.Equal(sorted(f.started), want) {
				t.Errorf("started %v, want %v", f.started, want)
			}
		})
	}
}

// TestSchedulerFailure: a test that cannot be run ends the grading with
// its error and no results; no test starts after it.
func TestSchedulerFailure(t *testing.T) {
	t.Parallel()
	broken := errors.New("reading 1.in: no such file")
	var s *scheduler
	f := newFakeRuns(func(ctx context.Context, i int, then bool) (verdict.Verdict, error) {
		switch i {
		case 0:
			waitFor(t, "test 1's failure", s.failed)
		case 1:
			return verdict.Unknown, broken
		}
		return verdict.AC, nil
	})
	s = &scheduler{runTest: f.run, crew: newCrew(2, 4, true)}
	got, err := s.run(context.Background(), 4)
	if err != broken || got != nil {
		t.Errorf("got %v, %v; want no results, %v", verdicts(got), err, broken)
	}
	if len(f.started) != 2 {
		t.Errorf("started %v, want tests 0 and 1 only", f.started)
	}
}

// TestSchedulerCancelled: a grading whose context ends returns the tests
// that finished, with the context's error.
func TestSchedulerCancelled(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	f := newFakeRuns(func(ctx context.Context, i int, then bool) (verdict.Verdict, error) {
		if i == 1 {
			cancel()
			<-ctx.Done()
			return verdict.Unknown, ctx.Err()
		}
		return verdict.AC, nil
	})
	p := &seen{t: t}
	s := &scheduler{runTest: f.run, progress: p.progress, crew: newCrew(1, 4, true)}
	got, err := s.run(ctx, 4)
	if err != context.Canceled || verdicts(got) != "[0:AC]" || verdicts(p.results) != "[0:AC]" {
		t.Errorf("got %s, %v, Progress saw %s; want [0:AC], %v, the same", verdicts(got), err, verdicts(p.results), context.Canceled)
	}
}

// TestQueue: the queue gives the tests in order, past those skipped, and
// skipping cancels a test's run.
func TestQueue(t *testing.T) {
	q := newQueue(context.Background(), 6)
	defer q.cancelAll()
	var got []int
	i, _ := q.take()
	got = append(got, i)
	q.skip(1)
	q.skip(3)
	for q.left() {
		i, ok := q.take()
		if !ok {
			break
		}
		got = append(got, i)
		if i == 2 {
			q.skipAfter(4)
		}
	}
	if want := []int{0, 2, 4}; !slices.Equal(got, want) {
		t.Errorf("took %v, want %v", got, want)
	}
	for i, ctx := range q.ctxs {
		if cancelled := ctx.Err() != nil; cancelled != (i == 1 || i == 3 || i == 5) {
			t.Errorf("test %d: cancelled %v, want only the skipped ones", i, cancelled)
		}
	}
}

// TestSchedulerStopDropsRerun: a test due to run again under the time limit
// (raise) that Stop has since skipped does not run again.
func TestSchedulerStopDropsRerun(t *testing.T) {
	t.Parallel()
	var s *scheduler
	f := newFakeRuns(func(ctx context.Context, i int, then bool) (verdict.Verdict, error) {
		switch i {
		case 0: // under the time limit, till test 1 has stopped the grading
			waitFor(t, "test 1's result", func() bool { return s.recorded(1) })
			return verdict.AC, nil
		case 1:
			waitFor(t, "test 2's result", func() bool { return s.recorded(2) })
			return verdict.WA, nil
		}
		return verdict.TLE, nil
	})
	s = &scheduler{runTest: f.run, crew: newCrew(3, 3, true), raise: raise{on: true},
		stop: stopper{stop: func(_ int, v verdict.Verdict) bool { return v == verdict.WA }}}
	got, err := s.run(context.Background(), 3)
	if err != nil {
		t.Fatal(err)
	}
	if want := "[0:AC 1:WA]"; verdicts(got) != want {
		t.Errorf("got %s, want %s", verdicts(got), want)
	}
	if want := []fakeRun{{0, false}, {1, true}, {2, true}}; !slices.Equal(sorted(f.started), want) {
		t.Errorf("runs %v, want %v", f.started, want)
	}
}
