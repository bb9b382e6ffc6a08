package service

import (
	"bytes"
	"context"
	"fmt"
	"html/template"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/optjudge/optjudge/checkers"
	"github.com/optjudge/optjudge/judge"
	"github.com/optjudge/optjudge/judge/lang"
	"github.com/optjudge/optjudge/problems"
	"github.com/optjudge/optjudge/problems/kattis"
	"github.com/optjudge/optjudge/verdict"
)

// scriptEngine grades without running anything: the source says what the
// "program" prints on each test, and the problem's checker judges it as
// the engine would.
//
//	ok           the reference's answer
//	long         the reference's answer and " 9 9 9 9" (clocks: too long)
//	long-secret  ok on the sample tests, long on the others
//	text:OUTPUT  OUTPUT on every test
//	ce           a compilation error
type scriptEngine struct{}

func (scriptEngine) Languages() *lang.Table { return lang.Default() }
func (scriptEngine) Isolation() string      { return "none (test)" }
func (scriptEngine) Close() error           { return nil }

func (scriptEngine) Grade(ctx context.Context, p *problems.Problem, src Source, progress func(judge.TestResult)) (*Graded, error) {
	b, err := readSource(src)
	if err != nil {
		return nil, err
	}
	script := strings.TrimSpace(string(b))
	r := &judge.Report{Problem: p.Name, Submission: src.Filename, Language: src.Language, Verdict: verdict.AC,
		Compile: judge.CompileResult{OK: true}, Tests: []judge.TestResult{}}
	if script == "ce" {
		r.Verdict, r.Compile = verdict.CE, judge.CompileResult{Message: "sol.cpp:1:1: error: 'x' was not declared <here>"}
		r.Summary = judge.Summary{Verdict: verdict.CE}
		return &Graded{Report: r}, nil
	}
	tests, err := p.Package.Tests()
	if err != nil {
		return nil, err
	}
	for _, t := range tests {
		in, err := t.Input()
		if err != nil {
			return nil, err
		}
		out, err := scriptOutput(p, script, t, in)
		if err != nil {
			return nil, err
		}
		res, err := p.Package.Checker.Check(ctx, checkers.Files{Input: in, Output: out})
		if err != nil {
			return nil, err
		}
		tr := judge.TestResult{Name: t.Name, Verdict: res.Verdict, Message: res.Message, TimeMS: 3, WallMS: 5, MemoryKiB: 2048, Output: out}
		r.Tests = append(r.Tests, tr)
		progress(tr)
		if tr.Verdict != verdict.AC {
			r.Verdict = tr.Verdict
			break
		}
	}
	r.Summary = judge.Summary{Verdict: r.Verdict, Tests: len(tests), Run: len(r.Tests)}
	return &Graded{Report: r}, nil
}

func readSource(src Source) ([]byte, error) { return os.ReadFile(src.Path) }

func scriptOutput(p *problems.Problem, script string, t kattis.Test, in []byte) ([]byte, error) {
	if text, ok := strings.CutPrefix(script, "text:"); ok {
		return []byte(text + "\n"), nil
	}
	if path, ok := strings.CutPrefix(script, "if-file:"); ok {
		// right while the file is there, wrong before: a verdict a
		// rejudging changes
		if _, err := os.Stat(path); err != nil {
			return []byte("0\n"), nil
		}
		script = "ok"
	}
	ans, err := p.Reference.Solve(in)
	if err != nil {
		return nil, err
	}
	switch {
	case script == "ok", script == "long-secret" && t.Group == "sample":
		return ans, nil
	case script == "long", script == "long-secret":
		return []byte(strings.TrimRight(string(ans), "\n") + " 9 9 9 9\n"), nil
	}
	return nil, fmt.Errorf("unknown script %q", script)
}

// pageClient is a browser-like client of one env: cookies, no redirects
// followed.
type pageClient struct {
	t    *testing.T
	e    *env
	http *http.Client
}

func (e *env) client(t *testing.T) *pageClient {
	jar, _ := cookiejar.New(nil)
	return &pageClient{t: t, e: e, http: &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error {
		return http.ErrUseLastResponse
	}}}
}

