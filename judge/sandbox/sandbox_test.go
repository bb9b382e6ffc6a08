//go:build linux

package sandbox

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/optjudge/optjudge/bytesize"
	"github.com/optjudge/optjudge/judge/internal/busy"
)

func TestExit(t *testing.T) {
	tests := []struct {
		name   string
		args   []string
		status Status
		code   int
		signal syscall.Signal
	}{
		{"ojexit", nil, OK, 0, 0},
		{"ojexit", []string{"3"}, NonZeroExit, 3, 0},
		{"ojabort", nil, Signaled, 0, syscall.SIGABRT},
		{"ojsegv", nil, Signaled, 0, syscall.SIGSEGV},
	}
	for _, level := range levels {
		for _, tt := range tests {
			t.Run(level+"/"+tt.name+strings.Join(tt.args, ""), func(t *testing.T) {
				res := run(t, level, &Cmd{Path: program(t, tt.name), Args: tt.args, Limits: Limits{CPU: 5 * time.Second}})
				if res.Status != tt.status || res.ExitCode != tt.code || res.Signal != tt.signal {
					t.Errorf("got %v exit %d signal %v, want %v exit %d signal %v",
						res.Status, res.ExitCode, res.Signal, tt.status, tt.code, tt.signal)
				}
			})
		}
	}
}

func TestTimeLimits(t *testing.T) {
	for _, level := range levels {
		t.Run(level, func(t *testing.T) {
			res := run(t, level, &Cmd{Path: program(t, "ojspin"), Limits: Limits{CPU: 300 * time.Millisecond, Wall: time.Minute}})
			if res.Status != TimeLimit || res.CPU <= 300*time.Millisecond {
				t.Errorf("spin: got %v with CPU %v, want %v with CPU over 300ms", res.Status, res.CPU, TimeLimit)
			}
			res = run(t, level, &Cmd{Path: program(t, "ojsleep"), Limits: Limits{CPU: 5 * time.Second, Wall: 300 * time.Millisecond}})
			if res.Status != WallTimeLimit || res.KilledBy != WallTimeLimit {
				t.Errorf("sleep: got %v (killed by %v), want %v", res.Status, res.KilledBy, WallTimeLimit)
			}
			noneLeft(t, "ojspin")
			noneLeft(t, "ojsleep")
		})
	}
}

// TestSleepWall: past Limits.SleepWall a run that sleeps ends, long before
// its wall limit; one that computes runs on to its CPU limit, even on a
// machine so busy that it goes without CPU for longer than SleepFor
// (under-load -n 6 here: 3 of 9 runs were taken for asleep before the
// threads' states were read).
func TestSleepWall(t *testing.T) {
	for _, level := range levels {
		t.Run(level, func(t *testing.T) {
			lim := Limits{CPU: 5 * time.Second, Wall: time.Minute, SleepWall: 300 * time.Millisecond}
			res := run(t, level, &Cmd{Path: program(t, "ojsleep"), Limits: lim})
			if res.Status != WallTimeLimit || res.Wall >= lim.Wall {
				t.Errorf("sleep: got %v after %v, want %v before %v", res.Status, res.Wall, WallTimeLimit, lim.Wall)
			}
			if testing.Short() && level != levels[len(levels)-1] {
				// -short: the spinner at the last level only (it spends
				// its 1.5 s of CPU at each)
				noneLeft(t, "ojsleep")
				return
			}
			lim.CPU = 1500 * time.Millisecond
			res = run(t, level, &Cmd{Path: program(t, "ojspin"), Limits: lim})
			if res.Status != TimeLimit || res.CPU <= lim.CPU {
				t.Errorf("spin: got %v with CPU %v, want %v with CPU over %v", res.Status, res.CPU, TimeLimit, lim.CPU)
			}
			noneLeft(t, "ojspin")
			noneLeft(t, "ojsleep")
		})
	}
}

func TestMemoryLimit(t *testing.T) {
	for _, level := range levels {
		for _, mib := range []int{512, 2048} {
			t.Run(fmt.Sprintf("%s/%dMiB", level, mib), func(t *testing.T) {
				res := run(t, level, &Cmd{
					Path: program(t, "ojtouch"), Args: []string{strconv.Itoa(mib)},
					Limits: Limits{CPU: 10 * time.Second, Memory: 256 * bytesize.MiB},
				})
				if res.Status != MemoryLimit {
					t.Errorf("got %v (signal %v, memory %v), want %v", res.Status, res.Signal, res.Memory, MemoryLimit)
				}
				if res.MemoryExact && !res.OOMKilled {
					t.Errorf("got OOMKilled false with a memory cgroup, want true")
				}
			})
		}
	}
}

