package service

import (
	"time"

	"github.com/optjudge/optjudge/judge"
	"github.com/optjudge/optjudge/reference/puzzle/judging"
	"github.com/optjudge/optjudge/verdict"
)

// States of a submission.
const (
	StateQueued  = "queued"
	StateRunning = "running"
	StateDone    = "done"
)

// Submission is a submission's record in the judge-submissions bucket.
// Request counts the gradings asked for (1, then one more per rejudge); the
// submission is done when the judging of its latest request is stored.
type Submission struct {
	ID          string    `json:"id"`
	Problem     string    `json:"problem"`
	ProblemHash string    `json:"problem_hash"` // of the latest request
	User        string    `json:"user"`
	Language    string    `json:"language"`
	Filename    string    `json:"filename"`
	Source      string    `json:"source_sha256"`
	Size        int       `json:"size"`
	CreatedAt   time.Time `json:"created_at"`
	Request     int       `json:"request"`
	QueuedAt    time.Time `json:"queued_at"` // when the latest request was queued
	State       string    `json:"state"`
	// Publishing says that the latest request's job is not known to be
	// queued: set with the request, cleared once its message is
	// published (or a worker takes it). The sweeper withdraws a request
	// still publishing that has no message and no attempt (see lifecycle).
	Publishing bool            `json:"publishing,omitempty"`
	Worker     string          `json:"worker,omitempty"` // while running
	Verdict    verdict.Verdict `json:"verdict,omitempty"`
	// Judgings are the finished judgings, oldest first.
	Judgings []JudgingRef `json:"judgings"`
	// Rejudging and RejudgeOf make the record a rejudging's run: it grades
	// submission RejudgeOf again for rejudging Rejudging (rejudging.go).
	Rejudging string `json:"rejudging,omitempty"`
	RejudgeOf string `json:"rejudge_of,omitempty"`
}

// JudgingRef is a finished judging as the submission lists it.
type JudgingRef struct {
	Request    int             `json:"request"`
	Verdict    verdict.Verdict `json:"verdict"`
	Worker     string          `json:"worker"`
	StartedAt  time.Time       `json:"started_at"`
	FinishedAt time.Time       `json:"finished_at"`
	Message    string          `json:"message,omitempty"` // why a JE judging is one
	// Score is a scoring problem's score of the judging (and MaxScore its
	// best, when bounded); nil for a pass-fail problem.
	Score    *float64 `json:"score,omitempty"`
	MaxScore *float64 `json:"max_score,omitempty"`
}

// Judging is one finished grading of one request, in judge-judgings.
type Judging struct {
	JudgingRef
	Submission  string `json:"submission"`
	ProblemHash string `json:"problem_hash"`
	Report      string `json:"report"` // object name in judge-reports
	// Failure is the object in judge-reports with the first failing
	// test's Failure; "" when it has none.
	Failure string `json:"failure,omitempty"`
	Cached  bool   `json:"cached"` // the build came from the executable cache
	// Samples are the names of the report's tests that are sample tests:
	// shown whole to contestants (see Feedback); the others are secret.
	Samples []string `json:"samples,omitempty"`
}

// Job is the message a worker gets: one grading request.
type Job struct {
	Submission  string    `json:"submission"`
	Request     int       `json:"request"`
	Problem     string    `json:"problem"`
	ProblemHash string    `json:"problem_hash"`
	Language    string    `json:"language"`
	Filename    string    `json:"filename"`
	Source      string    `json:"source_sha256"`
	QueuedAt    time.Time `json:"queued_at"`
}

// Progress is the grading of a submission's current request as it goes, in
// judge-progress: every attempt (delivery) and the tests finished by the
// last one.
type Progress struct {
	Submission string          `json:"submission"`
	Request    int             `json:"request"`
	Attempts   []Attempt       `json:"attempts"`
	Tests      []TestBrief     `json:"tests"`
	Verdict    verdict.Verdict `json:"verdict,omitempty"`
}

// Attempt is one delivery of a job to a worker. Outcome is empty while the
// worker grades; an attempt whose worker died keeps it empty.
type Attempt struct {
	Worker    string    `json:"worker"`
	Delivery  uint64    `json:"delivery"`
	StartedAt time.Time `json:"started_at"`
	Outcome   string    `json:"outcome,omitempty"`
	Reason    string    `json:"reason,omitempty"`
}

// Outcomes of an attempt.
const (
	OutcomeDone       = "done"
	OutcomeHandedBack = "handed back"
	OutcomeRefused    = "refused"
	OutcomeFailed     = "failed"
	// OutcomeDiscarded is a try that finished after another had stored
	// the request's judging: its result was dropped.
	OutcomeDiscarded = "discarded"
)

// TestBrief is one finished test, for progress and events. Sample says
// whether it is a sample test, shown whole to contestants; a secret test's
// message is cut as Feedback says.
type TestBrief struct {
	Name      string          `json:"name"`
	Verdict   verdict.Verdict `json:"verdict"`
	TimeMS    int64           `json:"time_ms"`
	WallMS    int64           `json:"wall_ms"`
	MemoryKiB int64           `json:"memory_kib"`
	ExitCode  int             `json:"exit_code"`
	Signal    string          `json:"signal,omitempty"`
	Message   string          `json:"message"`
	// Limit and Finding are the facts the message is rendered from: the
	// limit the run broke, a puzzle checker's finding (see
	// judge.TestResult); absent when there are none.
	Limit   *judge.Broken    `json:"limit,omitempty"`
	Finding *judging.Finding `json:"finding,omitempty"`
	Sample  bool             `json:"sample"`
}

func brief(t judge.TestResult, sample bool) TestBrief {
	return TestBrief{Name: t.Name, Verdict: t.Verdict, TimeMS: t.TimeMS, WallMS: t.WallMS,
		MemoryKiB: t.MemoryKiB, ExitCode: t.ExitCode, Signal: t.Signal, Message: t.Message,
		Limit: t.Limit, Finding: t.Finding, Sample: sample}
}

// WorkerInfo is a worker's heartbeat in judge-workers.
type WorkerInfo struct {
	Name       string    `json:"name"`
	Host       string    `json:"host"`
	State      string    `json:"state"` // idle, grading, stopping
	Submission string    `json:"submission,omitempty"`
	Since      time.Time `json:"since"`
	Heartbeat  time.Time `json:"last_heartbeat"`
	Graded     int       `json:"graded"`
	// Languages are the languages its engine can build and run here
	// (their compilers installed); nil: not told (all of its table).
	Languages []string `json:"languages,omitempty"`
}

// Rejudge is a rejudge of a problem's finished submissions.
type Rejudge struct {
	ID          string        `json:"id"`
	Problem     string        `json:"problem"`
	ProblemHash string        `json:"problem_hash"`
	By          string        `json:"by"`
	CreatedAt   time.Time     `json:"created_at"`
	Items       []RejudgeItem `json:"items"`
}

// RejudgeItem is one submission a rejudge queued.
type RejudgeItem struct {
	Submission string          `json:"submission"`
	Request    int             `json:"request"`
	Before     verdict.Verdict `json:"before"`
}

// UploadedProblem is the current uploaded version of a problem.
type UploadedProblem struct {
	Name       string    `json:"name"`
	Hash       string    `json:"hash"`
	Title      string    `json:"title"`
	Size       int64     `json:"size"`
	By         string    `json:"by"`
	UploadedAt time.Time `json:"uploaded_at"`
}
