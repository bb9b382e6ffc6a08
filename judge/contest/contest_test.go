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
