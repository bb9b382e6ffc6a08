package service

import (
	"context"
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// metrics are the server's Prometheus metrics, in a registry of its own:
//
//	judge_submissions{state}          gauge, submissions by state
//	judge_verdicts{verdict}           gauge, finished submissions by verdict
//	judge_grading_seconds             histogram, judgings' start to finish
//	judge_queue_wait_seconds          histogram, queued to started
//	judge_workers{state}              gauge, workers with a heartbeat
//	judge_queue_oldest_seconds        gauge, age of the oldest queued request
type metrics struct {
	s         *Server
	reg       *prometheus.Registry
	grading   prometheus.Histogram
	queueWait prometheus.Histogram
}

var (
	descSubmissions = prometheus.NewDesc("judge_submissions", "Submissions by state.", []string{"state"}, nil)
	descVerdicts    = prometheus.NewDesc("judge_verdicts", "Finished submissions by the verdict of their latest judging.", []string{"verdict"}, nil)
	descWorkers     = prometheus.NewDesc("judge_workers", "Workers with a live heartbeat, by state.", []string{"state"}, nil)
	descOldest      = prometheus.NewDesc("judge_queue_oldest_seconds", "Age of the oldest queued grading request.", nil, nil)
)

func newMetrics(s *Server) *metrics {
	m := &metrics{s: s, reg: prometheus.NewRegistry()}
	buckets := prometheus.ExponentialBuckets(0.01, 2, 16) // 10 ms to 5 min
	m.grading = prometheus.NewHistogram(prometheus.HistogramOpts{Name: "judge_grading_seconds",
		Help: "Time from a judging's start to its end.", Buckets: buckets})
	m.queueWait = prometheus.NewHistogram(prometheus.HistogramOpts{Name: "judge_queue_wait_seconds",
		Help: "Time from a grading request's queueing to its judging's start.", Buckets: buckets})
	m.reg.MustRegister(m, m.grading, m.queueWait, prometheus.NewGoCollector())
	return m
}

func (m *metrics) handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{Registry: m.reg})
}

// observe is told each live change of a submission: a new judging adds
// its durations.
func (m *metrics) observe(old, sub *Submission) {
	n := len(sub.Judgings)
	if n == 0 || (old != nil && len(old.Judgings) == n) {
		return
	}
	j := sub.Judgings[n-1]
	if j.FinishedAt.After(j.StartedAt) {
		m.grading.Observe(j.FinishedAt.Sub(j.StartedAt).Seconds())
	}
	if j.StartedAt.After(sub.QueuedAt) {
		m.queueWait.Observe(j.StartedAt.Sub(sub.QueuedAt).Seconds())
	}
}

func (m *metrics) Describe(ch chan<- *prometheus.Desc) {
	ch <- descSubmissions
	ch <- descVerdicts
	ch <- descWorkers
	ch <- descOldest
}

func (m *metrics) Collect(ch chan<- prometheus.Metric) {
	c := m.s.view.counts()
	for st, n := range c.State {
		ch <- prometheus.MustNewConstMetric(descSubmissions, prometheus.GaugeValue, float64(n), st)
	}
	for v, n := range c.Verdict {
		ch <- prometheus.MustNewConstMetric(descVerdicts, prometheus.GaugeValue, float64(n), v.String())
	}
	oldest := 0.0
	if !c.OldestQueue.IsZero() {
		oldest = time.Since(c.OldestQueue).Seconds()
	}
	ch <- prometheus.MustNewConstMetric(descOldest, prometheus.GaugeValue, oldest)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	ws, err := m.s.cfg.Store.liveWorkers(ctx)
	if err != nil {
		// no count rather than a wrong one
		m.s.log.Printf("metrics: the workers: %v", err)
		return
	}
	byState := map[string]int{"idle": 0, "grading": 0}
	for _, w := range ws {
		byState[w.State]++
	}
	for st, n := range byState {
		ch <- prometheus.MustNewConstMetric(descWorkers, prometheus.GaugeValue, float64(n), st)
	}
}

// QueueView is GET /api/v1/queue.
type QueueView struct {
	Queued        int          `json:"queued"`
	Running       int          `json:"running"`
	OldestQueued  string       `json:"oldest_queued,omitempty"` // submission id
	OldestAgeMS   int64        `json:"oldest_age_ms"`
	StreamPending uint64       `json:"stream_pending"` // job messages in the stream
	Workers       []WorkerInfo `json:"workers"`
}

func (s *Server) handleQueue(w http.ResponseWriter, r *http.Request) {
	q, err := s.queueView(r.Context())
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, q)
}

func (s *Server) queueView(ctx context.Context) (*QueueView, error) {
	if err := s.view.check(); err != nil {
		return nil, err
	}
	c := s.view.counts()
	q := &QueueView{Queued: c.State[StateQueued], Running: c.State[StateRunning], OldestQueued: c.OldestID}
	if !c.OldestQueue.IsZero() {
		q.OldestAgeMS = time.Since(c.OldestQueue).Milliseconds()
	}
	info, err := s.cfg.Store.Jobs.Info(ctx)
	if err != nil {
		return nil, err
	}
	q.StreamPending = info.State.Msgs
	if q.Workers, err = s.cfg.Store.liveWorkers(ctx); err != nil {
		return nil, err
	}
	return q, nil
}
