package judge

import (
	"github.com/optjudge/optjudge/problems"
	"github.com/optjudge/optjudge/verdict"
)

// JEReport is the report of a grading the judge could not do at all (no
// test ran: the grading service gave up on a job whose tries all
// failed), in the report's one shape: the verdict JE, the score's verdict
// JE too, the limits the grading would have run under (those of p under
// o, as Prepared.Grade sets them), no test, a summary that counts the
// one JE as a CE report counts its CE, and the reason in JudgeError (and
// in score.message, where every report says why its verdict is not AC). p may be nil when
// the problem is not at hand (no worker has its version): then Problem is
// "" and the limits are zero, for the caller to say what it knows.
// Submission, Language and Isolation are the caller's, as after Grade.
func JEReport(p *problems.Problem, o GradeOptions, reason string) *Report {
	r := &Report{Verdict: verdict.JE, Tests: []TestResult{}}
	total := len(o.Tests)
	if p != nil {
		r.Problem, r.Limits, r.Score = p.Name, o.limits(p), noScore(p, verdict.JE)
		if tests, err := p.Package.Tests(); err == nil && o.Tests == nil {
			total = len(tests)
		}
	} else {
		r.Score = Score{Verdict: verdict.JE}
	}
	r.JudgeError, r.Score.Message = reason, reason
	r.Summary = summarize(nil, total, verdict.JE)
	r.Summary.Counts[verdict.JE.String()] = 1
	return r
}
