package service

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/optjudge/optjudge/judge"
	"github.com/optjudge/optjudge/judge/service/store"
	"github.com/optjudge/optjudge/problems"
)

// attempt is one delivery of a job to a worker, from the moment it is
// recorded (running) to its answer: finished, handed back, refused,
// republished or given up. Its message is kept alive with InProgress until
// it is answered, or stop is called.
type attempt struct {
	lc  *lifecycle
	job Job
	a   Attempt
	msg *aliveMsg
}

// attempt begins a delivery of job to the worker called worker. It is nil
// when the delivery needed no grading and is answered: graded before (the
// judging is listed, the message acknowledged), its submission or its
// request gone (terminated), every try died (given up as JE), the
// message's last delivery (republished). An error leaves the message to
// the caller, unanswered.
func (lc *lifecycle) attempt(ctx context.Context, msg jetstream.Msg, meta *jetstream.MsgMetadata, job Job, worker string) (*attempt, error) {
	st := lc.st
	if j, err := st.Judging(ctx, job.Submission, job.Request); err == nil {
		// graded before, the ack lost: make sure the submission says so
		if err := lc.finish(ctx, j); err != nil {
			return nil, err
		}
		return nil, msg.DoubleAck(ctx)
	} else if !errors.Is(err, jetstream.ErrKeyNotFound) {
		return nil, fmt.Errorf("its judging: %w", err)
	}
	sub, err := st.Submission(ctx, job.Submission)
	switch {
	case errors.Is(err, jetstream.ErrKeyNotFound):
		return nil, msg.TermWithReason("no such submission")
	case err != nil:
		// not graded on a guess: the submission may be gone
		return nil, fmt.Errorf("its submission: %w", err)
	case job.Request > sub.Request:
		return nil, msg.TermWithReason("request withdrawn") // its publication failed, as far as its client knows
	}
	at := &attempt{lc: lc, job: job, a: Attempt{Worker: worker, Delivery: meta.NumDelivered, StartedAt: time.Now().UTC()}}
	prog, err := lc.startAttempt(ctx, job, at.a)
	if err != nil {
		return nil, err
	}
	// The job is this attempt's from now on: fetching a large package may
	// take longer than AckWait, and a job left silent goes to another
	// worker, which counts this one as dead.
	at.msg = keepAlive(ctx, msg, st.AckWait/3)
	if failed := prog.failures(at.a); len(failed) >= store.MaxTries {
		defer at.stop()
		return nil, at.giveUp(ctx, fmt.Sprintf("not graded after %d tries", len(failed)), failed, nil)
	}
	if meta.NumDelivered >= store.MaxDeliver {
		defer at.stop()
		return nil, at.republish(ctx, meta.Sequence.Stream)
	}
	return at, nil
}

// stop stops keeping the message alive (an answer stops it too).
func (at *attempt) stop() { at.msg.stop() }

// end records how the attempt ended; a record that cannot be written is
// logged (the next try counts this one as dead).
func (at *attempt) end(ctx context.Context, outcome, reason string) *Progress {
	p, err := at.lc.endAttempt(ctx, at.job, at.a, outcome, reason)
	if err != nil {
		at.lc.logf("%s request %d: recording the attempt %s: %v", at.job.Submission, at.job.Request, outcome, err)
	}
	return p
}

// running says the submission is being graded by this attempt's worker.
func (at *attempt) running(ctx context.Context) error {
	return at.lc.markRunning(ctx, at.job, at.a.Worker)
}

// handBack gives the job back at once: the worker is stopping.
func (at *attempt) handBack(ctx context.Context, why string) error {
	at.end(ctx, OutcomeHandedBack, why)
	return at.msg.Nak()
}

// fail ends a try that failed (the judge's own failure: a try that
// counts, see store.MaxTries) and hands the job back after a second.
func (at *attempt) fail(ctx context.Context, err error) error {
	at.end(ctx, OutcomeFailed, err.Error())
	if nerr := at.msg.NakWithDelay(time.Second); nerr != nil {
		return fmt.Errorf("%w (and handing it back: %v)", err, nerr)
	}
	return err
}

// republish gives a job whose message had its last delivery a fresh
// message (and so a fresh count): earlier tries were handed back or
// refused. The old message, seq, is acknowledged first, so that a full
// queue has room for the copy; a copy that cannot be published now is
// published by the server's sweeper (the request is left without a
// message).
func (at *attempt) republish(ctx context.Context, seq uint64) error {
	if err := at.msg.DoubleAck(ctx); err != nil {
		return err
	}
	at.end(ctx, OutcomeHandedBack, "republished after the last delivery")
	if err := at.lc.send(ctx, at.job, origin{replaces: seq}); err != nil {
		at.lc.logf("%s request %d: republishing: %v (the server's sweeper queues it again)", at.job.Submission, at.job.Request, err)
	}
	return nil
}

