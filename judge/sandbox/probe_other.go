//go:build unix && !linux

package sandbox

// waiting is Probe.Waiting: this system does not show what a thread waits
// for, so never ok.
func (e *execution) waiting() (Waiting, bool) { return Waiting{}, false }

// asleep is false: the sandbox cannot see the threads' states here.
func (e *execution) asleep() bool { return false }
