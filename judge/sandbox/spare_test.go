//go:build linux

package sandbox

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/optjudge/optjudge/bytesize"
)

func TestWithoutSkeleton(t *testing.T) {
	usr, tmp := mountOp{'S', "/t/usr", "/usr"}, mountOp{'T', "1", "/tmp"}
	skeleton := []mountOp{usr, tmp}
	w := mountOp{'w', "/tmp/box", "/tmp/box"}
	tests := []struct {
		name   string
		plan   []mountOp
		rest   []mountOp
		ok     bool
		reason string
	}{
		{"binds below the skeleton", []mountOp{tmp, w, usr, {'b', "/usr/lib/x", "/usr/lib/x"}},
			[]mountOp{w, {'b', "/usr/lib/x", "/usr/lib/x"}}, true, ""},
		{"a bind beside it", []mountOp{{'b', "/opt", "/opt"}, tmp, usr}, []mountOp{{'b', "/opt", "/opt"}}, true, ""},
		{"the working directory is /tmp", []mountOp{{'w', "/tmp", "/tmp"}, usr}, nil, false, "replaces a skeleton mount"},
		{"a bind above the skeleton", []mountOp{{'b', "/", "/"}, tmp, usr}, nil, false, "hides it"},
		{"a bind of /usr itself", []mountOp{tmp, {'b', "/usr", "/usr"}}, nil, false, "replaces it"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rest, ok := withoutSkeleton(tt.plan, skeleton)
			if ok != tt.ok || (ok && !equalOps(rest, tt.rest)) {
				t.Errorf("got %v, %v, want %v, %v", rest, ok, tt.rest, tt.ok)
			}
		})
	}
}

func equalOps(a, b []mountOp) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestOwnSupervisor runs a box whose mounts do not fit a spare's skeleton (a
// read-only /etc of its own): it gets a supervisor cloned for it, which
// builds the whole root, and is as contained.
func TestOwnSupervisor(t *testing.T) {
	for _, level := range contained() {
		t.Run(level, func(t *testing.T) {
			dir := t.TempDir()
			c := &Cmd{Path: program(t, "ojpeek"), Args: []string{"w:/etc/x", "w:/usr/x", "w:inside"}, Dir: dir,
				ReadOnly: []string{"/etc"}, Limits: Limits{CPU: 5 * time.Second}}
			s := useBox(t, level).sys
			path, err := resolvePath(c)
			if err != nil {
				t.Fatal(err)
			}
			plan, err := s.mountPlan(c, path)
			if err != nil {
				t.Fatal(err)
			}
			if _, ok := withoutSkeleton(plan, s.sysMount); ok {
				t.Fatalf("a read-only /etc fits a spare's skeleton: the test does not test a supervisor of its own")
			}
			res := run(t, level, c)
			if want := "ok w:/etc/x\nok w:/usr/x\nLEAK w:inside\n"; res.Status != OK || string(res.Stdout) != want {
				t.Errorf("got %v\n%s\nwant ok\n%s", res.Status, res.Stdout, want)
			}
		})
	}
}

// TestZygoteDied checks that a Sandbox whose resident helper was killed
// starts another and runs on.
func TestZygoteDied(t *testing.T) {
	for _, level := range levels {
		t.Run(level, func(t *testing.T) {
			useBox(t, level)
			sb, err := New(Options{Isolation: level, CacheDir: testCache, FirstUID: testUID + 900})
			if err != nil {
				t.Fatal(err)
			}
			defer func() {
				if err := sb.Close(); err != nil {
					t.Error(err)
				}
			}()
			z := sb.sys.zyg
			z.mu.Lock() // the pool's filler may be restarting it
			proc, dead := z.proc, z.dead
			z.mu.Unlock()
			proc.Signal(syscall.SIGKILL)
			<-dead
			for i := range 3 { // the spares died with it
				res, err := sb.Run(context.Background(), &Cmd{Path: program(t, "ojexit"), Args: []string{"3"}, Dir: t.TempDir()})
				if err != nil || res.Status != NonZeroExit || res.ExitCode != 3 {
					t.Errorf("run %d: got %v, %v, want exit 3", i, res, err)
				}
			}
		})
	}
}

