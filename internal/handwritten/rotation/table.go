package rotation

import (
	"math/bits"
	"sync"
	"time"
)

// NumSets is the number of sets of 8 cells out of 24, C(24,8): the states of
// the breadth-first search and the length of the distance table.
const NumSets = 735471

// unseen marks a set the search has not reached yet.
const unseen = 0xFF

// tables holds everything the solver looks up. A set of cells is a 24-bit
// mask (bit i for cell i); the tables work on its three bytes.
type tables struct {
	// rank[k][c][v] is byte k's share of a mask's colex rank when its value
	// is v and the lower bytes hold c set bits.
	rank [3][9][256]uint32
	// move[m][k][v] is where move m sends the cells of byte k's value v.
	move [NumMoves][3][256]uint32
	// dist[rank(s)] is the fewest moves that bring set s onto the center.
	dist []uint8
}

var (
	buildOnce sync.Once
	built     *tables
	buildTime time.Duration
)

// get returns the tables, building them on first use.
func get() *tables {
	buildOnce.Do(func() {
		start := time.Now()
		built = build()
		buildTime = time.Since(start)
	})
	return built
}

// BuildTime returns how long building the distance table took, building it
// first if needed.
func BuildTime() time.Duration {
	get()
	return buildTime
}

// centerMask is the set of the eight center cells.
var centerMask = func() uint32 {
	var m uint32
	for _, c := range CenterCells {
		m |= 1 << c
	}
	return m
}()

// build makes a fresh set of tables.
func build() *tables {
	t := new(tables)
	t.fillRank()
	t.fillMove()
	t.search()
	return t
}

// fillRank fills the per-byte colex ranking tables: a set c1 < ... < c8
// ranks as the sum of binomial(c_i, i).
func (t *tables) fillRank() {
	var binom [Cells + 1][10]uint32
	for n := range binom {
		binom[n][0] = 1
		for k := 1; k < 10 && n > 0; k++ {
			binom[n][k] = binom[n-1][k-1] + binom[n-1][k]
		}
	}
	for k := range 3 {
		for c := range 9 {
			for v := range 256 {
				var r uint32
				i := c
				for j := range 8 {
					if v&(1<<j) != 0 {
						i++
						if i <= 9 {
							r += binom[8*k+j][i]
						}
					}
				}
				t.rank[k][c][v] = r
			}
		}
	}
}

// fillMove fills the per-byte move tables from the lines.
func (t *tables) fillMove() {
	for m := range Move(NumMoves) {
		var dest [Cells]int
		for q := range dest {
			dest[q] = q
		}
		l := &lines[m]
		// new[l[i]] = old[l[i+1]]: the content of l[i+1] moves to l[i].
		for i := range 6 {
			dest[l[i+1]] = l[i]
		}
		dest[l[0]] = l[6]
		for k := range 3 {
			for v := range 256 {
				var out uint32
				for j := range 8 {
					if v&(1<<j) != 0 {
						out |= 1 << dest[8*k+j]
					}
				}
				t.move[m][k][v] = out
			}
		}
	}
}

// rankOf returns the colex rank of a mask with eight bits set.
func (t *tables) rankOf(s uint32) uint32 {
	b0, b1, b2 := s&0xFF, s>>8&0xFF, s>>16&0xFF
	c0 := bits.OnesCount32(b0)
	c1 := c0 + bits.OnesCount32(b1)
	return t.rank[0][0][b0] + t.rank[1][c0][b1] + t.rank[2][c1][b2]
}

// apply returns the set after move m.
func (t *tables) apply(m Move, s uint32) uint32 {
	mv := &t.move[m]
	return mv[0][s&0xFF] | mv[1][s>>8&0xFF] | mv[2][s>>16&0xFF]
}

// distOf returns the fewest moves that bring set s onto the center.
func (t *tables) distOf(s uint32) int { return int(t.dist[t.rankOf(s)]) }

// search fills dist by one breadth-first search from the center. Every move's
// inverse is a move too, so distances from the center are distances to it.
func (t *tables) search() {
	t.dist = make([]uint8, NumSets)
	for i := range t.dist {
		t.dist[i] = unseen
	}
	queue := make([]uint32, 1, NumSets)
	queue[0] = centerMask
	t.dist[t.rankOf(centerMask)] = 0
	for head, d := 0, uint8(0); head < len(queue); d++ {
		end := len(queue)
		for ; head < end; head++ {
			s := queue[head]
			for m := range Move(NumMoves) {
				n := t.apply(m, s)
				r := t.rankOf(n)
				if t.dist[r] == unseen {
					t.dist[r] = d + 1
					queue = append(queue, n)
				}
			}
		}
	}
}

// masks returns, per digit 1..3 (index 0..2), the set of cells holding it.
func (b Board) masks() [3]uint32 {
	var ms [3]uint32
	for i, d := range b {
		ms[d-1] |= 1 << i
	}
	return ms
}

// Distances returns, per digit 1..3 (index 0..2), the fewest moves that fill
// the center with that digit. b must be valid.
func Distances(b Board) [3]int {
	t := get()
	ms := b.masks()
	return [3]int{t.distOf(ms[0]), t.distOf(ms[1]), t.distOf(ms[2])}
}

// Optimum returns the fewest moves that make the center equal. b must be valid.
func Optimum(b Board) int {
	d := Distances(b)
	return min(d[0], d[1], d[2])
}

// Optimal returns the lexicographically smallest of the shortest solutions
// of b, which must be valid.
func Optimal(b Board) Solution { return get().optimal(b) }

// optimal builds the smallest shortest sequence greedily: at each step the
// smallest letter that brings some digit still on a shortest path one step
// closer, keeping only the digits it brings closer.
func (t *tables) optimal(b Board) Solution {
	ms := b.masks()
	var dist [3]int
	for i, s := range ms {
		dist[i] = t.distOf(s)
	}
	best := min(dist[0], dist[1], dist[2])
	var live [3]bool
	for i := range live {
		live[i] = dist[i] == best
	}
	seq := make(Sequence, 0, best)
	for left := best; left > 0; left-- {
		for m := range Move(NumMoves) {
			var next [3]uint32
			var nextLive [3]bool
			found := false
			for i := range ms {
				if live[i] {
					next[i] = t.apply(m, ms[i])
					nextLive[i] = t.distOf(next[i]) == left-1
					found = found || nextLive[i]
				}
			}
			if found {
				seq = append(seq, m)
				ms, live = next, nextLive
				break
			}
		}
	}
	for i := range live {
		if live[i] {
			return Solution{Moves: seq, Digit: uint8(i + 1)}
		}
	}
	panic("rotation: no digit reached the center") // unreachable for a valid board
}
