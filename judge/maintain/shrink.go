package maintain

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/optjudge/optjudge/judge"
	"github.com/optjudge/optjudge/verdict"
)

// perDepth is how many random cases shrinking tries at each smaller depth.
const perDepth = 2

// shrink turns f.Input into a minimal input that fails the same way: the
// fewest cases, then each case as shallow as it can be. Every candidate is
// graded the full way, in batches that run in parallel.
func (s *stresser) shrink(ctx context.Context, f *Failure) error {
	cases, err := s.tools.Split(f.Input)
	if err != nil {
		return fmt.Errorf("splitting the failing input: %w", err)
	}
	cur := &judge.TestResult{Verdict: f.Verdict, Message: f.Message}
	if len(cases) > 1 {
		if cases, cur, err = s.fewestCases(ctx, cases, cur); err != nil {
			return err
		}
	}
	for i := range cases {
		if cur, err = s.shallowest(ctx, cases, i, cur); err != nil {
			return err
		}
	}
	if f.Shrunk, err = s.tools.Join(cases); err != nil {
		return err
	}
	if f.ShrunkAnswer, err = s.p.Reference.Solve(f.Shrunk); err != nil {
		return err
	}
	f.ShrunkVerdict, f.ShrunkMessage, f.Cases, f.Gradings = cur.Verdict, cur.Message, len(cases), s.runs
	f.Depth = -1
	for _, c := range cases {
		f.Depth = max(f.Depth, s.depth(c))
	}
	return nil
}

func (s *stresser) step(format string, args ...any) {
	if s.o.Shrinking != nil {
		s.o.Shrinking(fmt.Sprintf(format, args...))
	}
}

// try grades candidate inputs, each made of cases, and returns the index of
// the one that fails like want with the least key (the first on a tie), or
// -1.
func (s *stresser) try(ctx context.Context, cands [][][]byte, want verdict.Verdict, key func(i int) int) (int, *judge.TestResult, error) {
	inputs := make([][]byte, len(cands))
	for i, c := range cands {
		in, err := s.tools.Join(c)
		if err != nil {
			return -1, nil, err
		}
		inputs[i] = in
	}
	s.runs += len(inputs)
	results, err := s.grade(ctx, inputs, false)
	if err != nil {
		return -1, nil, err
	}
	best := -1
	for i, r := range results {
		if r != nil && r.Verdict == want && (best < 0 || key(i) < key(best)) {
			best = i
		}
	}
	if best < 0 {
		return -1, nil, nil
	}
	return best, results[best], nil
}

// depth is a case's optimal distance; a case without a solution sorts after
// every solvable one.
func (s *stresser) depth(c []byte) int {
	d, err := s.tools.Depth(c)
	if err != nil || d < 0 {
		return s.tools.MaxDepth() + 1
	}
	return d
}

// fewestCases tries each case alone, keeping the shallowest that fails;
// when none fails alone, it runs delta debugging (ddmin) over the list:
// halves, then finer chunks and their complements.
func (s *stresser) fewestCases(ctx context.Context, cases [][]byte, cur *judge.TestResult) ([][]byte, *judge.TestResult, error) {
	s.step("trying each of the %d cases alone", len(cases))
	singles := make([][][]byte, len(cases))
	for i, c := range cases {
		singles[i] = [][]byte{c}
	}
	i, r, err := s.try(ctx, singles, cur.Verdict, func(i int) int { return s.depth(cases[i]) })
	if err != nil || i >= 0 {
		return singles[max(i, 0)], r, err
	}
	for n := 2; len(cases) >= 2; {
		chunks := chunk(cases, n)
		cands := append([][][]byte(nil), chunks...)
		if n > 2 {
			for k := range chunks {
				cands = append(cands, complement(chunks, k))
			}
		}
		s.step("trying %d chunks of %d cases", len(cands), len(cases))
		i, r, err := s.try(ctx, cands, cur.Verdict, func(i int) int { return i })
		switch {
		case err != nil:
			return nil, nil, err
		case i >= 0 && i < len(chunks):
			cases, cur, n = cands[i], r, 2
		case i >= 0:
			cases, cur, n = cands[i], r, max(n-1, 2)
		case n >= len(cases):
			return cases, cur, nil
		default:
			n = min(2*n, len(cases))
		}
	}
	return cases, cur, nil
}

// chunk cuts cases into n nearly equal runs.
func chunk(cases [][]byte, n int) [][][]byte {
	out := make([][][]byte, 0, n)
	for k := range n {
		lo, hi := k*len(cases)/n, (k+1)*len(cases)/n
		if lo < hi {
			out = append(out, cases[lo:hi])
		}
	}
	return out
}

func complement(chunks [][][]byte, skip int) [][]byte {
	var out [][]byte
	for k, c := range chunks {
		if k != skip {
			out = append(out, c...)
		}
	}
	return out
}

// shallowest replaces cases[i] by the shallowest case that still fails: it
// tries every case along the reference's optimal path from cases[i] toward
// the goal, and perDepth random cases at every smaller depth, and starts
// again from the shallowest failing one until none is shallower.
func (s *stresser) shallowest(ctx context.Context, cases [][]byte, i int, cur *judge.TestResult) (*judge.TestResult, error) {
	for round := 0; ; round++ {
		d := s.depth(cases[i])
		if d <= 0 || d > s.tools.MaxDepth() {
			return cur, nil
		}
		path, err := s.tools.Path(cases[i])
		if err != nil {
			return nil, err
		}
		var cands [][][]byte
		var depths []int
		add := func(c []byte, depth int) {
			cand := append([][]byte(nil), cases...)
			cand[i] = c
			cands, depths = append(cands, cand), append(depths, depth)
		}
		for j, c := range path {
			add(c, d-1-j)
		}
		r := rand.New(rand.NewPCG(s.o.Seed, 1<<63|uint64(round)))
		for dd := range d {
			for range perDepth {
				if c, ok := s.tools.AtDepth(r, dd); ok {
					add(c, dd)
				}
			}
		}
		s.step("case %d at depth %d: trying %d shallower cases", i+1, d, len(cands))
		k, res, err := s.try(ctx, cands, cur.Verdict, func(k int) int { return depths[k] })
		if err != nil || k < 0 {
			return cur, err
		}
		cases[i], cur = cands[k][i], res
	}
}
