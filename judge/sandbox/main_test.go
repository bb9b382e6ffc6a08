//go:build linux

package sandbox

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// testUID is the first box uid of the tests, away from the default so that
// another judge's boxes on the machine are not mistaken for leftovers.
const testUID = 70000

// The shared state of the tests: one Sandbox per level the machine allows,
// a private helper cache, and the compiled test programs.
var (
	testCache string
	binDir    string
	boxes     = map[string]*Sandbox{}
	noBox     = map[string]error{}
	levels    = []string{IsolationNone, IsolationNamespaces, IsolationCgroup}
	mountsAt  int // lines of /proc/self/mountinfo before the tests

	binMu sync.Mutex
	bins  = map[string]string{}
)

func TestMain(m *testing.M) {
	os.Exit(runTests(m))
}

func runTests(m *testing.M) int {
	var err error
	if testCache, err = os.MkdirTemp("", "optjudge-sandbox-cache-"); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if binDir, err = os.MkdirTemp("", "optjudge-sandbox-bin-"); err == nil {
		// a root judge's boxes at level none run as box uids, which must
		// reach the programs
		err = os.Chmod(binDir, 0o755)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	mountsAt = countMounts()
	for _, level := range levels {
		sb, err := New(Options{Isolation: level, CacheDir: testCache, FirstUID: testUID})
		if err != nil {
			noBox[level] = err
			continue
		}
		boxes[level] = sb
	}
	code := m.Run()
	for _, sb := range boxes {
		if err := sb.Close(); err != nil {
			fmt.Fprintln(os.Stderr, "closing sandbox:", err)
			code = 1
		}
	}
	os.RemoveAll(testCache)
	os.RemoveAll(binDir)
	if problems := leftovers(); len(problems) > 0 {
		fmt.Fprintln(os.Stderr, "left behind after the tests:\n  "+strings.Join(problems, "\n  "))
		code = 1
	}
	return code
}

// leftovers lists what the tests left that they should not have: processes
// of the test programs or of the box uids, the judge's cgroups, temporary
// directories and mounts.
func leftovers() []string {
	var p []string
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || zombie(e.Name()) {
			continue
		}
		comm, _ := os.ReadFile("/proc/" + e.Name() + "/comm")
		if name := strings.TrimSpace(string(comm)); strings.HasPrefix(name, "oj") {
			p = append(p, fmt.Sprintf("process %d (%s)", pid, name))
		}
		var st syscall.Stat_t
		if syscall.Stat("/proc/"+e.Name(), &st) == nil && st.Uid >= testUID && st.Uid < testUID+1000 {
			p = append(p, fmt.Sprintf("process %d of box uid %d", pid, st.Uid))
		}
	}
	self := strconv.Itoa(os.Getpid()) + "-"
	for _, mount := range []string{"/sys/fs/cgroup", "/sys/fs/cgroup/unified", "/sys/fs/cgroup/memory", "/sys/fs/cgroup/pids", "/sys/fs/cgroup/cpuacct"} {
		ents, _ := os.ReadDir(filepath.Join(mount, "optjudge"))
		for _, e := range ents {
			if strings.HasPrefix(e.Name(), self) {
				p = append(p, "cgroup "+filepath.Join(mount, "optjudge", e.Name()))
			}
		}
	}
	for _, d := range []string{testCache, binDir} {
		if _, err := os.Stat(d); err == nil {
			p = append(p, "directory "+d)
		}
	}
	if n := countMounts(); n != mountsAt {
		p = append(p, fmt.Sprintf("mounts: %d lines in /proc/self/mountinfo, %d before", n, mountsAt))
	}
	return p
}

func countMounts() int {
	b, _ := os.ReadFile("/proc/self/mountinfo")
	return strings.Count(string(b), "\n")
}

// useBox returns the Sandbox at level. It skips the test when the machine
// cannot provide the level, and fails it when it should (the limits-only
// level always; every level as root with a memory cgroup controller).
func useBox(t testing.TB, level string) *Sandbox {
	t.Helper()
	sb := boxes[level]
	switch {
	case sb != nil:
		return sb
	case expected(level):
		t.Fatalf("isolation %q should work here but does not: %v", level, noBox[level])
	}
	t.Skipf("isolation %q is not available here: %v", level, noBox[level])
	return nil
}

func expected(level string) bool {
	switch level {
	case IsolationNone:
		return true
	case IsolationNamespaces:
		return os.Geteuid() == 0
	}
	_, v1 := os.Stat("/sys/fs/cgroup/memory")
	v2, _ := os.ReadFile("/sys/fs/cgroup/cgroup.controllers")
	return os.Geteuid() == 0 && (v1 == nil || strings.Contains(string(v2), "memory"))
}

// contained returns the levels that isolate the program from the judge
// (namespaces), for the tests of containment.
func contained() []string { return []string{IsolationNamespaces, IsolationCgroup} }

// program returns the path of a compiled test program, compiling it once.
func program(t testing.TB, name string) string {
	t.Helper()
	return compile(t, name, name)
}

// staticProgram is program linked statically, where the C library allows
// it: the cheapest program to start, for the benchmarks.
func staticProgram(t testing.TB, name string) string {
	t.Helper()
	return compile(t, name, name+"-static", "-static")
}

func compile(t testing.TB, name, out string, flags ...string) string {
	t.Helper()
	binMu.Lock()
	defer binMu.Unlock()
	if p, ok := bins[out]; ok {
		return p
	}
	src, ok := programs[name]
	if !ok {
		t.Fatalf("no test program %q", name)
	}
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("gcc is not installed")
	}
	c := filepath.Join(binDir, name+".c")
	bin := filepath.Join(binDir, out)
	if err := os.WriteFile(c, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	args := append(append([]string{"-O2"}, flags...), "-o", bin, c)
	if out, err := exec.Command("gcc", args...).CombinedOutput(); err != nil {
		t.Fatalf("compiling %s: %v\n%s", name, err, out)
	}
	bins[out] = bin
	return bin
}

// reachableDir is t.TempDir(), reachable by a box uid at level none: a root
// judge's box runs as one there, and the directory testing makes above
// t.TempDir() is private.
func reachableDir(t testing.TB) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.Chmod(filepath.Dir(dir), 0o711); err != nil {
		t.Fatal(err)
	}
	return dir
}

// run runs a test program at level with limits and fails the test on error.
func run(t *testing.T, level string, c *Cmd) *Result {
	t.Helper()
	if c.Dir == "" {
		c.Dir = t.TempDir()
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res, err := useBox(t, level).Run(ctx, c)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	return res
}

// noneLeft fails if a process named name still exists.
func noneLeft(t *testing.T, name string) {
	t.Helper()
	for _, pid := range pidsNamed(name) {
		t.Errorf("process %s (%s) is still running", pid, name)
	}
}

// pidsNamed lists the processes named name that have not ended.
func pidsNamed(name string) []string {
	var pids []string
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		comm, err := os.ReadFile("/proc/" + e.Name() + "/comm")
		if err == nil && strings.TrimSpace(string(comm)) == name && !zombie(e.Name()) {
			pids = append(pids, e.Name())
		}
	}
	return pids
}

// zombie reports whether process pid has ended and waits to be reaped: a
// program whose supervisor died is reaped by the machine's init, which
// may take its time.
func zombie(pid string) bool {
	b, err := os.ReadFile("/proc/" + pid + "/stat")
	if err != nil {
		return true // gone
	}
	i := strings.LastIndexByte(string(b), ')')
	return i < 0 || i+2 >= len(b) || b[i+2] == 'Z'
}
