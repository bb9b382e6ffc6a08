package contest

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

func writePackage(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestLoad(t *testing.T) {
	dir := writePackage(t, map[string]string{
		"contest.yaml": "id: cup\nname: The Cup\nstart_time: 2026-06-25T10:00:00+01\nduration: 5:00:00\n" +
			"scoreboard_freeze_duration: 1:00:00\npenalty_time: 20\ntitle: BAPCtools' own\n",
		"problems.yaml":      "- {id: hello, label: A, rgb: '#f00'}\n- {id: sum, label: B}\n",
		"groups.json":        `[{"id": "uni", "name": "Universities"}]`,
		"organizations.json": `[{"id": "tud", "name": "TU Delft", "country": "NLD"}]`,
		"teams.json":         `[{"id": "t1", "name": "One", "organization_id": "tud", "group_ids": ["uni"]}, {"id": "t2", "name": "Two"}]`,
		"accounts.yaml":      "- {id: a1, username: one, password: secret-one, type: team, team_id: t1}\n- {id: j, username: jury, password: secret-jury, type: judge}\n",
	})
	c, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := time.Date(2026, 6, 25, 9, 0, 0, 0, time.UTC)
	if !c.Start.Equal(want) || c.Duration != 5*time.Hour || c.Freeze != time.Hour || c.Penalty != 20*time.Minute {
		t.Errorf("got start %v duration %v freeze %v penalty %v", c.Start, c.Duration, c.Freeze, c.Penalty)
	}
	if c.TeamOf("one") != "t1" || c.TeamOf("jury") != "" || c.TeamOf("t2") != "t2" {
		t.Errorf("TeamOf: got %q %q %q, want t1, \"\", t2", c.TeamOf("one"), c.TeamOf("jury"), c.TeamOf("t2"))
	}
	if len(c.Problems) != 2 || c.Problems[1].Ordinal != 2 {
		t.Errorf("problems: got %+v", c.Problems)
	}
}

func TestLoadErrors(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  string
	}{
		{"no duration", map[string]string{"contest.yaml": "name: x\n"}, "contest.yaml:0: duration: required"},
		{"bad time", map[string]string{"contest.yaml": "duration: 1:00:00\nstart_time: tomorrow\n"}, "contest.yaml:2: start_time:"},
		{"typo", map[string]string{"contest.yaml": "duration: 1:00:00\npenality_time: 20\n"}, "field penality_time not found"},
		{"freeze too long", map[string]string{"contest.yaml": "duration: 1:00:00\nscoreboard_freeze_duration: 2:00:00\n"}, "scoreboard_freeze_duration"},
		{"team typo", map[string]string{"contest.yaml": "duration: 1:00:00\n", "teams.json": `[{"id": "a", "nmae": "x"}]`}, "teams.json:1: [0]: field nmae not found"},
		{"unknown group", map[string]string{"contest.yaml": "duration: 1:00:00\n", "teams.json": "[{\"id\": \"a\", \"group_ids\": [\"g\"]}]"}, `group_ids: no group "g"`},
		{"short password", map[string]string{"contest.yaml": "duration: 1:00:00\n", "accounts.yaml": "- {id: x, username: x, password: short, type: admin}\n"}, "password: want at least 8"},
		{"label twice", map[string]string{"contest.yaml": "duration: 1:00:00\n", "problems.yaml": "- {id: a, label: A}\n- {id: b, label: A}\n"}, `problems.yaml:2: [1]: label: "A" is the label of two problems`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Load(writePackage(t, tc.files))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v, want an error with %q", err, tc.want)
			}
		})
	}
}

func TestRel(t *testing.T) {
	for _, d := range []time.Duration{0, 5 * time.Hour, -15*time.Minute - 32457*time.Millisecond, 100*time.Hour + 59*time.Second} {
		got, err := ParseRel(FormatRel(d))
		if err != nil || got != d {
			t.Errorf("ParseRel(FormatRel(%v)) = %v, %v", d, got, err)
		}
	}
}

func testContest() *Contest {
	return &Contest{ID: "c", Duration: 5 * time.Hour, Penalty: 20 * time.Minute, ScoreboardType: PassFail,
		Problems: []Problem{{ID: "a", Label: "A"}, {ID: "b", Label: "B"}},
		Teams:    []Team{{ID: "x", Name: "X"}, {ID: "y", Name: "Y"}, {ID: "z", Name: "Z"}, {ID: "w", Name: "W"}}}
}

