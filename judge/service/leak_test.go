package service

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/optjudge/optjudge/verdict"
)

// leakProblem is a problem whose secret files hold random tokens, for
// TestNoSecretReachesContestants.
type leakProblem struct {
	name   string
	root   string
	tokens []string // every token of its secret inputs and answers
}

// secretToken is a token no route of the service could make by chance.
func secretToken(t *testing.T) string {
	t.Helper()
	b := make([]byte, 12)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return "sq" + hex.EncodeToString(b)
}

// leakSample is every leak problem's sample: shown whole, so its input and
// answer hold no token.
const leakSampleIn, leakSampleAns = "sample-input\n", "sample-answer\n"

// writeLeakProblems writes three problems under dir: a Kattis pass-fail
// package (2025-09), a Kattis scoring package with two groups (legacy)
// and a native problem, each with the default checker.
func writeLeakProblems(t *testing.T, dir string) []*leakProblem {
	t.Helper()
	specs := []struct {
		name, spec string
		files      map[string]string // beside the spec
		secret     []string          // the secret tests' paths, without .in/.ans
	}{
		{"leak-pf", "problem_format_version: 2025-09\nname: Leak PF\nuuid: 6f0c1a52-8a43-4c1e-9d2b-3e5f7a9b1c21\n" +
			"credits: t\nlicense: cc0\nlimits:\n  time_limit: 10\n  memory: 256\n",
			map[string]string{"data/sample/1.in": leakSampleIn, "data/sample/1.ans": leakSampleAns},
			[]string{"data/secret/1", "data/secret/2"}},
		{"leak-score", "name: Leak Score\ntype: scoring\nlimits:\n  memory: 256\n",
			map[string]string{
				".timelimit": "10\n", "data/sample/1.in": leakSampleIn, "data/sample/1.ans": leakSampleAns,
				"data/testdata.yaml":          "on_reject: continue\nrange: 0 100\ngrader_flags: ignore_sample\n",
				"data/sample/testdata.yaml":   "on_reject: continue\nrange: 0 0\naccept_score: 0\n",
				"data/secret/testdata.yaml":   "on_reject: continue\nrange: 0 100\n",
				"data/secret/a/testdata.yaml": "on_reject: continue\naccept_score: 50\nrange: 0 50\ngrader_flags: min\n",
				"data/secret/b/testdata.yaml": "on_reject: continue\naccept_score: 50\nrange: 0 50\ngrader_flags: min\n",
			},
			[]string{"data/secret/a/1", "data/secret/a/2", "data/secret/b/1"}},
		{"leak-native", "name: leak-native\ntitle: Leak Native\nlimits:\n  time_limit: 10\n  memory: 256\n",
			map[string]string{"testdata/sample/1.in": leakSampleIn, "testdata/sample/1.ans": leakSampleAns},
			[]string{"testdata/secret/1", "testdata/secret/2"}},
	}
	var out []*leakProblem
	for _, s := range specs {
		lp := &leakProblem{name: s.name, root: filepath.Join(dir, s.name, s.name)} // tarGz packs its parent
		files := map[string]string{"problem.yaml": s.spec}
		for k, v := range s.files {
			files[k] = v
		}
		for _, base := range s.secret {
			in := []string{secretToken(t), secretToken(t), secretToken(t)}
			ans := secretToken(t)
			files[base+".in"] = in[0] + " " + in[1] + "\n" + in[2] + "\n"
			files[base+".ans"] = ans + "\n"
			lp.tokens = append(lp.tokens, append(in, ans)...)
		}
		for name, content := range files {
			writeProblemFile(t, lp.root, name, content)
		}
		out = append(out, lp)
	}
	return out
}

// leakPrograms fail every secret test after writing its input to stderr
// and to stdout: with exit code 1 (RE), and with 0 (WA: the checker
// compares the input with the answer). They answer the sample right.
var leakPrograms = map[string]string{
	"echo_re.py": "import sys\ndata = sys.stdin.read()\nif data == %q:\n    print(%q, end='')\n    sys.exit(0)\n" +
		"sys.stderr.write(data)\nsys.stdout.write(data)\nsys.exit(1)\n",
	"echo_wa.py": "import sys\ndata = sys.stdin.read()\nif data == %q:\n    print(%q, end='')\n    sys.exit(0)\n" +
		"sys.stderr.write(data)\nsys.stdout.write(data)\n",
}

// collector gathers what a contestant can fetch.
type collector struct {
	mu     sync.Mutex
	bodies map[string]*bytes.Buffer // by route
	live   map[string]*bytes.Buffer // by stream, as its events arrive
}

func (c *collector) add(route, body string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.bodies[route] == nil {
		c.bodies[route] = new(bytes.Buffer)
	}
	c.bodies[route].WriteString(body)
}

