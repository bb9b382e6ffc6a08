// Package sandbox runs one untrusted program under resource limits and, where
// the machine allows it, inside an isolated box, and measures what it used.
//
// A small C helper (_csrc, embedded, compiled once with the system C
// compiler into a cache directory keyed by its hash) runs every program. It
// sets the resource limits between its fork of the program and the exec, so
// that they hold from the contestant's first instruction, without a second
// Go runtime per test (a Go re-exec costs about 11 ms per run here). The
// other ways were worse: rlimits are per process, so setting them on a
// locked thread before fork limits the judge itself; prlimit after Start is
// racy; a ptrace stop at exec works for limits, but the namespace levels
// need a small init as PID 1 of the box anyway, and the helper is that init.
//
// The helper plays two parts. The zygote is started once per Sandbox (again
// if it dies): it forks the supervisors, so that no helper is executed per
// run and a fork is that of a tiny static process, not of the judge. A
// supervisor runs one program: it starts it, reaps its tree, reports, and in
// a box is its PID 1. Most supervisors are spares, made ahead of time (one
// ready per CPU): they have built the part of the box every run shares
// (namespaces, the root's system mounts, from a template the zygote mounts
// once; as root they have even pivoted into it), joined the run's cgroups,
// and wait for their run on a socket of their own. A run is then one
// message to a spare with its own mounts (as root, detached mounts the judge
// makes with open_tree), limits and streams; the judge waits for it with
// poll(2) from the run's own goroutine, and makes the next spare and removes
// the last run's cgroups in the background. A run whose mounts would change
// the shared part (Cmd.ReadOnly of /etc, say) gets a supervisor of its own,
// which builds the whole box.
//
// The isolation levels, chosen once by New from what the machine allows:
//
//   - "none": rlimits, own process group, scrubbed environment, no inherited
//     descriptors, no_new_privs, a seccomp blocklist; the supervisor is a
//     child subreaper that kills every descendant at the end. The tree's CPU
//     is polled from /proc, its memory sampled from /proc (approximate). The
//     program sees the judge's files and network: Warning says so. A root
//     judge runs it as a box uid all the same (see below), never as root:
//     what the judge keeps in directories of mode 0700 is out of its reach.
//   - "namespaces": new PID, mount, IPC and UTS namespaces, an empty network
//     namespace (shared by the boxes where Landlock can keep them apart,
//     else one per run), and a user namespace when the judge is not root.
//     The supervisor is PID 1 of the box; it builds a minimal root (a tmpfs
//     with read-only binds of /usr, /etc, the library directories and
//     Cmd.ReadOnly, the working directory read-write, a private /tmp, a fresh
//     /proc, a minimal /dev; a build's, with Cmd.MinimalEtc, next to nothing
//     of /etc) and pivot_roots into it. As root, a box sees the working
//     directory, the program and Cmd.ReadOnly as the judge's mount namespace
//     has them when the run starts; without root, as it had them when New
//     ran.
//   - "namespaces+cgroup": in addition, each run gets fresh cgroups of its
//     own (v2, or v1 memory and pids on hybrid machines, or v1 alone) for the
//     exact peak memory, the OOM kill count, the process limit and a
//     reliable kill; the CPU time is the supervisor's report, as at the other
//     levels.
//
// As root, at every level, each box runs as a uid and gid of its own, the
// lowest free one from Options.FirstUID: no two boxes of the machine share
// one at a time (a process-wide allocator, and a lock file per uid for the
// other judges), so that RLIMIT_NPROC and signals reach one box only.
// Place puts a program into a working directory the way that policy needs.
//
// Inside a box the working directory and every read-only path keep their
// host paths, so HOME and paths in Args mean the same inside and out. The
// program is bound read-only when it lies outside them; anything else it
// reads (an interpreter's prefix, a script) must be listed in Cmd.ReadOnly.
//
// A contestant's failure (time, memory, output, signal, exit code) is data in
// the Result; a non-nil error from Run means the sandbox itself failed, or the
// caller asked for something impossible (a missing program or directory).
package sandbox

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/optjudge/optjudge/bytesize"
)