// do sends a request with the headers a browser sends from the site.
func (c *pageClient) do(method, path string, body io.Reader, hdr map[string]string) (int, http.Header, string) {
	c.t.Helper()
	req, err := http.NewRequest(method, c.e.http.URL+path, body)
	if err != nil {
		c.t.Fatal(err)
	}
	if method == http.MethodPost {
		req.Header.Set("Origin", c.e.http.URL)
		req.Header.Set("Sec-Fetch-Site", "same-origin")
	}
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, string(b)
}

func (c *pageClient) get(path string) (int, string) {
	c.t.Helper()
	code, _, body := c.do("GET", path, nil, nil)
	return code, body
}

var csrfRE = regexp.MustCompile(`name="csrf" value="([0-9a-f]+)"`)

// csrf is the form token of a page.
func (c *pageClient) csrf() string {
	c.t.Helper()
	_, body := c.get("/submit")
	m := csrfRE.FindStringSubmatch(body)
	if m == nil {
		c.t.Fatalf("no form token on /submit:\n%s", body)
	}
	return m[1]
}

func (c *pageClient) login(token string) {
	c.t.Helper()
	form := url.Values{"token": {token}, "next": {"/"}}
	code, hdr, body := c.do("POST", "/login", strings.NewReader(form.Encode()), map[string]string{"Content-Type": "application/x-www-form-urlencoded"})
	if code != http.StatusSeeOther || hdr.Get("Location") != "/" {
		c.t.Fatalf("login: got %d %s %q, want 303 to /", code, hdr.Get("Location"), body)
	}
}

// submitForm posts the submit form: fields, and a file when name is set.
func (c *pageClient) submitForm(fields map[string]string, name, content string) (int, http.Header, string) {
	c.t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	for k, v := range fields {
		mw.WriteField(k, v)
	}
	fw, _ := mw.CreateFormFile("file", name)
	fw.Write([]byte(content))
	mw.Close()
	return c.do("POST", "/submit", &buf, map[string]string{"Content-Type": mw.FormDataContentType()})
}

// submitted posts the form and returns the submission's id.
func (c *pageClient) submitted(problem, name, content string) string {
	c.t.Helper()
	code, hdr, body := c.submitForm(map[string]string{"csrf": c.csrf(), "problem": problem, "key": newKey()}, name, content)
	loc := hdr.Get("Location")
	if code != http.StatusSeeOther || !strings.HasPrefix(loc, "/s/") {
		c.t.Fatalf("submit %s: got %d %q\n%s", name, code, loc, body)
	}
	return strings.TrimPrefix(loc, "/s/")
}

var pageTokens = []Token{
	{Name: "alice", Token: "alice-token-0123456789", Role: RoleContestant},
	{Name: "bob", Token: "bob-token-0123456789ab", Role: RoleContestant},
	{Name: "root", Token: "root-token-0123456789a", Role: RoleAdmin},
}

