//go:build unix

package sandbox

import (
	"bytes"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// runStatus reads one run's report pipe, where the zygote and the
// supervisor write, in whatever order they come:
//
//	p PID START                 the supervisor's pid and start time (zygote)
//	t MICROSECONDS STEP         a traced step (supervisor, when tracing)
//	ok ... | err ...            the supervisor's report (see parseStatus)
//	x STATUS UTIME_US STIME_US  the supervisor's end (zygote)
type runStatus struct {
	fd    int
	buf   []byte
	ended bool // end of file: the supervisor was reaped (or lost)

	pid    int
	start  int64
	report string // the report line, "" until one came
	exit   *supervisorExit
	trace  []string
}

// supervisorExit is how the supervisor itself ended, for a run without a
// report (the supervisor was killed).
type supervisorExit struct {
	status syscall.WaitStatus
	cpu    time.Duration
}

func newRunStatus(fd int) *runStatus { return &runStatus{fd: fd} }

// done reports whether the run is over for the judge: the report came, or
// the supervisor ended without one.
func (st *runStatus) done() bool { return st.report != "" || st.ended }

// read takes what the pipe holds now (it is non-blocking).
func (st *runStatus) read() {
	if st.ended {
		return
	}
	if readAll(st.fd, func(b []byte) {
		st.buf = append(st.buf, b...)
		st.lines()
	}) {
		// end of file (or a broken pipe): a line without its newline is a
		// torn report, kept so that it fails to parse rather than vanishes
		st.ended = true
		if len(st.buf) > 0 && st.report == "" {
			st.report = string(st.buf)
		}
	}
}

// waitEnd reads the pipe to its end.
func (st *runStatus) waitEnd() {
	for !st.ended {
		st.read()
		if !st.ended {
			pollIn(time.Hour, st.fd)
		}
	}
}

func (st *runStatus) lines() {
	for {
		i := bytes.IndexByte(st.buf, '\n')
		if i < 0 {
			return
		}
		line := string(st.buf[:i])
		st.buf = st.buf[i+1:]
		kind, rest, _ := strings.Cut(line, " ")
		switch kind {
		case "p":
			if st.pid == 0 {
				pid, start, _ := strings.Cut(rest, " ")
				st.pid, _ = strconv.Atoi(pid)
				st.start, _ = strconv.ParseInt(start, 10, 64)
			}
		case "t":
			st.trace = append(st.trace, rest)
		case "x":
			st.exit = parseExit(rest)
		default:
			if st.report == "" {
				st.report = line
			}
		}
	}
}

// close closes the pipe; the zygote's last line then meets a closed pipe,
// which it ignores.
func (st *runStatus) close() {
	if st.fd >= 0 {
		unix.Close(st.fd)
		st.fd = -1
	}
}

// capture reads one of the contestant's output streams, keeping up to limit
// bytes, or passing them on to a sink (Cmd.StdoutPipe), a chunk at a time.
type capture struct {
	fd    int
	limit int64
	buf   []byte
	total int64
	ended bool

	sink     *sinkFD // the non-blocking descriptor the stream goes on to, or nil
	pending  []byte  // read, not yet taken by the sink: nothing more is read until it is
	passed   int64   // bytes the sink took
	sinkGone bool    // the sink's reader went away: the rest is dropped
	// held is len(pending), and reading is set around each read of the
	// stream, for a Probe (another goroutine): bytes are in the stream's
	// pipe, or reading, or held, until they are in the sink's
	held    atomic.Int64
	reading atomic.Bool
	// closed is set once the stream has ended while passed on to a sink:
	// all of it went on, and the sink is closed
	closed atomic.Bool
}

func (c *capture) read() {
	if c.ended {
		return
	}
	if c.sink != nil {
		c.forward()
		return
	}
	c.ended = readAll(c.fd, func(b []byte) {
		if keep := min(int64(len(b)), c.limit-int64(len(c.buf))); keep > 0 {
			c.buf = append(c.buf, b[:keep]...)
		}
		c.total += int64(len(b))
	})
}

// forward passes what the stream holds on to the sink, until the stream
// has nothing more, or the sink takes no more (then what is left waits in
// pending, and the stream is not read until the sink has taken it).
func (c *capture) forward() {
	chunk := chunks.Get().(*[64 << 10]byte)
	defer chunks.Put(chunk)
	for c.flush() {
		c.reading.Store(true) // until what it reads is held
		n, err := unix.Read(c.fd, chunk[:])
		switch {
		case n > 0:
			// what fits in the limit goes on; past it the watch
			// kills the tree, which it gets to now
			keep := min(int64(n), max(c.limit-c.total, 0))
			c.total += int64(n)
			if !c.sinkGone && keep > 0 {
				c.pending = append(c.pending[:0], chunk[:keep]...)
				c.held.Store(int64(len(c.pending)))
			}
			c.reading.Store(false)
			if c.total > c.limit {
				c.flush()
				return
			}
		case err == unix.EINTR:
			c.reading.Store(false)
		case err == unix.EAGAIN:
			c.reading.Store(false)
			return
		default:
			// the end: pending was flushed before this read, so all of
			// it went on, and the sink's reader may see the end too
			c.reading.Store(false)
			c.ended = true
			c.sink.close()
			c.closed.Store(true)
			return
		}
	}
}

// flush writes pending to the sink and reports whether all of it went.
func (c *capture) flush() bool {
	for len(c.pending) > 0 && !c.sinkGone {
		n, err := unix.Write(c.sink.fd, c.pending)
		switch {
		case n > 0:
			c.passed += int64(n)
			c.pending = c.pending[n:]
			c.held.Store(int64(len(c.pending)))
		case err == unix.EINTR:
		case err == unix.EAGAIN:
			return false
		default: // EPIPE: the reader is gone
			c.sinkGone = true
		}
	}
	c.pending = c.pending[:0]
	c.held.Store(0)
	return true
}

// blocked says whether the capture waits for its sink to take what is
// pending rather than for its stream.
func (c *capture) blocked() bool { return len(c.pending) > 0 && !c.sinkGone }

// outputClosed is Probe.OutputClosed.
func (e *execution) outputClosed() bool { return e.stdout.closed.Load() }

// done says whether the stream has ended and everything read went on.
func (c *capture) done() bool { return c.ended && !c.blocked() }

func (c *capture) close() {
	if c.fd >= 0 {
		unix.Close(c.fd)
		c.fd = -1
	}
	c.ended = true
	c.pending = nil
	c.sink.close()
}

// wait reads what the run's pipes hold and, unless enough, waits up to
// timeout for more (and reads that). It polls in the run's own goroutine
// rather than through the runtime's poller: the wakeup at the report is
// then one thread's, a fifth of a bare run cheaper here.
func (e *execution) wait(timeout time.Duration, enough func() bool) {
	e.read()
	if enough() {
		return
	}
	var fds []unix.PollFd
	if !e.status.ended {
		fds = append(fds, unix.PollFd{Fd: int32(e.status.fd), Events: unix.POLLIN})
	}
	for _, c := range []*capture{e.stdout, e.stderr} {
		switch {
		case c.blocked():
			fds = append(fds, unix.PollFd{Fd: int32(c.sink.fd), Events: unix.POLLOUT})
		case !c.ended:
			fds = append(fds, unix.PollFd{Fd: int32(c.fd), Events: unix.POLLIN})
		}
	}
	if len(fds) == 0 {
		return
	}
	if poll(timeout, fds) {
		e.read()
	}
}

func (e *execution) read() {
	e.status.read()
	e.stdout.read()
	e.stderr.read()
}

// waitEnd reads the report pipe to its end (and the outputs meanwhile).
func (e *execution) waitEnd() {
	for !e.status.ended {
		e.wait(time.Hour, func() bool { return e.status.ended })
	}
	if e.life != nil && e.status.report == "" {
		// the spare died: its own pipe tells how, and why if it could not
		// build its box
		e.life.waitEnd()
		e.status.report, e.status.exit = e.life.report, e.life.exit
	}
}

// pollIn waits up to timeout for one of fds to be readable (or closed).
func pollIn(timeout time.Duration, fds ...int) bool {
	p := make([]unix.PollFd, len(fds))
	for i, fd := range fds {
		p[i] = unix.PollFd{Fd: int32(fd), Events: unix.POLLIN}
	}
	return poll(timeout, p)
}

// poll waits up to timeout for one of fds to be ready (or closed).
func poll(timeout time.Duration, fds []unix.PollFd) bool {
	ms := int((timeout + time.Millisecond - 1) / time.Millisecond)
	n, err := unix.Poll(fds, ms)
	return err == nil && n > 0
}

// chunks are the read buffers of the pipes.
var chunks = sync.Pool{New: func() any { return new([64 << 10]byte) }}

// readAll reads a non-blocking descriptor until it has nothing more, and
// reports whether it reached its end (or failed).
func readAll(fd int, got func([]byte)) (ended bool) {
	chunk := chunks.Get().(*[64 << 10]byte)
	defer chunks.Put(chunk)
	for {
		n, err := unix.Read(fd, chunk[:])
		switch {
		case n > 0:
			got(chunk[:n])
		case err == unix.EINTR:
		case err == unix.EAGAIN:
			return false
		default:
			return true
		}
	}
}

func parseExit(s string) *supervisorExit {
	f := strings.Fields(s)
	if len(f) != 3 {
		return nil
	}
	var n [3]int64
	for i := range n {
		n[i], _ = strconv.ParseInt(f[i], 10, 64)
	}
	return &supervisorExit{status: syscall.WaitStatus(n[0]), cpu: time.Duration(n[1]+n[2]) * time.Microsecond}
}
