package service

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/optjudge/optjudge/judge"
	"github.com/optjudge/optjudge/problems"
	"github.com/optjudge/optjudge/verdict"
)

// Feedback says what a contestant sees of the secret tests (those not in
// the sample group), wherever a submission reaches one: the API, the
// pages, the event streams and the lists (judge serve --feedback). A
// sample test, whose input and answer the statement shows anyway, is shown
// whole; an admin sees everything.
//
// Whatever it says, a contestant never sees a word of a secret test that
// came from the test's files, the program or the checker: not what the
// program wrote to stderr or stdout, not the checker's message (a checker
// may quote the answer, or the program's output, which may be the input:
// the default validator's "got X, want Y"), not a drawing of the test's
// position (it is the input), not the message of the grading that the
// deciding test's message becomes (score.message), not why a judging is
// JE (a checker's failure may quote its files). Only words the judge
// writes itself from the verdict and what it measured are shown, and
// under FeedbackVerdict none. Sight is where this is decided.
type Feedback int

const (
	// FeedbackMessage (the default) shows a secret test's verdict, times,
	// memory and exit code, and a message the judge writes from its
	// verdict: the limit for TLE, MLE and OLE ("CPU time over the 1s
	// limit"), the exit code or signal for RE ("exit code 1", "killed by
	// SIGSEGV"); none for AC, WA and JE (what a checker says is the
	// test's).
	FeedbackMessage Feedback = iota
	// FeedbackVerdict shows a secret test's verdict, times, memory and
	// exit code only: no message. For contests.
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

// message is what a contestant sees of a secret test's message: words of
// the judge's own, rendered from the facts of the test's result (its
// verdict, exit code and signal and the limit it broke: t.Limit); never
// a word of the program's, the checker's or the test's, and never the
// engine's message read back.
func (f Feedback) message(t judge.TestResult) string {
	if f == FeedbackVerdict {
		return ""
	}
	switch t.Verdict {
	case verdict.TLE, verdict.MLE, verdict.OLE:
		if t.Limit != nil {
			return t.Limit.Text()
		}
		return t.Verdict.Long()
	case verdict.RE:
		if t.Signal != "" {
			return "killed by " + t.Signal
		}
		return fmt.Sprintf("exit code %d", t.ExitCode)
	}
	return ""
}

// sight is what one user may see of the submissions it may read: an
// admin everything, a contestant the samples whole and of the secret
// tests what fb says. It is the one place that decides it: every route
// that shows a submission (the API, the pages, the event streams, the
// lists) shows it through a sight.
type sight struct {
	admin bool
	fb    Feedback
}

// sightOf is u's sight.
func (s *Server) sightOf(u *User) sight { return sight{admin: u.Admin(), fb: s.cfg.Feedback} }

// submission is a submission's record as the user sees it: a
// contestant is not told why a judging is JE.
func (v sight) submission(sub *Submission) SubmissionView {
	out := viewOf(sub)
	if v.admin {
		return out
	}
	out.Worker = "" // a machine's name is the jury's
	out.Judgings = make([]JudgingRef, len(sub.Judgings))
	for i, j := range sub.Judgings {
		j.Message, j.Worker = "", ""
		out.Judgings[i] = j
	}
	return out
}

// test is one test's result as the user sees it.
func (v sight) test(t judge.TestResult, sample bool) judge.TestResult {
	if v.admin || sample {
		return t
	}
	t.Message = v.fb.message(t)
	// the checker's finding may quote the output or the answer
	t.Stderr, t.Dir, t.Output, t.Finding = "", "", nil, nil
	if v.fb == FeedbackVerdict {
		t.Limit = nil
	}
	t.Name = secretName(t.Name)
	return t
}

// brief is a finished test of the progress (a test event) as the user
// sees it: what test says of its result.
func (v sight) brief(b TestBrief) TestBrief {
	t := v.test(judge.TestResult{Name: b.Name, Verdict: b.Verdict, Message: b.Message, ExitCode: b.ExitCode, Signal: b.Signal,
		Limit: b.Limit, Finding: b.Finding}, b.Sample)
	b.Message, b.Name, b.Limit, b.Finding = t.Message, t.Name, t.Limit, t.Finding
	return b
}

// report is a stored report (the `judge run --json` schema) as the user
// sees it: the same keys, every test as test says, and the grading's
// message (score.message) as the user sees its test (score.test), or
// none when it is the grading's own. samples are the names of the
// report's sample tests.
func (v sight) report(raw json.RawMessage, samples []string) (json.RawMessage, error) {
	if v.admin {
		return raw, nil
	}
	var r judge.Report
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, fmt.Errorf("reading the report: %w", err)
	}
	sample := map[string]bool{}
	for _, s := range samples {
		sample[s] = true
	}
	deciding := -1
	for i, t := range r.Tests {
		if r.Score.Test != "" && t.Name == r.Score.Test {
			deciding = i
		}
		r.Tests[i] = v.test(t, sample[t.Name])
	}
	r.JudgeError = ""
	had := r.Score.Message != ""
	r.Score.Message, r.Score.Grading = "", nil
	if had && deciding >= 0 {
		// the deciding test's message as the user sees that test
		r.Score.Message = r.Tests[deciding].Message
	}
	if deciding >= 0 {
		r.Score.Test = r.Tests[deciding].Name
	} else {
		r.Score.Test = ""
	}
	return json.Marshal(r)
}

// failure is a judging's first failing test as the user sees it, and the
// SVG of its drawing ("" for none): nil for a contestant's secret test,
// whose drawing is the test's input.
func (v sight) failure(f *Failure, id string) (*FailureView, string) {
	if !v.admin && !f.Sample {
		return nil, ""
	}
	fv := &FailureView{Test: f.Test, Verdict: verdict.WA, Message: f.Message,
		Input: &f.Input, Output: &f.Output, InputSize: f.InputSize, OutputSize: f.OutputSize}
	if f.Drawing != "" {
		fv.Drawing, fv.Description = "/api/v1/submissions/"+id+"/drawing.svg", f.Description
	}
	return fv, f.Drawing
}

// problemFile says whether the user may download the file name of a
// problem's package: its statements and their pictures, its attachments
// and its samples' files, which the contestants have by definition; never
// anything else of the package (a secret test, an answer, a validator, a
// jury's solution), admins included: theirs is the package itself.
func (v sight) problemFile(p *problems.Problem, name string) bool {
	if p.StatementPath(name) || slices.Contains(p.Package.Attachments(), name) {
		return true
	}
	for _, s := range p.Package.Samples() {
		if name == s.Input || name == s.Output || name == s.Interaction {
			return name != ""
		}
	}
	return false
}

// secretName is what a contestant sees of a secret test's name: a name a
// setter gave it may say what it tests ("secret/02-max-n-all-zero"), so
// it is "secret " and a short hash of it, the same wherever it is shown
// (the report, the events, the pages).
func secretName(name string) string {
	h := sha256.Sum256([]byte("optjudge secret test\x00" + name))
	return "secret " + hex.EncodeToString(h[:4])
}
