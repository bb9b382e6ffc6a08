package service

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/optjudge/optjudge/judge"
)

// startAttempt records a delivery in the submission's progress, starting
// the record afresh for a new request.
func (s *Store) startAttempt(ctx context.Context, job Job, a Attempt) (*Progress, error) {
	fresh := Progress{Submission: job.Submission, Request: job.Request, Attempts: []Attempt{a}, Tests: []TestBrief{}}
	for {
		err := createJSON(ctx, s.progress, job.Submission, fresh)
		if err == nil {
			return &fresh, nil
		}
		if !errors.Is(err, jetstream.ErrKeyExists) {
			return nil, err
		}
		p, err := update(ctx, s.progress, job.Submission, func(p *Progress) error {
			if p.Request != job.Request {
				*p = fresh
				return nil
			}
			p.Attempts = append(p.Attempts, a)
			p.Tests, p.Verdict = []TestBrief{}, ""
			return nil
		})
		if errors.Is(err, jetstream.ErrKeyNotFound) {
			continue // deleted in between
		}
		return p, err
	}
}

// failures are the attempts before a that did not end well: the worker
// died (no outcome), refused the job or failed to grade it.
func (p *Progress) failures(a Attempt) []Attempt {
	var out []Attempt
	for _, b := range p.Attempts {
		if b.Worker == a.Worker && b.Delivery == a.Delivery && b.StartedAt.Equal(a.StartedAt) {
			continue
		}
		switch b.Outcome {
		case "", OutcomeRefused, OutcomeFailed:
			out = append(out, b)
		}
	}
	return out
}

// endAttempt records how an attempt ended.
func (s *Store) endAttempt(ctx context.Context, job Job, a Attempt, outcome, reason string) {
	update(ctx, s.progress, job.Submission, func(p *Progress) error {
		if p.Request != job.Request {
			return errNoChange
		}
		for i := range p.Attempts {
			b := &p.Attempts[i]
			if b.Worker == a.Worker && b.Delivery == a.Delivery && b.StartedAt.Equal(a.StartedAt) {
				b.Outcome, b.Reason = outcome, reason
				return nil
			}
		}
		return errNoChange
	})
}

// markRunning says the submission is being graded by worker.
func (s *Store) markRunning(ctx context.Context, job Job, worker string) error {
	_, err := update(ctx, s.submissions, job.Submission, func(sub *Submission) error {
		if sub.Request != job.Request || sub.State == StateDone {
			return errNoChange
		}
		sub.State, sub.Worker = StateRunning, worker
		return nil
	})
	return err
}

// storeJudging stores the report (and f, when not nil) and the judging of job, unless a judging
// of that request is stored already (then that one stands), and marks the
// submission.
func (s *Store) storeJudging(ctx context.Context, job Job, a Attempt, r *judge.Report, message string, cached bool, f *Failure) (*Judging, error) {
	name := fmt.Sprintf("%s.%d.%d-%s", job.Submission, job.Request, a.Delivery, a.Worker)
	b, err := json.Marshal(r)
	if err != nil {
		return nil, err
	}
	if _, err := s.reports.PutBytes(ctx, name, b); err != nil {
		return nil, fmt.Errorf("storing the report: %w", err)
	}
	fname, err := s.storeFailure(ctx, name, f)
	if err != nil {
		return nil, err
	}
	j := &Judging{
		JudgingRef: JudgingRef{Request: job.Request, Verdict: r.Verdict.String(), Worker: a.Worker,
			StartedAt: a.StartedAt, FinishedAt: time.Now().UTC(), Message: message},
		Submission: job.Submission, ProblemHash: job.ProblemHash, Report: name, Failure: fname, Cached: cached,
	}
	err = createJSON(ctx, s.judgings, judgingKey(job.Submission, job.Request), j)
	if errors.Is(err, jetstream.ErrKeyExists) {
		s.reports.Delete(ctx, name)
		if fname != "" {
			s.reports.Delete(ctx, fname)
		}
		if j, err = s.Judging(ctx, job.Submission, job.Request); err != nil {
			return nil, err
		}
	} else if err != nil {
		return nil, fmt.Errorf("storing the judging: %w", err)
	}
	return j, s.finish(ctx, j)
}

// finish adds a stored judging to its submission (once) and, if it is the
// latest request's, marks the submission done. It may run any number of
// times for the same judging.
func (s *Store) finish(ctx context.Context, j *Judging) error {
	_, err := update(ctx, s.submissions, j.Submission, func(sub *Submission) error {
		listed := false
		for _, r := range sub.Judgings {
			listed = listed || r.Request == j.Request
		}
		latest := sub.Request == j.Request
		if listed && (!latest || sub.State == StateDone) {
			return errNoChange
		}
		if !listed {
			sub.Judgings = append(sub.Judgings, j.JudgingRef)
			sort.Slice(sub.Judgings, func(a, b int) bool { return sub.Judgings[a].Request < sub.Judgings[b].Request })
		}
		if latest {
			sub.State, sub.Verdict, sub.Worker = StateDone, j.Verdict, ""
		}
		return nil
	})
	return err
}

// Report reads a judging's report.
func (s *Store) Report(ctx context.Context, j *Judging) (json.RawMessage, error) {
	b, err := s.reports.GetBytes(ctx, j.Report)
	if err != nil {
		return nil, fmt.Errorf("report %s: %w", j.Report, err)
	}
	return b, nil
}

// progressWriter writes the tests of a grading to its progress record as
// they finish, from a goroutine of its own so that the engine's callback
// never waits for NATS; writes coalesce when tests finish faster.
type progressWriter struct {
	ctx   context.Context
	store *Store
	job   Job

	mu    sync.Mutex
	tests []TestBrief
	kick  chan struct{}
	done  chan struct{}
}

func newProgressWriter(ctx context.Context, s *Store, job Job) *progressWriter {
	pw := &progressWriter{ctx: ctx, store: s, job: job, tests: []TestBrief{}, kick: make(chan struct{}, 1), done: make(chan struct{})}
	go pw.loop()
	return pw
}

func (pw *progressWriter) add(t judge.TestResult) {
	pw.mu.Lock()
	pw.tests = append(pw.tests, brief(t))
	pw.mu.Unlock()
	select {
	case pw.kick <- struct{}{}:
	default:
	}
}

func (pw *progressWriter) loop() {
	defer close(pw.done)
	for range pw.kick {
		pw.mu.Lock()
		tests := append([]TestBrief(nil), pw.tests...)
		pw.mu.Unlock()
		update(pw.ctx, pw.store.progress, pw.job.Submission, func(p *Progress) error {
			if p.Request != pw.job.Request || len(p.Tests) >= len(tests) {
				return errNoChange
			}
			p.Tests = tests
			return nil
		})
	}
}

// close writes what is left and waits for the writes.
func (pw *progressWriter) close() {
	select {
	case pw.kick <- struct{}{}:
	default:
	}
	close(pw.kick)
	<-pw.done
}
