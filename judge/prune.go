package judge

import (
	"slices"

	"github.com/optjudge/optjudge/problems"
)

// pruner returns, for a grading's tests, which later tests a rejected test
// i makes unnecessary under Lazy: every later one, but in a Kattis
// package's own tests, those its grading rules would not read.
func (g *grader) pruner(tests []problems.Test) func(i int) []int {
	all := func(i int) []int {
		out := make([]int, 0, len(tests)-i-1)
		for k := i + 1; k < len(tests); k++ {
			out = append(out, k)
		}
		return out
	}
	if !gradable(g.p, tests) {
		return all
	}
	index := map[string]int{}
	for i, t := range tests {
		index[t.Name] = i
	}
	later := func(i int, ts []*problems.Test, out *[]int) {
		for _, t := range ts {
			if k, ok := index[t.Name]; ok && k > i && !slices.Contains(*out, k) {
				*out = append(*out, k)
			}
		}
	}
	if g.p.GroupRules == problems.GroupRules2025 {
		if !g.p.Type.Scoring {
			return all
		}
		return func(i int) []int { return prune2025(g.p, tests[i], i, later) }
	}
	parents := parentsOf(g.p.Groups)
	return func(i int) []int {
		var out []int
		var node any = tests[i].Name
		for {
			at, ok := parents[node]
			if !ok || at.g.Settings.OnReject != problems.OnRejectBreak {
				return out
			}
			for _, it := range at.g.Items[at.k+1:] {
				if it.Test != nil {
					later(i, []*problems.Test{it.Test}, &out)
				} else {
					later(i, it.Group.AllTests(), &out)
				}
			}
			if mayAccept(at.g) {
				return out // the group may be accepted all the same: its parent goes on
			}
			node = at.g
		}
	}
}

// place is an item's group and index in it.
type place struct {
	g *problems.Group
	k int
}

// parentsOf maps each test (by name) and group below root to its place.
func parentsOf(root *problems.Group) map[any]place {
	m := map[any]place{}
	root.Walk(func(g *problems.Group) {
		for k, it := range g.Items {
			if it.Test != nil {
				m[it.Test.Name] = place{g, k}
			} else {
				m[it.Group] = place{g, k}
			}
		}
	})
	return m
}

// mayAccept says whether a legacy group may be accepted though one of its
// items is not: its grader accepts anyway, or is the package's own.
func mayAccept(g *problems.Group) bool {
	if g.Settings.Grading == "custom" {
		return true
	}
	return slices.Contains(g.Settings.GraderFlags, "always_accept") || slices.Contains(g.Settings.GraderFlags, "accept_if_any_accepted")
}

// prune2025 is what a rejected test of a 2025-09 scoring problem makes
// unnecessary: the rest of its group when that scores pass-fail or min
// (its score is then 0), and the groups that require its group.
func prune2025(p *problems.Problem, t problems.Test, i int, later func(int, []*problems.Test, *[]int)) []int {
	var out []int
	g := p.GroupOf(t)
	if g == nil {
		return nil
	}
	if g.Settings.Aggregation != problems.AggregateSum {
		later(i, g.AllTests(), &out)
	}
	p.Groups.Walk(func(d *problems.Group) {
		if slices.Contains(d.Settings.RequirePass, g.Name) {
			later(i, d.AllTests(), &out)
		}
	})
	return out
}