func TestPagesLogin(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOpts{tokens: pageTokens})
	c := e.client(t)
	code, hdr, _ := c.do("GET", "/s/0123456789abcdef0123", nil, nil)
	if want := "/login?next=%2Fs%2F0123456789abcdef0123"; code != http.StatusSeeOther || hdr.Get("Location") != want {
		t.Errorf("a page without login: got %d %q, want 303 to %s", code, hdr.Get("Location"), want)
	}
	if code, body := c.get("/login"); code != http.StatusOK || !strings.Contains(body, `<label for="token">`) {
		t.Errorf("login page: got %d\n%s", code, body)
	}
	form := url.Values{"token": {"wrong-token-0123456789"}}
	code, _, body := c.do("POST", "/login", strings.NewReader(form.Encode()), map[string]string{"Content-Type": "application/x-www-form-urlencoded"})
	if code != http.StatusUnauthorized || !strings.Contains(body, "unknown token") {
		t.Errorf("wrong token: got %d, want 401 with a message", code)
	}
	form = url.Values{"token": {pageTokens[0].Token}, "next": {"//evil.example/"}}
	code, hdr, _ = c.do("POST", "/login", strings.NewReader(form.Encode()), map[string]string{"Content-Type": "application/x-www-form-urlencoded"})
	if code != http.StatusSeeOther || hdr.Get("Location") != "/" {
		t.Errorf("login with next to another site: got %d %q, want 303 to /", code, hdr.Get("Location"))
	}
	ck := hdr.Get("Set-Cookie")
	for _, want := range []string{sessionCookie + "=", "HttpOnly", "SameSite=Strict", "Path=/"} {
		if !strings.Contains(ck, want) {
			t.Errorf("cookie %q: no %s", ck, want)
		}
	}
	if strings.Contains(ck, "Secure") {
		t.Errorf("cookie %q: Secure without TLS", ck)
	}
	if code, body := c.get("/"); code != http.StatusOK || !strings.Contains(body, "alice") {
		t.Errorf("the list after login: got %d", code)
	}
	// a cross-site link: the Strict cookie stays home, one step on the site brings it
	code, _, body = e.client(t).do("GET", "/submit", nil, map[string]string{"Sec-Fetch-Site": "cross-site"})
	if code != http.StatusOK || !strings.Contains(body, `http-equiv="refresh" content="0; url=/submit"`) {
		t.Errorf("a link from another site: got %d\n%s", code, body)
	}
	c.do("POST", "/logout", strings.NewReader(url.Values{"csrf": {c.csrf()}}.Encode()), map[string]string{"Content-Type": "application/x-www-form-urlencoded"})
	if code, _ := c.get("/"); code != http.StatusSeeOther {
		t.Errorf("after logout: got %d, want 303 to the login", code)
	}
}

func TestPagesAuthorization(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOpts{tokens: pageTokens})
	e.startWorker("w", scriptEngine{})
	root, alice, bob := e.client(t), e.client(t), e.client(t)
	root.login(pageTokens[2].Token)
	alice.login(pageTokens[0].Token)
	bob.login(pageTokens[1].Token)
	id := alice.submitted("clocks", "sol.py", "ok")
	for _, path := range []string{"/queue", "/queue/rejudges/clocks/0123456789abcdef0123"} {
		code, body := alice.get(path)
		if code != http.StatusForbidden || !strings.Contains(body, "for admins only") || !strings.Contains(body, "<h1>403 Forbidden</h1>") {
			t.Errorf("contestant GET %s: got %d, want the 403 page\n%s", path, code, body)
		}
	}
	if code, _, _ := alice.do("POST", "/queue/rejudge", strings.NewReader(url.Values{"csrf": {alice.csrf()}, "problem": {"clocks"}}.Encode()),
		map[string]string{"Content-Type": "application/x-www-form-urlencoded"}); code != http.StatusForbidden {
		t.Errorf("contestant rejudge: got %d, want 403", code)
	}
	if code, _ := bob.get("/s/" + id); code != http.StatusNotFound {
		t.Errorf("bob's view of alice's submission: got %d, want 404", code)
	}
	if code, body := bob.get("/"); code != http.StatusOK || strings.Contains(body, id) {
		t.Errorf("bob's list: got %d, lists alice's: %v", code, strings.Contains(body, id))
	}
	if code, body := root.get("/"); code != http.StatusOK || !strings.Contains(body, id) || !strings.Contains(body, "<td>alice</td>") {
		t.Errorf("admin's list: got %d, want alice's submission with her name", code)
	}
	if code, _ := root.get("/queue"); code != http.StatusOK {
		t.Errorf("admin's queue: got %d", code)
	}
	// the API reads with the cookie (the pages' scripts), never writes with it
	if code, _ := alice.get("/api/v1/submissions/" + id); code != http.StatusOK {
		t.Errorf("API GET with the cookie: got %d, want 200", code)
	}
	code, _, _ := alice.do("POST", "/api/v1/submissions", jsonBody(SubmitRequest{Problem: "clocks", Filename: "a.py", Source: "ok"}), nil)
	if code != http.StatusUnauthorized {
		t.Errorf("API POST with only the cookie: got %d, want 401", code)
	}
	// forms: the token, and no other site's posts
	code, _, body := alice.submitForm(map[string]string{"problem": "clocks"}, "a.py", "ok")
	if code != http.StatusForbidden || !strings.Contains(body, "out of date") {
		t.Errorf("a form without its token: got %d, want 403", code)
	}
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	mw.WriteField("csrf", alice.csrf())
	mw.Close()
	code, _, _ = alice.do("POST", "/submit", &buf, map[string]string{"Content-Type": mw.FormDataContentType(), "Sec-Fetch-Site": "cross-site", "Origin": "https://evil.example"})
	if code != http.StatusForbidden {
		t.Errorf("a post from another site: got %d, want 403", code)
	}
	if alice.csrf() == bob.csrf() {
		t.Error("two users' form tokens are the same")
	}
}

