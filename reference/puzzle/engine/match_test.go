package engine

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestMatcherAgainstNaive compares the compiled guards of random rules
// with each variant's conditions checked one by one, on random states:
// the moves found, the states they lead to, and the error where two
// variants of one move hold. With a bound of 0 every anchor's graph is
// past it, so the one-by-one chains are compared too.
func TestMatcherAgainstNaive(t *testing.T) {
	for _, bound := range []int{graphBound, 0} {
		for seed := range uint64(40) {
			t.Run(fmt.Sprintf("bound%d/seed%d", bound, seed), func(t *testing.T) {
				defer func(b int) { graphBound = b }(graphBound)
				graphBound = bound
				r := rand.New(rand.NewPCG(seed, 7))
				cells, values := 2+r.IntN(6), 1+r.IntN(4)
				g := randomGuarded(r, cells, values)
				for range 200 {
					st := make([]uint8, cells)
					for i := range st {
						st[i] = uint8(r.IntN(values))
					}
					compareNaive(t, g, st)
				}
			})
		}
	}
}

// randomGuarded makes rules of a few moves, each of a few variants of up
// to five conditions of every kind on cells of values.
func randomGuarded(r *rand.Rand, cells, values int) *Guarded {
	g := &Guarded{}
	moves := 1 + r.IntN(6)
	for m := range moves {
		g.Names = append(g.Names, fmt.Sprint("m", m))
	}
	cond := func() Cond {
		c := Cond{Cell: r.IntN(cells), Value: uint8(r.IntN(values)), Other: -1, Not: r.IntN(4) == 0}
		switch r.IntN(6) {
		case 0:
			c.Other = r.IntN(cells)
		case 1:
			c.Also = &Cond{Cell: r.IntN(cells), Value: uint8(r.IntN(values)), Other: -1}
		}
		return c
	}
	for range 1 + r.IntN(24) {
		v := Variant{Move: r.IntN(moves)}
		for range r.IntN(6) {
			v.When = append(v.When, cond())
		}
		for range 1 + r.IntN(2) {
			a := Assign{Cell: r.IntN(cells), Value: uint8(r.IntN(values)), From: -1}
			if r.IntN(3) == 0 {
				a.From = r.IntN(cells)
			}
			v.Set = append(v.Set, a)
		}
		g.Variants = append(g.Variants, v)
	}
	return g
}

type found struct {
	move int
	next string
}

// compareNaive checks Successors at st against the variants checked one
// by one.
func compareNaive(t *testing.T, g *Guarded, st []uint8) {
	t.Helper()
	var want []found
	holds := map[int]int{}
	for _, v := range g.Variants {
		if !allHold(v.When, st) {
			continue
		}
		holds[v.Move]++
		next := slices.Clone(st)
		for _, a := range v.Set {
			if a.From >= 0 {
				next[a.Cell] = st[a.From]
			} else {
				next[a.Cell] = a.Value
			}
		}
		want = append(want, found{v.Move, string(next)})
	}
	twice := false
	for _, n := range holds {
		twice = twice || n > 1
	}
	slices.SortStableFunc(want, func(a, b found) int { return a.move - b.move })
	var got []found
	err := g.Successors(st, func(m int, next []uint8) { got = append(got, found{m, string(next)}) })
	switch {
	case twice && err == nil:
		t.Fatalf("at %v: got no error, want one (a move made two ways)", st)
	case !twice && err != nil:
		t.Fatalf("at %v: got %v, want no error", st, err)
	case !twice && !slices.Equal(got, want):
		t.Fatalf("at %v: got %v, want %v", st, got, want)
	}
}
