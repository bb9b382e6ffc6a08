//go:build linux

package sandbox

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/optjudge/optjudge/judge/bytesize"
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
				ReadOnly: []string{"/etc"}, Limits: Limits{CPU: time.Second}}
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
			z.proc.Signal(syscall.SIGKILL)
			<-z.dead
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
				res := run(t, level, &Cmd{Path: program(t, "ojpeek"), Args: args, Dir: dir, Limits: Limits{CPU: time.Second}})
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
			for bin, name := range map[string]string{leaveBin: "ojleave", lookBin: "ojlook"} {
				b, err := os.ReadFile(program(t, name))
				if err == nil {
					err = os.WriteFile(bin, b, 0o755)
				}
				if err != nil {
					t.Fatal(err)
				}
			}
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
