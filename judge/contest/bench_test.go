package contest

import (
	"fmt"
	"testing"
	"time"
)

// BenchmarkCompute ranks a large contest: 120 teams, 12 problems, 10000
// submissions (a World Finals has about that many), as the service does
// for every scoreboard request and every event-feed sync.
func BenchmarkCompute(b *testing.B) {
	c := &Contest{ID: "wf", Duration: 5 * time.Hour, Penalty: 20 * time.Minute, ScoreboardType: PassFail}
	for k := range 12 {
		c.Problems = append(c.Problems, Problem{ID: fmt.Sprintf("p%d", k), Label: string(rune('A' + k))})
	}
	for i := range 120 {
		c.Teams = append(c.Teams, Team{ID: fmt.Sprintf("t%d", i), Name: fmt.Sprintf("Team %d", i)})
	}
	var runs []Run
	verdicts := []string{"WA", "TLE", "AC", "RTE", "AC", "CE"}
	for i := range 10000 {
		runs = append(runs, Run{ID: fmt.Sprint(i), Team: fmt.Sprintf("t%d", i*7%120), Problem: fmt.Sprintf("p%d", i*13%12),
			Time: time.Duration(i) * 1800 * time.Millisecond, Verdict: verdicts[i%len(verdicts)]})
	}
	for b.Loop() {
		c.Compute(runs, Options{})
	}
}
