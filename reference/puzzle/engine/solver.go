// Package engine is the generic search engine of defined puzzles: it knows
// states and moves (a Spec) and nothing of files, formats or verdicts.
//
// New looks at a Spec and picks a method:
//
//   - a breadth-first distance table over every reachable state, ranked to
//     a dense index (permutations of the symbols' multiset per orbit of
//     cells, orientations with their sum where moves keep it), a byte or
//     two bits a state, when the states are few enough (Options.MaxTable);
//   - for a goal of cells that hold one symbol, whichever, one table per
//     symbol count over the sets of cells a symbol fills (the rotation
//     game's 735,471), the distance being the least over the symbols;
//   - for moves that all add, linear algebra modulo the number of symbols:
//     the counts of moves that solve a state form a coset of the kernel;
//   - else iterative deepening A*: with additive pattern databases of
//     disjoint groups of tiles for a sliding puzzle, the gap heuristic for
//     prefix reversals (detected: every move reverses the first k cells),
//     and pattern databases of a few pieces each (the others forgotten)
//     for other permutation puzzles.
//
// Tables are built on first use and kept in Options.CacheDir under a hash
// of the Spec. Every answer is the lexicographically smallest of the
// optimal ones, comparing moves in their declared order: a table is
// descended taking the first move that brings the goal closer, and the
// search tries moves in declared order over canonical sequences (never a
// move followed by one that undoes or shortens it, commuting moves only in
// declared order), so that the first solution found at the optimal cost is
// the smallest.
package engine

import (
	"context"
	"fmt"
	"iter"
	"math/big"
	"math/rand/v2"
	"sync"
	"time"
)

// Options configure a Solver.
type Options struct {
	// CacheDir keeps tables between runs (see DefaultCacheDir); "" keeps
	// them in memory only.
	CacheDir string
	// MaxTable is the most states a distance table may index; 0 means
	// DefaultMaxTable.
	MaxTable uint64
	// MaxPattern is the most entries of one pattern database; 0 means
	// DefaultMaxPattern.
	MaxPattern uint64
	// MaxMemory is the budget in bytes of the pruning tables of a twisty
	// puzzle's search (as twsearch's -M); 0 means the Spec's Memory, or
	// DefaultMaxMemory.
	MaxMemory uint64
	// Threads is how many goroutines a twisty puzzle's search uses; 0
	// means GOMAXPROCS.
	Threads int
	// Simulate makes a solver that never builds a table or searches, for
	// a checker that only simulates (mode at_most): for a puzzle of
	// distinct pieces, the moves' group decides solvability and draws
	// random states, and the other questions are errors; other puzzles
	// plan as without it.
	Simulate bool
}

// Defaults of Options.
const (
	// DefaultMaxTable allows tables of up to 2^27 states: 128 MiB as bytes,
	// 32 MiB as two bits.
	DefaultMaxTable = 1 << 27
	// DefaultMaxPattern allows pattern databases of up to 2^24 entries.
	DefaultMaxPattern = 1 << 24
)

// twoBitFrom is the size from which a table keeps two bits a state where
// it can; a variable so that a test can try two bits on a small puzzle.
var twoBitFrom uint64 = 1 << 25

// Solver answers questions about one puzzle's states. Its methods are safe
// for concurrent use; the first that needs tables builds them (or reads
// them from the cache), as Prepare does.
type Solver struct {
	sp   *Spec
	opts Options
	b    backend
	desc string

	once      sync.Once
	err       error
	buildTime time.Duration
}

// backend is one method of solving.
type backend interface {
	method() Method
	prepare() error
	// distance is the optimal cost from st, ErrUnsolvable if none.
	distance(ctx context.Context, st State) (int, error)
	// atMost reports whether the optimal cost from st is at most limit.
	atMost(ctx context.Context, st State, limit int) (bool, error)
	// solve is the smallest optimal answer; approx allows any answer.
	solve(ctx context.Context, st State, approx bool) ([]int, error)
	random(r *rand.Rand) (State, error)
	atDistance(ctx context.Context, r *rand.Rand, d int) (State, bool, error)
	deepest(ctx context.Context, r *rand.Rand) (State, int, error)
	all() (iter.Seq[State], bool)
	distribution() ([]uint64, bool)
}

