package sandbox

import (
	"bufio"
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/optjudge/optjudge/bytesize"
	"golang.org/x/sys/unix"
)

// memorySlack is added to the memory limit in the cgroup, so that a program
// that goes over the limit is seen with a peak above it (MemoryLimit) rather
// than being squeezed exactly at it.
const memorySlack = 1 * bytesize.MiB

// cgroups is the judge's share of the cgroup hierarchies: in each one it
// uses, a parent group <mount>/<name>/<judge pid>-<n> for the n-th Sandbox,
// and one group per run below it. On a pure v2 machine everything is in the v2 tree; on a hybrid
// one (v1 controllers, controller-less v2 tree) memory and pids come from v1
// and the v2 group gives cpu.stat, cgroup.kill and atomic placement.
type cgroups struct {
	v2   string // the judge's parent in the v2 tree, or ""
	mem  ctl
	pids ctl
	cpu  ctl // v2 cpu.stat or v1 cpuacct
	kill bool
	// parents are the judge's parent groups, removed by close.
	parents []string
	// parks are the cgroup.procs of the park below every parent, where a
	// resident spare goes between its runs.
	parks []*os.File
	seq   atomic.Uint64
}

// ctl is where one controller lives: a parent directory, v1 or v2.
type ctl struct {
	parent string
	v2     bool
}

func (c ctl) ok() bool { return c.parent != "" }

func (c *cgroups) hasPids() bool { return c.pids.ok() }

// newCgroups finds the hierarchies and creates the judge's parent groups,
// after removing those of judge processes that no longer exist. With noV2,
// the v2 tree is ignored (for tests of the v1-only case).
func newCgroups(name string, noV2 bool) (*cgroups, error) {
	if name == "" {
		name = "optjudge"
	}
	v2, v1, err := cgroupMounts()
	if err != nil {
		return nil, err
	}
	if noV2 {
		v2 = ""
	}
	// one parent per Sandbox: <judge pid>-<n>, so that closing one Sandbox
	// leaves the others of the same process alone
	self := fmt.Sprintf("%d-%d", os.Getpid(), sandboxes.Add(1))
	c := &cgroups{}
	mk := func(mount string) (string, error) {
		top := filepath.Join(mount, name)
		removeStale(top)
		dir := filepath.Join(top, self)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return "", fmt.Errorf("creating cgroup: %w", err)
		}
		c.parents = append(c.parents, dir)
		return dir, nil
	}
	if err := c.setup(v2, v1, mk); err != nil {
		c.close()
		return nil, err
	}
	if err := c.makeParks(); err != nil {
		c.close()
		return nil, err
	}
	return c, nil
}

// makeParks creates a "park" group beside the run groups in every
// hierarchy a run joins, and opens its cgroup.procs.
func (c *cgroups) makeParks() error {
	var dirs []string
	for _, d := range []string{c.v2, c.mem.parent, c.pids.parent, c.cpu.parent} {
		if d != "" && !slices.Contains(dirs, d) {
			dirs = append(dirs, d)
		}
	}
	for _, d := range dirs {
		park := filepath.Join(d, "park")
		if err := os.Mkdir(park, 0o755); err != nil {
			return fmt.Errorf("creating cgroup: %w", err)
		}
		f, err := os.OpenFile(filepath.Join(park, "cgroup.procs"), os.O_WRONLY, 0)
		if err != nil {
			return fmt.Errorf("opening cgroup: %w", err)
		}
		c.parks = append(c.parks, f)
	}
	return nil
}

