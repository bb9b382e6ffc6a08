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

// Awards are the awards the board gives: the winner(s), the medals (see
// Medals), the first to solve each problem, the winner(s) of each
// group; then the jury's own of awards.json. A team with nothing solved
// (nothing scored) wins nothing; a hidden team neither, and it takes no
// rank from the others (b is ranked without the hidden teams).
func (c *Contest) Awards(b *Scoreboard) []Award {
	scored := func(r *Row) bool { return r.Solved > 0 || r.Score > 0 }
	out := []Award{{ID: "winner", Citation: "Contest winner", TeamIDs: []string{}}}
	for _, r := range b.Rows {
		if r.Rank == 1 && scored(&r) {
			out[0].TeamIDs = append(out[0].TeamIDs, r.Team.ID)
		}
	}
	out = append(out, c.medals(b, scored)...)
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
	for _, d := range c.Declared {
		if d.TeamIDs == nil {
			for i := range out {
				if out[i].ID == d.ID {
					out[i].Citation = d.Citation
				}
			}
			continue
		}
		out = append(out, Award{ID: d.ID, Citation: d.Citation, TeamIDs: append([]string{}, *d.TeamIDs...)})
	}
	return out
}

// medalColours are the medals, best first, as the spec names their awards.
var medalColours = []struct{ id, citation, result string }{
	{"gold-medal", "Gold medal winner", "Gold Medal"},
	{"silver-medal", "Silver medal winner", "Silver Medal"},
	{"bronze-medal", "Bronze medal winner", "Bronze Medal"},
}

// counts are the medals of each colour, in medalColours' order.
func (m Medals) counts() []int { return []int{m.Gold, m.Silver, m.Bronze} }

// medals are the medal awards, of each colour that has some: the teams
// that scored, by rank, the first Gold gold, and so on; a team that ties
// with the last of a colour wins it too (its rank is within the count).
func (c *Contest) medals(b *Scoreboard, scored func(*Row) bool) []Award {
	var out []Award
	upto := 0
	for i, n := range c.Medals.counts() {
		if n == 0 {
			continue
		}
		from := upto
		upto += n
		a := Award{ID: medalColours[i].id, Citation: medalColours[i].citation, TeamIDs: []string{}}
		for _, r := range b.Rows {
			if scored(&r) && r.Rank > from && r.Rank <= upto {
				a.TeamIDs = append(a.TeamIDs, r.Team.ID)
			}
		}
		out = append(out, a)
	}
	return out
}

// computed says whether the board gives award id (its team_ids are the
// board's).
func (c *Contest) computed(id string) bool {
	if id == "winner" {
		return true
	}
	for i, n := range c.Medals.counts() {
		if id == medalColours[i].id {
			return n > 0
		}
	}
	if p, ok := strings.CutPrefix(id, "first-to-solve-"); ok {
		return c.Problem(p) != nil
	}
	if g, ok := strings.CutPrefix(id, "group-winner-"); ok {
		for _, x := range c.Groups {
			if x.ID == g {
				return true
			}
		}
	}
	return false
}

// WriteResults writes the board as ICPC's results.tsv (version 1): a line
// "results\t1", then per team in rank order its external id (icpc_id,
// else id), rank, award (its medal: Gold Medal, Silver Medal, Bronze
// Medal; else Winner; else Ranked when it solved something), problems
// solved, total time and last solve's time in minutes, and the group it
// won.
func (c *Contest) WriteResults(w io.Writer, b *Scoreboard, awards []Award) error {
	won := map[string]string{}
	groupWon := map[string][]string{}
	names := map[string]string{}
	for _, g := range c.Groups {
		names["group-winner-"+g.ID] = g.Name
	}
	for _, a := range awards {
		for _, t := range a.TeamIDs {
			switch {
			case a.ID == "winner" && won[t] == "":
				won[t] = "Winner"
			case strings.HasPrefix(a.ID, "group-winner-"):
				groupWon[t] = append(groupWon[t], names[a.ID])
			}
			for _, m := range medalColours {
				if a.ID == m.id {
					won[t] = m.result // a medal says more than Winner
				}
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
		award := won[r.Team.ID]
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