// waitPage polls a page until it holds want.
func (c *pageClient) waitPage(path, want string) string {
	c.t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		_, body := c.get(path)
		if strings.Contains(body, want) {
			return body
		}
		if time.Now().After(deadline) {
			c.t.Fatalf("%s: no %q after a minute:\n%s", path, want, body)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestPagesFailure: the first failing test's message and drawing, and who
// sees what of them: a contestant nothing of a secret test's (its drawing
// is the test's input), all of a sample test's.
func TestPagesFailure(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOpts{tokens: pageTokens})
	e.startWorker("w", scriptEngine{})
	root, alice := e.client(t), e.client(t)
	root.login(pageTokens[2].Token)
	alice.login(pageTokens[0].Token)

	secret := alice.submitted("clocks", "long.py", "long-secret") // too long on a secret test
	body := alice.waitPage("/s/"+secret, `data-state="done"`)
	var rv SubmissionView
	e.token = pageTokens[2].Token
	e.do("GET", "/api/v1/submissions/"+secret, nil, nil, &rv)
	if rv.Failure == nil || rv.Failure.Message == "" {
		t.Fatalf("the admin's view of a secret WA: got failure %+v, want all of it", rv.Failure)
	}
	if !strings.Contains(body, "v v-WA") || strings.Contains(body, "drawing.svg") || strings.Contains(body, template.HTMLEscapeString(rv.Failure.Message)) {
		t.Errorf("alice's page: want WA, without the drawing or the checker's message %q\n%s", rv.Failure.Message, body)
	}
	if strings.Contains(body, `<pre id="f-in">`+"3") || !strings.Contains(body, `<details id="f-io" hidden>`) {
		t.Errorf("alice's page shows a secret test's input")
	}
	if code, _ := alice.get("/api/v1/submissions/" + secret + "/drawing.svg"); code != http.StatusNotFound {
		t.Errorf("alice's drawing of a secret test: got %d, want 404", code)
	}
	_, full := root.get("/api/v1/submissions/" + secret + "/drawing.svg")
	if !strings.Contains(full, "optimal (") || !strings.Contains(full, "yours") {
		t.Errorf("the admin's drawing: want both paths\n%s", full)
	}
	body = root.waitPage("/s/"+secret, `data-state="done"`)
	for _, want := range []string{"First failing test: <span id=\"f-test\">secret/", `<details id="f-io">`, `src="/api/v1/submissions/` + secret + `/drawing.svg"`} {
		if !strings.Contains(body, want) {
			t.Errorf("the admin's page: no %q\n%s", want, body)
		}
	}
	var v SubmissionView
	alice.e.token = pageTokens[0].Token
	e.do("GET", "/api/v1/submissions/"+secret, nil, nil, &v)
	if v.Failure != nil {
		t.Errorf("alice's API view of a secret failure: got %+v, want none", v.Failure)
	}

	sample := alice.submitted("clocks", "long.py", "long") // too long on the sample
	alice.waitPage("/s/"+sample, `data-state="done"`)
	if _, svg := alice.get("/api/v1/submissions/" + sample + "/drawing.svg"); !strings.Contains(svg, "optimal (") {
		t.Errorf("alice's drawing of the sample: want the optimal path (the statement shows it)\n%s", svg)
	}
	if code, _ := alice.get("/api/v1/submissions/" + sample + "/drawing.svg?x"); code != http.StatusOK {
		t.Errorf("drawing: got %d", code)
	}
	ok := alice.submitted("clocks", "ok.py", "ok")
	body = alice.waitPage("/s/"+ok, `data-state="done"`)
	if !strings.Contains(body, `<section class="card" id="failure" hidden>`) || !strings.Contains(body, "v v-AC") {
		t.Errorf("an AC page: want the failure section hidden and AC")
	}
	if code, _ := alice.get("/api/v1/submissions/" + ok + "/drawing.svg"); code != http.StatusNotFound {
		t.Errorf("an AC's drawing: got %d, want 404", code)
	}
	ce := alice.submitted("clocks", "ce.cpp", "ce")
	body = alice.waitPage("/s/"+ce, `data-state="done"`)
	if !strings.Contains(body, "was not declared &lt;here&gt;") || strings.Contains(body, `<section class="card" id="compile" hidden>`) {
		t.Errorf("a CE page: want the compiler's message, escaped\n%s", body)
	}
}

// TestPagesEscaping: what a contestant's program prints reaches the pages
// as text.
func TestPagesEscaping(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOpts{})
	e.startWorker("w", scriptEngine{})
	c := e.client(t)
	evil := `<script>alert(1)</script><img src=x onerror=alert(2)>`
	id := c.submitted("eight-puzzle", "x.py", "text:"+evil)
	body := c.waitPage("/s/"+id, `data-state="done"`)
	if strings.Contains(body, "<script>alert") || strings.Contains(body, "<img src=x") {
		t.Errorf("the program's output reached the page as markup:\n%s", body)
	}
	if !strings.Contains(body, "&lt;script&gt;") {
		t.Errorf("the page does not show the output as text:\n%s", body)
	}
	_, svg := c.get("/api/v1/submissions/" + id + "/drawing.svg")
	if strings.Contains(svg, "<script") || strings.Contains(svg, "<img") {
		t.Errorf("the drawing holds markup from the output:\n%s", svg)
	}
	_, hdr, _ := c.do("GET", "/api/v1/submissions/"+id+"/drawing.svg", nil, nil)
	if ct, csp := hdr.Get("Content-Type"), hdr.Get("Content-Security-Policy"); ct != "image/svg+xml" || !strings.Contains(csp, "default-src 'none'") {
		t.Errorf("drawing headers: got %q, %q", ct, csp)
	}
	_, hdr, _ = c.do("GET", "/", nil, nil)
	if csp := hdr.Get("Content-Security-Policy"); csp != pageCSP || !strings.Contains(csp, "script-src 'self'") {
		t.Errorf("page CSP: got %q", csp)
	}
	// nothing inline for the policy to refuse
	for _, path := range []string{"/", "/submit", "/s/" + id, "/queue", "/login", "/nope"} {
		_, body := c.get(path)
		if m := regexp.MustCompile(`<script>|<script [^>]*>[^<]|<[a-z][^>]*\son[a-z]+=|<[a-z][^>]*style="|<style`).FindString(body); m != "" {
			t.Errorf("%s: inline script or style %q", path, m)
		}
	}
}

