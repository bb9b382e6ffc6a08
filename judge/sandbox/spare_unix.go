//go:build unix

package sandbox

import (
	"fmt"
	"os"
	"runtime"
	"sync"

	"golang.org/x/sys/unix"
)

// spare is a supervisor made ahead of time: it has built the part of its
// box that is the same for every run (namespaces, the root's skeleton) and
// joined its cgroups, and waits for a run request on its own socket. A run
// on a spare is one message and one wakeup away.
type spare struct {
	id     uint64
	sock   int        // the judge's end of the spare's request socket
	report int        // the read end of its report pipe
	group  spareGroup // its cgroups, or nil
}

// spareGroup is the cgroups of one run, which a spare joins ahead of time.
// It is the run's meter.
type spareGroup interface {
	meter
	joins() []*os.File      // the cgroup.procs files the supervisor writes itself into
	setLimits(Limits) error // set the limits of the run
	remove() error          // remove it, once the supervisor has exited
	dropJoins()             // close the joins once passed on
}

// sparePool keeps a few spares ready (one per CPU, so that parallel runs
// each find one), made in the background with the limits of the last run.
type sparePool struct {
	z        *zygote
	newGroup func(Limits) (spareGroup, error) // nil: no cgroups
	want     int

	mu      sync.Mutex
	ready   []*spare
	last    Limits
	filling bool
	closed  bool
	work    sync.WaitGroup // the filler and the retirements in flight
	err     error          // the first retirement error, for close
}

func newSparePool(z *zygote, newGroup func(Limits) (spareGroup, error)) *sparePool {
	return &sparePool{z: z, newGroup: newGroup, want: max(2, runtime.NumCPU())}
}

// take returns a ready spare (or makes one) for a run with limits lim. The
// caller calls refill once the run is under way.
func (p *sparePool) take(lim Limits) (*spare, error) {
	p.mu.Lock()
	if p.z.exited() {
		// the spares die with the zygote; the next one restarts it
		for _, sp := range p.ready {
			p.retire(sp, nil)
		}
		p.ready = nil
	}
	var sp *spare
	for sp == nil && len(p.ready) > 0 {
		sp, p.ready = p.ready[0], p.ready[1:]
		if !alive(sp) {
			p.retire(sp, nil)
			sp = nil
		}
	}
	p.last = lim
	p.mu.Unlock()
	if sp == nil {
		var err error
		if sp, err = p.make(lim); err != nil {
			return nil, err
		}
	}
	if sp.group != nil {
		if err := sp.group.setLimits(lim); err != nil {
			p.retire(sp, nil)
			return nil, err
		}
	}
	return sp, nil
}

// refill makes spares in the background until want are ready.
func (p *sparePool) refill() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.filling && !p.closed && len(p.ready) < p.want {
		p.filling = true
		p.work.Add(1)
		go p.fill()
	}
}

// alive reports whether a ready spare still waits. It never writes to its
// socket: the judge's end is readable only once the spare's end is closed.
func alive(sp *spare) bool {
	fds := []unix.PollFd{{Fd: int32(sp.sock), Events: unix.POLLIN}}
	n, err := unix.Poll(fds, 0)
	return err == nil && n == 0
}

// fill makes spares until want are ready. A failure stops it: take then
// makes its spares itself, and reports the failure.
func (p *sparePool) fill() {
	defer p.work.Done()
	for {
		p.mu.Lock()
		if p.closed || len(p.ready) >= p.want {
			p.filling = false
			p.mu.Unlock()
			return
		}
		lim := p.last
		p.mu.Unlock()
		sp, err := p.make(lim)
		p.mu.Lock()
		if err != nil || p.closed {
			p.filling = false
			p.mu.Unlock()
			if sp != nil {
				p.retire(sp, nil)
			}
			return
		}
		p.ready = append(p.ready, sp)
		p.mu.Unlock()
	}
}

// make asks the zygote for a spare.
func (p *sparePool) make(lim Limits) (*spare, error) {
	var group spareGroup
	if p.newGroup != nil {
		g, err := p.newGroup(lim)
		if err != nil {
			return nil, err
		}
		group = g
	}
	fail := func(err error) (*spare, error) {
		if group != nil {
			group.remove()
		}
		return nil, fmt.Errorf("sandbox: making a spare: %w", err)
	}
	socks, err := socketpair()
	if err != nil {
		return fail(err)
	}
	report, reportW, err := pipe()
	if err != nil {
		unix.Close(socks[0])
		unix.Close(socks[1])
		return fail(err)
	}
	theirs := os.NewFile(uintptr(socks[1]), "spare")
	files := []*os.File{reportW, theirs}
	if group != nil {
		files = append(files, group.joins()...)
	}
	id, err := p.z.spare(files)
	reportW.Close()
	theirs.Close()
	if group != nil {
		group.dropJoins()
	}
	if err != nil {
		unix.Close(socks[0])
		unix.Close(report)
		return fail(err)
	}
	return &spare{id: id, sock: socks[0], report: report, group: group}, nil
}

// send hands the spare its run: the run's options, and stdin, stdout,
// stderr and the descriptors the options name (from 4 on).
func (sp *spare) send(args []string, files []*os.File) error {
	msg, oob := message(args, files)
	for {
		n, err := unix.SendmsgN(sp.sock, msg, oob, nil, 0)
		if err == unix.EINTR {
			continue
		}
		unix.Close(sp.sock)
		sp.sock = -1
		switch {
		case err != nil:
			return err
		case n < len(msg):
			return fmt.Errorf("short write (%d of %d bytes)", n, len(msg))
		}
		return nil
	}
}

// retire lets a spare go: once it has exited (its report pipe ends), its
// cgroups are removed, in the background. st, if not nil, is the run's
// reader of the pipe, to go on with.
func (p *sparePool) retire(sp *spare, st *runStatus) {
	if sp.sock >= 0 {
		unix.Close(sp.sock) // an unused spare exits at the end of its socket
		sp.sock = -1
	}
	if st == nil {
		st = newRunStatus(sp.report)
	}
	if sp.group == nil {
		st.close()
		return
	}
	p.retireGroup(sp.group, st)
}

// retireGroup removes a run's cgroups in the background, once its
// supervisor has exited (its report pipe st ends), at once if it never
// started (st is nil).
func (p *sparePool) retireGroup(g spareGroup, st *runStatus) {
	p.work.Add(1)
	go func() {
		defer p.work.Done()
		if st != nil {
			st.waitEnd()
			st.close()
		}
		if err := g.remove(); err != nil {
			p.mu.Lock()
			if p.err == nil {
				p.err = err
			}
			p.mu.Unlock()
		}
	}()
}

// close lets the ready spares go and waits for everything in the
// background to finish. Every Run must have returned.
func (p *sparePool) close() error {
	p.mu.Lock()
	p.closed = true
	ready := p.ready
	p.ready = nil
	p.mu.Unlock()
	for _, sp := range ready {
		p.retire(sp, nil)
	}
	p.work.Wait()
	return p.err
}
