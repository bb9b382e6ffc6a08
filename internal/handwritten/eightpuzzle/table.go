package eightpuzzle

import (
	"math/bits"
	"sync"
	"time"
)

// numBoards is 9!, the number of boards solvable or not; a board's index in
// the distance table is its rank (see rank).
const numBoards = 362880

// unreachable marks a board of odd parity in the distance table.
const unreachable = 0xFF

// fact[i] is (8-i)!, the weight of position i in the factorial number system.
var fact = [9]int{40320, 5040, 720, 120, 24, 6, 2, 1, 1}

// distTable holds the distance from every board (by rank) to the goal.
type distTable [numBoards]byte

var table struct {
	once sync.Once
	dist *distTable
	took time.Duration
}

// distances returns the table, building it on first use.
func distances() *distTable {
	table.once.Do(func() {
		start := time.Now()
		table.dist = build()
		table.took = time.Since(start)
	})
	return table.dist
}

// BuildTime returns how long building the distance table took, building it
// first if no one has yet.
func BuildTime() time.Duration {
	distances()
	return table.took
}

// rank returns the Lehmer code of a valid board: the board's index, 0 to
// 9!-1, in the lexicographic order of permutations of 0-8.
func rank(b Board) int {
	r := 0
	var used uint16
	for i := range 8 {
		t := b[i]
		smaller := bits.OnesCount16(^used & (1<<t - 1))
		r += smaller * fact[i]
		used |= 1 << t
	}
	return r
}

// unrank is the inverse of rank.
func unrank(r int) Board {
	var b Board
	var used uint16
	for i := range b {
		k := r / fact[i]
		r %= fact[i]
		for t := byte(0); ; t++ {
			if used&(1<<t) != 0 {
				continue
			}
			if k == 0 {
				b[i] = t
				used |= 1 << t
				break
			}
			k--
		}
	}
	return b
}

// build runs a breadth-first search from the goal over all boards reachable
// from it and returns the distance of every board, unreachable for the rest.
func build() *distTable {
	d := new(distTable)
	for i := range d {
		d[i] = unreachable
	}
	type item struct {
		b    Board
		dist byte
	}
	queue := make([]item, 0, numBoards/2)
	queue = append(queue, item{Goal(), 0})
	d[rank(Goal())] = 0
	for i := 0; i < len(queue); i++ {
		it := queue[i]
		p := it.b.Blank()
		for _, m := range moveOrder {
			q, ok := target(p, m)
			if !ok {
				continue
			}
			nb := it.b
			nb[p], nb[q] = nb[q], nb[p]
			if r := rank(nb); d[r] == unreachable {
				d[r] = it.dist + 1
				queue = append(queue, item{nb, it.dist + 1})
			}
		}
	}
	return d
}

// Distance returns the number of moves of a shortest path from b to the
// goal, or -1 when b is not a valid board or cannot be solved.
func Distance(b Board) int {
	if !b.Valid() {
		return -1
	}
	d := distances()[rank(b)]
	if d == unreachable {
		return -1
	}
	return int(d)
}

// Smallest returns the lexicographically smallest among the shortest paths
// from b to the goal, as a string of move letters; false when b is not a
// valid board or cannot be solved. The goal itself gives "".
//
// It walks the distance table greedily: at each step it takes the smallest
// letter (d < l < r < u) whose move brings the blank one step closer. Every
// shortest path is such a walk, and comparing two of them letter by letter
// first differs at a step where the greedy walk took the smaller letter.
func Smallest(b Board) (string, bool) {
	d := Distance(b)
	if d < 0 {
		return "", false
	}
	dist := distances()
	path := make([]byte, 0, d)
	for ; d > 0; d-- {
		b, path = closer(dist, b, d, path)
	}
	return string(path), true
}

// closer makes the smallest move from b (at distance d) to a board at
// distance d-1, and appends its letter to path.
func closer(dist *distTable, b Board, d int, path []byte) (Board, []byte) {
	p := b.Blank()
	for _, m := range moveOrder {
		q, ok := target(p, m)
		if !ok {
			continue
		}
		nb := b
		nb[p], nb[q] = nb[q], nb[p]
		if int(dist[rank(nb)]) == d-1 {
			return nb, append(path, byte(m))
		}
	}
	panic("eightpuzzle: distance table has a board with no closer neighbour")
}
