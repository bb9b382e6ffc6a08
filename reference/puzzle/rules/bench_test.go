package rules_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/optjudge/optjudge/reference/puzzle"
	"github.com/optjudge/optjudge/reference/puzzle/engine"
)

// definitions are the shipped definitions read, by name.
var definitions = map[string]*puzzle.Definition{}

// shipped loads a shipped problem's definition at a size.
func shipped(tb testing.TB, name string, size int) *puzzle.Instance {
	tb.Helper()
	if d, ok := definitions[name]; ok {
		in, err := d.Instance(size)
		if err != nil {
			tb.Fatal(err)
		}
		return in
	}
	path := filepath.Join("..", "..", "..", "problems", name, puzzle.FileName)
	f, err := os.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	d, err := puzzle.Parse(f, path)
	if err != nil {
		tb.Fatal(err)
	}
	if err := d.Validate(); err != nil {
		tb.Fatal(err)
	}
	definitions[name] = d
	in, err := d.Instance(size)
	if err != nil {
		tb.Fatal(err)
	}
	return in
}

// hardestCard is the Rush Hour card of Collette, Raskin and Servais
// (2006), 93 moves of one cell, its component 24,132 positions; the red
// car is A, the others B to M.
const hardestCard = "BBBCDE" + "FGGCDE" + "F.AADE" + "HHI..." + ".JI.KK" + ".JLLMM"

func cellsOf(in *puzzle.Instance, s string) []uint8 {
	st := make([]uint8, len(s))
	for i := range s {
		v, _ := in.Symbol(s[i : i+1])
		st[i] = uint8(v)
	}
	return st
}

