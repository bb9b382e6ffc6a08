package engine

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math/bits"
)

// table holds a distance for every index of a space: a byte each (255
// for a state the search never reached), or two bits each, the distance
// modulo 3 (3 for never reached), which serves a puzzle whose moves cost 1
// and come with their inverses, as neighbours' distances then differ by at
// most one.
type table struct {
	n      uint64
	twoBit bool
	data   []byte
	layers []uint64 // how many states lie at each distance
}

const (
	unseen8 = 0xFF
	unseen2 = 3
	// maxDistance8 is the largest distance a byte table holds.
	maxDistance8 = 254
)

func newTable(n uint64, twoBit bool) *table {
	t := &table{n: n, twoBit: twoBit}
	if twoBit {
		t.data = bytes.Repeat([]byte{0xFF}, int((n+3)/4))
	} else {
		t.data = bytes.Repeat([]byte{unseen8}, int(n))
	}
	return t
}

// get returns the entry of index i: the distance, or modulo 3.
func (t *table) get(i uint64) int {
	if t.twoBit {
		return int(t.data[i>>2] >> (2 * (i & 3)) & 3)
	}
	return int(t.data[i])
}

// reached reports whether index i was reached.
func (t *table) reached(i uint64) bool {
	if t.twoBit {
		return t.get(i) != unseen2
	}
	return t.data[i] != unseen8
}

func (t *table) set2(i uint64, v int) {
	sh := 2 * (i & 3)
	t.data[i>>2] = t.data[i>>2]&^(3<<sh) | byte(v)<<sh
}

// maxDepth is the largest distance in the table.
func (t *table) maxDepth() int { return len(t.layers) - 1 }

// graph is what a breadth-first search walks: states by index and, for
// each, the states one move before it.
type graph interface {
	size() uint64
	// back calls f with every index j such that a move of the given cost
	// takes state j to state i.
	back(i uint64, f func(j uint64, cost int))
}

// buildTable searches g backwards from the seeds: every reached state gets
// its distance to the nearest seed. twoBit needs every cost to be 1.
func buildTable(g graph, seeds []uint64, twoBit bool) (*table, error) {
	t := newTable(g.size(), twoBit)
	if twoBit {
		t.bfs2(g, seeds)
		return t, nil
	}
	return t, t.dial(g, seeds)
}

// dial is a breadth-first search with a bucket per distance (Dial's
// algorithm), for moves of any cost: the states at distance d are final
// when the search reaches d, as every move costs at least 1.
func (t *table) dial(g graph, seeds []uint64) error {
	for _, s := range seeds {
		t.data[s] = 0
	}
	pending := 0
	var over error
	for d := 0; d <= pending && over == nil; d++ {
		count := uint64(0)
		relax := func(j uint64, cost int) {
			nd := d + cost
			if nd > maxDistance8 {
				over = fmt.Errorf("a distance of more than %d moves", maxDistance8)
				return
			}
			if int(t.data[j]) > nd {
				t.data[j] = byte(nd)
				pending = max(pending, nd)
			}
		}
		for i := 0; i < len(t.data); {
			k := bytes.IndexByte(t.data[i:], byte(d))
			if k < 0 {
				break
			}
			i += k
			count++
			g.back(uint64(i), relax)
			i++
		}
		t.layers = append(t.layers, count)
	}
	for len(t.layers) > 1 && t.layers[len(t.layers)-1] == 0 {
		t.layers = t.layers[:len(t.layers)-1]
	}
	return over
}

// bfs2 is a breadth-first search for moves that cost 1, over a two-bit
// table, with a bit set of the current layer and one of the next.
func (t *table) bfs2(g graph, seeds []uint64) {
	words := (t.n + 63) / 64
	cur, next := make([]uint64, words), make([]uint64, words)
	for _, s := range seeds {
		t.set2(s, 0)
		cur[s>>6] |= 1 << (s & 63)
	}
	for d := 0; ; d++ {
		count := uint64(0)
		code := (d + 1) % 3
		visit := func(j uint64, _ int) {
			if t.get(j) == unseen2 {
				t.set2(j, code)
				next[j>>6] |= 1 << (j & 63)
			}
		}
		for w, x := range cur {
			for x != 0 {
				i := uint64(w)<<6 | uint64(bits.TrailingZeros64(x))
				x &= x - 1
				count++
				g.back(i, visit)
			}
		}
		if count == 0 {
			break
		}
		t.layers = append(t.layers, count)
		cur, next = next, cur
		clear(next)
	}
}

// marshal writes the table for the disk cache.
func (t *table) marshal() []byte {
	var b bytes.Buffer
	flag := uint64(0)
	if t.twoBit {
		flag = 1
	}
	for _, v := range []uint64{t.n, flag, uint64(len(t.layers))} {
		binary.Write(&b, binary.LittleEndian, v)
	}
	binary.Write(&b, binary.LittleEndian, t.layers)
	b.Write(t.data)
	return b.Bytes()
}

// unmarshalTable reads what marshal wrote; an error for anything else.
func unmarshalTable(p []byte, n uint64, twoBit bool) (*table, error) {
	if len(p) < 24 {
		return nil, errors.New("short table")
	}
	h := func(i int) uint64 { return binary.LittleEndian.Uint64(p[8*i:]) }
	layers := h(2)
	if h(0) != n || (h(1) == 1) != twoBit || h(1) > 1 || layers > 1<<16 {
		return nil, errors.New("another table")
	}
	p = p[24:]
	if uint64(len(p)) < 8*layers {
		return nil, errors.New("short table")
	}
	t := &table{n: n, twoBit: twoBit}
	for i := range layers {
		t.layers = append(t.layers, binary.LittleEndian.Uint64(p[8*i:]))
	}
	p = p[8*layers:]
	want := n
	if twoBit {
		want = (n + 3) / 4
	}
	if uint64(len(p)) != want {
		return nil, errors.New("table of the wrong size")
	}
	t.data = p
	return t, nil
}