// TestPagesSubmitErrors: the API's errors appear on the form, with what
// was typed kept.
func TestPagesSubmitErrors(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOpts{})
	c := e.client(t)
	tests := []struct {
		name          string
		fields        map[string]string
		file, content string
		status        int
		want          []string
	}{
		{"unknown language", map[string]string{"problem": "eight-puzzle", "filename": "sol.txt", "source": "puts 1 <b>"}, "", "", 400,
			[]string{"Not sent:", "no language for extension", `value="sol.txt"`, "puts 1 &lt;b&gt;</textarea>", `<option value="eight-puzzle" selected>`}},
		{"oversize file", map[string]string{"problem": "clocks", "language": "python3"}, "big.py", strings.Repeat("#", 300<<10), 413,
			[]string{"Not sent:", "file big.py: 307200 bytes, over the limit of 262144", `<option value="python3" selected>`}},
		{"pasted without a name", map[string]string{"problem": "clocks", "source": "print(1)"}, "", "", 400,
			[]string{"filename: required", "print(1)</textarea>"}},
		{"file kept", map[string]string{"problem": "clocks", "language": "cobol"}, "sol.py", "print(2)", 400,
			[]string{"cobol", "print(2)</textarea>", "The file&#39;s text is in the box below"}},
		{"unknown problem", map[string]string{"problem": "nope", "filename": "a.py", "source": "print(3)"}, "", "", 404,
			[]string{"unknown problem", "print(3)</textarea>"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.fields["csrf"], tt.fields["key"] = c.csrf(), newKey()
			code, _, body := c.submitForm(tt.fields, tt.file, tt.content)
			if code != tt.status {
				t.Errorf("got %d, want %d", code, tt.status)
			}
			for _, w := range tt.want {
				if !strings.Contains(body, w) {
					t.Errorf("the form has no %q\n%s", w, body)
				}
			}
		})
	}
	// pasted source with a language and no name is named after the language
	code, hdr, body := c.submitForm(map[string]string{"csrf": c.csrf(), "key": newKey(), "problem": "clocks", "language": "python3", "source": "print(4)"}, "", "")
	if code != http.StatusSeeOther {
		t.Fatalf("pasted with a language: got %d\n%s", code, body)
	}
	var v SubmissionView
	e.do("GET", "/api/v1/submissions/"+strings.TrimPrefix(hdr.Get("Location"), "/s/"), nil, nil, &v)
	if v.Filename != "submission.py" || v.Language != "python3" {
		t.Errorf("pasted with a language: got %s in %s, want submission.py in python3", v.Filename, v.Language)
	}
	if got := plainName("My Solution (2).py"); got != "My_Solution__2_.py" {
		t.Errorf("plainName: got %q", got)
	}
}

