package service

import (
	"bytes"
	"encoding/json"
	"mime/multipart"
	"net/http"
	"strings"
	"testing"
)

// TestMalformedRequests sends requests a careless or hostile client might:
// each gets a 4xx with a message, and the server stays healthy.
func TestMalformedRequests(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOpts{})
	big := strings.Repeat("x", 256<<10+1)
	tests := []struct {
		name, method, path, ctype, body string
		want                            int
		msg                             string
	}{
		{"bad JSON", "POST", "/api/v1/submissions", "application/json", `{"problem": "clocks",`, 400, "bad JSON"},
		{"not JSON", "POST", "/api/v1/submissions", "application/json", `problem=clocks`, 400, "bad JSON"},
		{"binary garbage", "POST", "/api/v1/submissions", "application/json", "\x00\xff\xfe\x01PK\x03\x04", 400, "bad JSON"},
		{"empty body", "POST", "/api/v1/submissions", "application/json", ``, 400, "empty body"},
		{"an array", "POST", "/api/v1/submissions", "application/json", `[1, 2]`, 400, "want an object"},
		{"wrong type", "POST", "/api/v1/submissions", "application/json", `{"problem": 7, "filename": "a.py", "source": "x"}`, 400, "field problem"},
		{"unknown field", "POST", "/api/v1/submissions", "application/json", `{"problem": "clocks", "filename": "a.py", "source": "x", "admin": true}`, 400, "unknown field"},
		{"two values", "POST", "/api/v1/submissions", "application/json", `{"problem": "clocks", "filename": "a.py", "source": "x"} {}`, 400, "more than one"},
		{"missing problem", "POST", "/api/v1/submissions", "application/json", `{"filename": "a.py", "source": "x"}`, 400, "problem: required"},
		{"missing filename", "POST", "/api/v1/submissions", "application/json", `{"problem": "clocks", "source": "x"}`, 400, "filename: required"},
		{"missing source", "POST", "/api/v1/submissions", "application/json", `{"problem": "clocks", "filename": "a.py"}`, 400, "source: required"},
		{"unknown problem", "POST", "/api/v1/submissions", "application/json", `{"problem": "nope", "filename": "a.py", "source": "x"}`, 404, "unknown problem"},
		{"problem path", "POST", "/api/v1/submissions", "application/json", `{"problem": "../clocks", "filename": "a.py", "source": "x"}`, 404, "unknown problem"},
		{"unknown language", "POST", "/api/v1/submissions", "application/json", `{"problem": "clocks", "filename": "a.py", "source": "x", "language": "cobol"}`, 400, "unknown language"},
		{"unknown extension", "POST", "/api/v1/submissions", "application/json", `{"problem": "clocks", "filename": "a.txt", "source": "x"}`, 400, "no language"},
		{"dotdot filename", "POST", "/api/v1/submissions", "application/json", `{"problem": "clocks", "filename": "../../etc/passwd.py", "source": "x"}`, 400, "plain file name"},
		{"slash filename", "POST", "/api/v1/submissions", "application/json", `{"problem": "clocks", "filename": "a/b.py", "source": "x"}`, 400, "plain file name"},
		{"dot filename", "POST", "/api/v1/submissions", "application/json", `{"problem": "clocks", "filename": ".py", "source": "x"}`, 400, "plain file name"},
		{"oversize source", "POST", "/api/v1/submissions", "application/json", `{"problem": "clocks", "filename": "a.py", "source": "` + big + `"}`, 413, "over the limit"},
		{"oversize body", "POST", "/api/v1/submissions", "application/json", `{"problem": "clocks", "filename": "a.py", "source": "` + strings.Repeat("\\u0000", 256<<10) + `"}`, 413, "larger than"},
		{"wrong content type", "POST", "/api/v1/submissions", "text/plain", `hello`, 415, "Content-Type"},
		{"bad multipart", "POST", "/api/v1/submissions", "multipart/form-data; boundary=x", "--x\r\ngarbage", 400, "multipart"},
		{"bad id", "GET", "/api/v1/submissions/../../etc", "", ``, 404, ""},
		{"unknown id", "GET", "/api/v1/submissions/0123456789abcdef0123", "", ``, 404, "no submission"},
		{"bad limit", "GET", "/api/v1/submissions?limit=-3", "", ``, 400, "limit"},
		{"bad state", "GET", "/api/v1/submissions?state=lost", "", ``, 400, "state"},
		{"unknown endpoint", "GET", "/api/v1/nothing", "", ``, 404, "no such endpoint"},
		{"wrong method", "DELETE", "/api/v1/submissions", "", ``, 405, ""},
		{"unknown problem detail", "GET", "/api/v1/problems/nope", "", ``, 404, "unknown problem"},
		{"unknown rejudge", "GET", "/api/v1/problems/clocks/rejudges/zzz", "", ``, 404, "no rejudge"},
		{"rejudge unknown problem", "POST", "/api/v1/problems/nope/rejudge", "", ``, 404, "unknown problem"},
		{"upload garbage", "POST", "/api/v1/problems", "application/zip", "\x00garbage", 400, "not a .zip"},
		{"upload as text", "POST", "/api/v1/problems", "text/plain", "PK\x03\x04", 415, "Content-Type"},
		{"rejudge a bad name", "POST", "/api/v1/problems/a%2Ab/rejudge", "", ``, 404, "unknown problem"},
		{"rejudge a long name", "POST", "/api/v1/problems/" + strings.Repeat("a", 65) + "/rejudge", "", ``, 404, "unknown problem"},
		{"rejudge of a bad name", "GET", "/api/v1/problems/a%2Ab/rejudges/0123456789abcdef0123", "", ``, 404, "no rejudge"},
		{"the API's root", "GET", "/api", "", ``, 404, "no such endpoint"},
		{"post to the API's root", "POST", "/api", "", ``, 404, "no such endpoint"},
		{"post to healthz", "POST", "/healthz", "", ``, 405, "allowed are GET, HEAD"},
		{"delete metrics", "DELETE", "/metrics", "", ``, 405, "allowed are GET, HEAD"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hdr := map[string]string{}
			if tt.ctype != "" {
				hdr["Content-Type"] = tt.ctype
			}
			var out struct{ Error string }
			code, body := e.send(tt.method, tt.path, []byte(tt.body), hdr)
			if code != tt.want {
				t.Fatalf("got %d, want %d", code, tt.want)
			}
			if err := json.Unmarshal([]byte(body), &out); err != nil || out.Error == "" {
				t.Fatalf("got %q, want a JSON error", body)
			}
			if !strings.Contains(out.Error, tt.msg) {
				t.Errorf("got error %q, want one with %q", out.Error, tt.msg)
			}
		})
	}
	var h struct{ Status string }
	if code := e.do("GET", "/healthz", nil, nil, &h); code != 200 || h.Status != "ok" {
		t.Errorf("healthz after the battery: got %d %q, want 200 ok", code, h.Status)
	}
}

// TestMultipartSubmission submits by form, as a browser does.
func TestMultipartSubmission(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOpts{})
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	mw.WriteField("problem", "clocks")
	fw, _ := mw.CreateFormFile("file", "wa.py")
	fw.Write([]byte(readFile(t, "wa.py")))
	mw.Close()
	var a Accepted
	if code := e.do("POST", "/api/v1/submissions", &buf, map[string]string{"Content-Type": mw.FormDataContentType()}, &a); code != http.StatusAccepted {
		t.Fatalf("got %d, want 202", code)
	}
	v := e.get(a.ID)
	if v.Filename != "wa.py" || v.Language != "python3" || v.State != StateQueued {
		t.Errorf("got %+v, want wa.py in python3, queued", v.SubmissionView)
	}
}
