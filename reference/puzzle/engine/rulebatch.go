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
	g      *graphOf
	from   int32 // the state being expanded
	moves  []batchMove
	counts []int32 // the moves of each state of the run
	// keys and states of the states not found, one after another
	keys, states []uint8
	key          []uint8 // a buffer
	err          error
	errAt        int32 // the state whose expansion failed
	onMove       func(m int, next []uint8)
}

// batchMove is a move found: to the state numbered to, or (to < 0) to a
// state not found, whose key and state are the worker's keys and states
// at key and state.
type batchMove struct {
	to, move   int32
	key, state int32
	keyLen     int32
	hash       uint64
}

// expandBatch expands the states from to to (from < to).
func (g *graphOf) expandBatch(from, to int) error {
	n := min(g.workers, to-from)
	if len(g.batch) < n {
		g.batch = make([]*batchWorker, n)
		for i := range g.batch {
			w := &batchWorker{g: g}
			w.onMove = w.found
			g.batch[i] = w
		}
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

// run expands the states from a to b, stopping at the first error.
func (w *batchWorker) run(a, b int32) {
	w.moves, w.counts, w.keys, w.states, w.err = w.moves[:0], w.counts[:0], w.keys[:0], w.states[:0], nil
	for u := a; u < b; u++ {
		w.from = u
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
	bm := batchMove{to: int32(v), move: int32(m)}
	if v < 0 {
		bm.key, bm.keyLen, bm.state, bm.hash = int32(len(w.keys)), int32(len(w.key)), int32(len(w.states)), h
		w.keys = append(w.keys, w.key...)
		w.states = append(w.states, next...)
	}
	w.moves = append(w.moves, bm)
}

// merge records the moves the worker found, from state *u on, numbering
// the new states; then returns the worker's error, if it had one.
func (g *graphOf) merge(w *batchWorker, u *int32) error {
	k := 0
	for _, c := range w.counts {
		for _, bm := range w.moves[k : k+int(c)] {
			v := bm.to
			if v < 0 {
				var err error
				if v, err = g.addFound(w, *u, bm); err != nil {
					return err
				}
			}
			g.edges = append(roomFor(g.edges, 1), edge{v, bm.move})
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

// addFound numbers the state of a move from u that the worker did not
// find, unless an earlier move of the batch led there too.
func (g *graphOf) addFound(w *batchWorker, u int32, bm batchMove) (int32, error) {
	key := w.keys[bm.key : bm.key+bm.keyLen]
	st := w.states[bm.state : int(bm.state)+g.sp.Cells]
	v, at := g.keys.locateHashed(key, bm.hash)
	if v >= 0 {
		return int32(v), nil
	}
	nv, err := g.addNew(key, at, st)
	if err == nil && int(nv) <= checkedStates {
		err = g.checkValid(g.state(u), int(bm.move), st)
	}
	return nv, err
}
