package judge

import (
	"context"
	"sync"

	"github.com/optjudge/optjudge/verdict"
)

// A scheduler runs one grading's tests on a crew of workers, as cmd/go's
// Builder runs its actions (golang/go: src/cmd/go/internal/work/exec.go): it
// owns the queue of tests, in test order, and one lock, and each policy is
// a small type of its own that it asks at two moments, when a worker takes
// its next run and when a run ends:
//
//   - crew (crew.go): how many tests run at once: GradeOptions.Parallel, and
//     one more in the place of each test whose run sleeps, its token lent
//     (asleep.go);
//   - raise (raise.go): under which limit a test runs (ThenTimeLimit), and
//     which tests run again under the time limit;
//   - stopper (stop.go): the test, in test order, the grading ends at (Stop);
//   - lazyRun (prune.go): the tests whose results can no longer change the
//     outcome (Lazy).
//
// The policies neither lock nor start anything: the scheduler calls them
// with its lock held, and does what they say. What a test's run is (a
// program in the sandbox, a checker, passes, a validator) is the runTest
// function's, so that the scheduler's rules can be tested with a fake one.
type scheduler struct {
	// set before run, read only after
	runTest  runFunc
	progress func(TestResult) // GradeOptions.Progress; nil: none
	crew     crew
	raise    raise
	stop     stopper
	lazy     *lazyRun // nil: every test runs

	ctx      context.Context
	wg       sync.WaitGroup // the workers started (start)
	finished chan<- TestResult

	mu      sync.Mutex // guards the queue, the policies, results and err
	queue   queue
	results []*TestResult // by test; nil: not (yet) run
	err     error         // the first failure to run a test (a cancelled one is none)
}

// runFunc runs test i, under ThenTimeLimit when then, in the worker's
// working directory w, and judges it. Only a cancelled context or a
// failure to set the test up is an error (grader.runTest).
type runFunc func(ctx context.Context, i int, then bool, w *workDir) (TestResult, error)

// job is one run of a test by a worker.
type job struct {
	i    int
	then bool // under ThenTimeLimit
	// rerun: the test again under the time limit (raise); its result
	// replaces the first, which Progress, Stop and Lazy have seen
	rerun bool
	slept bool // its run lent its token (crew); under the lock
}

// run runs the n tests and returns their results in test order: those kept
// by Stop and Lazy. A failure to run a test ends the grading with that
// error and no results; when ctx ends, it returns the tests that finished,
// with ctx's error.
func (s *scheduler) run(ctx context.Context, n int) ([]TestResult, error) {
	s.ctx = ctx
	s.queue = newQueue(ctx, n)
	defer s.queue.cancelAll()
	s.results = make([]*TestResult, n)
	finished, progressDone := feedProgress(s.progress, n)
	s.finished = finished
	for range s.crew.n {
		s.start()
	}
	s.wg.Wait()
	for s.rerunHere() {
		s.work()
	}
	s.wg.Wait()
	close(finished)
	<-progressDone
	if s.err != nil && ctx.Err() == nil {
		return nil, s.err
	}
	s.stop.cut(s.results)
	if s.lazy != nil {
		return s.lazy.kept(s.results), ctx.Err()
	}
	var out []TestResult
	for _, r := range s.results {
		if r != nil {
			out = append(out, *r)
		}
	}
	return out, ctx.Err()
}

// start starts a worker.
func (s *scheduler) start() {
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		s.work()
	}()
}

// work runs tests, one after the other in its own working directory, until
// take has none for it.
func (s *scheduler) work() {
	var w workDir
	defer w.remove()
	for {
		jb, ok := s.take()
		if !ok {
			return
		}
		ctx := s.queue.ctxs[jb.i]
		if s.crew.lend {
			ctx = withAsleep(ctx, func() { s.asleep(jb) })
		}
		tr, err := s.runTest(ctx, jb.i, jb.then, &w)
		s.finish(jb, tr, err)
	}
}

