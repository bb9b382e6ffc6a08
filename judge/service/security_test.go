package service

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// send is one request with the given headers (Host among them): its
// status and body.
func (e *env) send(method, path string, body []byte, hdr map[string]string) (int, string) {
	e.t.Helper()
	req, err := http.NewRequest(method, e.http.URL+path, bytes.NewReader(body))
	if err != nil {
		e.t.Fatal(err)
	}
	if e.token != "" {
		req.Header.Set("Authorization", "Bearer "+e.token)
	}
	for k, v := range hdr {
		if k == "Host" {
			req.Host = v
			continue
		}
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func multipartBody(fields map[string]string, file, content string) ([]byte, string) {
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	for k, v := range fields {
		mw.WriteField(k, v)
	}
	if file != "" {
		fw, _ := mw.CreateFormFile("file", file)
		fw.Write([]byte(content))
	}
	mw.Close()
	return buf.Bytes(), mw.FormDataContentType()
}

// TestCrossSiteRequestsRefused: without tokens every request is the local
// admin, so a page of another site must not make one that changes
// anything: every route that does, in every encoding a browser sends
// without asking first (form posts, multipart, text/plain, none), and by
// either header a browser marks it with.
func TestCrossSiteRequestsRefused(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOpts{})
	sub := e.submit("clocks", "a.py", "print(1)\n")
	root := copyClocks(t, t.TempDir(), "Evil Clocks")
	pkg := tarGz(t, root)
	form, formType := multipartBody(map[string]string{"problem": "clocks"}, "a.py", "print(1)\n")
	pageForm, pageType := multipartBody(map[string]string{"problem": "clocks", "csrf": "x"}, "a.py", "print(1)\n")
	json := []byte(`{"problem": "clocks", "filename": "a.py", "source": "print(1)"}`)
	plain := url.Values{"problem": {"clocks"}, "csrf": {"x"}}.Encode()
	var pageUpload bytes.Buffer
	mw := multipart.NewWriter(&pageUpload)
	mw.WriteField("csrf", "x")
	fw, _ := mw.CreateFormFile("package", "clocks.tar.gz")
	fw.Write(pkg)
	mw.Close()
	requests := []struct {
		name, path, ctype string
		body              []byte
	}{
		{"submit JSON", "/api/v1/submissions", "application/json", json},
		{"submit without a Content-Type", "/api/v1/submissions", "", json},
		{"submit text/plain", "/api/v1/submissions", "text/plain", json},
		{"submit multipart", "/api/v1/submissions", formType, form},
		{"upload", "/api/v1/problems", "application/gzip", pkg},
		{"upload text/plain", "/api/v1/problems", "text/plain", pkg},
		{"rejudge", "/api/v1/problems/clocks/rejudge", "", nil},
		{"rejudge form", "/api/v1/problems/clocks/rejudge", "application/x-www-form-urlencoded", []byte(plain)},
		{"page submit", "/submit", pageType, pageForm},
		{"page upload", "/problems", mw.FormDataContentType(), pageUpload.Bytes()},
		{"page rejudge", "/queue/rejudge", "application/x-www-form-urlencoded", []byte(plain)},
		{"page logout", "/logout", "application/x-www-form-urlencoded", []byte(plain)},
		{"page login", "/login", "application/x-www-form-urlencoded", []byte("token=x")},
	}
	marks := []map[string]string{
		{"Sec-Fetch-Site": "cross-site"},
		{"Sec-Fetch-Site": "same-site", "Origin": "http://a.localhost:1"},
		{"Origin": "http://evil.example"}, // a browser without Sec-Fetch-Site
	}
	for _, rq := range requests {
		for i, mark := range marks {
			t.Run(fmt.Sprintf("%s/%d", rq.name, i), func(t *testing.T) {
				hdr := map[string]string{}
				for k, v := range mark {
					hdr[k] = v
				}
				if rq.ctype != "" {
					hdr["Content-Type"] = rq.ctype
				}
				if code, body := e.send("POST", rq.path, rq.body, hdr); code != http.StatusForbidden {
					t.Errorf("got %d %s, want 403", code, body)
				}
			})
		}
	}
	// nothing happened: one submission, graded never again, clocks as embedded
	var list struct{ Submissions []SubmissionView }
	e.do("GET", "/api/v1/submissions", nil, nil, &list)
	if len(list.Submissions) != 1 || list.Submissions[0].ID != sub {
		t.Errorf("submissions after the cross-site posts: got %d, want the one", len(list.Submissions))
	}
	var d ProblemDetail
	if e.do("GET", "/api/v1/problems/clocks", nil, nil, &d); d.Uploaded {
		t.Error("a cross-site upload replaced clocks")
	}
	// the site's own requests and a client that is no browser go through
	if code, _ := e.send("POST", "/api/v1/submissions", json, map[string]string{"Content-Type": "application/json",
		"Sec-Fetch-Site": "same-origin", "Origin": e.http.URL}); code != http.StatusAccepted {
		t.Errorf("a same-origin submission: got %d, want 202", code)
	}
	if code, _ := e.send("POST", "/api/v1/submissions", json, map[string]string{"Content-Type": "application/json"}); code != http.StatusAccepted {
		t.Errorf("curl's submission: got %d, want 202", code)
	}
}

// TestHostCheck: without tokens a request must be addressed to this
// machine (a DNS rebinding page's is to its own name); with tokens any
// name will do.
func TestHostCheck(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOpts{})
	_, port, _ := strings.Cut(e.http.Listener.Addr().String(), ":")
	for _, tt := range []struct {
		host string
		want int
	}{
		{"evil.example:" + port, http.StatusMisdirectedRequest},
		{"evil.example", http.StatusMisdirectedRequest},
		{"127.0.0.1.evil.example:" + port, http.StatusMisdirectedRequest},
		{"localhost.evil.example", http.StatusMisdirectedRequest},
		{"10.0.0.1:" + port, http.StatusMisdirectedRequest},
		{"localhost:" + port, http.StatusOK},
		{"LocalHost.:" + port, http.StatusOK},
		{"judge.localhost:" + port, http.StatusOK},
		{"127.0.0.1:" + port, http.StatusOK},
		{"127.1.2.3", http.StatusOK},
		{"[::1]:" + port, http.StatusOK},
	} {
		for _, path := range []string{"/api/v1/submissions", "/", "/metrics", "/healthz"} {
			if code, body := e.send("GET", path, nil, map[string]string{"Host": tt.host}); code != tt.want {
				t.Errorf("GET %s with Host %s: got %d, want %d\n%s", path, tt.host, code, tt.want, body)
			}
		}
	}
	te := newEnv(t, envOpts{tokens: pageTokens})
	te.token = pageTokens[0].Token
	if code, _ := te.send("GET", "/api/v1/submissions", nil, map[string]string{"Host": "judge.example.org"}); code != http.StatusOK {
		t.Errorf("with tokens, Host judge.example.org: got %d, want 200", code)
	}
}

