package service

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"

	"github.com/optjudge/optjudge/judge/contest"
	"github.com/optjudge/optjudge/judge/internal/testflags"
	"github.com/optjudge/optjudge/judge/sandbox"
	"github.com/optjudge/optjudge/judge/service/store"
)

// TestMain fails the package when a test leaves a process of one of its
// box uids behind.
func TestMain(m *testing.M) {
	if os.Getenv(yajsvEnv) == "1" {
		os.Exit(yajsv(os.Args[1:], os.Stdout, os.Stderr)) // the stand-in check-api.sh runs
	}
	testflags.MoreParallel()
	code := m.Run()
	if left := leftovers(); len(left) > 0 {
		fmt.Fprintln(os.Stderr, "left behind after the tests:\n  "+strings.Join(left, "\n  "))
		code = 1
	}
	os.Exit(code)
}

// The box uids of this package's sandboxes, 20 per engine, away from the
// other packages' and apart for two runs of this package at once.
var (
	firstBoxUID = 74000 + os.Getpid()%50*400
	engines     atomic.Int32
)

func leftovers() []string {
	var left []string
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		var st syscall.Stat_t
		if syscall.Stat("/proc/"+e.Name(), &st) == nil && int(st.Uid) >= firstBoxUID && int(st.Uid) < firstBoxUID+400 {
			comm, _ := os.ReadFile("/proc/" + e.Name() + "/comm")
			left = append(left, fmt.Sprintf("process %s (%s) of box uid %d", e.Name(), strings.TrimSpace(string(comm)), st.Uid))
		}
	}
	return left
}

// env is one service under test: NATS, the store, the API, workers.
type env struct {
	t     testing.TB
	ns    *server.Server
	nc    *nats.Conn
	store *Store
	lib   *Library
	api   *Server
	http  *httptest.Server
	token string // sent as the bearer token, when set
}

type envOpts struct {
	tokens     []Token
	queueLimit int
	ackWait    time.Duration
	dir        string // NATS storage; "": a fresh one
	feedback   Feedback
	limits     store.Limits
	duplicates time.Duration // the job stream's deduplication window
	problems   string        // the problems directory; "": the embedded problems only
	contest    *contest.Contest
	clock      contest.Clock
}

func startNATS(t testing.TB, dir string) *server.Server {
	t.Helper()
	if dir == "" {
		dir = t.TempDir()
	}
	ns, err := StartServer(NATSConfig{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ns.Shutdown(); ns.WaitForShutdown() })
	return ns
}

func newEnv(t testing.TB, o envOpts) *env {
	t.Helper()
	e := &env{t: t, ns: startNATS(t, o.dir)}
	e.connect(ConnConfig{Server: e.ns}, o)
	return e
}

// connect opens the store and the API over a connection.
func (e *env) connect(cc ConnConfig, o envOpts) {
	t := e.t
	nc, err := Connect(cc)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	e.nc = nc
	if o.ackWait == 0 {
		o.ackWait = 3 * time.Second
	}
	e.store, err = OpenStore(context.Background(), nc, store.Config{QueueLimit: o.queueLimit, AckWait: o.ackWait, Replicas: cc.replicas(), Limits: o.limits,
		Duplicates: o.duplicates})
	if err != nil {
		t.Fatal(err)
	}
	cache := t.TempDir()
	if e.lib, err = NewLibrary(e.store, o.problems, cache); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.lib.Close() })
	e.api = NewServer(ServerConfig{Store: e.store, Library: e.lib, Tokens: o.tokens, Feedback: o.feedback, Contest: o.contest, Clock: o.clock})
	t.Cleanup(func() { e.api.Close() })
	e.http = httptest.NewServer(e.api.Handler())
	t.Cleanup(e.http.Close)
}

var testReplicas = map[string]int{}

func (cc ConnConfig) replicas() int { return testReplicas[cc.URLs] }