// take is a worker's next run: a test due to run again under the time
// limit (raise) before the next one in order. There is none when the
// worker is one too many (crew), when a test could not be run or ctx has
// ended, or when no test is left.
func (s *scheduler) take() (*job, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.crew.retire() {
		return nil, false
	}
	for s.err == nil && s.ctx.Err() == nil {
		i, rerun := s.raise.rerun()
		if !rerun {
			var ok bool
			if i, ok = s.queue.take(); !ok {
				return nil, false
			}
		} else if s.queue.skipped[i] {
			continue
		}
		return &job{i: i, rerun: rerun, then: s.raise.then()}, true
	}
	return nil, false
}

// asleep is the hook of a job whose run has lent its token away: another
// worker may take the next test in its place.
func (s *scheduler) asleep(jb *job) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if jb.slept {
		return // a later pass of the same test
	}
	jb.slept = true
	if s.crew.sleeps(s.queue.left() && s.err == nil) {
		s.start()
	}
}

// finish takes the end of a job's run: to the crew and raise, then its
// result, unless the run was cancelled or failed or its test is no longer
// needed, to the results, Progress, Stop and Lazy, in that order.
func (s *scheduler) finish(jb *job, tr TestResult, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if jb.slept {
		s.crew.wakes()
	}
	s.raise.ended(jb.i, jb.then, err == nil && tr.Verdict == verdict.TLE)
	switch {
	case err != nil && s.queue.ctxs[jb.i].Err() != nil:
		// cancelled: by ctx, or because the test is no longer needed
	case err != nil:
		if s.err == nil {
			s.err = err
		}
	case s.queue.skipped[jb.i]:
		// no longer needed: an earlier test decided while it ran
	case jb.rerun:
		s.results[jb.i] = &tr // the same test under the time limit
	default:
		s.results[jb.i] = &tr
		s.finished <- tr
		if s.stop.ends(jb.i, tr.Verdict) {
			s.queue.skipAfter(jb.i)
		}
		if s.lazy != nil {
			for _, k := range s.lazy.advance(s.results) {
				s.queue.skip(k)
			}
		}
	}
}

// rerunHere says, once every worker has ended, whether tests are still due
// to run again under the time limit: the last to run under it was a worker
// started in a sleeper's place, which then ended (crew.retire). The caller
// then works itself, the crew counted anew.
func (s *scheduler) rerunHere() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.raise.pending() || s.err != nil || s.ctx.Err() != nil {
		return false
	}
	s.crew.restart()
	return true
}

// feedProgress starts the goroutine that calls f (nil: none), fed without
// blocking (room for every one of n tests): a slow consumer never holds up
// a worker, and f is never called under the scheduler's lock, nor
// concurrently. Close the channel, then wait for done.
func feedProgress(f func(TestResult), n int) (chan<- TestResult, <-chan struct{}) {
	ch, done := make(chan TestResult, n), make(chan struct{})
	go func() {
		defer close(done)
		for tr := range ch {
			if f != nil {
				f(tr)
			}
		}
	}()
	return ch, done
}

// queue is a grading's tests in test order: the next one to start, and
// those no longer to run, their runs cancelled.
type queue struct {
	next    int
	skipped []bool
	ctxs    []context.Context // each test's run's; fixed once made
	cancels []context.CancelFunc
}

func newQueue(ctx context.Context, n int) queue {
	q := queue{skipped: make([]bool, n), ctxs: make([]context.Context, n), cancels: make([]context.CancelFunc, n)}
	for i := range n {
		q.ctxs[i], q.cancels[i] = context.WithCancel(ctx)
	}
	return q
}

// take is the next test in order that is not skipped.
func (q *queue) take() (int, bool) {
	for q.next < len(q.skipped) {
		i := q.next
		q.next++
		if !q.skipped[i] {
			return i, true
		}
	}
	return -1, false
}

// left says whether tests are left to take (some may be skipped by then).
func (q *queue) left() bool { return q.next < len(q.skipped) }

// skip takes test k off the queue, and cancels its run if it runs.
func (q *queue) skip(k int) {
	q.skipped[k] = true
	q.cancels[k]()
}

// skipAfter skips every test after test i.
func (q *queue) skipAfter(i int) {
	for k := i + 1; k < len(q.skipped); k++ {
		q.skip(k)
	}
}

func (q *queue) cancelAll() {
	for _, c := range q.cancels {
		c()
	}
}
