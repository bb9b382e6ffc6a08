package service

import (
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
)

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