// setup decides which hierarchy serves each purpose and creates the parents.
//
// Every group a run has costs a mkdir, a join and an rmdir, so a run gets no
// more than it needs: the memory group (limit, peak, OOM kills) and the
// pids group (process limit), and the CPU time and the kill only where they
// come with one of those. The CPU time is the supervisor's report anyway,
// and killing the box's PID 1 kills the box.
func (c *cgroups) setup(v2 string, v1 map[string]string, mk func(string) (string, error)) error {
	var v2ctl []string
	if v2 != "" {
		dir, err := mk(v2)
		if err != nil {
			return err
		}
		v2ctl = enableControllers(dir, "memory", "pids")
		if slices.Contains(v2ctl, "memory") {
			c.v2 = dir
			c.cpu = ctl{parent: dir, v2: true}
			_, err = os.Stat(filepath.Join(dir, "cgroup.kill"))
			c.kill = err == nil
		} else {
			// a v2 tree without the memory controller (a hybrid machine)
			// would add a group to every run and nothing it needs
			v2ctl = nil
			c.parents = c.parents[:len(c.parents)-1]
			if err := os.Remove(dir); err != nil {
				return fmt.Errorf("removing cgroup: %w", err)
			}
		}
	}
	for _, want := range []struct {
		name string
		dst  *ctl
	}{{"memory", &c.mem}, {"pids", &c.pids}} {
		switch {
		case slices.Contains(v2ctl, want.name):
			*want.dst = ctl{parent: c.v2, v2: true}
		case v1[want.name] != "":
			dir, err := mk(v1[want.name])
			if err != nil {
				return err
			}
			*want.dst = ctl{parent: dir}
		}
	}
	if !c.mem.ok() {
		return errors.New("no memory cgroup controller")
	}
	if !c.cpu.ok() && v1["cpuacct"] != "" && v1["cpuacct"] == v1["memory"] {
		c.cpu = c.mem // cpuacct mounted with memory: the same group
	}
	return nil
}

// enableControllers turns on the wanted v2 controllers for the groups below
// dir, from its parent down, and returns those that are now available.
func enableControllers(dir string, want ...string) []string {
	avail := strings.Fields(readString(filepath.Join(filepath.Dir(dir), "cgroup.controllers")))
	var got []string
	for _, w := range want {
		if !slices.Contains(avail, w) {
			continue
		}
		okParent := writeCg(filepath.Join(filepath.Dir(dir), "cgroup.subtree_control"), "+"+w) == nil
		if okParent && writeCg(filepath.Join(dir, "cgroup.subtree_control"), "+"+w) == nil {
			got = append(got, w)
		}
	}
	return got
}

// cgroupMounts returns the cgroup2 mount point and the v1 mount point of
// each v1 controller.
func cgroupMounts() (v2 string, v1 map[string]string, err error) {
	data, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		return "", nil, fmt.Errorf("finding cgroups: %w", err)
	}
	v1 = map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		pre, post, ok := strings.Cut(sc.Text(), " - ")
		f, g := strings.Fields(pre), strings.Fields(post)
		if !ok || len(f) < 5 || len(g) < 3 {
			continue
		}
		switch g[0] {
		case "cgroup2":
			if v2 == "" {
				v2 = f[4]
			}
		case "cgroup":
			for _, opt := range strings.Split(g[2], ",") {
				if v1[opt] == "" {
					v1[opt] = f[4]
				}
			}
		}
	}
	if v2 == "" && len(v1) == 0 {
		return "", nil, errors.New("no cgroup file system mounted")
	}
	return v2, v1, nil
}

// sandboxes numbers the Sandboxes of this process.
var sandboxes atomic.Uint64

// removeStale removes the groups of judge processes that have exited.
func removeStale(top string) {
	ents, _ := os.ReadDir(top)
	for _, e := range ents {
		p, _, _ := strings.Cut(e.Name(), "-")
		pid, err := strconv.Atoi(p)
		if err != nil || !e.IsDir() || syscall.Kill(pid, 0) != syscall.ESRCH {
			continue
		}
		removeTree(filepath.Join(top, e.Name()))
	}
}

// removeTree kills what is left in a group and its children and removes them.
func removeTree(dir string) error {
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if e.IsDir() {
			removeTree(filepath.Join(dir, e.Name()))
		}
	}
	return removeGroup(dir)
}

// close removes the judge's parent groups (and any run group left in them).
func (c *cgroups) close() error {
	for _, f := range c.parks {
		f.Close()
	}
	c.parks = nil
	var first error
	for _, p := range c.parents {
		if err := removeTree(p); err != nil && first == nil {
			first = err
		}
		os.Remove(filepath.Dir(p)) // the shared top; busy while another judge runs
	}
	c.parents = nil
	return first
}

