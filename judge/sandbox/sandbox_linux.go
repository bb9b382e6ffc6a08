package sandbox

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// system is the Linux sandbox at its chosen level.
type system struct {
	helper    string
	level     string
	boxRoot   string   // empty directory the box's root tmpfs is mounted on
	tmplRoot  string   // empty directory the zygote's template is mounted on
	mntns     uint64   // the judge's mount namespace, which the helper must not touch
	userns    bool     // not root: a user namespace maps the judge's uid to 0
	netns     *os.File // the network namespace boxes share, or nil for a fresh one each
	firstUID  int
	uids      *boxUIDs // as root: the boxes' own uids (at every level); nil otherwise
	cg        *cgroups // nil below IsolationCgroup
	tmplMount []mountOp
	sysMount  []mountOp
	zyg       *zygote
	pool      *sparePool
	early     bool     // spares pivot before their run: the run's mounts come detached
	trace     bool     // the supervisors report their steps (BenchmarkRunSteps)
	hide      []string // files no box may read (Options.Hide, the judge's executable), links resolved
	empty     string   // an empty file, bound over them
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
	s := &system{helper: helper, boxRoot: filepath.Join(dir, "root"), tmplRoot: filepath.Join(dir, "template"),
		firstUID: opts.FirstUID, trace: opts.trace}
	if s.firstUID == 0 {
		s.firstUID = 60000
	}
	for _, d := range []string{s.boxRoot, s.tmplRoot} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return nil, fmt.Errorf("sandbox: %w", err)
		}
	}
	var st unix.Stat_t
	if err := unix.Stat("/proc/self/ns/mnt", &st); err != nil {
		return nil, fmt.Errorf("sandbox: mount namespace: %w", err)
	}
	s.mntns = st.Ino
	s.userns = os.Geteuid() != 0
	if !s.userns {
		if s.uids, err = newBoxUIDs(s.firstUID, opts.LockDir, filepath.Join(dir, "locks")); err != nil {
			return nil, err
		}
	}
	s.early = !s.userns && canDetachMounts()
	s.tmplMount, s.sysMount = systemMounts(s.tmplRoot)
	if s.hide, s.empty, err = hidden(dir, opts.Hide); err != nil {
		return nil, err
	}
	if s.netns, err = sharedNetwork(); err != nil {
		return nil, err
	}
	return s, nil
}

// at returns a Sandbox at level, after a probe run proved it works.
func (base *system) at(level string, opts Options) (*Sandbox, error) {
	s := &system{
		helper: base.helper, level: level, boxRoot: base.boxRoot, tmplRoot: base.tmplRoot, mntns: base.mntns,
		userns: base.userns, firstUID: base.firstUID, uids: base.uids, tmplMount: base.tmplMount, sysMount: base.sysMount,
		early: base.early, trace: base.trace, hide: base.hide, empty: base.empty,
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
	zyg, err := s.startZygote()
	if err == nil {
		s.zyg = zyg
		var newGroup func(Limits) (spareGroup, error)
		if s.cg != nil {
			newGroup = func(lim Limits) (spareGroup, error) {
				g, err := s.cg.create(limitsOf(lim))
				if err != nil {
					return nil, err
				}
				return g, nil
			}
		}
		s.pool = newSparePool(zyg, newGroup)
		s.pool.uids = s.uids
		if s.cg != nil {
			s.pool.parks = s.cg.parks
		}
		err = s.probe()
	}
	if err != nil {
		if s.pool != nil {
			s.pool.close()
		}
		if s.zyg != nil {
			s.zyg.close()
		}
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

// startZygote starts the level's resident helper: in the judge's
// namespaces for "none", else in a mount namespace of its own (and, not
// being root, a user namespace) where it mounts the template every box
// binds. Its spares are cloned with the level's flags and have mounted the
// system part of the root (sysMount), and as root pivoted into it, when a
// run comes.
func (s *system) startZygote() (*zygote, error) {
	// its own process group, so that a terminal's ^C reaches the judge only
	attr := &syscall.SysProcAttr{Setpgid: true}
	var args []string
	var files []*os.File
	if s.level != IsolationNone {
		attr.Cloneflags = unix.CLONE_NEWNS
		if s.userns {
			attr.Cloneflags |= unix.CLONE_NEWUSER
			attr.UidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Geteuid(), Size: 1}}
			attr.GidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getegid(), Size: 1}}
			attr.GidMappingsEnableSetgroups = false
		}
		args = append(args, "-M", strconv.FormatUint(s.mntns, 10), "-m", s.tmplRoot)
		for _, op := range s.tmplMount {
			args = append(args, op.args()...)
		}
		if s.netns != nil {
			files = append(files, s.netns) // fd 4
		}
	}
	args = append(args, "--", strconv.FormatUint(uint64(s.boxFlags()), 10))
	if s.level != IsolationNone {
		args = append(args, s.boxArgs(4)...)
		if s.early {
			args = append(args, "-e")
		}
		for _, op := range s.sysMount {
			args = append(args, op.args()...)
		}
	}
	return newZygote(s.helper, args, files, attr)
}