// stream reads an event stream of path as token wants until it ends or
// ctx does, into route.
func (c *collector) stream(ctx context.Context, wg *sync.WaitGroup, base, path, token string) {
	wg.Add(1)
	c.mu.Lock()
	key := fmt.Sprintf("%s %d", path, len(c.live))
	got := new(bytes.Buffer)
	c.live[key] = got
	c.mu.Unlock()
	go func() {
		defer wg.Done()
		req, _ := http.NewRequestWithContext(ctx, "GET", base+path, nil)
		req.Header.Set("Authorization", "Bearer "+token)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return
		}
		defer resp.Body.Close()
		// until the end of the stream, or of ctx
		buf := make([]byte, 4096)
		for {
			n, err := resp.Body.Read(buf)
			c.mu.Lock()
			got.Write(buf[:n])
			c.mu.Unlock()
			if err != nil {
				break
			}
		}
		c.mu.Lock()
		body := got.String()
		c.mu.Unlock()
		c.add("stream "+path, body)
	}()
}

// streamed reports whether every stream of path has delivered s so far.
func (c *collector) streamed(path, s string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	for key, got := range c.live {
		if strings.HasPrefix(key, path+" ") && !strings.Contains(got.String(), s) {
			return false
		}
	}
	return true
}

// TestNoSecretReachesContestants: a Kattis package (pass-fail and
// scoring) and a native problem, and programs that echo each secret input
// to stderr and stdout and then fail (RE, WA); under each --feedback
// level (two servers on one store), no part of any secret input or answer
// reaches a contestant: not through the API (the submission, its report,
// score and judgings, the drawing, the list, the problems), the event
// streams (live and replayed), the pages, nor an error's body; after a
// rejudge too. The admin sees them (the programs did echo them).
func TestNoSecretReachesContestants(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("-short: every route and stream under two feedback levels (a minute); TestSecretTestsStayHidden checks the secret tests' files")
	}
	leaks := writeLeakProblems(t, t.TempDir())
	e := newEnv(t, envOpts{tokens: pageTokens, feedback: FeedbackMessage})
	byLevel := map[Feedback]*env{FeedbackMessage: e}
	other := NewServer(ServerConfig{Store: e.store, Library: e.lib, Tokens: pageTokens, Feedback: FeedbackVerdict})
	t.Cleanup(func() { other.Close() })
	ev := *e
	ev.http = httptest.NewServer(other.Handler())
	t.Cleanup(ev.http.Close)
	byLevel[FeedbackVerdict] = &ev
	e.startWorker("w", newEngine(t, true)) // every test runs
	alice, bob, root := pageTokens[0].Token, pageTokens[1].Token, pageTokens[2].Token
	e.token = root
	for _, lp := range leaks {
		if code, body := e.send("POST", "/api/v1/problems", tarGz(t, lp.root), map[string]string{"Content-Type": "application/gzip"}); code != http.StatusCreated {
			t.Fatalf("upload %s: got %d %s", lp.name, code, body)
		}
	}
	seen := map[Feedback]*collector{}
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	var streams sync.WaitGroup
	follow := func(path string) {
		for fb, site := range byLevel {
			seen[fb].stream(ctx, &streams, site.http.URL, path, alice)
		}
	}
	for fb := range byLevel {
		seen[fb] = &collector{bodies: map[string]*bytes.Buffer{}, live: map[string]*bytes.Buffer{}}
	}
	follow("/api/v1/events")
	// the streams subscribed: they tell changes from then on
	waitFor(t, time.Minute, "the event streams ready", func() bool {
		return seen[FeedbackMessage].streamed("/api/v1/events", ": ready") && seen[FeedbackVerdict].streamed("/api/v1/events", ": ready")
	})

	var mine, others []string
	for _, lp := range leaks {
		for name, prog := range leakPrograms {
			src := fmt.Sprintf(prog, leakSampleIn, leakSampleAns)
			e.token = alice
			id := e.submit(lp.name, name, src)
			follow("/api/v1/submissions/" + id + "/events")
			mine = append(mine, id)
			e.token = bob
			others = append(others, e.submit(lp.name, name, src))
		}
	}
	e.token = root
	all := append(append([]string{}, mine...), others...)
	got := e.waitDone(3*time.Minute, all...)
	for _, id := range mine {
		if v := got[id].Verdict; v != verdict.RE && v != verdict.WA {
			t.Fatalf("%s (%s %s): got %s, want RE or WA", id, got[id].Problem, got[id].Filename, v)
		}
	}
	// the admin sees what the programs echoed: the test can see a leak
	_, full := e.getRaw("/api/v1/submissions/" + mine[0])
	if !strings.Contains(full, leaks[0].tokens[0]) {
		t.Fatalf("the admin's view has no secret input: the programs did not echo it\n%s", full)
	}
	// a rejudge: its tests go through the live streams again
	for _, lp := range leaks {
		if code := e.do("POST", "/api/v1/problems/"+lp.name+"/rejudge", nil, nil, nil); code != http.StatusAccepted {
			t.Fatalf("rejudge %s: got %d", lp.name, code)
		}
	}
	follow("/api/v1/submissions/" + mine[0] + "/events")
	waitFor(t, 3*time.Minute, "the rejudges", func() bool {
		for _, id := range all {
			if sub, err := e.store.Submission(t.Context(), id); err != nil || sub.State != StateDone || len(sub.Judgings) < 2 {
				return false
			}
		}
		return true
	})
	for fb, site := range byLevel {
		walkContestantRoutes(t, site, seen[fb], alice, mine, others, leaks)
	}
	// the last changes reach the all-events streams: a change made after
	// them, alice's one more submission, has reached them
	e.token = alice
	lp, name := leaks[0], "echo_wa.py"
	last := e.submit(lp.name, name, fmt.Sprintf(leakPrograms[name], leakSampleIn, leakSampleAns))
	e.token = root
	waitFor(t, time.Minute, "the last submission in the event streams", func() bool {
		return seen[FeedbackMessage].streamed("/api/v1/events", last) && seen[FeedbackVerdict].streamed("/api/v1/events", last)
	})
	cancel()
	streams.Wait()
	e.waitDone(3*time.Minute, last) // not stopped mid-grading by the cleanup

	for fb, c := range seen {
		for route, body := range c.bodies {
			for _, lp := range leaks {
				for _, tok := range lp.tokens {
					// a part of a token: a message may cut it
					if strings.Contains(body.String(), tok[:12]) {
						t.Errorf("%s: %s shows a secret token of %s (%s)", fb, route, lp.name, tok)
					}
				}
			}
		}
		if len(c.bodies) < 30 {
			t.Errorf("%s: only %d routes walked", fb, len(c.bodies))
		}
	}
}