// TestPageSizes: every page, with its style sheet and script, is under
// 100 KB before images, with a full list.
func TestPageSizes(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOpts{})
	e.startWorker("w", scriptEngine{})
	c := e.client(t)
	var last string
	for i := range listLimit + 20 {
		last = e.submit([]string{"clocks", "eight-puzzle", "rotation-game"}[i%3], "sol.py", "text:1")
	}
	e.waitDone(time.Minute, last)
	_, css := c.get("/static/style.css")
	_, js := c.get("/static/app.js")
	if len(css) < 1000 || len(js) < 1000 {
		t.Fatalf("style sheet %d bytes, script %d: want both", len(css), len(js))
	}
	_, rj, _ := c.do("POST", "/queue/rejudge", strings.NewReader(url.Values{"csrf": {c.csrf()}, "problem": {"clocks"}}.Encode()),
		map[string]string{"Content-Type": "application/x-www-form-urlencoded"})
	paths := []string{"/", "/?problem=clocks&verdict=WA", "/submit?problem=clocks", "/submit?problem=eight-puzzle",
		"/submit?problem=rotation-game", "/submit?problem=sum-kattis", "/s/" + last, "/queue", rj.Get("Location"), "/nope"}
	for _, path := range paths {
		code, body := c.get(path)
		if code >= 500 || !strings.Contains(body, "</html>") {
			t.Errorf("%s: got %d\n%s", path, code, body)
		}
		size := len(body) + len(css) + len(js)
		t.Logf("%s: %d bytes of HTML, %d with the style sheet and script", path, len(body), size)
		if size >= 100<<10 {
			t.Errorf("%s: %d bytes with the style sheet and script, want under 100 KB", path, size)
		}
	}
	if _, body := c.get("/"); strings.Count(body, `<tr data-id=`) != listLimit || !strings.Contains(body, "The newest 100 are shown") {
		t.Errorf("the list: got %d rows, want %d and a note", strings.Count(body, `<tr data-id=`), listLimit)
	}
}

