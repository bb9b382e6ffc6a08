package service

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/optjudge/optjudge/judge"
)

// The event feed of the Contest API: every object of the contest (its
// configuration, state, submissions, judgements, runs, clarifications and
// awards) is a fact with an audience (everyone, the jury, or some teams).
// The feed computes the facts afresh whenever something may have changed
// (a submission's record, the clock, the bucket of the contest) and
// appends an event for each fact that is new, changed or gone, numbered:
// the number is the event's token, and ?since_token=N resumes after it.
// A fact whose audience widens (a judgement hidden by the freeze, at the
// thaw) is told again. The REST endpoints read the same facts, so that a
// GET never shows an earlier state than the feed has told.
//
// The log lives in memory: a restarted server tells its facts anew, and
// a token of the server before is 400 if the new log is shorter.

// fact is one object of the contest as the API shows it.
type fact struct {
	typ  string // the endpoint: contest, state, problems, teams, ...
	id   string // "" for a singleton (contest, state)
	data json.RawMessage
	who  string // "" everyone, whoAdmin, whoPublic, "team:ID[,ID...]" or "except:ID"
	// variant tells apart the forms of one object that different
	// audiences see (a submission with its files for its team and the
	// jury, without for the others): each user sees one.
	variant string
}

func (f fact) key() string { return f.typ + "/" + f.id + "/" + f.variant }

// event is one line of the feed.
type event struct {
	token int
	f     fact
	gone  bool
}

// feed is the log and the current facts.
type feed struct {
	l     *contestLayer
	dirty chan struct{}

	syncMu sync.Mutex // one sync at a time

	mu      sync.Mutex
	events  []event
	current map[string]fact // by key
	order   []string        // keys in the order they were first told
	changed chan struct{}   // closed and replaced at each append
	reports map[string]*reportBrief
}

func newFeed(l *contestLayer) *feed {
	return &feed{l: l, dirty: make(chan struct{}, 1), current: map[string]fact{}, changed: make(chan struct{}),
		reports: map[string]*reportBrief{}}
}

// poke asks for a sync soon.
func (f *feed) poke() {
	select {
	case f.dirty <- struct{}{}:
	default:
	}
}

// run syncs when poked, on the submissions' changes and at the clock's
// steps (every second against the system clock).
func (f *feed) run(ctx context.Context) {
	ch := f.l.s.hub.subscribe()
	defer func() { f.l.s.hub.unsubscribe(ch) }()
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	f.sync(ctx)
	for {
		select {
		case <-ctx.Done():
			return
		case _, ok := <-ch:
			if !ok { // too slow for the hub: follow it again
				ch = f.l.s.hub.subscribe()
			}
		case <-f.dirty:
		case <-tick.C:
		}
		f.sync(ctx)
	}
}

// sync computes the facts and tells what changed.
func (f *feed) sync(ctx context.Context) {
	f.syncMu.Lock()
	defer f.syncMu.Unlock()
	facts := f.l.facts(ctx)
	f.mu.Lock()
	defer f.mu.Unlock()
	seen := map[string]bool{}
	n := len(f.events)
	for _, x := range facts {
		k := x.key()
		seen[k] = true
		old, ok := f.current[k]
		if ok && old.who == x.who && bytes.Equal(old.data, x.data) {
			continue
		}
		if !ok {
			f.order = append(f.order, k)
		}
		f.current[k] = x
		f.events = append(f.events, event{token: len(f.events) + 1, f: x})
	}
	for _, k := range f.order {
		if old, ok := f.current[k]; ok && !seen[k] {
			delete(f.current, k)
			f.events = append(f.events, event{token: len(f.events) + 1, f: old, gone: true})
		}
	}
	if len(f.events) > n {
		close(f.changed)
		f.changed = make(chan struct{})
	}
}

// facts of one type that u may see, in the order first told.
func (f *feed) list(u *User, team, typ string) []json.RawMessage {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := []json.RawMessage{}
	for _, k := range f.order {
		x, ok := f.current[k]
		if ok && x.typ == typ && allowed(u, team, x.who) {
			out = append(out, x.data)
		}
	}
	return out
}

// one is the fact typ/id if u may see it.
func (f *feed) one(u *User, team, typ, id string) (json.RawMessage, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, v := range variants {
		x, ok := f.current[typ+"/"+id+"/"+v]
		if ok && allowed(u, team, x.who) {
			return x.data, true
		}
	}
	return nil, false
}

// variants are the forms a fact may have.
var variants = []string{"", "public"}

