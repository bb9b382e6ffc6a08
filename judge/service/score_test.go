package service

import (
	"strings"
	"testing"
)

// TestScoreShown: a scoring submission's score is on its page and in the
// list, beside its verdict (a 50/100 AC is not a plain AC).
func TestScoreShown(t *testing.T) {
	half, full := 50.0, 100.0
	sub := &Submission{ID: "x", State: StateDone, Verdict: "AC", Judgings: []JudgingRef{{Request: 1, Verdict: "AC", Score: &half, MaxScore: &full}}}
	v := viewOf(sub)
	if v.Score == nil || *v.Score != 50 || v.MaxScore == nil || *v.MaxScore != 100 {
		t.Fatalf("the view: got score %v of %v, want 50 of 100", v.Score, v.MaxScore)
	}
	p := newPages(&Server{cfg: ServerConfig{}})
	for _, page := range []string{"list", "submission"} {
		var b strings.Builder
		if err := p.templates[page].ExecuteTemplate(&b, "status", v); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(b.String(), `<span class="score" title="score">50 / 100</span>`) {
			t.Errorf("%s: got %s, want the score 50 / 100", page, b.String())
		}
	}
}