// New checks sp and picks the method that will solve it, without building
// anything yet. It fails when sp is inconsistent or no method applies (the
// error then says why, with the sizes).
func New(sp *Spec, opts Options) (*Solver, error) {
	if err := sp.Check(); err != nil {
		return nil, err
	}
	if opts.MaxTable == 0 {
		opts.MaxTable = DefaultMaxTable
	}
	if opts.MaxPattern == 0 {
		opts.MaxPattern = DefaultMaxPattern
	}
	s := &Solver{sp: sp, opts: opts}
	b, desc, err := s.plan()
	if err != nil {
		return nil, err
	}
	s.b, s.desc = b, desc
	return s, nil
}

// Spec returns the puzzle.
func (s *Solver) Spec() *Spec { return s.sp }

// Method returns the method New chose.
func (s *Solver) Method() Method { return s.b.method() }

// String describes the method: "a distance table over 3,674,160 states".
func (s *Solver) String() string { return s.desc }

// Prepare builds the tables, or reads them from the cache, if no call has
// yet; it returns the first build's error.
func (s *Solver) Prepare() error {
	s.once.Do(func() {
		start := time.Now()
		s.err = s.b.prepare()
		s.buildTime = time.Since(start)
	})
	return s.err
}

// BuildTime returns how long Prepare took (reading a cached table is
// quick), preparing first if needed.
func (s *Solver) BuildTime() time.Duration {
	s.Prepare()
	return s.buildTime
}

// ready prepares and checks st.
func (s *Solver) ready(st State) error {
	if err := s.Prepare(); err != nil {
		return err
	}
	return s.sp.CheckState(st)
}

// Solvable reports whether some sequence of moves takes st to the goal.
// It never searches: the tables, the linear algebra or the group of the
// moves (or, for a sliding puzzle, the permutation's parity) decide.
func (s *Solver) Solvable(st State) (bool, error) {
	if err := s.ready(st); err != nil {
		return false, err
	}
	if sb, ok := s.b.(interface{ solvable(State) bool }); ok {
		return sb.solvable(st), nil
	}
	_, err := s.b.distance(context.Background(), st)
	if err == ErrUnsolvable {
		return false, nil
	}
	return err == nil, err
}

// The methods that may search take a context: a search without a table
// stops when it is done, with its error. Where tables answer, they
// return at once and ignore it.

// Distance returns the least cost of a sequence of moves from st to the
// goal, ErrUnsolvable when there is none.
func (s *Solver) Distance(ctx context.Context, st State) (int, error) {
	if err := s.ready(st); err != nil {
		return 0, err
	}
	return s.b.distance(ctx, st)
}

// AtMost reports whether st can reach the goal at a cost of at most limit.
// Where no table exists this is one bounded search, much cheaper than
// Distance when the answer is no.
func (s *Solver) AtMost(ctx context.Context, st State, limit int) (bool, error) {
	if err := s.ready(st); err != nil {
		return false, err
	}
	if limit < 0 {
		return false, nil
	}
	return s.b.atMost(ctx, st, limit)
}

// Solve returns the lexicographically smallest of the optimal answers
// from st, as indices of moves; ErrUnsolvable when there is none.
func (s *Solver) Solve(ctx context.Context, st State) ([]int, error) {
	if err := s.ready(st); err != nil {
		return nil, err
	}
	return s.b.solve(ctx, st, false)
}

// SolveAny returns some answer from st, not necessarily optimal: where no
// table exists it searches with a heuristic weighted three times, faster.
func (s *Solver) SolveAny(ctx context.Context, st State) ([]int, error) {
	if err := s.ready(st); err != nil {
		return nil, err
	}
	return s.b.solve(ctx, st, true)
}

// Path returns the states along Solve's answer from st: the first is one
// move closer, the last is solved.
func (s *Solver) Path(ctx context.Context, st State) ([]State, error) {
	moves, err := s.Solve(ctx, st)
	if err != nil {
		return nil, err
	}
	path := make([]State, 0, len(moves))
	for _, m := range moves {
		st, _ = s.sp.Apply(st, m)
		path = append(path, st)
	}
	return path, nil
}

// Random returns a state drawn uniformly from those that can reach the
// goal (where the puzzle's structure allows uniform draws; see the
// methods).
func (s *Solver) Random(r *rand.Rand) (State, error) {
	if err := s.Prepare(); err != nil {
		return State{}, err
	}
	return s.b.random(r)
}

