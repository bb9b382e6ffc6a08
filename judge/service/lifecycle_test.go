package service

import (
	"context"
	"errors"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/optjudge/optjudge/judge/service/store"
)

// errInjected is the failure the faulty wrappers return.
var errInjected = errors.New("injected failure")

// failingJS is a JetStream whose Publish fails while fail is set.
type failingJS struct {
	jetstream.JetStream
	fail atomic.Bool
}

func (f *failingJS) Publish(ctx context.Context, subj string, data []byte, opts ...jetstream.PublishOpt) (*jetstream.PubAck, error) {
	if f.fail.Load() {
		return nil, errInjected
	}
	return f.JetStream.Publish(ctx, subj, data, opts...)
}

// faultyKV is a bucket whose Delete fails while failDelete is set, whose
// next failGets Gets fail, and whose WatchAll never gives its first
// values while stuck is set.
type faultyKV struct {
	jetstream.KeyValue
	failDelete atomic.Bool
	failGets   atomic.Int32
	stuck      atomic.Bool
}

func (f *faultyKV) Delete(ctx context.Context, key string, opts ...jetstream.KVDeleteOpt) error {
	if f.failDelete.Load() {
		return errInjected
	}
	return f.KeyValue.Delete(ctx, key, opts...)
}

func (f *faultyKV) Get(ctx context.Context, key string) (jetstream.KeyValueEntry, error) {
	if f.failGets.Add(-1) >= 0 {
		return nil, errInjected
	}
	return f.KeyValue.Get(ctx, key)
}

func (f *faultyKV) WatchAll(ctx context.Context, opts ...jetstream.WatchOpt) (jetstream.KeyWatcher, error) {
	if f.stuck.Load() {
		return stuckWatcher{make(chan jetstream.KeyValueEntry)}, nil
	}
	return f.KeyValue.WatchAll(ctx, opts...)
}

type stuckWatcher struct{ ch chan jetstream.KeyValueEntry }

func (w stuckWatcher) Updates() <-chan jetstream.KeyValueEntry { return w.ch }
func (w stuckWatcher) Stop() error                             { return nil }

// testLog is a logger whose lines a test reads.
func testLog() (*log.Logger, *syncBuffer) {
	var b syncBuffer
	return log.New(&b, "", 0), &b
}

// TestPublishFailureLeavesNothing: a submission whose job cannot be
// published is refused (500), and when its record cannot be deleted
// either, the sweeper withdraws it: nothing grades a submission whose
// client was told it failed.
func TestPublishFailureLeavesNothing(t *testing.T) {
	setSweep(t, time.Hour) // the test's passes only
	e := newEnv(t, envOpts{ackWait: 300 * time.Millisecond})
	st := *e.store
	js := &failingJS{JetStream: e.store.JS}
	kv := &faultyKV{KeyValue: e.store.Submissions}
	st.JS, st.Submissions = js, kv
	api := NewServer(ServerConfig{Store: &st, Library: e.lib})
	t.Cleanup(func() { api.Close() })
	srv := httptest.NewServer(api.Handler())
	t.Cleanup(srv.Close)
	e.http = srv

	js.fail.Store(true)
	kv.failDelete.Store(true)
	code := e.do("POST", "/api/v1/submissions", jsonBody(SubmitRequest{Problem: "clocks", Filename: "a.py", Source: "print(1)\n"}), nil, nil)
	js.fail.Store(false)
	kv.failDelete.Store(false)
	if code != http.StatusInternalServerError {
		t.Fatalf("a submission whose job cannot be published: got %d, want 500", code)
	}
	var id string
	waitFor(t, 10*time.Second, "the record in the view", func() bool {
		subs := api.view.list(filter{})
		if len(subs) == 1 {
			id = subs[0].ID
		}
		return id != ""
	})
	// over 2 AckWaits old: stale, as the sweep tells
	waitFor(t, time.Minute, "the record stale", func() bool {
		return len(api.view.stale(time.Now().Add(-2*e.store.AckWait))) == 1
	})
	api.life.sweepOnce(t.Context())
	if _, err := e.store.Jobs.GetLastMsgForSubject(t.Context(), store.JobsSubject+id); !errors.Is(err, jetstream.ErrMsgNotFound) {
		t.Errorf("after the sweep: a job of the refused submission %s (%v): it would be graded", id, err)
	}
	if _, err := e.store.Submission(t.Context(), id); !errors.Is(err, jetstream.ErrKeyNotFound) {
		t.Errorf("after the sweep: the refused submission's record: got %v, want it gone", err)
	}
}

// TestRepublishedOnce: the copy of a job message whose deliveries ran out
// is one message, whether the worker of its last delivery makes it or
// the server on the advisory, or both.
func TestRepublishedOnce(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOpts{})
	id := e.submit("clocks", "a.py", "print(1)\n") // no worker: the job waits
	raw, err := e.store.Jobs.GetLastMsgForSubject(t.Context(), store.JobsSubject+id)
	if err != nil {
		t.Fatal(err)
	}
	sub, err := e.store.Submission(t.Context(), id)
	if err != nil {
		t.Fatal(err)
	}
	if err := e.api.life.exhausted(t.Context(), raw.Sequence); err != nil {
		t.Fatal(err)
	}
	lc := &lifecycle{st: e.store, log: log.New(io.Discard, "", 0), who: "worker w"}
	at := &attempt{lc: lc, job: jobOf(sub), a: Attempt{Worker: "w", Delivery: store.MaxDeliver}, msg: keepAlive(t.Context(), answered{}, time.Hour)}
	if err := at.republish(t.Context(), raw.Sequence); err != nil {
		t.Fatal(err)
	}
	info, err := e.store.Jobs.Info(t.Context(), jetstream.WithSubjectFilter(store.JobsSubject+id))
	if err != nil {
		t.Fatal(err)
	}
	if n := info.State.Subjects[store.JobsSubject+id]; n != 1 {
		t.Errorf("got %d job messages of the submission, want 1", n)
	}
}

