package puzzle

import (
	"math/rand/v2"
	"testing"

	"github.com/optjudge/optjudge/reference/puzzle/engine"
)

// The pocket cube's definition is checked against a cube built from
// geometry: each of the 24 stickers is a corner's position and the
// direction its face points to (x right, y up, z front), a face turn
// rotates the stickers of its layer a quarter clockwise seen from outside,
// and the facelets are numbered as issue 20 fixes them (Kociemba's order,
// four a face, each face row by row).

type vec [3]int

func (a vec) dot(b vec) int { return a[0]*b[0] + a[1]*b[1] + a[2]*b[2] }
func (a vec) cross(b vec) vec {
	return vec{a[1]*b[2] - a[2]*b[1], a[2]*b[0] - a[0]*b[2], a[0]*b[1] - a[1]*b[0]}
}

// turn rotates v a quarter turn clockwise seen from the tip of axis a:
// by -90 degrees, v' = a(a.v) - a x v.
func turn(a, v vec) vec {
	k, c := a.dot(v), a.cross(v)
	return vec{a[0]*k - c[0], a[1]*k - c[1], a[2]*k - c[2]}
}

type sticker struct{ pos, normal vec }

// facelets lists the 24 stickers in the input's order.
func facelets() []sticker {
	type face struct {
		normal, down, right vec // the face, and its rows' and columns' directions seen facing it
	}
	faces := []face{
		{vec{0, 1, 0}, vec{0, 0, 1}, vec{1, 0, 0}},    // U, B at the top
		{vec{1, 0, 0}, vec{0, -1, 0}, vec{0, 0, -1}},  // R, U at the top
		{vec{0, 0, 1}, vec{0, -1, 0}, vec{1, 0, 0}},   // F
		{vec{0, -1, 0}, vec{0, 0, -1}, vec{1, 0, 0}},  // D, F at the top
		{vec{-1, 0, 0}, vec{0, -1, 0}, vec{0, 0, 1}},  // L
		{vec{0, 0, -1}, vec{0, -1, 0}, vec{-1, 0, 0}}, // B
	}
	var out []sticker
	for _, f := range faces {
		for _, row := range []int{-1, 1} {
			for _, col := range []int{-1, 1} {
				var p vec
				for i := range p {
					p[i] = f.normal[i] + row*f.down[i] + col*f.right[i]
				}
				out = append(out, sticker{p, f.normal})
			}
		}
	}
	return out
}

// geometricMove returns the facelet permutation of a face's quarter turn:
// the sticker at facelet i goes to facelet perm[i].
func geometricMove(axis vec) []int {
	fs := facelets()
	perm := make([]int, len(fs))
	for i, s := range fs {
		perm[i] = i
		if s.pos.dot(axis) != 1 {
			continue
		}
		to := sticker{turn(axis, s.pos), turn(axis, s.normal)}
		for j, t := range fs {
			if t == to {
				perm[i] = j
			}
		}
	}
	return perm
}

// readStickers turns facelet colours into a state by the definition's
// sticker input; false if some cell shows no piece.
func readStickers(in *Instance, colours []string) (engine.State, bool) {
	k := in.Spec.Orient
	s := engine.State{Cells: make([]uint8, in.Spec.Cells), Orient: make([]uint8, in.Spec.Cells)}
	for c, fs := range in.Facelets {
		found := false
		for p, pc := range in.Colors {
			for t := range k {
				match := true
				for j := range k {
					if colours[fs[(t+j)%k]] != pc[j] {
						match = false
					}
				}
				if match {
					s.Cells[c], s.Orient[c], found = uint8(p), uint8(t), true
				}
			}
		}
		if !found {
			return s, false
		}
	}
	return s, true
}

func TestPocketCubeGeometry(t *testing.T) {
	in := instance(t, load(t, "pocket-cube"), 0)
	faceOf := []string{"U", "R", "F", "D", "L", "B"}
	solved := make([]string, 24)
	for i := range solved {
		solved[i] = faceOf[i/4]
	}
	start, ok := readStickers(in, solved)
	if !ok || !in.Spec.IsGoal(start) {
		t.Fatalf("the solved cube reads as %v, want the goal", start)
	}
	axes := map[string]vec{"U": {0, 1, 0}, "R": {1, 0, 0}, "F": {0, 0, 1}}
	turns := map[string][]string{ // each move as quarter turns
		"U": {"U"}, "U2": {"U", "U"}, "U'": {"U", "U", "U"},
		"R": {"R"}, "R2": {"R", "R"}, "R'": {"R", "R", "R"},
		"F": {"F"}, "F2": {"F", "F"}, "F'": {"F", "F", "F"},
	}
	r := rand.New(rand.NewPCG(5, 6))
	colours, state := append([]string(nil), solved...), start
	for step := range 300 {
		name := in.Moves[r.IntN(len(in.Moves))]
		for _, q := range turns[name] {
			perm := geometricMove(axes[q])
			next := make([]string, len(colours))
			for i, to := range perm {
				next[to] = colours[i]
			}
			colours = next
		}
		m, _ := in.Move(name)
		state, _ = in.Spec.Apply(state, m)
		want, ok := readStickers(in, colours)
		if !ok {
			t.Fatalf("step %d (%s): the stickers %v read as no position", step, name, colours)
		}
		if !state.Equal(want) {
			t.Fatalf("step %d (%s): the definition gives %v, the geometry %v", step, name, state, want)
		}
		if dbl, _ := in.Cell("DBL"); state.Cells[dbl] != uint8(dbl) || state.Orient[dbl] != 0 {
			t.Fatalf("step %d (%s): the DBL corner moved", step, name)
		}
	}
}
