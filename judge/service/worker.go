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
	"github.com/optjudge/optjudge/judge/service/store"
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
	cfg  WorkerConfig
	log  *log.Logger
	life *lifecycle

	mu       sync.Mutex
	info     WorkerInfo
	stopping bool
	beatNow  chan struct{}      // a heartbeat at once: the state changed
	crash    context.CancelFunc // for tests: stop as if killed
	crashd   bool
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
	w := &Worker{cfg: cfg, log: l, beatNow: make(chan struct{}, 1),
		info: WorkerInfo{Name: cfg.Name, Host: cfg.Host, State: "idle", Since: time.Now(), Languages: runnable(cfg.Engine)}}
	w.life = &lifecycle{st: cfg.Store, log: l, who: "worker " + cfg.Name, lib: cfg.Library, stored: w.countGraded}
	if cfg.Engine != nil {
		w.life.isolation = cfg.Engine.Isolation()
	}
	return w
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
	stopping := context.AfterFunc(ctx, func() {
		w.mu.Lock()
		w.stopping, w.info.State = true, "stopping"
		w.mu.Unlock()
		select {
		case w.beatNow <- struct{}{}:
		default:
		}
	})
	defer stopping()
	defer func() {
		stopBeat()
		<-beat
		if !w.crashed() {
			if err := w.cfg.Store.Workers.Delete(context.Background(), w.cfg.Name); err != nil {
				w.log.Printf("worker %s: removing its heartbeat: %v (it expires)", w.cfg.Name, err)
			}
		}
	}()
	var cons jetstream.Consumer
	for ctx.Err() == nil && crashCtx.Err() == nil {
		if cons == nil {
			c, err := w.cfg.Store.Jobs.Consumer(ctx, store.GradersConsumer)
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
				w.nak(msg, 0) // stopping: someone else takes it now
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

// setState says what the worker does; a stopping worker stays stopping.
func (w *Worker) setState(state, submission string) {
	w.mu.Lock()
	if w.stopping {
		state = "stopping"
	}
	w.info.State, w.info.Submission, w.info.Since = state, submission, time.Now()
	w.mu.Unlock()
}

// countGraded counts a judging this worker stored.
func (w *Worker) countGraded() {
	w.mu.Lock()
	w.info.Graded++
	w.mu.Unlock()
}

// heartbeat writes the worker's WorkerInfo every store.WorkerTTL/6.
func (w *Worker) heartbeat(ctx context.Context) {
	t := time.NewTicker(store.WorkerTTL / 6)
	defer t.Stop()
	failing := false // the last write failed: logged once per streak
	for {
		if w.crashed() {
			return
		}
		w.mu.Lock()
		w.info.Heartbeat = time.Now().UTC()
		info := w.info
		w.mu.Unlock()
		err := store.PutJSON(ctx, w.cfg.Store.Workers, w.cfg.Name, info)
		if err != nil && !failing && ctx.Err() == nil {
			w.log.Printf("worker %s: heartbeat: %v (the server counts it dead after %v without one)", w.cfg.Name, err, store.WorkerTTL)
		} else if err == nil && failing {
			w.log.Printf("worker %s: heartbeat written again", w.cfg.Name)
		}
		failing = err != nil
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		case <-w.beatNow:
		}
	}
}

// handle runs one delivery of a job.
func (w *Worker) handle(ctx, crashCtx context.Context, msg jetstream.Msg) {
	var job Job
	if err := json.Unmarshal(msg.Data(), &job); err != nil || job.Submission == "" || job.Request < 1 {
		w.log.Printf("worker %s: dropping a malformed job %q: %v", w.cfg.Name, msg.Data(), err)
		if err := msg.TermWithReason("malformed job"); err != nil {
			w.log.Printf("worker %s: terminating it: %v", w.cfg.Name, err)
		}
		return
	}
	meta, err := msg.Metadata()
	if err != nil {
		w.log.Printf("worker %s: a job without metadata: %v", w.cfg.Name, err)
		w.nak(msg, 0)
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
		w.nak(msg, time.Second)
	}
}

// nak hands a message back, after delay.
func (w *Worker) nak(msg jetstream.Msg, delay time.Duration) {
	var err error
	if delay > 0 {
		err = msg.NakWithDelay(delay)
	} else {
		err = msg.Nak()
	}
	if err != nil && !errors.Is(err, jetstream.ErrMsgAlreadyAckd) {
		w.log.Printf("worker %s: handing a job back: %v (JetStream redelivers it after store.AckWait)", w.cfg.Name, err)
	}
}

// run takes a delivery through its lifecycle: attempt, then the problem's
// version (refused without it), then grading. ctx ends when the worker is
// asked to stop; sctx when it crashes.
func (w *Worker) run(ctx, sctx context.Context, msg jetstream.Msg, meta *jetstream.MsgMetadata, job Job) error {
	at, err := w.life.attempt(sctx, msg, meta, job, w.cfg.Name)
	if at == nil || err != nil {
		return err
	}
	defer at.stop()
	p, err := w.cfg.Library.acquire(sctx, job.Problem, job.ProblemHash)
	var nop *errNoProblem
	if errors.As(err, &nop) {
		return at.refuse(sctx, err)
	}
	if err != nil {
		return at.fail(sctx, err)
	}
	defer w.cfg.Library.release(p)
	return w.grade(ctx, sctx, at, p)
}

// grade grades the attempt's job on p and finishes it.
func (w *Worker) grade(ctx, sctx context.Context, at *attempt, p *Problem) error {
	if err := at.running(sctx); err != nil {
		return at.fail(sctx, err)
	}
	src, err := w.fetchSource(sctx, at.job)
	if err != nil {
		return at.fail(sctx, err)
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
	samples := sampleNames(p.Problem)
	pw := newProgressWriter(sctx, w.cfg.Store, at.job, samples, w.log)
	graded, gerr := w.cfg.Engine.Grade(gctx, p.Problem, src, pw.add)
	pw.close()
	switch {
	case sctx.Err() != nil:
		return nil // crashed: nothing more
	case gerr != nil && gctx.Err() != nil:
		return at.handBack(sctx, "the worker is stopping")
	case errors.As(gerr, new(*judge.CannotBuildError)):
		// a compiler or tool of the problem's programs missing here:
		// another worker may have it; when none has, the job is JE
		// with this reason for the admins
		return at.refuse(sctx, fmt.Errorf("worker %s: %w", w.cfg.Name, gerr))
	case gerr != nil:
		return at.fail(sctx, gerr)
	}
	return at.finish(sctx, result{report: graded.Report, cached: graded.Cached, failure: failureOf(p, graded.Report),
		samples: samplesIn(graded.Report, samples)})
}

// fetchSource writes the job's source into a fresh directory, under the
// contestant's file name when it is a plain one (filenameRE: no directory,
// no leading dot or dash), else under a name of the service's choosing.
func (w *Worker) fetchSource(ctx context.Context, job Job) (Source, error) {
	if !hashRE.MatchString(job.Source) {
		return Source{}, fmt.Errorf("bad source hash %q", job.Source)
	}
	data, err := w.cfg.Store.Sources.GetBytes(ctx, job.Source)
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
