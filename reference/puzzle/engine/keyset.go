package engine

import "hash/maphash"

// keySet numbers byte strings (states' keys) in the order they are added:
// an open-addressing hash table with linear probing over one arena of the
// keys, so that a breadth-first search of rules allocates nothing a state
// (a Go map of strings allocates each key) and compares a key only where
// the slot's hash bits match. It is what the tables of rules spend most of
// their time in after the moves themselves.
//
// Lookups may run concurrently once adding has stopped.
type keySet struct {
	seed  maphash.Seed
	arena []uint8
	// width is every key's length while they all have one, so that a
	// key's place is u*width; -1 once they differ, then ends holds each
	// key's end in arena.
	width int
	ends  []int
	n     int
	// slots hold, for the key numbered u, its hash's high 32 bits and u+1
	// (0 is a free slot); their number is a power of two, at least twice n.
	slots []uint64
}

func newKeySet() *keySet {
	return &keySet{seed: maphash.MakeSeed(), width: -2, slots: make([]uint64, 1024)}
}

// len is the number of keys.
func (s *keySet) len() int { return s.n }

// key returns the key numbered u (shared; do not change it).
func (s *keySet) key(u int) []uint8 {
	if s.width >= 0 {
		return s.arena[u*s.width : (u+1)*s.width]
	}
	from := 0
	if u > 0 {
		from = s.ends[u-1]
	}
	return s.arena[from:s.ends[u]]
}

// find returns the number of k, whose hash is h, or -1, and the slot
// where k is or would go.
func (s *keySet) find(k []uint8, h uint64) (int, int) {
	tag := h >> 32 << 32
	mask := len(s.slots) - 1
	for i := int(h) & mask; ; i = (i + 1) & mask {
		e := s.slots[i]
		if e == 0 {
			return -1, i
		}
		if e&^0xffffffff == tag {
			u := int(uint32(e)) - 1
			if string(s.key(u)) == string(k) {
				return u, i
			}
		}
	}
}

// lookup returns the number of k, false when it was never added.
func (s *keySet) lookup(k []uint8) (int, bool) {
	u, _ := s.find(k, s.hash(k))
	return u, u >= 0
}

// place is where a key not in the set goes: its hash and free slot.
type place struct {
	h    uint64
	slot int
}

// locate returns the number of k, -1 when it is not in the set, and the
// place it would go; insert then adds it there, as long as nothing was
// added in between.
func (s *keySet) locate(k []uint8) (int, place) {
	return s.locateHashed(k, s.hash(k))
}

// hash is the hash of k that locateHashed takes.
func (s *keySet) hash(k []uint8) uint64 { return maphash.Bytes(s.seed, k) }

// locateHashed is locate for a key whose hash is known.
func (s *keySet) locateHashed(k []uint8, h uint64) (int, place) {
	u, i := s.find(k, h)
	return u, place{h, i}
}

// insert adds k, which locate did not find, at p and returns its number.
func (s *keySet) insert(k []uint8, p place) int {
	u := s.n
	s.n++
	s.store(k)
	s.slots[p.slot] = p.h>>32<<32 | uint64(u+1)
	if 2*s.n > len(s.slots) {
		s.grow()
	}
	return u
}

// store appends k to the arena, keeping track of the keys' lengths.
func (s *keySet) store(k []uint8) {
	switch {
	case s.width == -2:
		s.width = len(k)
	case s.width >= 0 && len(k) != s.width:
		for u := 1; u < s.n; u++ {
			s.ends = append(s.ends, u*s.width)
		}
		s.width = -1
	}
	s.arena = append(roomFor(s.arena, len(k)), k...)
	if s.width < 0 {
		s.ends = append(s.ends, len(s.arena))
	}
}

// grow doubles the slots and places every key again.
func (s *keySet) grow() {
	s.slots = make([]uint64, 2*len(s.slots))
	mask := len(s.slots) - 1
	for u := range s.n {
		h := maphash.Bytes(s.seed, s.key(u))
		i := int(h) & mask
		for s.slots[i] != 0 {
			i = (i + 1) & mask
		}
		s.slots[i] = h>>32<<32 | uint64(u+1)
	}
}
