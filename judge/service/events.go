package service

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/optjudge/optjudge/judge/service/store"
)

// Events of GET /api/v1/submissions/ID/events, as server-sent events:
//
//	event: state    data: {"state", "request", "worker"}  on every change of state
//	event: test     data: a TestBrief (cut by Feedback)   as each test finishes
//	event: done     data: the submission, as GET shows it, with its report
//
// The stream starts with the current state (and the tests finished so
// far) and ends after done. A client that reconnects gets it all again.
type stateEvent struct {
	State   string `json:"state"`
	Request int    `json:"request"`
	Worker  string `json:"worker,omitempty"`
}

func (s *Server) handleEvents(w http.ResponseWriter, r *http.Request) {
	u := userFrom(r.Context())
	sub, err := s.lookup(r.Context(), u, r.PathValue("id"))
	if err != nil {
		writeError(w, err)
		return
	}
	release, err := s.openStream(u)
	if err != nil {
		writeError(w, err)
		return
	}
	defer release()
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	stop := context.AfterFunc(s.ctx, cancel) // the server shuts down
	defer stop()
	subs, err := s.cfg.Store.Submissions.Watch(ctx, sub.ID)
	if err != nil {
		writeError(w, err)
		return
	}
	defer subs.Stop()
	progress, err := s.cfg.Store.Progress.Watch(ctx, sub.ID)
	if err != nil {
		writeError(w, err)
		return
	}
	defer progress.Stop()
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.Header().Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	es := &eventStream{s: s, w: w, rc: http.NewResponseController(w), user: u, see: s.sightOf(u)}
	es.run(ctx, s, subs.Updates(), progress.Updates())
}

type eventStream struct {
	s       *Server
	w       http.ResponseWriter
	rc      *http.ResponseController
	user    *User
	see     sight // what user sees of a test
	last    stateEvent
	request int // the request whose tests are being sent
	sent    int // tests of it sent
}

func (es *eventStream) run(ctx context.Context, s *Server, subs, progress <-chan jetstream.KeyValueEntry) {
	keepAlive := time.NewTicker(15 * time.Second)
	defer keepAlive.Stop()
	var cur *Submission
	for {
		select {
		case <-ctx.Done():
			return
		case <-keepAlive.C:
			if es.send("", ": keep-alive\n\n") != nil {
				return
			}
		case e, ok := <-subs:
			if !ok {
				return
			}
			if e == nil || e.Operation() != jetstream.KeyValuePut {
				continue
			}
			var sub Submission
			if err := json.Unmarshal(e.Value(), &sub); err != nil {
				s.log.Printf("events of %s: its record: %v", e.Key(), err)
				continue
			}
			cur = &sub
			if es.state(&sub) != nil {
				return
			}
			if sub.State == StateDone {
				es.done(ctx, s, &sub)
				return
			}
		case e, ok := <-progress:
			if !ok {
				return
			}
			if e == nil || e.Operation() != jetstream.KeyValuePut || cur == nil {
				continue
			}
			var p Progress
			if json.Unmarshal(e.Value(), &p) != nil || p.Request != cur.Request {
				continue
			}
			if es.tests(&p) != nil {
				return
			}
		}
	}
}

func (es *eventStream) state(sub *Submission) error {
	ev := stateEvent{State: sub.State, Request: sub.Request, Worker: sub.Worker}
	if !es.see.admin {
		ev.Worker = "" // a machine's name is the jury's
	}
	if ev == es.last {
		return nil
	}
	if ev.Request != es.request || (ev.State == StateRunning && ev.Worker != es.last.Worker) {
		es.request, es.sent = ev.Request, 0 // a new request, or a new try: its tests from the start
	}
	es.last = ev
	return es.event("state", ev)
}

func (es *eventStream) tests(p *Progress) error {
	if p.Request != es.request {
		return nil
	}
	if len(p.Tests) < es.sent {
		es.sent = 0 // a new attempt started over
	}
	for ; es.sent < len(p.Tests); es.sent++ {
		if err := es.event("test", es.see.brief(p.Tests[es.sent])); err != nil {
			return err
		}
	}
	return nil
}

// done sends the tests the last progress write had not told yet and the
// done event. A submission whose view cannot be made now ends the stream
// without it (the server says why): an EventSource connects again and
// gets it all again, where a done event without the report would be the
// last word.
func (es *eventStream) done(ctx context.Context, s *Server, sub *Submission) {
	var p Progress
	_, err := store.GetJSON(ctx, s.cfg.Store.Progress, sub.ID, &p)
	switch {
	case err == nil && p.Request == sub.Request:
		if es.tests(&p) != nil {
			return
		}
	case err != nil && !errors.Is(err, jetstream.ErrKeyNotFound) && ctx.Err() == nil:
		s.log.Printf("events of %s: its progress: %v (its last tests come with done)", sub.ID, err)
	}
	v, err := s.fullView(ctx, es.user, sub)
	if err != nil {
		if ctx.Err() == nil {
			s.log.Printf("events of %s: %v (the stream ends without done: the client connects again)", sub.ID, err)
		}
		es.send("", "retry: 2000\n: the submission cannot be read now\n\n")
		return
	}
	es.event("done", v) // a client gone is no one's to know
}

func (es *eventStream) event(name string, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return es.send(name, fmt.Sprintf("event: %s\ndata: %s\n\n", name, b))
}

func (es *eventStream) send(_ string, text string) error {
	es.rc.SetWriteDeadline(time.Now().Add(30 * time.Second))
	if _, err := fmt.Fprint(es.w, text); err != nil {
		return err
	}
	return es.rc.Flush()
}

// openStream counts an event stream of u; an error (429) when u has
// MaxStreams open already.
func (s *Server) openStream(u *User) (release func(), err error) {
	s.streamsMu.Lock()
	defer s.streamsMu.Unlock()
	if s.streams[u.Name] >= s.cfg.MaxStreams {
		return nil, errorf(http.StatusTooManyRequests, "%s has %d event streams open, the most one user may: close some (a page each)", u.Name, s.cfg.MaxStreams)
	}
	s.streams[u.Name]++
	return func() {
		s.streamsMu.Lock()
		defer s.streamsMu.Unlock()
		if s.streams[u.Name]--; s.streams[u.Name] <= 0 {
			delete(s.streams, u.Name)
		}
	}, nil
}