// runGroup is one run's cgroup(s). It is the run's meter. The run's
// supervisor joins it once its box is built, and the contestant starts in it.
type runGroup struct {
	c     *cgroups
	dirs  []string // every directory created, removed at the end
	v2    string
	mem   string
	memV2 bool
	pids  string
	cpu   string
	cpuV2 bool
	procs []*os.File  // cgroup.procs of every group, which the supervisor writes itself into
	lim   groupLimits // the limits written
	tree  *procMeter  // the CPU time while it runs
	// peak is the sampled maximum of memory.current when the kernel has no
	// memory.peak (v2 before 5.19).
	peak     bytesize.Size
	hasPeak  bool
	peakFile statFile // memory.peak or memory.max_usage_in_bytes
	oomFile  statFile // memory.events or memory.oom_control
}

// groupLimits are the limits a group enforces.
type groupLimits struct {
	memory    bytesize.Size
	processes int
}

func limitsOf(lim Limits) groupLimits { return groupLimits{lim.Memory, lim.Processes} }

func (g *runGroup) bind(pid int, start int64) { g.tree.bind(pid, start) }

func (g *runGroup) setBase(ticks int64) { g.tree.base = ticks }

// create makes a run's groups and sets their limits.
func (c *cgroups) create(gl groupLimits) (*runGroup, error) {
	var rnd [4]byte
	rand.Read(rnd[:])
	name := fmt.Sprintf("r%d-%s", c.seq.Add(1), hex.EncodeToString(rnd[:]))
	g := &runGroup{c: c, tree: &procMeter{}, peakFile: statFile{-1}, oomFile: statFile{-1}}
	if err := g.make(name, gl); err != nil {
		g.remove()
		return nil, err
	}
	return g, nil
}

func (g *runGroup) make(name string, gl groupLimits) error {
	mk := func(parent string) (string, error) {
		dir := filepath.Join(parent, name)
		for _, d := range g.dirs {
			if d == dir {
				return dir, nil
			}
		}
		if err := os.Mkdir(dir, 0o755); err != nil {
			return "", fmt.Errorf("sandbox: creating cgroup: %w", err)
		}
		g.dirs = append(g.dirs, dir)
		return dir, nil
	}
	var err error
	c := g.c
	if c.v2 != "" {
		if g.v2, err = mk(c.v2); err != nil {
			return err
		}
	}
	if g.mem, err = mk(c.mem.parent); err != nil {
		return err
	}
	g.memV2 = c.mem.v2
	if c.pids.ok() {
		if g.pids, err = mk(c.pids.parent); err != nil {
			return err
		}
	}
	if c.cpu.ok() {
		if g.cpu, err = mk(c.cpu.parent); err != nil {
			return err
		}
		g.cpuV2 = c.cpu.v2
	}
	if err := g.limit(gl); err != nil {
		return err
	}
	peak, oom := "memory.max_usage_in_bytes", "memory.oom_control"
	if g.memV2 {
		peak, oom = "memory.peak", "memory.events"
		_, err = os.Stat(filepath.Join(g.mem, peak))
		if g.hasPeak = err == nil; !g.hasPeak {
			peak = "memory.current"
		}
	}
	if g.peakFile, err = openStat(filepath.Join(g.mem, peak)); err != nil {
		return err
	}
	if g.oomFile, err = openStat(filepath.Join(g.mem, oom)); err != nil {
		return err
	}
	return g.openProcs()
}

