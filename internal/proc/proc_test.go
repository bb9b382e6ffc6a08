package proc

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestRun(t *testing.T) {
	tests := []struct {
		name string
		cmd  Cmd
		want Result
	}{
		{"exit code and streams", Cmd{Argv: []string{"/bin/sh", "-c", "cat; echo err >&2; exit 3"}, Stdin: []byte("in\n")},
			Result{ExitCode: 3, Stdout: []byte("in\n"), Stderr: []byte("err\n")}},
		{"environment", Cmd{Argv: []string{"/bin/sh", "-c", "echo $PATH $FOO"}, Env: []string{"PATH=/bin", "FOO=bar"}},
			Result{Stdout: []byte("/bin bar\n"), Stderr: []byte{}}},
		{"default environment", Cmd{Argv: []string{"/bin/sh", "-c", "echo $PATH"}},
			Result{Stdout: []byte(DefaultPath + "\n"), Stderr: []byte{}}},
		{"cap", Cmd{Argv: []string{"/bin/sh", "-c", "echo 0123456789"}, Cap: 4},
			Result{Stdout: []byte("0123"), Stderr: []byte{}, Truncated: true}},
		{"signal", Cmd{Argv: []string{"/bin/sh", "-c", "kill -9 $$"}},
			Result{ExitCode: -1, Signal: syscall.SIGKILL, Stdout: []byte{}, Stderr: []byte{}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := Run(context.Background(), &tt.cmd)
			if err != nil {
				t.Fatal(err)
			}
			if r.ExitCode != tt.want.ExitCode || r.Signal != tt.want.Signal || string(r.Stdout) != string(tt.want.Stdout) ||
				string(r.Stderr) != string(tt.want.Stderr) || r.Truncated != tt.want.Truncated || r.TimedOut {
				t.Errorf("got %+v, want %+v", r, tt.want)
			}
		})
	}
}

// TestRunTimeout: at the timeout the program and what it started, in its
// process group, are killed.
func TestRunTimeout(t *testing.T) {
	flag := filepath.Join(t.TempDir(), "survived")
	r, err := Run(context.Background(), &Cmd{
		Argv:    []string{"/bin/sh", "-c", "(sleep 1; touch " + flag + ") & sleep 60"},
		Timeout: 100 * time.Millisecond,
	})
	if err != nil {
		t.Fatal(err)
	}
	if !r.TimedOut {
		t.Errorf("got %+v, want a timeout", r)
	}
	// the subshell that would touch the flag carries it in its arguments:
	// none is left, so none can (no sleep past its touch, which a slow
	// machine would outlast)
	// (a process killed may take a moment to go)
	for deadline := time.Now().Add(30 * time.Second); len(withArg(flag)) > 0; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("a child of the program survived the timeout: %v", withArg(flag))
		}
	}
	if _, err := os.Stat(flag); err == nil {
		t.Error("a child of the program survived the timeout and touched its flag")
	}
}

func TestRunCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(50*time.Millisecond, cancel)
	if _, err := Run(ctx, &Cmd{Argv: []string{"/bin/sh", "-c", "sleep 60"}}); !errors.Is(err, context.Canceled) {
		t.Errorf("got %v, want %v", err, context.Canceled)
	}
	if _, err := Run(context.Background(), &Cmd{Argv: []string{"/no/such/program"}}); err == nil {
		t.Error("a missing program: got no error")
	}
}

