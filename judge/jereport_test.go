package judge

import (
	"encoding/json"
	"testing"

	"github.com/optjudge/optjudge/problems"
	"github.com/optjudge/optjudge/verdict"
)

// TestJEReport: a report of a grading that never ran has one verdict
// everywhere, the limits that would have applied, and says why in
// score.message, not in warning (weak containment's).
func TestJEReport(t *testing.T) {
	t.Parallel()
	p, err := problems.LoadEmbedded("clocks")
	if err != nil {
		t.Fatal(err)
	}
	tests, _ := p.Package.Tests()
	r := JEReport(p, GradeOptions{}, "not graded after 3 tries")
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Problem, Verdict, Warning string
		JudgeError                string `json:"judge_error"`
		Limits                    map[string]int64
		Tests                     []any
		Summary                   struct {
			Verdict string
			Tests   int
			Counts  map[string]int
		}
		Score struct{ Verdict, Message string }
	}
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	want := GradeOptions{}
	lim := want.limits(p)
	switch {
	case got.Problem != "clocks" || got.Verdict != "JE" || got.Score.Verdict != "JE" || got.Summary.Verdict != "JE":
		t.Errorf("got problem %q, verdicts %s, %s (score), %s (summary); want clocks and JE everywhere", got.Problem, got.Verdict, got.Score.Verdict, got.Summary.Verdict)
	case got.JudgeError != "not graded after 3 tries" || got.Score.Message != got.JudgeError || got.Warning != "":
		t.Errorf("got judge_error %q, score.message %q and warning %q; want the reason in judge_error and score.message, no warning", got.JudgeError, got.Score.Message, got.Warning)
	case got.Limits["time_ms"] != lim.TimeMS || got.Limits["wall_ms"] != lim.WallMS || got.Limits["memory_kib"] != lim.MemoryKiB || lim.TimeMS == 0:
		t.Errorf("limits: got %v, want the problem's %+v", got.Limits, lim)
	case got.Tests == nil || len(got.Tests) != 0 || got.Summary.Tests != len(tests) || got.Summary.Counts["JE"] != 1:
		t.Errorf("got tests %v, summary %+v; want [], %d tests, one JE", got.Tests, got.Summary, len(tests))
	}
	if r := JEReport(nil, GradeOptions{}, "why"); r.Verdict != verdict.JE || r.Score.Verdict != verdict.JE || r.Score.Message != "why" || r.Limits.TimeMS != 0 {
		t.Errorf("without the problem: got %+v", r)
	}
}
