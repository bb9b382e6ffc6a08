package engine

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestKeySetAgainstMap numbers random keys in a keySet and in a Go map,
// through growth, and with keys of one length and then of several.
func TestKeySetAgainstMap(t *testing.T) {
	for _, lengths := range []int{1, 3} {
		t.Run(fmt.Sprint(lengths, "lengths"), func(t *testing.T) {
			r := rand.New(rand.NewPCG(uint64(lengths), 1))
			s, want := newKeySet(), map[string]int{}
			for i := range 20000 {
				n := 4
				if i > 5000 {
					n += r.IntN(lengths)
				}
				k := make([]uint8, n)
				for j := range k {
					k[j] = uint8(r.IntN(6))
				}
				u, at := s.locate(k)
				w, ok := want[string(k)]
				switch {
				case ok && u != w:
					t.Fatalf("key %v: got %d, want %d", k, u, w)
				case !ok && u >= 0:
					t.Fatalf("key %v: got %d, want none", k, u)
				case !ok:
					want[string(k)] = s.insert(k, at)
				}
			}
			if s.len() != len(want) {
				t.Fatalf("got %d keys, want %d", s.len(), len(want))
			}
			for k, u := range want {
				if got, ok := s.lookup([]uint8(k)); !ok || got != u || string(s.key(u)) != k {
					t.Fatalf("key %v: got %d (%v), want %d", []uint8(k), got, s.key(got), u)
				}
			}
		})
	}
}
