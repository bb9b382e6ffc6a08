package kattis

import (
	"strings"
	"testing"
	"time"
)

// TestDeriveSeconds holds deriveSeconds to what problemtools'
// _compute_time_limit gives, bit for bit (the wants are Python's).
func TestDeriveSeconds(t *testing.T) {
	tests := []struct {
		slowest, ac, tle, res float64
		limit, threshold      float64
	}{
		{0.3, 2, 1.5, 0.1, 0.6000000000000001, 0.9000000000000001},
		{0.3, 2, 1.5, 1, 1, 1.5},
		{0, 2, 1.5, 1, 1, 1.5},
		{0.01, 2, 1.5, 0.1, 0.1, 0.15000000000000002},
		{1.2, 5, 2, 1, 6, 12},
		{0.7, 2, 1.5, 0.5, 1.5, 2.25},
		{2, 2, 1.5, 1, 4, 6},
		{0.05, 3, 2.5, 0.25, 0.25, 0.625},
		{0.123, 2, 1.5, 0.01, 0.25, 0.375},
	}
	for _, tt := range tests {
		m := TimeMultipliers{ACToTimeLimit: tt.ac, TimeLimitToTLE: tt.tle, Resolution: time.Duration(tt.res * float64(time.Second))}
		limit, tle := m.deriveSeconds(tt.slowest)
		if limit != tt.limit || tle != tt.threshold {
			t.Errorf("slowest %v with %+v: got %v and %v, want %v and %v", tt.slowest, m, limit, tle, tt.limit, tt.threshold)
		}
	}
}

func TestDerive(t *testing.T) {
	m := TimeMultipliers2023
	limit, tle := m.Derive(1300 * time.Millisecond)
	if limit != 3*time.Second || tle != 4500*time.Millisecond {
		t.Errorf("got %v and %v, want 3s and 4.5s", limit, tle)
	}
	if got := m.TLE(2 * time.Second); got != 3*time.Second {
		t.Errorf("got TLE %v, want 3s", got)
	}
	if got := m.lowerBound(1300 * time.Millisecond); got != 2600*time.Millisecond {
		t.Errorf("got lower bound %v, want 2.6s", got)
	}
	if got, _ := LegacyTimeMultipliers.Derive(140 * time.Millisecond); got != time.Second {
		t.Errorf("got %v, want a second: 0.7 s rounds up to the resolution", got)
	}
}

// TestDeriveBounded is the 2025-09 rule: the limit must also leave the
// time-limit-exceeded submissions above its TLE threshold.
func TestDeriveBounded(t *testing.T) {
	m := TimeMultipliers2023
	tests := []struct {
		ac, tle time.Duration
		limit   time.Duration
		err     string
	}{
		{400 * time.Millisecond, 0, time.Second, ""},
		{400 * time.Millisecond, 1500 * time.Millisecond, time.Second, ""},
		{400 * time.Millisecond, 1400 * time.Millisecond, time.Second, "no time limit fits"},
		{1100 * time.Millisecond, 10 * time.Second, 3 * time.Second, ""},
	}
	for _, tt := range tests {
		limit, _, err := m.deriveBounded(tt.ac, tt.tle)
		if limit != tt.limit || (err == nil) != (tt.err == "") || (err != nil && !strings.Contains(err.Error(), tt.err)) {
			t.Errorf("deriveBounded(%v, %v): got %v, %v, want %v, %q", tt.ac, tt.tle, limit, err, tt.limit, tt.err)
		}
	}
}

func TestMultipleOf(t *testing.T) {
	for _, tt := range []struct {
		limit, res float64
		want       bool
	}{{2, 1, true}, {0.3, 0.1, true}, {1.5, 1, false}, {2.5, 0.5, true}, {0.7, 0.25, false}} {
		if got := multipleOf(tt.limit, tt.res); got != tt.want {
			t.Errorf("multipleOf(%v, %v): got %v, want %v", tt.limit, tt.res, got, tt.want)
		}
	}
}
