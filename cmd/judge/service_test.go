package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// proc is a judge process of a test.
type proc struct {
	cmd    *exec.Cmd
	mu     sync.Mutex
	stderr bytes.Buffer
	lines  chan string
}

func startJudge(t *testing.T, args ...string) *proc {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "JUDGE_TEST_AS_JUDGE=1")
	pr, pw := io.Pipe()
	cmd.Stderr = pw
	p := &proc{cmd: cmd, lines: make(chan string, 1000)}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			p.mu.Lock()
			p.stderr.WriteString(sc.Text() + "\n")
			p.mu.Unlock()
			select {
			case p.lines <- sc.Text():
			default:
			}
		}
	}()
	go func() { cmd.Wait(); pw.Close() }()
	t.Cleanup(func() { p.kill(syscall.SIGKILL) })
	return p
}

func (p *proc) kill(sig syscall.Signal) {
	if p.cmd.ProcessState == nil {
		p.cmd.Process.Signal(sig)
	}
}

// waitLine waits for a line of stderr matching re and returns its match.
func (p *proc) waitLine(t *testing.T, re *regexp.Regexp) []string {
	t.Helper()
	timeout := time.After(time.Minute)
	for {
		select {
		case l := <-p.lines:
			if m := re.FindStringSubmatch(l); m != nil {
				return m
			}
		case <-timeout:
			p.mu.Lock()
			defer p.mu.Unlock()
			t.Fatalf("no line matching %s in:\n%s", re, p.stderr.String())
		}
	}
}

var serveRE = regexp.MustCompile(`judge serve: (http://\S+)`)

// TestServiceSurvivesKills is the service's "done when": 30 submissions of
// the three puzzles, mixed AC, WA, TLE, RE, MLE and CE, graded by two
// outside workers while one worker and then judge serve itself are killed
// with SIGKILL and started again; every one gets the verdict judge run
// gives it, none is lost, none stays queued, none has two judgings. (The
// same on a three-node cluster losing a node is TestClusterNodeStopped in
// judge/service, in-process.)
func TestServiceSurvivesKills(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: grades 30 submissions with processes killed (about a minute)")
	}
	data, cache := t.TempDir(), t.TempDir()
	port := freePort(t)
	natsAddr := fmt.Sprintf("127.0.0.1:%d", port)
	serve := func() (*proc, string) {
		p := startJudge(t, "serve", "--addr", "127.0.0.1:0", "--data", data, "--workers", "0", "--nats-listen", natsAddr)
		return p, p.waitLine(t, serveRE)[1]
	}
	srv, base := serve()
	uid := 76000 + os.Getpid()%40*100
	worker := func(n int) *proc {
		return startJudge(t, "worker", "--nats", "nats://"+natsAddr, "--name", fmt.Sprintf("w%d", n),
			"--box-uid", fmt.Sprint(uid+50*(n-1)), "--cache", filepath.Join(cache, fmt.Sprint(n)))
	}
	w1, _ := worker(1), worker(2)
	files := "../../judge/service/testdata/"
	kinds := []struct{ problem, file, want string }{
		{"clocks", "clocks_ac.py", "AC"}, {"rotation-game", "wa.py", "WA"}, {"clocks", "tle.py", "TLE"},
		{"rotation-game", "re.py", "RE"}, {"eight-puzzle", "mle.py", "MLE"}, {"eight-puzzle", "ce.cpp", "CE"},
	}
	want := map[string]string{}
	for i := range 30 {
		k := kinds[i%len(kinds)]
		src, err := os.ReadFile(files + k.file)
		if err != nil {
			t.Fatal(err)
		}
		// a different source each time: no two are the same build
		body := fmt.Sprintf("%s\n%s %d\n", src, map[bool]string{true: "//", false: "#"}[strings.HasSuffix(k.file, ".cpp")], i)
		id := postSubmission(t, base, k.problem, k.file, body)
		want[id] = k.want
	}
	waitCount(t, base, 4)
	w1.kill(syscall.SIGKILL)
	w1.cmd.Wait()
	worker(1)
	waitCount(t, base, 10)
	srv.kill(syscall.SIGKILL)
	srv.cmd.Wait()
	_, base = serve()
	got := waitAll(t, base, want, 4*time.Minute)
	for id, w := range want {
		s := got[id]
		if s.Verdict != w || len(s.Judgings) != 1 {
			t.Errorf("%s (%s): got %s with %d judgings, want %s with one", id, s.Filename, s.Verdict, len(s.Judgings), w)
		}
	}
}

func freePort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

type subView struct {
	ID, Filename, State, Verdict string
	Judgings                     []json.RawMessage
}

func postSubmission(t *testing.T, base, problem, file, src string) string {
	t.Helper()
	b, _ := json.Marshal(map[string]string{"problem": problem, "filename": file, "source": src})
	resp, err := http.Post(base+"/api/v1/submissions", "application/json", bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var a struct{ ID string }
	json.NewDecoder(resp.Body).Decode(&a)
	if resp.StatusCode != http.StatusAccepted {
		t.Fatalf("POST %s: got %s", file, resp.Status)
	}
	return a.ID
}

func listAll(base string) ([]subView, error) {
	resp, err := http.Get(base + "/api/v1/submissions?limit=1000")
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	var l struct{ Submissions []subView }
	return l.Submissions, json.NewDecoder(resp.Body).Decode(&l)
}

// waitCount waits for at least n submissions to be done.
func waitCount(t *testing.T, base string, n int) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for time.Now().Before(deadline) {
		subs, _ := listAll(base)
		done := 0
		for _, s := range subs {
			if s.State == "done" {
				done++
			}
		}
		if done >= n {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("fewer than %d submissions done after 2 minutes", n)
}

func waitAll(t *testing.T, base string, want map[string]string, d time.Duration) map[string]subView {
	t.Helper()
	deadline := time.Now().Add(d)
	for {
		subs, err := listAll(base)
		got := map[string]subView{}
		for _, s := range subs {
			if s.State == "done" {
				got[s.ID] = s
			}
		}
		if err == nil && len(got) == len(want) && len(subs) == len(want) {
			return got
		}
		if time.Now().After(deadline) {
			t.Fatalf("after %v: %d of %d done (%v)", d, len(got), len(want), err)
		}
		time.Sleep(200 * time.Millisecond)
	}
}