// TestMemoryReachedThenCPULimit: a run that reached its memory limit is
// MemoryLimit even when the CPU limit ended it, as happens on a busy
// machine, where the kernel's reclaim at the limit costs the program CPU
// time and the CPU limit fires before the OOM kill. The program's child
// reaches the limit and the parent then spins until the CPU limit kills
// it; busy loops run beside it all along.
func TestMemoryReachedThenCPULimit(t *testing.T) {
	stop := busy.Loops(runtime.NumCPU())
	defer stop()
	for _, level := range levels {
		t.Run(level, func(t *testing.T) {
			res := run(t, level, &Cmd{
				Path: program(t, "ojoomspin"), Args: []string{"256"},
				Limits: Limits{CPU: time.Second, Wall: time.Minute, Memory: 64 * bytesize.MiB},
			})
			if res.Status != MemoryLimit {
				t.Errorf("got %v (killed by %v, CPU %v, memory %v, OOM kill %v), want %v",
					res.Status, res.KilledBy, res.CPU, res.Memory, res.OOMKilled, MemoryLimit)
			}
			// with a memory cgroup the OOM killer ends the child, and the
			// CPU limit the parent
			if level == IsolationCgroup && (!res.OOMKilled || !res.MemoryReached || res.KilledBy != TimeLimit) {
				t.Errorf("got OOM kill %v, memory reached %v, killed by %v; want an OOM kill, then the CPU limit's",
					res.OOMKilled, res.MemoryReached, res.KilledBy)
			}
			noneLeft(t, "ojoomspin")
		})
	}
}

func TestMeasurement(t *testing.T) {
	for _, level := range levels {
		t.Run(level, func(t *testing.T) {
			res := run(t, level, &Cmd{Path: program(t, "ojspin"), Args: []string{"200"}, Limits: Limits{CPU: 5 * time.Second}})
			self, err := strconv.Atoi(strings.TrimSpace(string(res.Stdout)))
			if res.Status != OK || err != nil {
				t.Fatalf("spin: got %v, output %q", res.Status, res.Stdout)
			}
			// the program's own clock against the sandbox's: equal but for
			// the exec and the exit
			own := time.Duration(self) * time.Millisecond
			if res.CPU < own || res.CPU > own+30*time.Millisecond {
				t.Errorf("CPU: got %v, the program measured %v", res.CPU, own)
			}
			res = run(t, level, &Cmd{Path: program(t, "ojtouch"), Args: []string{"100"}, Limits: Limits{CPU: 5 * time.Second, Memory: 256 * bytesize.MiB}})
			if res.Status != OK || res.Memory < 100*bytesize.MiB || res.Memory > 108*bytesize.MiB {
				t.Errorf("memory: got %v peak %v (exact %v), want ok and about 100MiB", res.Status, res.Memory, res.MemoryExact)
			}
			if want := level == IsolationCgroup; res.MemoryExact != want {
				t.Errorf("MemoryExact: got %v, want %v", res.MemoryExact, want)
			}
		})
	}
}

// TestMemoryNotJudge checks that a small program is not charged with the
// judge's own memory (ru_maxrss of a child of a big Go process is the
// parent's).
func TestMemoryNotJudge(t *testing.T) {
	ballast := make([]byte, 300<<20)
	for i := range len(ballast) / 4096 {
		ballast[i*4096] = 1
	}
	for _, level := range levels {
		t.Run(level, func(t *testing.T) {
			res := run(t, level, &Cmd{Path: program(t, "ojtrue"), Limits: Limits{CPU: 5 * time.Second}})
			if res.Status != OK || res.Memory > 16*bytesize.MiB {
				t.Errorf("got %v with peak %v, want ok under 16MiB", res.Status, res.Memory)
			}
		})
	}
	runtime.KeepAlive(ballast)
}

// The tests below check for leftover processes by name, so they run their
// levels one after another.

