package service

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"net/http"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/optjudge/optjudge/judge/service/store"
)

// lifecycle is the life of a grading request, from its publication to its
// judging, in one place: the API server publishes, withdraws and requeues
// through it, the workers attempt, keep alive, republish, refuse, give up
// and finish through it (attempt.go), and the sweeper rescues through it (sweep.go).
// Its states, as the records say them:
//
//	publishing  the record names the request (Submission.Publishing) but
//	            its job is not known to be in the stream
//	queued      the job is in JUDGE_JOBS
//	running     a worker holds a delivery: an Attempt in judge-progress,
//	            the message kept alive with InProgress
//	done        the request's Judging is stored (created once) and
//	            listed by the record
//
// and its moves:
//
//	publish    publishing -> queued: the request's first message
//	withdraw   publishing -> gone: the message could not be published, the
//	           client is told so; a new submission's record is deleted, a
//	           rejudged one's request taken back (the judging before stands)
//	attempt    queued -> running: a delivery, recorded before anything else
//	finish     running -> done: the judging stored, listed, acknowledged
//	hand back  running -> queued: a stopping worker, a try that failed
//	refuse     running -> queued: a worker without the problem's version
//	           (no try: another worker may have it)
//	republish  running -> queued: the message's last delivery, a fresh copy
//	give up    running -> done as JE: every try died, or every live worker
//	           refused
//	rescue     the sweeper's, for a request stuck in any state but done
//	           (see rescue)
//
// Every job message is published here, under the one rule of msgID.
type lifecycle struct {
	st  *Store
	log *log.Logger
	who string // "worker NAME", "server": for the log

	// workers only: the library whose problems give a JE report its
	// limits, the engine's isolation, and a count of the judgings stored
	lib       *Library
	isolation string
	stored    func()

	// the server only: its view of the records, where the sweeper finds
	// the stale ones (sweep.go)
	view *view
}

func (lc *lifecycle) logf(format string, args ...any) {
	lc.log.Printf(lc.who+": "+format, args...)
}

// origin says which message of a request a job message is (msgID).
type origin struct {
	replaces uint64    // the stream sequence of the message it copies, whose deliveries ran out
	swept    time.Time // when the sweeper found the request with no message
}

// msgID is the Nats-Msg-Id of a job message, which JetStream deduplicates
// by (one message per id within store.Config.Duplicates). A request's first
// message is <submission>-<request>: a retried POST or rejudge publishes
// the same one. The copy of message seq, whose deliveries ran out, is
// <submission>-<request>-<seq> whoever makes it, the worker of its last
// delivery or the server on JetStream's advisory: the two are one
// message. The sweeper's, for a request with no message in the stream, is
// <submission>-<request>-swept-<unix nanoseconds>: never one published
// before (JetStream may still remember the first, acknowledged).
func msgID(job Job, o origin) string {
	id := fmt.Sprintf("%s-%d", job.Submission, job.Request)
	switch {
	case !o.swept.IsZero():
		return fmt.Sprintf("%s-swept-%d", id, o.swept.UnixNano())
	case o.replaces > 0:
		return fmt.Sprintf("%s-%d", id, o.replaces)
	}
	return id
}

// send publishes a job message of the request job.
func (lc *lifecycle) send(ctx context.Context, job Job, o origin) error {
	b, err := json.Marshal(job)
	if err != nil {
		return err
	}
	_, err = lc.st.JS.Publish(ctx, store.JobsSubject+job.Submission, b, jetstream.WithMsgID(msgID(job, o)))
	return err
}

func jobOf(sub *Submission) Job {
	return Job{Submission: sub.ID, Request: sub.Request, Problem: sub.Problem, ProblemHash: sub.ProblemHash,
		Language: sub.Language, Filename: sub.Filename, Source: sub.Source, QueuedAt: sub.QueuedAt}
}

// accept stores a new submission (publishing) and publishes its first
// message. A record of that id already there is jetstream.ErrKeyExists
// (an Idempotency-Key's retry: see resume).
func (lc *lifecycle) accept(ctx context.Context, sub *Submission) error {
	sub.Publishing = true
	if err := store.CreateJSON(ctx, lc.st.Submissions, sub.ID, sub); err != nil {
		if errors.Is(err, jetstream.ErrKeyExists) {
			return err
		}
		return fmt.Errorf("storing the submission: %w", err)
	}
	return lc.publish(ctx, sub)
}

