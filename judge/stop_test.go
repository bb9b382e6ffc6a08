package judge

import (
	"fmt"
	"testing"

	"github.com/optjudge/optjudge/verdict"
)

// TestStopper: the grading ends at the first test, in test order, whose
// verdict stop names, whatever order the verdicts come in; cut drops the
// results after it.
func TestStopper(t *testing.T) {
	t.Parallel()
	wa := func(_ int, v verdict.Verdict) bool { return v == verdict.WA }
	for _, tt := range []struct {
		stop  func(int, verdict.Verdict) bool
		order []int // the tests in the order they end; 1, 3 and 4 are WA
		ends  []bool
		kept  int // results kept by cut
	}{
		{wa, []int{0, 1, 2, 3, 4}, []bool{false, true, false, false, false}, 2},
		{wa, []int{3, 2, 4, 1, 0}, []bool{true, false, false, true, false}, 2},
		{wa, []int{4, 3, 0}, []bool{true, true, false}, 4},
		{wa, []int{0, 2}, []bool{false, false}, 5},
		{nil, []int{0, 1, 2, 3, 4}, []bool{false, false, false, false, false}, 5},
	} {
		t.Run(fmt.Sprint(tt.order, tt.stop != nil), func(t *testing.T) {
			s := stopper{stop: tt.stop}
			results := make([]*TestResult, 5)
			for k, i := range tt.order {
				v := verdict.AC
				if i == 1 || i == 3 || i == 4 {
					v = verdict.WA
				}
				results[i] = &TestResult{Index: i, Verdict: v}
				if got := s.ends(i, v); got != tt.ends[k] {
					t.Errorf("test %d (%v): ends %v, want %v", i, v, got, tt.ends[k])
				}
			}
			s.cut(results)
			for i, r := range results {
				if r != nil && i >= tt.kept {
					t.Errorf("test %d kept, want the results up to %d", i, tt.kept-1)
				}
			}
		})
	}
}
