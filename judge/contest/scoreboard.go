package contest

import (
	"sort"
	"strings"
	"time"
)

// Run is one submission as the scoreboard counts it.
type Run struct {
	ID      string
	Team    string
	Problem string
	Time    time.Duration // contest time of the submission
	// Verdict is the judgement type (AC, WA, TLE, RTE, CE, ...); "" while
	// it is pending, or hidden by the freeze.
	Verdict string
	Score   float64 // the judgement's score, in a score contest
}

// Penalized says whether a verdict costs penalty time: CE and JE do not,
// as DOMjudge and the spec's judgement types have it.
func Penalized(verdict string) bool {
	switch verdict {
	case "", "AC", "CE", "JE", "CS", "SE":
		return false
	}
	return true
}

// Scoreboard is the contest ranked, as the Contest API's scoreboard
// endpoint shows it.
type Scoreboard struct {
	Rows []Row
}

// Row is one team's line.
type Row struct {
	Rank     int
	Team     *Team
	Solved   int
	Penalty  time.Duration // total time: solve times plus the penalties, in whole minutes
	Last     time.Duration // the last solve's (score contests: improvement's) contest time; 0 for none
	Score    float64
	Problems []Cell
}

// Cell is a team's result on one problem.
type Cell struct {
	Problem string
	Judged  int // judged submissions up to and including the first solve
	Pending int // pending, or hidden by the freeze
	Solved  bool
	First   bool          // the first solve of the problem
	Time    time.Duration // of the solve, in whole minutes (score contests: of the best score)
	Score   float64
}

// Options say which board to compute.
type Options struct {
	// Group keeps only the teams of that group ("" for all).
	Group string
	// Hidden shows the teams marked hidden too (the jury's board).
	Hidden bool
}

// Compute ranks the teams by ICPC rules: most problems solved, then least
// total time (each solve's contest time in whole minutes plus Penalty for
// each rejected submission before it), then the earliest last solve; in a
// score contest by the sum of each problem's best score, then the
// earliest last improvement. Runs of teams or problems the contest does
// not have are left out; a problem's runs after its first solve count for
// nothing. Teams that tie share a rank and are listed by name.
func (c *Contest) Compute(runs []Run, o Options) *Scoreboard {
	runs = append([]Run(nil), runs...)
	sort.SliceStable(runs, func(i, j int) bool {
		if runs[i].Time != runs[j].Time {
			return runs[i].Time < runs[j].Time
		}
		return runs[i].ID < runs[j].ID
	})
	col := map[string]int{}
	for i, p := range c.Problems {
		col[p.ID] = i
	}
	rows := map[string]*Row{}
	var order []*Row
	for i := range c.Teams {
		t := &c.Teams[i]
		if (t.Hidden && !o.Hidden) || (o.Group != "" && !contains(t.GroupIDs, o.Group)) {
			continue
		}
		r := &Row{Team: t, Problems: make([]Cell, len(c.Problems))}
		for k, p := range c.Problems {
			r.Problems[k].Problem = p.ID
		}
		rows[t.ID] = r
		order = append(order, r)
	}
	for _, run := range runs {
		r, k := rows[run.Team], -1
		if x, ok := col[run.Problem]; ok {
			k = x
		}
		if r == nil || k < 0 {
			continue
		}
		c.count(&r.Problems[k], run)
	}
	c.firsts(rows, runs, col)
	for _, r := range order {
		c.total(r)
	}
	c.rank(order)
	out := &Scoreboard{Rows: make([]Row, len(order))}
	for i, r := range order {
		out.Rows[i] = *r
	}
	return out
}

// count adds one run to a cell.
func (c *Contest) count(cell *Cell, run Run) {
	if c.ScoreboardType == Score {
		switch {
		case run.Verdict == "":
			cell.Pending++
		case run.Score > cell.Score:
			cell.Judged++
			cell.Score, cell.Time = run.Score, run.Time.Truncate(time.Minute)
			cell.Solved = run.Verdict == "AC"
		default:
			cell.Judged++
		}
		return
	}
	if cell.Solved {
		return
	}
	switch {
	case run.Verdict == "":
		cell.Pending++
	case run.Verdict == "AC":
		cell.Judged++
		cell.Solved, cell.Time = true, run.Time.Truncate(time.Minute)
	case Penalized(run.Verdict):
		cell.Judged++
	}
}

// firsts marks each problem's first solve: the earliest accepted run,
// unless a run before it is still pending (it might be the first).
func (c *Contest) firsts(rows map[string]*Row, runs []Run, col map[string]int) {
	done := map[string]bool{}
	for _, run := range runs {
		k, ok := col[run.Problem]
		r := rows[run.Team]
		if !ok || r == nil || done[run.Problem] {
			continue
		}
		switch run.Verdict {
		case "":
			done[run.Problem] = true // a pending run first: no first solve known yet
		case "AC":
			done[run.Problem] = true
			r.Problems[k].First = true
		}
	}
}

// total sums a row's cells.
func (c *Contest) total(r *Row) {
	for _, cell := range r.Problems {
		if c.ScoreboardType == Score {
			r.Score += cell.Score
			if cell.Score > 0 && cell.Time > r.Last {
				r.Last = cell.Time
			}
			if cell.Solved {
				r.Solved++
			}
			continue
		}
		if !cell.Solved {
			continue
		}
		r.Solved++
		r.Penalty += cell.Time + time.Duration(cell.Judged-1)*c.Penalty
		if cell.Time > r.Last {
			r.Last = cell.Time
		}
	}
}

// better says whether a ranks before b; equal says they tie.
func (c *Contest) compare(a, b *Row) int {
	if c.ScoreboardType == Score {
		switch {
		case a.Score != b.Score:
			if a.Score > b.Score {
				return -1
			}
			return 1
		case a.Last != b.Last:
			if a.Last < b.Last {
				return -1
			}
			return 1
		}
		return 0
	}
	switch {
	case a.Solved != b.Solved:
		return b.Solved - a.Solved
	case a.Penalty != b.Penalty:
		if a.Penalty < b.Penalty {
			return -1
		}
		return 1
	case a.Last != b.Last:
		if a.Last < b.Last {
			return -1
		}
		return 1
	}
	return 0
}

func (c *Contest) rank(rows []*Row) {
	sort.SliceStable(rows, func(i, j int) bool {
		if x := c.compare(rows[i], rows[j]); x != 0 {
			return x < 0
		}
		return strings.ToLower(rows[i].Team.Shown()) < strings.ToLower(rows[j].Team.Shown())
	})
	for i, r := range rows {
		r.Rank = i + 1
		if i > 0 && c.compare(rows[i-1], r) == 0 {
			r.Rank = rows[i-1].Rank
		}
	}
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
