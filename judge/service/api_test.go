package service

import (
	"net/http"
	"testing"
	"time"
)

func TestSubmitAndGrade(t *testing.T) {
	e := newEnv(t, envOpts{})
	e.startWorker("w1", newEngine(t, false))
	ac := e.submit("clocks", "ac.py", readFile(t, "clocks_ac.py"))
	wa := e.submit("clocks", "wa.py", readFile(t, "wa.py"))
	re := e.submit("eight-puzzle", "re.py", readFile(t, "re.py"))
	got := e.waitDone(2*time.Minute, ac, wa, re)
	checkOnce(t, got, map[string]string{ac: "AC", wa: "WA", re: "RE"}, 1)
	if r := got[ac].Report; r == nil || len(r.Tests) == 0 || r.Verdict != "AC" {
		t.Errorf("AC report: got %+v", r)
	}
	var list struct{ Submissions []SubmissionView }
	if code := e.do("GET", "/api/v1/submissions?problem=clocks", nil, nil, &list); code != http.StatusOK {
		t.Fatalf("list: got %d", code)
	}
	if len(list.Submissions) != 2 || list.Submissions[0].ID != wa || list.Submissions[1].ID != ac {
		t.Errorf("list of clocks: got %+v, want wa then ac", list.Submissions)
	}
}
