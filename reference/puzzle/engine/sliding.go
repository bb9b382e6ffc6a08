package engine

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/big"
	"math/bits"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
)

// sliding solves a sliding puzzle (every move slides the blank, every
// tile different) by iterative deepening A* with additive pattern
// databases (Korf and Felner, 2002): the tiles fall into disjoint groups,
// and a group's database holds, for every placement of its tiles, the
// fewest moves of its own tiles that bring them home, the other tiles'
// moves being free. As each move moves one tile, the sum over the groups
// is a lower bound.
type sliding struct {
	sp      *Spec
	opts    Options
	n       int
	blank   uint8
	goal    []uint8
	home    []int     // home[v]: the goal's cell of symbol v
	target  [][]int8  // target[m][b]: where move m takes the blank at b, -1 if nowhere
	groupOf []int     // per symbol, its group, -1 for the blank
	slot    []int     // per symbol, its place in its group
	dbs     []*tileDB // one per group
	canon   *canon

	// The goal's symmetry through the main diagonal, where it has one:
	// cell c reflects to mirror[c] and symbol v to relabel[v], and a state
	// reflected is as far from the goal, so its databases' sum bounds the
	// distance too. Nil without.
	mirror, relabel []int
}

// tileDB is the database of one group of tiles: its index is the
// partial permutation of the tiles' cells.
type tileDB struct {
	tiles []uint8
	mult  []uint64
	size  uint64
	dist  []byte
}

func newSliding(sp *Spec, opts Options) (*sliding, error) {
	if sp.Cells > 64 {
		return nil, fmt.Errorf("a sliding puzzle of %d cells: the search takes at most 64", sp.Cells)
	}
	s := &sliding{sp: sp, opts: opts, n: sp.Cells, blank: uint8(sp.Blank), goal: sp.Goal.States[0], canon: newCanon(sp)}
	s.home = make([]int, sp.Symbols)
	for c, v := range s.goal {
		s.home[v] = c
	}
	for _, m := range sp.Moves {
		t := make([]int8, s.n)
		for b := range s.n {
			q, ok := sp.slideTarget(b, m.Slide)
			t[b] = int8(q)
			if !ok {
				t[b] = -1
			}
		}
		s.target = append(s.target, t)
	}
	s.reflection()
	groups, err := s.partition()
	if err != nil {
		return nil, err
	}
	s.groupOf, s.slot = make([]int, sp.Symbols), make([]int, sp.Symbols)
	for i := range s.groupOf {
		s.groupOf[i] = -1
	}
	for g, tiles := range groups {
		db := &tileDB{tiles: tiles, size: partialPerms(s.n, len(tiles))}
		db.mult = make([]uint64, len(tiles))
		for i := range tiles {
			db.mult[i] = partialPerms(s.n-1-i, len(tiles)-1-i)
			s.groupOf[tiles[i]], s.slot[tiles[i]] = g, i
		}
		s.dbs = append(s.dbs, db)
	}
	return s, nil
}

// partialPerms is P(n, k) = n!/(n-k)!.
func partialPerms(n, k int) uint64 {
	p := uint64(1)
	for i := range k {
		p *= uint64(n - i)
	}
	return p
}

// maxGroup bounds a group's size: its search walks P(n, k) * n states.
const maxGroup = 8

// partition returns the groups of tiles: the Spec's, the tiles they leave
// out in one more group; or else the tiles in the order of their home
// cells, cut in groups as large as Options.MaxPattern allows.
func (s *sliding) partition() ([][]uint8, error) {
	var tiles []uint8
	for _, v := range s.goal {
		if v != s.blank {
			tiles = append(tiles, v)
		}
	}
	k := 0
	for k < len(tiles) && k < maxGroup && partialPerms(s.n, k+1) <= s.opts.MaxPattern {
		k++
	}
	var groups [][]uint8
	grouped := map[uint8]bool{}
	for _, p := range s.sp.Patterns {
		var g []uint8
		for _, v := range p {
			if uint8(v) == s.blank || grouped[uint8(v)] || v >= s.sp.Symbols {
				return nil, fmt.Errorf("pattern groups must be disjoint groups of tiles")
			}
			g = append(g, uint8(v))
			grouped[uint8(v)] = true
		}
		if len(g) > maxGroup || partialPerms(s.n, len(g)) > s.opts.MaxPattern {
			return nil, fmt.Errorf("a pattern group of %d tiles has %d placements, more than %d", len(g), partialPerms(s.n, len(g)), s.opts.MaxPattern)
		}
		groups = append(groups, g)
	}
	var rest []uint8
	for _, v := range tiles {
		if !grouped[v] {
			rest = append(rest, v)
		}
	}
	if k == 0 && len(rest) > 0 {
		return nil, fmt.Errorf("a pattern database of one tile would have %d entries, more than %d", s.n, s.opts.MaxPattern)
	}
	for i := 0; i < len(rest); i += k {
		groups = append(groups, rest[i:min(i+k, len(rest))])
	}
	return groups, nil
}

