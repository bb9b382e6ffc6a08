package judge

import (
	"flag"
	"os/exec"
	"testing"
	"time"
)

var alarmLooks = flag.Int("alarm-looks", 10000, "how many looks TestAlarmsArmed takes")

// TestAlarmsArmed reads the machine's timers many times while a child has
// an alarm(100) set: every read must see it. One read of
// /proc/timer_list skips a timer now and then (0.3% of reads here), which
// declared a stall under a reader whose alarm was about to end it.
func TestAlarmsArmed(t *testing.T) {
	if _, known := alarmsArmed(); !known {
		t.Skip("/proc/timer_list cannot be read (it is root's)")
	}
	cmd := exec.Command("python3", "-c", "import signal, sys\nsignal.alarm(100)\nprint(flush=True)\nsys.stdin.read()\n")
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Skipf("python3: %v", err)
	}
	defer func() {
		in.Close()
		cmd.Process.Kill()
		cmd.Wait()
	}()
	if _, err := out.Read(make([]byte, 1)); err != nil { // its alarm is set
		t.Fatalf("reading the child's line: %v", err)
	}
	// timers that come and go beside it, as a busy machine has
	stop := make(chan struct{})
	defer close(stop)
	for i := range 50 {
		go func() {
			for {
				select {
				case <-stop:
					return
				case <-time.After(time.Duration(20+i) * time.Microsecond):
				}
			}
		}()
	}
	reads := *alarmLooks
	if testing.Short() && reads == 10000 {
		// a fifth: the miss was 0.3% of looks, so 2000 looks see about
		// six (none with a chance of 0.25%); the full run takes 10000
		reads = 2000
	}
	missed := 0
	start := time.Now()
	for range reads {
		if armed, _ := alarmsArmed(); !armed {
			missed++
		}
	}
	if missed > 0 {
		t.Errorf("%d of %d looks missed the child's alarm(100)", missed, reads)
	}
	t.Logf("%d looks in %s", reads, time.Since(start))
}
