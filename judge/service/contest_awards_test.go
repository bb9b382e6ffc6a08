package service

import (
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/optjudge/optjudge/judge/contest"
)

// TestContestMedals serves the medals of contest.yaml and the awards of
// awards.json in the awards endpoint and results.tsv: a hidden team that
// solves first wins nothing and takes no rank, on the jury's awards too;
// the public's medals wait for the thaw.
func TestContestMedals(t *testing.T) {
	ce := newClicsEnvWith(t, true, func(files map[string]string) {
		files["contest.yaml"] += "medals: {gold: 1, silver: 1, bronze: 1}\n"
		files["teams.json"] = strings.Replace(files["teams.json"], `{"id": "t3", "name": "Rooks", "organization_id": "kth"}`,
			`{"id": "t3", "name": "Rooks", "organization_id": "kth"}, {"id": "t4", "name": "Jury's test team", "hidden": true}`, 1)
		files["accounts.yaml"] += "- {id: team4, username: team4, password: pass-team-four-4, type: team, team_id: t4}\n"
		files["awards.json"] = `[{"id": "gold-medal", "citation": "Gold of the Puzzle Cup"},
 {"id": "fair-play", "citation": "Fair play", "team_ids": ["t3"]}]`
	})
	ce.clock.Set(ce.start.Add(5 * time.Minute))
	h := ce.submitAs("team4", "clocks", "ok")
	ce.clock.Set(ce.start.Add(10 * time.Minute))
	a := ce.submitAs("team1", "clocks", "ok")
	ce.clock.Set(ce.start.Add(20 * time.Minute))
	b := ce.submitAs("team2", "clocks", "ok")
	ce.clock.Set(ce.start.Add(95 * time.Minute)) // in the freeze
	c := ce.submitAs("team3", "clocks", "ok")
	ce.waitJudged(h, a, b, c)

	awards := func(user string) map[string]string {
		var list []contest.Award
		ce.as(user, "GET", "/api/contests/cup26/awards", nil, &list)
		out := map[string]string{}
		for _, aw := range list {
			out[aw.ID] = aw.Citation + ":" + strings.Join(aw.TeamIDs, ",")
		}
		return out
	}
	for user, want := range map[string]map[string]string{
		"": {"winner": "Contest winner:t1", "gold-medal": "Gold of the Puzzle Cup:t1", "silver-medal": "Silver medal winner:t2",
			"bronze-medal": "Bronze medal winner:", "first-to-solve-clocks": "First to solve problem A:t1", "fair-play": "Fair play:t3"},
		"jury": {"winner": "Contest winner:t1", "gold-medal": "Gold of the Puzzle Cup:t1", "silver-medal": "Silver medal winner:t2",
			"bronze-medal": "Bronze medal winner:t3", "first-to-solve-clocks": "First to solve problem A:t1", "fair-play": "Fair play:t3"},
	} {
		got := awards(user)
		for id, w := range want {
			if got[id] != w {
				t.Errorf("the awards %q sees: %s: got %q, want %q", user, id, got[id], w)
			}
		}
	}
	req, _ := http.NewRequest("GET", ce.http.URL+"/api/contests/cup26/results.tsv", nil)
	req.Header.Set("Authorization", basicHeader("jury", ce.password("jury")))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	tsv, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	want := "results\t1\nt1\t1\tGold Medal\t1\t10\t10\tStudents\nt2\t2\tSilver Medal\t1\t20\t20\t\nt3\t3\tBronze Medal\t1\t95\t95\t\n"
	if string(tsv) != want {
		t.Errorf("results.tsv: got\n%s\nwant\n%s", tsv, want)
	}
}
