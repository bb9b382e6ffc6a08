package sandbox

import (
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/optjudge/optjudge/bytesize"
)

// procMeter measures a run without a cgroup, from /proc: the tree's CPU time
// (exact to a clock tick) and its resident memory (sampled, so approximate:
// a short peak between two samples is missed, pages shared between processes
// are counted twice). The supervisor's own ru_maxrss report complements it.
// It knows nothing until bound to the supervisor.
type procMeter struct {
	pid   int
	start int64 // the supervisor's start time, to notice its pid being reused
	base  int64 // the supervisor's reaped children's ticks before this run
	peak  bytesize.Size
}

// bind sets the supervisor's pid and its start time, which the zygote read
// before it could reap it.
func (m *procMeter) bind(pid int, start int64) {
	m.pid, m.start = pid, start
}

// procStat is what procMeter reads from /proc/<pid>/stat.
type procStat struct {
	ticks  int64 // utime + stime + cutime + cstime
	cticks int64 // cutime + cstime: the reaped children
	rss    int64 // pages
	start  int64
}

func readProcStat(pid int) (procStat, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return procStat{}, false
	}
	// the command name may contain anything: fields start after the last ')'
	i := strings.LastIndexByte(string(b), ')')
	if i < 0 {
		return procStat{}, false
	}
	f := strings.Fields(string(b[i+1:]))
	// f[0] is field 3 (state): utime is field 14, rss 24, starttime 22
	if len(f) < 22 {
		return procStat{}, false
	}
	n := func(field int) int64 { v, _ := strconv.ParseInt(f[field-3], 10, 64); return v }
	return procStat{
		ticks:  n(14) + n(15) + n(16) + n(17),
		cticks: n(16) + n(17),
		rss:    n(24),
		start:  n(22),
	}, true
}

// children lists the children of every thread of pid.
func children(pid int) []int {
	base := "/proc/" + strconv.Itoa(pid) + "/task/"
	tasks, _ := os.ReadDir(base)
	var out []int
	for _, t := range tasks {
		b, _ := os.ReadFile(base + t.Name() + "/children")
		for _, f := range strings.Fields(string(b)) {
			if c, err := strconv.Atoi(f); err == nil {
				out = append(out, c)
			}
		}
	}
	return out
}

// walk calls fn for every descendant of the supervisor, or returns false
// when it is unknown or gone (its pid may then belong to someone else).
func (m *procMeter) walk(fn func(pid int, st procStat)) (helper procStat, ok bool) {
	if m.pid <= 0 || m.start < 0 {
		return procStat{}, false
	}
	helper, ok = readProcStat(m.pid)
	if !ok || helper.start != m.start {
		return helper, false
	}
	queue := children(m.pid)
	for len(queue) > 0 {
		pid := queue[0]
		queue = queue[1:]
		if st, ok := readProcStat(pid); ok {
			fn(pid, st)
			queue = append(queue, children(pid)...)
		}
	}
	return helper, true
}

func (m *procMeter) poll() (time.Duration, bytesize.Size) {
	var ticks, pages int64
	helper, ok := m.walk(func(_ int, st procStat) {
		ticks += st.ticks
		pages += st.rss
	})
	if !ok {
		return 0, 0
	}
	ticks += helper.cticks - m.base
	mem := bytesize.Size(pages) * bytesize.Size(os.Getpagesize())
	m.peak = max(m.peak, mem)
	return time.Duration(ticks) * clockTick, mem
}

// killAll SIGKILLs the descendants of a live supervisor. Normally the
// supervisor kills its tree itself; this is for one that stopped answering.
func (m *procMeter) killAll() {
	m.walk(func(pid int, _ procStat) { syscall.Kill(pid, syscall.SIGKILL) })
}

func (m *procMeter) finish(bool) (usage, error) {
	return usage{peak: m.peak}, nil
}
