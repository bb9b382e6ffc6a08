package service

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"runtime"
	"slices"
	"sort"
	"testing"
	"time"

	"github.com/optjudge/optjudge/verdict"
)

// naiveList is list as a plain filter and sort over every submission.
func naiveList(subs map[string]*Submission, f filter) []Submission {
	var out []Submission
	for _, s := range subs {
		if f.passes(s) {
			out = append(out, *s)
		}
	}
	sort.Slice(out, func(i, j int) bool { return before(&out[i], &out[j]) })
	if f.Limit > 0 && len(out) > f.Limit {
		out = out[:f.Limit]
	}
	return out
}

func ids(subs []Submission) []string {
	var out []string
	for _, s := range subs {
		out = append(out, s.ID)
	}
	return out
}

// TestViewIndexes: the view's lists and counts, kept up to date through
// puts, updates and deletes, against a plain filter over every record.
func TestViewIndexes(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(1, 2))
	v := newView(nil, nil)
	truth := map[string]*Submission{}
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	states := []string{StateQueued, StateRunning, StateDone}
	verdicts := []verdict.Verdict{verdict.AC, verdict.WA, verdict.TLE}
	for i := range 3000 {
		id := fmt.Sprintf("%020x", r.IntN(400))
		if r.IntN(10) == 0 {
			v.set(id, nil, base)
			delete(truth, id)
			continue
		}
		sub := &Submission{ID: id, User: fmt.Sprintf("u%d", r.IntN(7)), Problem: fmt.Sprintf("p%d", r.IntN(3)),
			CreatedAt: base.Add(time.Duration(r.IntN(50)) * time.Second), State: states[r.IntN(3)]}
		if old := truth[id]; old != nil {
			sub.CreatedAt, sub.User, sub.Problem = old.CreatedAt, old.User, old.Problem // a record's own fields stay
		}
		if sub.State == StateDone {
			sub.Verdict = verdicts[r.IntN(3)]
		}
		v.set(id, sub, base.Add(time.Duration(i)*time.Millisecond))
		truth[id] = sub
	}
	for _, f := range []filter{{}, {User: "u3"}, {Problem: "p1"}, {User: "u2", Problem: "p0", State: StateDone},
		{Pending: true}, {Problem: "p2", Verdict: verdict.WA, Limit: 5}, {User: "nobody"}, {Limit: 10}} {
		if got, want := ids(v.list(f)), ids(naiveList(truth, f)); !slices.Equal(got, want) {
			t.Errorf("list %+v: got %v, want %v", f, got, want)
		}
	}
	c := v.counts()
	want := map[string]int{}
	done := map[string]int{}
	for _, s := range truth {
		want[s.State]++
		if s.State == StateDone {
			want[s.Verdict.String()]++
			done[s.Problem]++
		}
	}
	keys := slices.Clone(states)
	for _, v := range verdicts {
		keys = append(keys, v.String())
	}
	for _, k := range keys {
		v, _ := verdict.Parse(k) // a state is no verdict: Unknown, counted nowhere
		if got := c.State[k] + c.Verdict[v]; got != want[k] {
			t.Errorf("count of %s: got %d, want %d", k, got, want[k])
		}
	}
	for p, n := range done {
		if c.Done[p] != n {
			t.Errorf("done of %s: got %d, want %d", p, c.Done[p], n)
		}
	}
}

// TestListCost: a contestant's list among many submissions costs what it
// returns, not a copy of every submission. Not parallel: the allocations
// it reads are the process's, and the package's parallel tests (servers,
// browsers) would add theirs.
func TestListCost(t *testing.T) {
	v := newView(nil, nil)
	const n = 20000
	now := time.Now()
	for i := range n {
		id := fmt.Sprintf("%020d", i)
		v.set(id, &Submission{ID: id, Problem: "clocks", User: fmt.Sprintf("u%d", i%1000), Language: "python",
			Filename: "a.py", Source: "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef", State: StateDone,
			Verdict: verdict.AC, CreatedAt: now.Add(time.Duration(i) * time.Millisecond), Judgings: []JudgingRef{{Request: 1, Verdict: verdict.AC}}}, now)
	}
	var m0, m1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m0)
	out := v.list(filter{User: "u7", Limit: 100})
	out2 := v.list(filter{Problem: "clocks", Limit: 100})
	runtime.ReadMemStats(&m1)
	if len(out) != n/1000 || len(out2) != 100 {
		t.Fatalf("got %d and %d submissions, want %d and 100", len(out), len(out2), n/1000)
	}
	if alloc := m1.TotalAlloc - m0.TotalAlloc; alloc > 256<<10 {
		t.Errorf("two lists of at most 100 among %d: %d bytes allocated, want under 256 KiB", n, alloc)
	}
}

