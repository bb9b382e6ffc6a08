package sandbox

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// waiting is Probe.Waiting for a run in flight: the program's tree from
// its cgroup (cgroup.procs) or, without one, from its supervisor's
// descendants, each thread from /proc/PID/task, then what the sandbox has
// of the program's output on its way to Cmd.StdoutPipe.
func (e *execution) waiting() (Waiting, bool) {
	pids, ok := e.procs()
	if !ok {
		return Waiting{}, false
	}
	var w Waiting
	for _, pid := range pids {
		if !processWaits(pid, &w) {
			return Waiting{}, false
		}
	}
	if len(w.Threads) == 0 {
		return Waiting{}, false // nothing but zombies: the run is ending
	}
	slices.Sort(w.Threads)
	slices.Sort(w.Pipes)
	w.Pipes = slices.Compact(w.Pipes)
	if c := e.stdout; c.sink != nil {
		// upstream first: what leaves the pipe is counted in reading
		// before, and in held after, and held drops only once it is in
		// the sink's pipe
		n, err := unix.IoctlGetInt(c.fd, unix.TIOCINQ) // FIONREAD
		if err != nil || c.reading.Load() {
			return Waiting{}, false
		}
		w.Held = int64(n) + c.held.Load()
	}
	return w, true
}

// procs lists the processes of the program's tree, its supervisor aside.
func (e *execution) procs() ([]int, bool) {
	switch m := e.meter.(type) {
	case *runGroup:
		return m.programs()
	case *procMeter:
		return m.programs()
	}
	return nil, false
}

// programs lists the processes in the run's group but its supervisor.
func (g *runGroup) programs() ([]int, bool) {
	sup := g.tree.pid
	if sup <= 0 || len(g.dirs) == 0 {
		return nil, false
	}
	b, err := os.ReadFile(filepath.Join(g.dirs[0], "cgroup.procs"))
	if err != nil {
		return nil, false
	}
	var pids []int
	for _, f := range strings.Fields(string(b)) {
		if pid, err := strconv.Atoi(f); err == nil && pid != sup {
			pids = append(pids, pid)
		}
	}
	return pids, true
}

// programs lists the supervisor's descendants.
func (m *procMeter) programs() ([]int, bool) {
	var pids []int
	_, ok := m.walk(func(pid int, _ procStat) { pids = append(pids, pid) })
	return pids, ok
}

// processWaits adds the threads of process pid to w, if every one of
// them (a zombie aside) is asleep reading a pipe, and the process has no
// POSIX timer (/proc/PID/timers, where the kernel has it) to wake it.
func processWaits(pid int, w *Waiting) bool {
	dir := "/proc/" + strconv.Itoa(pid)
	if t, err := os.ReadFile(dir + "/timers"); err == nil && len(t) > 0 {
		return false
	}
	tasks, err := os.ReadDir(dir + "/task")
	if err != nil {
		return false // gone since it was listed: not still
	}
	for _, t := range tasks {
		tid, err := strconv.Atoi(t.Name())
		if err != nil {
			continue
		}
		td := dir + "/task/" + t.Name()
		wchan, err := os.ReadFile(td + "/wchan")
		if err != nil {
			return false
		}
		if s := string(wchan); s != "pipe_read" && s != "anon_pipe_read" {
			if exited(td) {
				continue
			}
			return false
		}
		pipe, ok := readingPipe(td)
		if !ok {
			return false
		}
		runs, ok := taskRuns(td)
		if !ok {
			return false
		}
		w.Threads = append(w.Threads, tid)
		w.Pipes = append(w.Pipes, pipe)
		w.Runs += runs
	}
	return true
}

// exited says whether the task has exited (Z, X).
func exited(td string) bool {
	s := taskState(td)
	return s == 'Z' || s == 'X'
}

// taskState is the task's state letter (/proc/PID/task/TID/stat: R, S, D,
// T, t, Z, X, ...); 0 if it cannot be read.
func taskState(td string) byte {
	b, err := os.ReadFile(td + "/stat")
	if err != nil {
		return 0
	}
	i := strings.LastIndexByte(string(b), ')')
	if i < 0 || i+2 >= len(b) {
		return 0
	}
	return b[i+2]
}

// asleep says whether every thread of the program's tree (zombies aside)
// sleeps (S) or is stopped (T, t): none runs or waits for a CPU (R), nor
// for the disk (D). A program that a busy machine gives no CPU for a while
// is runnable, not asleep (Limits.SleepWall).
func (e *execution) asleep() bool {
	pids, ok := e.procs()
	if !ok {
		return false
	}
	n := 0
	for _, pid := range pids {
		dir := "/proc/" + strconv.Itoa(pid) + "/task/"
		tasks, err := os.ReadDir(dir)
		if err != nil {
			return false
		}
		for _, t := range tasks {
			switch taskState(dir + t.Name()) {
			case 'S', 'T', 't':
				n++
			case 'Z', 'X':
			default:
				return false
			}
		}
	}
	return n > 0
}

// readingPipe returns the inode of the pipe the task is in read(2) or
// readv(2) of (/proc/PID/task/TID/syscall: the call's number, then its
// arguments, the descriptor first).
func readingPipe(td string) (uint64, bool) {
	b, err := os.ReadFile(td + "/syscall")
	if err != nil {
		return 0, false
	}
	f := strings.Fields(string(b))
	if len(f) < 2 {
		return 0, false // "running"
	}
	nr, err := strconv.Atoi(f[0])
	if err != nil || (nr != unix.SYS_READ && nr != unix.SYS_READV) {
		return 0, false
	}
	fd, err := strconv.ParseUint(strings.TrimPrefix(f[1], "0x"), 16, 31)
	if err != nil {
		return 0, false
	}
	link, err := os.Readlink(td + "/fd/" + strconv.FormatUint(fd, 10))
	if err != nil || !strings.HasPrefix(link, "pipe:[") || !strings.HasSuffix(link, "]") {
		return 0, false
	}
	ino, err := strconv.ParseUint(link[len("pipe:["):len(link)-1], 10, 64)
	return ino, err == nil
}

// taskRuns counts the times the task was given a CPU: schedstat's third
// field, else its context switches (/proc/PID/task/TID/status).
func taskRuns(td string) (uint64, bool) {
	if b, err := os.ReadFile(td + "/schedstat"); err == nil {
		if f := strings.Fields(string(b)); len(f) == 3 {
			if n, err := strconv.ParseUint(f[2], 10, 64); err == nil {
				return n, true
			}
		}
	}
	b, err := os.ReadFile(td + "/status")
	if err != nil {
		return 0, false
	}
	var runs uint64
	seen := 0
	for _, line := range strings.Split(string(b), "\n") {
		k, v, ok := strings.Cut(line, ":")
		if ok && (k == "voluntary_ctxt_switches" || k == "nonvoluntary_ctxt_switches") {
			n, err := strconv.ParseUint(strings.TrimSpace(v), 10, 64)
			if err != nil {
				return 0, false
			}
			runs += n
			seen++
		}
	}
	return runs, seen == 2
}