func TestForkBomb(t *testing.T) {
	for _, level := range levels {
		t.Run(level, func(t *testing.T) {
			res := run(t, level, &Cmd{Path: program(t, "ojbomb"), Limits: Limits{CPU: 5 * time.Second, Wall: time.Second, Processes: 32}})
			if res.Status != WallTimeLimit {
				t.Errorf("got %v, want %v", res.Status, WallTimeLimit)
			}
			noneLeft(t, "ojbomb")
		})
	}
}

// TestProcessLimit checks that Limits.Processes holds in the boxes (it is
// not enforced at the limits-only level).
func TestProcessLimit(t *testing.T) {
	for _, level := range contained() {
		t.Run(level, func(t *testing.T) {
			res := run(t, level, &Cmd{Path: program(t, "ojforks"), Limits: Limits{CPU: 5 * time.Second, Processes: 10}})
			n, err := strconv.Atoi(strings.TrimSpace(string(res.Stdout)))
			if res.Status != OK || err != nil || n >= 10 {
				t.Errorf("got %v with %q forks, want ok with fewer than 10", res.Status, res.Stdout)
			}
			noneLeft(t, "ojforks")
		})
	}
}

func TestSetsidGrandchild(t *testing.T) {
	flags := map[string]string{}
	for _, level := range levels {
		t.Run(level, func(t *testing.T) {
			dir := t.TempDir()
			flag := filepath.Join(dir, "escaped")
			res := run(t, level, &Cmd{Path: program(t, "ojsetsid"), Args: []string{flag}, Dir: dir, Limits: Limits{CPU: 5 * time.Second}})
			if res.Status != OK {
				t.Errorf("got %v, want %v", res.Status, OK)
			}
			noneLeft(t, "ojsetsid")
			flags[level] = flag
		})
	}
	// noneLeft saw no ojsetsid left, the grandchild included, so nothing
	// can write the flag now: one there was written before the kill
	for level, flag := range flags {
		if _, err := os.Stat(flag); err == nil {
			t.Errorf("%s: the grandchild survived: %s exists", level, flag)
		}
	}
}

