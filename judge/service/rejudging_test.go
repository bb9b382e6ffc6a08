package service

import (
	"encoding/json"
	"github.com/optjudge/optjudge/verdict"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// v1 sends a request of the API v1 as user (a contest account) and
// decodes the JSON answer into out.
func (ce *clicsEnv) v1(user, method, path string, body any, out any) int {
	ce.t.Helper()
	ce.token = ce.password(user)
	defer func() { ce.token = "" }()
	var r io.Reader
	if body != nil {
		r = jsonBody(body)
	}
	return ce.do(method, path, r, nil, out)
}

// rejudgingOf waits until rejudging id has no run pending and returns it.
func (ce *clicsEnv) rejudgingOf(id string) RejudgingView {
	ce.t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for {
		var v RejudgingView
		if code := ce.v1("jury", "GET", "/api/v1/rejudgings/"+id, nil, &v); code != http.StatusOK {
			ce.t.Fatalf("GET rejudging %s: %d", id, code)
		}
		if v.Pending == 0 {
			return v
		}
		if time.Now().After(deadline) {
			ce.t.Fatalf("rejudging %s: %d runs still pending after 2 minutes", id, v.Pending)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// judgements are the contest's judgements of a submission, as the API
// shows them to user, by id.
func (ce *clicsEnv) judgements(user, sub string) map[string]map[string]any {
	var js []map[string]any
	ce.as(user, "GET", "/api/contests/cup26/judgements?submission_id="+sub, nil, &js)
	out := map[string]map[string]any{}
	for _, j := range js {
		out[j["id"].(string)] = j
	}
	return out
}

// TestRejudgingPreview rejudges a selection with a preview: the runs'
// verdicts and the scoreboard they would make are shown while nothing
// changes (the submission, its judgements, the board, the feed); applying
// makes the new judgings the valid ones (the old judgement no longer
// current, the board moved, first to solve passed on, the feed telling
// it); a cancelled rejudging changes nothing; the event feed replayed
// gives the board after it all.
func TestRejudgingPreview(t *testing.T) {
	ce := newClicsEnv(t, true)
	flag := filepath.Join(t.TempDir(), "fixed")
	ce.clock.Set(ce.start.Add(10 * time.Minute))
	wa := ce.submitAs("team1", "clocks", "if-file:"+flag)
	ce.clock.Set(ce.start.Add(15 * time.Minute))
	ac2 := ce.submitAs("team2", "clocks", "ok")
	ce.clock.Set(ce.start.Add(20 * time.Minute))
	ac1 := ce.submitAs("team1", "clocks", "ok")
	ce.waitJudged(wa, ac1, ac2)
	before := "1:t2:1:0:15:00.000:0 2:t1:1:0:40:00.000:0 3:t3:0:0:00:00.000:0"
	if got := ce.board("jury"); got != before {
		t.Fatalf("the board: got %s, want %s", got, before)
	}
	if err := os.WriteFile(flag, nil, 0o644); err != nil {
		t.Fatal(err)
	}

	var bad map[string]any
	if code := ce.v1("jury", "POST", "/api/v1/rejudgings", map[string]any{}, &bad); code != http.StatusBadRequest {
		t.Errorf("a rejudging of nothing chosen: got %d %v, want 400", code, bad)
	}
	if code := ce.v1("team1", "POST", "/api/v1/rejudgings", map[string]any{"problem": "clocks"}, &bad); code != http.StatusForbidden {
		t.Errorf("a team's rejudging: got %d %v, want 403", code, bad)
	}
	var rj Rejudging
	if code := ce.v1("jury", "POST", "/api/v1/rejudgings", RejudgingRequest{Problem: "clocks", Team: "t1", Reason: "the checker was wrong"}, &rj); code != http.StatusCreated || len(rj.Items) != 2 {
		t.Fatalf("POST a rejudging of t1's clocks: got %d %+v, want 201 with 2 submissions", code, rj)
	}
	if code := ce.v1("jury", "POST", "/api/v1/rejudgings", RejudgingRequest{Submissions: []string{wa}}, &bad); code != http.StatusConflict {
		t.Errorf("a second rejudging of a submission in an open one: got %d %v, want 409", code, bad)
	}
	v := ce.rejudgingOf(rj.ID)
	if v.State != RejudgingOpen || v.Done != 2 || v.Changed != 1 {
		t.Errorf("the preview: got %+v, want open, 2 done, 1 changed", v)
	}
	for _, row := range v.Rows {
		want := map[string]string{wa: "WA>AC", ac1: "AC>AC"}[row.Submission]
		if got := row.Before.String() + ">" + row.After.String(); got != want || row.Team != "t1" {
			t.Errorf("the preview of %s: got %s of %q, want %s of t1", row.Submission, got, row.Team, want)
		}
	}
	gotBoard, _ := json.Marshal(v.Scoreboard)
	if len(v.Scoreboard) != 2 || v.Scoreboard[0].Team != "t1" || v.Scoreboard[0].RankBefore != 2 || v.Scoreboard[0].RankAfter != 1 ||
		v.Scoreboard[0].PenaltyBefore != 40 || v.Scoreboard[0].PenaltyAfter != 10 || v.Scoreboard[1].Team != "t2" || v.Scoreboard[1].RankAfter != 2 {
		t.Errorf("the preview's scoreboard: got %s, want t1 from rank 2 (40) to 1 (10), t2 from 1 to 2", gotBoard)
	}

	// nothing changed yet
	if got := ce.board("jury"); got != before {
		t.Errorf("the board before applying: got %s, want %s", got, before)
	}
	ce.token = ce.password("team1")
	if got := ce.get(wa); got.Verdict != verdict.WA || len(got.Judgings) != 1 {
		t.Errorf("team 1's submission before applying: got %s with %d judgings, want WA with 1", got.Verdict, len(got.Judgings))
	}
	var list struct{ Submissions []SubmissionView }
	ce.do("GET", "/api/v1/submissions", nil, nil, &list)
	ce.token = ""
	if len(list.Submissions) != 2 {
		t.Errorf("team 1's list: got %d submissions, want its 2 (no run)", len(list.Submissions))
	}
	if js := ce.judgements("jury", wa); len(js) != 1 || js[wa+"-1"]["judgement_type_id"] != "WA" {
		t.Errorf("the judgements of %s before applying: got %v, want its WA alone", wa, js)
	}
	feedBefore := len(ce.feedEvents("jury", ""))

	var applied Rejudging
	if code := ce.v1("jury", "POST", "/api/v1/rejudgings/"+rj.ID+"/apply", nil, &applied); code != http.StatusOK || applied.State != RejudgingApplied {
		t.Fatalf("apply: got %d %+v", code, applied)
	}
	for _, it := range applied.Items {
		if !it.Applied || it.Skipped != "" {
			t.Errorf("applied item %+v: want applied", it)
		}
	}
	after := "1:t1:1:0:10:00.000:0 2:t2:1:0:15:00.000:0 3:t3:0:0:00:00.000:0"
	// the board and the judgements are read from the view, which follows
	// the store's writes a moment later: wait until it has the apply (the
	// checks below say what is wrong if it never does)
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if ce.board("jury") == after && len(ce.judgements("", wa)) == 2 {
			break
		}
	}
	for _, user := range []string{"jury", ""} {
		if got := ce.board(user); got != after {
			t.Errorf("the board of %q after applying: got %s, want %s", user, got, after)
		}
	}
	js := ce.judgements("", wa)
	if len(js) != 2 || js[wa+"-1"]["current"] != false || js[wa+"-2"]["current"] != true || js[wa+"-2"]["judgement_type_id"] != "AC" {
		t.Errorf("the judgements of %s after applying: got %v, want the WA no longer current, an AC current", wa, js)
	}
	ce.token = ce.password("team1")
	if got := ce.get(wa); got.Verdict != verdict.AC || len(got.Judgings) != 2 {
		t.Errorf("team 1's submission after applying: got %s with %d judgings, want AC with 2", got.Verdict, len(got.Judgings))
	}
	ce.token = ""
	var first map[string]any
	ce.as("jury", "GET", "/api/contests/cup26/awards/first-to-solve-clocks", nil, &first)
	if ids, _ := first["team_ids"].([]any); len(ids) != 1 || ids[0] != "t1" {
		t.Errorf("first to solve clocks after applying: got %v, want t1", first)
	}
	evs := ce.feedEvents("jury", "")
	told := map[string]bool{}
	for _, ev := range evs[feedBefore:] {
		var typ, id string
		json.Unmarshal(ev["type"], &typ)
		json.Unmarshal(ev["id"], &id)
		told[typ+"/"+id] = true
	}
	for _, k := range []string{"judgements/" + wa + "-1", "judgements/" + wa + "-2", "awards/first-to-solve-clocks"} {
		if !told[k] {
			t.Errorf("the feed after applying: no event of %s (got %v)", k, told)
		}
	}
	if got := replay(t, evs); got != ce.board("jury") {
		t.Errorf("the feed replayed after applying: got %s, want %s", got, ce.board("jury"))
	}
	if code := ce.v1("jury", "POST", "/api/v1/rejudgings/"+rj.ID+"/apply", nil, &bad); code != http.StatusConflict {
		t.Errorf("applying twice: got %d %v, want 409", code, bad)
	}

	// a cancelled rejudging changes nothing
	os.Remove(flag)
	var rj2 Rejudging
	if code := ce.v1("jury", "POST", "/api/v1/rejudgings", RejudgingRequest{Submissions: []string{wa}}, &rj2); code != http.StatusCreated {
		t.Fatalf("POST a rejudging of %s: got %d", wa, code)
	}
	if v := ce.rejudgingOf(rj2.ID); v.Changed != 1 || v.Rows[0].After != verdict.WA || len(v.Scoreboard) == 0 {
		t.Errorf("the second preview: got %+v, want AC to WA, the board changed", v)
	}
	var cancelled Rejudging
	if code := ce.v1("jury", "POST", "/api/v1/rejudgings/"+rj2.ID+"/cancel", nil, &cancelled); code != http.StatusOK || cancelled.State != RejudgingCancelled || cancelled.Items[0].After != verdict.WA {
		t.Errorf("cancel: got %d %+v", code, cancelled)
	}
	if got := ce.board("jury"); got != after {
		t.Errorf("the board after cancelling: got %s, want %s", got, after)
	}
	if js := ce.judgements("jury", wa); len(js) != 2 {
		t.Errorf("the judgements after cancelling: got %v, want the 2 before", js)
	}
	var all struct{ Rejudgings []Rejudging }
	ce.v1("jury", "GET", "/api/v1/rejudgings", nil, &all)
	if len(all.Rejudgings) != 2 || all.Rejudgings[0].ID != rj2.ID {
		t.Errorf("the rejudgings: got %+v, want the 2, newest first", all.Rejudgings)
	}
}

// TestRejudgingPending refuses to apply a rejudging whose runs are not
// all graded, and applies it once they are; a submission graded again
// since the rejudging began (a plain rejudge) is left as it is.
func TestRejudgingPending(t *testing.T) {
	ce := newClicsEnv(t, false)
	w := ce.startWorker("w1", scriptEngine{})
	ce.clock.Set(ce.start.Add(10 * time.Minute))
	a := ce.submitAs("team1", "clocks", "ok")
	b := ce.submitAs("team2", "clocks", "text:1")
	ce.waitJudged(a, b)
	w.halt()
	var rj Rejudging
	if code := ce.v1("jury", "POST", "/api/v1/rejudgings", RejudgingRequest{Problem: "clocks"}, &rj); code != http.StatusCreated || len(rj.Items) != 2 {
		t.Fatalf("POST a rejudging: got %d %+v", code, rj)
	}
	var e map[string]any
	if code := ce.v1("jury", "POST", "/api/v1/rejudgings/"+rj.ID+"/apply", nil, &e); code != http.StatusConflict ||
		!strings.Contains(e["error"].(string), "2 of 2 runs are still being graded") {
		t.Errorf("applying with its runs queued: got %d %v, want 409 saying so", code, e)
	}
	// b graded again by a plain rejudge of its problem meanwhile
	ce.token = ce.password("jury")
	if code := ce.do("POST", "/api/v1/problems/clocks/rejudge", nil, nil, nil); code != http.StatusAccepted {
		t.Fatalf("the plain rejudge: %d", code)
	}
	ce.token = ""
	ce.startWorker("w2", scriptEngine{})
	ce.rejudgingOf(rj.ID)
	ce.waitJudged(a, b)
	var applied Rejudging
	if code := ce.v1("jury", "POST", "/api/v1/rejudgings/"+rj.ID+"/apply", nil, &applied); code != http.StatusOK {
		t.Fatalf("apply: got %d %+v", code, applied)
	}
	for _, it := range applied.Items {
		if it.Applied || !strings.Contains(it.Skipped, "graded again since the rejudging began") {
			t.Errorf("item %+v: want it left, graded again since", it)
		}
	}
	ce.token = ce.password("jury")
	if got := ce.get(a); len(got.Judgings) != 2 {
		t.Errorf("%s: got %d judgings, want 2 (its first and the plain rejudge's)", a, len(got.Judgings))
	}
}

// TestRejudgingPages drives the jury's pages: a rejudging started from a
// submission's page, its preview, applied with the button.
func TestRejudgingPages(t *testing.T) {
	ce := newClicsEnv(t, true)
	flag := filepath.Join(t.TempDir(), "fixed")
	ce.clock.Set(ce.start.Add(10 * time.Minute))
	wa := ce.submitAs("team1", "clocks", "if-file:"+flag)
	ce.waitJudged(wa)
	os.WriteFile(flag, nil, 0o644)
	c := ce.client(t)
	c.login(ce.password("jury"))
	post := func(path string, fields map[string]string) string {
		t.Helper()
		form := url.Values{"csrf": {c.csrf()}}
		for k, v := range fields {
			form.Set(k, v)
		}
		code, hdr, body := c.do("POST", path, strings.NewReader(form.Encode()), map[string]string{"Content-Type": "application/x-www-form-urlencoded"})
		if code != http.StatusSeeOther {
			t.Fatalf("POST %s: got %d\n%s", path, code, body)
		}
		return hdr.Get("Location")
	}
	if _, page := c.get("/s/" + wa); !strings.Contains(page, `id="rejudge-one"`) {
		t.Fatalf("the jury's submission page has no rejudge button")
	}
	loc := post("/rejudgings", map[string]string{"submission": wa})
	if !strings.HasPrefix(loc, "/rejudgings/") {
		t.Fatalf("the rejudging's post went to %q", loc)
	}
	id := strings.TrimPrefix(loc, "/rejudgings/")
	ce.rejudgingOf(id)
	_, page := c.get(loc + "?part=live")
	for _, want := range []string{`class="changed"`, `id="rj-apply"`, `<tr data-team="t1">`} {
		if !strings.Contains(page, want) {
			t.Errorf("the preview: no %s in\n%s", want, page)
		}
	}
	if loc := post(loc, map[string]string{"do": "apply"}); loc != "/rejudgings/"+id {
		t.Errorf("apply went to %q", loc)
	}
	ce.token = ce.password("jury")
	if got := ce.get(wa); got.Verdict != verdict.AC {
		t.Errorf("after the page's apply: got %s, want AC", got.Verdict)
	}
	ce.token = ""
	if _, page := c.get("/rejudgings"); !strings.Contains(page, id) || !strings.Contains(page, "applied") {
		t.Errorf("the list of rejudgings: no applied %s", id)
	}
	team := ce.client(t)
	team.login(ce.password("team1"))
	if code, _ := team.get("/rejudgings"); code != http.StatusForbidden {
		t.Errorf("a team's /rejudgings: got %d, want 403", code)
	}
}
