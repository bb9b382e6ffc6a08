package main

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/optjudge/optjudge/judge/sandbox"
)

// TestWatchQuit runs judge watch on a solution that sleeps and types q on
// standard input once the solution runs: the watch stops the grade, kills
// the sleeping process and exits 0.
func TestWatchQuit(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is not installed")
	}
	if sb, err := sandbox.New(sandbox.Options{}); err != nil {
		t.Skipf("no sandbox here: %v", err)
	} else {
		sb.Close()
	}
	dir := t.TempDir()
	marker := fmt.Sprintf("271.%09d", rand.IntN(1e9))
	src := filepath.Join(dir, "sleep.py")
	sleeper := fmt.Sprintf("import os\nos.execv(\"/usr/bin/sleep\", [\"sleep\", %q])\n", marker)
	if err := os.WriteFile(src, []byte(sleeper), 0o644); err != nil {
		t.Fatal(err)
	}
	keys, typist := io.Pipe()
	go func() {
		defer typist.Close()
		for deadline := time.Now().Add(time.Minute); !running(marker); time.Sleep(10 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Error("the sleeping solution never started")
				break
			}
		}
		typist.Write([]byte("q\n"))
	}()
	var stdout, stderr bytes.Buffer
	e := &env{stdin: keys, stdout: &stdout, stderr: &stderr}
	// A wall limit the sleeper cannot reach before the typist's q, however
	// loaded the machine (clocks' own is 3 s).
	if code := e.main([]string{"watch", "--tests", "testdata/files/mytests", "--wall-limit", "1m", "clocks", src}); code != exitOK {
		t.Fatalf("got exit %d, want %d; stderr:\n%s", code, exitOK, stderr.String())
	}
	out := stdout.String()
	for _, want := range []string{"watching clocks: " + src + " (python3)", "grade 1 at ", "grade 1 cancelled\n", "watch stopped\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("got output\n%s\nwant it to hold %q", out, want)
		}
	}
	if running(marker) {
		t.Error("the sleeping solution still runs after the watch ended")
	}
}

// running reports whether a process runs with marker among its arguments.
func running(marker string) bool {
	procs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, p := range procs {
		if b, err := os.ReadFile(p); err == nil && bytes.Contains(b, []byte(marker)) {
			return true
		}
	}
	return false
}