// benchComponent measures the table of a case's component: every state
// explored breadth-first through rules, their distances measured.
func benchComponent(b *testing.B, sp *engine.Spec, st []uint8, states int) {
	b.ReportAllocs()
	for b.Loop() {
		s, err := engine.New(sp, engine.Options{})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := s.Distance(context.Background(), engine.State{Cells: st}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(states)*float64(b.N)/b.Elapsed().Seconds(), "states/s")
}

func BenchmarkRushHourComponent(b *testing.B) {
	in := shipped(b, "rush-hour", 0)
	benchComponent(b, in.Spec, cellsOf(in, hardestCard), 24132)
}

// handwritten are rules whose moves are a Go function over the same
// cells, standing in for the compiled ones: the benchmarks' handwritten
// halves run the same search over them, so that the ratio of the two is
// the cost of taking the moves from rules.
type handwritten struct {
	engine.Rules
	succ func(st []uint8, yield func(m int, next []uint8)) error
}

func (h handwritten) Successors(st []uint8, yield func(m int, next []uint8)) error {
	return h.succ(st, yield)
}

// slides is the hand-written successor function of a sliding-block board
// of rows x cols, its pieces the symbols 1 to n (0 empty): each piece in
// order, D L R U, one cell more each time while the way is free (along its
// own length only, for Rush Hour). index gives a move's number by name.
func slides(in *puzzle.Instance, rows, cols, maxDist int, axis bool) func([]uint8, func(int, []uint8)) error {
	type dir struct {
		name   string
		dr, dc int
	}
	ds := []dir{{"D", 1, 0}, {"L", 0, -1}, {"R", 0, 1}, {"U", -1, 0}}
	moveOf := map[string]int{}
	for i, n := range in.Moves {
		moveOf[n] = i
	}
	ids := make([][4][8]int, len(in.Symbols))
	for p := 1; p < len(in.Symbols); p++ {
		for d, dd := range ds {
			for k := 1; k <= maxDist; k++ {
				ids[p][d][k] = moveOf[fmt.Sprintf("%s%s%d", in.Symbols[p], dd.name, k)]
			}
		}
	}
	// the rules' methods may be called concurrently: each call takes its
	// own buffer, as Guarded's do
	pool := sync.Pool{New: func() any { b := make([]uint8, rows*cols); return &b }}
	return func(st []uint8, yield func(int, []uint8)) error {
		buf := pool.Get().(*[]uint8)
		defer pool.Put(buf)
		next := *buf
		var cells [32]int
		var first, last [32]int
		for p := range first {
			first[p] = -1
		}
		for i, v := range st {
			if first[v] < 0 {
				first[v] = i
			}
			last[v] = i
		}
		for p := 1; p < len(in.Symbols); p++ {
			if first[p] < 0 {
				continue
			}
			across := first[p]/cols == last[p]/cols
			n := 0
			for i := first[p]; i <= last[p]; i++ {
				if st[i] == uint8(p) {
					cells[n], n = i, n+1
				}
			}
			for d, dd := range ds {
				if axis && (dd.dr == 0) != across {
					continue
				}
				for k := 1; k <= maxDist; k++ {
					free := true
					for _, c := range cells[:n] {
						r, q := c/cols+k*dd.dr, c%cols+k*dd.dc
						if r < 0 || r >= rows || q < 0 || q >= cols || st[r*cols+q] != 0 && st[r*cols+q] != uint8(p) {
							free = false
							break
						}
					}
					if !free {
						break
					}
					copy(next, st)
					for _, c := range cells[:n] {
						next[c] = 0
					}
					for _, c := range cells[:n] {
						next[(c/cols+k*dd.dr)*cols+c%cols+k*dd.dc] = uint8(p)
					}
					yield(ids[p][d][k], next)
				}
			}
		}
		return nil
	}
}

// handSpec is in's Spec with its moves made by succ.
func handSpec(in *puzzle.Instance, succ func([]uint8, func(int, []uint8)) error) *engine.Spec {
	sp := *in.Spec
	sp.Rules = handwritten{Rules: in.Spec.Rules, succ: succ}
	return &sp
}

// BenchmarkRushHourComponent is the table of the hardest card's
// component (24,132 positions): rules compiled from the Starlark, and the
// same search over a hand-written successor function.
func BenchmarkRushHourComponentHandwritten(b *testing.B) {
	in := shipped(b, "rush-hour", 0)
	benchComponent(b, handSpec(in, slides(in, 6, 6, 4, true)), cellsOf(in, hardestCard), 24132)
}

// klotskiStart is a board whose component holds 81,462 positions (its
// pieces' letters forgotten).
const klotskiStart = "BBCC" + "DAAE" + "DAAE" + "GFFH" + "I..J"

func BenchmarkKlotskiComponent(b *testing.B) {
	in := shipped(b, "klotski", 0)
	benchComponent(b, in.Spec, cellsOf(in, klotskiStart), 81462)
}

func BenchmarkKlotskiComponentHandwritten(b *testing.B) {
	in := shipped(b, "klotski", 0)
	benchComponent(b, handSpec(in, slides(in, 5, 4, 2, false)), cellsOf(in, klotskiStart), 81462)
}

// BenchmarkRushHourHardest answers the hardest card from nothing: the
// component's table and the descent, in the shipped metric.
func BenchmarkRushHourHardest(b *testing.B) {
	in := shipped(b, "rush-hour", 0)
	st := engine.State{Cells: cellsOf(in, hardestCard)}
	for b.Loop() {
		if _, err := solverOf(b, in).Solve(context.Background(), st); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRushHourHardestSteps is the same where a move slides one cell
// (93 moves).
func BenchmarkRushHourHardestSteps(b *testing.B) {
	in := oneCellRushHour(b)
	st := engine.State{Cells: cellsOf(in, hardestCard)}
	for b.Loop() {
		if _, err := solverOf(b, in).Solve(context.Background(), st); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkHanoiTable builds the table from one goal of ten discs (3^10
// arrangements); BenchmarkHanoiCase then answers a random start towards
// it, the table built: an op a case.
func BenchmarkHanoiTable(b *testing.B) {
	in := shipped(b, "hanoi", 10)
	st := hanoiState([]int{1, 1, 1, 1, 1, 1, 1, 1, 1, 1}, []int{3, 3, 3, 3, 3, 3, 3, 3, 3, 3})
	for b.Loop() {
		if _, err := solverOf(b, in).Solve(context.Background(), st); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkHanoiCase(b *testing.B) {
	in := shipped(b, "hanoi", 10)
	s := solverOf(b, in)
	goal := []int{3, 3, 3, 3, 3, 3, 3, 3, 3, 3}
	r := rand.New(rand.NewPCG(1, 2))
	for b.Loop() {
		pegs := make([]int, 10)
		for i := range pegs {
			pegs[i] = 1 + r.IntN(3)
		}
		if _, err := s.Solve(context.Background(), hanoiState(pegs, goal)); err != nil {
			b.Fatal(err)
		}
	}
}
