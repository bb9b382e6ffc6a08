package sandbox

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"
)

// system is the Linux sandbox at its chosen level.
type system struct {
	helper   string
	level    string
	boxRoot  string   // empty directory the box's root tmpfs is mounted on
	mntns    uint64   // the judge's mount namespace, which the helper must not touch
	userns   bool     // not root: a user namespace maps the judge's uid to 0
	netns    *os.File // the network namespace boxes share, or nil for a fresh one each
	firstUID int
	cg       *cgroups // nil below IsolationCgroup
	sysMount []mountOp
	slots    *slots
}

func newSystem(opts Options) (*Sandbox, error) {
	base, err := newBase(opts)
	if err != nil {
		return nil, err
	}
	want := []string{IsolationCgroup, IsolationNamespaces, IsolationNone}
	if opts.Isolation != "" {
		want = []string{opts.Isolation}
	}
	var why []string
	for _, level := range want {
		sb, err := base.at(level, opts)
		if err == nil {
			sb.layers = append(sb.layers, skipped(why)...)
			if sb.sys.netns == nil && base.netns != nil {
				base.netns.Close()
			}
			return sb, nil
		}
		if opts.Isolation != "" {
			why = []string{err.Error()}
			break
		}
		why = append(why, level+": "+err.Error())
	}
	if base.netns != nil {
		base.netns.Close()
	}
	if opts.Isolation != "" {
		return nil, fmt.Errorf("sandbox: isolation %q: %s", opts.Isolation, why[0])
	}
	return nil, fmt.Errorf("sandbox: no isolation level works: %v", why)
}

// newBase builds the helper and the parts every level shares.
func newBase(opts Options) (*system, error) {
	switch opts.Isolation {
	case "", IsolationNone, IsolationNamespaces, IsolationCgroup:
	default:
		return nil, fmt.Errorf("sandbox: unknown isolation %q", opts.Isolation)
	}
	dir, err := cacheDir(opts)
	if err != nil {
		return nil, err
	}
	helper, err := buildHelper(dir, opts.Compiler)
	if err != nil {
		return nil, fmt.Errorf("sandbox: %w", err)
	}
	s := &system{helper: helper, boxRoot: filepath.Join(dir, "root"), firstUID: opts.FirstUID}
	if s.firstUID == 0 {
		s.firstUID = 60000
	}
	if err := os.MkdirAll(s.boxRoot, 0o700); err != nil {
		return nil, fmt.Errorf("sandbox: %w", err)
	}
	var st unix.Stat_t
	if err := unix.Stat("/proc/self/ns/mnt", &st); err != nil {
		return nil, fmt.Errorf("sandbox: mount namespace: %w", err)
	}
	s.mntns = st.Ino
	s.userns = os.Geteuid() != 0
	s.sysMount = systemMounts()
	if s.netns, err = sharedNetwork(); err != nil {
		return nil, err
	}
	return s, nil
}

// at returns a Sandbox at level, after a probe run proved it works.
func (base *system) at(level string, opts Options) (*Sandbox, error) {
	s := &system{
		helper: base.helper, level: level, boxRoot: base.boxRoot, mntns: base.mntns,
		userns: base.userns, firstUID: base.firstUID, sysMount: base.sysMount, slots: &slots{},
	}
	if level != IsolationNone {
		s.netns = base.netns
	}
	if level == IsolationCgroup {
		if s.userns {
			return nil, errors.New("cgroups need root")
		}
		cg, err := newCgroups(opts.CgroupName, opts.noCgroupV2)
		if err != nil {
			return nil, err
		}
		s.cg = cg
	}
	sb := &Sandbox{isolation: level, sys: s}
	if err := s.probe(); err != nil {
		if s.cg != nil {
			s.cg.close()
		}
		return nil, err
	}
	sb.layers = s.layers()
	if level == IsolationNone {
		sb.warning = "sandbox: limits only (no namespaces, no cgroup): the program can read the judge's files, " +
			"use the network, and escape the process limit; memory is sampled"
	}
	return sb, nil
}

func (s *system) close() error {
	if s.netns != nil {
		s.netns.Close()
	}
	if s.cg != nil {
		return s.cg.close()
	}
	return nil
}

// prepare sets up one run's box: uid, cgroup, mounts.
func (s *system) prepare(c *Cmd, path string, lim Limits) (*box, error) {
	b := &box{attr: &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGTERM}}
	var undo []func() error
	b.release = func() error {
		var first error
		for i := len(undo) - 1; i >= 0; i-- {
			if err := undo[i](); err != nil && first == nil {
				first = err
			}
		}
		return first
	}
	b.newMeter = func(pid int) meter { return newProcMeter(pid) }
	if s.level == IsolationNone {
		return b, nil
	}
	if err := s.namespaces(b, c, path, lim, &undo); err != nil {
		b.release()
		return nil, err
	}
	if s.cg == nil {
		return b, nil
	}
	g, err := s.cg.create(lim)
	if err != nil {
		b.release()
		return nil, err
	}
	undo = append(undo, g.remove)
	g.attach(b)
	b.newMeter = g.meter
	return b, nil
}