// AtDistance returns a random state whose distance is d, false when there
// is none (or, where no table exists, none was found).
func (s *Solver) AtDistance(ctx context.Context, r *rand.Rand, d int) (State, bool, error) {
	if err := s.Prepare(); err != nil {
		return State{}, false, err
	}
	if d < 0 {
		return State{}, false, nil
	}
	return s.b.atDistance(ctx, r, d)
}

// Deepest returns one of the states farthest from the goal and its
// distance: exactly, where a table or a census exists; else the deepest
// of a sample of random states.
func (s *Solver) Deepest(ctx context.Context, r *rand.Rand) (State, int, error) {
	if err := s.Prepare(); err != nil {
		return State{}, 0, err
	}
	return s.b.deepest(ctx, r)
}

// All enumerates every state that can reach the goal, false when they are
// too many to enumerate.
func (s *Solver) All() (iter.Seq[State], bool) {
	if err := s.Prepare(); err != nil {
		return nil, false
	}
	return s.b.all()
}

// Distribution returns how many states lie at each distance from the goal,
// false where no table exists.
func (s *Solver) Distribution() ([]uint64, bool) {
	if err := s.Prepare(); err != nil {
		return nil, false
	}
	return s.b.distribution()
}

// plan picks the backend.
func (s *Solver) plan() (backend, string, error) {
	sp := s.sp
	if sp.Rules != nil {
		return newRulesBackend(s)
	}
	if s.opts.Simulate {
		if b := newSimulation(sp); b != nil {
			return b, "a simulation (no table, no search)", nil
		}
	}
	k := kindOf(sp)
	want := sp.Method
	if want > MethodSearch {
		return nil, "", fmt.Errorf("%s is a method for rules", want)
	}
	if want == MethodLinear || want == MethodAuto && k.allAdd && len(sp.Goal.States) > 0 {
		if !k.allAdd || len(sp.Goal.States) == 0 {
			return nil, "", fmt.Errorf("linear algebra needs moves that all add and goal states")
		}
		b, err := newLinear(s)
		if err == nil {
			return b, describeLinear(b.(*linearBackend)), nil
		}
		if want == MethodLinear {
			return nil, "", err
		}
	}
	if len(sp.Goal.Same) > 0 && !k.allAdd && !k.slides && want != MethodSearch {
		return newSubset(s)
	}
	var size *big.Int
	if want != MethodSearch {
		b, n, err := newTableBackend(s)
		if err != nil {
			return nil, "", err
		}
		if b != nil {
			return b, fmt.Sprintf("a distance table over %s states", commas(n)), nil
		}
		size = n
		if want == MethodTable {
			return nil, "", fmt.Errorf("the puzzle has %s states, more than the %s a table may hold", commas(size), commas(new(big.Int).SetUint64(s.opts.MaxTable)))
		}
	}
	return newSearch(s, k, size)
}

// kind sums up what the moves do.
type kind struct {
	allAdd   bool // every move only adds
	slides   bool // some move slides
	allSlide bool // every move slides
	adds     bool // some move adds
}

func kindOf(sp *Spec) kind {
	k := kind{allAdd: true, allSlide: true}
	for _, m := range sp.Moves {
		if m.Slide != SlideNone {
			k.slides = true
		} else {
			k.allSlide = false
		}
		if m.Add != nil {
			k.adds = true
		}
		if m.Add == nil || m.Perm != nil || m.Twist != nil || m.Slide != SlideNone {
			k.allAdd = false
		}
	}
	return k
}

// commas writes a number with thousands separators: 3,674,160.
func commas(n *big.Int) string {
	s := n.String()
	if len(s) > 24 {
		f, _ := new(big.Float).SetInt(n).Float64()
		return fmt.Sprintf("%.3g", f)
	}
	var out []byte
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			out = append(out, ',')
		}
		out = append(out, s[i])
	}
	return string(out)
}

// scratch allocates the arrays of one state.
func (sp *Spec) scratch() State {
	st := State{Cells: make([]uint8, sp.Cells)}
	if sp.Orient >= 2 {
		st.Orient = make([]uint8, sp.Cells)
	}
	return st
}

// full returns st with an orientation array if the puzzle has them.
func (sp *Spec) full(st State) State {
	if sp.Orient >= 2 && st.Orient == nil {
		st.Orient = make([]uint8, sp.Cells)
	}
	return st
}
