// A* search per line with the Manhattan-distance heuristic (after an inversion-parity check for unsolvable frames); prints a shortest sequence, well within the limit -> AC.
//go:build ignore

package main

import (
	"bufio"
	"container/heap"
	"os"
	"strings"
)

// A board is nine 4-bit cells, cell 0 in the lowest bits; 0 is the blank.
type board uint64

func (b board) at(i int) int { return int(b>>(4*i)) & 15 }

func (b board) swap(i, j int) board {
	vi, vj := board(b.at(i)), board(b.at(j))
	b &^= 15<<(4*i) | 15<<(4*j)
	return b | vi<<(4*j) | vj<<(4*i)
}

func (b board) blank() int {
	for i := 0; i < 9; i++ {
		if b.at(i) == 0 {
			return i
		}
	}
	return -1
}

var fact = [9]int{40320, 5040, 720, 120, 24, 6, 2, 1, 1}

// rank is the Cantor rank of the arrangement among all 9!.
func (b board) rank() int {
	r := 0
	for i := 0; i < 9; i++ {
		smaller := 0
		for j := i + 1; j < 9; j++ {
			if b.at(j) < b.at(i) {
				smaller++
			}
		}
		r += smaller * fact[i]
	}
	return r
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func manhattan(b board) int {
	h := 0
	for i := 0; i < 9; i++ {
		if v := b.at(i); v != 0 {
			h += abs(i/3-(v-1)/3) + abs(i%3-(v-1)%3)
		}
	}
	return h
}

func solvable(b board) bool {
	inversions := 0
	for i := 0; i < 9; i++ {
		for j := i + 1; j < 9; j++ {
			if b.at(i) != 0 && b.at(j) != 0 && b.at(i) > b.at(j) {
				inversions++
			}
		}
	}
	return inversions%2 == 0
}

var letters = [4]byte{'u', 'd', 'l', 'r'}

// target is where the blank at pos goes under move d, or -1 off the frame.
func target(pos, d int) int {
	switch d {
	case 0:
		if pos >= 3 {
			return pos - 3
		}
	case 1:
		if pos < 6 {
			return pos + 3
		}
	case 2:
		if pos%3 > 0 {
			return pos - 1
		}
	case 3:
		if pos%3 < 2 {
			return pos + 1
		}
	}
	return -1
}

type node struct {
	f, g int
	b    board
}

type openSet []node

func (o openSet) Len() int { return len(o) }
func (o openSet) Less(i, j int) bool {
	if o[i].f != o[j].f {
		return o[i].f < o[j].f
	}
	return o[i].g > o[j].g
}
func (o openSet) Swap(i, j int) { o[i], o[j] = o[j], o[i] }
func (o *openSet) Push(x any)   { *o = append(*o, x.(node)) }
func (o *openSet) Pop() any {
	old := *o
	n := old[len(old)-1]
	*o = old[:len(old)-1]
	return n
}

const states = 362880

// Per-rank search data, reused across lines: stamp tells which search wrote it.
var (
	stamp  = make([]int32, states)
	best   = make([]int32, states)
	closed = make([]bool, states)
	from   = make([]board, states)
	via    = make([]byte, states)
)

func solve(start board, id int32) string {
	const goal board = 0x087654321
	if start == goal {
		return ""
	}
	open := &openSet{{manhattan(start), 0, start}}
	r := start.rank()
	stamp[r], best[r], closed[r] = id, 0, false
	for open.Len() > 0 {
		cur := heap.Pop(open).(node)
		cr := cur.b.rank()
		if closed[cr] {
			continue
		}
		closed[cr] = true
		if cur.b == goal {
			var path []byte
			for b := cur.b; b != start; {
				rb := b.rank()
				path = append(path, via[rb])
				b = from[rb]
			}
			for i, j := 0, len(path)-1; i < j; i, j = i+1, j-1 {
				path[i], path[j] = path[j], path[i]
			}
			return string(path)
		}
		pos := cur.b.blank()
		for d := 0; d < 4; d++ {
			to := target(pos, d)
			if to < 0 {
				continue
			}
			nb := cur.b.swap(pos, to)
			nr := nb.rank()
			g := cur.g + 1
			if stamp[nr] == id && (closed[nr] || int(best[nr]) <= g) {
				continue
			}
			stamp[nr], best[nr], closed[nr] = id, int32(g), false
			from[nr], via[nr] = cur.b, letters[d]
			heap.Push(open, node{g + manhattan(nb), g, nb})
		}
	}
	return "unsolvable"
}

func main() {
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	var tokens []string
	for sc.Scan() {
		tokens = append(tokens, strings.Fields(sc.Text())...)
	}
	for i, id := 0, int32(1); i+9 <= len(tokens); i, id = i+9, id+1 {
		var b board
		for k := 0; k < 9; k++ {
			v := 0
			if t := tokens[i+k]; t != "x" {
				v = int(t[0] - '0')
			}
			b |= board(v) << (4 * k)
		}
		if !solvable(b) {
			out.WriteString("unsolvable\n")
			continue
		}
		out.WriteString(solve(b, id))
		out.WriteByte('\n')
	}
}
