package engine

import (
	"runtime"
	"sync"
)

// A graph's exploration expands its states in batches, on several cores:
// every worker expands a run of the batch's states, keys the states their
// moves lead to and looks them up among the states numbered before the
// batch (which no one changes meanwhile); then the moves are recorded,
// and the states no lookup found numbered, in the order of the states
// expanded and of their moves, as expand does one state at a time. The
// graph comes out the same, state for state, and so do its errors: the
// first in that order.
const (
	batchStates = 4096 // the most states a batch expands
	minBatch    = 256  // the fewest: below, one at a time
	maxWorkers  = 8
)

// workersFor is how many workers a graph's batches use.
func workersFor() int { return min(runtime.GOMAXPROCS(0), maxWorkers) }

// batchWorker is one worker's share of a batch: what each move of its
// states led to, in order.
type batchWorker struct {
	g *graphOf
	// moves are the moves found, each to the state numbered to, or (to <
	// 0) to the state of new[-1-to], which no lookup found
	moves  []edge
	new    []newState
	counts []int32 // the moves of each state of the run
	// keys and states of the states not found, one after another
	keys, states []uint8
	key          []uint8 // a buffer
	err          error
	errAt        int32 // the state whose expansion failed
	onMove       func(m int, next []uint8)
}

// newState is a state a move led to that the worker did not find: its key,
// the key's hash and its state, at key and state in the worker's keys and
// states.
type newState struct {
	key, state, keyLen int32
	hash               uint64
}

// workerPool keeps batch workers' buffers from one graph to the next.
var workerPool = sync.Pool{New: func() any { return &batchWorker{} }}

// expandBatch expands the states from to to (from < to).
func (g *graphOf) expandBatch(from, to int) error {
	n := min(g.workers, to-from)
	g.batched = true
	for len(g.batch) < n {
		w := workerPool.Get().(*batchWorker)
		w.g = g
		w.onMove = w.found
		g.batch = append(g.batch, w)
	}
	var wg sync.WaitGroup
	for i, w := range g.batch[:n] {
		a, b := from+(to-from)*i/n, from+(to-from)*(i+1)/n
		wg.Add(1)
		go func() {
			defer wg.Done()
			w.run(int32(a), int32(b))
		}()
	}
	wg.Wait()
	u := int32(from)
	for _, w := range g.batch[:n] {
		if err := g.merge(w, &u); err != nil {
			return err
		}
	}
	return nil
}

// release gives the graph's workers back to the pool.
func (g *graphOf) release() {
	for _, w := range g.batch {
		w.g, w.onMove = nil, nil
		workerPool.Put(w)
	}
	g.batch = nil
}

// run expands the states from a to b, stopping at the first error.
func (w *batchWorker) run(a, b int32) {
	w.moves, w.new, w.counts, w.keys, w.states, w.err = w.moves[:0], w.new[:0], w.counts[:0], w.keys[:0], w.states[:0], nil
	for u := a; u < b; u++ {
		before := len(w.moves)
		if err := w.g.r.Successors(w.g.state(u), w.onMove); err != nil {
			w.err, w.errAt = err, u
		}
		w.counts = append(w.counts, int32(len(w.moves)-before))
		if w.err != nil {
			return
		}
	}
}

// found looks up the state move m led to.
func (w *batchWorker) found(m int, next []uint8) {
	g := w.g
	w.key = g.r.Key(w.key[:0], next)
	h := g.keys.hash(w.key)
	v, _ := g.keys.locateHashed(w.key, h)
	if v < 0 {
		w.new = append(w.new, newState{key: int32(len(w.keys)), keyLen: int32(len(w.key)), state: int32(len(w.states)), hash: h})
		w.keys = append(w.keys, w.key...)
		w.states = append(w.states, next...)
		v = -len(w.new)
	}
	w.moves = append(w.moves, edge{int32(v), int32(m)})
}

// merge records the moves the worker found, from state *u on, numbering
// the new states; then returns the worker's error, if it had one.
func (g *graphOf) merge(w *batchWorker, u *int32) error {
	k := 0
	for _, c := range w.counts {
		from := len(g.edges)
		g.edges = append(roomFor(g.edges, int(c)), w.moves[k:k+int(c)]...)
		for i := range g.edges[from:] {
			if e := &g.edges[from+i]; e.to < 0 {
				v, err := g.addFound(w, *u, w.new[-1-e.to], int(e.move))
				if err != nil {
					return err
				}
				e.to = v
			}
		}
		k += int(c)
		if w.err != nil && *u == w.errAt {
			return w.err
		}
		g.off = append(g.off, int32(len(g.edges)))
		*u++
	}
	return w.err
}

// addFound numbers the state f that move m from u led to, which the
// worker did not find, unless an earlier move of the batch led there too.
func (g *graphOf) addFound(w *batchWorker, u int32, f newState, m int) (int32, error) {
	key := w.keys[f.key : f.key+f.keyLen]
	st := w.states[f.state : int(f.state)+g.sp.Cells]
	v, at := g.keys.locateHashed(key, f.hash)
	if v >= 0 {
		return int32(v), nil
	}
	nv, err := g.addNew(key, at, st)
	if err == nil && int(nv) <= checkedStates {
		err = g.checkValid(g.state(u), m, st)
	}
	return nv, err
}
