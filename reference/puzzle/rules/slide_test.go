package rules_test

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/optjudge/optjudge/reference/puzzle"
	"github.com/optjudge/optjudge/reference/puzzle/engine"
)

// The independent solvers of the sliding-block puzzles: a board is its
// cells row by row, "." empty, a letter per piece; a move slides a piece
// one or more cells in one direction over empty cells, named letter,
// direction (D L R U), distance. Breadth-first from the start, trying the
// moves in that order, the first goal found ends the smallest shortest
// answer (the order of the queue is the order of the answers).
type slider struct {
	rows, cols int
	maxDist    int                 // the longest slide (1 for one-cell steps)
	axis       bool                // a piece slides only along its own length (Rush Hour)
	goal       func(string) bool   // solved
	key        func(string) string // the state for distances
}

var dirs = []struct {
	name   string
	dr, dc int
}{{"D", 1, 0}, {"L", 0, -1}, {"R", 0, 1}, {"U", -1, 0}}

func (s slider) moves(b string) (names, next []string) {
	letters := map[byte]bool{}
	for i := range len(b) {
		if b[i] != '.' {
			letters[b[i]] = true
		}
	}
	var ps []byte
	for p := range letters {
		ps = append(ps, p)
	}
	sort.Slice(ps, func(i, j int) bool { return ps[i] < ps[j] })
	for _, p := range ps {
		first, last := strings.IndexByte(b, p), strings.LastIndexByte(b, p)
		across := first/s.cols == last/s.cols
		for _, d := range dirs {
			if s.axis && (d.dr == 0) != across {
				continue
			}
			cur := []byte(b)
			for dist := 1; dist <= s.maxDist; dist++ {
				nb := []byte(strings.Repeat(".", len(b)))
				ok := true
				for i := range len(cur) {
					switch {
					case cur[i] != p:
						if cur[i] != '.' {
							nb[i] = cur[i]
						}
					default:
						r, c := i/s.cols+d.dr, i%s.cols+d.dc
						if r < 0 || r >= s.rows || c < 0 || c >= s.cols || cur[r*s.cols+c] != '.' && cur[r*s.cols+c] != p {
							ok = false
						}
					}
				}
				if !ok {
					break
				}
				for i := range len(cur) {
					if cur[i] == p {
						nb[(i/s.cols+d.dr)*s.cols+i%s.cols+d.dc] = p
					}
				}
				names, next = append(names, fmt.Sprintf("%c%s%d", p, d.name, dist)), append(next, string(nb))
				cur = nb
			}
		}
	}
	return names, next
}

// solve is the smallest shortest answer from b, and whether there is one.
func (s slider) solve(b string) ([]string, bool) {
	type link struct{ from, move string }
	parent := map[string]link{s.key(b): {}}
	queue := []string{b}
	for len(queue) > 0 {
		cur := queue[0]
		queue = queue[1:]
		if s.goal(cur) {
			var path []string
			for x := cur; s.key(x) != s.key(b); x = parent[s.key(x)].from {
				path = append(path, parent[s.key(x)].move)
			}
			for i, j := 0, len(path)-1; i < j; i, j = i+1, j-1 {
				path[i], path[j] = path[j], path[i]
			}
			return path, true
		}
		names, next := s.moves(cur)
		for i, nb := range next {
			if _, seen := parent[s.key(nb)]; !seen {
				parent[s.key(nb)] = link{cur, names[i]}
				queue = append(queue, nb)
			}
		}
	}
	return nil, false
}

// component lists every board b reaches, by key.
func (s slider) component(b string) []string {
	seen := map[string]bool{s.key(b): true}
	out := []string{b}
	for i := 0; i < len(out); i++ {
		_, next := s.moves(out[i])
		for _, nb := range next {
			if !seen[s.key(nb)] {
				seen[s.key(nb)] = true
				out = append(out, nb)
			}
		}
	}
	return out
}

func identityKey(b string) string { return b }

// relabelKey renames the pieces in order of first appearance.
func relabelKey(b string) string {
	to := map[byte]byte{'.': '.'}
	out := []byte(b)
	for i := range out {
		if _, ok := to[out[i]]; !ok {
			to[out[i]] = byte('a' + len(to) - 1)
		}
		out[i] = to[out[i]]
	}
	return string(out)
}

var rushHour = slider{rows: 6, cols: 6, maxDist: 4, axis: true, key: identityKey,
	goal: func(b string) bool { return b[16] == 'A' && b[17] == 'A' }}

var klotski = slider{rows: 5, cols: 4, maxDist: 2, key: relabelKey,
	goal: func(b string) bool { return b[13] != '.' && b[13] == b[14] && b[13] == b[17] && b[13] == b[18] }}