// since is the events after token that u may see, and a channel closed
// at the next event.
func (f *feed) since(u *User, team string, token int) ([]event, chan struct{}) {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []event
	for _, e := range f.events[min(token, len(f.events)):] {
		if allowed(u, team, e.f.who) {
			out = append(out, e)
		}
	}
	return out, f.changed
}

func (f *feed) length() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.events)
}

// line is an event as the feed writes it.
func (e event) line() []byte {
	var id any
	if e.f.id != "" {
		id = e.f.id
	}
	data := e.f.data
	if e.gone {
		data = json.RawMessage("null")
	}
	b, _ := json.Marshal(struct {
		Type  string          `json:"type"`
		ID    any             `json:"id"`
		Data  json.RawMessage `json:"data"`
		Token string          `json:"token"`
	}{e.f.typ, id, data, strconv.Itoa(e.token)})
	return append(b, '\n')
}

// handleFeed is GET contests/ID/event-feed: NDJSON, every event the user
// may see from the start (or after ?since_token=N), then each new one as
// it comes; a newline every 120 s at the latest keeps it alive.
// ?stream=false ends it after the events there are.
func (s *Server) handleFeed(w http.ResponseWriter, r *http.Request, u *User) {
	l := s.contest
	q := r.URL.Query()
	if q.Has("since_id") {
		writeCLICSError(w, errorf(http.StatusBadRequest, "since_id: not supported, use since_token"))
		return
	}
	token := 0
	if v := q.Get("since_token"); q.Has("since_token") {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 || n > l.feed.length() {
			writeCLICSError(w, errorf(http.StatusBadRequest, "since_token %q: not a token of this feed", v))
			return
		}
		token = n
	}
	stream := q.Get("stream") != "false"
	if stream {
		name := "public"
		if u != nil {
			name = u.Name
		}
		release, err := s.openStream(&User{Name: name})
		if err != nil {
			writeCLICSError(w, err)
			return
		}
		defer release()
	}
	l.feed.sync(r.Context())
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	stop := context.AfterFunc(s.ctx, cancel)
	defer stop()
	w.Header().Set("Content-Type", "application/x-ndjson")
	w.Header().Set("Cache-Control", "no-cache")
	w.Header().Set("X-Accel-Buffering", "no")
	w.Header().Set("Access-Control-Allow-Origin", "*")
	w.WriteHeader(http.StatusOK)
	rc := http.NewResponseController(w)
	team := l.teamOf(u)
	keepAlive := time.NewTicker(100 * time.Second)
	defer keepAlive.Stop()
	for {
		evs, changed := l.feed.since(u, team, token)
		if len(evs) > 0 {
			var buf bytes.Buffer
			for _, e := range evs {
				buf.Write(e.line())
			}
			rc.SetWriteDeadline(time.Now().Add(30 * time.Second))
			if _, err := w.Write(buf.Bytes()); err != nil || rc.Flush() != nil {
				return
			}
		}
		token = l.feed.length()
		if len(evs) > 0 {
			token = evs[len(evs)-1].token
		}
		if !stream {
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-changed:
		case <-keepAlive.C:
			rc.SetWriteDeadline(time.Now().Add(30 * time.Second))
			if _, err := w.Write([]byte("\n")); err != nil || rc.Flush() != nil {
				return
			}
		}
	}
}

// reportBrief is what the API shows of a finished judging's report: its
// score, longest run and tests. A report does not change: it is read
// once.
type reportBrief struct {
	scoring bool
	max     *float64
	score   float64
	maxTime int64 // ms
	tests   []judge.TestResult
}

// brief reads the report of a judging (cached).
func (f *feed) brief(ctx context.Context, sub *Submission, ref JudgingRef) *reportBrief {
	key := judgingKey(sub.ID, ref.Request)
	f.mu.Lock()
	b := f.reports[key]
	f.mu.Unlock()
	if b != nil {
		return b
	}
	st := f.l.s.cfg.Store
	j, err := st.Judging(ctx, sub.ID, ref.Request)
	if err != nil {
		return &reportBrief{} // not cached: read again next time
	}
	raw, err := st.Report(ctx, j)
	if err != nil {
		return &reportBrief{}
	}
	var rep judge.Report
	if err := json.Unmarshal(raw, &rep); err != nil {
		return &reportBrief{}
	}
	b = &reportBrief{tests: rep.Tests, scoring: rep.Score.Scoring, score: rep.Score.Value, max: rep.Score.Max}
	if !rep.Score.Scoring && rep.Verdict.String() == "AC" {
		b.score = 1
	}
	for _, t := range rep.Tests {
		b.maxTime = max(b.maxTime, t.TimeMS)
	}
	f.mu.Lock()
	f.reports[key] = b
	f.mu.Unlock()
	return b
}
