package judging

import (
	"fmt"
	"sync"

	"github.com/optjudge/optjudge/reference/puzzle/engine"
)

// maxSolvers bounds the engine's solvers the process keeps for Puzzles to
// come: a long-lived judge (judge serve) loads a problem again at each
// new version, and would otherwise keep the tables of every puzzle it
// ever saw. A Puzzle holds its own solvers; the cache only spares the
// next Puzzle of the same definition building them again.
const maxSolvers = 64

// solvers are the engine's solvers by Spec key and cache directory, shared
// so that a definition loaded again (a problem's checker, reference and
// validator in other problems, a new version) finds its tables built.
var solvers = newSolverCache(maxSolvers)

// solverFor is the solver of sp with its tables kept in cacheDir; with
// simulate, one that only simulates and decides solvability
// (engine.Options.Simulate).
func solverFor(sp *engine.Spec, cacheDir string, simulate bool) (*engine.Solver, error) {
	key := fmt.Sprintf("%s\x00%s\x00%v", sp.Key(), cacheDir, simulate)
	return solvers.get(key, func() (*engine.Solver, error) {
		return engine.New(sp, engine.Options{CacheDir: cacheDir, Simulate: simulate})
	})
}

// solverCache keeps the max most recently used solvers. Callers of one
// key at the same time share one build; a failed build is not kept.
type solverCache struct {
	mu    sync.Mutex
	max   int
	clock uint64
	byKey map[string]*solverEntry
}

// solverEntry is a solver built or being built; s and err are set before
// done is closed.
type solverEntry struct {
	done chan struct{}
	s    *engine.Solver
	err  error
	used uint64 // the cache's clock at the last get
}

func newSolverCache(max int) *solverCache {
	return &solverCache{max: max, byKey: map[string]*solverEntry{}}
}

// get returns the solver of key, made by build when the cache has none.
func (c *solverCache) get(key string, build func() (*engine.Solver, error)) (*engine.Solver, error) {
	c.mu.Lock()
	c.clock++
	e := c.byKey[key]
	if e != nil {
		e.used = c.clock
		c.mu.Unlock()
		<-e.done
		return e.s, e.err
	}
	e = &solverEntry{done: make(chan struct{}), used: c.clock}
	c.byKey[key] = e
	c.mu.Unlock()

	e.s, e.err = build()
	close(e.done)

	c.mu.Lock()
	if e.err != nil && c.byKey[key] == e {
		delete(c.byKey, key) // the next caller tries again
	}
	c.evictLocked()
	c.mu.Unlock()
	return e.s, e.err
}

// evictLocked forgets the least recently used solvers while there are
// more than max, but those still being built.
func (c *solverCache) evictLocked() {
	for len(c.byKey) > c.max {
		var oldest string
		var at uint64
		for k, e := range c.byKey {
			if built(e) && (oldest == "" || e.used < at) {
				oldest, at = k, e.used
			}
		}
		if oldest == "" {
			return // every one being built: the next build's end evicts
		}
		delete(c.byKey, oldest)
	}
}

func built(e *solverEntry) bool {
	select {
	case <-e.done:
		return true
	default:
		return false
	}
}
