package service

import (
	"context"
	"net/http"
	"sync"
	"time"

	"github.com/optjudge/optjudge/judge/lang"
)

// The languages offered are those some live worker can build and run:
// each worker tells its own in its heartbeat (WorkerInfo.Languages). A
// worker that does not tell, or no live worker at all (the submissions
// wait for one), offers the whole table.

// langCache keeps the workers' languages for a few seconds: the pages and
// the API ask often.
type langCache struct {
	mu    sync.Mutex
	at    time.Time
	names map[string]bool // nil: all
}

// offered is the set of language names some live worker runs; nil for all.
func (s *Server) offered(ctx context.Context) map[string]bool {
	c := &s.langs
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.at.IsZero() && time.Since(c.at) < 3*time.Second {
		return c.names
	}
	live, err := s.cfg.Store.liveWorkers(ctx)
	if err != nil {
		return c.names
	}
	var names map[string]bool
	for _, w := range live {
		if w.Languages == nil {
			names = nil
			break
		}
		if names == nil {
			names = map[string]bool{}
		}
		for _, l := range w.Languages {
			names[l] = true
		}
	}
	c.at, c.names = time.Now(), names
	return names
}

// offeredLanguages are the languages of the server's table that some live
// worker runs.
func (s *Server) offeredLanguages() []lang.Language {
	ctx, cancel := context.WithTimeout(s.ctx, 5*time.Second)
	defer cancel()
	names := s.offered(ctx)
	if names == nil {
		return s.cfg.Languages.List
	}
	var out []lang.Language
	for _, l := range s.cfg.Languages.List {
		if names[l.Name] {
			out = append(out, l)
		}
	}
	return out
}

// languageRuns refuses a language no live worker runs (400): it would
// end as JE.
func (s *Server) languageRuns(ctx context.Context, lang string) error {
	names := s.offered(ctx)
	if names == nil || names[lang] {
		return nil
	}
	return errorf(http.StatusBadRequest, "language %s: no grading machine runs it now (its compiler is not installed)", lang)
}