// answered is a job message whose answers all succeed.
type answered struct{ jetstream.Msg }

func (answered) DoubleAck(context.Context) error { return nil }
func (answered) InProgress() error               { return nil }

// TestCloseWaits: Close returns once every goroutine the server started
// has ended: the view's watch, the sweeper and the advisories' watcher
// hold no subscription after it.
func TestCloseWaits(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOpts{})
	before := e.nc.NumSubscriptions()
	for range 5 {
		api := NewServer(ServerConfig{Store: e.store, Library: e.lib})
		api.Close()
		if n := e.nc.NumSubscriptions(); n != before {
			t.Fatalf("after Close: %d subscriptions, want %d as before", n, before)
		}
	}
}

// TestEventsWithoutReport: a done submission whose report cannot be read
// ends its event stream without a done event (an EventSource connects
// again), and the server says why; it does not send done without the
// report.
func TestEventsWithoutReport(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOpts{})
	logger, logged := testLog()
	api := NewServer(ServerConfig{Store: e.store, Library: e.lib, Log: logger})
	t.Cleanup(func() { api.Close() })
	e.http = httptest.NewServer(api.Handler())
	t.Cleanup(e.http.Close)
	e.startWorker("w", scriptEngine{})
	id := e.submit("clocks", "ok.py", "ok")
	e.waitDone(time.Minute, id)
	j, err := e.store.Judging(t.Context(), id, 1)
	if err != nil {
		t.Fatal(err)
	}
	if err := e.store.Reports.Delete(t.Context(), j.Report); err != nil {
		t.Fatal(err)
	}
	_, body := e.getRaw("/api/v1/submissions/" + id + "/events")
	if strings.Contains(body, "event: done") || !strings.Contains(body, "retry:") {
		t.Errorf("the events of a submission whose report is gone: want no done event, and a retry\n%s", body)
	}
	if !strings.Contains(logged.String(), j.Report) {
		t.Errorf("the server's log does not say why: %q", logged.String())
	}
}

// TestWorkerLookupFails: a worker that cannot read the submission's record
// does not grade on a guess: it says why and hands the job back, and the
// next delivery grades it.
func TestWorkerLookupFails(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOpts{})
	st := *e.store
	kv := &faultyKV{KeyValue: e.store.Submissions}
	st.Submissions = kv
	kv.failGets.Store(1)
	logger, logged := testLog()
	e.startWorkerWith(WorkerConfig{Name: "w", Store: &st, Library: e.lib, Engine: scriptEngine{}, Log: logger})
	id := e.submit("clocks", "ok.py", "ok")
	checkOnce(t, e.waitDone(time.Minute, id), map[string]string{id: "AC"}, 1)
	var p Progress
	if _, err := store.GetJSON(t.Context(), e.store.Progress, id, &p); err != nil {
		t.Fatal(err)
	}
	if len(p.Attempts) != 1 || p.Attempts[0].Delivery != 2 {
		t.Errorf("attempts: got %+v, want one, the second delivery's", p.Attempts)
	}
	if !strings.Contains(logged.String(), errInjected.Error()) {
		t.Errorf("the worker's log does not say why: %q", logged.String())
	}
}

// TestLiveWorkersError: a heartbeat that cannot be read is an error, not
// a worker left out (everyoneRefused would take the others for all).
func TestLiveWorkersError(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOpts{})
	if err := store.PutJSON(t.Context(), e.store.Workers, "w", WorkerInfo{Name: "w"}); err != nil {
		t.Fatal(err)
	}
	st := *e.store
	kv := &faultyKV{KeyValue: e.store.Workers}
	st.Workers = kv
	kv.failGets.Store(1)
	if ws, err := st.liveWorkers(t.Context()); err == nil {
		t.Errorf("got workers %+v and no error, want the error", ws)
	}
	if ws, err := st.liveWorkers(t.Context()); err != nil || len(ws) != 1 {
		t.Errorf("then: got %+v, %v, want the worker", ws, err)
	}
}

// TestViewNotReady: a server whose view of the submissions has not its
// first values says so (503, and in its log) rather than answering an
// empty list.
func TestViewNotReady(t *testing.T) {
	e := newEnv(t, envOpts{})
	e.submit("clocks", "a.py", "print(1)\n")
	old := viewReady
	viewReady = 300 * time.Millisecond
	t.Cleanup(func() { viewReady = old })
	st := *e.store
	kv := &faultyKV{KeyValue: e.store.Submissions}
	kv.stuck.Store(true)
	st.Submissions = kv
	logger, logged := testLog()
	api := NewServer(ServerConfig{Store: &st, Library: e.lib, Log: logger})
	t.Cleanup(func() { api.Close() })
	e.http = httptest.NewServer(api.Handler())
	t.Cleanup(e.http.Close)
	for _, path := range []string{"/api/v1/submissions", "/healthz", "/api/v1/queue"} {
		if code, body := e.getRaw(path); code != http.StatusServiceUnavailable {
			t.Errorf("%s: got %d %s, want 503", path, code, body)
		}
	}
	if !strings.Contains(logged.String(), "first values") {
		t.Errorf("the server's log does not say it: %q", logged.String())
	}
}
