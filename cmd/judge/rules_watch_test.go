package main

import (
	"io"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestWatchRules watches a wrong solution of a problem given by rules
// (hanoi's via_one_peg.py, shortest only through the middle peg) until it
// explains the first failure with a drawing, then types q: the failing
// case of the sample, its start drawn beside the position after the
// program's moves, and where the moves left the optimum.
func TestWatchRules(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is not installed: the submission is Python")
	}
	src, err := filepath.Abs(filepath.Join("..", "..", "problems", "hanoi", "submissions", "wrong_answer", "via_one_peg.py"))
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir())
	keys, typist := io.Pipe()
	var out syncBuffer
	done := make(chan int)
	go func() {
		e := &env{stdin: keys, stdout: &out, stderr: &out}
		done <- e.main([]string{"watch", "hanoi", src})
	}()
	for deadline := time.Now().Add(2 * time.Minute); !strings.Contains(out.String(), "distances to the goal after each move"); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("no explanation in two minutes:\n%s", out.String())
		}
	}
	typist.Write([]byte("q\n"))
	if code := <-done; code != exitOK {
		t.Errorf("watch: exit %d, want 0\n%s", code, out.String())
	}
	for _, want := range []string{
		"first failure: sample/01-sample WA",
		"case 3 of 3: 3 3 1 2 1 1 1 1",
		"start          after 19 moves: 12 31 32 12 23 21 31 23 12 13",
		" 3  3  1  2     1  1  1  1", // the pegs of the start and of the end
		" 1  1  1  1     1  1  1  1", // and the goal under them
		"went wrong at move 1 (12): it brings the goal no closer (15 moves from it before and after)",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("watch said\n%s\nwant %q", out.String(), want)
		}
	}
}
