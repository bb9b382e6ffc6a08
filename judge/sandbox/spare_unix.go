//go:build unix

package sandbox

import (
	"fmt"
	"os"
	"runtime"
	"slices"
	"sync"
	"time"

	"golang.org/x/sys/unix"
)

// spare is a supervisor made ahead of time: it has built the part of its
// box that is the same for every run (namespaces, the root's skeleton) and
// joined its cgroups, and waits for a run request on its own socket. A run
// on a spare is one message and one wakeup away.
//
// A spare is resident: after a run that ended by itself it waits for
// another (warm), with the root its first run built, cleaned and refreshed
// (see box_run in _csrc/box.c), out of that run's cgroups. The next run with
// the same mounts (the same key) then costs no new process, namespace or
// mount, only (with cgroups) a group made ahead of time.
type spare struct {
	id    uint64
	sock  int        // the judge's end of the spare's request socket
	life  *runStatus // its report pipe: pid, a setup failure, its end
	group spareGroup // its cgroups, or nil
	key   string     // what its first run mounted; "" before
	uid   int        // the box uid it holds, or -1
	runs  int        // the runs it has served
	// what its earlier runs count in its figures: its reaped children's
	// CPU ticks (as /proc/<pid>/stat has them) and its own and their CPU
	base    int64
	cpuBase time.Duration
}

// spareGroup is the cgroups of one run, which a fresh spare joins ahead of
// time and a warm one at the start of the run. It is the run's meter.
type spareGroup interface {
	meter
	joins() []*os.File      // the cgroup.procs files the supervisor writes itself into
	attach(*box)            // have the run's supervisor join it (-j)
	setLimits(Limits) error // set the limits of the run
	setBase(ticks int64)    // the supervisor's children's CPU ticks before the run
	remove() error          // remove it, once the supervisor has left it
	dropJoins()             // close the joins once passed on
}

// sparePool keeps a few spares ready (one per CPU, so that parallel runs
// each find one), made in the background with the limits of the last run.
type sparePool struct {
	z        *zygote
	newGroup func(Limits) (spareGroup, error) // nil: no cgroups
	uids     *boxUIDs                         // where the uids spares hold go back, or nil
	parks    []*os.File                       // where a resident spare goes after a run, with cgroups
	want     int

	mu      sync.Mutex
	ready   []*spare     // fresh spares
	warm    []*spare     // resident spares that served a run, newest last
	groups  []spareGroup // cgroups made ahead for the runs of warm spares
	last    Limits
	filling bool
	closed  bool
	work    sync.WaitGroup // the filler and the retirements in flight
	err     error          // the first retirement error, for close
}

func newSparePool(z *zygote, newGroup func(Limits) (spareGroup, error)) *sparePool {
	return &sparePool{z: z, newGroup: newGroup, want: max(2, runtime.NumCPU())}
}

