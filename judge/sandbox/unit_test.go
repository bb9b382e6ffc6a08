//go:build linux

package sandbox

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
	"time"

	"github.com/optjudge/optjudge/bytesize"
)

func TestClassify(t *testing.T) {
	lim := Limits{CPU: time.Second, Memory: 64 * bytesize.MiB}
	tests := []struct {
		name string
		r    Result
		want Status
	}{
		{"ok", Result{}, OK},
		{"exit", Result{ExitCode: 3}, NonZeroExit},
		{"signal", Result{Signal: syscall.SIGSEGV}, Signaled},
		{"cpu over", Result{CPU: 1001 * time.Millisecond}, TimeLimit},
		{"cpu at the limit", Result{CPU: time.Second}, OK},
		{"sigxcpu", Result{Signal: syscall.SIGXCPU, CPU: 900 * time.Millisecond}, TimeLimit},
		{"killed for cpu", Result{Signal: syscall.SIGKILL, KilledBy: TimeLimit}, TimeLimit},
		{"memory over", Result{Memory: 64*bytesize.MiB + 1}, MemoryLimit},
		{"oom kill", Result{Signal: syscall.SIGKILL, OOMKilled: true}, MemoryLimit},
		{"oom beats cpu", Result{OOMKilled: true, CPU: 2 * time.Second}, MemoryLimit},
		{"memory reached beats the cpu kill", Result{Signal: syscall.SIGKILL, KilledBy: TimeLimit, MemoryReached: true, CPU: 1010 * time.Millisecond}, MemoryLimit},
		{"peak over beats the cpu kill", Result{Signal: syscall.SIGKILL, KilledBy: TimeLimit, Memory: 65 * bytesize.MiB, CPU: 1010 * time.Millisecond}, MemoryLimit},
		{"memory over beats sigxcpu", Result{Signal: syscall.SIGXCPU, Memory: 65 * bytesize.MiB}, MemoryLimit},
		{"cpu beats output", Result{OutputExceeded: true, CPU: 2 * time.Second}, TimeLimit},
		{"output", Result{Signal: syscall.SIGKILL, OutputExceeded: true, KilledBy: OutputLimit}, OutputLimit},
		{"sigxfsz", Result{Signal: syscall.SIGXFSZ}, OutputLimit},
		{"wall", Result{Signal: syscall.SIGKILL, KilledBy: WallTimeLimit}, WallTimeLimit},
		{"cpu beats wall", Result{Signal: syscall.SIGKILL, KilledBy: WallTimeLimit, CPU: 3 * time.Second}, TimeLimit},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := classify(&tt.r, lim); got != tt.want {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

// TestMemoryEvents reads the OOM kills and whether the limit was reached
// from memory.events (v2) and memory.oom_control (v1).
func TestMemoryEvents(t *testing.T) {
	tests := []struct {
		name, text      string
		v2              bool
		killed, reached bool
	}{
		{"v2 quiet", "low 0\nhigh 0\nmax 0\noom 0\noom_kill 0\noom_group_kill 0\n", true, false, false},
		{"v2 reclaimed at the limit", "low 0\nhigh 0\nmax 17\noom 0\noom_kill 0\n", true, false, true},
		{"v2 out of memory, no kill yet", "low 0\nhigh 0\nmax 3\noom 1\noom_kill 0\n", true, false, true},
		{"v2 oom kill", "low 0\nhigh 0\nmax 40\noom 1\noom_kill 1\n", true, true, true},
		{"v1 quiet", "oom_kill_disable 0\nunder_oom 0\noom_kill 0\n", false, false, false},
		{"v1 under oom", "oom_kill_disable 0\nunder_oom 1\noom_kill 0\n", false, false, true},
		{"v1 oom kill", "oom_kill_disable 0\nunder_oom 0\noom_kill 2\n", false, true, true},
		{"v1 without the kill count (before 4.13)", "oom_kill_disable 0\nunder_oom 0\n", false, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			killed, reached := memoryEvents(tt.text, tt.v2)
			if killed != tt.killed || reached != tt.reached {
				t.Errorf("got killed %v reached %v, want %v %v", killed, reached, tt.killed, tt.reached)
			}
		})
	}
}

// TestWithin: the status under a lower CPU limit is TimeLimit for a run
// that used more, whatever it did after; under a lower wall-clock limit,
// WallTimeLimit for one that took longer (the CPU limit first); its own
// otherwise.
func TestWithin(t *testing.T) {
	tests := []struct {
		r    Result
		cpu  time.Duration
		wall time.Duration
		want Status
	}{
		{Result{Status: OK, CPU: 400 * time.Millisecond}, 500 * time.Millisecond, 0, OK},
		{Result{Status: OK, CPU: 600 * time.Millisecond}, 500 * time.Millisecond, 0, TimeLimit},
		{Result{Status: NonZeroExit, CPU: 600 * time.Millisecond}, 500 * time.Millisecond, 0, TimeLimit},
		{Result{Status: MemoryLimit, CPU: 600 * time.Millisecond}, 500 * time.Millisecond, 0, TimeLimit},
		{Result{Status: MemoryLimit, CPU: 400 * time.Millisecond}, 500 * time.Millisecond, 0, MemoryLimit},
		{Result{Status: WallTimeLimit, CPU: 10 * time.Millisecond}, 500 * time.Millisecond, 0, WallTimeLimit},
		{Result{Status: OK, CPU: 600 * time.Millisecond}, 0, 0, OK},
		{Result{Status: OK, CPU: 10 * time.Millisecond, Wall: 4 * time.Second}, 500 * time.Millisecond, 2 * time.Second, WallTimeLimit},
		{Result{Status: NonZeroExit, CPU: 10 * time.Millisecond, Wall: 4 * time.Second}, 500 * time.Millisecond, 2 * time.Second, WallTimeLimit},
		{Result{Status: OK, CPU: 600 * time.Millisecond, Wall: 4 * time.Second}, 500 * time.Millisecond, 2 * time.Second, TimeLimit},
		{Result{Status: OK, CPU: 10 * time.Millisecond, Wall: time.Second}, 500 * time.Millisecond, 2 * time.Second, OK},
		{Result{Status: OK, CPU: 10 * time.Millisecond, Wall: 4 * time.Second}, 500 * time.Millisecond, 0, OK},
	}
	for _, tt := range tests {
		if got := tt.r.Within(tt.cpu, tt.wall); got != tt.want {
			t.Errorf("%v with CPU %v, wall %v within %v, %v: got %v, want %v", tt.r.Status, tt.r.CPU, tt.r.Wall, tt.cpu, tt.wall, got, tt.want)
		}
	}
}

func TestParseStatus(t *testing.T) {
	tests := []struct {
		in      string
		want    *report
		wantErr error
	}{
		{"", nil, nil},
		{"ok exit 3 1500 500 2048 7000 0 0 0 0 0", &report{code: 3, utime: 1500 * time.Microsecond, stime: 500 * time.Microsecond,
			maxRSS: 2 * bytesize.MiB, wall: 7 * time.Millisecond}, nil},
		{"ok signal 6 0 0 0 0 1 0 0 0 0", &report{signaled: true, code: 6}, nil},
		{"ok exit 0 0 0 0 0 0 1 20000 10000 5", &report{again: true, childUser: 20 * time.Millisecond,
			childSys: 10 * time.Millisecond, self: 5 * time.Microsecond}, nil},
		{"ok exit 0 0 0 0 0 0 1", nil, errors.New("bad")},
		{"err 2 exec /nope: No such file or directory", nil, fs.ErrNotExist},
		{"ok exit x 0 0 0 0 0 0 0 0 0", nil, errors.New("bad")},
		{"ok exit 0 0 0", nil, errors.New("bad")},
		{"garbage", nil, errors.New("bad")},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := parseStatus(tt.in)
			switch {
			case tt.wantErr == nil && err != nil:
				t.Fatalf("got error %v, want none", err)
			case tt.wantErr != nil && err == nil:
				t.Fatalf("got no error, want one")
			case tt.wantErr == fs.ErrNotExist && !errors.Is(err, fs.ErrNotExist):
				t.Fatalf("got error %v, want one that is fs.ErrNotExist", err)
			}
			if (got == nil) != (tt.want == nil) || (got != nil && *got != *tt.want) {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

// TestRunStatus feeds the report pipe lines in the orders the zygote and
// the supervisor may write them.
func TestRunStatus(t *testing.T) {
	tests := []struct {
		name, in string
		pid      int
		report   string
		exit     *supervisorExit
	}{
		{"in order", "p 42 7\nok exit 0 1 2 3 4 0\nx 0 10 20\n", 42, "ok exit 0 1 2 3 4 0", &supervisorExit{0, 30 * time.Microsecond}},
		{"report first", "t 5 root\nok exit 0 1 2 3 4 0\np 42 7\nx 0 1 2\n", 42, "ok exit 0 1 2 3 4 0", &supervisorExit{0, 3 * time.Microsecond}},
		{"killed", "p 42 7\nx 9 1 2\n", 42, "", &supervisorExit{9, 3 * time.Microsecond}},
		{"clone failed", "err 12 clone: Cannot allocate memory\n", 0, "err 12 clone: Cannot allocate memory", nil},
		{"torn", "p 42 7\nok exit", 42, "ok exit", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, w, err := pipe()
			if err != nil {
				t.Fatal(err)
			}
			st := newRunStatus(r)
			defer st.close()
			w.WriteString(tt.in)
			w.Close()
			st.waitEnd()
			if !st.done() {
				t.Errorf("not done at the end of the pipe")
			}
			if st.pid != tt.pid || st.report != tt.report {
				t.Errorf("got pid %d report %q, want %d %q", st.pid, st.report, tt.pid, tt.report)
			}
			if (st.exit == nil) != (tt.exit == nil) || (st.exit != nil && *st.exit != *tt.exit) {
				t.Errorf("got exit %+v, want %+v", st.exit, tt.exit)
			}
		})
	}
}

func TestMountPlan(t *testing.T) {
	dir := t.TempDir()
	ro := filepath.Join(dir, "ro")
	box := filepath.Join(dir, "box")
	for _, d := range []string{ro, box} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink(ro, link); err != nil {
		t.Fatal(err)
	}
	usr, bin, tmp := mountOp{'b', "/usr", "/usr"}, mountOp{'l', "usr/bin", "/bin"}, mountOp{'T', "1", "/tmp"}
	s := &system{sysMount: []mountOp{usr, bin, tmp}}
	w := mountOp{'w', box, box}
	tests := []struct {
		name string
		cmd  Cmd
		path string
		want []mountOp // in any order: the plan must be them, sorted by destination
	}{
		{"program in /usr", Cmd{Dir: box}, "/usr/bin/python3", []mountOp{usr, bin, tmp, w}},
		{"program elsewhere", Cmd{Dir: box}, "/opt/x/prog", []mountOp{usr, bin, tmp, w, {'b', "/opt/x/prog", "/opt/x/prog"}}},
		{"program in the box", Cmd{Dir: box}, box + "/a.out", []mountOp{usr, bin, tmp, w}},
		{"read-only through a link", Cmd{Dir: box, ReadOnly: []string{link}}, "/usr/bin/true", []mountOp{usr, bin, tmp, w, {'b', ro, ro}}},
		{"read-only and box alike", Cmd{Dir: box, ReadOnly: []string{box}}, "/usr/bin/true", []mountOp{usr, bin, tmp, w}},
	}
	etc := mountOp{'S', "/template/etc", "/etc"}
	var minimal []mountOp
	for _, p := range minimalEtc {
		if _, err := os.Stat(p); err == nil {
			minimal = append(minimal, mountOp{'b', p, p})
		}
	}
	withEtc := &system{sysMount: []mountOp{usr, bin, etc, tmp}}
	for _, tt := range []struct {
		name string
		cmd  Cmd
		want []mountOp
	}{
		{"etc", Cmd{Dir: box}, []mountOp{usr, bin, etc, tmp, w}},
		{"minimal etc", Cmd{Dir: box, MinimalEtc: true}, append([]mountOp{usr, bin, tmp, w}, minimal...)},
	} {
		got, err := withEtc.mountPlan(&tt.cmd, "/usr/bin/true")
		if err != nil {
			t.Fatal(err)
		}
		if want := sortedStable(slices.Clone(tt.want)); !slices.Equal(got, want) {
			t.Errorf("%s: got %v, want %v", tt.name, got, want)
		}
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := s.mountPlan(&tt.cmd, tt.path)
			if err != nil {
				t.Fatal(err)
			}
			want := sortedStable(slices.Clone(tt.want))
			if !slices.Equal(got, want) {
				t.Errorf("got %v, want %v", got, want)
			}
		})
	}
}

func TestBuildEnv(t *testing.T) {
	got := buildEnv(&Cmd{Dir: "/box", Env: []string{"LANG=C", "PYTHONHASHSEED=0"}})
	want := []string{"PATH=" + boxPATH, "HOME=/box", "LANG=C", "PYTHONHASHSEED=0"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestLimitsDefaults(t *testing.T) {
	got := Limits{CPU: 2 * time.Second, Output: bytesize.MiB}.withDefaults()
	want := Limits{CPU: 2 * time.Second, Wall: 5 * time.Second, Output: bytesize.MiB, Stderr: DefaultStderr,
		Processes: DefaultProcesses, FileSize: bytesize.MiB, OpenFiles: DefaultOpenFiles}
	if got != want {
		t.Errorf("got %+v, want %+v", got, want)
	}
	for _, tt := range []struct {
		cpu        time.Duration
		soft, hard uint64
	}{{time.Second, 2, 3}, {1500 * time.Millisecond, 3, 4}, {time.Millisecond, 2, 3}} {
		if soft, hard := cpuRlimit(tt.cpu); soft != tt.soft || hard != tt.hard {
			t.Errorf("cpuRlimit(%v): got %d, %d, want %d, %d", tt.cpu, soft, hard, tt.soft, tt.hard)
		}
	}
}

func TestStatusString(t *testing.T) {
	for s, want := range map[Status]string{StatusUnknown: "unknown", OK: "ok", MemoryLimit: "memory limit", Status(99): "Status(99)"} {
		if got := s.String(); got != want {
			t.Errorf("got %q, want %q", got, want)
		}
	}
}
