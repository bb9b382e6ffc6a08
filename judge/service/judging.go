package service

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"sort"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/optjudge/optjudge/judge"
	"github.com/optjudge/optjudge/judge/service/store"
	"github.com/optjudge/optjudge/problems"
	"github.com/optjudge/optjudge/verdict"
)

// startAttempt records a delivery in the submission's progress, starting
// the record afresh for a new request.
func (lc *lifecycle) startAttempt(ctx context.Context, job Job, a Attempt) (*Progress, error) {
	s := lc.st
	fresh := Progress{Submission: job.Submission, Request: job.Request, Attempts: []Attempt{a}, Tests: []TestBrief{}}
	for {
		err := store.CreateJSON(ctx, s.Progress, job.Submission, fresh)
		if err == nil {
			return &fresh, nil
		}
		if !errors.Is(err, jetstream.ErrKeyExists) {
			return nil, err
		}
		p, err := store.Update(ctx, s.Progress, job.Submission, func(p *Progress) error {
			if p.Request != job.Request {
				*p = fresh
				return nil
			}
			p.Attempts = append(p.Attempts, a)
			p.Tests, p.Verdict = []TestBrief{}, verdict.Unknown
			return nil
		})
		if errors.Is(err, jetstream.ErrKeyNotFound) {
			continue // deleted in between
		}
		return p, err
	}
}

// failures are the attempts but a that did not end well: the worker died
// (no outcome) or failed to grade. A refusal is not one: the worker did
// not have the problem's version, another may (see refusals).
func (p *Progress) failures(a Attempt) []Attempt {
	var out []Attempt
	for _, b := range p.Attempts {
		if b.same(a) {
			continue
		}
		switch b.Outcome {
		case "", OutcomeFailed:
			out = append(out, b)
		}
	}
	return out
}

// tried says whether a worker recorded an attempt at request of
// submission id: its job was published.
func (lc *lifecycle) tried(ctx context.Context, id string, request int) (bool, error) {
	s := lc.st
	var p Progress
	_, err := store.GetJSON(ctx, s.Progress, id, &p)
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return false, nil
	}
	return err == nil && p.Request == request && len(p.Attempts) > 0, err
}

// refusals are the attempts that refused the job, oldest first.
func (p *Progress) refusals() []Attempt {
	var out []Attempt
	for _, b := range p.Attempts {
		if b.Outcome == OutcomeRefused {
			out = append(out, b)
		}
	}
	return out
}

func (a Attempt) same(b Attempt) bool {
	return a.Worker == b.Worker && a.Delivery == b.Delivery && a.StartedAt.Equal(b.StartedAt)
}

// endAttempt records how an attempt ended and returns the progress.
func (lc *lifecycle) endAttempt(ctx context.Context, job Job, a Attempt, outcome, reason string) (*Progress, error) {
	s := lc.st
	return store.Update(ctx, s.Progress, job.Submission, func(p *Progress) error {
		if p.Request != job.Request {
			return store.ErrNoChange
		}
		for i := range p.Attempts {
			b := &p.Attempts[i]
			if b.same(a) {
				b.Outcome, b.Reason = outcome, reason
				return nil
			}
		}
		return store.ErrNoChange
	})
}

// markRunning says the submission is being graded by worker.
func (lc *lifecycle) markRunning(ctx context.Context, job Job, worker string) error {
	s := lc.st
	_, err := store.Update(ctx, s.Submissions, job.Submission, func(sub *Submission) error {
		if sub.Request != job.Request || sub.State == StateDone {
			return store.ErrNoChange
		}
		sub.State, sub.Worker, sub.Publishing = StateRunning, worker, false
		return nil
	})
	return err
}

// result is what a try of a job found, to be stored as its judging.
type result struct {
	report  *judge.Report
	message string   // why a JE is one
	cached  bool     // the build came from the executable cache
	failure *Failure // the first failing test, nil for none
	samples []string // the report's sample tests
}

