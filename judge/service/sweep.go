package service

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// SweepEvery is how often the server looks for stranded submissions.
var SweepEvery = 15 * time.Second

// sweep repairs, every SweepEvery, the submissions nothing would grade:
// see sweepOnce.
func (s *Server) sweep(ctx context.Context) {
	t := time.NewTicker(SweepEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		s.sweepOnce(ctx)
	}
}

// sweepOnce looks at the unfinished submissions whose record has not
// changed for 2 x AckWait (a grading changes it at least once an AckWait:
// each try marks it running) and repairs those that are stuck: the ones
// with no job in the stream (the server stopped between storing one and
// queueing it, or a republish failed), and the ones whose job was
// delivered but no live worker has it, the deliveries run out (JetStream
// will not deliver it again, and the advisory that says so went to
// nobody, or its republish failed on a full queue). The others cost one
// request each; fresh ones none.
func (s *Server) sweepOnce(ctx context.Context) {
	stale := s.view.stale(time.Now().Add(-2 * s.cfg.Store.ackWait))
	if len(stale) == 0 {
		return
	}
	js, err := s.cfg.Store.jobState(ctx)
	if err != nil {
		if ctx.Err() == nil {
			s.log.Printf("sweeper: %v", err)
		}
		return
	}
	for _, sub := range stale {
		if err := s.rescue(ctx, &sub, js); err != nil && ctx.Err() == nil {
			s.log.Printf("sweeper: %s: %v", sub.ID, err)
		}
	}
}

// jobState is what the sweeper knows of the queue at one moment.
type jobState struct {
	delivered uint64          // the last stream sequence delivered for the first time
	grading   map[string]bool // submissions a live worker is on
}

func (st *Store) jobState(ctx context.Context) (*jobState, error) {
	cons, err := st.jobs.Consumer(ctx, gradersConsumer)
	if err != nil {
		return nil, fmt.Errorf("consumer %s: %w", gradersConsumer, err)
	}
	ci, err := cons.Info(ctx)
	if err != nil {
		return nil, fmt.Errorf("consumer %s: %w", gradersConsumer, err)
	}
	live, err := st.liveWorkers(ctx)
	if err != nil {
		return nil, err
	}
	js := &jobState{delivered: ci.Delivered.Stream, grading: map[string]bool{}}
	for _, w := range live {
		if w.Submission != "" {
			js.grading[w.Submission] = true
		}
	}
	return js, nil
}

// rescue repairs one stale submission, if it is stuck.
func (s *Server) rescue(ctx context.Context, sub *Submission, js *jobState) error {
	st := s.cfg.Store
	raw, err := st.jobs.GetLastMsgForSubject(ctx, jobsSubject+sub.ID)
	switch {
	case errors.Is(err, jetstream.ErrMsgNotFound):
		if j, err := st.Judging(ctx, sub.ID, sub.Request); err == nil {
			return st.finish(ctx, j)
		} else if !errors.Is(err, jetstream.ErrKeyNotFound) {
			return err
		}
		s.log.Printf("sweeper: %s request %d had no job: queued again", sub.ID, sub.Request)
		_, err = st.publishJob(ctx, jobOf(sub), fmt.Sprintf("%s-swept-%d", jobMsgID(sub.ID, sub.Request), time.Now().UnixNano()))
		return err
	case err != nil:
		return err
	case raw.Sequence > js.delivered, js.grading[sub.ID]:
		return nil // waiting its turn, or being graded
	}
	s.log.Printf("sweeper: %s request %d: its job (message %d) was delivered and no worker has it: queued again", sub.ID, sub.Request, raw.Sequence)
	return s.exhausted(ctx, raw.Sequence)
}

// watchMaxDeliveries subscribes to the advisories of the jobs whose last
// delivery a worker did not answer (JetStream will not deliver them
// again) and hands each to exhausted. It is the quick way; the sweeper
// finds the ones whose advisory went to nobody.
func (s *Server) watchMaxDeliveries() (func(ctx context.Context), error) {
	subj := "$JS.EVENT.ADVISORY.CONSUMER.MAX_DELIVERIES." + jobsStream + "." + gradersConsumer
	ch := make(chan *nats.Msg, 64)
	sub, err := s.cfg.Store.nc.ChanSubscribe(subj, ch)
	if err != nil {
		return nil, err
	}
	return func(ctx context.Context) {
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
	}, nil
}

// exhausted replaces the job message seq, whose deliveries ran out, with a
// fresh copy (the next worker counts the tries in the progress record and
// ends the job as JE if they all died). The old message goes first, so
// that a full queue has room for the copy; a copy that cannot be
// published now is the sweeper's (the submission is left without a job).
func (s *Server) exhausted(ctx context.Context, seq uint64) error {
	st := s.cfg.Store
	raw, err := st.jobs.GetMsg(ctx, seq)
	if errors.Is(err, jetstream.ErrMsgNotFound) {
		return nil // acked after all
	}
	if err != nil {
		return err
	}
	if err := st.jobs.DeleteMsg(ctx, seq); err != nil && !errors.Is(err, jetstream.ErrMsgNotFound) {
		return err
	}
	var job Job
	if err := json.Unmarshal(raw.Data, &job); err != nil {
		return nil
	}
	if j, err := st.Judging(ctx, job.Submission, job.Request); err == nil {
		return st.finish(ctx, j)
	} else if !errors.Is(err, jetstream.ErrKeyNotFound) {
		return err
	}
	_, err = st.publishJob(ctx, job, fmt.Sprintf("%s-%d", jobMsgID(job.Submission, job.Request), seq))
	return err
}
