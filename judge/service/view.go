package service

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"maps"
	"net/http"
	"sort"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/optjudge/optjudge/verdict"
)

// view is the server's copy of every submission record, kept current by a
// watch of the judge-submissions bucket, for lists, counts and metrics.
// Reads of one submission go to the bucket itself.
//
// It keeps what the lists and counts need ready, so that a request costs
// what it returns, not the number of submissions: the submissions newest
// first, in all and per user and per problem; the counts by state, by
// verdict and per problem; and the unfinished ones with the time of their
// record's last change, for the sweeper.
type view struct {
	mu         sync.RWMutex
	subs       map[string]*Submission
	changed    map[string]time.Time // of the unfinished ones: their record's last write
	all        index
	byUser     map[string]index
	byProblem  map[string]index
	state      map[string]int
	verdict    map[verdict.Verdict]int // of the done ones
	doneByProb map[string]int
	ready      chan struct{} // closed with the initial values
	log        *log.Logger

	// onChange is told every update after the initial values (old is nil
	// for a new submission).
	onChange func(old, new *Submission)
}

func newView(l *log.Logger, onChange func(old, new *Submission)) *view {
	if l == nil {
		l = log.New(io.Discard, "", 0)
	}
	return &view{log: l, subs: map[string]*Submission{}, changed: map[string]time.Time{},
		byUser: map[string]index{}, byProblem: map[string]index{},
		state:   map[string]int{StateQueued: 0, StateRunning: 0, StateDone: 0},
		verdict: map[verdict.Verdict]int{}, doneByProb: map[string]int{},
		ready: make(chan struct{}), onChange: onChange}
}

// run follows the bucket until ctx ends, watching again after a failure.
func (v *view) run(ctx context.Context, kv jetstream.KeyValue) {
	for ctx.Err() == nil {
		v.follow(ctx, kv)
		sleep(ctx, time.Second)
	}
}

func (v *view) follow(ctx context.Context, kv jetstream.KeyValue) {
	w, err := kv.WatchAll(ctx)
	if err != nil {
		if ctx.Err() == nil {
			v.log.Printf("the submissions' view: watching %s: %v (trying again)", kv.Bucket(), err)
		}
		return
	}
	defer w.Stop()
	initial := true
	for {
		select {
		case <-ctx.Done():
			return
		case e, ok := <-w.Updates():
			if !ok {
				if ctx.Err() == nil {
					v.log.Printf("the submissions' view: the watch of %s ended (watching again)", kv.Bucket())
				}
				return
			}
			if e == nil {
				if initial {
					initial = false
					select {
					case <-v.ready:
					default:
						close(v.ready)
					}
				}
				continue
			}
			v.apply(e, !initial)
		}
	}
}

func (v *view) apply(e jetstream.KeyValueEntry, live bool) {
	var sub *Submission
	if e.Operation() == jetstream.KeyValuePut {
		sub = &Submission{}
		if err := json.Unmarshal(e.Value(), sub); err != nil || sub.ID != e.Key() {
			v.log.Printf("the submissions' view: %s is not a submission's record (id %q, %v): left out", e.Key(), sub.ID, err)
			sub = nil
		}
	}
	old := v.set(e.Key(), sub, e.Created())
	if live && sub != nil && v.onChange != nil {
		v.onChange(old, sub)
	}
}

// set makes sub (nil: none) the record of id, last written at changed,
// and returns the one it replaces.
func (v *view) set(id string, sub *Submission, changed time.Time) (old *Submission) {
	v.mu.Lock()
	defer v.mu.Unlock()
	old = v.subs[id]
	if old != nil {
		v.count(old, -1)
		v.all = v.all.drop(old)
		v.byUser[old.User] = v.byUser[old.User].drop(old)
		v.byProblem[old.Problem] = v.byProblem[old.Problem].drop(old)
		delete(v.subs, id)
		delete(v.changed, id)
	}
	if sub == nil {
		return old
	}
	v.subs[id] = sub
	if sub.State != StateDone {
		v.changed[id] = changed
	}
	v.count(sub, 1)
	v.all = v.all.put(sub)
	v.byUser[sub.User] = v.byUser[sub.User].put(sub)
	v.byProblem[sub.Problem] = v.byProblem[sub.Problem].put(sub)
	return old
}

func (v *view) count(s *Submission, n int) {
	v.state[s.State] += n
	if s.State == StateDone {
		v.verdict[s.Verdict] += n
		v.doneByProb[s.Problem] += n
	}
}

// waitReady waits for the initial values, up to d, and says whether they
// came.
func (v *view) waitReady(d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-v.ready:
		return nil
	case <-t.C:
		return fmt.Errorf("the submissions' view has not its first values after %v", d)
	}
}

// check is nil once the view has its first values, before them a 503: a
// list, a count or a rejudge from a view that has not would leave out
// submissions that exist.
func (v *view) check() error {
	select {
	case <-v.ready:
		return nil
	default:
		return errorf(http.StatusServiceUnavailable, "the server is still reading the submissions: try again")
	}
}