func TestSampleDrawings(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOpts{})
	c := e.client(t)
	_, body := c.get("/submit?problem=clocks")
	if !strings.Contains(body, `<img src="/problems/clocks/samples/0/1" alt="start: 3 3 0`) {
		t.Errorf("the clocks sample has no drawing:\n%s", body)
	}
	code, hdr, svg := c.do("GET", "/problems/clocks/samples/0/1", nil, nil)
	if code != http.StatusOK || hdr.Get("Content-Type") != "image/svg+xml" || !strings.Contains(svg, "optimal") {
		t.Errorf("the sample drawing: got %d %s\n%s", code, hdr.Get("Content-Type"), svg)
	}
	for _, path := range []string{"/problems/clocks/samples/0/9", "/problems/clocks/samples/7/1", "/problems/nope/samples/0/1", "/problems/clocks/samples/x/1"} {
		if code, _ := c.get(path); code != http.StatusNotFound {
			t.Errorf("%s: got %d, want 404", path, code)
		}
	}
	if code, body := c.get("/problems/eight-puzzle/statement"); code != http.StatusOK || !strings.Contains(body, `<h2><a href="/problems/eight-puzzle">Eight</a> <small>eight-puzzle</small></h2>`) {
		t.Errorf("the statement fragment: got %d\n%s", code, body)
	}
}

// uploadForm posts the problem set page's upload form with the package
// file data.
func (c *pageClient) uploadForm(csrf, name string, data []byte) (int, http.Header, string) {
	c.t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	mw.WriteField("csrf", csrf)
	fw, _ := mw.CreateFormFile("package", name)
	fw.Write(data)
	mw.Close()
	return c.do("POST", "/problems", &buf, map[string]string{"Content-Type": mw.FormDataContentType()})
}

// TestPagesUpload: an admin uploads a package from the problem set page
// and is shown its page; a package that does not load comes back to the
// form with the reason; contestants see no form and may not post it.
func TestPagesUpload(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOpts{tokens: pageTokens})
	root, alice := e.client(t), e.client(t)
	root.login(pageTokens[2].Token)
	alice.login(pageTokens[0].Token)
	if _, body := root.get("/problems"); !strings.Contains(body, `id="upload-form"`) {
		t.Errorf("the admin's problem set has no upload form:\n%s", body)
	}
	if _, body := alice.get("/problems"); strings.Contains(body, `id="upload-form"`) {
		t.Error("alice's problem set has the upload form")
	}
	pkg := tarGz(t, copyClocks(t, t.TempDir(), "Form Clocks"))
	if code, _, _ := alice.uploadForm(alice.csrf(), "clocks.tar.gz", pkg); code != http.StatusForbidden {
		t.Errorf("alice's upload: got %d, want 403", code)
	}
	if code, _, _ := root.uploadForm("stale", "clocks.tar.gz", pkg); code != http.StatusForbidden {
		t.Errorf("an upload with a wrong form token: got %d, want 403", code)
	}
	var d ProblemDetail
	e.token = pageTokens[2].Token
	if e.do("GET", "/api/v1/problems/clocks", nil, nil, &d); d.Uploaded {
		t.Fatal("refused uploads changed clocks")
	}
	for _, tt := range []struct {
		name string
		data []byte
		want string
	}{
		{"notes.txt", []byte("not an archive"), "not a .zip or a .tar.gz archive"},
		{"empty.zip", nil, "choose a package file"},
	} {
		code, _, body := root.uploadForm(root.csrf(), tt.name, tt.data)
		if code != http.StatusBadRequest || !strings.Contains(body, `id="upload-error"`) || !strings.Contains(body, tt.want) {
			t.Errorf("uploading %s: got %d, want 400 and the form saying %q\n%s", tt.name, code, tt.want, body)
		}
	}
	code, hdr, body := root.uploadForm(root.csrf(), "clocks.tar.gz", pkg)
	if code != http.StatusSeeOther || hdr.Get("Location") != "/problems/clocks" {
		t.Fatalf("the admin's upload: got %d %q, want 303 to /problems/clocks\n%s", code, hdr.Get("Location"), body)
	}
	if e.do("GET", "/api/v1/problems/clocks", nil, nil, &d); !d.Uploaded || d.Title != "Form Clocks" {
		t.Errorf("clocks after the upload: got %+v", d.ProblemSummary)
	}
	e.api.cfg.MaxPackage = 1 << 10 // --max-package 1KiB, past the server's start: no request runs now
	code, _, body = root.uploadForm(root.csrf(), "clocks.tar.gz", pkg)
	if code != http.StatusRequestEntityTooLarge || !strings.Contains(body, "larger than the limit of 1 KiB") {
		t.Errorf("a package over the limit: got %d, want 413 and the form saying so\n%s", code, body)
	}
}