func (s *sliding) describe() string {
	var parts []string
	for _, db := range s.dbs {
		parts = append(parts, fmt.Sprint(len(db.tiles)))
	}
	return "additive pattern databases of tiles " + strings.Join(parts, "-") + fmt.Sprintf(" (%s placements of the largest)", commas(new(big.Int).SetUint64(s.dbs[0].size)))
}

// rank is the index of a group's tiles at the cells pos[tile].
func (db *tileDB) rank(pos []int) uint64 {
	var used, r uint64
	for i, t := range db.tiles {
		c := pos[t]
		r += uint64(bits.OnesCount64(^used&(1<<c-1))) * db.mult[i]
		used |= 1 << c
	}
	return r
}

// unrank writes the cells of the tiles of index r into cells (by slot).
func (db *tileDB) unrank(r uint64, cells []int) {
	var used uint64
	for i := range db.tiles {
		k := int(r / db.mult[i])
		r %= db.mult[i]
		free := ^used
		for range k {
			free &= free - 1
		}
		c := bits.TrailingZeros64(free)
		cells[i] = c
		used |= 1 << c
	}
}

// prepare reads the groups' databases from the cache or builds them, two
// at a time (the machine has two cores; more would only add memory).
func (s *sliding) prepare() error {
	errs := make([]error, len(s.dbs))
	sem := make(chan struct{}, 2)
	var wg sync.WaitGroup
	for i, db := range s.dbs {
		key := cacheKey(s.sp.Key(), fmt.Sprintf("tiles %v of %d", db.tiles, s.n))
		if blob, ok := loadBlob(s.opts.CacheDir, key); ok && uint64(len(blob)) == db.size {
			db.dist = blob
			continue
		}
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			if errs[i] = s.build(db); errs[i] == nil {
				storeBlob(s.opts.CacheDir, key, db.dist)
			}
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}

// build fills a group's database by a search over its tiles' cells and
// the blank's, (placement, blank) as placement*n + blank, level by level:
// moves of other tiles cost nothing, so the blank's whole region (the
// cells it reaches without moving the group's tiles) is settled at once;
// a move of one of the group's tiles costs the move's cost. Each
// placement keeps the level where the search first settles it.
func (s *sliding) build(db *tileDB) error {
	n := uint64(s.n)
	total := db.size * n
	if total >= 1<<32 {
		return fmt.Errorf("a group of %d tiles: %d states, too many", len(db.tiles), total)
	}
	db.dist = make([]byte, db.size)
	for i := range db.dist {
		db.dist[i] = unseen8
	}
	// Two bits a state, in one word so that a look costs one cache miss:
	// queued (at its best level, when every move costs the same), settled.
	const queued, settled = 1, 2
	marks := make([]uint64, (total+31)/32)
	mark := func(x uint64) uint64 { return marks[x>>5] >> (2 * (x & 31)) & 3 }
	put := func(x, m uint64) { marks[x>>5] |= m << (2 * (x & 31)) }
	uniform := true
	for _, m := range s.sp.Moves {
		uniform = uniform && m.Cost == s.sp.Moves[0].Cost
	}
	pos := make([]int, s.sp.Symbols)
	for _, t := range db.tiles {
		pos[t] = s.home[t]
	}
	start := db.rank(pos)*n + uint64(s.home[s.blank])
	levels := [][]uint32{{uint32(start)}}
	cells := make([]int, len(db.tiles))
	all := uint64(1)<<s.n - 1
	for d := 0; d < len(levels); d++ {
		if d > maxDistance8 {
			return fmt.Errorf("a distance of more than %d moves", maxDistance8)
		}
		for _, x32 := range levels[d] {
			x := uint64(x32)
			if mark(x)&settled != 0 {
				continue
			}
			r, b := x/n, int(x%n)
			if db.dist[r] == unseen8 {
				db.dist[r] = byte(d)
			}
			db.unrank(r, cells)
			var occupied uint64
			for _, c := range cells {
				occupied |= 1 << c
			}
			region := s.flood(b, all&^occupied)
			for rest := region; rest != 0; rest &= rest - 1 {
				put(r*n+uint64(bits.TrailingZeros64(rest)), settled)
			}
			for rest := region; rest != 0; rest &= rest - 1 {
				bb := bits.TrailingZeros64(rest)
				for m, t := range s.target {
					q := int(t[bb])
					if q < 0 || occupied>>q&1 == 0 {
						continue
					}
					// The group's tile at q moves to bb.
					i := slices.Index(cells, q)
					cells[i] = bb
					y := rankCells(db, cells)*n + uint64(q)
					cells[i] = q
					// With one cost for every move, a state queued once is
					// queued at its best level already.
					if k := mark(y); k&settled != 0 || uniform && k&queued != 0 {
						continue
					}
					put(y, queued)
					nd := d + s.sp.Moves[m].Cost
					for len(levels) <= nd {
						levels = append(levels, nil)
					}
					levels[nd] = append(levels[nd], uint32(y))
				}
			}
		}
		levels[d] = nil
	}
	return nil
}

// flood returns the cells the blank at b reaches through the free cells.
func (s *sliding) flood(b int, free uint64) uint64 {
	cols := s.sp.Cols
	var firstCol, lastCol uint64
	for c := 0; c < s.n; c += cols {
		firstCol |= 1 << c
		lastCol |= 1 << (c + cols - 1)
	}
	all := uint64(1)<<s.n - 1
	region := uint64(1) << b
	for {
		grown := region | region>>cols | region<<cols&all | (region&^firstCol)>>1 | (region&^lastCol)<<1
		grown &= free | region
		if grown == region {
			return region
		}
		region = grown
	}
}

// rankCells is rank for cells given by slot.
func rankCells(db *tileDB, cells []int) uint64 {
	var used, r uint64
	for i, c := range cells {
		r += uint64(bits.OnesCount64(^used&(1<<c-1))) * db.mult[i]
		used |= 1 << c
	}
	return r
}

// solvable decides whether st reaches the goal: on a grid of at least two
// rows and columns, exactly when the permutation from the goal and the
// blank's distance from home have the same parity; on a line, when the
// tiles are in the goal's order.
func (s *sliding) solvable(st State) bool {
	sp := s.sp
	if sp.Rows == 1 || sp.Cols == 1 {
		var a, b []uint8
		for c := range st.Cells {
			if st.Cells[c] != s.blank {
				a = append(a, st.Cells[c])
			}
			if s.goal[c] != s.blank {
				b = append(b, s.goal[c])
			}
		}
		return string(a) == string(b)
	}
	// The permutation taking each symbol's home to its cell.
	p := make([]int, s.n)
	for c, v := range st.Cells {
		p[s.home[v]] = c
	}
	parity := 0
	seen := make([]bool, s.n)
	for i := range p {
		if seen[i] {
			continue
		}
		length := 0
		for j := i; !seen[j]; j = p[j] {
			seen[j] = true
			length++
		}
		parity += length - 1
	}
	b := sp.blankAt(st.Cells)
	h := s.home[s.blank]
	dist := abs(b/sp.Cols-h/sp.Cols) + abs(b%sp.Cols-h%sp.Cols)
	return parity%2 == dist%2
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// random draws a uniformly random solvable state: a random arrangement,
// and if it cannot be solved, its first two tiles swapped (a bijection
// between the two parities).
func (s *sliding) random(r *rand.Rand) State {
	sp := s.sp
	st := State{Cells: append([]uint8(nil), s.goal...)}
	if sp.Rows == 1 || sp.Cols == 1 {
		var tiles []uint8
		for _, v := range s.goal {
			if v != s.blank {
				tiles = append(tiles, v)
			}
		}
		b := r.IntN(s.n)
		for c, i := 0, 0; c < s.n; c++ {
			if c == b {
				st.Cells[c] = s.blank
			} else {
				st.Cells[c] = tiles[i]
				i++
			}
		}
		return st
	}
	r.Shuffle(s.n, func(i, j int) { st.Cells[i], st.Cells[j] = st.Cells[j], st.Cells[i] })
	if !s.solvable(st) {
		var two []int
		for c, v := range st.Cells {
			if v != s.blank && len(two) < 2 {
				two = append(two, c)
			}
		}
		st.Cells[two[0]], st.Cells[two[1]] = st.Cells[two[1]], st.Cells[two[0]]
	}
	return st
}

// slideSearch is one search's state: the board, the tiles' cells, each
// group's index.
type slideSearch struct {
	s      *sliding
	cells  []uint8
	pos    []int
	ranks  []uint64
	posR   []int    // the reflected state's cells of each symbol; nil without
	ranksR []uint64 // its groups' indices
	weight int
	path   []int
	nodes  uint64
	ctx    context.Context
	err    error
}

// search runs iterative deepening A* from st (solvable) up to limit with
// weight w on the heuristic.
func (s *sliding) search(ctx context.Context, st State, limit, w int) ([]int, bool, error) {
	var nodes uint64
	return s.searchCount(ctx, st, limit, w, &nodes)
}

// searchCount is search, adding the nodes it visits to *nodes.
func (s *sliding) searchCount(ctx context.Context, st State, limit, w int, nodes *uint64) ([]int, bool, error) {
	x := &slideSearch{s: s, cells: append([]uint8(nil), st.Cells...), pos: make([]int, s.sp.Symbols), weight: w, ctx: ctx}
	defer func() { *nodes += x.nodes }()
	for c, v := range x.cells {
		x.pos[v] = c
	}
	h, hr := 0, 0
	for _, db := range s.dbs {
		r := db.rank(x.pos)
		x.ranks = append(x.ranks, r)
		h += int(db.dist[r])
	}
	if s.mirror != nil {
		x.posR = make([]int, s.sp.Symbols)
		for v, c := range x.pos {
			x.posR[s.relabel[v]] = s.mirror[c]
		}
		for _, db := range s.dbs {
			r := db.rank(x.posR)
			x.ranksR = append(x.ranksR, r)
			hr += int(db.dist[r])
		}
	}
	blank := x.pos[s.blank]
	bound := w * max(h, hr)
	for w > 1 || bound <= limit {
		x.path = x.path[:0]
		next, found := x.dfs(blank, 0, h, hr, bound, 0)
		if found {
			return append([]int(nil), x.path...), true, nil
		}
		if next == math.MaxInt || x.err != nil {
			return nil, false, x.err
		}
		bound = next
	}
	return nil, false, nil
}

func (x *slideSearch) dfs(blank, g, h, hr, bound int, cs int32) (int, bool) {
	s := x.s
	if x.nodes++; x.nodes%checkEvery == 0 && x.err == nil {
		x.err = x.ctx.Err()
	}
	if x.err != nil {
		return math.MaxInt, false
	}
	if h == 0 && string(x.cells) == string(s.goal) {
		return g, true
	}
	next := math.MaxInt
	for m, t := range s.target {
		q := int(t[blank])
		if q < 0 {
			continue
		}
		ncs := s.canon.step(cs, m)
		if ncs < 0 {
			continue
		}
		tile := x.cells[q]
		grp := s.groupOf[tile]
		db := s.dbs[grp]
		old := x.ranks[grp]
		x.cells[blank], x.cells[q] = tile, s.blank
		x.pos[tile] = blank
		nr := db.rank(x.pos)
		nh := h - int(db.dist[old]) + int(db.dist[nr])
		ng := g + s.sp.Moves[m].Cost
		// The reflection is looked up only when the sum alone does not
		// prune: a lower f only makes the next bound lower, still exact.
		f := ng + x.weight*nh
		nhr, grpR, oldR, nrR := 0, 0, uint64(0), uint64(0)
		if x.posR != nil && f <= bound {
			tr := s.relabel[tile]
			grpR = s.groupOf[tr]
			dbR := s.dbs[grpR]
			oldR = x.ranksR[grpR]
			x.posR[tr] = s.mirror[blank]
			nrR = dbR.rank(x.posR)
			nhr = hr - int(dbR.dist[oldR]) + int(dbR.dist[nrR])
			f = ng + x.weight*max(nh, nhr)
		}
		if f > bound {
			next = min(next, f)
		} else {
			x.ranks[grp] = nr
			if x.posR != nil {
				x.ranksR[grpR] = nrR
			}
			x.path = append(x.path, m)
			t, found := x.dfs(q, ng, nh, nhr, bound, ncs)
			if found {
				return t, true
			}
			x.path = x.path[:len(x.path)-1]
			x.ranks[grp] = old
			if x.posR != nil {
				x.ranksR[grpR] = oldR
			}
			next = min(next, t)
		}
		x.cells[blank], x.cells[q] = s.blank, tile
		x.pos[tile] = q
		if x.posR != nil {
			x.posR[s.relabel[tile]] = s.mirror[q]
		}
	}
	return next, false
}

// reflection finds the goal's symmetry through the main diagonal: a
// square grid whose goal, reflected, is the goal with the symbols renamed
// (the blank staying the blank), and whose moves reflected are moves of
// the same cost (up and left, down and right swapped).
func (s *sliding) reflection() {
	sp := s.sp
	if sp.Rows != sp.Cols {
		return
	}
	mirror := make([]int, s.n)
	for c := range mirror {
		mirror[c] = c%sp.Cols*sp.Cols + c/sp.Cols
	}
	relabel := make([]int, sp.Symbols)
	for c, v := range s.goal {
		relabel[v] = int(s.goal[mirror[c]])
	}
	if relabel[s.blank] != int(s.blank) {
		return
	}
	swap := map[Direction]Direction{SlideUp: SlideLeft, SlideLeft: SlideUp, SlideDown: SlideRight, SlideRight: SlideDown}
	for _, m := range sp.Moves {
		found := false
		for _, o := range sp.Moves {
			found = found || o.Slide == swap[m.Slide] && o.Cost == m.Cost
		}
		if !found {
			return
		}
	}
	s.mirror, s.relabel = mirror, relabel
}