// TestUploadContentType: an upload says it is an archive; a form, text or
// nothing is refused before it is read.
func TestUploadContentType(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOpts{})
	root := copyClocks(t, t.TempDir(), "Typed Clocks")
	pkg := tarGz(t, root)
	for ct, want := range map[string]int{
		"":                                  http.StatusUnsupportedMediaType,
		"text/plain":                        http.StatusUnsupportedMediaType,
		"application/x-www-form-urlencoded": http.StatusUnsupportedMediaType,
		"multipart/form-data; boundary=x":   http.StatusUnsupportedMediaType,
		"application/gzip":                  http.StatusCreated,
		"application/octet-stream":          http.StatusCreated,
	} {
		hdr := map[string]string{}
		if ct != "" {
			hdr["Content-Type"] = ct
		}
		if code, body := e.send("POST", "/api/v1/problems", pkg, hdr); code != want {
			t.Errorf("upload as %q: got %d %s, want %d", ct, code, body, want)
		}
	}
}

// writeProblemFile writes a file of a problem directory.
func writeProblemFile(t *testing.T, root, name, content string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	os.Chmod(p, 0o644)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestMetricsAndHealthAccess: the metrics count verdicts (a frozen
// scoreboard's secret) and are an admin's; the health check is anyone's,
// but why NATS fails is an admin's to know.
func TestMetricsAndHealthAccess(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOpts{tokens: pageTokens})
	for _, tt := range []struct {
		token string
		want  int
	}{{"", http.StatusUnauthorized}, {pageTokens[0].Token, http.StatusForbidden}, {pageTokens[2].Token, http.StatusOK}} {
		e.token = tt.token
		code, body := e.send("GET", "/metrics", nil, nil)
		if code != tt.want || (code == http.StatusOK && !strings.Contains(body, "judge_submissions{state=\"queued\"}")) {
			t.Errorf("GET /metrics with token %q: got %d, want %d", tt.token, code, tt.want)
		}
	}
	e.token = ""
	if code, body := e.send("GET", "/healthz", nil, nil); code != http.StatusOK || !strings.Contains(body, `"ok"`) {
		t.Errorf("healthz: got %d %s, want 200 ok", code, body)
	}
	e.nc.Close() // NATS does not answer
	for _, tt := range []struct {
		token     string
		wantError bool
	}{{"", false}, {pageTokens[0].Token, false}, {"wrong-token-0123456789", false}, {pageTokens[2].Token, true}} {
		e.token = tt.token
		code, body := e.send("GET", "/healthz", nil, nil)
		var h struct{ Status, Error string }
		json.Unmarshal([]byte(body), &h)
		if code != http.StatusServiceUnavailable || h.Status != "unavailable" || (h.Error != "") != tt.wantError {
			t.Errorf("healthz without NATS, token %q: got %d %s, want 503 with the error only for an admin", tt.token, code, body)
		}
	}
}
