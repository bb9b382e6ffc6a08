//go:build linux

package sandbox

import (
	"bufio"
	"context"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/optjudge/optjudge/bytesize"
	"golang.org/x/sys/unix"
)

// pipes makes the two pipes of an interaction: toProg (the test writes,
// the program reads) and fromProg (the program writes, the test reads).
func pipes(t *testing.T) (toProgR, toProgW, fromProgR, fromProgW *os.File) {
	t.Helper()
	a, b, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	c, d, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		for _, f := range []*os.File{a, b, c, d} {
			f.Close()
		}
	})
	return a, b, c, d
}

// runAsync runs c on the level's sandbox in the background; the channel
// gets the result once Run returns.
func runAsync(t *testing.T, level string, c *Cmd) <-chan *Result {
	t.Helper()
	if c.Dir == "" {
		c.Dir = t.TempDir()
	}
	sb := useBox(t, level)
	done := make(chan *Result, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		res, err := sb.Run(ctx, c)
		if err != nil {
			t.Errorf("Run: %v", err)
		}
		done <- res
	}()
	return done
}

// TestPipes talks with a program through StdinPipe and StdoutPipe, line
// by line, as an interactive validator does.
func TestPipes(t *testing.T) {
	for _, level := range levels {
		t.Run(level, func(t *testing.T) {
			inR, inW, outR, outW := pipes(t)
			done := runAsync(t, level, &Cmd{Path: "cat", StdinPipe: inR, StdoutPipe: outW, Limits: Limits{CPU: 5 * time.Second}})
			lines := bufio.NewReader(outR)
			for _, q := range []string{"1\n", "two\n", "3 3 3\n"} {
				if _, err := io.WriteString(inW, q); err != nil {
					t.Fatal(err)
				}
				got, err := lines.ReadString('\n')
				if err != nil || got != q {
					t.Fatalf("got %q (%v), want %q back", got, err, q)
				}
			}
			inW.Close() // cat sees the end and exits
			res := <-done
			outW.Close()
			rest, _ := io.ReadAll(lines)
			if res == nil || res.Status != OK || len(res.Stdout) != 0 || len(rest) != 0 {
				t.Fatalf("got %+v and %q after the end, want OK, no Stdout kept and nothing more", res, rest)
			}
		})
	}
}

func TestPipeOutputLimit(t *testing.T) {
	for _, level := range levels {
		t.Run(level, func(t *testing.T) {
			inR, _, outR, outW := pipes(t)
			read := make(chan int64)
			go func() {
				n, _ := io.Copy(io.Discard, outR)
				read <- n
			}()
			res := <-runAsync(t, level, &Cmd{Path: program(t, "ojflood"), Args: []string{"1", "1024"}, StdinPipe: inR, StdoutPipe: outW,
				Limits: Limits{CPU: 10 * time.Second, Output: bytesize.MiB}})
			outW.Close()
			n := <-read
			if res == nil || res.Status != OutputLimit || !res.OutputExceeded || len(res.Stdout) != 0 {
				t.Fatalf("got %+v, want %v with no Stdout kept", res, OutputLimit)
			}
			if n != int64(bytesize.MiB) {
				t.Errorf("the reader got %d bytes, want the 1 MiB of the limit", n)
			}
		})
	}
}

// TestPipeBackpressure: a reader that takes nothing holds the program up
// (it blocks in write, as on a pipe of its own) until the wall limit; the
// judge buffers no more than a chunk.
func TestPipeBackpressure(t *testing.T) {
	for _, level := range levels {
		t.Run(level, func(t *testing.T) {
			inR, _, outR, outW := pipes(t)
			res := <-runAsync(t, level, &Cmd{Path: program(t, "ojflood"), Args: []string{"1", "1024"}, StdinPipe: inR, StdoutPipe: outW,
				Limits: Limits{CPU: 10 * time.Second, Wall: 500 * time.Millisecond}})
			outW.Close()
			n, _ := io.Copy(io.Discard, outR)
			if res == nil || res.Status != WallTimeLimit {
				t.Fatalf("got %+v, want %v", res, WallTimeLimit)
			}
			if n >= int64(64*bytesize.MiB) {
				t.Errorf("the pipe held %d bytes, want what a pipe holds", n)
			}
			noneLeft(t, "ojflood")
		})
	}
}

// TestPipeReaderGone: output the reader no longer takes is dropped; the
// program is not killed by SIGPIPE for it.
func TestPipeReaderGone(t *testing.T) {
	for _, level := range levels {
		t.Run(level, func(t *testing.T) {
			inR, _, outR, outW := pipes(t)
			outR.Close()
			res := <-runAsync(t, level, &Cmd{Path: program(t, "ojflood"), Args: []string{"1", "8"}, StdinPipe: inR, StdoutPipe: outW,
				Limits: Limits{CPU: 10 * time.Second}})
			if res == nil || res.Status != OK {
				t.Fatalf("got %+v, want OK", res)
			}
		})
	}
}