// TestSweepCost: the sweeper asks NATS about the unfinished submissions
// whose record has not changed for 2 AckWaits, once each; the others cost
// nothing.
func TestSweepCost(t *testing.T) {
	setSweep(t, time.Hour) // the test's passes only
	e := newEnv(t, envOpts{ackWait: 500 * time.Millisecond})
	var subs []string
	for i := range 40 {
		subs = append(subs, e.submit("clocks", fmt.Sprintf("a%d.py", i), fmt.Sprintf("print(%d)\n", i)))
	}
	// every record over 2 AckWaits old, as the sweep tells
	waitFor(t, time.Minute, "the records stale", func() bool {
		return len(e.api.view.stale(time.Now().Add(-2*e.store.AckWait))) == len(subs)
	})
	for _, id := range subs[:20] {
		// a worker on it: the record changes
		if err := e.api.life.markRunning(t.Context(), Job{Submission: id, Request: 1}, "w"); err != nil {
			t.Fatal(err)
		}
	}
	waitFor(t, 10*time.Second, "the view", func() bool { return e.api.view.counts().State[StateRunning] == 20 })
	before := e.nc.Stats().OutMsgs
	e.api.life.sweepOnce(t.Context())
	sent := e.nc.Stats().OutMsgs - before
	if sent > 20+10 {
		t.Errorf("a pass over 20 stale and 20 fresh submissions: %d messages, want at most 30", sent)
	}
	for _, id := range subs {
		if sub, _ := e.store.Submission(t.Context(), id); sub.State == StateDone {
			t.Errorf("%s: done without a worker", id)
		}
	}
}

// TestVerdictFilters: the list's and the rejudging form's verdict filters
// read a verdict's name into the typed verdict, "pending" into Pending,
// and refuse a name of no verdict with a 400 (it used to select nothing).
func TestVerdictFilters(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		in      string
		want    verdict.Verdict
		pending bool
		bad     bool
	}{
		{"", verdict.Unknown, false, false},
		{"pending", verdict.Unknown, true, false},
		{"WA", verdict.WA, false, false},
		{"TLE", verdict.TLE, false, false},
		{"wa", 0, false, true}, // the list's script compares short names exactly
		{"XYZ", 0, false, true},
	} {
		v, pending, err := parseVerdictFilter(tt.in)
		var he *apiError
		switch {
		case tt.bad && (!errors.As(err, &he) || he.status != http.StatusBadRequest):
			t.Errorf("%q: got %v, want a 400", tt.in, err)
		case !tt.bad && (err != nil || v != tt.want || pending != tt.pending):
			t.Errorf("%q: got %v, %v, %v, want %v, %v", tt.in, v, pending, err, tt.want, tt.pending)
		case !tt.bad && (listData{Verdict: v, Pending: pending}).VerdictFilter() != tt.in:
			t.Errorf("%q: the form spells it %q", tt.in, (listData{Verdict: v, Pending: pending}).VerdictFilter())
		}
	}
	form := func(verdict string) func(string) string {
		return func(k string) string { return map[string]string{"verdict": verdict, "problem": "clocks"}[k] }
	}
	if req, err := rejudgingFilterOf(form("RE")); err != nil || req.Verdict != verdict.RE || req.Problem != "clocks" {
		t.Errorf("the form's RE: got %+v, %v", req, err)
	}
	if req, err := rejudgingFilterOf(form("")); err != nil || req.Verdict != verdict.Unknown {
		t.Errorf("the form's any verdict: got %+v, %v", req, err)
	}
	var he *apiError
	if _, err := rejudgingFilterOf(form("pending")); !errors.As(err, &he) || he.status != http.StatusBadRequest {
		t.Errorf("the form's pending: got %v, want a 400 (a rejudging takes finished submissions)", err)
	}
}
