package maintain

import (
	"context"
	"os"
	"runtime"
	"slices"
	"sort"
	"sync"
	"time"

	"github.com/optjudge/optjudge/judge"
	"github.com/optjudge/optjudge/problems/kattis"
)

// exampleBuild is an example submission being built.
type exampleBuild struct {
	ex    example
	pp    *judge.Prepared
	err   error         // the judge could not build it (a finding), or ctx ended
	ready chan struct{} // closed once pp or err is set
}

// jobs is how many example submissions are built, and graded, at once.
func (v *verifier) jobs() int {
	if v.opts.Jobs > 0 {
		return v.opts.Jobs
	}
	return runtime.NumCPU()
}

// exampleBuilds are a Verify's example submissions, built from its start
// on, beside the checks of the tests: a build needs none of them.
type exampleBuilds struct {
	found  []Finding       // examples' findings, for checkSubmissions to add in their place
	err    error           // no place to build them in
	first  int             // builds[:first] bound the time limit from below
	builds []*exampleBuild // those that bound it from below first, then the others, each in examples' order
	places chan struct{}   // the builds'
	held   bool            // a place is held back for the checks' own programs
	tmp    string
	cancel context.CancelFunc
}

// startBuilds starts building the example submissions: those that bound
// the time limit from below first when it is derived from them, then
// those that bound it from above (their runs, to a raised limit, are the
// longest), then the others. Of jobs() places, one is left to the checks
// of the tests until they end (checked): the builds of contestants'
// programs would take the CPUs from the validators' runs.
func (v *verifier) startBuilds(ctx context.Context) *exampleBuilds {
	exs, found := v.examples()
	eb := &exampleBuilds{found: found, cancel: func() {}}
	if len(exs) == 0 {
		return eb
	}
	if eb.tmp, eb.err = os.MkdirTemp(v.opts.Judge.TempDir(), "verify-"); eb.err != nil {
		return eb
	}
	var first, rest []example
	for _, ex := range exs {
		if ex.sub.HasBound(kattis.TimeBoundLower) {
			first = append(first, ex)
		} else {
			rest = append(rest, ex)
		}
	}
	rank := longFirst
	if v.derives() {
		rank = func(ex example) int {
			if ex.sub.HasBound(kattis.TimeBoundLower) {
				return 0
			}
			return 1 + longFirst(ex)
		}
	}
	eb.first = len(first)
	eb.places = make(chan struct{}, v.jobs())
	if eb.held = v.jobs() > 1; eb.held {
		eb.places <- struct{}{}
	}
	ctx, eb.cancel = context.WithCancel(ctx)
	eb.builds = v.buildAll(ctx, eb.tmp, append(first, rest...), eb.places, rank)
	return eb
}

// checked gives the builds the place held back for the checks, which
// have ended.
func (eb *exampleBuilds) checked() {
	if eb.held {
		eb.held = false
		<-eb.places
	}
}

// close stops the builds still going on (Verify stopped early), and
// removes every build once it has ended.
func (eb *exampleBuilds) close() {
	eb.cancel()
	closeBuilds(eb.builds)
	if eb.tmp != "" {
		os.RemoveAll(eb.tmp)
	}
}

// buildAll starts building exs, by rank (ties in their order; nil: in
// their order), each once places has room.
func (v *verifier) buildAll(ctx context.Context, tmp string, exs []example, places chan struct{}, rank func(example) int) []*exampleBuild {
	builds := make([]*exampleBuild, len(exs))
	for i, ex := range exs {
		builds[i] = &exampleBuild{ex: ex, ready: make(chan struct{})}
	}
	order := byRank(exs, rank)
	go func() {
		for k, i := range order {
			select {
			case places <- struct{}{}:
			case <-ctx.Done():
				for _, i := range order[k:] {
					builds[i].err = ctx.Err()
					close(builds[i].ready)
				}
				return
			}
			b := builds[i]
			go func() {
				defer func() { <-places }()
				if b.err = ctx.Err(); b.err == nil {
					b.pp, b.err = v.buildExample(ctx, tmp, i, b.ex)
				}
				close(b.ready)
			}()
		}
	}()
	return builds
}

