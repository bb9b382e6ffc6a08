package service

import (
	"context"
	"net/http"
	"testing"
	"time"
)

// TestEventStreamsPerUser: one user may hold only MaxStreams event streams
// open; another is not held back, and a closed stream makes room.
func TestEventStreamsPerUser(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOpts{tokens: pageTokens})
	e.api.cfg.MaxStreams = 3
	e.token = pageTokens[0].Token
	id := e.submit("clocks", "a.py", "print(1)\n")
	open := func(token, path string) (int, context.CancelFunc) {
		t.Helper()
		ctx, cancel := context.WithCancel(t.Context())
		req, _ := http.NewRequestWithContext(ctx, "GET", e.http.URL+path, nil)
		req.Header.Set("Authorization", "Bearer "+token)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		if resp.StatusCode != http.StatusOK {
			resp.Body.Close()
		}
		t.Cleanup(func() { cancel(); resp.Body.Close() })
		return resp.StatusCode, func() { cancel(); resp.Body.Close() }
	}
	var closers []context.CancelFunc
	for i, path := range []string{"/api/v1/submissions/" + id + "/events", "/api/v1/events", "/api/v1/submissions/" + id + "/events"} {
		code, c := open(pageTokens[0].Token, path)
		if code != http.StatusOK {
			t.Fatalf("stream %d: got %d, want 200", i+1, code)
		}
		closers = append(closers, c)
	}
	if code, _ := open(pageTokens[0].Token, "/api/v1/events"); code != http.StatusTooManyRequests {
		t.Errorf("a fourth stream: got %d, want 429", code)
	}
	if code, _ := open(pageTokens[2].Token, "/api/v1/events"); code != http.StatusOK {
		t.Errorf("another user's stream: got %d, want 200", code)
	}
	closers[0]()
	waitFor(t, 10*time.Second, "room for a stream", func() bool {
		code, c := open(pageTokens[0].Token, "/api/v1/submissions/"+id+"/events")
		c()
		return code == http.StatusOK
	})
}