// newEngine starts an engine with box uids of its own.
func newEngine(t testing.TB, full bool) Engine {
	t.Helper()
	n := int(engines.Add(1)) - 1
	if n >= 20 {
		t.Fatal("more than 20 engines in one test run")
	}
	// of its 20 uids, the last 8 for the problems' programs
	eng, err := NewEngine(EngineConfig{Sandbox: sandbox.Options{FirstUID: firstBoxUID + 20*n}, ProgramFirstUID: firstBoxUID + 20*n + 12, Full: full,
		Executables: nil, Path: os.Getenv("PATH"), Home: os.Getenv("HOME"), TempDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { eng.Close() })
	return eng
}

// worker is a running worker and how to stop it.
type worker struct {
	w    *Worker
	stop context.CancelFunc
	done chan struct{}
}

func (e *env) startWorker(name string, eng Engine) *worker {
	e.t.Helper()
	lib, err := NewLibrary(e.store, "", e.t.TempDir())
	if err != nil {
		e.t.Fatal(err)
	}
	e.t.Cleanup(func() { lib.Close() })
	return e.startWorkerWith(WorkerConfig{Name: name, Store: e.store, Library: lib, Engine: eng})
}

// startWorkerWith starts a worker of cfg (a temporary directory and a
// Grace of 1 s unless it says).
func (e *env) startWorkerWith(cfg WorkerConfig) *worker {
	e.t.Helper()
	if cfg.TempDir == "" {
		cfg.TempDir = e.t.TempDir()
	}
	if cfg.Grace == 0 {
		cfg.Grace = time.Second
	}
	w := NewWorker(cfg)
	ctx, cancel := context.WithCancel(context.Background())
	wk := &worker{w: w, stop: cancel, done: make(chan struct{})}
	go func() { defer close(wk.done); w.Run(ctx) }()
	e.t.Cleanup(func() { wk.stop(); <-wk.done })
	return wk
}

// halt stops a worker and waits for it.
func (wk *worker) halt() { wk.stop(); <-wk.done }

// crash stops a worker as a SIGKILL would and waits for it.
func (wk *worker) crash() { wk.w.Crash(); wk.stop(); <-wk.done }

func readFile(t testing.TB, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// do sends a request and decodes the JSON answer into out (if not nil).
func (e *env) do(method, path string, body io.Reader, hdr map[string]string, out any) int {
	e.t.Helper()
	req, err := http.NewRequest(method, e.http.URL+path, body)
	if err != nil {
		e.t.Fatal(err)
	}
	if e.token != "" {
		req.Header.Set("Authorization", "Bearer "+e.token)
	}
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if out != nil {
		if err := json.Unmarshal(b, out); err != nil {
			e.t.Fatalf("%s %s: %d %q: %v", method, path, resp.StatusCode, b, err)
		}
	}
	return resp.StatusCode
}

func jsonBody(v any) io.Reader {
	b, _ := json.Marshal(v)
	return bytes.NewReader(b)
}

// submit posts a submission and returns its id.
func (e *env) submit(problem, filename, source string) string {
	e.t.Helper()
	var a Accepted
	code := e.do("POST", "/api/v1/submissions", jsonBody(SubmitRequest{Problem: problem, Filename: filename, Source: source}), nil, &a)
	if code != http.StatusAccepted || a.ID == "" {
		e.t.Fatalf("POST %s %s: got %d %+v, want 202 with an id", problem, filename, code, a)
	}
	return a.ID
}

// fullView is GET of one submission.
type fullView struct {
	SubmissionView
	Report *struct {
		Verdict string `json:"verdict"`
		Tests   []struct {
			Name, Verdict string
		} `json:"tests"`
		Warning string `json:"warning"`
	} `json:"report"`
}

func (e *env) get(id string) fullView {
	e.t.Helper()
	var v fullView
	if code := e.do("GET", "/api/v1/submissions/"+id, nil, nil, &v); code != http.StatusOK {
		e.t.Fatalf("GET %s: got %d", id, code)
	}
	return v
}

// waitDone waits for the submissions to be done, up to d, and returns them.
func (e *env) waitDone(d time.Duration, ids ...string) map[string]fullView {
	e.t.Helper()
	deadline := time.Now().Add(d)
	out := map[string]fullView{}
	for _, id := range ids {
		for {
			v := e.get(id)
			if v.State == StateDone {
				out[id] = v
				break
			}
			if time.Now().After(deadline) {
				e.t.Fatalf("submission %s still %s after %v", id, v.State, d)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	return out
}

// checkOnce checks that every submission has exactly want finished
// judgings, one per request, and the wanted verdict.
func checkOnce(t testing.TB, got map[string]fullView, want map[string]string, judgings int) {
	t.Helper()
	for id, v := range got {
		if len(v.Judgings) != judgings {
			t.Errorf("%s (%s): got %d judgings %+v, want %d", id, v.Filename, len(v.Judgings), v.Judgings, judgings)
		}
		for i, j := range v.Judgings {
			if j.Request != i+1 {
				t.Errorf("%s: judging %d is of request %d", id, i, j.Request)
			}
		}
		if w, ok := want[id]; ok && v.Verdict.String() != w {
			msg := ""
			if v.Report != nil {
				msg = v.Report.Warning
			}
			t.Errorf("%s (%s): got verdict %s, want %s %s", id, v.Filename, v.Verdict, w, msg)
		}
	}
}