// take returns a spare for a run with limits lim: a warm one that served a
// run with the same key, else a ready one (or a new one). The caller calls
// refill once the run is under way, and done when it is over.
func (p *sparePool) take(lim Limits, key string) (*spare, error) {
	p.mu.Lock()
	if p.z.exited() {
		// the spares die with the zygote; the next one restarts it
		for _, sp := range append(p.ready, p.warm...) {
			p.retire(sp)
		}
		p.ready, p.warm = nil, nil
	}
	var sp *spare
	for i := len(p.warm) - 1; i >= 0 && sp == nil && key != ""; i-- {
		if p.warm[i].key == key {
			sp = p.warm[i]
			p.warm = slices.Delete(p.warm, i, i+1)
			if !alive(sp) {
				p.retire(sp)
				sp = nil
			}
		}
	}
	var group spareGroup
	if sp != nil && p.newGroup != nil && len(p.groups) > 0 {
		group, p.groups = p.groups[0], p.groups[1:]
	}
	for sp == nil && len(p.ready) > 0 {
		sp, p.ready = p.ready[0], p.ready[1:]
		if !alive(sp) {
			p.retire(sp)
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
	if sp.runs > 0 && p.newGroup != nil {
		// a warm spare left its last run's cgroups: it joins new ones
		if group == nil {
			var err error
			if group, err = p.newGroup(lim); err != nil {
				p.retire(sp)
				return nil, err
			}
		}
		sp.group = group
	}
	if sp.group != nil {
		if err := sp.group.setLimits(lim); err != nil {
			p.retire(sp)
			return nil, err
		}
	}
	return sp, nil
}

// refill makes spares in the background until want are ready.
func (p *sparePool) refill() {
	p.mu.Lock()
	defer p.mu.Unlock()
	short := len(p.ready) < p.want || (p.newGroup != nil && len(p.warm) > 0 && len(p.groups) < p.want)
	if !p.filling && !p.closed && short {
		p.filling = true
		p.work.Add(1)
		go p.fill()
	}
}

// done takes a spare back after its run. One that may serve again (its
// report said so: the run ended by itself, its box is clean and it left
// the run's cgroups) is kept warm under key while the pool is open, and
// the run's cgroups are removed; any other is let go. At most want spares
// are kept warm: the oldest goes first.
func (p *sparePool) done(sp *spare, again bool, key string) {
	sp.runs++
	p.mu.Lock()
	if !again || key == "" || p.closed || p.z.exited() {
		p.mu.Unlock()
		p.retire(sp)
		return
	}
	if sp.group != nil {
		p.retireGroup(sp.group, nil)
		sp.group = nil
	}
	sp.key = key
	p.warm = append(p.warm, sp)
	var old *spare
	if len(p.warm) > p.want {
		old = p.warm[0]
		p.warm = slices.Delete(p.warm, 0, 1)
	}
	p.mu.Unlock()
	if old != nil {
		p.retire(old)
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
			groups := p.newGroup != nil && len(p.warm) > 0
			p.mu.Unlock()
			if groups {
				p.fillGroups()
			}
			p.mu.Lock()
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
				p.retire(sp)
			}
			return
		}
		p.ready = append(p.ready, sp)
		p.mu.Unlock()
	}
}

// fillGroups makes cgroups for the runs of warm spares until want are
// ready.
func (p *sparePool) fillGroups() {
	for {
		p.mu.Lock()
		if p.closed || len(p.groups) >= p.want {
			p.mu.Unlock()
			return
		}
		lim := p.last
		p.mu.Unlock()
		g, err := p.newGroup(lim)
		if err != nil {
			return
		}
		p.mu.Lock()
		if p.closed {
			p.mu.Unlock()
			p.retireGroup(g, nil)
			return
		}
		p.groups = append(p.groups, g)
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
	id, err := p.z.spare(append(files, p.parks...), len(p.parks))
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
	return &spare{id: id, sock: socks[0], life: newRunStatus(report), group: group, uid: -1}, nil
}

// send hands the spare its run: the run's options, and stdin, stdout,
// stderr, the run's report and the descriptors the options name (from 4
// on). A spare that cannot take it is of no more use.
func (sp *spare) send(args []string, files []*os.File) error {
	msg, oob := message(args, files)
	for {
		n, err := unix.SendmsgN(sp.sock, msg, oob, nil, 0)
		if err == unix.EINTR {
			continue
		}
		if err != nil || n < len(msg) {
			unix.Close(sp.sock)
			sp.sock = -1
		}
		switch {
		case err != nil:
			return err
		case n < len(msg):
			return fmt.Errorf("short write (%d of %d bytes)", n, len(msg))
		}
		return nil
	}
}

// retire lets a spare go: it exits at the end of its socket (after its
// run, if one is under way); once it has (its report pipe ends), its
// cgroups are removed and its box uid freed, in the background.
func (p *sparePool) retire(sp *spare) {
	if sp.sock >= 0 {
		unix.Close(sp.sock)
		sp.sock = -1
	}
	if sp.group == nil && sp.uid < 0 {
		sp.life.close()
		return
	}
	p.work.Add(1)
	go func() {
		defer p.work.Done()
		sp.life.waitEnd()
		sp.life.close()
		if sp.uid >= 0 && p.uids != nil {
			p.uids.put(sp.uid)
		}
		if sp.group == nil {
			return
		}
		if err := sp.group.remove(); err != nil {
			p.mu.Lock()
			if p.err == nil {
				p.err = err
			}
			p.mu.Unlock()
		}
	}()
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
	ready := append(p.ready, p.warm...)
	groups := p.groups
	p.ready, p.warm, p.groups = nil, nil, nil
	p.mu.Unlock()
	for _, sp := range ready {
		p.retire(sp)
	}
	for _, g := range groups {
		p.retireGroup(g, nil)
	}
	p.work.Wait()
	return p.err
}
