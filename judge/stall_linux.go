package judge

import (
	"bytes"
	"os"
)

// alarmsArmed says whether any process of the machine has an alarm(2) or
// setitimer(2) ITIMER_REAL timer running (/proc/timer_list: an active
// hrtimer whose function is it_real_fn). The kernel shows no process's
// own: a program asleep reading its input with an alarm set would be
// woken (or killed) by SIGALRM, so a stall is declared only when no such
// timer runs anywhere. known is false when the list cannot be read (it
// is root's).
func alarmsArmed() (armed, known bool) {
	b, err := os.ReadFile("/proc/timer_list")
	if err != nil {
		return false, false
	}
	return bytes.Contains(b, []byte(", it_real_fn,")), true
}
