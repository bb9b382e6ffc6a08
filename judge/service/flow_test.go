package service

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/optjudge/optjudge/judge"
	"github.com/optjudge/optjudge/judge/service/store"
	"github.com/optjudge/optjudge/problems"
	"github.com/optjudge/optjudge/verdict"
)

func TestAuthAndOwnership(t *testing.T) {
	t.Parallel()
	toks := []Token{
		{Name: "alice", Token: "alice-token-0123456789", Role: RoleContestant},
		{Name: "bob", Token: "bob-token-0123456789ab", Role: RoleContestant},
		{Name: "root", Token: "root-token-0123456789a", Role: RoleAdmin},
	}
	e := newEnv(t, envOpts{tokens: toks})
	if code := e.do("GET", "/api/v1/problems", nil, nil, nil); code != http.StatusUnauthorized {
		t.Errorf("no token: got %d, want 401", code)
	}
	e.token = "wrong-token-0123456789"
	if code := e.do("GET", "/api/v1/problems", nil, nil, nil); code != http.StatusUnauthorized {
		t.Errorf("wrong token: got %d, want 401", code)
	}
	e.token = toks[0].Token
	alice := e.submit("clocks", "a.py", "print(1)\n")
	e.token = toks[1].Token
	bob := e.submit("clocks", "b.py", "print(2)\n")
	if code := e.do("GET", "/api/v1/submissions/"+alice, nil, nil, nil); code != http.StatusNotFound {
		t.Errorf("bob reads alice's: got %d, want 404", code)
	}
	if code := e.do("GET", "/api/v1/submissions/"+alice+"/events", nil, nil, nil); code != http.StatusNotFound {
		t.Errorf("bob follows alice's: got %d, want 404", code)
	}
	// the lists are views, brought up to date after a submission is
	// taken: wait until bob's shows his (the later of the two), then
	// nothing of alice's may be in either
	var list struct{ Submissions []SubmissionView }
	waitFor(t, time.Minute, "bob's submission in his list", func() bool {
		list.Submissions = nil
		e.do("GET", "/api/v1/submissions", nil, nil, &list)
		return len(list.Submissions) > 0
	})
	if len(list.Submissions) != 1 || list.Submissions[0].ID != bob || list.Submissions[0].User != "bob" {
		t.Errorf("bob's list: got %+v, want his one", list.Submissions)
	}
	list.Submissions = nil
	e.do("GET", "/api/v1/submissions?user=alice", nil, nil, &list)
	if len(list.Submissions) != 0 {
		t.Errorf("bob lists alice's: got %d, want none", len(list.Submissions))
	}
	for _, path := range []string{"/api/v1/queue", "/api/v1/problems/clocks/rejudges/x"} {
		if code := e.do("GET", path, nil, nil, nil); code != http.StatusForbidden {
			t.Errorf("contestant GET %s: got %d, want 403", path, code)
		}
	}
	for _, path := range []string{"/api/v1/problems/clocks/rejudge", "/api/v1/problems"} {
		if code := e.do("POST", path, strings.NewReader(""), nil, nil); code != http.StatusForbidden {
			t.Errorf("contestant POST %s: got %d, want 403", path, code)
		}
	}
	e.token = toks[2].Token
	e.do("GET", "/api/v1/submissions", nil, nil, &list)
	if len(list.Submissions) != 2 {
		t.Errorf("admin's list: got %d, want 2", len(list.Submissions))
	}
	if v := e.get(alice); v.User != "alice" {
		t.Errorf("admin reads alice's: got user %q", v.User)
	}
	if code := e.do("GET", "/api/v1/queue", nil, nil, nil); code != http.StatusOK {
		t.Errorf("admin queue: got %d", code)
	}
}