func TestPipeErrors(t *testing.T) {
	inR, _, _, _ := pipes(t)
	sb := useBox(t, levels[0])
	_, err := sb.Run(context.Background(), &Cmd{Path: "cat", Dir: t.TempDir(), StdinPipe: inR, Stdin: []byte("x")})
	if err == nil || !strings.Contains(err.Error(), "StdinPipe excludes") {
		t.Errorf("StdinPipe with Stdin: got %v, want an error", err)
	}
}

// TestProbe looks into a run through a Probe: cat asleep reading its
// input pipe is seen so, on that pipe, and seen to have run once it got
// a line; sleep is never seen waiting on a pipe; Stop ends a run as
// Stalled, with its own wall time.
func TestProbe(t *testing.T) {
	for _, level := range levels {
		t.Run(level, func(t *testing.T) {
			inR, inW, outR, outW := pipes(t)
			p := &Probe{}
			done := runAsync(t, level, &Cmd{Path: "cat", StdinPipe: inR, StdoutPipe: outW, Probe: p,
				Limits: Limits{CPU: 5 * time.Second, Wall: time.Minute}})
			waiting := func() Waiting {
				t.Helper()
				for end := time.Now().Add(20 * time.Second); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
					if w, ok := p.Waiting(); ok {
						return w
					}
				}
				t.Fatal("cat was never seen asleep reading its input")
				return Waiting{}
			}
			w1 := waiting()
			var st unix.Stat_t
			if err := unix.Fstat(int(inR.Fd()), &st); err != nil {
				t.Fatal(err)
			}
			if len(w1.Pipes) != 1 || w1.Pipes[0] != st.Ino || len(w1.Threads) != 1 || w1.Held != 0 {
				t.Fatalf("got %+v, want one thread on pipe %d, nothing held", w1, st.Ino)
			}
			io.WriteString(inW, "x\n")
			if got, err := bufio.NewReader(outR).ReadString('\n'); err != nil || got != "x\n" {
				t.Fatalf("got %q (%v) back", got, err)
			}
			if w2 := waiting(); w2.Same(w1) {
				t.Errorf("cat ran, but two looks around it saw the same: %+v", w2)
			}
			p.Stop()
			res := <-done
			if res == nil || res.Status != Stalled || res.Wall > 30*time.Second {
				t.Fatalf("got %+v, want Stalled well before the wall limit", res)
			}
			if _, ok := p.Waiting(); ok {
				t.Error("a run that ended is still seen waiting")
			}

			inR2, _, _, outW2 := pipes(t)
			p2 := &Probe{}
			done = runAsync(t, level, &Cmd{Path: "sleep", Args: []string{"1"}, StdinPipe: inR2, StdoutPipe: outW2, Probe: p2,
				Limits: Limits{CPU: 5 * time.Second, Wall: time.Minute}})
			seen := false
			for {
				select {
				case res = <-done:
				default:
					if _, ok := p2.Waiting(); ok {
						seen = true
					}
					time.Sleep(20 * time.Millisecond)
					continue
				}
				break
			}
			if seen || res == nil || res.Status != OK {
				t.Errorf("sleep: seen waiting on a pipe %v, ended %+v; want never, OK", seen, res)
			}
		})
	}
}

// TestProbeOutputClosed runs a program that writes, closes its standard
// output and then reads: once all it wrote has gone on, the Probe says
// its output is closed, and the reader of StdoutPipe sees the end while
// the program still runs, as soon as the caller closes its own copy.
func TestProbeOutputClosed(t *testing.T) {
	for _, level := range levels {
		t.Run(level, func(t *testing.T) {
			inR, inW, outR, outW := pipes(t)
			p := &Probe{}
			// it waits for a first line before it writes: the look before
			// that line cannot come after the close
			done := runAsync(t, level, &Cmd{Path: "sh", Args: []string{"-c", "read go; echo hi; exec >&-; read x; test \"$x\" = bye"},
				StdinPipe: inR, StdoutPipe: outW, Probe: p, Limits: Limits{CPU: 5 * time.Second, Wall: time.Minute}})
			if p.OutputClosed() {
				t.Error("closed before anything went on")
			}
			io.WriteString(inW, "go\n")
			closed := false
			for end := time.Now().Add(20 * time.Second); time.Now().Before(end) && !closed; time.Sleep(10 * time.Millisecond) {
				closed = p.OutputClosed()
			}
			if !closed {
				t.Fatal("the program closed its output, but the probe never said so")
			}
			outW.Close()
			got, err := io.ReadAll(outR) // the end, while the program runs
			if err != nil || string(got) != "hi\n" {
				t.Fatalf("read %q (%v), want all of hi", got, err)
			}
			io.WriteString(inW, "bye\n")
			if res := <-done; res == nil || res.Status != OK {
				t.Fatalf("got %+v, want OK", res)
			}
			if p.OutputClosed() {
				t.Error("a run that ended is still seen")
			}
		})
	}
}
