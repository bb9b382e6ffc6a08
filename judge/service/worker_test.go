package service

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/optjudge/optjudge/judge"
	"github.com/optjudge/optjudge/judge/service/store"
	"github.com/optjudge/optjudge/problems"
	"github.com/optjudge/optjudge/verdict"
)

// gateEngine blocks every grading until gate is closed (or its context
// ends), then grades as Engine does.
type gateEngine struct {
	Engine
	started chan struct{} // told, without waiting, that a grading started
	gate    chan struct{}
}

func newGate(eng Engine) *gateEngine {
	return &gateEngine{Engine: eng, started: make(chan struct{}, 1), gate: make(chan struct{})}
}

func (g *gateEngine) Grade(ctx context.Context, p *problems.Problem, src Source, progress func(judge.TestResult)) (*Graded, error) {
	select {
	case g.started <- struct{}{}:
	default:
	}
	select {
	case <-g.gate:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	return g.Engine.Grade(ctx, p, src, progress)
}

// blockEngine never finishes a grading: a stop hands the job back.
type blockEngine struct {
	Engine
	started chan struct{}
}

func (b *blockEngine) Grade(ctx context.Context, _ *problems.Problem, _ Source, _ func(judge.TestResult)) (*Graded, error) {
	select {
	case b.started <- struct{}{}:
	default:
	}
	<-ctx.Done()
	return nil, ctx.Err()
}

// within waits for ch, up to d.
func within(t *testing.T, d time.Duration, ch <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(d):
		t.Fatalf("no %s after %v", what, d)
	}
}