func TestParseTokens(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, yaml, want string }{
		{"short token", "- {name: a, token: short, role: admin}", "at least 16"},
		{"bad role", "- {name: a, token: 0123456789abcdef, role: root}", "role"},
		{"duplicate name", "- {name: a, token: 0123456789abcdef, role: admin}\n- {name: a, token: 0123456789abcdeg, role: admin}", "twice"},
		{"duplicate token", "- {name: a, token: 0123456789abcdef, role: admin}\n- {name: b, token: 0123456789abcdef, role: admin}", "another's"},
		{"typo", "- {name: a, tokn: 0123456789abcdef, role: admin}", "tokn"},
		{"bad name", "- {name: 'a b', token: 0123456789abcdef, role: admin}", "name"},
		{"empty", "", "no tokens"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseTokens(strings.NewReader(tt.yaml), "tokens.yaml")
			if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.HasPrefix(err.Error(), "tokens.yaml") {
				t.Errorf("got %v, want an error about %q naming tokens.yaml", err, tt.want)
			}
		})
	}
}

// TestIdempotentSubmission: a POST retried with its Idempotency-Key gets
// the same submission and queues no second job, even past JetStream's
// deduplication window; the key with another source or file name is a
// conflict.
func TestIdempotentSubmission(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOpts{duplicates: 200 * time.Millisecond})
	body := SubmitRequest{Problem: "clocks", Filename: "wa.py", Source: readFile(t, "wa.py")}
	key := map[string]string{"Idempotency-Key": "retry-1"}
	var a, b Accepted
	if code := e.do("POST", "/api/v1/submissions", jsonBody(body), key, &a); code != http.StatusAccepted {
		t.Fatalf("first POST: got %d", code)
	}
	if code := e.do("POST", "/api/v1/submissions", jsonBody(body), key, &b); code != http.StatusAccepted || b.ID != a.ID {
		t.Fatalf("retried POST: got %d %s, want 202 %s", code, b.ID, a.ID)
	}
	time.Sleep(300 * time.Millisecond) // past the deduplication window
	if code := e.do("POST", "/api/v1/submissions", jsonBody(body), key, &b); code != http.StatusAccepted || b.ID != a.ID {
		t.Fatalf("POST retried later: got %d %s, want 202 %s", code, b.ID, a.ID)
	}
	other := body
	other.Source = "print(2)\n"
	if code := e.do("POST", "/api/v1/submissions", jsonBody(other), key, nil); code != http.StatusConflict {
		t.Errorf("the key for another source: got %d, want 409", code)
	}
	other = body
	other.Filename = "other.py"
	if code := e.do("POST", "/api/v1/submissions", jsonBody(other), key, nil); code != http.StatusConflict {
		t.Errorf("the key for another file name: got %d, want 409", code)
	}
	info, err := e.store.Jobs.Info(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if info.State.Msgs != 1 {
		t.Errorf("jobs in the stream: got %d, want 1 (the retry deduplicated)", info.State.Msgs)
	}
	e.startWorker("w", newEngine(t, false))
	checkOnce(t, e.waitDone(time.Minute, a.ID), map[string]string{a.ID: "WA"}, 1)
}

func TestQueueFull(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOpts{queueLimit: 2})
	first := e.submit("clocks", "a.py", "print(1)\n")
	e.submit("clocks", "b.py", "print(2)\n")
	var out struct{ Error string }
	code := e.do("POST", "/api/v1/submissions", jsonBody(SubmitRequest{Problem: "clocks", Filename: "c.py", Source: "print(3)\n"}), nil, &out)
	if code != http.StatusTooManyRequests || !strings.Contains(out.Error, "queue is full") {
		t.Fatalf("third submission: got %d %q, want 429", code, out.Error)
	}
	// the view follows the bucket: a change made after the 429, the first
	// submission running, has reached it, and a third one would have too
	if err := e.api.life.markRunning(t.Context(), Job{Submission: first, Request: 1}, "w"); err != nil {
		t.Fatal(err)
	}
	waitFor(t, time.Minute, "the view", func() bool { return e.api.view.counts().State[StateRunning] == 1 })
	var list struct{ Submissions []SubmissionView }
	e.do("GET", "/api/v1/submissions", nil, nil, &list)
	if len(list.Submissions) != 2 {
		t.Errorf("after a 429: got %d submissions, want 2", len(list.Submissions))
	}
}

