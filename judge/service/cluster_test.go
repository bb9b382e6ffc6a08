package service

import (
	"fmt"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
)

// freePorts picks n loopback ports at run time.
func freePorts(t testing.TB, n int) []int {
	t.Helper()
	var ports []int
	var lns []net.Listener
	for range n {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		lns = append(lns, ln)
		ports = append(ports, ln.Addr().(*net.TCPAddr).Port)
	}
	for _, ln := range lns {
		ln.Close()
	}
	return ports
}

// cluster is a JetStream cluster of three nodes on loopback, as
// nats-server's own tests make them, waiting for a meta leader.
type cluster struct {
	nodes []*server.Server
	urls  string
}

func startCluster(t testing.TB) *cluster {
	t.Helper()
	ports := freePorts(t, 6)
	var routes []string
	for i := range 3 {
		routes = append(routes, fmt.Sprintf("nats-route://127.0.0.1:%d", ports[3+i]))
	}
	c := &cluster{}
	var urls []string
	for i := range 3 {
		ns, err := StartServer(NATSConfig{
			Name: fmt.Sprintf("n%d", i+1), Dir: t.TempDir(), Listen: fmt.Sprintf("127.0.0.1:%d", ports[i]),
			Cluster: "judge", ClusterListen: fmt.Sprintf("127.0.0.1:%d", ports[3+i]), Routes: routes,
		})
		if err != nil {
			t.Fatal(err)
		}
		c.nodes = append(c.nodes, ns)
		urls = append(urls, ns.ClientURL())
		t.Cleanup(func() { ns.Shutdown(); ns.WaitForShutdown() })
	}
	c.urls = strings.Join(urls, ",")
	deadline := time.Now().Add(time.Minute)
	for !c.hasLeader() {
		if time.Now().After(deadline) {
			t.Fatal("no JetStream meta leader after a minute")
		}
		time.Sleep(100 * time.Millisecond)
	}
	return c
}

func (c *cluster) hasLeader() bool {
	for _, ns := range c.nodes {
		if ns.JetStreamIsLeader() {
			return true
		}
	}
	return false
}

// TestClusterNodeStopped grades on a three-node cluster with streams
// replicated three times; a node stops mid-load and every submission is
// still graded, once.
func TestClusterNodeStopped(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("-short: a three-node cluster losing a node mid-load (the full run only)")
	}
	c := startCluster(t)
	testReplicas[c.urls] = 3
	e := &env{t: t}
	e.connect(ConnConfig{URLs: c.urls}, envOpts{})
	eng := newEngine(t, false)
	e.startWorker("c1", eng)
	e.startWorker("c2", eng)
	want := map[string]string{}
	var ids []string
	for i := range 12 {
		id := e.submitRetrying(fmt.Sprintf("key-%d", i), SubmitRequest{Problem: "clocks", Filename: fmt.Sprintf("s%d.py", i), Source: fmt.Sprintf("print(%d)\n", i)})
		ids = append(ids, id)
		want[id] = "WA"
		if i == 5 {
			c.nodes[0].Shutdown() // the node the clients met first
		}
	}
	checkOnce(t, e.waitDone(3*time.Minute, ids...), want, 1)
}

// TestRestartWithFullQueue stops NATS with a queue of submissions and no
// worker, starts it again on the same storage, and every submission is
// graded once.
func TestRestartWithFullQueue(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	first := newEnv(t, envOpts{dir: dir})
	var ids []string
	want := map[string]string{}
	for i := range 6 {
		id := first.submit("clocks", fmt.Sprintf("q%d.py", i), fmt.Sprintf("print(%d)\n", i))
		ids = append(ids, id)
		want[id] = "WA"
	}
	first.api.Close()
	first.nc.Close()
	first.ns.Shutdown()
	first.ns.WaitForShutdown()
	second := newEnv(t, envOpts{dir: dir})
	second.startWorker("after", newEngine(t, false))
	checkOnce(t, second.waitDone(2*time.Minute, ids...), want, 1)
}

// submitRetrying submits as a careful client does: a 503 (no leader for a
// moment) is tried again with the same Idempotency-Key.
func (e *env) submitRetrying(key string, req SubmitRequest) string {
	e.t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		var a Accepted
		code := e.do("POST", "/api/v1/submissions", jsonBody(req), map[string]string{"Idempotency-Key": key}, &a)
		if code == 202 {
			return a.ID
		}
		if code != 503 || time.Now().After(deadline) {
			e.t.Fatalf("POST %s: got %d", req.Filename, code)
		}
		time.Sleep(200 * time.Millisecond)
	}
}
