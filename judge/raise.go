package judge

// raise is the policy of GradeOptions.ThenTimeLimit, for judge verify's
// raised runs: until a test has been TLE under the time limit (over), one
// test at a time runs under it and the others beside it under
// ThenTimeLimit; a test TLE under ThenTimeLimit meanwhile runs again under
// the time limit, its result replacing the first, once none runs under it,
// until one is TLE there. From then on every test runs under
// ThenTimeLimit. The zero value (on unset) runs every test under the time
// limit.
type raise struct {
	on      bool  // ThenTimeLimit applies; set before the grading
	over    bool  // a test was TLE under the time limit
	raising int   // runs under the time limit while !over: one at most
	reruns  []int // tests TLE under ThenTimeLimit while !over, to run again
}

// rerun is the test to run again under the time limit, if one is due now:
// no test has been TLE there, and none runs there.
func (r *raise) rerun() (i int, ok bool) {
	if r.over || r.raising > 0 || len(r.reruns) == 0 {
		return -1, false
	}
	i, r.reruns = r.reruns[0], r.reruns[1:]
	return i, true
}

// then says under which limit the run a worker takes runs: ThenTimeLimit
// (true), or the time limit when it applies and no other run is under it
// (the run is then counted there).
func (r *raise) then() bool {
	switch {
	case !r.on:
		return false
	case r.over || r.raising > 0:
		return true
	}
	r.raising++
	return false
}

// ended takes the end of a run of test i, under ThenTimeLimit when then,
// and TLE when tle (a run that was cancelled or could not run is not).
func (r *raise) ended(i int, then, tle bool) {
	switch {
	case !r.on || r.over:
	case !then:
		r.raising--
		if tle {
			r.over, r.reruns = true, nil
		}
	case tle:
		r.reruns = append(r.reruns, i)
	}
}

// pending says whether tests are due to run again under the time limit.
func (r *raise) pending() bool { return !r.over && len(r.reruns) > 0 }
