package engine

import (
	"container/heap"
	"context"
	"fmt"
	"math"
	"time"
)

// ruleDFS is the search of rules with a heuristic, for spaces too large
// to explore whole. A depth-first search from the case within a bound
// tries moves in the order the rules yield them and keeps, for every state
// it has left, a lower bound of its distance (at first the heuristic,
// then the least over its moves of the move's cost plus the bound of the
// state it leads to): a state whose bound passes what is left of the
// bound is not entered again. The first answer found within a bound that
// no answer can beat is then the lexicographically smallest of the
// optimal ones. MethodIDA raises the bound to the case's lower bound after
// each failed pass (Korf 1985, with a transposition table of bounds as in
// Reinefeld and Marsland 1994); MethodAStar first finds the optimum by A*
// (Hart, Nilsson and Raphael 1968) and searches once within it.
type ruleDFS struct {
	b      *rulesBackend
	ctx    context.Context
	start  time.Time
	lower  map[string]int32 // states left -> a lower bound of their distance
	path   []int
	states int
	key    []uint8
	err    error
}

// searchPath is the smallest optimal answer from st by the method's
// search: from both ends, or depth-first with the heuristic.
func (b *rulesBackend) searchPath(ctx context.Context, st []uint8) ([]int, error) {
	if b.m == MethodBidirectional {
		return b.bidirectional(ctx, st)
	}
	x := &ruleDFS{b: b, ctx: ctx, start: time.Now(), lower: map[string]int32{}}
	bound, err := x.h(st)
	if err != nil {
		return nil, err
	}
	if b.m == MethodAStar {
		if bound, err = b.astar(ctx, st); err != nil {
			return nil, err
		}
	}
	for {
		found, lb := x.dfs(st, bound)
		if x.err != nil {
			return nil, x.err
		}
		if found {
			return x.path, x.checkPath(st)
		}
		if lb == math.MaxInt32 {
			return nil, ErrUnsolvable
		}
		bound = int(lb)
	}
}

// h is the heuristic at st.
func (x *ruleDFS) h(st []uint8) (int, error) {
	h, _, err := x.b.r.Heuristic(st)
	return h, err
}

// dfs looks for an answer from st within cost left; it returns whether it
// found one (then in x.path) and else a lower bound of st's distance.
func (x *ruleDFS) dfs(st []uint8, left int) (bool, int32) {
	if ok, err := x.b.r.Goal(st); err != nil || ok {
		x.fail(err)
		return ok && err == nil, 0
	}
	x.key = x.b.r.Key(x.key[:0], st)
	lb, seen := x.lower[string(x.key)]
	if !seen {
		h, err := x.h(st)
		if err != nil || x.tick() != nil {
			x.fail(err)
			return false, math.MaxInt32
		}
		lb = int32(h)
	}
	if int(lb) > left {
		return false, lb
	}
	key := string(x.key)
	next := x.successors(st)
	best := int32(math.MaxInt32)
	for _, n := range next {
		c := x.b.sp.Moves[n.m].Cost
		x.path = append(x.path, n.m)
		found, clb := x.dfs(n.st, left-c)
		if found || x.err != nil {
			return found, 0
		}
		x.path = x.path[:len(x.path)-1]
		if clb < math.MaxInt32 {
			best = min(best, clb+int32(c))
		}
	}
	if _, had := x.lower[key]; !had {
		x.states++
	}
	x.lower[key] = max(lb, best)
	return false, x.lower[key]
}

type ruleMove struct {
	m  int
	st []uint8
}

// successors are st's moves and the states they lead to, copied.
func (x *ruleDFS) successors(st []uint8) []ruleMove {
	var out []ruleMove
	err := x.b.r.Successors(st, func(m int, next []uint8) {
		out = append(out, ruleMove{m, append([]uint8(nil), next...)})
	})
	x.fail(err)
	return out
}

func (x *ruleDFS) fail(err error) {
	if err != nil && x.err == nil {
		x.err = err
	}
}

// tick checks the budget and the context.
func (x *ruleDFS) tick() error {
	bud := x.b.sp.Budget
	switch {
	case x.states >= bud.states():
		x.fail(fmt.Errorf("%w: more than %s states (rules.max_states)", ErrBudget, commasInt(bud.states())))
	case len(x.lower)%256 == 0 && time.Since(x.start) > bud.time():
		x.fail(fmt.Errorf("%w: more than %v (rules.max_seconds)", ErrBudget, bud.time()))
	case len(x.lower)%256 == 0:
		x.fail(x.ctx.Err())
	}
	return x.err
}

// checkPath checks the heuristic along the answer found from st, whose
// states' distances it gives.
func (x *ruleDFS) checkPath(st []uint8) error {
	left := x.b.cost(x.path)
	cur := State{Cells: st}
	for _, m := range x.path {
		if err := x.b.checkH(cur.Cells, left); err != nil {
			return err
		}
		cur, _ = x.b.sp.Apply(cur, m)
		left -= x.b.sp.Moves[m].Cost
	}
	return nil
}

// astar is the optimal cost from st by A*, reopening states whose cost
// improves, so that an admissible heuristic suffices.
func (b *rulesBackend) astar(ctx context.Context, st []uint8) (int, error) {
	g := newGraph(ctx, b.sp)
	open := &openList{}
	cost := []int32{}
	push := func(st []uint8, c int) error {
		u, fresh, err := g.add(st)
		if err != nil {
			return err
		}
		if !fresh && cost[u] <= int32(c) {
			return nil
		}
		if fresh {
			cost = append(cost, 0)
		}
		cost[u] = int32(c)
		h, _, err := b.r.Heuristic(st)
		heap.Push(open, openItem{u: u, g: int32(c), f: int32(c + h)})
		return err
	}
	if err := push(st, 0); err != nil {
		return 0, err
	}
	for n := 0; open.Len() > 0; n++ {
		it := heap.Pop(open).(openItem)
		if it.g != cost[it.u] {
			continue
		}
		if g.goal[it.u] {
			return int(it.g), nil
		}
		if err := g.tick(n, n+1); err != nil {
			return 0, err
		}
		var perr error
		err := b.r.Successors(g.state(it.u), func(m int, next []uint8) {
			if perr == nil {
				perr = push(next, int(it.g)+b.sp.Moves[m].Cost)
			}
		})
		if err != nil || perr != nil {
			return 0, firstErr(err, perr)
		}
	}
	return 0, ErrUnsolvable
}

func firstErr(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}

type openItem struct {
	u    int32
	g, f int32
}

// openList is A*'s priority queue: the least f first, and of those the
// greatest g (the deepest, nearest the goal).
type openList []openItem

func (o openList) Len() int { return len(o) }
func (o openList) Less(i, j int) bool {
	return o[i].f < o[j].f || o[i].f == o[j].f && o[i].g > o[j].g
}
func (o openList) Swap(i, j int) { o[i], o[j] = o[j], o[i] }
func (o *openList) Push(x any)   { *o = append(*o, x.(openItem)) }
func (o *openList) Pop() any {
	old := *o
	it := old[len(old)-1]
	*o = old[:len(old)-1]
	return it
}