// TestSpareFails checks that a spare that cannot build its box reports why
// to the run it gets, which fails with that error.
func TestSpareFails(t *testing.T) {
	level := IsolationNamespaces
	useBox(t, level)
	cache := t.TempDir()
	sb, err := New(Options{Isolation: level, CacheDir: cache, FirstUID: testUID + 950})
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := sb.Close(); err != nil {
			t.Error(err)
		}
	}()
	// the spares to come cannot mount their root
	if err := os.Remove(filepath.Join(cache, "root")); err != nil {
		t.Fatal(err)
	}
	var got error
	for range 2 * sb.sys.pool.want { // past the spares made before
		_, err := sb.Run(context.Background(), &Cmd{Path: program(t, "ojexit"), Dir: t.TempDir()})
		if err != nil {
			got = err
			break
		}
	}
	var he *HelperError
	if !errors.As(got, &he) || !errors.Is(got, syscall.ENOENT) || !strings.Contains(got.Error(), "mount root tmpfs") {
		t.Errorf("got %v, want the spare's error mounting its root (ENOENT)", got)
	}
}

// TestGiveBack checks that the working directory, and what the box made in
// it (in a world-writable subdirectory too), belong to its owner again after
// the run, whether the box wrote there or not.
func TestGiveBack(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("boxes have a uid of their own only as root")
	}
	for _, level := range contained() {
		for _, args := range [][]string{nil, {"w:made"}, {"w:pub/inner"}} {
			t.Run(level+"/"+strings.Join(args, ","), func(t *testing.T) {
				dir := t.TempDir()
				pub := filepath.Join(dir, "pub")
				if err := os.Mkdir(pub, 0o777); err != nil {
					t.Fatal(err)
				}
				if err := os.Chmod(pub, 0o777); err != nil {
					t.Fatal(err)
				}
				res := run(t, level, &Cmd{Path: program(t, "ojpeek"), Args: args, Dir: dir, Limits: Limits{CPU: 5 * time.Second}})
				if strings.Count(string(res.Stdout), "LEAK") != len(args) {
					t.Fatalf("got %q, want every write to work", res.Stdout)
				}
				for _, p := range append([]string{dir}, filepath.Join(dir, "made"), filepath.Join(pub, "inner")) {
					var st syscall.Stat_t
					if err := syscall.Lstat(p, &st); err != nil {
						continue // not made by this run
					}
					if st.Uid != 0 || st.Gid != 0 {
						t.Errorf("%s: got owner %d:%d, want 0:0", p, st.Uid, st.Gid)
					}
				}
			})
		}
	}
}

// TestResidentBox runs programs one after another in the same working
// directory: they go to the same resident spare, and nothing of a run
// reaches the next: no process, no CPU time or memory in its figures and,
// in a box, no file in /tmp and no SysV object.
func TestResidentBox(t *testing.T) {
	for _, level := range levels {
		t.Run(level, func(t *testing.T) {
			sb := useBox(t, level)
			dir := t.TempDir()
			// the programs in the working directory: no mount of their own,
			// so both go to the same box
			leaveBin, lookBin := filepath.Join(dir, "ojleave"), filepath.Join(dir, "ojlook")
			copyProgram(t, "ojleave", leaveBin)
			copyProgram(t, "ojlook", lookBin)
			// what each round leaves, and how many runs its box has served
			// after the round (which ends with ojlook); at level none /tmp
			// and IPC are the host's, and nothing there is cleaned
			leaves := [][]string{nil, nil, nil}
			served := []int{2, 4, 6}
			if level != IsolationNone {
				// a few things a box cleans, then more files than it cleans
				// and deeper: the box goes, and ojlook runs in a new one
				leaves = [][]string{{"mark"}, {"many"}, {"mark"}, {"deep"}, {"mark"}}
				served = []int{2, 1, 3, 1, 3}
			}
			first := -1
			for i, leave := range leaves {
				res := run(t, level, &Cmd{Path: leaveBin, Args: leave, Dir: dir,
					Limits: Limits{CPU: 5 * time.Second, Memory: 256 * bytesize.MiB}})
				if res.Status != OK || res.CPU < 200*time.Millisecond || res.Memory < 100*bytesize.MiB {
					t.Fatalf("round %d: ojleave: got %v (exit %d) CPU %v peak %v, want ok, 200ms, 100MiB",
						i, res.Status, res.ExitCode, res.CPU, res.Memory)
				}
				noneLeft(t, "ojleave")
				res = run(t, level, &Cmd{Path: lookBin, Dir: dir,
					Limits: Limits{CPU: 5 * time.Second, Memory: 256 * bytesize.MiB}})
				if res.Status != OK {
					t.Errorf("round %d: ojlook: got %v exit %d, want ok (1: a file in /tmp, 2: a SysV segment, 4: many or deep files)",
						i, res.Status, res.ExitCode)
				}
				if res.CPU > 50*time.Millisecond || res.Memory > 50*bytesize.MiB {
					t.Errorf("round %d: ojlook: got CPU %v and peak %v, want the last run's left out",
						i, res.CPU, res.Memory)
				}
				// the spare that ran ojlook is the newest warm one
				p := sb.sys.pool
				p.mu.Lock()
				runs := 0
				if len(p.warm) > 0 {
					runs = p.warm[len(p.warm)-1].runs
				}
				p.mu.Unlock()
				if first < 0 && level == IsolationNone {
					first = runs - served[0] // the probe's run was in it too
				}
				if want := served[i] + max(first, 0); runs != want {
					t.Errorf("round %d: the box served %d runs, want %d", i, runs, want)
				}
			}
		})
	}
}

