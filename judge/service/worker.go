package service

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/optjudge/optjudge/judge"
	"github.com/optjudge/optjudge/judge/verdict"
)

// WorkerConfig configures a grading worker.
type WorkerConfig struct {
	Name    string // unique among the workers
	Host    string
	Store   *Store
	Library *Library
	Engine  Engine
	TempDir string // sources are written here; "": the system's
	// Grace is how long a stopping worker lets its current grading run
	// before it hands the job back; 0: 5 s.
	Grace time.Duration
	Log   *log.Logger // nil: silent
}

// Worker takes jobs from the graders consumer one at a time and grades
// them.
type Worker struct {
	cfg WorkerConfig
	log *log.Logger

	mu     sync.Mutex
	info   WorkerInfo
	crash  context.CancelFunc // for tests: stop as if killed
	crashd bool
}

// NewWorker returns a worker; Run starts it.
func NewWorker(cfg WorkerConfig) *Worker {
	if cfg.Grace == 0 {
		cfg.Grace = 5 * time.Second
	}
	l := cfg.Log
	if l == nil {
		l = log.New(io.Discard, "", 0)
	}
	return &Worker{cfg: cfg, log: l, info: WorkerInfo{Name: cfg.Name, Host: cfg.Host, State: "idle", Since: time.Now()}}
}

// Run grades jobs until ctx ends, then finishes the current grading within
// Grace or hands its job back, and returns.
func (w *Worker) Run(ctx context.Context) error {
	hctx, stopBeat := context.WithCancel(context.WithoutCancel(ctx))
	crashCtx, crash := context.WithCancel(context.Background())
	w.mu.Lock()
	w.crash = crash
	w.mu.Unlock()
	beat := make(chan struct{})
	go func() { defer close(beat); w.heartbeat(hctx) }()
	defer func() {
		stopBeat()
		<-beat
		if !w.crashed() {
			w.cfg.Store.workers.Delete(context.Background(), w.cfg.Name)
		}
	}()
	var cons jetstream.Consumer
	for ctx.Err() == nil && crashCtx.Err() == nil {
		if cons == nil {
			c, err := w.cfg.Store.jobs.Consumer(ctx, gradersConsumer)
			if err != nil {
				w.log.Printf("worker %s: consumer: %v", w.cfg.Name, err)
				sleep(ctx, time.Second)
				continue
			}
			cons = c
		}
		batch, err := cons.Fetch(1, jetstream.FetchMaxWait(2*time.Second))
		if err != nil {
			w.log.Printf("worker %s: fetching: %v", w.cfg.Name, err)
			sleep(ctx, time.Second)
			continue
		}
		for msg := range batch.Messages() {
			if ctx.Err() != nil {
				msg.Nak() // stopping: someone else takes it now
				continue
			}
			w.handle(ctx, crashCtx, msg)
		}
	}
	return nil
}

// Crash stops the worker as if its process had been killed: the current
// job is neither acknowledged nor handed back, nothing more is written.
// For tests.
func (w *Worker) Crash() {
	w.mu.Lock()
	w.crashd = true
	crash := w.crash
	w.mu.Unlock()
	if crash != nil {
		crash()
	}
}

func (w *Worker) crashed() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.crashd
}

func sleep(ctx context.Context, d time.Duration) {
	select {
	case <-ctx.Done():
	case <-time.After(d):
	}
}

func (w *Worker) setState(state, submission string) {
	w.mu.Lock()
	w.info.State, w.info.Submission, w.info.Since = state, submission, time.Now()
	if state == "idle" && submission == "" {
		w.info.Graded++
	}
	w.mu.Unlock()
}

