package judge

import (
	"testing"
)

func TestNewCrew(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ parallel, tests, want int }{
		{0, 5, 1}, {1, 5, 1}, {3, 5, 3}, {8, 5, 5}, {-2, 5, 1},
	} {
		if c := newCrew(tt.parallel, tt.tests, true); c.n != tt.want || c.base != tt.want {
			t.Errorf("newCrew(%d, %d): %d workers of base %d, want %d", tt.parallel, tt.tests, c.n, c.base, tt.want)
		}
	}
}

// TestCrew walks a crew of two through sleepers and wakers: a worker starts
// in each sleeper's place while tests are left, and one ends (retires) for
// each that wakes, never below the base.
func TestCrew(t *testing.T) {
	t.Parallel()
	c := newCrew(2, 10, true)
	for k, step := range []struct {
		do   string // "sleep", "sleep, none left", "wake", "retire"
		want bool   // sleeps: start a worker; retire: one ends
		n    int    // workers after
	}{
		{"retire", false, 2},
		{"sleep", true, 3},
		{"sleep", true, 4},
		{"retire", false, 4},
		{"wake", false, 4},
		{"retire", true, 3},
		{"retire", false, 3},
		{"sleep, none left", false, 3},
		{"wake", false, 3},
		{"wake", false, 3},
		{"retire", true, 2},
		{"retire", false, 2},
	} {
		got := false
		switch step.do {
		case "sleep":
			got = c.sleeps(true)
		case "sleep, none left":
			got = c.sleeps(false)
		case "wake":
			c.wakes()
		case "retire":
			got = c.retire()
		}
		if got != step.want || c.n != step.n {
			t.Fatalf("step %d, %s: got %v with %d workers, want %v with %d", k, step.do, got, c.n, step.want, step.n)
		}
	}
	c.restart()
	if c.n != 2 || c.asleep != 0 {
		t.Errorf("restarted: %+v, want 2 workers, none asleep", c)
	}
}

// TestCrewRetireBound: however sleepers and wakers interleave, the workers
// that do not retire are never more than the base and the sleepers.
func TestCrewRetireBound(t *testing.T) {
	t.Parallel()
	for seed := range 50 {
		c := newCrew(2, 100, true)
		running := c.n
		asleep := 0
		for k := range 40 {
			switch (seed*7 + k*k) % 3 {
			case 0:
				if c.sleeps(true) {
					running++
				}
				asleep++
			case 1:
				if asleep > 0 {
					c.wakes()
					asleep--
				}
			case 2:
				if c.retire() {
					running--
				}
			}
			if c.n != running {
				t.Fatalf("seed %d step %d: the crew counts %d workers, %d run", seed, k, c.n, running)
			}
		}
		for c.retire() {
			running--
		}
		if want := 2 + asleep; running > want || running < 2 {
			t.Errorf("seed %d: %d workers after retiring, want 2 to %d", seed, running, want)
		}
	}
}