// refuse hands back a job whose problem version this worker does not
// have. A refusal is not a try: another worker may have that version. The
// job ends as JE only when every live worker has refused it and the first
// refusal is an AckWait old (time for a worker to start or come back).
func (at *attempt) refuse(ctx context.Context, why error) error {
	st := at.lc.st
	at.lc.logf("refusing %s: %v", at.job.Submission, why)
	prog, err := at.lc.endAttempt(ctx, at.job, at.a, OutcomeRefused, why.Error())
	if err != nil {
		return fmt.Errorf("recording the refusal: %w", err) // the caller hands the job back
	}
	if refused := prog.refusals(); len(refused) > 0 && time.Since(refused[0].StartedAt) >= st.AckWait {
		live, err := st.liveWorkers(ctx)
		if err != nil {
			return err
		}
		if everyoneRefused(live, refused) {
			return at.giveUp(ctx, "not graded: every live worker refused it", append(prog.failures(Attempt{}), refused...), nil)
		}
	}
	return at.msg.NakWithDelay(time.Second)
}

// everyoneRefused says whether each live worker is among the refusers.
func everyoneRefused(live []WorkerInfo, refused []Attempt) bool {
	by := map[string]bool{}
	for _, a := range refused {
		by[a.Worker] = true
	}
	for _, wi := range live {
		if !by[wi.Name] {
			return false
		}
	}
	return true
}

// giveUp ends a job whose tries all failed (or that every worker refused)
// as a JE judging: judge.JEReport, with the limits of p (nil: the
// library's copy of the job's version, if this worker has it) and the
// reason, lead and the tries.
func (at *attempt) giveUp(ctx context.Context, lead string, failed []Attempt, p *Problem) error {
	var reasons []string
	for _, a := range failed {
		why := a.Reason
		if a.Outcome == "" {
			why = "the worker stopped without a result (killed, or cut off from NATS)"
		}
		reasons = append(reasons, fmt.Sprintf("try %d on %s at %s: %s", a.Delivery, a.Worker, a.StartedAt.Format(time.RFC3339), why))
	}
	reason := fmt.Sprintf("%s: %s", lead, strings.Join(reasons, "; "))
	if p == nil && at.lc.lib != nil {
		p = at.lc.lib.cached(at.job.Problem, at.job.ProblemHash)
	}
	var pp *problems.Problem
	if p != nil {
		pp = p.Problem
	}
	r := judge.JEReport(pp, judge.GradeOptions{}, reason) // the options the engine grades with set no limit
	r.Problem, r.Submission, r.Language, r.Isolation = at.job.Problem, at.job.Filename, at.job.Language, at.lc.isolation
	a := Attempt{Worker: at.a.Worker, StartedAt: time.Now().UTC()}
	_, stored, err := at.lc.storeJudging(ctx, at.job, a, result{report: r, message: reason})
	if err != nil {
		return err
	}
	if stored {
		at.lc.count()
		at.lc.logf("%s request %d: JE, %s", at.job.Submission, at.job.Request, reason)
	}
	return at.msg.DoubleAck(ctx)
}

// finish stores the grading's result as the request's judging, unless a
// faster try stored one first (then this result goes), and acknowledges
// the message.
func (at *attempt) finish(ctx context.Context, res result) error {
	j, stored, err := at.lc.storeJudging(ctx, at.job, at.a, res)
	if err != nil {
		return at.fail(ctx, err)
	}
	if !stored {
		// a slower try of a job another worker finished: its result goes
		at.end(ctx, OutcomeDiscarded, fmt.Sprintf("%s stored the judging first", j.Worker))
		at.lc.logf("%s request %d: %s discarded, %s judged it first (%s)", at.job.Submission, at.job.Request,
			res.report.Verdict, j.Worker, j.Verdict)
		return at.msg.DoubleAck(ctx)
	}
	at.end(ctx, OutcomeDone, "")
	at.lc.count()
	at.lc.logf("%s request %d: %s", at.job.Submission, at.job.Request, j.Verdict)
	return at.msg.DoubleAck(ctx)
}

// count counts a judging this lifecycle's worker stored.
func (lc *lifecycle) count() {
	if lc.stored != nil {
		lc.stored()
	}
}

// aliveMsg is a job message kept alive by InProgress every so often, until
// it is acknowledged, handed back or terminated, or its context ends.
type aliveMsg struct {
	jetstream.Msg
	stop func()
}

// keepAlive starts telling JetStream every so often that msg is in
// progress.
func keepAlive(ctx context.Context, msg jetstream.Msg, every time.Duration) *aliveMsg {
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				msg.InProgress() // one lost is no harm: the next is due before AckWait
			}
		}
	}()
	return &aliveMsg{Msg: msg, stop: sync.OnceFunc(func() { cancel(); <-done })}
}

// The answers stop the InProgress first: one sent after a hand-back would
// hold the job back from the next worker.

func (m *aliveMsg) Ack() error                          { m.stop(); return m.Msg.Ack() }
func (m *aliveMsg) DoubleAck(ctx context.Context) error { m.stop(); return m.Msg.DoubleAck(ctx) }
func (m *aliveMsg) Nak() error                          { m.stop(); return m.Msg.Nak() }
func (m *aliveMsg) NakWithDelay(d time.Duration) error  { m.stop(); return m.Msg.NakWithDelay(d) }
func (m *aliveMsg) Term() error                         { m.stop(); return m.Msg.Term() }
func (m *aliveMsg) TermWithReason(reason string) error  { m.stop(); return m.Msg.TermWithReason(reason) }
