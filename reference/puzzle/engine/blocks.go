package engine

import "bytes"

// bfsBlocks is a breadth-first search over indices for a space with
// orientations, block by block as twsearch's God's-number search does
// (src/cpp/god.cpp): the index is a permutation coordinate times the
// orientation count, so the states of one permutation coordinate p form a
// block, and a move takes the whole block to the block of permB[p][m],
// each orientation o to oriB[o][m]. Scanning each layer's blocks in
// order, with a move's orientation table laid out for the block, keeps
// both the reads and the writes within two blocks at a time instead of
// scattering them over the table. The table is of bytes while it is
// built, then packed to two bits when the backend keeps two.
func (b *tableBackend) bfsBlocks(seeds []uint64) *table {
	s := b.space
	P, O := s.permSize, s.oriSize
	moves := uint64(len(b.sp.Moves))
	t := newTable(s.size, false)
	// oriT[m*O+o] is oriB[o*moves+m]: one move's row, contiguous.
	oriT := make([]uint32, moves*O)
	for o := range O {
		for m := range moves {
			oriT[m*O+o] = b.oriB[o*moves+m]
		}
	}
	var n uint64
	for _, i := range seeds {
		if t.data[i] == unseen8 {
			t.data[i] = 0
			n++
		}
	}
	var at []uint32 // the orientations of the block's states at distance d
	for d := byte(0); n > 0; d++ {
		t.layers = append(t.layers, n)
		n = 0
		for p := range P {
			block := t.data[p*O : (p+1)*O]
			at = indexAll(at[:0], block, d)
			if len(at) == 0 {
				continue
			}
			for m := range moves {
				q := uint64(b.permB[p*moves+m])
				dst := t.data[q*O : (q+1)*O]
				row := oriT[m*O : (m+1)*O]
				for _, o := range at {
					if j := row[o]; dst[j] == unseen8 {
						dst[j] = d + 1
						n++
					}
				}
			}
		}
	}
	if !b.twoBit {
		return t
	}
	two := newTable(s.size, true)
	two.layers = t.layers
	for i, v := range t.data {
		if v != unseen8 {
			two.set2(uint64(i), int(v)%3)
		}
	}
	return two
}

// indexAll appends to at the offsets in block of every byte d.
func indexAll(at []uint32, block []byte, d byte) []uint32 {
	for o := bytes.IndexByte(block, d); o >= 0; {
		at = append(at, uint32(o))
		k := bytes.IndexByte(block[o+1:], d)
		if k < 0 {
			break
		}
		o += 1 + k
	}
	return at
}