func (s *system) close() error {
	var first error
	if s.pool != nil {
		first = s.pool.close()
	}
	if s.zyg != nil {
		if err := s.zyg.close(); err != nil && first == nil {
			first = err
		}
	}
	if s.netns != nil {
		s.netns.Close()
	}
	if s.cg != nil {
		if err := s.cg.close(); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// prepare sets up one run's box: uid, mounts, the spare or the flags, and
// the cgroups.
func (s *system) prepare(c *Cmd, path string, lim Limits) (*box, error) {
	b := &box{meter: &procMeter{}}
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
	var err error
	if s.level == IsolationNone {
		if err = s.onSpare(b, lim, "none"); err == nil && s.uids != nil {
			// a root judge never runs the program as root: it gets a box
			// uid, and with it a process limit of its own
			err = s.boxUser(b, c, lim, &undo)
		}
	} else {
		err = s.namespaces(b, c, path, lim, &undo)
	}
	if err != nil {
		if b.sp != nil {
			s.pool.done(b.sp, false, "") // taken before a later step failed
		}
		b.release()
		return nil, err
	}
	if b.sp != nil || s.cg == nil {
		return b, nil
	}
	g, err := s.cg.create(limitsOf(lim))
	if err != nil {
		b.release()
		return nil, err
	}
	g.attach(b)
	b.group, b.meter = g, g
	return b, nil
}

// onSpare puts the run on a spare: a warm one whose root has the run's
// mounts (key) if there is one. An empty key matches no warm spare, and
// the spare is not kept warm after the run.
func (s *system) onSpare(b *box, lim Limits, key string) error {
	sp, err := s.pool.take(lim, key)
	if err != nil {
		return err
	}
	b.sp, b.key, b.cpuBase = sp, key, sp.cpuBase
	if sp.group != nil {
		if sp.runs > 0 {
			sp.group.attach(b) // new cgroups for this run
		}
		sp.group.setBase(sp.base)
		b.meter = sp.group
	} else {
		b.meter = &procMeter{base: sp.base}
	}
	return nil
}

// boxFlags are the clone flags of a box's supervisor.
func (s *system) boxFlags() uintptr {
	if s.level == IsolationNone {
		return 0
	}
	f := uintptr(unix.CLONE_NEWPID | unix.CLONE_NEWNS | unix.CLONE_NEWIPC | unix.CLONE_NEWUTS)
	if s.netns == nil {
		f |= unix.CLONE_NEWNET
	}
	if s.userns {
		// a user namespace of its own, inside the zygote's, so that
		// RLIMIT_NPROC counts this box's processes only
		f |= unix.CLONE_NEWUSER
	}
	return f
}

// boxArgs are the supervisor options every run of this level shares, with
// the shared network namespace at descriptor netnsFD.
func (s *system) boxArgs(netnsFD int) []string {
	if s.level == IsolationNone {
		return nil
	}
	a := []string{"-n", "-m", s.boxRoot, "-M", strconv.FormatUint(s.mntns, 10), "-H", "box"}
	if s.netns != nil {
		a = append(a, "-N", strconv.Itoa(netnsFD))
	}
	if s.userns {
		a = append(a, "-U", "-c")
	}
	return a
}

// namespaces adds the namespace options: mounts, uid, process limit. The
// run goes to a spare when its mounts leave the skeleton as it is (and, for
// a spare that pivoted already, are few enough to come detached): to a warm
// one that has them, which needs no mount, if there is one. Another run gets
// a supervisor of its own, cloned with all the options.
func (s *system) namespaces(b *box, c *Cmd, path string, lim Limits, undo *[]func() error) error {
	ops, err := s.mountPlan(c, path)
	if err != nil {
		return err
	}
	rest, onSpare := withoutSkeleton(ops, s.sysMount)
	if onSpare && (!s.early || len(rest) <= maxDetached) {
		if err := s.onSpare(b, lim, planKey(rest)); err != nil {
			return err
		}
		ops = rest
		if b.sp.runs > 0 {
			ops = nil // its root has them
		}
	} else {
		b.flags = s.boxFlags()
		b.args = s.boxArgs(4 + len(b.files))
		if s.netns != nil {
			b.files = append(b.files, s.netns)
		}
	}
	if err := s.mountArgs(b, ops, undo); err != nil {
		return err
	}
	if s.userns {
		if s.cg == nil || !s.cg.hasPids() {
			// since Linux 5.14 RLIMIT_NPROC counts the processes of the uid
			// in the box's own user namespace, the supervisor among them
			n := strconv.Itoa(lim.Processes + 1)
			b.args = append(b.args, "-r", strconv.Itoa(unix.RLIMIT_NPROC), n, n)
		}
		return nil
	}
	return s.boxUser(b, c, lim, undo)
}

// boxUser runs the program as its box's own uid (a spare keeps one for its
// life), lends it the working directory and, without a pids cgroup, limits
// its processes by RLIMIT_NPROC, which counts only the box's: the uid is
// its alone.
func (s *system) boxUser(b *box, c *Cmd, lim Limits, undo *[]func() error) error {
	var id int
	switch {
	case b.sp != nil && b.sp.uid >= 0:
		id = b.sp.uid
	case b.sp != nil:
		uid, err := s.uids.get()
		if err != nil {
			return err
		}
		b.sp.uid, id = uid, uid // freed when the spare is let go
	default:
		uid, err := s.uids.get()
		if err != nil {
			return err
		}
		*undo = append(*undo, func() error { s.uids.put(uid); return nil })
		id = uid
	}
	if !c.ReadOnlyDir {
		restore, err := lendDir(c.Dir, id)
		if err != nil {
			return err
		}
		*undo = append(*undo, restore)
	}
	for _, w := range c.Writable {
		restore, err := lendDir(w, id)
		if err != nil {
			return err
		}
		*undo = append(*undo, restore)
	}
	b.args = append(b.args, "-u", strconv.Itoa(id), "-g", strconv.Itoa(id))
	if s.cg == nil || !s.cg.hasPids() {
		n := strconv.Itoa(lim.Processes)
		b.args = append(b.args, "-r", strconv.Itoa(unix.RLIMIT_NPROC), n, n)
	}
	return nil
}

// planKey names a run's own mounts: a warm spare serves only runs with the
// same. A box holds what it bound, so the key has the file each source is
// now: a program or directory replaced at the same path needs a new box.
func planKey(ops []mountOp) string {
	var k strings.Builder
	for _, op := range ops {
		k.WriteByte(op.kind)
		for _, s := range []string{op.src, op.dst} {
			k.WriteString(strconv.Itoa(len(s)))
			k.WriteByte(':')
			k.WriteString(s)
		}
		if op.kind == 'b' || op.kind == 'w' {
			var st unix.Stat_t
			if err := unix.Stat(op.src, &st); err != nil {
				return "" // no box has it: the run gets a fresh one, for itself
			}
			fmt.Fprintf(&k, "@%d:%d", st.Dev, st.Ino)
		}
	}
	return k.String()
}

// maxDetached bounds the detached mounts of one request (the helper takes
// 64 descriptors); a run with more binds goes to a supervisor of its own.
const maxDetached = 48

// mountArgs adds the mount options. As root, the binds of the run's paths
// come as detached mounts (open_tree) of the judge's mount namespace as it
// is now, read-only but for the working directory: a spare that pivoted
// already can only attach those. Else they are paths the supervisor binds
// in the zygote's namespace.
func (s *system) mountArgs(b *box, ops []mountOp, undo *[]func() error) error {
	detached := 0
	for _, op := range ops {
		if !s.early || (op.kind != 'b' && op.kind != 'w') || detached == maxDetached {
			b.args = append(b.args, op.args()...)
			continue
		}
		detached++
		fd, err := unix.OpenTree(unix.AT_FDCWD, op.src, unix.OPEN_TREE_CLONE|unix.OPEN_TREE_CLOEXEC)
		if err != nil {
			return fmt.Errorf("sandbox: mounting %s: %w", op.src, err)
		}
		f := os.NewFile(uintptr(fd), op.src)
		*undo = append(*undo, f.Close)
		attr := &unix.MountAttr{Attr_set: unix.MOUNT_ATTR_NOSUID | unix.MOUNT_ATTR_NODEV}
		if op.kind == 'b' {
			attr.Attr_set |= unix.MOUNT_ATTR_RDONLY
		}
		if err := unix.MountSetattr(fd, "", unix.AT_EMPTY_PATH, attr); err != nil {
			return fmt.Errorf("sandbox: mounting %s: %w", op.src, err)
		}
		b.args = append(b.args, "-F", strconv.Itoa(4+len(b.files)), op.dst)
		b.files = append(b.files, f)
	}
	return nil
}

// canDetachMounts reports whether the judge may make detached mounts
// (open_tree, Linux 5.2; mount_setattr, 5.12) for spares to attach.
func canDetachMounts() bool {
	fd, err := unix.OpenTree(unix.AT_FDCWD, "/", unix.OPEN_TREE_CLONE|unix.OPEN_TREE_CLOEXEC)
	if err != nil {
		return false
	}
	defer unix.Close(fd)
	return unix.MountSetattr(fd, "", unix.AT_EMPTY_PATH, &unix.MountAttr{Attr_set: unix.MOUNT_ATTR_NOSUID}) == nil
}

// layers describes the containment mechanisms of this level.
func (s *system) layers() []Layer {
	ns := s.level != IsolationNone
	l := []Layer{
		{"rlimits", true, "CPU backstop, file size, open files, stack = memory limit, no core dumps, " +
			"processes (without a pids cgroup); set by the C helper between fork and exec"},
		{"clean process start", true, "own process group, scrubbed environment, descriptors above 2 closed, " +
			"no_new_privs, seccomp filter (no vsock, no io_uring, no keyrings, no prlimit of another process, native ABI only)"},
		{"tree kill", true, either(ns, "the helper is PID 1 of the box and kills it whole",
			"the helper is a child subreaper and kills every descendant it can see")},
		{"user namespace", ns && s.userns, either(s.userns,
			"not root: the judge's uid is root of a user namespace, capabilities dropped", "not needed: the judge is root")},
		{"pid, mount, ipc, uts namespaces", ns, "one set per box, a private /proc; a box runs one program after " +
			"another only with everything killed, /tmp emptied and a new IPC namespace in between"},
		{"network namespace", ns, either(s.netns != nil,
			"one empty network namespace shared by the boxes (no interface up); Landlock scoping keeps boxes "+
				"off each other's abstract unix sockets",
			"a fresh empty network namespace for every run (no interface up)")},
		{"minimal root", ns, "pivot_root into a tmpfs with read-only /usr, /etc, libraries; the working directory read-write"},
		{"per-box uid", !s.userns, either(s.userns, "not root: the box's user is the judge's, mapped to root of its user namespace",
			fmt.Sprintf("each box runs as a uid and gid of its own from %d on, never shared (locked machine-wide in %s)",
				s.firstUID, s.uidDir()))},
	}
	c := s.cg
	if c == nil {
		return append(l, Layer{"cgroup", false, "peak memory is sampled from /proc, CPU polled from /proc"})
	}
	where := func(x ctl) string { return either(x.ok(), x.parent, "not available") }
	return append(l,
		Layer{"cgroup memory", c.mem.ok(), where(c.mem)},
		Layer{"cgroup pids", c.pids.ok(), where(c.pids)},
		Layer{"cgroup cpu", c.cpu.ok(), either(c.cpu.ok(), c.cpu.parent,
			"not needed: the CPU time is the supervisor's report (no controller shares the memory group)")},
		Layer{"cgroup kill", c.kill, either(c.kill, c.v2, "not needed: killing the box's PID 1 kills the box")},
	)
}

func (s *system) uidDir() string {
	if s.uids == nil {
		return ""
	}
	return s.uids.dir
}

func (s *system) reachable(dir string) error {
	if s.level != IsolationNone || s.uids == nil {
		return nil
	}
	return searchable(dir)
}

// ownUIDs reports whether boxes run as uids of their own, which cannot
// write to the judge's files.
func (s *system) ownUIDs() bool { return s.uids != nil }

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

// cloexecPipe makes a pipe closed on exec from the start.
func cloexecPipe() (p [2]int, err error) {
	err = unix.Pipe2(p[:], unix.O_CLOEXEC)
	return p, err
}

// socketpair makes a Unix stream socket pair closed on exec from the start.
func socketpair() ([2]int, error) {
	return unix.Socketpair(unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
}

// monotonicMicros is CLOCK_MONOTONIC in microseconds, the clock of the
// supervisors' trace.
func monotonicMicros() int64 {
	var ts unix.Timespec
	unix.ClockGettime(unix.CLOCK_MONOTONIC, &ts)
	return ts.Nano() / 1000
}

// memoryFile returns data in a sealed memfd: the program can read and seek it
// like a file but cannot change it.
func memoryFile(data []byte) (*os.File, error) {
	fd, err := unix.MemfdCreate("optjudge-stdin", unix.MFD_CLOEXEC|unix.MFD_ALLOW_SEALING)
	if err != nil {
		return nil, fmt.Errorf("sandbox: stdin: %w", err)
	}
	f := os.NewFile(uintptr(fd), "stdin") // blocking: not for the runtime's poller
	for len(data) > 0 && err == nil {
		var n int
		n, err = unix.Write(fd, data)
		data = data[n:]
	}
	if err == nil {
		_, err = unix.FcntlInt(uintptr(fd), unix.F_ADD_SEALS, unix.F_SEAL_SEAL|unix.F_SEAL_SHRINK|unix.F_SEAL_GROW|unix.F_SEAL_WRITE)
	}
	if err == nil {
		_, err = unix.Seek(fd, 0, 0)
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("sandbox: stdin: %w", err)
	}
	return f, nil
}