// heartbeat writes the worker's WorkerInfo every workerTTL/6.
func (w *Worker) heartbeat(ctx context.Context) {
	t := time.NewTicker(workerTTL / 6)
	defer t.Stop()
	for {
		if w.crashed() {
			return
		}
		w.mu.Lock()
		w.info.Heartbeat = time.Now().UTC()
		info := w.info
		w.mu.Unlock()
		putJSON(ctx, w.cfg.Store.workers, w.cfg.Name, info)
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// handle runs one delivery of a job.
func (w *Worker) handle(ctx, crashCtx context.Context, msg jetstream.Msg) {
	var job Job
	if err := json.Unmarshal(msg.Data(), &job); err != nil || job.Submission == "" || job.Request < 1 {
		w.log.Printf("worker %s: dropping a malformed job %q: %v", w.cfg.Name, msg.Data(), err)
		msg.TermWithReason("malformed job")
		return
	}
	meta, err := msg.Metadata()
	if err != nil {
		msg.Nak()
		return
	}
	// the store's writes outlive a stop, not a crash
	sctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	defer cancel()
	stop := context.AfterFunc(crashCtx, cancel)
	defer stop()
	w.setState("grading", job.Submission)
	defer w.setState("idle", "")
	if err := w.run(ctx, sctx, msg, meta, job); err != nil && sctx.Err() == nil {
		w.log.Printf("worker %s: %s request %d: %v", w.cfg.Name, job.Submission, job.Request, err)
		msg.NakWithDelay(time.Second)
	}
}

// run decides what to do with a delivery and does it. ctx ends when the
// worker is asked to stop; sctx when it crashes.
func (w *Worker) run(ctx, sctx context.Context, msg jetstream.Msg, meta *jetstream.MsgMetadata, job Job) error {
	st := w.cfg.Store
	if j, err := st.Judging(sctx, job.Submission, job.Request); err == nil {
		// graded before, the ack lost: make sure the submission says so
		if err := st.finish(sctx, j); err != nil {
			return err
		}
		return msg.DoubleAck(sctx)
	} else if !errors.Is(err, jetstream.ErrKeyNotFound) {
		return err
	}
	if _, err := st.Submission(sctx, job.Submission); errors.Is(err, jetstream.ErrKeyNotFound) {
		return msg.TermWithReason("no such submission")
	}
	attempt := Attempt{Worker: w.cfg.Name, Delivery: meta.NumDelivered, StartedAt: time.Now().UTC()}
	prog, err := st.startAttempt(sctx, job, attempt)
	if err != nil {
		return err
	}
	if failed := prog.failures(attempt); len(failed) >= maxTries {
		return w.giveUp(sctx, msg, job, failed)
	}
	if meta.NumDelivered >= MaxDeliver {
		// earlier tries were handed back: a fresh message, a fresh count
		if _, err := st.publishJob(sctx, job, fmt.Sprintf("%s-%d", jobMsgID(job.Submission, job.Request), meta.Sequence.Stream)); err != nil {
			return err
		}
		st.endAttempt(sctx, job, attempt, OutcomeHandedBack, "republished after the last delivery")
		return msg.Ack()
	}
	p, err := w.cfg.Library.ByHash(sctx, job.Problem, job.ProblemHash)
	var nop *errNoProblem
	if errors.As(err, &nop) {
		w.log.Printf("worker %s: refusing %s: %v", w.cfg.Name, job.Submission, err)
		st.endAttempt(sctx, job, attempt, OutcomeRefused, err.Error())
		return msg.NakWithDelay(time.Second)
	}
	if err != nil {
		return err
	}
	return w.grade(ctx, sctx, msg, job, attempt, p)
}

// grade grades the job, keeping the message alive, and stores the judging.
func (w *Worker) grade(ctx, sctx context.Context, msg jetstream.Msg, job Job, attempt Attempt, p *Problem) error {
	st := w.cfg.Store
	failed := func(err error) error {
		st.endAttempt(sctx, job, attempt, OutcomeFailed, err.Error())
		return err
	}
	if err := st.markRunning(sctx, job, w.cfg.Name); err != nil {
		return failed(err)
	}
	src, err := w.fetchSource(sctx, job)
	if err != nil {
		return failed(err)
	}
	defer os.RemoveAll(filepath.Dir(src.Path))
	// the grading goes on for Grace after a stop, and ends with a crash
	gctx, cancel := context.WithCancel(sctx)
	defer cancel()
	stopGrace := context.AfterFunc(ctx, func() {
		t := time.AfterFunc(w.cfg.Grace, cancel)
		context.AfterFunc(gctx, func() { t.Stop() })
	})
	defer stopGrace()
	alive := keepAlive(gctx, msg, st.ackWait/3)
	defer alive()
	pw := newProgressWriter(sctx, st, job)
	graded, gerr := w.cfg.Engine.Grade(gctx, p.Problem, src, pw.add)
	pw.close()
	switch {
	case sctx.Err() != nil:
		return nil // crashed: nothing more
	case gerr != nil && gctx.Err() != nil:
		st.endAttempt(sctx, job, attempt, OutcomeHandedBack, "the worker is stopping")
		return msg.Nak()
	case gerr != nil:
		st.endAttempt(sctx, job, attempt, OutcomeFailed, gerr.Error())
		return msg.NakWithDelay(time.Second)
	}
	j, err := st.storeJudging(sctx, job, attempt, graded.Report, "", graded.Cached, failureOf(p, graded.Report))
	if err != nil {
		return failed(err)
	}
	st.endAttempt(sctx, job, attempt, OutcomeDone, "")
	w.log.Printf("worker %s: %s request %d: %s", w.cfg.Name, job.Submission, job.Request, j.Verdict)
	return msg.DoubleAck(sctx)
}

// keepAlive tells JetStream every so often that the job is in progress.
func keepAlive(ctx context.Context, msg jetstream.Msg, every time.Duration) (stop func()) {
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
				msg.InProgress()
			}
		}
	}()
	return func() { cancel(); <-done }
}