// TestManySpares runs with far more spares than usual (as on a machine
// with dozens of CPUs): the zygote then holds descriptors where a spare
// puts its own, and no spare may lose its cgroups to that.
func TestManySpares(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: 160 runs with 80 spares; TestSpareFails takes spares")
	}
	useBox(t, IsolationCgroup)
	sb, err := New(Options{Isolation: IsolationCgroup, CacheDir: testCache, FirstUID: testUID + 900})
	if err != nil {
		t.Fatal(err)
	}
	defer sb.Close()
	p := sb.sys.pool
	p.mu.Lock()
	p.want = 80
	p.mu.Unlock()
	for range 2 * p.want {
		res, err := sb.Run(t.Context(), &Cmd{Path: program(t, "ojtouch"), Args: []string{"100"}, Dir: t.TempDir(),
			Limits: Limits{CPU: 5 * time.Second, Memory: 32 * bytesize.MiB}})
		if err != nil {
			t.Fatal(err)
		}
		if res.Status != MemoryLimit {
			t.Fatalf("100MiB under 32MiB: got %v with peak %v, want %v", res.Status, res.Memory, MemoryLimit)
		}
	}
}

// TestWarmBoxFollowsFiles replaces the program, and the working directory,
// at the same path between two runs: the second run must see the new ones,
// not what the first run's box bound.
func TestWarmBoxFollowsFiles(t *testing.T) {
	replace := func(t *testing.T, name, dst string) {
		copyProgram(t, name, dst+".new")
		if err := os.Rename(dst+".new", dst); err != nil { // as a linker writes its output
			t.Fatal(err)
		}
	}
	for _, level := range contained() {
		t.Run(level, func(t *testing.T) {
			dir, other := t.TempDir(), t.TempDir()
			prog := filepath.Join(other, "prog")
			replace(t, "ojtrue", prog)
			run(t, level, &Cmd{Path: prog, Args: []string{"7"}, Dir: dir})
			replace(t, "ojexit", prog)
			if res := run(t, level, &Cmd{Path: prog, Args: []string{"7"}, Dir: dir}); res.ExitCode != 7 {
				t.Errorf("program replaced: got %v exit %d, want exit 7", res.Status, res.ExitCode)
			}
			work := filepath.Join(t.TempDir(), "work")
			for i, name := range []string{"ojtrue", "ojexit"} {
				if err := os.RemoveAll(work); err != nil {
					t.Fatal(err)
				}
				if err := os.Mkdir(work, 0o755); err != nil {
					t.Fatal(err)
				}
				replace(t, name, filepath.Join(work, "prog"))
				if res := run(t, level, &Cmd{Path: "./prog", Args: []string{"7"}, Dir: work}); i == 1 && res.ExitCode != 7 {
					t.Errorf("directory made anew: got %v exit %d, want exit 7", res.Status, res.ExitCode)
				}
			}
		})
	}
}

