package engine_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/optjudge/optjudge/reference/puzzle"
	"github.com/optjudge/optjudge/reference/puzzle/engine"
)

// orbitState is a position of a definition of sets for the test's own
// search: the symbol and orientation in each cell, by name.
type orbitState struct {
	sym map[string]string
	ori map[string]int
}

func (s orbitState) key(cells []string) string {
	k := ""
	for _, c := range cells {
		k += fmt.Sprintf("%s%d ", s.sym[c], s.ori[c])
	}
	return k
}

// orbitMove applies a declared move of cycles and twists (forward, or
// undone with back) straight from the definition's names: the content of
// a cycle's cell goes to the next, and the piece landing in a twisted
// cell gains its twist modulo its set's orientation.
func orbitMove(d *puzzle.Definition, mod map[string]int, m puzzle.Move, s orbitState, back bool) orbitState {
	out := orbitState{sym: map[string]string{}, ori: map[string]int{}}
	for c := range s.sym {
		out.sym[c], out.ori[c] = s.sym[c], s.ori[c]
	}
	for _, cyc := range m.Cycles {
		for i, from := range cyc {
			to := cyc[(i+1)%len(cyc)]
			if back {
				// old[from] = new[to] - twist[to]
				out.sym[from] = s.sym[to]
				out.ori[from] = ((s.ori[to]-m.Twist[to])%mod[to] + mod[to]) % mod[to]
			} else {
				out.sym[to] = s.sym[from]
				out.ori[to] = (s.ori[from] + m.Twist[to]) % mod[to]
			}
		}
	}
	return out
}

// TestOrbitsDistribution checks the engine's table of a puzzle of three
// sets (orientations 3, 2 and none, identical edges) against a plain
// breadth-first search over the definition's own names, and that every
// answer replays to the goal in as many moves as the search's distance.
func TestOrbitsDistribution(t *testing.T) {
	d := definition(t, "orbits")
	in, s := solver(t, "orbits", 0, engine.Options{CacheDir: t.TempDir()})
	if s.Method() != engine.MethodTable {
		t.Fatalf("method %v, want table", s.Method())
	}
	mod := map[string]int{}
	var cells []string
	for _, set := range d.Sets {
		for _, c := range set.Cells {
			mod[c] = max(set.Orientation, 1)
			cells = append(cells, c)
		}
	}
	byName := map[string]puzzle.Move{}
	for _, m := range d.Moves {
		byName[m.Name] = m
	}
	next := func(st orbitState, name string) orbitState {
		m := byName[name]
		if m.Inverse != "" {
			return orbitMove(d, mod, byName[m.Inverse], st, true)
		}
		return orbitMove(d, mod, m, st, false)
	}
	goal := orbitState{sym: map[string]string{}, ori: map[string]int{}}
	for i, c := range cells {
		goal.sym[c] = d.Goal.State[i]
	}
	dist := map[string]int{goal.key(cells): 0}
	states := map[string]orbitState{goal.key(cells): goal}
	layer, want := []orbitState{goal}, []uint64{1}
	for len(layer) > 0 {
		var nl []orbitState
		for _, st := range layer {
			for _, m := range d.Moves {
				n := next(st, m.Name)
				if _, ok := dist[n.key(cells)]; !ok {
					dist[n.key(cells)] = len(want)
					states[n.key(cells)] = n
					nl = append(nl, n)
				}
			}
		}
		if len(nl) > 0 {
			want = append(want, uint64(len(nl)))
		}
		layer = nl
	}
	got, _ := s.Distribution()
	t.Logf("distribution %v", got)
	if !slices.Equal(got, want) {
		t.Fatalf("distribution %v, want %v", got, want)
	}
	for k, st := range states {
		es := engine.State{Cells: make([]uint8, len(cells)), Orient: make([]uint8, len(cells))}
		for i, c := range cells {
			v, _ := in.Symbol(st.sym[c])
			es.Cells[i], es.Orient[i] = uint8(v), uint8(st.ori[c])
		}
		moves, err := s.Solve(ctx, es)
		if err != nil {
			t.Fatalf("%s: %v", k, err)
		}
		if len(moves) != dist[k] {
			t.Fatalf("%s: %d moves, want %d", k, len(moves), dist[k])
		}
		cur := st
		for _, m := range moves {
			cur = next(cur, in.Moves[m])
		}
		if cur.key(cells) != goal.key(cells) {
			t.Fatalf("%s: %v leaves %s", k, moves, cur.key(cells))
		}
	}
}
