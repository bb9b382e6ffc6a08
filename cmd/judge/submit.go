package main

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/optjudge/optjudge/judge"
	"github.com/optjudge/optjudge/judge/service"
	"github.com/optjudge/optjudge/verdict"
)

var cmdSubmit = &command{
	Name:      "submit",
	UsageLine: "submit [--server URL] [--token T] [--wait] [--json] PROBLEM FILE",
	Short:     "send a submission to a grading service",
	Long: `
Submit sends FILE as a submission to PROBLEM on a grading service (judge
serve) and prints its id. With --wait it waits for the verdict and prints
the same table, or with --json the same report, as judge run.

The server is --server (default $JUDGE_SERVER, else http://127.0.0.1:8080);
the token --token (default $JUDGE_TOKEN). The language is chosen by the
file's extension, or by --lang.

Examples:

	judge submit clocks sol.py
	judge submit --wait --server https://judge.example.org --token $T eight-puzzle a.cpp

Every submission is sent with an Idempotency-Key of its own: a POST sent
again when the connection broke or the server answered 502, 503 or 504
(for up to a minute) makes no second submission. With --wait a poll that
fails for such a reason, or cannot connect (judge serve restarting), is
sent again until --timeout.

Exit codes: without --wait 0 once the submission is accepted; with --wait
0 accepted, 1 any other verdict; 2 usage error, a refusal by the server,
or JE.
`,
	Flags: func(fs *flag.FlagSet) {
		fs.String("server", "", "the service's `URL` (default $JUDGE_SERVER, else http://127.0.0.1:8080)")
		fs.String("token", "", "bearer `TOKEN` (default $JUDGE_TOKEN)")
		fs.Bool("wait", false, "wait for the verdict and print the report")
		fs.Bool("json", false, "with --wait, print the report as JSON")
		fs.String("lang", "", "the language `NAME` (default: by the file's extension)")
		fs.Duration("timeout", 30*time.Minute, "with --wait, give up after this long")
	},
	Run: runSubmit,
}

// client talks to the service's API.
type client struct {
	base, token string
	http        *http.Client
	stderr      io.Writer
}

// httpError is an answer of the server that is not a success.
type httpError struct {
	status int
	msg    string
}

func (e *httpError) Error() string { return e.msg }

// do sends one request with a JSON body (nil: none) and decodes the answer
// into out.
func (c *client) do(method, path string, hdr map[string]string, body, out any) error {
	var r io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return err
		}
		r = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, c.base+path, r)
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 64<<20))
	if err != nil {
		return err
	}
	if resp.StatusCode >= 300 {
		var e struct{ Error string }
		if json.Unmarshal(b, &e) == nil && e.Error != "" {
			return &httpError{resp.StatusCode, fmt.Sprintf("%s: %s", resp.Status, e.Error)}
		}
		return &httpError{resp.StatusCode, fmt.Sprintf("%s %s: %s", method, path, resp.Status)}
	}
	return json.Unmarshal(b, out)
}

// transient says whether a failed request is worth sending again: the
// server or a proxy before it is restarting or overloaded (502, 503, 504,
// 507 no: that one waits for an admin), or the connection broke. A
// connection that could not be made at all is transient only when dial
// is (a poll: the server may be coming back).
func transient(err error, dial bool) bool {
	var he *httpError
	if errors.As(err, &he) {
		return he.status == http.StatusBadGateway || he.status == http.StatusServiceUnavailable || he.status == http.StatusGatewayTimeout
	}
	var oe *net.OpError
	if errors.As(err, &oe) && oe.Op == "dial" {
		return dial
	}
	return true
}