// index is submissions newest first: by creation time, then by id.
type index []*Submission

// before says whether a comes before b in an index.
func before(a, b *Submission) bool {
	if !a.CreatedAt.Equal(b.CreatedAt) {
		return a.CreatedAt.After(b.CreatedAt)
	}
	return a.ID > b.ID
}

// at is where s is, or would be, in x.
func (x index) at(s *Submission) int {
	return sort.Search(len(x), func(i int) bool { return !before(x[i], s) })
}

func (x index) put(s *Submission) index {
	i := x.at(s)
	x = append(x, nil)
	copy(x[i+1:], x[i:])
	x[i] = s
	return x
}

func (x index) drop(s *Submission) index {
	i := x.at(s)
	if i < len(x) && x[i] == s {
		x = append(x[:i], x[i+1:]...)
	}
	return x
}

// filter selects submissions for a list.
type filter struct {
	Problem, User, State string
	// Verdict selects the done submissions of that verdict; Unknown: any.
	Verdict verdict.Verdict
	// Pending selects the submissions not done.
	Pending bool
	Limit   int // 0: every one
	// Language, and the times submitted (From inclusive, To exclusive;
	// zero: open), for the jury's list.
	Language string
	From, To time.Time
	// Rejudging selects the runs of that rejudging; "" the submissions
	// (never a run).
	Rejudging string
}

func (f *filter) passes(s *Submission) bool {
	return s.Rejudging == f.Rejudging && (f.Problem == "" || s.Problem == f.Problem) && (f.User == "" || s.User == f.User) &&
		(f.State == "" || s.State == f.State) && verdictPasses(s, f.Pending, f.Verdict) &&
		(f.Language == "" || s.Language == f.Language) && (f.From.IsZero() || !s.CreatedAt.Before(f.From)) &&
		(f.To.IsZero() || s.CreatedAt.Before(f.To))
}

// verdictPasses is the verdict filter: pending, what is not done; else
// the done ones of the verdict want, every one for Unknown.
func verdictPasses(sub *Submission, pending bool, want verdict.Verdict) bool {
	switch {
	case pending:
		return sub.State != StateDone
	case want == verdict.Unknown:
		return true
	}
	return sub.State == StateDone && sub.Verdict == want
}

// list returns the submissions that pass f, newest first, walking the
// smallest index that holds them all.
func (v *view) list(f filter) []Submission {
	v.mu.RLock()
	defer v.mu.RUnlock()
	x := v.all
	switch {
	case f.User != "":
		x = v.byUser[f.User]
	case f.Problem != "":
		x = v.byProblem[f.Problem]
	}
	var out []Submission
	for _, s := range x {
		if f.Limit > 0 && len(out) == f.Limit {
			break
		}
		if f.passes(s) {
			out = append(out, *s)
		}
	}
	return out
}

// counts are the submissions by state, by verdict (of the done ones), the
// done ones per problem, and the oldest queued request.
type counts struct {
	State       map[string]int
	Verdict     map[verdict.Verdict]int
	Done        map[string]int // by problem
	OldestQueue time.Time
	OldestID    string
}

func (v *view) counts() counts {
	v.mu.RLock()
	defer v.mu.RUnlock()
	c := counts{State: clone(v.state), Verdict: nonZero(v.verdict), Done: clone(v.doneByProb)}
	for id := range v.changed {
		s := v.subs[id]
		if s.State == StateQueued && (c.OldestQueue.IsZero() || s.QueuedAt.Before(c.OldestQueue)) {
			c.OldestQueue, c.OldestID = s.QueuedAt, s.ID
		}
	}
	return c
}

// nonZero is a copy of m without its zero counts.
func nonZero[K comparable](m map[K]int) map[K]int {
	out := maps.Clone(m)
	maps.DeleteFunc(out, func(_ K, n int) bool { return n == 0 })
	return out
}

func clone(m map[string]int) map[string]int {
	out := make(map[string]int, len(m))
	for k, n := range m {
		if n != 0 || k == StateQueued || k == StateRunning || k == StateDone {
			out[k] = n
		}
	}
	return out
}

// stale are the unfinished submissions whose record has not changed since
// t, oldest change first.
func (v *view) stale(t time.Time) []Submission {
	v.mu.RLock()
	var out []Submission
	var when []time.Time
	for id, c := range v.changed {
		if c.Before(t) {
			out, when = append(out, *v.subs[id]), append(when, c)
		}
	}
	v.mu.RUnlock()
	sort.Sort(byTime{out, when})
	return out
}

type byTime struct {
	subs []Submission
	when []time.Time
}

func (b byTime) Len() int           { return len(b.subs) }
func (b byTime) Less(i, j int) bool { return b.when[i].Before(b.when[j]) }
func (b byTime) Swap(i, j int) {
	b.subs[i], b.subs[j] = b.subs[j], b.subs[i]
	b.when[i], b.when[j] = b.when[j], b.when[i]
}