// resume publishes the first message of sub's latest request again if
// the stream holds none of it (a retried POST whose first try stopped
// between storing and publishing); JetStream's deduplication alone would
// let a retry past its window queue a second.
func (lc *lifecycle) resume(ctx context.Context, sub *Submission) error {
	_, err := lc.st.Jobs.GetLastMsgForSubject(ctx, store.JobsSubject+sub.ID)
	switch {
	case err == nil:
		return nil
	case !errors.Is(err, jetstream.ErrMsgNotFound):
		return err
	}
	return lc.publish(ctx, sub)
}

// publish publishes the first message of sub's latest request, which its
// record names (publishing), and says so in the record. A message that
// cannot be published withdraws the request: its client is told it
// failed (429 for a full queue), and nothing will grade it. A record that
// cannot be told is left publishing with its job queued: a worker that
// takes the job tells it.
func (lc *lifecycle) publish(ctx context.Context, sub *Submission) error {
	if err := lc.send(ctx, jobOf(sub), origin{}); err != nil {
		lc.withdraw(context.WithoutCancel(ctx), sub, err)
		if store.IsQueueFull(err) {
			return errorf(http.StatusTooManyRequests, "the queue is full (%d waiting): try again later", lc.st.QueueLimit)
		}
		return fmt.Errorf("queueing: %w", err)
	}
	_, err := store.Update(ctx, lc.st.Submissions, sub.ID, func(s *Submission) error {
		if s.Request != sub.Request || !s.Publishing {
			return store.ErrNoChange
		}
		s.Publishing = false
		return nil
	})
	if err != nil {
		lc.logf("%s request %d: queued, but its record still says publishing: %v", sub.ID, sub.Request, err)
	}
	sub.Publishing = false
	return nil
}

// withdraw takes back the request of sub that could not be published
// (why): a new submission's record is deleted, a rejudged one goes back
// to done on the judging before. It leaves alone a record that moved on
// (a worker took a job of the request after all). What it cannot do now
// the sweeper does (the record stays publishing: see rescue).
func (lc *lifecycle) withdraw(ctx context.Context, sub *Submission, why error) {
	err := lc.takeBack(ctx, sub.ID, sub.Request)
	if err != nil {
		lc.logf("%s request %d: not queued (%v), and not withdrawn: %v (the sweeper withdraws it)", sub.ID, sub.Request, why, err)
	}
}

// takeBack withdraws request of submission id if its record still names it
// as publishing.
func (lc *lifecycle) takeBack(ctx context.Context, id string, request int) error {
	var sub Submission
	rev, err := store.GetJSON(ctx, lc.st.Submissions, id, &sub)
	switch {
	case errors.Is(err, jetstream.ErrKeyNotFound):
		return nil
	case err != nil:
		return err
	case sub.Request != request || !sub.Publishing || sub.State == StateDone:
		return nil
	case len(sub.Judgings) == 0:
		err := lc.st.Submissions.Delete(ctx, id, jetstream.LastRevision(rev))
		if store.IsWrongRevision(err) {
			return lc.takeBack(ctx, id, request) // changed in between: look again
		}
		return err
	}
	prev := sub.Judgings[len(sub.Judgings)-1]
	hash := sub.ProblemHash
	if j, err := lc.st.Judging(ctx, id, prev.Request); err == nil {
		hash = j.ProblemHash
	}
	_, err = store.Update(ctx, lc.st.Submissions, id, func(s *Submission) error {
		if s.Request != request || !s.Publishing || s.State == StateDone {
			return store.ErrNoChange
		}
		s.Request, s.State, s.Verdict, s.ProblemHash, s.Publishing = prev.Request, StateDone, prev.Verdict, hash, false
		return nil
	})
	return err
}

// requeue asks for one more grading of a finished submission, on p: a new
// request, published.
func (lc *lifecycle) requeue(ctx context.Context, id string, p *Problem) (*RejudgeItem, error) {
	var item RejudgeItem
	sub, err := store.Update(ctx, lc.st.Submissions, id, func(sub *Submission) error {
		if sub.State != StateDone {
			return store.ErrNoChange
		}
		item = RejudgeItem{Submission: id, Request: sub.Request + 1, Before: sub.Verdict}
		sub.Request++
		sub.State, sub.QueuedAt, sub.ProblemHash, sub.Publishing = StateQueued, time.Now().UTC(), p.Hash, true
		return nil
	})
	if err != nil {
		return nil, err
	}
	if sub.Request != item.Request {
		return nil, store.ErrNoChange
	}
	if err := lc.publish(ctx, sub); err != nil {
		return nil, err
	}
	return &item, nil
}