// namespaces adds the namespace options: clone flags, uid, mounts.
func (s *system) namespaces(b *box, c *Cmd, path string, lim Limits, undo *[]func() error) error {
	a := b.attr
	a.Cloneflags = unix.CLONE_NEWPID | unix.CLONE_NEWNS | unix.CLONE_NEWIPC | unix.CLONE_NEWUTS
	b.args = append(b.args, "-n", "-m", s.boxRoot, "-M", strconv.FormatUint(s.mntns, 10), "-H", "box")
	if s.netns != nil {
		b.args = append(b.args, "-N", strconv.Itoa(4+len(b.files)))
		b.files = append(b.files, s.netns)
	} else {
		a.Cloneflags |= unix.CLONE_NEWNET
	}
	nproc := lim.Processes
	if s.userns {
		a.Cloneflags |= unix.CLONE_NEWUSER
		a.UidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Geteuid(), Size: 1}}
		a.GidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getegid(), Size: 1}}
		a.GidMappingsEnableSetgroups = false
		b.args = append(b.args, "-c")
		// since Linux 5.14 RLIMIT_NPROC counts the processes of the uid in
		// the box's own user namespace, the helper among them
		nproc++
	} else {
		slot := s.slots.get()
		*undo = append(*undo, func() error { s.slots.put(slot); return nil })
		id := s.firstUID + slot
		restore, err := lendDir(c.Dir, id)
		if err != nil {
			return err
		}
		*undo = append(*undo, restore)
		// the uid is the box's alone, so RLIMIT_NPROC counts only the box
		b.args = append(b.args, "-u", strconv.Itoa(id), "-g", strconv.Itoa(id))
	}
	if s.cg == nil || !s.cg.hasPids() {
		n := strconv.Itoa(nproc)
		b.args = append(b.args, "-r", strconv.Itoa(unix.RLIMIT_NPROC), n, n)
	}
	ops, err := s.mountPlan(c, path)
	if err != nil {
		return err
	}
	for _, op := range ops {
		b.args = append(b.args, op.args()...)
	}
	return nil
}

// layers describes the containment mechanisms of this level.
func (s *system) layers() []Layer {
	ns := s.level != IsolationNone
	l := []Layer{
		{"rlimits", true, "CPU backstop, file size, open files, stack = memory limit, no core dumps, " +
			"processes (without a pids cgroup); set by the C helper between fork and exec"},
		{"clean process start", true, "own process group, scrubbed environment, descriptors above 2 closed, " +
			"no_new_privs, seccomp filter (no vsock, no io_uring, native ABI only)"},
		{"tree kill", true, either(ns, "the helper is PID 1 of the box and kills it whole",
			"the helper is a child subreaper and kills every descendant it can see")},
		{"user namespace", ns && s.userns, either(s.userns,
			"not root: the judge's uid is root of a user namespace, capabilities dropped", "not needed: the judge is root")},
		{"pid, mount, ipc, uts namespaces", ns, "fresh for every run: a private /proc, no shared IPC"},
		{"network namespace", ns, either(s.netns != nil,
			"one empty network namespace shared by the boxes (no interface up); Landlock scoping keeps boxes "+
				"off each other's abstract unix sockets",
			"a fresh empty network namespace for every run (no interface up)")},
		{"minimal root", ns, "pivot_root into a tmpfs with read-only /usr, /etc, libraries; the working directory read-write"},
		{"per-box uid", ns && !s.userns, fmt.Sprintf("box n runs as uid and gid %d+n", s.firstUID)},
	}
	c := s.cg
	if c == nil {
		return append(l, Layer{"cgroup", false, "peak memory is sampled from /proc, CPU polled from /proc"})
	}
	where := func(x ctl) string { return either(x.ok(), x.parent, "not available") }
	return append(l,
		Layer{"cgroup memory", c.mem.ok(), where(c.mem)},
		Layer{"cgroup pids", c.pids.ok(), where(c.pids)},
		Layer{"cgroup cpu", c.cpu.ok(), where(c.cpu)},
		Layer{"cgroup kill", c.kill, where(ctl{parent: c.v2})},
	)
}

func either(c bool, yes, no string) string {
	if c {
		return yes
	}
	return no
}

// skipped lists the stronger levels that did not work here.
func skipped(why []string) []Layer {
	var l []Layer
	for _, w := range why {
		level, reason, _ := strings.Cut(w, ": ")
		l = append(l, Layer{Name: "isolation " + level, Active: false, Why: reason})
	}
	return l
}

// slots hands out box numbers, so that concurrent boxes never share a uid.
type slots struct {
	mu   sync.Mutex
	free []int
	next int
}

func (p *slots) get() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	if n := len(p.free); n > 0 {
		id := p.free[n-1]
		p.free = p.free[:n-1]
		return id
	}
	p.next++
	return p.next - 1
}

func (p *slots) put(id int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.free = append(p.free, id)
}

// memoryFile returns data in a sealed memfd: the program can read and seek it
// like a file but cannot change it.
func memoryFile(data []byte) (*os.File, error) {
	fd, err := unix.MemfdCreate("optjudge-stdin", unix.MFD_CLOEXEC|unix.MFD_ALLOW_SEALING)
	if err != nil {
		return nil, fmt.Errorf("sandbox: stdin: %w", err)
	}
	f := os.NewFile(uintptr(fd), "stdin")
	if _, err := f.Write(data); err != nil {
		f.Close()
		return nil, fmt.Errorf("sandbox: stdin: %w", err)
	}
	seals := unix.F_SEAL_SEAL | unix.F_SEAL_SHRINK | unix.F_SEAL_GROW | unix.F_SEAL_WRITE
	if _, err := unix.FcntlInt(f.Fd(), unix.F_ADD_SEALS, seals); err != nil {
		f.Close()
		return nil, fmt.Errorf("sandbox: stdin: %w", err)
	}
	if _, err := f.Seek(0, 0); err != nil {
		f.Close()
		return nil, fmt.Errorf("sandbox: stdin: %w", err)
	}
	return f, nil
}
