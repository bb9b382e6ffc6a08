package judge

// crew is how many workers of a grading run tests at once: base of them
// (GradeOptions.Parallel, one at least and at most one per test) and, when
// lend is set, one more in the place of each test whose run sleeps, its
// token of MaxRuns lent (asleep.go), as long as tests are left to start. A
// worker started so ends after its test once the sleeper has woken, so that
// base workers, and one per sleeper, run.
//
// Not under Lazy (lend unset): the test taken in a sleeper's place would
// likely run in vain, since a test that sleeps is likely to fail and
// decide.
type crew struct {
	lend   bool // set before the grading, read only after
	base   int
	n      int // workers running
	asleep int // tests whose runs have lent their tokens, running still
}

func newCrew(parallel, tests int, lend bool) crew {
	n := min(max(parallel, 1), tests)
	return crew{lend: lend, base: n, n: n}
}

// retire says whether a worker about to take a test is one too many: one
// that took a sleeper's place, the sleeper having woken since. It counts
// that worker gone.
func (c *crew) retire() bool {
	if c.n > c.base+c.asleep {
		c.n--
		return true
	}
	return false
}

// sleeps counts a run that has lent its token, and says whether to start
// a worker in its place: when more tests are left to start.
func (c *crew) sleeps(more bool) bool {
	c.asleep++
	if more {
		c.n++
	}
	return more
}

// wakes counts the end of a run that had lent its token.
func (c *crew) wakes() { c.asleep-- }

// restart counts the crew anew once every worker has ended: the base
// workers (one of them, in fact, the scheduler's own caller).
func (c *crew) restart() { c.n = c.base }
