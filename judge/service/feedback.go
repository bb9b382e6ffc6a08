package service

import (
	"encoding/json"
	"fmt"

	"github.com/optjudge/optjudge/judge"
	"github.com/optjudge/optjudge/judge/verdict"
)

// Feedback says what a contestant sees of the secret tests (those not in
// the sample group), in the report, the test events, the pages and the
// first failing test's Failure (judge serve --feedback). Whatever it says,
// a contestant never sees what the program wrote to stderr on a secret
// test, its output nor the test's input: a program could write its input
// there and so read the secret tests. A sample test, whose input and
// answer the statement shows anyway, is shown whole; an admin sees
// everything.
type Feedback int

const (
	// FeedbackMessage (the default) shows a secret test's verdict, times,
	// memory, exit code and message: the checker's for AC and WA, the
	// limit for TLE, MLE and OLE, the exit code or signal for RE (never
	// the first line of stderr the engine adds), none for JE; and for the
	// first failing test the drawing of the position where the answer
	// went wrong (without the reference's answer). A checker's message may
	// quote the program's output: use FeedbackVerdict where nothing of the
	// tests may leak.
	FeedbackMessage Feedback = iota
	// FeedbackVerdict shows a secret test's verdict, times, memory and
	// exit code only: no message, no drawing. For contests.
	FeedbackVerdict
)

func (f Feedback) String() string {
	if f == FeedbackVerdict {
		return "verdict"
	}
	return "message"
}

// ParseFeedback reads a --feedback value: message or verdict.
func ParseFeedback(s string) (Feedback, error) {
	switch s {
	case "message":
		return FeedbackMessage, nil
	case "verdict":
		return FeedbackVerdict, nil
	}
	return 0, fmt.Errorf("want message or verdict, got %q", s)
}

// message is what a contestant sees of a secret test's message.
func (f Feedback) message(v verdict.Verdict, msg string, exitCode int, signal string) string {
	if f == FeedbackVerdict {
		return ""
	}
	switch v {
	case verdict.AC, verdict.WA, verdict.TLE, verdict.MLE, verdict.OLE:
		return msg // the checker's, or the limit the run broke
	case verdict.RE:
		// the engine's message ends with the first line of stderr
		if signal != "" {
			return "killed by " + signal
		}
		return fmt.Sprintf("exit code %d", exitCode)
	}
	return ""
}

// test is a secret test's result as a contestant sees it.
func (f Feedback) test(t judge.TestResult) judge.TestResult {
	t.Message = f.message(t.Verdict, t.Message, t.ExitCode, t.Signal)
	t.Stderr, t.Dir, t.Output = "", "", nil
	return t
}

// brief is a finished test of the progress as a contestant sees it.
func (f Feedback) brief(b TestBrief) TestBrief {
	if b.Sample {
		return b
	}
	v, err := verdict.Parse(b.Verdict)
	if err != nil {
		v = verdict.Unknown
	}
	b.Message = f.message(v, b.Message, b.ExitCode, b.Signal)
	return b
}

// report is a stored report (the `judge run --json` schema) as a
// contestant sees it: the same keys, the secret tests cut as f says.
// samples are the names of the report's sample tests.
func (f Feedback) report(raw json.RawMessage, samples []string) (json.RawMessage, error) {
	var r judge.Report
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, fmt.Errorf("reading the report: %w", err)
	}
	sample := map[string]bool{}
	for _, s := range samples {
		sample[s] = true
	}
	for i, t := range r.Tests {
		if !sample[t.Name] {
			r.Tests[i] = f.test(t)
		}
	}
	return json.Marshal(r)
}

// briefFor is a finished test as u sees it (an admin: all of it).
func (s *Server) briefFor(u *User, b TestBrief) TestBrief {
	if u.Admin() {
		return b
	}
	return s.cfg.Feedback.brief(b)
}
