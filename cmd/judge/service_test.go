package main

import (
	"archive/tar"
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"

	"github.com/optjudge/optjudge/judge/service"
	"github.com/optjudge/optjudge/problems"
)

// proc is a judge process of a test.
type proc struct {
	cmd    *exec.Cmd
	mu     sync.Mutex
	stderr bytes.Buffer
	lines  chan string
	done   chan struct{} // closed when the process has exited
	err    error         // its Wait's, once done
}

func startJudge(t *testing.T, args ...string) *proc {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "JUDGE_TEST_AS_JUDGE=1")
	// a grandchild that kept stderr open must not hold Wait (and the
	// test) once the judge itself has exited
	cmd.WaitDelay = 10 * time.Second
	pr, pw := io.Pipe()
	cmd.Stderr = pw
	p := &proc{cmd: cmd, lines: make(chan string, 1000), done: make(chan struct{})}
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
	go func() { p.err = cmd.Wait(); pw.Close(); close(p.done) }()
	t.Cleanup(func() { p.kill(syscall.SIGKILL); <-p.done })
	return p
}

func (p *proc) kill(sig syscall.Signal) {
	select {
	case <-p.done:
	default:
		p.cmd.Process.Signal(sig)
	}
}

// wait waits for the process to exit and returns its Wait's error.
func (p *proc) wait() error {
	<-p.done
	return p.err
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
// the three puzzles and of two packages uploaded through the API (one
// with a C++ output validator, built on the workers), mixed AC, WA, TLE,
// RE, MLE and CE, graded by two outside workers while one worker and then
// judge serve itself are killed with SIGKILL and started again; every one gets the verdict judge run
// gives it, none is lost, none stays queued, none has two judgings.
func TestServiceSurvivesKills(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("-short: grades 30 submissions with processes killed (about a minute)")
	}
	data := t.TempDir()
	natsAddr := fmt.Sprintf("127.0.0.1:%d", freePort(t))
	serve := func() (*proc, string) {
		p := startJudge(t, "serve", "--addr", "127.0.0.1:0", "--data", data, "--workers", "0", "--nats-listen", natsAddr)
		return p, p.waitLine(t, serveRE)[1]
	}
	srv, base := serve()
	uploadRoomy(t, base)
	w1, _ := startWorker(t, "nats://"+natsAddr, 1, ""), startWorker(t, "nats://"+natsAddr, 2, "")
	want := submitMix(t, base)
	waitCount(t, base, 4)
	w1.kill(syscall.SIGKILL)
	w1.wait()
	startWorker(t, "nats://"+natsAddr, 1, "")
	waitCount(t, base, 10)
	srv.kill(syscall.SIGKILL)
	srv.wait()
	_, base = serve()
	checkMix(t, waitAll(t, base, want, hangGuard), want)
}

// TestServiceOnClusterLosesNode is the same on a three-node NATS cluster
// (in this process, on loopback) with every stream replicated three
// times: a node is stopped mid-load.
func TestServiceOnClusterLosesNode(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("-short: grades 30 submissions on a cluster losing a node (about a minute)")
	}
	nodes, urls := startCluster(t)
	srv := startJudge(t, "serve", "--addr", "127.0.0.1:0", "--data", t.TempDir(), "--workers", "0", "--nats", urls, "--replicas", "3")
	base := srv.waitLine(t, serveRE)[1]
	uploadRoomy(t, base)
	startWorker(t, urls, 1, "")
	startWorker(t, urls, 2, "")
	want := submitMix(t, base)
	waitCount(t, base, 6)
	nodes[0].Shutdown()
	checkMix(t, waitAll(t, base, want, hangGuard), want)
}