func TestCompute(t *testing.T) {
	c := testContest()
	m := time.Minute
	runs := []Run{
		{ID: "1", Team: "x", Problem: "a", Time: 10*m + 30*time.Second, Verdict: "WA"},
		{ID: "2", Team: "x", Problem: "a", Time: 20*m + 59*time.Second, Verdict: "AC"}, // 20 + 20
		{ID: "3", Team: "y", Problem: "a", Time: 15 * m, Verdict: "AC"},                // first solve
		{ID: "4", Team: "y", Problem: "b", Time: 25 * m, Verdict: "CE"},                // no penalty
		{ID: "5", Team: "y", Problem: "b", Time: 26 * m, Verdict: ""},                  // pending
		{ID: "6", Team: "z", Problem: "a", Time: 40 * m, Verdict: "AC"},
		{ID: "7", Team: "x", Problem: "a", Time: 50 * m, Verdict: "WA"}, // after the solve: nothing
		{ID: "8", Team: "w", Problem: "q", Time: 1 * m, Verdict: "AC"},  // not a problem of the contest
	}
	b := c.Compute(runs, Options{})
	var got []string
	for _, r := range b.Rows {
		got = append(got, r.Team.ID+":"+itoa(r.Rank)+":"+itoa(r.Solved)+":"+itoa(int(r.Penalty/m)))
	}
	// x and z tie on 40 minutes; last solve 20 < 40 ranks x first
	want := "y:1:1:15 x:2:1:40 z:3:1:40 w:4:0:0"
	if strings.Join(got, " ") != want {
		t.Errorf("got %s, want %s", strings.Join(got, " "), want)
	}
	y := b.Rows[0]
	if !y.Problems[0].First || y.Problems[1].Pending != 1 || y.Problems[1].Judged != 0 {
		t.Errorf("y's cells: got %+v", y.Problems)
	}
	aw := c.Awards(b)
	if aw[0].ID != "winner" || strings.Join(aw[0].TeamIDs, ",") != "y" || strings.Join(aw[1].TeamIDs, ",") != "y" {
		t.Errorf("awards: got %+v", aw)
	}
	var sb strings.Builder
	c.WriteResults(&sb, b, aw)
	if !strings.HasPrefix(sb.String(), "results\t1\ny\t1\tWinner\t1\t15\t15\t\nx\t2\tRanked\t1\t40\t20\t\n") {
		t.Errorf("results.tsv: got %q", sb.String())
	}
}

func TestFirstToSolveWaitsForPending(t *testing.T) {
	c := testContest()
	b := c.Compute([]Run{{ID: "1", Team: "x", Problem: "a", Time: time.Minute}, {ID: "2", Team: "y", Problem: "a", Time: 2 * time.Minute, Verdict: "AC"}}, Options{})
	for _, r := range b.Rows {
		if r.Problems[0].First {
			t.Errorf("%s is first to solve a while an earlier run is pending", r.Team.ID)
		}
	}
}