// Isolation levels, from the weakest.
const (
	IsolationNone       = "none"
	IsolationNamespaces = "namespaces"
	IsolationCgroup     = "namespaces+cgroup"
)

// Defaults applied to zero Limits fields.
const (
	DefaultOutput    = 64 * bytesize.MiB
	DefaultStderr    = 64 * bytesize.KiB
	DefaultProcesses = 64
	DefaultOpenFiles = 64
	DefaultTmp       = 64 * bytesize.MiB
)

// SleepFor is how long a run past Limits.SleepWall must have used no CPU
// time to be killed as asleep (its threads asleep too: a busy machine here
// left a spinning program without CPU for 0.8 s, runnable all along).
const SleepFor = 500 * time.Millisecond

// Limits bound one run. A zero CPU, Wall or Memory means no such limit (but a
// zero Wall with a CPU limit becomes 2*CPU+1s); the other zero fields take
// the defaults above.
type Limits struct {
	CPU  time.Duration // user+system CPU of the whole tree; exceeded -> TimeLimit
	Wall time.Duration // wall clock; exceeded -> WallTimeLimit
	// SleepWall, below Wall, is the wall-clock limit of a run that
	// sleeps: past it, a run whose tree has used no CPU time for the
	// last SleepFor and whose every thread sleeps (none runnable) is
	// killed (WallTimeLimit, its Result.Wall under Wall), while one that
	// computes runs on to its CPU or Wall limit, however little CPU a busy
	// machine gives it. 0: none; none either where the sandbox cannot see
	// the threads' states (Linux only).
	SleepWall time.Duration
	Memory    bytesize.Size // peak resident memory of the tree; exceeded -> MemoryLimit
	Output    bytesize.Size // stdout bytes kept; past it -> OutputLimit and the tree is killed
	Stderr    bytesize.Size // stderr bytes kept; more is discarded, never a failure
	Processes int           // processes and threads in the tree
	FileSize  bytesize.Size // RLIMIT_FSIZE for files it writes (default: Output)
	OpenFiles int           // RLIMIT_NOFILE
}

// withDefaults fills the zero fields.
func (l Limits) withDefaults() Limits {
	if l.Wall == 0 && l.CPU > 0 {
		l.Wall = 2*l.CPU + time.Second
	}
	if l.Output <= 0 {
		l.Output = DefaultOutput
	}
	if l.Stderr <= 0 {
		l.Stderr = DefaultStderr
	}
	if l.Processes <= 0 {
		l.Processes = DefaultProcesses
	}
	if l.FileSize <= 0 {
		l.FileSize = l.Output
	}
	if l.OpenFiles <= 0 {
		l.OpenFiles = DefaultOpenFiles
	}
	return l
}

// cpuRlimit is the RLIMIT_CPU backstop in whole seconds: soft = ceil(limit)+1
// (the judge polls the tree's CPU and kills at the limit itself; the rlimit
// only catches a single process the poll missed), hard = soft+1, so SIGXCPU
// marks a CPU timeout before the hard SIGKILL.
func cpuRlimit(cpu time.Duration) (soft, hard uint64) {
	s := uint64(math.Ceil(cpu.Seconds())) + 1
	return s, s + 1
}