// engineSolve is the engine's answer from board b, "" and false when there
// is none.
func engineSolve(t *testing.T, in *puzzle.Instance, s *engine.Solver, b string) (string, bool) {
	t.Helper()
	moves, err := s.Solve(ctx, engine.State{Cells: cellsOf(in, b)})
	if err == engine.ErrUnsolvable {
		return "", false
	}
	if err != nil {
		t.Fatal(err)
	}
	return names(in, moves), true
}

// distances are the distances to the goal of every board of a component,
// breadth-first backwards from its goals (every move can be undone, so
// the moves out of a board are the moves into it).
func (s slider) distances(comp []string) map[string]int {
	dist := map[string]int{}
	var queue []string
	for _, b := range comp {
		if s.goal(b) {
			dist[s.key(b)] = 0
			queue = append(queue, b)
		}
	}
	for len(queue) > 0 {
		b := queue[0]
		queue = queue[1:]
		_, next := s.moves(b)
		for _, nb := range next {
			if _, ok := dist[s.key(nb)]; !ok {
				dist[s.key(nb)] = dist[s.key(b)] + 1
				queue = append(queue, nb)
			}
		}
	}
	return dist
}

// compareAll compares the engine with the independent solver on b's
// component: the distance from every board, and the whole answer from
// answers boards spread over it.
func compareAll(t *testing.T, in *puzzle.Instance, sl slider, b string, answers int) int {
	s := solverOf(t, in)
	comp := sl.component(b)
	dist := sl.distances(comp)
	for _, x := range comp {
		want, ok := dist[sl.key(x)]
		got, err := s.Distance(ctx, engine.State{Cells: cellsOf(in, x)})
		if !ok && err != engine.ErrUnsolvable || ok && (err != nil || got != want) {
			t.Fatalf("from %s: got distance %d (%v), want %d (%v)", x, got, err, want, ok)
		}
	}
	step := max(1, len(comp)/answers)
	for i := 0; i < len(comp); i += step {
		want, wantOK := sl.solve(comp[i])
		got, ok := engineSolve(t, in, s, comp[i])
		if ok != wantOK || got != strings.Join(want, " ") {
			t.Fatalf("from %s: got %q (%v), want %q (%v)", comp[i], got, ok, strings.Join(want, " "), wantOK)
		}
	}
	return len(comp)
}

// TestRushHourEveryState compares the engine with the independent solver
// on every position of the sample's lot and of the hardest card's:
// distances, and answers from 200 and 20 of them.
func TestRushHourEveryState(t *testing.T) {
	in := shipped(t, "rush-hour", 0)
	n := compareAll(t, in, rushHour, "..B..."+"..B.C."+"AAB.C."+"......"+".DDD.."+"......", 200)
	n += compareAll(t, in, rushHour, hardestCard, 20)
	t.Logf("%d positions", n)
}

// TestKlotskiEveryState compares the engine with the independent solver
// on every position of a board's component: distances, and answers from
// 10 (the independent search explores the component again from each).
func TestKlotskiEveryState(t *testing.T) {
	in := shipped(t, "klotski", 0)
	n := compareAll(t, in, klotski, "BBCC"+"DAAE"+"DAAE"+"GFFH"+"I..J", 10)
	t.Logf("%d positions", n)
}

// TestRushHourHardest checks the published facts of the hardest card
// (Collette, Raskin and Servais 2006): 93 moves where each slides one
// cell, in a component of 24,132 positions; and the answer in the shipped
// metric, where a slide of any length counts one.
func TestRushHourHardest(t *testing.T) {
	in := shipped(t, "rush-hour", 0)
	got, _ := engineSolve(t, in, solverOf(t, in), hardestCard)
	want, _ := rushHour.solve(hardestCard)
	if got != strings.Join(want, " ") {
		t.Errorf("any slide counting one: got %q, want %q", got, strings.Join(want, " "))
	}
	steps := oneCellRushHour(t)
	moves, err := solverOf(t, steps).Solve(ctx, engine.State{Cells: cellsOf(steps, hardestCard)})
	if err != nil {
		t.Fatal(err)
	}
	if len(moves) != 93 {
		t.Errorf("one-cell steps: got %d moves, want 93", len(moves))
	}
	oneCell := rushHour
	oneCell.maxDist = 1
	if n := len(oneCell.component(hardestCard)); n != 24132 {
		t.Errorf("the card's component has %d positions, want 24,132", n)
	}
}

// oneCellRushHour is the shipped Rush Hour where a move slides one cell.
func oneCellRushHour(t testing.TB) *puzzle.Instance {
	data, err := os.ReadFile(filepath.Join("..", "..", "..", "problems", "rush-hour", puzzle.FileName))
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Replace(string(data), "MAX_SLIDE = N - 2", "MAX_SLIDE = 1", 1)
	d, err := parse(t, "rush-hour-steps.yaml", text)
	if err != nil {
		t.Fatal(err)
	}
	in, err := d.Instance(0)
	if err != nil {
		t.Fatal(err)
	}
	return in
}