// jobState is what the sweeper knows of the queue at one moment.
type jobState struct {
	delivered uint64          // the last stream sequence delivered for the first time
	grading   map[string]bool // submissions a live worker is on
}

func (lc *lifecycle) jobState(ctx context.Context) (*jobState, error) {
	cons, err := lc.st.Jobs.Consumer(ctx, store.GradersConsumer)
	if err != nil {
		return nil, fmt.Errorf("consumer %s: %w", store.GradersConsumer, err)
	}
	ci, err := cons.Info(ctx)
	if err != nil {
		return nil, fmt.Errorf("consumer %s: %w", store.GradersConsumer, err)
	}
	live, err := lc.st.liveWorkers(ctx)
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

// rescue repairs one stale request (its record unchanged for 2 AckWaits),
// if it is stuck. With no message in the stream: a stored judging is
// finished; a request still publishing that no worker ever tried is
// withdrawn (its publication failed, and its client was told so, or got
// no answer); any other is queued again (a republish failed). With a
// message delivered that no live worker holds, its deliveries ran out:
// it is replaced (exhausted).
func (lc *lifecycle) rescue(ctx context.Context, sub *Submission, js *jobState) error {
	st := lc.st
	raw, err := st.Jobs.GetLastMsgForSubject(ctx, store.JobsSubject+sub.ID)
	switch {
	case errors.Is(err, jetstream.ErrMsgNotFound):
		return lc.unqueued(ctx, sub)
	case err != nil:
		return err
	case raw.Sequence > js.delivered, js.grading[sub.ID]:
		return nil // waiting its turn, or being graded
	}
	lc.logf("%s request %d: its job (message %d) was delivered and no worker has it: queued again", sub.ID, sub.Request, raw.Sequence)
	return lc.exhausted(ctx, raw.Sequence)
}

// unqueued repairs a stale request with no message in the stream.
func (lc *lifecycle) unqueued(ctx context.Context, sub *Submission) error {
	st := lc.st
	if j, err := st.Judging(ctx, sub.ID, sub.Request); err == nil {
		return lc.finish(ctx, j)
	} else if !errors.Is(err, jetstream.ErrKeyNotFound) {
		return err
	}
	if sub.Publishing {
		tried, err := lc.tried(ctx, sub.ID, sub.Request)
		if err != nil {
			return err
		}
		if !tried {
			lc.logf("%s request %d was never queued: withdrawn", sub.ID, sub.Request)
			return lc.takeBack(ctx, sub.ID, sub.Request)
		}
	}
	lc.logf("%s request %d had no job: queued again", sub.ID, sub.Request)
	return lc.send(ctx, jobOf(sub), origin{swept: time.Now()})
}

// exhausted replaces the job message seq, whose deliveries ran out, with a
// fresh copy (the next worker counts the tries in the progress record and
// ends the job as JE if they all died). The old message goes first, so
// that a full queue has room for the copy; a copy that cannot be
// published now is the sweeper's (the request is left without a message).
func (lc *lifecycle) exhausted(ctx context.Context, seq uint64) error {
	st := lc.st
	raw, err := st.Jobs.GetMsg(ctx, seq)
	if errors.Is(err, jetstream.ErrMsgNotFound) {
		return nil // acked after all
	}
	if err != nil {
		return err
	}
	if err := st.Jobs.DeleteMsg(ctx, seq); err != nil && !errors.Is(err, jetstream.ErrMsgNotFound) {
		return err
	}
	var job Job
	if err := json.Unmarshal(raw.Data, &job); err != nil {
		lc.logf("message %d: dropping a malformed job %q: %v", seq, raw.Data, err)
		return nil
	}
	if j, err := st.Judging(ctx, job.Submission, job.Request); err == nil {
		return lc.finish(ctx, j)
	} else if !errors.Is(err, jetstream.ErrKeyNotFound) {
		return err
	}
	return lc.send(ctx, job, origin{replaces: seq})
}
