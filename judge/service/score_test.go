package service

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
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

// TestContestantsSeeNoHostOrSecretName: a contestant's view of a
// submission names no worker (a machine's name) and no secret test by
// the name its setter gave it; the admin's names both.
func TestContestantsSeeNoHostOrSecretName(t *testing.T) {
	e := newEnv(t, envOpts{tokens: pageTokens})
	e.startWorker("grader-on-host-zeta", scriptEngine{})
	e.token = pageTokens[0].Token
	id := e.submit("clocks", "sol.py", "long-secret") // the samples pass, a secret test fails
	e.token = pageTokens[2].Token
	admin := e.waitDone(2*time.Minute, id)[id]
	var secret []string
	for _, tc := range admin.Report.Tests {
		if !strings.HasPrefix(tc.Name, "sample") {
			secret = append(secret, tc.Name)
		}
	}
	if len(secret) == 0 || len(admin.Judgings) == 0 || admin.Judgings[0].Worker != "grader-on-host-zeta" {
		t.Fatalf("the admin's view: got tests %v and judgings %+v, want a secret test and the worker", admin.Report.Tests, admin.Judgings)
	}
	e.token = pageTokens[0].Token
	var raw map[string]any
	e.do("GET", "/api/v1/submissions/"+id, nil, nil, &raw)
	b, _ := json.Marshal(raw)
	for _, bad := range append(secret, "grader-on-host-zeta") {
		if strings.Contains(string(b), `"`+bad+`"`) {
			t.Errorf("the contestant's view names %q: %s", bad, b)
		}
	}
}