// byRank orders the indices of exs by rank, ties in their order (rank
// nil: in their order).
func byRank(exs []example, rank func(example) int) []int {
	order := make([]int, len(exs))
	for i := range order {
		order[i] = i
	}
	if rank != nil {
		sort.SliceStable(order, func(a, b int) bool { return rank(exs[order[a]]) < rank(exs[order[b]]) })
	}
	return order
}

// closeBuilds removes the builds, once every one has ended.
func closeBuilds(builds []*exampleBuild) {
	for _, b := range builds {
		<-b.ready
		if b.pp != nil {
			b.pp.Close()
		}
	}
}

// gradeAll grades the built examples, up to jobs() at once, and hands
// each grading (with its index in builds) to each in their order, as soon
// as those before it are done. When a job is free, of the examples built
// and waiting, the one of the lowest rank starts (ties in their order;
// rank nil: in their order). tests, when set, picks the tests an example
// is graded on (nil: every test). A submission the judge could not build
// or grade is a graded with failed set.
func (v *verifier) gradeAll(ctx context.Context, builds []*exampleBuild, limit time.Duration, tests func(example) []kattis.Test, rank func(example) int, each func(int, graded)) error {
	type slot struct {
		g   *graded
		err error
	}
	slots := make([]chan slot, len(builds))
	exs := make([]example, len(builds))
	for i, b := range builds {
		slots[i] = make(chan slot, 1)
		exs[i] = b.ex
	}
	var wg sync.WaitGroup
	defer wg.Wait()
	wg.Add(1)
	go func() {
		defer wg.Done()
		v.dispatch(ctx, builds, byRank(exs, rank), func(i int, done func()) {
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer done()
				var only []kattis.Test
				if tests != nil {
					only = tests(builds[i].ex)
				}
				g, err := v.gradeExample(ctx, builds[i], limit, only)
				slots[i] <- slot{g, err}
			}()
		}, func(i int) { slots[i] <- slot{err: ctx.Err()} })
	}()
	var first error
	for i := range builds {
		s := <-slots[i]
		switch {
		case first != nil:
		case s.err != nil:
			first = s.err
		default:
			v.mu.Lock()
			each(i, *s.g)
			v.mu.Unlock()
		}
	}
	return first
}

// dispatch starts every build of order, up to jobs() at once (start calls
// done once its job has ended): whenever a job is free, the first of
// order whose build is ready. Once ctx ends, it starts no more and stops
// those left instead.
func (v *verifier) dispatch(ctx context.Context, builds []*exampleBuild, order []int, start func(i int, done func()), stop func(i int)) {
	ended := make(chan struct{}, len(order))
	woken := make(chan struct{}, 1)
	quit := make(chan struct{})
	defer close(quit)
	for _, b := range builds {
		go func() {
			select {
			case <-b.ready:
			case <-quit:
				return
			}
			select {
			case woken <- struct{}{}:
			default: // a wake-up is pending already
			}
		}()
	}
	free := v.jobs()
	for len(order) > 0 {
		next := -1
		if free > 0 {
			next = slices.IndexFunc(order, func(i int) bool { return isClosed(builds[i].ready) })
		}
		if next >= 0 {
			free--
			start(order[next], func() { ended <- struct{}{} })
			order = slices.Delete(order, next, next+1)
			continue
		}
		select {
		case <-woken:
		case <-ended:
			free++
		case <-ctx.Done():
			for _, i := range order {
				stop(i)
			}
			return
		}
	}
}

func isClosed(c chan struct{}) bool {
	select {
	case <-c:
		return true
	default:
		return false
	}
}
