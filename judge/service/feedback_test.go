package service

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/optjudge/optjudge/judge"
	"github.com/optjudge/optjudge/problems"
	"github.com/optjudge/optjudge/reference/puzzle/judging"
	"github.com/optjudge/optjudge/verdict"
)

// getRaw is GET path with the env's token: the status and the body.
func (e *env) getRaw(path string) (int, string) {
	e.t.Helper()
	req, _ := http.NewRequest("GET", e.http.URL+path, nil)
	if e.token != "" {
		req.Header.Set("Authorization", "Bearer "+e.token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// reportTests are the tests of a GET's report, each as its JSON keys.
func reportTests(t *testing.T, body string) []map[string]any {
	t.Helper()
	var v struct {
		Report struct {
			Tests []map[string]any `json:"tests"`
		} `json:"report"`
	}
	if err := json.Unmarshal([]byte(body), &v); err != nil {
		t.Fatal(err)
	}
	return v.Report.Tests
}

func keysOf(m map[string]any) []string {
	var ks []string
	for k := range m {
		if k != "stderr" {
			ks = append(ks, k)
		}
	}
	slices.Sort(ks)
	return ks
}

// TestSecretTestsStayHidden: a program that writes its input to stderr on
// a secret test and fails gets back none of it, in the report, the events
// or the page, whatever --feedback says; the report keeps its keys; an
// admin sees it all.
func TestSecretTestsStayHidden(t *testing.T) {
	t.Parallel()
	eng := newEngine(t, false)
	for _, fb := range []Feedback{FeedbackMessage, FeedbackVerdict} {
		t.Run(fb.String(), func(t *testing.T) {
			e := newEnv(t, envOpts{tokens: pageTokens, feedback: fb})
			e.startWorker("w", eng)
			e.token = pageTokens[0].Token // alice
			id := e.submit("clocks", "leak.py", readFile(t, "leak_stderr.py"))
			if v := e.waitDone(2*time.Minute, id)[id]; v.Verdict != verdict.RE {
				t.Fatalf("got %s, want RE", v.Verdict)
			}
			_, mine := e.getRaw("/api/v1/submissions/" + id)
			e.token = pageTokens[2].Token // root
			_, full := e.getRaw("/api/v1/submissions/" + id)
			if !strings.Contains(full, "SECRET INPUT") {
				t.Fatalf("the admin's view has no stderr:\n%s", full)
			}
			if strings.Contains(mine, "SECRET") {
				t.Errorf("the contestant's view shows the program's stderr:\n%s", mine)
			}
			got, want := reportTests(t, mine), reportTests(t, full)
			if len(got) != len(want) || len(got) < 3 {
				t.Fatalf("tests: got %d, want %d (at least 3)", len(got), len(want))
			}
			for i := range got {
				if k, wk := keysOf(got[i]), keysOf(want[i]); !slices.Equal(k, wk) {
					t.Errorf("test %v: got keys %v, want %v", want[i]["name"], k, wk)
				}
			}
			last := got[len(got)-1]
			wantMsg := map[Feedback]string{FeedbackMessage: "exit code 1", FeedbackVerdict: ""}[fb]
			if last["verdict"] != "RE" || last["exit_code"] != 1.0 || last["message"] != wantMsg || last["stderr"] != nil {
				t.Errorf("the failing secret test: got %v, want RE, exit code 1, message %q, no stderr", last, wantMsg)
			}
			e.token = pageTokens[0].Token
			_, events := e.getRaw("/api/v1/submissions/" + id + "/events")
			if !strings.Contains(events, "event: done") || strings.Contains(events, "SECRET") {
				t.Errorf("the contestant's events show the program's stderr (or never end):\n%s", events)
			}
			c := e.client(t)
			c.login(pageTokens[0].Token)
			if _, page := c.get("/s/" + id); !strings.Contains(page, "v v-RE") || strings.Contains(page, "SECRET") {
				t.Errorf("the contestant's page: want RE without the program's stderr\n%s", page)
			}
		})
	}
}

// TestFeedbackVerdict: with --feedback verdict a contestant sees no
// message and no drawing of a secret test, but all of a sample test's;
// with message both (TestPagesFailure).
func TestFeedbackVerdict(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOpts{tokens: pageTokens, feedback: FeedbackVerdict})
	e.startWorker("w", scriptEngine{})
	alice := e.client(t)
	alice.login(pageTokens[0].Token)
	e.token = pageTokens[0].Token
	secret := alice.submitted("clocks", "long.py", "long-secret")
	sample := alice.submitted("clocks", "long.py", "long")
	e.waitDone(time.Minute, secret, sample)

	var v SubmissionView
	e.do("GET", "/api/v1/submissions/"+secret, nil, nil, &v)
	tests := reportTests(t, string(mustJSON(t, v)))
	if last := tests[len(tests)-1]; v.Failure != nil || last["verdict"] != "WA" || last["message"] != "" {
		t.Errorf("a secret WA: got failure %+v and test %v, want no failure and no message", v.Failure, last)
	}
	if code, _ := e.getRaw("/api/v1/submissions/" + secret + "/drawing.svg"); code != http.StatusNotFound {
		t.Errorf("a secret WA's drawing: got %d, want 404", code)
	}
	if _, page := alice.get("/s/" + secret); strings.Contains(page, "drawing.svg") || !strings.Contains(page, "v v-WA") {
		t.Errorf("the page of a secret WA: want WA and no drawing\n%s", page)
	}
	e.do("GET", "/api/v1/submissions/"+sample, nil, nil, &v)
	if v.Failure == nil || v.Failure.Message == "" || v.Failure.Input == nil || v.Failure.Drawing == "" {
		t.Errorf("a sample WA: got failure %+v, want all of it", v.Failure)
	}
	e.token = pageTokens[2].Token
	e.do("GET", "/api/v1/submissions/"+secret, nil, nil, &v)
	if v.Failure == nil || v.Failure.Message == "" || v.Failure.Input == nil {
		t.Errorf("the admin's view of a secret WA: got failure %+v, want all of it", v.Failure)
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestFeedbackCuts: what a contestant sees of each kind of secret test:
// words of the judge's own only.
func TestFeedbackCuts(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		tr      judge.TestResult
		message map[Feedback]string
	}{
		{"AC", judge.TestResult{Verdict: verdict.AC, Message: "12 moves"},
			map[Feedback]string{FeedbackMessage: "", FeedbackVerdict: ""}},
		{"WA", judge.TestResult{Verdict: verdict.WA, Message: `token 1: got "1 2 3", want "4"`},
			map[Feedback]string{FeedbackMessage: "", FeedbackVerdict: ""}},
		{"RE exit", judge.TestResult{Verdict: verdict.RE, ExitCode: 3, Message: "exit code 3: 1 2 3 (the input)", Stderr: "1 2 3"},
			map[Feedback]string{FeedbackMessage: "exit code 3", FeedbackVerdict: ""}},
		{"RE signal", judge.TestResult{Verdict: verdict.RE, Signal: "SIGSEGV", Message: "killed by SIGSEGV: 1 2 3"},
			map[Feedback]string{FeedbackMessage: "killed by SIGSEGV", FeedbackVerdict: ""}},
		{"TLE", judge.TestResult{Verdict: verdict.TLE, Message: "CPU time over the 1s limit", Limit: &judge.Broken{Limit: judge.LimitCPU, MS: 1000}},
			map[Feedback]string{FeedbackMessage: "CPU time over the 1s limit", FeedbackVerdict: ""}},
		{"TLE wall", judge.TestResult{Verdict: verdict.TLE, Message: "wall time over the 3s limit (CPU 0.1s): waiting or sleeping?", Limit: &judge.Broken{Limit: judge.LimitWall, MS: 3000}},
			map[Feedback]string{FeedbackMessage: "wall time over the 3s limit", FeedbackVerdict: ""}},
		{"TLE deadlock", judge.TestResult{Verdict: verdict.TLE, Message: "deadlock: the submission and the validator were both waiting for each other's input; stopped after 0.3s of wall time, not at the 3s limit (CPU 0.001s)", Limit: &judge.Broken{Limit: judge.LimitDeadlock, MS: 3000}},
			map[Feedback]string{FeedbackMessage: "deadlock: the submission and the validator were both waiting for each other's input", FeedbackVerdict: ""}},
		{"TLE other", judge.TestResult{Verdict: verdict.TLE, Message: "validator: the program read 1 2 3 too slowly"},
			map[Feedback]string{FeedbackMessage: "time limit exceeded", FeedbackVerdict: ""}},
		{"MLE", judge.TestResult{Verdict: verdict.MLE, Message: "memory over the 256MiB limit", Limit: &judge.Broken{Limit: judge.LimitMemory, Bytes: 256 << 20}},
			map[Feedback]string{FeedbackMessage: "memory over the 256MiB limit", FeedbackVerdict: ""}},
		{"OLE", judge.TestResult{Verdict: verdict.OLE, Message: "output over the 8MiB limit: 1 2 3", Limit: &judge.Broken{Limit: judge.LimitOutput, Bytes: 8 << 20}},
			map[Feedback]string{FeedbackMessage: "output over the 8MiB limit", FeedbackVerdict: ""}},
		{"JE", judge.TestResult{Verdict: verdict.JE, Message: "checker: it printed 1 2 3"},
			map[Feedback]string{FeedbackMessage: "", FeedbackVerdict: ""}},
		{"WA of a puzzle", judge.TestResult{Verdict: verdict.WA, Message: "case 2, move 1: 'Q' is not a move (A-H)",
			Finding: &judging.Finding{Kind: judging.Illegal, Case: 2, Move: 1, Token: "Q"}},
			map[Feedback]string{FeedbackMessage: "", FeedbackVerdict: ""}},
	}
	// the contestant's view is rendered from the facts, never read back
	// from the engine's message: reworded, it says the same
	for _, tt := range slices.Clone(tests) {
		tt.name += " reworded"
		tt.tr.Message = "the engine's words changed: " + tt.tr.Message
		if tt.tr.Verdict == verdict.TLE && tt.tr.Limit == nil {
			continue // no facts: the verdict's name whatever the words
		}
		tests = append(tests, tt)
	}
	for _, tt := range tests {
		for fb, want := range tt.message {
			t.Run(tt.name+"/"+fb.String(), func(t *testing.T) {
				see := sight{fb: fb}
				got := see.test(tt.tr, false)
				if got.Message != want || got.Stderr != "" || got.Verdict != tt.tr.Verdict || got.ExitCode != tt.tr.ExitCode {
					t.Errorf("got %+v, want message %q and no stderr", got, want)
				}
				// a finding may quote the output; the limit is the
				// judge's, shown where a message is
				if got.Finding != nil || (got.Limit != nil) != (fb == FeedbackMessage && tt.tr.Limit != nil) {
					t.Errorf("got finding %+v and limit %+v", got.Finding, got.Limit)
				}
				b := see.brief(brief(tt.tr, false))
				if b.Message != want || b.Finding != nil || b.Verdict != tt.tr.Verdict {
					t.Errorf("brief: got %+v, want message %q, no finding", b, want)
				}
				// the event's JSON carries the facts it is rendered from
				raw, err := json.Marshal(b)
				if err != nil {
					t.Fatal(err)
				}
				var back TestBrief
				if err := json.Unmarshal(raw, &back); err != nil {
					t.Fatal(err)
				}
				if again := see.brief(back); again.Message != want {
					t.Errorf("brief from %s: got message %q, want %q", raw, again.Message, want)
				}
				if s := see.brief(brief(tt.tr, true)); s.Message != tt.tr.Message || s.Finding != tt.tr.Finding {
					t.Errorf("a sample's brief: got %+v, want it whole", s)
				}
				if a := (sight{admin: true, fb: fb}).test(tt.tr, false); a.Message != tt.tr.Message || a.Stderr != tt.tr.Stderr {
					t.Errorf("an admin's: got %+v, want it whole", a)
				}
			})
		}
	}
	if _, err := ParseFeedback("all"); err == nil {
		t.Error("ParseFeedback(all): want an error")
	}
}

// TestSightJEReport: the reason of a grading the judge could not do is an
// admin's: a contestant's view of the report has neither judge_error nor
// score.message, under every feedback level.
func TestSightJEReport(t *testing.T) {
	t.Parallel()
	const reason = "not graded: worker w1 cannot build checker.cpp: g++ not found"
	raw, err := json.Marshal(judge.JEReport(nil, judge.GradeOptions{}, reason))
	if err != nil {
		t.Fatal(err)
	}
	for _, fb := range []Feedback{FeedbackVerdict, FeedbackMessage} {
		got, err := (sight{fb: fb}).report(raw, nil)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(got), "g++") {
			t.Errorf("%v: a contestant sees the reason: %s", fb, got)
		}
		admin, err := (sight{admin: true, fb: fb}).report(raw, nil)
		if err != nil {
			t.Fatal(err)
		}
		var r judge.Report
		if err := json.Unmarshal(admin, &r); err != nil || r.JudgeError != reason {
			t.Errorf("%v: an admin's judge_error %q (%v), want %q", fb, r.JudgeError, err, reason)
		}
	}
}

// TestFailureDrawnFromFinding: the drawing of a judging's failing test is
// made from the checker's finding, after its trip through the stored
// report's JSON, whatever the message's words: reworded, the drawing and
// its description are the same, and they are the drawing of the case and
// the move the finding names.
func TestFailureDrawnFromFinding(t *testing.T) {
	pp, err := problems.LoadEmbedded("clocks")
	if err != nil {
		t.Fatal(err)
	}
	p := &Problem{Problem: pp}
	input, output := []byte("3 3 0\n2 2 2\n2 1 2\n"), []byte("9 8 5 4\n")
	checked, err := pp.PuzzleChecker().Check(context.Background(), input, output)
	if err != nil || checked.Finding == nil {
		t.Fatalf("got %+v, %v, want a finding", checked, err)
	}
	raw, err := json.Marshal(judge.TestResult{Verdict: verdict.WA, Message: checked.Message, Finding: checked.Finding})
	if err != nil {
		t.Fatal(err)
	}
	var stored judge.TestResult
	if err := json.Unmarshal(raw, &stored); err != nil {
		t.Fatal(err)
	}
	want := newFailure(p, "sample/1", true, input, output, checked.Message, stored.Finding)
	if want.Drawing == "" || !strings.Contains(want.Description, "move 2") {
		t.Fatalf("no drawing of move 2: %q", want.Description)
	}
	got := newFailure(p, "sample/1", true, input, output, "reworded: "+checked.Message, stored.Finding)
	if got.Drawing != want.Drawing || got.Description != want.Description {
		t.Errorf("a reworded message changes the drawing:\n%s\nwant\n%s", got.Description, want.Description)
	}
}
