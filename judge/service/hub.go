package service

import (
	"context"
	"net/http"
	"sync"
	"time"
)

// hub fans the view's changes out to the streams of GET /api/v1/events.
type hub struct {
	mu   sync.Mutex
	subs map[chan Submission]struct{}
}

func newHub() *hub { return &hub{subs: map[chan Submission]struct{}{}} }

// publish hands sub to every stream; a stream too slow to take it is
// closed (its client connects again and reads the list afresh).
func (h *hub) publish(sub *Submission) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for ch := range h.subs {
		select {
		case ch <- *sub:
		default:
			delete(h.subs, ch)
			close(ch)
		}
	}
}

func (h *hub) subscribe() chan Submission {
	ch := make(chan Submission, 256)
	h.mu.Lock()
	h.subs[ch] = struct{}{}
	h.mu.Unlock()
	return ch
}

func (h *hub) unsubscribe(ch chan Submission) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if _, ok := h.subs[ch]; ok {
		delete(h.subs, ch)
		close(ch)
	}
}

// handleAllEvents is GET /api/v1/events: server-sent events of every
// change to the submissions the user may see (an admin's all, a
// contestant's own), from now on:
//
//	event: submission  data: the submission, as the list shows it (no report)
//
// The stream starts with ": ready" (a comment): a client reads the list
// after that to miss nothing.
func (s *Server) handleAllEvents(w http.ResponseWriter, r *http.Request) {
	u := userFrom(r.Context())
	release, err := s.openStream(u)
	if err != nil {
		writeError(w, err)
		return
	}
	defer release()
	ch := s.hub.subscribe()
	defer s.hub.unsubscribe(ch)
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	stop := context.AfterFunc(s.ctx, cancel)
	defer stop()
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.Header().Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	es := &eventStream{s: s, w: w, rc: http.NewResponseController(w), user: u, see: s.sightOf(u)}
	if es.send("", ": ready\n\n") != nil {
		return
	}
	keepAlive := time.NewTicker(15 * time.Second)
	defer keepAlive.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-keepAlive.C:
			if es.send("", ": keep-alive\n\n") != nil {
				return
			}
		case sub, ok := <-ch:
			if !ok {
				return
			}
			if (!u.Admin() && sub.User != u.Name) || sub.Rejudging != "" {
				continue // a rejudging's run is on its rejudging's page
			}
			if es.event("submission", es.see.submission(&sub)) != nil {
				return
			}
		}
	}
}