// Cmd is one program to run.
type Cmd struct {
	Path      string   // executable: absolute, relative to Dir, or looked up in /usr/local/bin:/usr/bin:/bin
	Args      []string // argv[1:]
	Dir       string   // working directory, created by the caller; in a box, the only writable place but /tmp
	Env       []string // extra environment ("K=V") over PATH, HOME=Dir, LANG=C.UTF-8; nothing else is passed
	Stdin     []byte   // standard input, unless StdinFile or StdinPipe is set
	StdinFile string   // a file to use as standard input (read-only)
	Limits    Limits
	ReadOnly  []string // extra host paths visible read-only inside the box
	// Writable lists extra directories, made by the caller, that the
	// program may write besides Dir and /tmp (a validator's feedback
	// directory beside the files it reads): bound read-write in a mount
	// namespace and, where the boxes have uids of their own, lent to the
	// box's uid for the run as Dir is.
	Writable []string

	// ReadOnlyDir keeps the working directory read-only for the program
	// (a Kattis package's allow_file_writing: false): it is not lent to
	// the box's uid, and in a mount namespace it is bound read-only; the
	// caller makes it readable. Only where the boxes have uids of their
	// own (Sandbox.OwnUIDs) is it enforced.
	ReadOnlyDir bool

	// StdinPipe, when set, is the program's standard input, passed on as
	// it is: the read end of a pipe from another process (an interactive
	// problem's validator), say. It excludes Stdin and StdinFile. Run
	// makes it blocking, as a program expects, and leaves it open.
	StdinPipe *os.File
	// StdoutPipe, when set, receives the program's standard output while
	// it runs, instead of Result.Stdout: the write end of a pipe to another
	// process. The judge still reads the output first and passes it on, so
	// Limits.Output holds (past it the tree is killed: OutputLimit), and it
	// reads no more while the reader has not taken what it passed (the
	// program then blocks on its writes, as on a pipe of its own). What the
	// reader can no longer take (it closed its end) is dropped. Run makes
	// the pipe non-blocking and leaves it open: its reader sees the end of
	// the output once the caller closes it, after Run has returned.
	StdoutPipe *os.File

	// Probe, when set, lets the caller look into the run while it runs
	// and stop it (see Probe).
	Probe *Probe

	// MinimalEtc gives the box no /etc but the dynamic linker's files and
	// the alternatives links (what programs need to start and find each
	// other), and the paths below /etc that ReadOnly lists: a compiler's
	// box, whose messages must show nothing of the machine. No effect at
	// level none.
	MinimalEtc bool
}

// Status classifies how a run ended. The sandbox decides it once, at the
// end of the run, from what it measured against the limits, in this order:
//
//   - MemoryLimit: the tree reached its memory limit (a memory cgroup's OOM
//     kill or events, or a peak over the limit; without a memory cgroup, a
//     sampled resident size over the limit, for which the judge killed it).
//     A run that reached its memory limit is MemoryLimit whatever happened
//     after: the kernel's reclaim at the limit costs the program CPU time,
//     so the CPU limit often ends such a run before the OOM killer does.
//   - TimeLimit: CPU time over the limit (the judge's kill, or SIGXCPU).
//   - OutputLimit: stdout past its cap, or a file past FileSize (SIGXFSZ).
//   - WallTimeLimit: killed at the wall-clock limit.
//   - Stalled: stopped by its caller (Probe.Stop), who found that it could
//     never go on (an interactive submission and its validator each waiting
//     for the other's input).
//   - Signaled, NonZeroExit, OK: how the program ended.
//
// Without a memory cgroup (levels none and namespaces) the memory is
// sampled from /proc every pollEvery: a peak shorter than that is missed,
// pages that processes share count once for each of them, the program may pass
// the limit by what it allocates between two samples, and an OOM kill by
// the kernel (the machine's memory exhausted) is only a SIGKILL (Signaled).
type Status uint8

const (
	StatusUnknown Status = iota
	OK                   // exited with status 0
	NonZeroExit          // exited with another status (ExitCode)
	Signaled             // killed by a signal (Signal) that no limit explains
	TimeLimit            // CPU time over the limit (or killed by SIGXCPU)
	WallTimeLimit        // killed at the wall-clock limit
	MemoryLimit          // peak memory over the limit, or killed by the OOM killer
	OutputLimit          // stdout passed its cap (or a file passed FileSize: SIGXFSZ)
	Stalled              // stopped by the caller (Probe.Stop): it could never go on
)

