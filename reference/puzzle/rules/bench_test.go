package rules_test

import (
	"context"
	"os"
	"path/filepath"
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
