package judge

import (
	"github.com/optjudge/optjudge/problems/kattis"
	"github.com/optjudge/optjudge/verdict"
)

// unneeded asks the grading rules which of tests can no longer change the
// outcome, given the results known so far (known[i] for test i, nil for a
// test not known): in a Kattis package's own tests, its grading says
// (kattis.Package.Unneeded); otherwise the verdict is the first rejected
// test's, and every test after a rejected one is unneeded. orderFree says
// that the answer holds whichever results are known, not only those of the
// tests before each (the first-rejected rule): a lazyRun may then skip at
// once what any finished test makes unneeded.
func (g *grader) unneeded(tests []kattis.Test) (unneeded func(known []*TestResult) []bool, orderFree bool) {
	if !gradable(g.p, tests) {
		return func(known []*TestResult) []bool {
			out := make([]bool, len(tests))
			if i := verdict.FirstRejected(known, knownVerdict); i >= 0 {
				for k := i + 1; k < len(out); k++ {
					out[k] = known[k] == nil
				}
			}
			return out
		}, true
	}
	index := map[string]int{}
	for i, t := range tests {
		index[t.Name] = i
	}
	return func(known []*TestResult) []bool {
		results := func(t *kattis.Test) (kattis.TestResult, bool) {
			i, ok := index[t.Name]
			if !ok || known[i] == nil {
				return kattis.TestResult{}, false
			}
			tr := known[i]
			return kattis.TestResult{Verdict: tr.Verdict, Score: tr.validatorScore, Multiplier: tr.validatorMultiplier, Message: tr.Message}, true
		}
		out := make([]bool, len(tests))
		for name := range g.p.Package.Unneeded(results) {
			if i, ok := index[name]; ok {
				out[i] = true
			}
		}
		return out
	}, false
}

// knownVerdict is a result's verdict for the first-rejected rule: a test
// not known yet (nil) is taken as accepted, as Package.Unneeded takes the
// tests to come.
func knownVerdict(r *TestResult) verdict.Verdict {
	if r == nil {
		return verdict.AC
	}
	return r.Verdict
}

// lazyRun keeps a lazy grading's results as a run of one test at a time
// would have them, however many run at once: in test order, each test is
// run unless the results kept before it make it unneeded. It asks the
// grading rules again as the results before each test become known in
// order; and since what is unneeded only grows with the results known, a
// test unneeded by the results known in order so far may be skipped (or
// cancelled) at once, though tests before it still run.
type lazyRun struct {
	unneeded  func(known []*TestResult) []bool
	orderFree bool          // unneeded holds for any results known (see grader.unneeded)
	known     []*TestResult // the results kept, in order up to next
	dead      []bool        // unneeded, by the results in known
	next      int           // the first test not yet kept or dropped
}

func (g *grader) lazyRun(tests []kattis.Test) *lazyRun {
	l := &lazyRun{known: make([]*TestResult, len(tests))}
	l.unneeded, l.orderFree = g.unneeded(tests)
	if need := g.opts.Need; need != nil {
		// the tests a caller reads whatever the grading needs
		unneeded := l.unneeded
		l.unneeded = func(known []*TestResult) []bool {
			out := unneeded(known)
			for i, t := range tests {
				out[i] = out[i] && !need(t)
			}
			return out
		}
	}
	l.dead = l.unneeded(l.known)
	return l
}

// advance takes the results finished so far (results[i] for test i, nil
// while it runs or has not started) and returns the tests, after those
// kept or dropped before, that need not run: those it drops now among
// them.
func (l *lazyRun) advance(results []*TestResult) (skip []int) {
	from := l.next
	for l.next < len(results) {
		i := l.next
		if !l.dead[i] {
			if results[i] == nil {
				break
			}
			l.known[i] = results[i]
			l.dead = l.unneeded(l.known)
		}
		l.next++
	}
	early := l.dead
	if l.orderFree {
		early = l.unneeded(results)
	}
	for k := from; k < len(results); k++ {
		if l.dead[k] || early[k] {
			skip = append(skip, k)
		}
	}
	return skip
}

// kept is the grading's results: those a run of one test at a time would
// have, or for a grading cut short, those that finished and are not known
// to be unneeded.
func (l *lazyRun) kept(results []*TestResult) []TestResult {
	var out []TestResult
	for i, r := range results {
		if r != nil && !l.dead[i] {
			out = append(out, *r)
		}
	}
	return out
}