func TestState(t *testing.T) {
	start := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
	c := &Contest{Start: start, Duration: 5 * time.Hour, Freeze: time.Hour}
	s := c.StateAt(start.Add(4*time.Hour+time.Second), Progress{})
	if s.Started == nil || s.Frozen == nil || s.Ended != nil {
		t.Errorf("in the freeze: got %+v", s)
	}
	end := start.Add(5 * time.Hour)
	s = c.StateAt(end.Add(time.Minute), Progress{Thawed: end.Add(time.Minute), Finalized: end.Add(time.Minute)})
	if s.Ended == nil || s.Thawed == nil || s.EndOfUpdates == nil {
		t.Errorf("thawed and finalized: got %+v", s)
	}
	if !c.FrozenFor(start.Add(4*time.Hour), Progress{}) || c.FrozenFor(start.Add(3*time.Hour), Progress{}) {
		t.Error("FrozenFor: wrong side of the freeze")
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// TestMedals gives medals by rank (a tie with the last gold wins gold
// too, and the silvers start after it), none to a team that solved
// nothing; awards.json sets a citation of the board's award and adds the
// jury's own; results.tsv names the medals.
func TestMedals(t *testing.T) {
	dir := writePackage(t, map[string]string{
		"contest.yaml":  "duration: 5:00:00\nmedals: {gold: 1, silver: 2, bronze: 3}\n",
		"problems.yaml": "- {id: a, label: A}\n",
		"teams.json":    `[{"id": "p"}, {"id": "q"}, {"id": "r"}, {"id": "s"}, {"id": "u"}, {"id": "v"}]`,
		"awards.json": `[{"id": "winner", "citation": "Champion of the Cup"},
 {"id": "spirit", "citation": "Best team spirit", "team_ids": ["v"]}]`,
	})
	c, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	m := time.Minute
	runs := []Run{
		{ID: "1", Team: "p", Problem: "a", Time: 10 * m, Verdict: "AC"},
		{ID: "2", Team: "q", Problem: "a", Time: 10 * m, Verdict: "AC"}, // ties p: gold too
		{ID: "3", Team: "r", Problem: "a", Time: 20 * m, Verdict: "AC"}, // rank 3: silver ends at 1+2
		{ID: "4", Team: "s", Problem: "a", Time: 30 * m, Verdict: "AC"}, // rank 4: bronze
		{ID: "5", Team: "u", Problem: "a", Time: 40 * m, Verdict: "WA"}, // nothing solved: nothing
	}
	b := c.Compute(runs, Options{})
	got := map[string]string{}
	citation := map[string]string{}
	for _, a := range c.Awards(b) {
		got[a.ID] = strings.Join(a.TeamIDs, ",")
		citation[a.ID] = a.Citation
	}
	for id, want := range map[string]string{"winner": "p,q", "gold-medal": "p,q", "silver-medal": "r", "bronze-medal": "s", "spirit": "v"} {
		if got[id] != want {
			t.Errorf("award %s: got %q, want %q", id, got[id], want)
		}
	}
	if citation["winner"] != "Champion of the Cup" || citation["gold-medal"] != "Gold medal winner" {
		t.Errorf("citations: got %v", citation)
	}
	var sb strings.Builder
	c.WriteResults(&sb, b, c.Awards(b))
	want := "results\t1\np\t1\tGold Medal\t1\t10\t10\t\nq\t1\tGold Medal\t1\t10\t10\t\nr\t3\tSilver Medal\t1\t20\t20\t\n" +
		"s\t4\tBronze Medal\t1\t30\t30\t\nu\t5\t\t0\t0\t0\t\nv\t5\t\t0\t0\t0\t\n"
	if sb.String() != want {
		t.Errorf("results.tsv: got\n%s\nwant\n%s", sb.String(), want)
	}
}

func TestAwardsErrors(t *testing.T) {
	base := map[string]string{"contest.yaml": "duration: 1:00:00\nmedals: {gold: 1}\n", "teams.json": `[{"id": "t"}]`,
		"problems.yaml": "- {id: a, label: A}\n"}
	for _, tc := range []struct {
		name, file, text, want string
	}{
		{"negative medals", "contest.yaml", "duration: 1:00:00\nmedals: {gold: -1}\n", "contest.yaml:2: medals: want counts of 0 or more"},
		{"a medal typo", "contest.yaml", "duration: 1:00:00\nmedals: {golden: 1}\n", "field golden not found"},
		{"teams of the board's award", "awards.json", `[{"id": "gold-medal", "citation": "Gold", "team_ids": ["t"]}]`, "team_ids: the scoreboard gives gold-medal"},
		{"no teams of the jury's own", "awards.json", `[{"id": "silver-medal", "citation": "Silver"}]`, "team_ids: required for an award of the jury's own"},
		{"an unknown team", "awards.json", `[{"id": "spirit", "citation": "Spirit", "team_ids": ["x"]}]`, `awards.json:1: [0]: team_ids: no team "x"`},
		{"no citation", "awards.json", `[{"id": "first-to-solve-a"}]`, "citation: required"},
		{"twice", "awards.json", "[{\"id\": \"winner\", \"citation\": \"W\"},\n {\"id\": \"winner\", \"citation\": \"W\"}]", `awards.json:2: [1]: id: "winner" appears twice`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			files := map[string]string{}
			for k, v := range base {
				files[k] = v
			}
			files[tc.file] = tc.text
			_, err := Load(writePackage(t, files))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v, want an error with %q", err, tc.want)
			}
		})
	}
}
