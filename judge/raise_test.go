package judge

import (
	"slices"
	"testing"
)

// TestRaise walks the ThenTimeLimit policy through two workers' runs: one
// under the time limit at a time, the others under ThenTimeLimit; the
// tests TLE under ThenTimeLimit wait for none to run under the time limit,
// and run again there in order; one TLE under the time limit ends it all.
func TestRaise(t *testing.T) {
	t.Parallel()
	r := raise{on: true}
	if r.then() || !r.then() || !r.then() {
		t.Fatal("want the first run under the time limit, the two beside it under ThenTimeLimit")
	}
	r.ended(1, true, true)  // test 1, TLE under ThenTimeLimit
	r.ended(2, true, false) // test 2, AC
	r.ended(3, true, true)  // test 3, TLE
	if i, ok := r.rerun(); ok {
		t.Fatalf("rerun of %d while a run is under the time limit", i)
	}
	if !r.pending() || !slices.Equal(r.reruns, []int{1, 3}) {
		t.Fatalf("reruns %v, want [1 3]", r.reruns)
	}
	r.ended(0, false, false) // test 0, AC under the time limit
	i, ok := r.rerun()
	if !ok || i != 1 || r.then() {
		t.Fatalf("got rerun %d, %v, want test 1 under the time limit", i, ok)
	}
	if i, ok := r.rerun(); ok {
		t.Fatalf("rerun of %d beside another", i)
	}
	if !r.then() {
		t.Fatal("a run beside a rerun is under the time limit, want ThenTimeLimit")
	}
	r.ended(1, false, true) // test 1 again: TLE under the time limit
	if !r.over || r.pending() {
		t.Fatalf("after a TLE under the time limit: over %v, reruns %v; want over, none", r.over, r.reruns)
	}
	r.ended(4, true, true)
	if !r.then() || r.pending() {
		t.Fatal("after over: want every run under ThenTimeLimit, and none again")
	}
}

// TestRaiseOneAtATime: one worker runs every test under the time limit
// until one is TLE there, then the rest under ThenTimeLimit.
func TestRaiseOneAtATime(t *testing.T) {
	t.Parallel()
	r := raise{on: true}
	var got []bool
	for i, tle := range []bool{false, false, true, true, false} {
		then := r.then()
		got = append(got, then)
		r.ended(i, then, tle)
		if _, ok := r.rerun(); ok {
			t.Fatalf("a rerun after test %d", i)
		}
	}
	if want := []bool{false, false, false, true, true}; !slices.Equal(got, want) {
		t.Errorf("under ThenTimeLimit: got %v, want %v", got, want)
	}
}

// TestRaiseOff: without ThenTimeLimit every run is under the time limit,
// and none runs again.
func TestRaiseOff(t *testing.T) {
	t.Parallel()
	var r raise
	for i := range 3 {
		if r.then() {
			t.Fatalf("run %d under ThenTimeLimit", i)
		}
		r.ended(i, false, true)
		if _, ok := r.rerun(); ok || r.pending() {
			t.Fatalf("a rerun after %d", i)
		}
	}
}