// retry runs f until it succeeds, fails for good, or deadline passes,
// waiting 200 ms after the first failure and twice as long after each
// next, up to 5 s. It says once on stderr that it is trying again.
func (c *client) retry(what string, deadline time.Time, dial bool, f func() error) error {
	wait, told := 200*time.Millisecond, false
	for {
		err := f()
		if err == nil || !transient(err, dial) || time.Now().Add(wait).After(deadline) {
			return err
		}
		if !told {
			fmt.Fprintf(c.stderr, "judge submit: %s: %v (trying again)\n", what, err)
			told = true
		}
		time.Sleep(wait)
		wait = min(2*wait, 5*time.Second)
	}
}

// newIdempotencyKey names one submission's POST, however often it is sent.
func newIdempotencyKey() string {
	var b [16]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

func runSubmit(e *env, fs *flag.FlagSet, args []string) int {
	if len(args) != 2 {
		return e.usageError("want PROBLEM and FILE, got %d arguments", len(args))
	}
	src, err := os.ReadFile(args[1])
	if err != nil {
		return e.fail(err)
	}
	c := &client{base: flagValue(fs, "server").(string), token: flagValue(fs, "token").(string), http: &http.Client{Timeout: time.Minute},
		stderr: e.stderr}
	if c.base == "" {
		c.base = os.Getenv("JUDGE_SERVER")
	}
	if c.base == "" {
		c.base = "http://127.0.0.1:8080"
	}
	c.base = strings.TrimSuffix(c.base, "/")
	if c.token == "" {
		c.token = os.Getenv("JUDGE_TOKEN")
	}
	var acc service.Accepted
	req := service.SubmitRequest{Problem: args[0], Filename: filepath.Base(args[1]), Source: string(src), Language: flagValue(fs, "lang").(string)}
	// a POST sent again (the connection broke, the server restarted)
	// makes no second submission
	key := map[string]string{"Idempotency-Key": newIdempotencyKey()}
	err = c.retry("submitting", time.Now().Add(time.Minute), false, func() error {
		return c.do("POST", "/api/v1/submissions", key, req, &acc)
	})
	if err != nil {
		return e.fail(err)
	}
	asJSON := flagValue(fs, "json").(bool)
	if !flagValue(fs, "wait").(bool) {
		fmt.Fprintln(e.stdout, acc.ID)
		return exitOK
	}
	if !asJSON {
		fmt.Fprintf(e.stdout, "submission %s\n", acc.ID)
	}
	return e.waitReport(c, acc.ID, asJSON, flagValue(fs, "timeout").(time.Duration))
}

// waitReport polls the submission until it is done and prints its report.
// A poll that fails for a reason of the moment is sent again (the
// submission is stored: it outlives a restart of judge serve).
func (e *env) waitReport(c *client, id string, asJSON bool, timeout time.Duration) int {
	deadline := time.Now().Add(timeout)
	var sub struct {
		State  string          `json:"state"`
		Report json.RawMessage `json:"report"`
	}
	for {
		err := c.retry("polling "+id, deadline, true, func() error {
			return c.do("GET", "/api/v1/submissions/"+id, nil, nil, &sub)
		})
		if err != nil {
			return e.fail(fmt.Errorf("submission %s: %w", id, err))
		}
		if sub.State == service.StateDone {
			break
		}
		if time.Now().After(deadline) {
			return e.fail(fmt.Errorf("submission %s: still %s after %v", id, sub.State, timeout))
		}
		time.Sleep(200 * time.Millisecond)
	}
	var r judge.Report
	if err := json.Unmarshal(sub.Report, &r); err != nil {
		return e.fail(fmt.Errorf("submission %s: its report: %w", id, err))
	}
	if asJSON {
		var buf bytes.Buffer
		if err := json.Indent(&buf, sub.Report, "", "  "); err != nil {
			return e.fail(err)
		}
		buf.WriteByte('\n')
		e.stdout.Write(buf.Bytes())
	} else {
		newReporter(e.stdout, false).report(&r)
	}
	switch r.Verdict {
	case verdict.AC:
		return exitOK
	case verdict.JE:
		return exitError
	}
	return exitRejected
}
