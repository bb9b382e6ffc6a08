package judge

import "github.com/optjudge/optjudge/verdict"

// stopper is the policy of GradeOptions.Stop: the grading ends at the first
// test, in test order, whose verdict stop says no later test can mend. The
// tests after it are skipped, or cancelled while they run, and those that
// finished before it did are dropped (cut), so the results are those up to
// it however many tests ran at once. The zero value never stops.
type stopper struct {
	stop    func(i int, v verdict.Verdict) bool // nil: never; set before the grading
	stopped bool
	at      int // the test the grading ends at, once stopped
}

// ends takes test i's verdict v, and says whether the grading now ends at
// it: an earlier test than any it ended at so far.
func (s *stopper) ends(i int, v verdict.Verdict) bool {
	if s.stop == nil || s.stopped && i >= s.at || !s.stop(i, v) {
		return false
	}
	s.stopped, s.at = true, i
	return true
}

// cut drops the results of the tests after the one the grading ended at.
func (s *stopper) cut(results []*TestResult) {
	if s.stopped {
		clear(results[s.at+1:])
	}
}
