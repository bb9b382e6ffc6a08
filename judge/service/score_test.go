package service

import (
	"encoding/json"
	"errors"
	"github.com/optjudge/optjudge/judge/lang"
	"github.com/optjudge/optjudge/verdict"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestScoreShown: a scoring submission's score is on its page and in the
// list, beside its verdict (a 50/100 AC is not a plain AC).
func TestScoreShown(t *testing.T) {
	t.Parallel()
	half, full := 50.0, 100.0
	sub := &Submission{ID: "x", State: StateDone, Verdict: verdict.AC, Judgings: []JudgingRef{{Request: 1, Verdict: verdict.AC, Score: &half, MaxScore: &full}}}
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
	t.Parallel()
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

// fewLanguages is an engine that runs python3 only.
type fewLanguages struct{ scriptEngine }

func (fewLanguages) Installed(l *lang.Language) error {
	if l.Name == "python3" {
		return nil
	}
	return errors.New("not installed")
}

// TestLanguagesOffered: the languages offered are those a live worker
// runs (its heartbeat tells them): another is refused (400) rather than
// queued to end as JE, and the submit form does not offer it.
func TestLanguagesOffered(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOpts{})
	e.startWorker("w", fewLanguages{})
	deadline := time.Now().Add(time.Minute)
	for {
		var out map[string]string
		code := e.do("POST", "/api/v1/submissions", jsonBody(SubmitRequest{Problem: "clocks", Filename: "sol.rb", Source: "puts 1"}), nil, &out)
		if code == http.StatusBadRequest && strings.Contains(out["error"], "ruby: no grading machine runs it") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("a Ruby submission: got %d %v, want 400 naming the language", code, out)
		}
		time.Sleep(100 * time.Millisecond)
	}
	e.submit("clocks", "sol.py", "ok")
	c := e.client(t)
	_, body := c.get("/submit?problem=clocks")
	if strings.Contains(body, `value="ruby"`) || !strings.Contains(body, `value="python3"`) {
		t.Errorf("the submit form offers ruby, or not python3")
	}
}

// TestJurySeesSource: the jury reads a submission's source on its page, a
// contestant does not.
func TestJurySeesSource(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOpts{tokens: pageTokens})
	e.token = pageTokens[0].Token
	id := e.submit("clocks", "sol.py", "print('<b>mine</b>')\n")
	for _, tc := range []struct {
		token string
		want  bool
	}{{pageTokens[2].Token, true}, {pageTokens[0].Token, false}} {
		c := e.client(t)
		c.login(tc.token)
		_, body := c.get("/s/" + id)
		if got := strings.Contains(body, `<pre id="source">print(&#39;&lt;b&gt;mine&lt;/b&gt;&#39;)`); got != tc.want {
			t.Errorf("the source on the page of %s: got %v, want %v", tc.token[:5], got, tc.want)
		}
	}
}

// TestJuryFilters: the jury's list filters by user, language and time.
func TestJuryFilters(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOpts{tokens: pageTokens})
	e.token = pageTokens[0].Token
	py := e.submit("clocks", "sol.py", "ok")
	e.token = pageTokens[1].Token
	cpp := e.submit("clocks", "sol.cpp", "int main(){}")
	c := e.client(t)
	c.login(pageTokens[2].Token)
	for _, tc := range []struct {
		query    string
		has, not string
	}{
		{"?user=alice", py, cpp}, {"?language=cpp", cpp, py},
		{"?from=2000-01-01T00:00&to=2001-01-01T00:00", "", py},
	} {
		_, body := c.get("/" + tc.query)
		if (tc.has != "" && !strings.Contains(body, `data-id="`+tc.has+`"`)) || strings.Contains(body, `data-id="`+tc.not+`"`) {
			t.Errorf("/%s: want %q listed and %q not", tc.query, tc.has, tc.not)
		}
	}
}