// walkContestantRoutes fetches, as the contestant of token, every route
// of the API and every page, for the submissions mine and others' (404s).
func walkContestantRoutes(t *testing.T, e *env, c *collector, token string, mine, others []string, leaks []*leakProblem) {
	t.Helper()
	e.token = token
	var paths []string
	for _, id := range append(append([]string{}, mine...), others...) {
		paths = append(paths, "/api/v1/submissions/"+id, "/api/v1/submissions/"+id+"/drawing.svg",
			"/api/v1/submissions/"+id+"/events", "/s/"+id)
	}
	paths = append(paths, "/api/v1/submissions", "/api/v1/submissions?state=done", "/api/v1/submissions?limit=1000",
		"/api/v1/problems", "/api/v1/queue", "/healthz", "/metrics", "/api/v1/nothing", "/api/v1/submissions/0123456789abcdef0123",
		"/", "/?verdict=RE", "/?verdict=WA", "/?verdict=pending", "/submit", "/queue", "/nothing", "/s/0123456789abcdef0123")
	for _, lp := range leaks {
		paths = append(paths, "/api/v1/submissions?problem="+lp.name, "/api/v1/problems/"+lp.name, "/?problem="+lp.name,
			"/submit?problem="+lp.name, "/problems/"+lp.name+"/statement", "/problems/"+lp.name+"/samples/sample%2F1/1",
			"/api/v1/problems/"+lp.name+"/rejudges/0123456789abcdef0123",
			"/problems/"+lp.name, "/problems/"+lp.name+"?lang=en", "/api/v1/problems/"+lp.name+"?lang=nl")
		// the files route serves the samples' files, and nothing secret
		for _, f := range []string{"data/sample/1.in", "data/sample/1.ans", "testdata/sample/1.in", "data/secret/1.in", "data/secret/1.ans",
			"data/secret/a/1.in", "data/secret/a/1.ans", "testdata/secret/1.in", "testdata/secret/1.ans", "data/secret%2F1.ans",
			"data/sample/../secret/1.ans", "problem.yaml"} {
			paths = append(paths, "/api/v1/problems/"+lp.name+"/files/"+f, "/problems/"+lp.name+"/files/"+f)
		}
	}
	paths = append(paths, "/problems", "/contest.css")
	for _, p := range paths {
		_, body := e.getRaw(p)
		c.add("api "+p, body)
	}
	pc := e.client(t)
	pc.login(token)
	for _, p := range paths {
		_, body := pc.get(p)
		c.add("page "+p, body)
	}
	// a failed form post: its error page
	_, _, body := pc.submitForm(map[string]string{"csrf": pc.csrf(), "problem": leaks[0].name, "key": newKey()}, "x.unknown", "x")
	c.add("page POST /submit", body)
}
