//go:build linux

package sandbox

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestBoxUIDsOneProcess: two allocators of one process (two Sandboxes)
// with the same first uid never hand out the same uid at once, and a uid
// given back is taken again.
func TestBoxUIDsOneProcess(t *testing.T) {
	dir := t.TempDir()
	first := testUID + 3000
	a, err := newBoxUIDs(first, dir, "")
	if err != nil {
		t.Fatal(err)
	}
	b, err := newBoxUIDs(first, dir, "")
	if err != nil {
		t.Fatal(err)
	}
	seen := map[int]bool{}
	var got []int
	for i := range 6 {
		u := a
		if i%2 == 1 {
			u = b
		}
		uid, err := u.get()
		if err != nil {
			t.Fatal(err)
		}
		if seen[uid] {
			t.Fatalf("uid %d handed out twice (so far %v)", uid, got)
		}
		seen[uid] = true
		got = append(got, uid)
	}
	b.put(got[2])
	if uid, err := a.get(); err != nil || uid != got[2] {
		t.Errorf("after giving back %d: got %d, %v, want it again", got[2], uid, err)
	}
	for uid := range seen {
		a.put(uid)
	}
}

// TestBoxUIDsOtherProcess: a uid whose lock file another process holds is
// passed over.
func TestBoxUIDsOtherProcess(t *testing.T) {
	dir := t.TempDir()
	first := testUID + 3100
	cmd := exec.Command(os.Args[0], "-test.run=^TestHoldUIDLock$")
	cmd.Env = append(os.Environ(), "OPTJUDGE_HOLD_UID_LOCK="+filepath.Join(dir, "uid-"+strconv.Itoa(first)+".lock"))
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		in.Close() // the holder exits at the end of its input
		cmd.Wait()
	}()
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil || strings.TrimSpace(line) != "locked" {
		t.Fatalf("the holder said %q, %v", line, err)
	}
	u, err := newBoxUIDs(first, dir, "")
	if err != nil {
		t.Fatal(err)
	}
	uid, err := u.get()
	if err != nil {
		t.Fatal(err)
	}
	defer u.put(uid)
	if uid == first {
		t.Errorf("got uid %d, which another process holds", uid)
	}
}

// TestHoldUIDLock is the other process of TestBoxUIDsOtherProcess: it
// locks the file it is given and holds it until its input ends.
func TestHoldUIDLock(t *testing.T) {
	path := os.Getenv("OPTJUDGE_HOLD_UID_LOCK")
	if path == "" {
		t.Skip("only run by TestBoxUIDsOtherProcess")
	}
	f, err := lockUID(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	fmt.Println("locked")
	bufio.NewReader(os.Stdin).ReadString('\n')
}

// TestBoxUIDsInUse: two Sandboxes of one process with the same FirstUID
// give two boxes running at once two uids, and at level none a root
// judge's program does not run as root.
func TestBoxUIDsInUse(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("box uids are a root judge's")
	}
	for _, level := range levels {
		t.Run(level, func(t *testing.T) {
			useBox(t, level)
			first := testUID + 3200
			a, err := New(Options{Isolation: level, CacheDir: testCache, FirstUID: first})
			if err != nil {
				t.Fatal(err)
			}
			defer a.Close()
			b, err := New(Options{Isolation: level, CacheDir: testCache, FirstUID: first})
			if err != nil {
				t.Fatal(err)
			}
			defer b.Close()
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan error, 1)
			go func() {
				_, err := a.Run(ctx, &Cmd{Path: program(t, "ojsleep"), Dir: t.TempDir(), Limits: Limits{Wall: time.Minute}})
				done <- err
			}()
			held := uidOf(t, "ojsleep", first, done)
			res, err := b.Run(context.Background(), &Cmd{Path: "id", Args: []string{"-u"}, Dir: t.TempDir(), Limits: Limits{CPU: 5 * time.Second}})
			cancel()
			<-done
			if err != nil || res.Status != OK {
				t.Fatalf("id -u: got %v, %v", res, err)
			}
			got, err := strconv.Atoi(strings.TrimSpace(string(res.Stdout)))
			switch {
			case err != nil:
				t.Errorf("id -u printed %q", res.Stdout)
			case got == held:
				t.Errorf("two boxes at once run as uid %d", got)
			case got < first || got >= first+maxBoxUIDs:
				t.Errorf("got uid %d, want a box uid from %d on", got, first)
			}
			noneLeft(t, "ojsleep")
		})
	}
}

// TestNoneNoRoot: at level none a root judge's box, a build's with its
// minimal /etc and read-only toolchain too, runs as a box uid, never as
// root; a non-root judge's as the judge itself.
func TestNoneNoRoot(t *testing.T) {
	sb := useBox(t, IsolationNone)
	res, err := sb.Run(context.Background(), &Cmd{Path: "id", Args: []string{"-u"}, Dir: t.TempDir(), MinimalEtc: true, ReadOnly: []string{"/usr"}, Limits: Limits{CPU: 5 * time.Second}})
	if err != nil || res.Status != OK {
		t.Fatalf("id -u: got %v, %v", res, err)
	}
	got := strings.TrimSpace(string(res.Stdout))
	switch {
	case os.Geteuid() != 0 && got != strconv.Itoa(os.Geteuid()):
		t.Errorf("got uid %s, want the judge's %d", got, os.Geteuid())
	case os.Geteuid() == 0 && got == "0":
		t.Errorf("a root judge's box ran as root")
	case sb.OwnUIDs() != (os.Geteuid() == 0):
		t.Errorf("OwnUIDs is %v for euid %d", sb.OwnUIDs(), os.Geteuid())
	}
}

// uidOf waits for a process named name to run as a uid from first on and
// returns that uid; it fails the test if the run ends first.
func uidOf(t *testing.T, name string, first int, done <-chan error) int {
	t.Helper()
	for {
		for _, pid := range pidsNamed(name) {
			var st syscall.Stat_t
			if syscall.Stat("/proc/"+pid, &st) == nil && int(st.Uid) >= first && int(st.Uid) < first+maxBoxUIDs {
				return int(st.Uid)
			}
		}
		select {
		case err := <-done:
			t.Fatalf("%s ended before it was seen: %v", name, err)
		case <-time.After(5 * time.Millisecond):
		}
	}
}