// limit writes the memory and process limits that differ from those in
// force (a new group has none).
func (g *runGroup) limit(gl groupLimits) error {
	var w []struct{ file, value string }
	add := func(file, value string) { w = append(w, struct{ file, value string }{file, value}) }
	if gl.memory != g.lim.memory {
		v, v1 := "max", "-1"
		if gl.memory > 0 {
			v = strconv.FormatInt(int64(gl.memory+memorySlack), 10)
			v1 = v
		}
		if g.memV2 {
			add(filepath.Join(g.mem, "memory.max"), v)
			add(filepath.Join(g.mem, "memory.swap.max"), "0")
		} else {
			if g.lim.memory != 0 {
				// lift memory+swap first, so that the memory limit may rise past it
				add(filepath.Join(g.mem, "memory.memsw.limit_in_bytes"), "-1")
			}
			add(filepath.Join(g.mem, "memory.limit_in_bytes"), v1)
			add(filepath.Join(g.mem, "memory.memsw.limit_in_bytes"), v1)
		}
	}
	if g.pids != "" && gl.processes != g.lim.processes {
		// +1 for the supervisor, which is in the group too
		add(filepath.Join(g.pids, "pids.max"), strconv.Itoa(gl.processes+1))
	}
	for _, x := range w {
		err := writeCg(x.file, x.value)
		if err != nil && !(errors.Is(err, os.ErrNotExist) && strings.Contains(x.file, "sw")) {
			return fmt.Errorf("sandbox: setting cgroup limit: %w", err)
		}
	}
	g.lim = gl
	return nil
}

// openProcs opens cgroup.procs of every group, for the supervisor to write
// itself into.
func (g *runGroup) openProcs() error {
	for _, d := range g.dirs {
		f, err := os.OpenFile(filepath.Join(d, "cgroup.procs"), os.O_WRONLY, 0)
		if err != nil {
			return fmt.Errorf("sandbox: opening cgroup: %w", err)
		}
		g.procs = append(g.procs, f)
	}
	return nil
}

// joins are the cgroup.procs files a spare writes itself into.
func (g *runGroup) joins() []*os.File { return g.procs }

// dropJoins closes the cgroup.procs files once a spare has them.
func (g *runGroup) dropJoins() {
	for _, f := range g.procs {
		f.Close()
	}
	g.procs = nil
}

// attach has a supervisor made for the run (not a spare) join the groups.
func (g *runGroup) attach(b *box) {
	for _, f := range g.procs {
		b.args = append(b.args, "-j", strconv.Itoa(4+len(b.files)))
		b.files = append(b.files, f)
	}
}

// setLimits sets the limits of the run the group serves.
func (g *runGroup) setLimits(lim Limits) error { return g.limit(limitsOf(lim)) }

// poll takes the CPU time from the process tree, as the report does: a
// kill for CPU time must never be reported with less CPU than the limit.
func (g *runGroup) poll() (time.Duration, bytesize.Size) {
	if g.memV2 && !g.hasPeak {
		g.peak = max(g.peak, bytesize.Size(readInt(filepath.Join(g.mem, "memory.current"))))
	}
	cpu, _ := g.tree.poll()
	return cpu, 0 // the kernel enforces the memory limit
}

func (g *runGroup) cpuTime() (time.Duration, bool) {
	switch {
	case g.cpu == "":
		return 0, false
	case g.cpuV2:
		v, ok := statField(filepath.Join(g.cpu, "cpu.stat"), "usage_usec")
		return time.Duration(v) * time.Microsecond, ok
	}
	return time.Duration(readInt(filepath.Join(g.cpu, "cpuacct.usage"))), true
}

// killAll kills every process in the run's groups.
func (g *runGroup) killAll() {
	if g.v2 != "" && g.c.kill {
		writeCg(filepath.Join(g.v2, "cgroup.kill"), "1")
		return
	}
	for _, d := range g.dirs {
		killGroup(d)
	}
}

// killGroup kills the processes of one group: with cgroup.kill where the
// kernel has it, else by pid (a listed pid can only be reused once its
// process was reaped, and in a box only the box's init reaps).
func killGroup(dir string) {
	if writeCg(filepath.Join(dir, "cgroup.kill"), "1") == nil {
		return
	}
	for _, f := range strings.Fields(readString(filepath.Join(dir, "cgroup.procs"))) {
		if pid, err := strconv.Atoi(f); err == nil && pid > 0 {
			syscall.Kill(pid, syscall.SIGKILL)
		}
	}
}

