package kattis

import (
	"fmt"
	"math"
	"time"
)

// Default time multipliers of each format version (problemtools: legacy
// time_multiplier 5 and time_safety_margin 2; 2023-07 and later
// ac_to_time_limit 2 and time_limit_to_tle 1.5; a resolution of 1 s for
// all).
var (
	LegacyTimeMultipliers = TimeMultipliers{ACToTimeLimit: 5, TimeLimitToTLE: 2, Resolution: time.Second}
	TimeMultipliers2023   = TimeMultipliers{ACToTimeLimit: 2, TimeLimitToTLE: 1.5, Resolution: time.Second}
)

// deriveSeconds computes the time limit and the TLE threshold from the
// slowest accepted run, in seconds, exactly as problemtools does
// (verifyproblem's _compute_time_limit):
//
//	limit = max(1, ceil(slowest * ac_to_time_limit / resolution)) * resolution
//	tle   = limit * time_limit_to_tle
//
// The arithmetic is IEEE double, in the same order, so the result agrees
// with problemtools' to the last bit (a slowest run of 0.3 s, a multiplier
// of 2 and a resolution of 0.1 s give 0.6000000000000001 s).
func (m TimeMultipliers) deriveSeconds(slowest float64) (limit, tle float64) {
	res := m.Resolution.Seconds()
	exact := slowest * m.ACToTimeLimit
	limit = math.Max(1, math.Ceil(exact/res)) * res
	return limit, limit * m.TimeLimitToTLE
}

// Derive is deriveSeconds on durations.
func (m TimeMultipliers) Derive(slowest time.Duration) (limit, tle time.Duration) {
	l, t := m.deriveSeconds(slowest.Seconds())
	return seconds(l), seconds(t)
}

// deriveBounded is the 2025-09 rule: the smallest multiple of the
// resolution at least the slowest accepted run times ac_to_time_limit whose
// TLE threshold (limit times time_limit_to_tle) is at most the fastest
// time-limit-exceeded run. fastestTLE <= 0 means there is no such run. It
// is an error when no multiple fits between the two.
func (m TimeMultipliers) deriveBounded(slowestAC, fastestTLE time.Duration) (limit, tle time.Duration, err error) {
	limit, tle = m.Derive(slowestAC)
	if fastestTLE > 0 && tle > fastestTLE {
		return limit, tle, fmt.Errorf("no time limit fits: the slowest accepted run (%s) times %g needs %s, and %s times %g is %s, above the fastest time-limit-exceeded run (%s)",
			slowestAC, m.ACToTimeLimit, limit, limit, m.TimeLimitToTLE, tle, fastestTLE)
	}
	return limit, tle, nil
}

// TLE is the threshold a given time limit implies: limit times
// time_limit_to_tle.
func (m TimeMultipliers) TLE(limit time.Duration) time.Duration {
	return seconds(limit.Seconds() * m.TimeLimitToTLE)
}

// lowerBound is the least limit the slowest accepted run allows, unrounded:
// slowest times ac_to_time_limit. A given limit below it is too tight.
func (m TimeMultipliers) lowerBound(slowest time.Duration) time.Duration {
	return seconds(slowest.Seconds() * m.ACToTimeLimit)
}

// multipleOf says whether limit is an integer multiple of res, within the
// precision of decimal seconds in problem.yaml.
func multipleOf(limit, res float64) bool {
	q := limit / res
	return math.Abs(q-math.Round(q)) < 1e-9*math.Max(1, q)
}

func seconds(s float64) time.Duration { return time.Duration(math.Round(s * float64(time.Second))) }
