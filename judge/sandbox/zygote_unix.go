//go:build unix

package sandbox

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"net"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// zygoteStartup bounds how long the zygote may take to build its template
// and say it is ready.
const zygoteStartup = 10 * time.Second

// zygote is the resident helper of one Sandbox (_csrc/zygote.c). Started once
// (again if it dies), it makes the supervisors on request: the spares of the
// pool, and a supervisor for a run that cannot go to a spare. So no helper is
// executed per run, and a supervisor is a fork of a tiny static process, not
// of the judge. Requests go over a Unix socket; a supervisor and the zygote
// report on a pipe of the supervisor's own (see runStatus).
type zygote struct {
	helper string
	args   []string             // the zygote's own options (template, spares)
	files  []*os.File           // descriptors its options name, from 4 on
	attr   *syscall.SysProcAttr // the zygote's namespaces

	mu     sync.Mutex // serializes requests and restarts
	conn   *net.UnixConn
	proc   *os.Process
	dead   chan struct{} // closed once proc has exited
	closed bool
	ids    atomic.Uint64
}

func newZygote(helper string, args []string, files []*os.File, attr *syscall.SysProcAttr) (*zygote, error) {
	z := &zygote{helper: helper, args: args, files: files, attr: attr}
	if err := z.spawn(); err != nil {
		return nil, err
	}
	return z, nil
}

// spawn starts the zygote and waits until it is ready. z.mu is held or z is
// not shared yet.
func (z *zygote) spawn() error {
	fds, err := socketpair()
	if err != nil {
		return fmt.Errorf("sandbox: starting the helper: %w", err)
	}
	mine, theirs := os.NewFile(uintptr(fds[0]), "zygote"), os.NewFile(uintptr(fds[1]), "zygote")
	defer mine.Close()
	null, err := os.Open(os.DevNull)
	if err != nil {
		theirs.Close()
		return fmt.Errorf("sandbox: starting the helper: %w", err)
	}
	args := append([]string{z.helper, "-s", "3"}, z.args...)
	proc, err := os.StartProcess(z.helper, args, &os.ProcAttr{
		Dir: "/", Env: []string{}, Files: append([]*os.File{null, null, null, theirs}, z.files...), Sys: z.attr,
	})
	theirs.Close()
	null.Close()
	if err != nil {
		return fmt.Errorf("sandbox: starting the helper: %w", err)
	}
	dead := make(chan struct{})
	go func() {
		proc.Wait()
		close(dead)
	}()
	c, err := net.FileConn(mine)
	if err == nil {
		err = ready(c)
	}
	if err != nil {
		if c != nil {
			c.Close()
		}
		proc.Kill()
		<-dead
		return err
	}
	z.conn, z.proc, z.dead = c.(*net.UnixConn), proc, dead
	return nil
}

// ready reads the zygote's first line: "ok", or the error it met building
// its template.
func ready(c net.Conn) error {
	c.SetReadDeadline(time.Now().Add(zygoteStartup))
	defer c.SetReadDeadline(time.Time{})
	line, err := bufio.NewReader(c).ReadString('\n')
	switch {
	case line == "ok\n":
		return nil
	case strings.HasPrefix(line, "err "):
		errno, msg, _ := strings.Cut(strings.TrimSpace(strings.TrimPrefix(line, "err ")), " ")
		n, _ := strconv.Atoi(errno)
		return &HelperError{Errno: syscall.Errno(n), Msg: msg}
	case err != nil:
		return fmt.Errorf("sandbox: the helper did not start: %w", err)
	}
	return fmt.Errorf("sandbox: the helper said %q", line)
}

// spare asks for a spare: files are its report pipe, its request socket,
// the cgroup.procs files it joins and, the last nparks, those of its park.
// It returns the spare's id.
func (z *zygote) spare(files []*os.File, nparks int) (uint64, error) {
	id := z.ids.Add(1)
	return id, z.send([]string{"n", strconv.FormatUint(id, 10), strconv.Itoa(nparks)}, files, true)
}

// fresh asks for a run on a supervisor cloned for it with flags and all of
// args. files are the run's stdin, stdout, stderr and report, then those the
// options name from 4 on. It returns the run's id.
func (z *zygote) fresh(flags uintptr, args []string, files []*os.File) (uint64, error) {
	id := z.ids.Add(1)
	words := append([]string{"r", strconv.FormatUint(id, 10), strconv.FormatUint(uint64(flags), 10)}, args...)
	return id, z.send(words, files, true)
}

// signal asks the zygote to signal run id's supervisor, if it still runs:
// SIGTERM to have it kill its tree and report, SIGKILL when it does not.
func (z *zygote) signal(id uint64, sig syscall.Signal) error {
	return z.send([]string{"k", strconv.FormatUint(id, 10), strconv.Itoa(int(sig))}, nil, false)
}

// message encodes a request: its length, its NUL-terminated words, and the
// descriptors as an SCM_RIGHTS message.
func message(words []string, files []*os.File) (msg, oob []byte) {
	n := 4
	for _, w := range words {
		n += len(w) + 1
	}
	msg = make([]byte, 4, n)
	binary.LittleEndian.PutUint32(msg, uint32(n-4))
	for _, w := range words {
		msg = append(append(msg, w...), 0)
	}
	if len(files) > 0 {
		fds := make([]int, len(files))
		for i, f := range files {
			// Fd puts a pipe in blocking mode, as the contestant's streams
			// must be; the judge closes its copies once they are sent
			fds[i] = int(f.Fd())
		}
		oob = syscall.UnixRights(fds...)
	}
	return msg, oob
}

// send writes one request. A request for a run or a spare restarts a zygote
// that died.
func (z *zygote) send(words []string, files []*os.File, restart bool) error {
	msg, oob := message(words, files)
	z.mu.Lock()
	defer z.mu.Unlock()
	if z.closed {
		return errors.New("sandbox: Run after Close")
	}
	if restart && isClosed(z.dead) {
		z.conn.Close()
		if err := z.spawn(); err != nil {
			return fmt.Errorf("sandbox: restarting the helper: %w", err)
		}
	}
	w, _, err := z.conn.WriteMsgUnix(msg, oob, nil)
	if err == nil && w < len(msg) {
		_, err = z.conn.Write(msg[w:])
	}
	if err != nil {
		return fmt.Errorf("sandbox: talking to the helper: %w", err)
	}
	return nil
}

// exited reports whether the zygote has died (it is restarted by the next
// request for a run or a spare).
func (z *zygote) exited() bool {
	z.mu.Lock()
	defer z.mu.Unlock()
	return isClosed(z.dead)
}

func isClosed(c chan struct{}) bool {
	select {
	case <-c:
		return true
	default:
		return false
	}
}

// close stops the zygote: at the end of its socket it kills what still runs
// and exits.
func (z *zygote) close() error {
	z.mu.Lock()
	defer z.mu.Unlock()
	if z.closed {
		return nil
	}
	z.closed = true
	z.conn.Close()
	select {
	case <-z.dead:
		return nil
	case <-time.After(killGrace):
		z.proc.Kill()
		<-z.dead
		return errors.New("sandbox: the helper did not exit")
	}
}
