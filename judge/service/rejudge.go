package service

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
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
	Submission string `json:"submission"`
	User       string `json:"user"`
	Before     string `json:"before"`
	After      string `json:"after"`
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
	rj := &Rejudge{ID: newID("", ""), Problem: name, ProblemHash: p.Hash, By: by, CreatedAt: time.Now().UTC(), Items: []RejudgeItem{}}
	var qerr error
	for _, sub := range s.view.list(filter{Problem: name, State: StateDone}) {
		item, err := s.requeue(ctx, sub.ID, p)
		if errors.Is(err, errNoChange) {
			continue
		}
		if err != nil {
			qerr = err
			break
		}
		rj.Items = append(rj.Items, *item)
	}
	if err := putJSON(context.WithoutCancel(ctx), s.cfg.Store.rejudges, rj.ID, rj); err != nil {
		return nil, err
	}
	if qerr != nil {
		return nil, fmt.Errorf("rejudge %s: queued %d, then: %w", rj.ID, len(rj.Items), qerr)
	}
	return rj, nil
}

// requeue asks for one more grading of a finished submission, on p.
func (s *Server) requeue(ctx context.Context, id string, p *Problem) (*RejudgeItem, error) {
	var item RejudgeItem
	sub, err := update(ctx, s.cfg.Store.submissions, id, func(sub *Submission) error {
		if sub.State != StateDone {
			return errNoChange
		}
		item = RejudgeItem{Submission: id, Request: sub.Request + 1, Before: sub.Verdict}
		sub.Request++
		sub.State, sub.QueuedAt, sub.ProblemHash = StateQueued, time.Now().UTC(), p.Hash
		return nil
	})
	if err != nil {
		return nil, err
	}
	if sub.Request != item.Request {
		return nil, errNoChange
	}
	if err := s.queue(ctx, sub); err != nil {
		// back to done: the judging of the previous request stands
		update(context.WithoutCancel(ctx), s.cfg.Store.submissions, id, func(sub *Submission) error {
			if sub.Request != item.Request {
				return errNoChange
			}
			sub.Request--
			sub.State = StateDone
			return nil
		})
		return nil, err
	}
	return &item, nil
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
		_, err = getJSON(ctx, s.cfg.Store.rejudges, id, &rj)
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

// sweep looks, every SweepEvery, for submissions that are not done, were
// queued long ago (2 x AckWait) and have neither a judging nor a job in the
// stream (the server stopped between storing one and queueing it), and
// queues them again.
func (s *Server) sweep(ctx context.Context) {
	t := time.NewTicker(SweepEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		for _, sub := range s.view.counts().Unfinished {
			if time.Since(sub.QueuedAt) < 2*s.cfg.Store.ackWait {
				continue
			}
			if err := s.rescue(ctx, &sub); err != nil && ctx.Err() == nil {
				s.log.Printf("sweeper: %s: %v", sub.ID, err)
			}
		}
	}
}

// SweepEvery is how often the server looks for stranded submissions.
var SweepEvery = 15 * time.Second

func (s *Server) rescue(ctx context.Context, sub *Submission) error {
	st := s.cfg.Store
	if j, err := st.Judging(ctx, sub.ID, sub.Request); err == nil {
		return st.finish(ctx, j)
	} else if !errors.Is(err, jetstream.ErrKeyNotFound) {
		return err
	}
	pending, err := st.jobPending(ctx, sub.ID)
	if err != nil || pending {
		return err
	}
	s.log.Printf("sweeper: %s request %d had no job: queued again", sub.ID, sub.Request)
	_, err = st.publishJob(ctx, jobOf(sub), fmt.Sprintf("%s-swept-%d", jobMsgID(sub.ID, sub.Request), time.Now().UnixNano()))
	return err
}

// watchMaxDeliveries ends as JE the job whose last delivery a worker did
// not survive (JetStream will not deliver it again): the advisory names
// its message.
func (s *Server) watchMaxDeliveries(ctx context.Context) {
	subj := "$JS.EVENT.ADVISORY.CONSUMER.MAX_DELIVERIES." + jobsStream + "." + gradersConsumer
	ch := make(chan *nats.Msg, 64)
	sub, err := s.cfg.Store.nc.ChanSubscribe(subj, ch)
	if err != nil {
		s.log.Printf("max deliveries: %v", err)
		return
	}
	defer sub.Unsubscribe()
	for {
		select {
		case <-ctx.Done():
			return
		case m := <-ch:
			var adv struct {
				StreamSeq uint64 `json:"stream_seq"`
			}
			if json.Unmarshal(m.Data, &adv) == nil {
				if err := s.exhausted(ctx, adv.StreamSeq); err != nil {
					s.log.Printf("max deliveries: message %d: %v", adv.StreamSeq, err)
				}
			}
		}
	}
}

func (s *Server) exhausted(ctx context.Context, seq uint64) error {
	st := s.cfg.Store
	raw, err := st.jobs.GetMsg(ctx, seq)
	if errors.Is(err, jetstream.ErrMsgNotFound) {
		return nil // acked after all
	}
	if err != nil {
		return err
	}
	var job Job
	if err := json.Unmarshal(raw.Data, &job); err != nil {
		return st.jobs.DeleteMsg(ctx, seq)
	}
	if _, err := st.Judging(ctx, job.Submission, job.Request); errors.Is(err, jetstream.ErrKeyNotFound) {
		// a fresh copy: the next worker counts the tries and ends it as JE
		if _, err := st.publishJob(ctx, job, fmt.Sprintf("%s-%d", jobMsgID(job.Submission, job.Request), seq)); err != nil {
			return err
		}
	}
	return st.jobs.DeleteMsg(ctx, seq)
}