func TestNoPeeking(t *testing.T) {
	judgeDir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for _, level := range contained() {
		t.Run(level, func(t *testing.T) {
			problem := t.TempDir()
			testdata := filepath.Join(problem, "testdata")
			dir := filepath.Join(problem, "box")
			for _, d := range []string{testdata, dir} {
				if err := os.Mkdir(d, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			ans := filepath.Join(testdata, "1.ans")
			if err := os.WriteFile(ans, []byte("42\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			args := []string{
				"r:../testdata/1.ans", "r:" + ans, "d:" + testdata, "d:..", "d:" + problem,
				"r:/proc/PPID/cwd/" + ans, "d:/proc/PPID/cwd", "d:/proc/PPID/root", "r:/proc/PPID/environ",
				"d:/proc/1/cwd", "r:/proc/PPID/cwd/../../../../../.." + ans,
				"d:" + judgeDir, "r:" + filepath.Join(judgeDir, "sandbox.go"), "d:/root", "d:/work", "d:/home",
			}
			res := run(t, level, &Cmd{Path: program(t, "ojpeek"), Args: args, Dir: dir, Limits: Limits{CPU: 5 * time.Second}})
			lines := strings.Split(strings.TrimSpace(string(res.Stdout)), "\n")
			if res.Status != OK || len(lines) != len(args) {
				t.Fatalf("got %v, output %q", res.Status, res.Stdout)
			}
			// the box's view of the problem directory holds the working
			// directory's mountpoint and nothing else
			for _, line := range lines {
				names := strings.Fields(line)[2:]
				if strings.HasPrefix(line, "LEAK") || slices.ContainsFunc(names, func(n string) bool {
					return n != "." && n != ".." && n != "box"
				}) {
					t.Errorf("the program could see: %s", line)
				}
			}
		})
	}
}

func TestWriteOutside(t *testing.T) {
	for _, level := range contained() {
		t.Run(level, func(t *testing.T) {
			problem := t.TempDir()
			dir := filepath.Join(problem, "box")
			if err := os.Mkdir(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			outside := []string{"w:../x", "w:" + filepath.Join(problem, "x"), "w:/x", "w:/etc/x", "w:/usr/x", "w:/dev/x", "w:/proc/x"}
			hostTmp := filepath.Join("/tmp", "optjudge-escape-"+strconv.Itoa(os.Getpid()))
			args := append(outside, "w:inside", "w:"+hostTmp)
			res := run(t, level, &Cmd{Path: program(t, "ojpeek"), Args: args, Dir: dir, Limits: Limits{CPU: 5 * time.Second}})
			want := ""
			for _, a := range outside {
				want += "ok " + a + "\n"
			}
			// the working directory is writable, and so is the box's own /tmp
			want += "LEAK w:inside\nLEAK w:" + hostTmp + "\n"
			if string(res.Stdout) != want {
				t.Errorf("got\n%s\nwant\n%s", res.Stdout, want)
			}
			if _, err := os.Stat(hostTmp); err == nil {
				os.Remove(hostTmp)
				t.Errorf("the box's /tmp is the host's: %s was created", hostTmp)
			}
			if _, err := os.Stat(filepath.Join(dir, "inside")); err != nil {
				t.Errorf("the working directory was not written: %v", err)
			}
			for _, p := range []string{filepath.Join(problem, "x"), "/x", "/etc/x", "/usr/x"} {
				if _, err := os.Stat(p); err == nil {
					t.Errorf("the program wrote %s on the host", p)
				}
			}
		})
	}
}

func TestNoNetwork(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	port := strconv.Itoa(l.Addr().(*net.TCPAddr).Port)
	for _, level := range levels {
		t.Run(level, func(t *testing.T) {
			want := "refused\n"
			if level == IsolationNone {
				want = "connected\n" // the listener works: the test can fail
			}
			res := run(t, level, &Cmd{Path: program(t, "ojconnect"), Args: []string{port}, Limits: Limits{CPU: 5 * time.Second}})
			if string(res.Stdout) != want {
				t.Errorf("got %q, want %q", res.Stdout, want)
			}
		})
	}
}

// TestAbstractSocket checks that two boxes running at once cannot talk over
// an abstract unix socket (which lives in the network namespace).
func TestAbstractSocket(t *testing.T) {
	name := "optjudge-test-" + strconv.Itoa(os.Getpid())
	for _, level := range levels {
		t.Run(level, func(t *testing.T) {
			prog := program(t, "ojabstract")
			sb := useBox(t, level)
			listener := make(chan *Result, 1)
			go func() {
				res, err := sb.Run(context.Background(), &Cmd{Path: prog, Args: []string{"listen", name}, Dir: t.TempDir(), Limits: Limits{CPU: 5 * time.Second}})
				if err != nil {
					t.Error(err)
				}
				listener <- res
			}()
			res := run(t, level, &Cmd{Path: prog, Args: []string{"connect", name}, Limits: Limits{CPU: 5 * time.Second}})
			want := "refused\n"
			if level == IsolationNone {
				want = "connected\n" // the listener listens: the test can fail
			}
			if string(res.Stdout) != want {
				t.Errorf("got %q, want %q", res.Stdout, want)
			}
			<-listener
		})
	}
}

func TestOutput(t *testing.T) {
	for _, level := range levels {
		t.Run(level, func(t *testing.T) {
			res := run(t, level, &Cmd{Path: program(t, "ojflood"), Args: []string{"1", "1024"},
				Limits: Limits{CPU: 10 * time.Second, Output: bytesize.MiB}})
			if res.Status != OutputLimit || len(res.Stdout) != int(bytesize.MiB) || !res.OutputExceeded {
				t.Errorf("stdout flood: got %v with %d bytes kept, want %v with %d", res.Status, len(res.Stdout), OutputLimit, bytesize.MiB)
			}
			res = run(t, level, &Cmd{Path: program(t, "ojflood"), Args: []string{"2", "64"}, Limits: Limits{CPU: 10 * time.Second}})
			if res.Status != OK || string(res.Stdout) != "done\n" || len(res.Stderr) != int(DefaultStderr) || !res.StderrTruncated {
				t.Errorf("stderr flood: got %v, stdout %q, %d bytes of stderr (truncated %v), want ok, done, %d truncated",
					res.Status, res.Stdout, len(res.Stderr), res.StderrTruncated, DefaultStderr)
			}
			res = run(t, level, &Cmd{Path: program(t, "ojbigfile"), Args: []string{"8"}, Limits: Limits{CPU: 10 * time.Second, FileSize: bytesize.MiB}})
			if res.Status != OutputLimit || res.Signal != syscall.SIGXFSZ {
				t.Errorf("big file: got %v signal %v, want %v by SIGXFSZ", res.Status, res.Signal, OutputLimit)
			}
		})
	}
}

func TestEnvironment(t *testing.T) {
	for _, level := range levels {
		t.Run(level, func(t *testing.T) {
			dir := t.TempDir()
			extra, err := os.Open(os.DevNull) // an open descriptor the judge holds
			if err != nil {
				t.Fatal(err)
			}
			defer extra.Close()
			res := run(t, level, &Cmd{
				Path: program(t, "ojenv"), Dir: dir, Env: []string{"LANG=C", "X=1"}, Stdin: []byte("12345"),
				Limits: Limits{CPU: 1500 * time.Millisecond, Memory: 64 * bytesize.MiB, OpenFiles: 20, FileSize: 5000},
			})
			want := fmt.Sprintf("env PATH=%s\nenv HOME=%s\nenv LANG=C\nenv X=1\n"+
				"cpu 3\nfsize 5000\nnofile 20\ncore 0\nstack %d\nstdin 5\n", boxPATH, dir, 64<<20)
			if string(res.Stdout) != want {
				t.Errorf("got\n%s\nwant\n%s", res.Stdout, want)
			}
		})
	}
}

func TestDeepRecursion(t *testing.T) {
	for _, level := range levels {
		t.Run(level, func(t *testing.T) {
			res := run(t, level, &Cmd{Path: program(t, "ojrecurse"), Args: []string{"100"},
				Limits: Limits{CPU: 5 * time.Second, Memory: 256 * bytesize.MiB}})
			if res.Status != OK {
				t.Errorf("100MiB of stack under a 256MiB limit: got %v (signal %v)", res.Status, res.Signal)
			}
		})
	}
}

func TestStdinFile(t *testing.T) {
	in := filepath.Join(t.TempDir(), "1.in")
	if err := os.WriteFile(in, []byte("1 2 3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, level := range levels {
		t.Run(level, func(t *testing.T) {
			res := run(t, level, &Cmd{Path: "cat", StdinFile: in, Limits: Limits{CPU: 5 * time.Second}})
			if res.Status != OK || string(res.Stdout) != "1 2 3\n" {
				t.Errorf("got %v %q, want ok %q", res.Status, res.Stdout, "1 2 3\n")
			}
		})
	}
}

func TestPython(t *testing.T) {
	if _, err := os.Stat("/usr/bin/python3"); err != nil {
		t.Skip("no /usr/bin/python3")
	}
	for _, level := range levels {
		t.Run(level, func(t *testing.T) {
			dir := reachableDir(t) // python opens the script by its absolute path
			src := "import sys\nprint(sum(map(int, sys.stdin.read().split())))\n"
			if err := os.WriteFile(filepath.Join(dir, "sol.py"), []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
			res := run(t, level, &Cmd{Path: "/usr/bin/python3", Args: []string{"sol.py"}, Dir: dir, Stdin: []byte("20 22"),
				Limits: Limits{CPU: 5 * time.Second, Memory: 256 * bytesize.MiB}})
			if res.Status != OK || string(res.Stdout) != "42\n" {
				t.Errorf("got %v %q (stderr %q), want ok 42", res.Status, res.Stdout, res.Stderr)
			}
		})
	}
}

func TestParallelNoFalseTLE(t *testing.T) {
	for _, level := range levels {
		t.Run(level, func(t *testing.T) {
			sb := useBox(t, level)
			spin := program(t, "ojspin")
			n := 4 * runtime.NumCPU()
			var wg sync.WaitGroup
			results := make([]*Result, n)
			errs := make([]error, n)
			for i := range n {
				wg.Add(1)
				go func() {
					defer wg.Done()
					results[i], errs[i] = sb.Run(context.Background(), &Cmd{
						Path: spin, Args: []string{"150"}, Dir: t.TempDir(),
						Limits: Limits{CPU: 500 * time.Millisecond, Wall: time.Minute},
					})
				}()
			}
			wg.Wait()
			for i := range n {
				if errs[i] != nil {
					t.Errorf("run %d: %v", i, errs[i])
				} else if results[i].Status != OK {
					t.Errorf("run %d: got %v with CPU %v, want ok", i, results[i].Status, results[i].CPU)
				}
			}
		})
	}
}

func TestCancel(t *testing.T) {
	for _, level := range levels {
		t.Run(level, func(t *testing.T) {
			sb := useBox(t, level)
			ctx, cancel := context.WithCancel(context.Background())
			time.AfterFunc(100*time.Millisecond, cancel)
			_, err := sb.Run(ctx, &Cmd{Path: program(t, "ojsleep"), Dir: t.TempDir(), Limits: Limits{Wall: time.Minute}})
			if !errors.Is(err, context.Canceled) {
				t.Errorf("got error %v, want %v", err, context.Canceled)
			}
			noneLeft(t, "ojsleep")
		})
	}
}

func TestRunErrors(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name string
		cmd  Cmd
	}{
		{"no path", Cmd{Dir: dir}},
		{"no dir", Cmd{Path: "true"}},
		{"missing dir", Cmd{Path: "true", Dir: filepath.Join(dir, "nope")}},
		{"unknown program", Cmd{Path: "optjudge-no-such-program", Dir: dir}},
		{"not executable", Cmd{Path: "/etc/passwd", Dir: dir}},
		{"missing stdin", Cmd{Path: "true", Dir: dir, StdinFile: filepath.Join(dir, "nope")}},
		{"relative read-only path", Cmd{Path: "true", Dir: dir, ReadOnly: []string{"usr"}}},
	}
	for _, level := range levels {
		for _, tt := range tests {
			t.Run(level+"/"+tt.name, func(t *testing.T) {
				if _, err := useBox(t, level).Run(context.Background(), &tt.cmd); err == nil {
					t.Errorf("got no error, want one")
				}
			})
		}
	}
}

// TestNoKeyring checks that a program cannot use the kernel keyrings,
// which outlive its processes.
func TestNoKeyring(t *testing.T) {
	for _, level := range levels {
		t.Run(level, func(t *testing.T) {
			res := run(t, level, &Cmd{Path: program(t, "ojkey"), Limits: Limits{CPU: 5 * time.Second}})
			if res.ExitCode != 1 {
				t.Errorf("add_key: got %v exit %d, output %q, want it refused", res.Status, res.ExitCode, res.Stdout)
			}
		})
	}
}

// TestNoPrlimitOthers checks that a program can change (or read) no other
// process's limits, its supervisor's above all, while its own work.
func TestNoPrlimitOthers(t *testing.T) {
	for _, level := range levels {
		t.Run(level, func(t *testing.T) {
			if res := run(t, level, &Cmd{Path: program(t, "ojprlim"), Limits: Limits{CPU: 5 * time.Second}}); res.ExitCode != 1 {
				t.Errorf("prlimit of the parent: got %v exit %d, want it refused (exit 1)", res.Status, res.ExitCode)
			}
			if res := run(t, level, &Cmd{Path: program(t, "ojprlim"), Args: []string{"self"}, Limits: Limits{CPU: 5 * time.Second}}); res.Status != OK {
				t.Errorf("prlimit of itself: got %v exit %d, want ok", res.Status, res.ExitCode)
			}
		})
	}
}

func TestHostileMisc(t *testing.T) {
	for _, level := range levels {
		t.Run(level, func(t *testing.T) {
			res := run(t, level, &Cmd{Path: program(t, "ojstop"), Limits: Limits{CPU: time.Second, Wall: 300 * time.Millisecond}})
			if res.Status != WallTimeLimit {
				t.Errorf("SIGSTOP itself: got %v, want %v", res.Status, WallTimeLimit)
			}
			res = run(t, level, &Cmd{Path: program(t, "ojsparse"), Limits: Limits{CPU: 5 * time.Second}})
			if res.Status != OutputLimit || res.Signal != syscall.SIGXFSZ {
				t.Errorf("2GiB sparse file: got %v signal %v, want %v by SIGXFSZ", res.Status, res.Signal, OutputLimit)
			}
			res = run(t, level, &Cmd{Path: program(t, "ojvsock"), Limits: Limits{CPU: 5 * time.Second}})
			if want := "vsock refused\nio_uring refused\nunix open\n"; string(res.Stdout) != want {
				t.Errorf("seccomp: got %q, want %q", res.Stdout, want)
			}
			res = run(t, level, &Cmd{Path: program(t, "ojstdinw"), Stdin: []byte("1 2\n"), Limits: Limits{CPU: 5 * time.Second}})
			if string(res.Stdout) != "refused\n" {
				t.Errorf("writing to stdin: got %q, want %q", res.Stdout, "refused\n")
			}
		})
	}
}

// TestCompiledLanguages runs C++ and Go programs built with g++ and go.
func TestCompiledLanguages(t *testing.T) {
	build := reachableDir(t)
	var bins []string
	for _, b := range []struct{ tool, file, src string }{{"g++", "sol.cpp", cppSource}, {"go", "sol.go", goSource}} {
		if _, err := exec.LookPath(b.tool); err != nil {
			t.Logf("%s is not installed", b.tool)
			continue
		}
		src := filepath.Join(build, b.file)
		bin := strings.TrimSuffix(src, filepath.Ext(src)) + "-" + b.tool
		if err := os.WriteFile(src, []byte(b.src), 0o644); err != nil {
			t.Fatal(err)
		}
		args := []string{"-O2", "-o", bin, src}
		if b.tool == "go" {
			args = []string{"build", "-o", bin, src}
		}
		cmd := exec.Command(b.tool, args...)
		cmd.Dir = build
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", b.tool, err, out)
		}
		bins = append(bins, bin)
	}
	for _, level := range levels {
		for _, bin := range bins {
			t.Run(level+"/"+filepath.Base(bin), func(t *testing.T) {
				res := run(t, level, &Cmd{Path: bin, Stdin: []byte("40 2\n"), Limits: Limits{CPU: 5 * time.Second, Memory: 256 * bytesize.MiB}})
				if res.Status != OK || string(res.Stdout) != "42\n" {
					t.Errorf("got %v %q (stderr %q), want ok 42", res.Status, res.Stdout, res.Stderr)
				}
			})
		}
	}
}

// TestReadOnly runs a script kept outside the working directory, which the
// box shows only through Cmd.ReadOnly.
func TestReadOnly(t *testing.T) {
	if _, err := os.Stat("/usr/bin/python3"); err != nil {
		t.Skip("no /usr/bin/python3")
	}
	lib := t.TempDir()
	script := filepath.Join(lib, "sol.py")
	if err := os.WriteFile(script, []byte("print(6 * 7)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, level := range contained() {
		t.Run(level, func(t *testing.T) {
			res := run(t, level, &Cmd{Path: "/usr/bin/python3", Args: []string{script}, Limits: Limits{CPU: 5 * time.Second}})
			if res.Status != NonZeroExit {
				t.Errorf("without ReadOnly: got %v %q, want %v", res.Status, res.Stdout, NonZeroExit)
			}
			res = run(t, level, &Cmd{Path: "/usr/bin/python3", Args: []string{script}, ReadOnly: []string{lib}, Limits: Limits{CPU: 5 * time.Second}})
			if res.Status != OK || string(res.Stdout) != "42\n" {
				t.Errorf("with ReadOnly: got %v %q (stderr %q), want ok 42", res.Status, res.Stdout, res.Stderr)
			}
		})
	}
}

// TestCgroupV1Only runs the cgroup level without the v2 tree, as on a
// machine with cgroup v1 alone: memory and pids groups joined through
// cgroup.procs, kill by pid.
func TestCgroupV1Only(t *testing.T) {
	useBox(t, IsolationCgroup)
	if _, err := os.Stat("/sys/fs/cgroup/memory"); err != nil {
		t.Skip("no cgroup v1 memory controller")
	}
	sb, err := New(Options{Isolation: IsolationCgroup, CacheDir: testCache, FirstUID: testUID + 500, noCgroupV2: true})
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := sb.Close(); err != nil {
			t.Error(err)
		}
	}()
	tests := []struct {
		name   string
		args   []string
		lim    Limits
		status Status
	}{
		{"ojexit", []string{"3"}, Limits{CPU: 5 * time.Second}, NonZeroExit},
		{"ojspin", nil, Limits{CPU: 200 * time.Millisecond, Wall: time.Minute}, TimeLimit}, // the wall limit far off: a busy machine gives the spin little of a core
		{"ojtouch", []string{"512"}, Limits{CPU: 5 * time.Second, Memory: 256 * bytesize.MiB}, MemoryLimit},
		{"ojtouch", []string{"64"}, Limits{CPU: 5 * time.Second, Memory: 256 * bytesize.MiB}, OK},
		{"ojbomb", nil, Limits{CPU: 5 * time.Second, Wall: time.Second, Processes: 32}, WallTimeLimit},
	}
	for _, tt := range tests {
		t.Run(tt.name+strings.Join(tt.args, ""), func(t *testing.T) {
			res, err := sb.Run(context.Background(), &Cmd{Path: program(t, tt.name), Args: tt.args, Dir: t.TempDir(), Limits: tt.lim})
			if err != nil {
				t.Fatal(err)
			}
			if res.Status != tt.status || !res.MemoryExact {
				t.Errorf("got %v (memory exact %v), want %v", res.Status, res.MemoryExact, tt.status)
			}
			if tt.status == OK && (res.Memory < 64*bytesize.MiB || res.Memory > 72*bytesize.MiB) {
				t.Errorf("got a peak of %v, want about 64MiB", res.Memory)
			}
			noneLeft(t, tt.name)
		})
	}
	var names []string
	for _, l := range sb.Layers() {
		if l.Active && strings.HasPrefix(l.Name, "cgroup") {
			names = append(names, l.Name+" "+l.Why)
		}
	}
	if want := "cgroup memory /sys/fs/cgroup/memory/optjudge/"; !strings.Contains(strings.Join(names, "\n"), want) {
		t.Errorf("active cgroup layers: got %q, want one with %q", names, want)
	}
}

// TestTwoSandboxes checks that closing one Sandbox leaves another of the same
// process working.
func TestTwoSandboxes(t *testing.T) {
	for _, level := range levels {
		t.Run(level, func(t *testing.T) {
			first := useBox(t, level)
			second, err := New(Options{Isolation: level, CacheDir: testCache, FirstUID: testUID + 600})
			if err != nil {
				t.Fatal(err)
			}
			for i, sb := range []*Sandbox{second, first} {
				res, err := sb.Run(context.Background(), &Cmd{Path: program(t, "ojexit"), Dir: t.TempDir()})
				if err != nil || res.Status != OK {
					t.Errorf("sandbox %d: got %v, %v, want ok", i, res, err)
				}
				if i == 0 {
					if err := second.Close(); err != nil {
						t.Fatal(err)
					}
					if _, err := second.Run(context.Background(), &Cmd{Path: "true", Dir: t.TempDir()}); err == nil {
						t.Errorf("Run after Close: got no error, want one")
					}
				}
			}
		})
	}
}

// TestHide: a file of Options.Hide reads as empty in a box that sees its
// directory (as the judge's own executable does where /usr/local/bin holds
// it), and its neighbours read as they are.
func TestHide(t *testing.T) {
	lib := t.TempDir()
	secret, other := filepath.Join(lib, "answers.txt"), filepath.Join(lib, "other.txt")
	for name, content := range map[string]string{secret: "the answers\n", other: "visible\n"} {
		if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, level := range contained() {
		t.Run(level, func(t *testing.T) {
			useBox(t, level) // skips where the level is not available
			sb, err := New(Options{Isolation: level, CacheDir: testCache, FirstUID: testUID + 700, Hide: []string{secret}})
			if err != nil {
				t.Fatal(err)
			}
			defer sb.Close()
			for i := range 2 { // the second on a warm spare that has the mounts
				res, err := sb.Run(context.Background(), &Cmd{Path: "sh", Args: []string{"-c", "cat " + secret + " " + other + "; echo size $(wc -c < " + secret + ")"},
					Dir: t.TempDir(), ReadOnly: []string{lib}, Limits: Limits{CPU: 5 * time.Second}})
				if err != nil {
					t.Fatal(err)
				}
				if want := "visible\nsize 0\n"; res.Status != OK || string(res.Stdout) != want {
					t.Errorf("run %d: got %v %q (stderr %q), want ok %q", i, res.Status, res.Stdout, res.Stderr, want)
				}
			}
			// the host's file is untouched
			if b, _ := os.ReadFile(secret); string(b) != "the answers\n" {
				t.Errorf("the hidden file on the host: got %q", b)
			}
		})
	}
}