func TestLookPath(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	for _, d := range []string{a, b} {
		if err := os.WriteFile(filepath.Join(d, "tool"), []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(a, "plain"), nil, 0o644)
	path := a + ":" + b
	for _, tt := range []struct {
		name string
		ok   func(string) bool
		want string
	}{
		{"tool", nil, filepath.Join(a, "tool")},
		{"tool", func(p string) bool { return !strings.HasPrefix(p, a) }, filepath.Join(b, "tool")},
		{"plain", nil, ""},
		{"/abs/tool", nil, "/abs/tool"},
	} {
		got, err := LookPath(tt.name, path, tt.ok)
		if got != tt.want || (err == nil) != (tt.want != "") {
			t.Errorf("LookPath(%s): got %q, %v, want %q", tt.name, got, err, tt.want)
		}
	}
}

func TestExpand(t *testing.T) {
	got := Expand([]string{"{exe}", "-o{dir}/x", "{none}"}, map[string]string{"exe": "./a", "dir": "/d"})
	if strings.Join(got, " ") != "./a -o/d/x {none}" {
		t.Errorf("got %q", got)
	}
}

// TestRunFiles: StdinFile and StdoutFile are the program's streams, as
// they are; Result.Stdout is then empty.
func TestRunFiles(t *testing.T) {
	inR, inW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer inR.Close()
	outR, outW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer outR.Close()
	inW.WriteString("ping\n")
	inW.Close()
	r, err := Run(context.Background(), &Cmd{Argv: []string{"/bin/sh", "-c", "read x; echo $x-pong"}, StdinFile: inR, StdoutFile: outW})
	outW.Close()
	if err != nil {
		t.Fatal(err)
	}
	got := make([]byte, 64)
	n, _ := outR.Read(got)
	if string(got[:n]) != "ping-pong\n" || len(r.Stdout) != 0 {
		t.Errorf("got %q through the pipe and %q kept, want %q and nothing", got[:n], r.Stdout, "ping-pong\n")
	}
}

// TestRunLimits: the CPU and memory limits hold for the program the shell
// executes.
func TestRunLimits(t *testing.T) {
	r, err := Run(context.Background(), &Cmd{Argv: []string{"/bin/sh", "-c", "ulimit -t; ulimit -v"}, CPU: 1500 * time.Millisecond, Memory: 64 << 20})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(r.Stdout), "2\n65536\n"; got != want {
		t.Errorf("got limits %q, want %q", got, want)
	}
	r, err = Run(context.Background(), &Cmd{Argv: []string{"/bin/sh", "-c", "while :; do :; done"}, CPU: time.Second, Timeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	if r.Signal != syscall.SIGXCPU && r.Signal != syscall.SIGKILL {
		t.Errorf("a spin under a 1 s CPU limit: got %+v, want killed by SIGXCPU", r)
	}
	if !AddressSpaceSafe([]string{"/usr/bin/python3"}) || AddressSpaceSafe([]string{"/usr/bin/java", "-cp", "."}) {
		t.Errorf("AddressSpaceSafe: got java safe or python not, want the other way round")
	}
}

// TestRunEscapedDescendant: a descendant that left the process group
// (setsid) and kept the output open does not hold Run past the program's
// end (it would for as long as it lives, timeout or not).
func TestRunEscapedDescendant(t *testing.T) {
	if _, err := os.Stat("/usr/bin/setsid"); err != nil {
		t.Skip("no setsid")
	}
	pidFile := filepath.Join(t.TempDir(), "pid")
	t.Cleanup(func() {
		if b, err := os.ReadFile(pidFile); err == nil {
			var pid int
			if _, err := fmt.Sscan(string(b), &pid); err == nil && pid > 1 {
				syscall.Kill(pid, syscall.SIGKILL)
			}
		}
	})
	start := time.Now()
	r, err := Run(context.Background(), &Cmd{
		Argv:    []string{"/bin/sh", "-c", "setsid sh -c 'echo $$ > " + pidFile + "; exec sleep 120' & sleep 0.2; echo done"},
		Timeout: time.Minute,
	})
	if err != nil {
		t.Fatal(err)
	}
	if took := time.Since(start); took > 30*time.Second {
		t.Errorf("Run took %s: it waited for the escaped descendant", took)
	}
	if r.ExitCode != 0 || r.TimedOut || !strings.Contains(string(r.Stdout), "done") {
		t.Errorf("got %+v, want exit 0 with its output", r)
	}
}

// withArg lists the live processes (not zombies) with arg in their
// command line.
func withArg(arg string) []string {
	var pids []string
	procs, _ := filepath.Glob("/proc/[0-9]*")
	for _, p := range procs {
		cmdline, err := os.ReadFile(p + "/cmdline")
		if err != nil || !bytes.Contains(cmdline, []byte(arg)) {
			continue
		}
		if stat, err := os.ReadFile(p + "/stat"); err == nil {
			if i := bytes.LastIndexByte(stat, ')'); i > 0 && i+2 < len(stat) && stat[i+2] == 'Z' {
				continue
			}
		}
		pids = append(pids, filepath.Base(p))
	}
	return pids
}