func (g *runGroup) finish(needCPU bool) (usage, error) {
	u := usage{peakExact: true}
	if needCPU {
		u.cpu, u.cpuKnown = g.cpuTime()
	}
	peak := g.peakFile.read()
	if g.memV2 && !g.hasPeak {
		peak, u.peakExact = max(g.peak, bytesize.Size(readInt(filepath.Join(g.mem, "memory.current")))), false
	}
	u.peak = peak
	u.oomKilled, u.memReached = memoryEvents(string(g.oomFile.bytes()), g.memV2)
	return u, nil
}

// memoryEvents reads a run's memory.events (v2) or memory.oom_control
// (v1): whether the OOM killer killed in the group, and whether the group
// reached its limit at all. v2 counts each time the usage was about to
// pass memory.max (max) and each time reclaim failed there (oom); v1 says
// only whether the group is out of memory now (under_oom). A peak at the
// limit (the memory slack makes it one over Limits.Memory) tells the rest.
func memoryEvents(text string, v2 bool) (oomKilled, reached bool) {
	kills, _ := field(text, "oom_kill")
	if v2 {
		max, _ := field(text, "max")
		oom, _ := field(text, "oom")
		reached = max > 0 || oom > 0
	} else {
		under, _ := field(text, "under_oom")
		reached = under > 0
	}
	return kills > 0, reached || kills > 0
}

// statFile is a cgroup file opened ahead of time (by the spare pool, off the
// run's path) and read at offset 0 when needed.
type statFile struct{ fd int }

func openStat(path string) (statFile, error) {
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return statFile{-1}, fmt.Errorf("sandbox: opening cgroup: %w", err)
	}
	return statFile{fd}, nil
}

func (f statFile) bytes() []byte {
	var buf [4096]byte
	if f.fd < 0 {
		return nil
	}
	n, err := unix.Pread(f.fd, buf[:], 0)
	if err != nil || n < 0 {
		return nil
	}
	return buf[:n]
}

func (f statFile) read() bytesize.Size { return bytesize.Size(parseInt(string(f.bytes()))) }

func (f *statFile) close() {
	if f.fd >= 0 {
		unix.Close(f.fd)
		f.fd = -1
	}
}

// remove kills what is left and removes the run's groups.
func (g *runGroup) remove() error {
	for _, f := range g.procs {
		f.Close()
	}
	g.peakFile.close()
	g.oomFile.close()
	var first error
	for i := len(g.dirs) - 1; i >= 0; i-- {
		if err := removeGroup(g.dirs[i]); err != nil && first == nil {
			first = err
		}
	}
	g.dirs = nil
	return first
}

// removeGroup removes one leaf group, killing its processes while it is
// busy (they may take a moment to exit after a kill).
func removeGroup(dir string) error {
	deadline := time.Now().Add(5 * time.Second)
	for delay := 100 * time.Microsecond; ; delay = min(2*delay, 50*time.Millisecond) {
		err := syscall.Rmdir(dir)
		if err == nil || err == syscall.ENOENT {
			return nil
		}
		if err != syscall.EBUSY || time.Now().After(deadline) {
			return fmt.Errorf("sandbox: removing cgroup %s: %w", dir, err)
		}
		killGroup(dir)
		time.Sleep(delay)
	}
}

func readString(path string) string {
	b, _ := os.ReadFile(path)
	return string(b)
}

func readInt(path string) int64 { return parseInt(readString(path)) }

func parseInt(s string) int64 {
	v, _ := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	return v
}

// statField reads "key value" from a flat-keyed cgroup file.
func statField(path, key string) (int64, bool) { return field(readString(path), key) }

// field finds "key value" in the text of a flat-keyed cgroup file.
func field(text, key string) (int64, bool) {
	for _, line := range strings.Split(text, "\n") {
		if k, v, ok := strings.Cut(line, " "); ok && k == key {
			return parseInt(v), true
		}
	}
	return 0, false
}

// writeCg writes a cgroup control file, which must exist: a missing file
// means the kernel lacks the feature, and must not be created as a plain file.
func writeCg(path, value string) error {
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	_, err = f.WriteString(value)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
