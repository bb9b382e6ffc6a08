package main

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/optjudge/optjudge/judge"
	"github.com/optjudge/optjudge/verdict"
)

// flakyServer answers a submission's POST and polls as a service that is
// restarting would: the first POST's connection breaks, a poll gets a
// 503, another a broken connection, then the submission is running, then
// done.
type flakyServer struct {
	mu    sync.Mutex
	keys  []string // the Idempotency-Key of each POST
	polls int
}

func (f *flakyServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	drop := func() {
		conn, _, _ := http.NewResponseController(w).Hijack()
		conn.Close()
	}
	if r.Method == "POST" {
		f.keys = append(f.keys, r.Header.Get("Idempotency-Key"))
		if len(f.keys) == 1 {
			drop()
			return
		}
		w.WriteHeader(http.StatusAccepted)
		json.NewEncoder(w).Encode(map[string]string{"id": "0123456789abcdef0123", "state": "queued"})
		return
	}
	f.polls++
	switch f.polls {
	case 1:
		w.WriteHeader(http.StatusServiceUnavailable)
		json.NewEncoder(w).Encode(map[string]string{"error": "the store does not answer"})
	case 2:
		drop()
	case 3:
		json.NewEncoder(w).Encode(map[string]any{"state": "running"})
	default:
		rep := judge.Report{Problem: "clocks", Submission: "a.py", Language: "python", Verdict: verdict.AC,
			Compile: judge.CompileResult{OK: true}, Summary: judge.Summary{Verdict: verdict.AC}}
		json.NewEncoder(w).Encode(map[string]any{"state": "done", "report": rep})
	}
}

// TestSubmitRetries: judge submit --wait sends its POST again with the
// same Idempotency-Key when the connection broke, and polls again after a
// 503 or a broken connection, to the verdict.
func TestSubmitRetries(t *testing.T) {
	t.Parallel()
	f := &flakyServer{}
	srv := httptest.NewServer(f)
	defer srv.Close()
	src := filepath.Join(t.TempDir(), "a.py")
	if err := os.WriteFile(src, []byte("print(1)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	e := &env{stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr}
	code := e.main([]string{"submit", "--server", srv.URL, "--wait", "--json", "clocks", src})
	if code != exitOK {
		t.Fatalf("got exit %d, want 0\nstdout: %s\nstderr: %s", code, &stdout, &stderr)
	}
	if len(f.keys) != 2 || f.keys[0] == "" || f.keys[0] != f.keys[1] {
		t.Errorf("Idempotency-Keys of the POSTs: got %q, want the same one twice", f.keys)
	}
	var rep struct{ Verdict string }
	if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil || rep.Verdict != "AC" {
		t.Errorf("stdout: got %q (%v), want the report with AC", &stdout, err)
	}
	if f.polls != 4 {
		t.Errorf("polls: got %d, want 4", f.polls)
	}
}