// storeJudging stores the report (and the failure) and the judging of
// job, unless a judging of that request is stored already: then that one
// stands, stored is false, and this try's report goes. It marks the
// submission.
func (lc *lifecycle) storeJudging(ctx context.Context, job Job, a Attempt, res result) (j *Judging, stored bool, err error) {
	s := lc.st
	name := fmt.Sprintf("%s.%d.%d-%s", job.Submission, job.Request, a.Delivery, a.Worker)
	b, err := json.Marshal(res.report)
	if err != nil {
		return nil, false, err
	}
	if _, err := s.Reports.PutBytes(ctx, name, b); err != nil {
		return nil, false, fmt.Errorf("storing the report: %w", err)
	}
	fname, err := s.storeFailure(ctx, name, res.failure)
	if err != nil {
		return nil, false, err
	}
	j = &Judging{
		JudgingRef: JudgingRef{Request: job.Request, Verdict: res.report.Verdict, Worker: a.Worker,
			StartedAt: a.StartedAt, FinishedAt: time.Now().UTC(), Message: res.message},
		Submission: job.Submission, ProblemHash: job.ProblemHash, Report: name, Failure: fname, Cached: res.cached,
		Samples: res.samples,
	}
	if sc := res.report.Score; sc.Scoring {
		v := sc.Value
		j.Score, j.MaxScore = &v, sc.Max
	}
	err = store.CreateJSON(ctx, s.Judgings, judgingKey(job.Submission, job.Request), j)
	stored = err == nil
	if errors.Is(err, jetstream.ErrKeyExists) {
		for _, obj := range []string{name, fname} {
			if err := s.Reports.Delete(ctx, obj); obj != "" && err != nil {
				lc.logf("%s request %d: removing the discarded %s: %v", job.Submission, job.Request, obj, err)
			}
		}
		if j, err = s.Judging(ctx, job.Submission, job.Request); err != nil {
			return nil, false, err
		}
	} else if err != nil {
		return nil, false, fmt.Errorf("storing the judging: %w", err)
	}
	return j, stored, lc.finish(ctx, j)
}

// sampleNames are the names of p's sample tests (none when its tests
// cannot be listed: then every test counts as secret).
func sampleNames(p *problems.Problem) map[string]bool {
	out := map[string]bool{}
	tests, err := p.Package.Tests()
	if err != nil {
		return out
	}
	for _, t := range tests {
		if t.Group == "sample" {
			out[t.Name] = true
		}
	}
	return out
}

// samplesIn are the report's tests among samples.
func samplesIn(r *judge.Report, samples map[string]bool) []string {
	var out []string
	for _, t := range r.Tests {
		if samples[t.Name] {
			out = append(out, t.Name)
		}
	}
	return out
}

// finish adds a stored judging to its submission (once) and, if it is the
// latest request's, marks the submission done. It may run any number of
// times for the same judging.
func (lc *lifecycle) finish(ctx context.Context, j *Judging) error {
	s := lc.st
	_, err := store.Update(ctx, s.Submissions, j.Submission, func(sub *Submission) error {
		listed := false
		for _, r := range sub.Judgings {
			listed = listed || r.Request == j.Request
		}
		latest := sub.Request == j.Request
		if listed && (!latest || sub.State == StateDone) {
			return store.ErrNoChange
		}
		if !listed {
			sub.Judgings = append(sub.Judgings, j.JudgingRef)
			sort.Slice(sub.Judgings, func(a, b int) bool { return sub.Judgings[a].Request < sub.Judgings[b].Request })
		}
		if latest {
			sub.State, sub.Verdict, sub.Worker, sub.Publishing = StateDone, j.Verdict, "", false
		}
		return nil
	})
	return err
}

// Report reads a judging's report.
func (s *Store) Report(ctx context.Context, j *Judging) (json.RawMessage, error) {
	b, err := s.Reports.GetBytes(ctx, j.Report)
	if err != nil {
		return nil, fmt.Errorf("report %s: %w", j.Report, err)
	}
	return b, nil
}

// progressWriter writes the tests of a grading to its progress record as
// they finish, from a goroutine of its own so that the engine's callback
// never waits for NATS; writes coalesce when tests finish faster.
type progressWriter struct {
	ctx     context.Context
	store   *Store
	job     Job
	samples map[string]bool
	log     *log.Logger

	mu    sync.Mutex
	tests []TestBrief
	kick  chan struct{}
	done  chan struct{}
}

func newProgressWriter(ctx context.Context, s *Store, job Job, samples map[string]bool, l *log.Logger) *progressWriter {
	pw := &progressWriter{ctx: ctx, store: s, job: job, samples: samples, log: l, tests: []TestBrief{},
		kick: make(chan struct{}, 1), done: make(chan struct{})}
	go pw.loop()
	return pw
}

func (pw *progressWriter) add(t judge.TestResult) {
	pw.mu.Lock()
	pw.tests = append(pw.tests, brief(t, pw.samples[t.Name]))
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
		_, err := store.Update(pw.ctx, pw.store.Progress, pw.job.Submission, func(p *Progress) error {
			if p.Request != pw.job.Request || len(p.Tests) >= len(tests) {
				return store.ErrNoChange
			}
			p.Tests = tests
			return nil
		})
		if err != nil && pw.ctx.Err() == nil {
			// the events miss these tests until the next write, or the
			// judging
			pw.log.Printf("%s request %d: progress of %d tests: %v", pw.job.Submission, pw.job.Request, len(tests), err)
		}
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