var statusNames = [...]string{
	StatusUnknown: "unknown",
	OK:            "ok",
	NonZeroExit:   "non-zero exit",
	Signaled:      "signaled",
	TimeLimit:     "time limit",
	WallTimeLimit: "wall time limit",
	MemoryLimit:   "memory limit",
	OutputLimit:   "output limit",
	Stalled:       "stalled",
}

func (s Status) String() string {
	if int(s) < len(statusNames) {
		return statusNames[s]
	}
	return fmt.Sprintf("Status(%d)", uint8(s))
}

// Result is what a run did. Status is the sandbox's decision for the limits
// it enforces, final for its callers: memory, then CPU time, then output,
// then wall time, then how the process ended (see Status). The fields below
// it are the facts it rests on, for reports.
type Result struct {
	Status          Status
	ExitCode        int            // when it exited
	Signal          syscall.Signal // when a signal killed it (SIGKILL for the judge's kills)
	CPU, Wall       time.Duration
	Memory          bytesize.Size // peak resident memory of the tree
	MemoryExact     bool          // false when sampled from /proc (no memory cgroup)
	Stdout          []byte        // up to Limits.Output
	Stderr          []byte        // up to Limits.Stderr
	StderrTruncated bool
	OOMKilled       bool // the kernel's OOM killer fired in the run's cgroup
	// MemoryReached: the run's memory cgroup recorded the tree at its
	// limit (an OOM kill; v2 memory.events max or oom, v1 under_oom):
	// the run is MemoryLimit whatever ended it. Always false without a
	// memory cgroup.
	MemoryReached  bool
	OutputExceeded bool   // stdout went past Limits.Output
	KilledBy       Status // the limit the judge killed the tree for, if any

	trace []string // "MICROSECONDS STEP" lines, with Options.trace
}

// Within is the status the run would have had under the CPU limit cpu
// and the wall-clock limit wall, below the ones it ran under (0: not
// lowered): TimeLimit when it used more CPU time, else WallTimeLimit when
// it took longer (it was still running when that limit would have ended
// it, and nothing it did later, memory, output or its end, is known to
// have come first), else its own.
func (r *Result) Within(cpu, wall time.Duration) Status {
	switch {
	case cpu > 0 && r.CPU > cpu:
		return TimeLimit
	case wall > 0 && r.Wall > wall:
		return WallTimeLimit
	}
	return r.Status
}

// Layer is one containment mechanism, for `judge doctor`.
type Layer struct {
	Name   string
	Active bool
	Why    string
}

// Options configure New. The zero value picks the strongest isolation the
// machine allows and the default places.
type Options struct {
	// Isolation forces a level ("none", "namespaces", "namespaces+cgroup");
	// New fails if the machine cannot provide it. Empty picks the best.
	Isolation string
	// CacheDir holds the compiled helper and the mountpoints of the boxes and
	// of the zygote's template. Empty means os.UserCacheDir()/optjudge.
	CacheDir string
	// Compiler compiles the helper; empty means "cc".
	Compiler string
	// CgroupName is the directory under each cgroup hierarchy that holds the
	// judge's groups ("<pid>-<n>" for each Sandbox, one group per run below
	// it). Empty means "optjudge".
	CgroupName string
	// FirstUID is the lowest uid (and gid) of a box when the judge is
	// root. A box takes the lowest uid from there that no other box has:
	// of any Sandbox of the process, and of any judge of the machine, by
	// the lock files in LockDir. Zero means 60000.
	FirstUID int
	// LockDir holds the lock file of every box uid in use. Empty means
	// DefaultLockDir, else (where that cannot be made) CacheDir/locks;
	// judges that lock in different directories may share uids.
	LockDir string
	// Hide lists files that no box may read although a directory it sees
	// holds them: each box whose read-only mounts cover one sees an empty
	// file there. The judge's own executable (os.Executable, links
	// resolved) is always hidden: installed in /usr/local/bin, say, every
	// box would see it, and it carries the embedded problems' tests and
	// answers. (At level none a program sees every file: Warning says so.)
	Hide []string

	// noCgroupV2 makes the tests use cgroup v1 alone on a hybrid machine.
	noCgroupV2 bool
	// trace makes the supervisors report the time of each step of a run
	// (for BenchmarkRunSteps).
	trace bool
}