// TestPrepareErrorFreesSpare makes a run fail after its spare was taken:
// the spare must be let go, not leaked.
func TestPrepareErrorFreesSpare(t *testing.T) {
	for _, level := range contained() {
		t.Run(level, func(t *testing.T) {
			s := useBox(t, level).sys
			if s.userns {
				t.Skip("without root nothing fails after a spare is taken: the directory is not lent")
			}
			p := s.pool
			var next *spare // the spare the run takes
			for deadline := time.Now().Add(10 * time.Second); next == nil && time.Now().Before(deadline); {
				p.refill()
				p.mu.Lock()
				if len(p.ready) > 0 {
					next = p.ready[0]
				}
				p.mu.Unlock()
				time.Sleep(time.Millisecond)
			}
			if next == nil {
				t.Fatal("no spare was made")
			}
			b, err := s.prepare(&Cmd{Path: "/bin/true", Dir: filepath.Join(t.TempDir(), "gone")}, "/bin/true", Limits{}.withDefaults())
			if err == nil {
				b.release()
				t.Fatal("prepare with a missing directory: no error")
			}
			p.mu.Lock()
			defer p.mu.Unlock()
			if next.sock >= 0 && !slices.Contains(p.ready, next) {
				t.Errorf("the spare the failed run took is neither let go nor back in the pool")
			}
		})
	}
}

// TestStoppedSupervisorCPU stops a warm supervisor during a run: the judge
// kills it, and the run's CPU time must not include the earlier runs'.
func TestStoppedSupervisorCPU(t *testing.T) {
	level := IsolationNone
	sb := useBox(t, level)
	dir := t.TempDir()
	spin, sleep := filepath.Join(dir, "ojspin"), filepath.Join(dir, "ojsleep")
	copyProgram(t, "ojspin", spin)
	copyProgram(t, "ojsleep", sleep)
	run(t, level, &Cmd{Path: spin, Args: []string{"400"}, Dir: dir, Limits: Limits{CPU: 5 * time.Second}})
	p := sb.sys.pool
	p.mu.Lock()
	sp := p.warm[len(p.warm)-1]
	p.mu.Unlock()
	sp.life.read()
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		// during the run: once its program runs
		for deadline := time.Now().Add(time.Minute); !running("ojsleep") && time.Now().Before(deadline); {
			time.Sleep(time.Millisecond)
		}
		syscall.Kill(sp.life.pid, syscall.SIGSTOP)
	}()
	res := run(t, level, &Cmd{Path: sleep, Dir: dir, Limits: Limits{CPU: 200 * time.Millisecond, Wall: 500 * time.Millisecond}})
	<-stopped
	if res.Status != WallTimeLimit || res.CPU > 100*time.Millisecond {
		t.Errorf("got %v with CPU %v, want %v with the sleeper's CPU only", res.Status, res.CPU, WallTimeLimit)
	}
	// at this level the program dies of its supervisor's death (a
	// parent-death signal), a moment after the judge saw it end
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline) && running("ojsleep"); {
		time.Sleep(10 * time.Millisecond)
	}
	noneLeft(t, "ojsleep")
}

// running reports whether a process named name exists.
func running(name string) bool { return len(pidsNamed(name)) > 0 }

// copyProgram copies the compiled test program name to dst, executable.
func copyProgram(t *testing.T, name, dst string) {
	t.Helper()
	b, err := os.ReadFile(program(t, name))
	if err == nil {
		err = os.WriteFile(dst, b, 0o755)
	}
	if err != nil {
		t.Fatal(err)
	}
}

// TestUserNamespaceBoxes runs, where the namespaces level works without
// root (in a user namespace, where the program has the box's own user),
// what such a program can do to its box: signal the box's init, rename the
// directory above its working directory, take the rights on /tmp, or try
// to lower the init's limits. The box's next run must not suffer. As root
// (CI) the program can do none of it, and the test is skipped.
func TestUserNamespaceBoxes(t *testing.T) {
	sb := useBox(t, IsolationNamespaces)
	if !sb.sys.userns {
		t.Skip("the judge is root: the boxes need no user namespace, and a program cannot do this")
	}
	for _, name := range []string{"ojsig", "ojmove", "ojprlim", "ojchmod"} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			bin, next := filepath.Join(dir, name), filepath.Join(dir, "ojexit")
			copyProgram(t, name, bin)
			copyProgram(t, "ojexit", next)
			// ojsig's signal lands between the end of its run and the next
			// only when its child wins a race, so: several rounds
			for i := range 10 {
				run(t, IsolationNamespaces, &Cmd{Path: bin, Dir: dir, Limits: Limits{CPU: 5 * time.Second}})
				res, err := sb.Run(t.Context(), &Cmd{Path: next, Dir: dir, Limits: Limits{CPU: 5 * time.Second}})
				if err != nil || res.Status != OK {
					t.Errorf("round %d: the run after %s: got %v, %v; want ok", i, name, res, err)
				}
			}
		})
	}
}