// waitFor polls cond every 20 ms, up to d.
func waitFor(t *testing.T, d time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("no %s after %v", what, d)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func (e *env) progress(id string) Progress {
	e.t.Helper()
	var p Progress
	if _, err := store.GetJSON(context.Background(), e.store.Progress, id, &p); err != nil {
		e.t.Fatal(err)
	}
	return p
}

// setSweep makes the server's sweeper look every d in this test.
func setSweep(t *testing.T, d time.Duration) {
	old := SweepEvery
	SweepEvery = d
	t.Cleanup(func() { SweepEvery = old })
}

// TestHandBacksWithFullQueue: a job handed back until its last delivery
// gets a fresh message even when the queue is full (the old one goes
// first), without the sweeper's help.
func TestHandBacksWithFullQueue(t *testing.T) {
	setSweep(t, time.Hour)
	e := newEnv(t, envOpts{ackWait: time.Second, queueLimit: 1})
	id := e.submit("clocks", "wa.py", "text:1")
	for i := range store.MaxDeliver - 1 {
		be := &blockEngine{Engine: scriptEngine{}, started: make(chan struct{}, 1)}
		wk := e.startWorker(fmt.Sprintf("leaving-%d", i), be)
		within(t, time.Minute, be.started, "grading")
		wk.halt() // SIGTERM: hands the job back after its grace
	}
	e.startWorker("good", scriptEngine{})
	checkOnce(t, e.waitDone(time.Minute, id), map[string]string{id: "WA"}, 1)
}

// TestLastDeliveryLostWhileServerDown: a job whose deliveries all went
// unanswered while judge serve was down (its advisory went to nobody) is
// queued again by the sweeper of the server that comes back.
func TestLastDeliveryLostWhileServerDown(t *testing.T) {
	setSweep(t, 200*time.Millisecond)
	e := newEnv(t, envOpts{ackWait: time.Second})
	id := e.submit("clocks", "wa.py", "text:1")
	e.api.Close()
	cons, err := e.store.Jobs.Consumer(t.Context(), store.GradersConsumer)
	if err != nil {
		t.Fatal(err)
	}
	// MaxDeliver workers that each took the job and let it go
	for i := range store.MaxDeliver {
		b, err := cons.Fetch(1, jetstream.FetchMaxWait(10*time.Second))
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for m := range b.Messages() {
			m.Nak()
			n++
		}
		if n != 1 {
			t.Fatalf("delivery %d: got %d messages, want 1", i+1, n)
		}
	}
	// a worker polling now makes JetStream give up on the message
	b, _ := cons.Fetch(1, jetstream.FetchMaxWait(time.Second))
	for range b.Messages() {
		t.Fatal("delivered once more than store.MaxDeliver")
	}
	api := NewServer(ServerConfig{Store: e.store, Library: e.lib})
	t.Cleanup(func() { api.Close() })
	e.startWorker("w", scriptEngine{})
	waitFor(t, time.Minute, "judging", func() bool {
		sub, err := e.store.Submission(t.Context(), id)
		return err == nil && sub.State == StateDone && len(sub.Judgings) == 1 && sub.Verdict == verdict.WA
	})
}

// TestSlowPackageFetch: a worker that takes longer than AckWait to fetch
// the problem's package keeps the job: no other worker takes it, no try
// counts as dead.
func TestSlowPackageFetch(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOpts{ackWait: time.Second})
	root := copyClocks(t, t.TempDir(), "Big Clocks")
	if code := e.do("POST", "/api/v1/problems", bytes.NewReader(tarGz(t, root)), map[string]string{"Content-Type": "application/gzip"}, nil); code != http.StatusCreated {
		t.Fatalf("upload: got %d", code)
	}
	lib, err := NewLibrary(e.store, "", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	fetching := make(chan struct{})
	var once sync.Once
	lib.fetchHook = func(string) {
		once.Do(func() { close(fetching) })
		time.Sleep(3 * time.Second) // three AckWaits
	}
	e.startWorkerWith(WorkerConfig{Name: "slow", Store: e.store, Library: lib, Engine: scriptEngine{}})
	id := e.submit("clocks", "ok.py", "ok")
	within(t, time.Minute, fetching, "package fetch")
	e.startWorker("fast", scriptEngine{})
	got := e.waitDone(time.Minute, id)
	checkOnce(t, got, map[string]string{id: "AC"}, 1)
	if w, p := got[id].Judgings[0].Worker, e.progress(id); w != "slow" || len(p.Attempts) != 1 {
		t.Errorf("graded by %s after attempts %+v, want by slow in one attempt", w, p.Attempts)
	}
}

// TestStaleWorkerDoesNotJEOthers: a worker with another version of the
// problem refuses a job again and again while the one worker that has it
// is busy; its refusals are not tries, and the job waits for that worker.
func TestStaleWorkerDoesNotJEOthers(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOpts{ackWait: time.Second})
	dir := t.TempDir()
	copyClocks(t, dir, "Other Clocks")
	lib, err := NewLibrary(e.store, dir, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	api := NewServer(ServerConfig{Store: e.store, Library: lib})
	t.Cleanup(func() { api.Close() })
	e.http = httptest.NewServer(api.Handler())
	t.Cleanup(e.http.Close)
	glib, err := NewLibrary(e.store, dir, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	gate := newGate(scriptEngine{})
	e.startWorkerWith(WorkerConfig{Name: "good", Store: e.store, Library: glib, Engine: gate})
	first := e.submit("clocks", "a.py", "ok")
	within(t, time.Minute, gate.started, "grading")
	e.startWorker("stale", scriptEngine{}) // the embedded clocks
	second := e.submit("clocks", "b.py", "ok")
	waitFor(t, time.Minute, "refusals", func() bool {
		var p Progress
		store.GetJSON(t.Context(), e.store.Progress, second, &p)
		sub, err := e.store.Submission(t.Context(), second)
		return len(p.refusals()) > store.MaxTries || (err == nil && sub.State == StateDone)
	})
	close(gate.gate)
	checkOnce(t, e.waitDone(time.Minute, first, second), map[string]string{first: "AC", second: "AC"}, 1)
}

// TestSlowWorkerResultDiscarded: a worker whose job went to another (its
// InProgress never came in time) and that finishes after it stores
// nothing, counts nothing and says so.
func TestSlowWorkerResultDiscarded(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOpts{ackWait: time.Second})
	// a store that believes AckWait is an hour sends InProgress too late
	late, err := OpenStore(t.Context(), e.nc, store.Config{Bind: true, AckWait: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	lib, err := NewLibrary(late, "", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	gate := newGate(scriptEngine{})
	slow := e.startWorkerWith(WorkerConfig{Name: "slow", Store: late, Library: lib, Engine: gate})
	id := e.submit("clocks", "wa.py", "text:1")
	within(t, time.Minute, gate.started, "grading")
	e.startWorker("fast", scriptEngine{})
	got := e.waitDone(time.Minute, id)
	close(gate.gate)
	waitFor(t, time.Minute, "the slow try's end", func() bool {
		for _, a := range e.progress(id).Attempts {
			if a.Worker == "slow" && a.Outcome == OutcomeDiscarded {
				return true
			}
		}
		return false
	})
	checkOnce(t, map[string]fullView{id: e.get(id)}, map[string]string{id: "WA"}, 1)
	if w := got[id].Judgings[0].Worker; w != "fast" {
		t.Errorf("judged by %s, want fast", w)
	}
	slow.w.mu.Lock()
	graded := slow.w.info.Graded
	slow.w.mu.Unlock()
	if graded != 0 {
		t.Errorf("the slow worker counts %d graded, want 0", graded)
	}
}

// TestWorkerStopping: a worker asked to stop says so in its heartbeat
// while it finishes its grading.
func TestWorkerStopping(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOpts{})
	be := &blockEngine{Engine: scriptEngine{}, started: make(chan struct{}, 1)}
	lib, err := NewLibrary(e.store, "", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	wk := e.startWorkerWith(WorkerConfig{Name: "leaving", Store: e.store, Library: lib, Engine: be, Grace: 10 * time.Second})
	e.submit("clocks", "wa.py", "text:1")
	within(t, time.Minute, be.started, "grading")
	wk.stop()
	waitFor(t, 5*time.Second, "stopping heartbeat", func() bool {
		var q QueueView
		e.do("GET", "/api/v1/queue", nil, nil, &q)
		return len(q.Workers) == 1 && q.Workers[0].State == "stopping" && q.Workers[0].Submission != ""
	})
	wk.w.Crash() // no need to wait out the grace
	<-wk.done
}