// fetchSource writes the job's source into a fresh directory, under the
// contestant's file name when it is a plain one (filenameRE: no directory,
// no leading dot or dash), else under a name of the service's choosing.
func (w *Worker) fetchSource(ctx context.Context, job Job) (Source, error) {
	if !hashRE.MatchString(job.Source) {
		return Source{}, fmt.Errorf("bad source hash %q", job.Source)
	}
	data, err := w.cfg.Store.sources.GetBytes(ctx, job.Source)
	if err != nil {
		return Source{}, fmt.Errorf("source %.12s: %w", job.Source, err)
	}
	dir, err := os.MkdirTemp(w.cfg.TempDir, "optjudge-src-")
	if err != nil {
		return Source{}, err
	}
	// the contestant's name, checked at submission (a Java class must be
	// in its file); else one made of its ending
	name := job.Filename
	if !filenameRE.MatchString(name) {
		ext := strings.ToLower(filepath.Ext(job.Filename))
		if !filenameRE.MatchString("x" + ext) {
			ext = ""
		}
		name = "submission" + ext
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		os.RemoveAll(dir)
		return Source{}, err
	}
	return Source{Path: path, Filename: job.Filename, Language: job.Language, SHA256: job.Source}, nil
}

// giveUp ends a job whose tries all failed as a JE judging that lists them.
func (w *Worker) giveUp(ctx context.Context, msg jetstream.Msg, job Job, failed []Attempt) error {
	var reasons []string
	for _, a := range failed {
		why := a.Reason
		if a.Outcome == "" {
			why = "the worker stopped without a result (killed, or cut off from NATS)"
		}
		reasons = append(reasons, fmt.Sprintf("try %d on %s at %s: %s", a.Delivery, a.Worker, a.StartedAt.Format(time.RFC3339), why))
	}
	msgText := fmt.Sprintf("not graded after %d tries: %s", len(failed), strings.Join(reasons, "; "))
	r := &judge.Report{
		Problem: job.Problem, Submission: job.Filename, Language: job.Language, Verdict: verdict.JE,
		Warning: msgText,
		Tests:   []judge.TestResult{},
		Summary: judge.Summary{Verdict: verdict.JE, Counts: map[string]int{verdict.JE.String(): 1}},
	}
	attempt := Attempt{Worker: w.cfg.Name, StartedAt: time.Now().UTC()}
	if _, err := w.cfg.Store.storeJudging(ctx, job, attempt, r, msgText, false, nil); err != nil {
		return err
	}
	w.log.Printf("worker %s: %s request %d: JE, %s", w.cfg.Name, job.Submission, job.Request, msgText)
	return msg.DoubleAck(ctx)
}