// TestSIGTERM: a worker told to stop mid-grading hands its submission
// back and exits within 10 s; another grades it; judge serve stops
// cleanly.
func TestSIGTERM(t *testing.T) {
	t.Parallel()
	natsAddr := fmt.Sprintf("127.0.0.1:%d", freePort(t))
	srv := startJudge(t, "serve", "--addr", "127.0.0.1:0", "--data", t.TempDir(), "--workers", "0", "--nats-listen", natsAddr)
	base := srv.waitLine(t, serveRE)[1]
	w1 := startWorker(t, "nats://"+natsAddr, 1, "")
	src, err := os.ReadFile("../../judge/service/testdata/slow_wa.py")
	if err != nil {
		t.Fatal(err)
	}
	id := postSubmission(t, base, "eight-puzzle", "slow_wa.py", string(src))
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(50 * time.Millisecond) {
		if subs, _ := listAll(base); len(subs) == 1 && subs[0].State == "running" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("never running")
		}
	}
	w1.kill(syscall.SIGTERM)
	select {
	case <-w1.done:
		if err := w1.wait(); err != nil {
			t.Errorf("worker after SIGTERM: %v, want exit 0", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the worker did not exit within 10 s of SIGTERM")
	}
	startWorker(t, "nats://"+natsAddr, 2, "")
	got := waitAll(t, base, map[string]string{id: "WA"}, 2*time.Minute)
	checkMix(t, got, map[string]string{id: "WA"})
	srv.kill(syscall.SIGTERM)
	if err := srv.wait(); err != nil {
		t.Errorf("serve after SIGTERM: %v, want exit 0", err)
	}
}

// boxUIDs is the first box uid of this binary's workers: apart from the
// uids judge/service's tests take (74000 to 94000, their problems'
// programs' boxes included) and from the judge's tests' (from 100000), so
// that no leak check of a package run beside this one sees our boxes; the
// workers' problem programs take uids sandbox.MaxBoxUIDs above.
var boxUIDs = 110000 + os.Getpid()%40*100

// startWorker starts judge worker number n (1 or 2) on urls, with the
// problems in the directory dir ("" for none).
func startWorker(t *testing.T, urls string, n int, dir string) *proc {
	args := []string{"worker", "--nats", urls, "--name", fmt.Sprintf("w%d", n),
		"--box-uid", fmt.Sprint(boxUIDs + 50*(n-1)), "--cache", filepath.Join(t.TempDir(), fmt.Sprint(n))}
	if dir != "" {
		args = append(args, "--problems", dir)
	}
	return startJudge(t, args...)
}

// uploadRoomy uploads, through the API, the packages on which the mix's
// accepted and wrong programs are graded, with limits of 10 s, on which
// an accepted program stays AC however busy the machine (a Python
// program's start, starved of the CPUs, once took over clocks' 3 s of wall
// time): roomy-clocks (clocks, its built-in checker) and roomy-sum
// (sum-kattis: a C++ output validator and a Python input validator, which
// the server runs to verify the upload and the workers build from the
// package in NATS).
func uploadRoomy(t *testing.T, base string) {
	t.Helper()
	p, err := problems.LoadEmbedded("clocks")
	if err != nil {
		t.Fatal(err)
	}
	clocks := filepath.Join(t.TempDir(), "roomy-clocks")
	if err := os.CopyFS(clocks, p.Package.FS); err != nil {
		t.Fatal(err)
	}
	spec := filepath.Join(clocks, "problem.yaml")
	b, err := os.ReadFile(spec)
	if err != nil {
		t.Fatal(err)
	}
	// a package's name is its directory's: roomy-clocks
	roomy := strings.Replace(string(b), "  time_limit: 1\n", "  time_limit: 10\n", 1)
	if roomy == string(b) {
		t.Fatalf("%s: no time limit to change", spec)
	}
	os.Chmod(spec, 0o644)
	if err := os.WriteFile(spec, []byte(roomy), 0o644); err != nil {
		t.Fatal(err)
	}
	sum := filepath.Join(t.TempDir(), "roomy-sum")
	if err := os.CopyFS(sum, os.DirFS("../../problems/sum-kattis")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(sum, ".timelimit"), []byte("10\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, root := range []string{clocks, sum} {
		var buf bytes.Buffer
		zw := gzip.NewWriter(&buf)
		tw := tar.NewWriter(zw)
		if err := tw.AddFS(os.DirFS(filepath.Dir(root))); err != nil {
			t.Fatal(err)
		}
		tw.Close()
		zw.Close()
		resp, err := http.Post(base+"/api/v1/problems", "application/gzip", &buf)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusCreated {
			t.Fatalf("uploading %s: got %d %s, want 201", filepath.Base(root), resp.StatusCode, body)
		}
	}
}

// submitMix posts 30 submissions of the three puzzles and of the
// uploaded roomy-sum, mixed AC, WA, TLE, RE, a run over the memory limit
// (RE in a package, as the ICPC's verdicts have it) and CE, and returns
// the verdicts judge run gives them.
func submitMix(t *testing.T, base string) map[string]string {
	t.Helper()
	files, sum := "../../judge/service/testdata/", "../../problems/sum-kattis/submissions/"
	kinds := []struct{ problem, file, want string }{
		{"roomy-clocks", files + "clocks_ac.py", "AC"}, {"rotation-game", files + "wa.py", "WA"}, {"clocks", files + "tle.py", "TLE"},
		{"rotation-game", files + "re.py", "RE"}, {"eight-puzzle", files + "mle.py", "RE"}, {"eight-puzzle", files + "ce.cpp", "CE"},
		{"roomy-sum", sum + "accepted/digits.py", "AC"}, {"roomy-sum", sum + "wrong_answer/zero_and_n.py", "WA"},
	}
	want := map[string]string{}
	for i := range 30 {
		k := kinds[i%len(kinds)]
		src, err := os.ReadFile(k.file)
		if err != nil {
			t.Fatal(err)
		}
		// a different source each time: no two are the same build
		comment := "#"
		if strings.HasSuffix(k.file, ".cpp") {
			comment = "//"
		}
		want[postSubmission(t, base, k.problem, filepath.Base(k.file), fmt.Sprintf("%s\n%s %d\n", src, comment, i))] = k.want
	}
	return want
}

func checkMix(t *testing.T, got map[string]subView, want map[string]string) {
	t.Helper()
	for id, w := range want {
		s := got[id]
		if s.Verdict != w || len(s.Judgings) != 1 {
			t.Errorf("%s (%s): got %s with %d judgings, want %s with one", id, s.Filename, s.Verdict, len(s.Judgings), w)
		}
	}
}

// startCluster starts three NATS nodes with JetStream in this process and
// waits for a meta leader.
func startCluster(t *testing.T) ([]*server.Server, string) {
	t.Helper()
	ports := make([]int, 6)
	for i := range ports {
		ports[i] = freePort(t)
	}
	var routes, urls []string
	for i := range 3 {
		routes = append(routes, fmt.Sprintf("nats-route://127.0.0.1:%d", ports[3+i]))
	}
	var nodes []*server.Server
	for i := range 3 {
		ns, err := service.StartServer(service.NATSConfig{Name: fmt.Sprintf("n%d", i+1), Dir: t.TempDir(),
			Listen: fmt.Sprintf("127.0.0.1:%d", ports[i]), Cluster: "judge",
			ClusterListen: fmt.Sprintf("127.0.0.1:%d", ports[3+i]), Routes: routes})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { ns.Shutdown(); ns.WaitForShutdown() })
		nodes = append(nodes, ns)
		urls = append(urls, ns.ClientURL())
	}
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(100 * time.Millisecond) {
		for _, ns := range nodes {
			if ns.JetStreamIsLeader() {
				return nodes, strings.Join(urls, ",")
			}
		}
		if time.Now().After(deadline) {
			t.Fatal("no JetStream meta leader after a minute")
		}
	}
}

func freePort(t *testing.T) int {
	t.Helper()
	return freePorts(t, 1)[0]
}

// freePorts picks n loopback ports at run time, below the kernel's
// ephemeral range: a port picked from that range (a listener on port 0,
// closed) could be taken again by any outgoing connection or port-0
// listener of the tests beside this one before the server meant for it
// binds it (a cluster node then never became ready, with the tests in
// parallel). The ports handed out in this process are not handed out
// again.
func freePorts(t testing.TB, n int) []int {
	t.Helper()
	low := 32768
	if b, err := os.ReadFile("/proc/sys/net/ipv4/ip_local_port_range"); err == nil {
		if f := strings.Fields(string(b)); len(f) == 2 {
			if v, err := strconv.Atoi(f[0]); err == nil {
				low = v
			}
		}
	}
	const base = 10000
	portsMu.Lock()
	defer portsMu.Unlock()
	var ports []int
	for tries := 0; len(ports) < n; tries++ {
		if tries > 10000 || low <= base {
			t.Fatalf("no free loopback port below %d after %d tries", low, tries)
		}
		p := base + rand.IntN(low-base)
		if portsGiven[p] {
			continue
		}
		ln, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", p))
		if err != nil {
			continue
		}
		ln.Close()
		portsGiven[p] = true
		ports = append(ports, p)
	}
	return ports
}

var (
	portsMu    sync.Mutex
	portsGiven = map[int]bool{}
)

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

// hangGuard is how long the tests wait for gradings before they call it
// a hang: 30 gradings take about a minute on a quiet machine, and took
// over 4 on one busy with other test suites (a load average of 35 on 2
// CPUs). It guards against a hang; it times nothing.
const hangGuard = 20 * time.Minute

// waitCount waits for at least n submissions to be done.
func waitCount(t *testing.T, base string, n int) {
	t.Helper()
	deadline := time.Now().Add(hangGuard)
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
	t.Fatalf("fewer than %d submissions done after %v", n, hangGuard)
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