// TestRejudgeAndCache rejudges C++ submissions: each gets one more
// judging, and the second grading of the same source is a cache hit, but
// for a compilation error's.
func TestRejudgeAndCache(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOpts{})
	eng := newEngine(t, false).(*engine)
	eng.cfg.Executables = e.store.Executables
	e.startWorker("w", eng)
	src := readFile(t, "wa.cpp")
	// the same file twice: the file's name is part of the build (the
	// compiler's messages name it; a Java class must be in its file)
	ids := []string{e.submit("clocks", "a.cpp", src), e.submit("clocks", "a.cpp", src), e.submit("clocks", "ce.cpp", readFile(t, "ce.cpp"))}
	want := map[string]string{ids[0]: "WA", ids[1]: "WA", ids[2]: "CE"}
	checkOnce(t, e.waitDone(2*time.Minute, ids...), want, 1)
	var rj struct {
		ID     string
		Queued int
	}
	if code := e.do("POST", "/api/v1/problems/clocks/rejudge", nil, nil, &rj); code != http.StatusAccepted || rj.Queued != 3 {
		t.Fatalf("rejudge: got %d %+v, want 202 with 3 queued", code, rj)
	}
	checkOnce(t, e.waitDone(2*time.Minute, ids...), want, 2)
	var res RejudgeResult
	if code := e.do("GET", "/api/v1/problems/clocks/rejudges/"+rj.ID, nil, nil, &res); code != http.StatusOK {
		t.Fatalf("rejudge result: got %d", code)
	}
	if res.Done != 3 || res.Pending != 0 || res.Unchanged != 3 || len(res.Changed) != 0 {
		t.Errorf("rejudge result: got %+v, want 3 done, unchanged", res)
	}
	cached := 0
	for _, id := range ids[:2] {
		for req := 1; req <= 2; req++ {
			j, err := e.store.Judging(context.Background(), id, req)
			if err != nil {
				t.Fatal(err)
			}
			if j.Cached {
				cached++
			}
		}
	}
	if cached != 3 {
		t.Errorf("cached builds among the 4 gradings of one source: got %d, want 3", cached)
	}
	// a failed build is never cached: it may have failed for a reason of
	// the moment
	if j, err := e.store.Judging(context.Background(), ids[2], 2); err != nil || j.Cached {
		t.Errorf("the rejudge of a CE: got %+v (%v), want it compiled again", j, err)
	}
}

// TestEvents follows a grading as server-sent events.
func TestEvents(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOpts{})
	id := e.submit("clocks", "ac.py", readFile(t, "clocks_ac.py"))
	resp, err := http.Get(e.http.URL + "/api/v1/submissions/" + id + "/events")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("Content-Type: got %q", ct)
	}
	e.startWorker("w", newEngine(t, false))
	counts := map[string]int{}
	var states []string
	var done SubmissionView
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(nil, 1<<20)
	var event string
	for sc.Scan() {
		line := sc.Text()
		if name, ok := strings.CutPrefix(line, "event: "); ok {
			event = name
			counts[name]++
		}
		if data, ok := strings.CutPrefix(line, "data: "); ok {
			switch event {
			case "state":
				var s stateEvent
				json.Unmarshal([]byte(data), &s)
				states = append(states, s.State)
			case "done":
				json.Unmarshal([]byte(data), &done)
			}
		}
	}
	if len(states) < 3 || states[0] != StateQueued || states[len(states)-1] != StateDone {
		t.Errorf("states: got %v, want queued, running, done", states)
	}
	if counts["test"] != 40 || done.Verdict != verdict.AC || done.Report == nil {
		t.Errorf("got %d test events and done %+v, want 40 tests and AC with its report", counts["test"], done)
	}
	// a done submission: the whole story at once
	resp2, err := http.Get(e.http.URL + "/api/v1/submissions/" + id + "/events")
	if err != nil {
		t.Fatal(err)
	}
	defer resp2.Body.Close()
	b := new(strings.Builder)
	bufio.NewReader(resp2.Body).WriteTo(b)
	if !strings.Contains(b.String(), "event: done") {
		t.Errorf("events of a done submission: got %q", b.String())
	}
}

