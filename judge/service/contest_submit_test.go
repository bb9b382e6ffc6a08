package service

import (
	"archive/zip"
	"bytes"
	"encoding/base64"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/optjudge/optjudge/judge/contest"
)

// zip64 is files (name, content, ...) zipped, in base64.
func zip64(t *testing.T, files ...string) string {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for i := 0; i+1 < len(files); i += 2 {
		f, err := zw.Create(files[i])
		if err != nil {
			t.Fatal(err)
		}
		f.Write([]byte(files[i+1]))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return base64.StdEncoding.EncodeToString(buf.Bytes())
}

// TestContestSubmitAPI submits through the Contest API: a team's POST
// (its team implied, the server's time), checked as the web upload is
// (the contest running, the problem the contest's, the language
// offered, one source file in a zip) with a 4xx {code, message} for each
// fault; the jury's POST for a team at a time, and its PUT with an id of
// its own; the capabilities in access.
func TestContestSubmitAPI(t *testing.T) {
	ce := newClicsEnv(t, true)
	ok := func() map[string]any {
		return map[string]any{"problem_id": "clocks", "language_id": "python3", "entry_point": "sol.py",
			"files": []map[string]any{{"data": zip64(t, "sol.py", "ok"), "mime": "application/zip"}}}
	}
	with := func(k string, v any) map[string]any {
		m := ok()
		if v == nil {
			delete(m, k)
		} else {
			m[k] = v
		}
		return m
	}
	var e map[string]any
	if code := ce.as("team1", "POST", "/api/contests/cup26/submissions", ok(), &e); code != http.StatusNotFound {
		t.Errorf("a team's submission before the start: got %d %v, want 404 (no problem is out)", code, e)
	}
	ce.clock.Set(ce.start.Add(10 * time.Minute))

	var sub map[string]any
	if code := ce.as("team1", "POST", "/api/contests/cup26/submissions", ok(), &sub); code != http.StatusCreated {
		t.Fatalf("a team's submission: got %d %v, want 201", code, sub)
	}
	id, _ := sub["id"].(string)
	files, _ := sub["files"].([]any)
	if sub["team_id"] != "t1" || sub["problem_id"] != "clocks" || sub["contest_time"] != "0:10:00.000" || len(files) != 1 {
		t.Errorf("the submission: got %v, want t1's of clocks at 0:10:00.000 with its files", sub)
	}
	ce.waitJudged(id)
	if js := ce.judgements("team1", id); js[id+"-1"]["judgement_type_id"] != "AC" {
		t.Errorf("its judgement: got %v, want AC", js)
	}

	for _, c := range []struct {
		name string
		user string
		body any
		code int
		msg  string
	}{
		{"the public", "", ok(), 401, "log in"},
		{"another team's id", "team1", with("team_id", "t2"), 403, "team_id"},
		{"its own team's id", "team1", with("team_id", "t1"), 201, ""},
		{"a time", "team1", with("time", contest.FormatTime(ce.start)), 400, "time"},
		{"an id", "team1", with("id", "x1"), 400, "id"},
		{"a problem outside the contest", "team1", with("problem_id", "rotation-game"), 400, "problem_id"},
		{"no problem", "team1", with("problem_id", nil), 400, "problem_id: required"},
		{"an unknown language", "team1", with("language_id", "cobol"), 400, "language_id"},
		{"no entry point for python3", "team1", with("entry_point", nil), 400, "entry_point"},
		{"another file's entry point", "team1", with("entry_point", "main.py"), 400, "entry_point"},
		{"two files", "team1", with("files", []map[string]any{{"data": zip64(t, "a.py", "ok", "b.py", "ok")}}), 400, "2 files"},
		{"a file in a directory", "team1", with("files", []map[string]any{{"data": zip64(t, "src/sol.py", "ok")}}), 400, "plain file name"},
		{"not base64", "team1", with("files", []map[string]any{{"data": "%%%"}}), 400, "base64"},
		{"not a zip", "team1", with("files", []map[string]any{{"data": base64.StdEncoding.EncodeToString([]byte("ok"))}}), 400, "not a zip"},
		{"a mime not a zip's", "team1", with("files", []map[string]any{{"data": zip64(t, "sol.py", "ok"), "mime": "text/plain"}}), 400, "mime"},
		{"an empty source", "team1", with("files", []map[string]any{{"data": zip64(t, "sol.py", "")}}), 400, "source"},
		{"a property the spec has not", "team1", with("colour", "red"), 400, "colour"},
		{"the jury without a team", "jury", ok(), 400, "team_id: required"},
		{"the jury without a time", "jury", with("team_id", "t2"), 400, "time: required"},
		{"the jury with an id", "jury", func() map[string]any {
			m := with("team_id", "t2")
			m["time"], m["id"] = contest.FormatTime(ce.start), "x"
			return m
		}(), 400, "PUT"},
		{"the jury for an unknown team", "jury", func() map[string]any {
			m := with("team_id", "t9")
			m["time"] = contest.FormatTime(ce.start)
			return m
		}(), 400, "no team"},
		{"the jury at a time outside", "jury", func() map[string]any {
			m := with("team_id", "t2")
			m["time"] = contest.FormatTime(ce.start.Add(-time.Minute))
			return m
		}(), 400, "not in the contest"},
	} {
		var got map[string]any
		code := ce.as(c.user, "POST", "/api/contests/cup26/submissions", c.body, &got)
		msg, _ := got["message"].(string)
		if code != c.code || (c.msg != "" && !strings.Contains(msg, c.msg)) || (code >= 400 && got["code"] != float64(code)) {
			t.Errorf("%s: got %d %v, want %d saying %q", c.name, code, got, c.code, c.msg)
		}
	}

	jury := with("team_id", "t2")
	jury["time"] = contest.FormatTime(ce.start.Add(20 * time.Minute))
	if code := ce.as("jury", "POST", "/api/contests/cup26/submissions", jury, &sub); code != http.StatusCreated ||
		sub["team_id"] != "t2" || sub["contest_time"] != "0:20:00.000" {
		t.Errorf("the jury's submission for t2: got %d %v, want 201 at 0:20:00.000", code, sub)
	}
	jury["id"] = "proxy-17"
	if code := ce.as("jury", "PUT", "/api/contests/cup26/submissions/proxy-17", jury, &sub); code != http.StatusCreated || sub["id"] != "proxy-17" {
		t.Errorf("the jury's PUT: got %d %v, want 201 with its id", code, sub)
	}
	if code := ce.as("jury", "PUT", "/api/contests/cup26/submissions/proxy-17", jury, &e); code != http.StatusConflict {
		t.Errorf("the PUT again: got %d %v, want 409", code, e)
	}
	if code := ce.as("jury", "PUT", "/api/contests/cup26/submissions/proxy-18", jury, &e); code != http.StatusConflict {
		t.Errorf("a PUT whose id is not the URL's: got %d %v, want 409", code, e)
	}
	if code := ce.as("team1", "PUT", "/api/contests/cup26/submissions/mine", with("id", "mine"), &e); code != http.StatusForbidden {
		t.Errorf("a team's PUT: got %d %v, want 403", code, e)
	}
	ce.waitJudged("proxy-17")
	var got map[string]any
	if code := ce.as("", "GET", "/api/contests/cup26/submissions/proxy-17", nil, &got); code != 200 || got["team_id"] != "t2" {
		t.Errorf("GET proxy-17: got %d %v", code, got)
	}

	var access struct{ Capabilities []string }
	ce.as("team1", "GET", "/api/contests/cup26/access", nil, &access)
	if !contains(access.Capabilities, "team_submit") {
		t.Errorf("a team's capabilities: got %v, want team_submit", access.Capabilities)
	}
	ce.as("jury", "GET", "/api/contests/cup26/access", nil, &access)
	if !contains(access.Capabilities, "admin_submit") {
		t.Errorf("the jury's capabilities: got %v, want admin_submit", access.Capabilities)
	}

	ce.clock.Set(ce.start.Add(2*time.Hour + time.Minute))
	if code := ce.as("team1", "POST", "/api/contests/cup26/submissions", ok(), &e); code != http.StatusForbidden {
		t.Errorf("a team's submission after the end: got %d %v, want 403", code, e)
	}
}
