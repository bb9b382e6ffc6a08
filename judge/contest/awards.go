package contest

import (
	"fmt"
	"io"
	"strings"
	"time"
)

// Award is an award as the Contest API has it. TeamIDs is never nil: the
// service keeps every award it lists up to date.
type Award struct {
	ID       string   `json:"id"`
	Citation string   `json:"citation"`
	TeamIDs  []string `json:"team_ids"`
}

// Awards are the awards the board gives: the winner(s), the first to
// solve each problem, the winner(s) of each group. A team with nothing
// solved (nothing scored) wins nothing.
func (c *Contest) Awards(b *Scoreboard) []Award {
	scored := func(r *Row) bool { return r.Solved > 0 || r.Score > 0 }
	out := []Award{{ID: "winner", Citation: "Contest winner", TeamIDs: []string{}}}
	for _, r := range b.Rows {
		if r.Rank == 1 && scored(&r) {
			out[0].TeamIDs = append(out[0].TeamIDs, r.Team.ID)
		}
	}
	for k, p := range c.Problems {
		a := Award{ID: "first-to-solve-" + p.ID, Citation: "First to solve problem " + p.Label, TeamIDs: []string{}}
		for _, r := range b.Rows {
			if r.Problems[k].First {
				a.TeamIDs = append(a.TeamIDs, r.Team.ID)
			}
		}
		out = append(out, a)
	}
	for _, g := range c.Groups {
		a := Award{ID: "group-winner-" + g.ID, Citation: "Winner of " + g.Name, TeamIDs: []string{}}
		best := 0
		for _, r := range b.Rows {
			if !contains(r.Team.GroupIDs, g.ID) || !scored(&r) || (best > 0 && r.Rank != best) {
				continue
			}
			if best == 0 {
				best = r.Rank
			}
			a.TeamIDs = append(a.TeamIDs, r.Team.ID)
		}
		out = append(out, a)
	}
	return out
}

// WriteResults writes the board as ICPC's results.tsv (version 1): a line
// "results\t1", then per team in rank order its external id (icpc_id,
// else id), rank, award, problems solved, total time and last solve's
// time in minutes, and the group it won.
func (c *Contest) WriteResults(w io.Writer, b *Scoreboard, awards []Award) error {
	won := map[string][]string{}
	groupWon := map[string][]string{}
	for _, a := range awards {
		for _, t := range a.TeamIDs {
			switch {
			case a.ID == "winner":
				won[t] = append(won[t], "Winner")
			case strings.HasPrefix(a.ID, "group-winner-"):
				groupWon[t] = append(groupWon[t], strings.TrimPrefix(a.Citation, "Winner of "))
			}
		}
	}
	if _, err := fmt.Fprint(w, "results\t1\n"); err != nil {
		return err
	}
	for _, r := range b.Rows {
		id := r.Team.ID
		if r.Team.ICPCID != nil && *r.Team.ICPCID != "" {
			id = *r.Team.ICPCID
		}
		award := strings.Join(won[r.Team.ID], ", ")
		if award == "" && (r.Solved > 0 || r.Score > 0) {
			award = "Ranked"
		}
		_, err := fmt.Fprintf(w, "%s\t%d\t%s\t%d\t%d\t%d\t%s\n", tsv(id), r.Rank, tsv(award), r.Solved,
			int64(r.Penalty/time.Minute), int64(r.Last/time.Minute), tsv(strings.Join(groupWon[r.Team.ID], ", ")))
		if err != nil {
			return err
		}
	}
	return nil
}

// tsv keeps a field on its line and in its column.
func tsv(s string) string { return strings.NewReplacer("\t", " ", "\n", " ", "\r", " ").Replace(s) }
