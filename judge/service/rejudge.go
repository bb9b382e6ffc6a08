package service

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/optjudge/optjudge/judge/service/store"
	"github.com/optjudge/optjudge/verdict"
)

// RejudgeResult is the answer of GET .../rejudges/ID: how far the rejudge
// is and which verdicts changed.
type RejudgeResult struct {
	ID        string          `json:"id"`
	Problem   string          `json:"problem"`
	CreatedAt time.Time       `json:"created_at"`
	Queued    int             `json:"queued"`
	Done      int             `json:"done"`
	Pending   int             `json:"pending"`
	Changed   []VerdictChange `json:"changed"`
	Unchanged int             `json:"unchanged"`
}

// VerdictChange is one submission whose verdict a rejudge changed.
type VerdictChange struct {
	Submission string          `json:"submission"`
	User       string          `json:"user"`
	Before     verdict.Verdict `json:"before"`
	After      verdict.Verdict `json:"after"`
}

func (s *Server) handleRejudge(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("name")
	rj, err := s.rejudge(r.Context(), name, userFrom(r.Context()).Name)
	if err != nil {
		writeError(w, err)
		return
	}
	w.Header().Set("Location", fmt.Sprintf("/api/v1/problems/%s/rejudges/%s", name, rj.ID))
	writeJSON(w, http.StatusAccepted, map[string]any{"id": rj.ID, "problem": name, "queued": len(rj.Items)})
}

// rejudge queues one more grading of every finished submission of the
// problem called name, and stores the rejudge.
func (s *Server) rejudge(ctx context.Context, name, by string) (*Rejudge, error) {
	var p *Problem
	var err error
	if problemRE.MatchString(name) {
		p, err = s.cfg.Library.Current(ctx, name)
	}
	if err == nil && p == nil {
		err = errorf(http.StatusNotFound, "unknown problem %q", name)
	}
	if err != nil {
		return nil, err
	}
	if err := s.view.check(); err != nil {
		return nil, err // it would rejudge none of the submissions it has not read
	}
	rj := &Rejudge{ID: newID("", ""), Problem: name, ProblemHash: p.Hash, By: by, CreatedAt: time.Now().UTC(), Items: []RejudgeItem{}}
	var qerr error
	for _, sub := range s.view.list(filter{Problem: name, State: StateDone}) {
		item, err := s.life.requeue(ctx, sub.ID, p)
		if errors.Is(err, store.ErrNoChange) {
			continue
		}
		if err != nil {
			qerr = err
			break
		}
		rj.Items = append(rj.Items, *item)
	}
	if err := store.PutJSON(context.WithoutCancel(ctx), s.cfg.Store.Rejudges, rj.ID, rj); err != nil {
		return nil, err
	}
	if qerr != nil {
		return nil, fmt.Errorf("rejudge %s: queued %d, then: %w", rj.ID, len(rj.Items), qerr)
	}
	return rj, nil
}

func (s *Server) handleRejudgeResult(w http.ResponseWriter, r *http.Request) {
	res, err := s.rejudgeResult(r.Context(), r.PathValue("name"), r.PathValue("id"))
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, res)
}

// rejudgeResult tells how far the rejudge id of the problem name is.
func (s *Server) rejudgeResult(ctx context.Context, name, id string) (*RejudgeResult, error) {
	var rj Rejudge
	var err error
	if idRE.MatchString(id) {
		_, err = store.GetJSON(ctx, s.cfg.Store.Rejudges, id, &rj)
	} else {
		err = jetstream.ErrKeyNotFound
	}
	if errors.Is(err, jetstream.ErrKeyNotFound) || errors.Is(err, jetstream.ErrInvalidKey) || (err == nil && rj.Problem != name) {
		err = errorf(http.StatusNotFound, "no rejudge %q of problem %q", id, name)
	}
	if err != nil {
		return nil, err
	}
	res := &RejudgeResult{ID: rj.ID, Problem: rj.Problem, CreatedAt: rj.CreatedAt, Queued: len(rj.Items), Changed: []VerdictChange{}}
	for _, it := range rj.Items {
		j, err := s.cfg.Store.Judging(ctx, it.Submission, it.Request)
		if errors.Is(err, jetstream.ErrKeyNotFound) {
			res.Pending++
			continue
		}
		if err != nil {
			return nil, err
		}
		res.Done++
		if j.Verdict == it.Before {
			res.Unchanged++
			continue
		}
		c := VerdictChange{Submission: it.Submission, Before: it.Before, After: j.Verdict}
		if sub, err := s.cfg.Store.Submission(ctx, it.Submission); err == nil {
			c.User = sub.User
		}
		res.Changed = append(res.Changed, c)
	}
	return res, nil
}