// crashEngine kills its worker as a submission that takes its machine
// down would.
type crashEngine struct {
	Engine
	w atomic.Pointer[Worker]
}

func (c *crashEngine) Grade(ctx context.Context, _ *problems.Problem, _ Source, _ func(judge.TestResult)) (*Graded, error) {
	for c.w.Load() == nil {
		time.Sleep(time.Millisecond) // the test has not said which yet
	}
	c.w.Load().Crash()
	<-ctx.Done()
	return nil, ctx.Err()
}

// TestWorkerKilledMidGrading: a worker dies while grading; another
// finishes the submission, once.
func TestWorkerKilledMidGrading(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOpts{ackWait: 2 * time.Second})
	eng := newEngine(t, false)
	first := e.startWorker("doomed", eng)
	id := e.submit("eight-puzzle", "slow_wa.py", readFile(t, "slow_wa.py"))
	deadline := time.Now().Add(time.Minute)
	for e.get(id).State != StateRunning {
		if time.Now().After(deadline) {
			t.Fatal("never running")
		}
		time.Sleep(20 * time.Millisecond)
	}
	first.crash()
	e.startWorker("survivor", eng)
	got := e.waitDone(2*time.Minute, id)
	checkOnce(t, got, map[string]string{id: "WA"}, 1)
	if w := got[id].Judgings[0].Worker; w != "survivor" {
		t.Errorf("graded by %s, want survivor", w)
	}
}

// TestKillerSubmissionEndsAsJE: a submission whose every try kills its
// worker ends as JE after store.MaxTries, with the reasons.
func TestKillerSubmissionEndsAsJE(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOpts{ackWait: time.Second})
	id := e.submit("clocks", "killer.py", "print(1)\n")
	real := newEngine(t, false)
	for i := 0; i < store.MaxTries; i++ {
		ce := &crashEngine{Engine: real}
		wk := e.startWorker("victim-"+string(rune('a'+i)), ce)
		ce.w.Store(wk.w)
		<-wk.done
	}
	e.startWorker("last", real)
	got := e.waitDone(time.Minute, id)
	checkOnce(t, got, map[string]string{id: "JE"}, 1)
	msg := got[id].Judgings[0].Message
	for _, w := range []string{"victim-a", "victim-b", "victim-c", "stopped without a result"} {
		if !strings.Contains(msg, w) {
			t.Errorf("JE message %q: no %q", msg, w)
		}
	}
}

// TestWorkerStopHandsBack: a worker asked to stop mid-grading hands its
// job back after its grace; another finishes it, and the hand-back does
// not count as a failed try.
func TestWorkerStopHandsBack(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOpts{})
	eng := newEngine(t, false)
	first := e.startWorker("leaving", eng)
	id := e.submit("eight-puzzle", "slow_wa.py", readFile(t, "slow_wa.py"))
	deadline := time.Now().Add(time.Minute)
	for e.get(id).State != StateRunning {
		if time.Now().After(deadline) {
			t.Fatal("never running")
		}
		time.Sleep(20 * time.Millisecond)
	}
	first.halt() // Grace is 1 s, the program sleeps 4 s
	var p Progress
	if _, err := store.GetJSON(t.Context(), e.store.Progress, id, &p); err != nil {
		t.Fatal(err)
	}
	if len(p.Attempts) != 1 || p.Attempts[0].Outcome != OutcomeHandedBack {
		t.Fatalf("attempts after the stop: got %+v, want one handed back", p.Attempts)
	}
	e.startWorker("staying", eng)
	got := e.waitDone(2*time.Minute, id)
	checkOnce(t, got, map[string]string{id: "WA"}, 1)
	if w := got[id].Judgings[0].Worker; w != "staying" {
		t.Errorf("graded by %s, want staying", w)
	}
}