// Sandbox runs programs at one isolation level, chosen once by New. It is safe
// for concurrent use.
type Sandbox struct {
	isolation string
	layers    []Layer
	warning   string
	sys       *system
	closed    atomic.Bool
}

// Isolation returns "none", "namespaces" or "namespaces+cgroup".
func (s *Sandbox) Isolation() string { return s.isolation }

// Layers lists the containment mechanisms and whether each is active.
func (s *Sandbox) Layers() []Layer { return append([]Layer(nil), s.layers...) }

// Warning is one line when containment is weak (limits only), else "".
func (s *Sandbox) Warning() string { return s.warning }

// New probes what the machine allows and returns a Sandbox at the strongest
// level that works (or at opts.Isolation).
func New(opts Options) (*Sandbox, error) { return newSystem(opts) }

// Run runs c and reports what it did. A contestant's failure is in the
// Result; an error means the sandbox itself failed (or ctx ended, in which
// case the tree has been killed and the error is ctx.Err()).
func (s *Sandbox) Run(ctx context.Context, c *Cmd) (*Result, error) {
	if s.closed.Load() {
		return nil, errors.New("sandbox: Run after Close")
	}
	return s.sys.run(ctx, c)
}

// Close removes what New created (the helper's processes, the judge's
// cgroups, the shared network namespace). Call it once every Run has
// returned.
func (s *Sandbox) Close() error {
	if s.closed.Swap(true) {
		return nil
	}
	return s.sys.close()
}

// Place puts the program file src at dst, in a working directory, the way
// this sandbox's boxes need it: a hard link where boxes run as uids of
// their own, which cannot write to the judge's file (so that a test cannot
// change the program for the next), else a copy with src's mode (the
// program may own it: it runs as the judge's user, or as root of a user
// namespace mapped to it). linked reports which; a linked file's change
// time moves with every other link of the same build.
func (s *Sandbox) Place(src, dst string) (linked bool, err error) {
	if s.sys.ownUIDs() && os.Link(src, dst) == nil {
		return true, nil
	}
	fi, err := os.Stat(src)
	if err != nil {
		return false, fmt.Errorf("sandbox: placing the program: %w", err)
	}
	if err := copyFile(src, dst, fi.Mode().Perm()); err != nil {
		return false, fmt.Errorf("sandbox: placing the program: %w", err)
	}
	return false, nil
}

// Reachable reports why a box's program could not reach the directory dir
// by its path, or nil. With namespaces a box binds what it needs, and at
// level none a judge that is not root runs the program as itself; but a
// root judge's box uid at level none passes only directories that every
// user may search (a program placed in its working directory still starts:
// it starts there).
func (s *Sandbox) Reachable(dir string) error { return s.sys.reachable(dir) }

// OwnUIDs reports whether every box runs as a uid of its own (the judge is
// root), which cannot write the judge's files nor read its private ones.
func (s *Sandbox) OwnUIDs() bool { return s.sys.ownUIDs() }

// SystemDirs are the host directories every box sees read-only (at level
// none, the program sees everything): a toolchain found in one of them
// needs nothing more.
func SystemDirs() []string {
	return []string{"/bin", "/lib", "/lib32", "/lib64", "/libx32", "/sbin", "/usr"}
}

func copyFile(src, dst string, mode os.FileMode) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
