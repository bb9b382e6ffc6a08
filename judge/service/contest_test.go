package service

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/optjudge/optjudge/judge/contest"
)

// contestFiles is a small contest package: two problems of the embedded
// set, three teams of two organizations in a group, their accounts and
// the jury's.
func contestFiles(start time.Time) map[string]string {
	return map[string]string{
		"contest.yaml": fmt.Sprintf("id: cup26\nname: Puzzle Cup\nformal_name: The Puzzle Cup 2026\nstart_time: %s\n"+
			"duration: 2:00:00\nscoreboard_freeze_duration: 0:30:00\npenalty_time: 20\n", start.UTC().Format(time.RFC3339)),
		"problems.yaml":      "- {id: clocks, label: A, rgb: '#2a9d8f', color: teal}\n- {id: eight-puzzle, label: B, rgb: '#e9c46a', color: sand}\n",
		"groups.json":        `[{"id": "students", "name": "Students"}]`,
		"organizations.json": `[{"id": "tud", "name": "TU Delft", "country": "NLD"}, {"id": "kth", "name": "KTH"}]`,
		"teams.json": `[{"id": "t1", "name": "Knights", "organization_id": "tud", "group_ids": ["students"]},
 {"id": "t2", "name": "Bishops", "organization_id": "kth", "group_ids": ["students"]},
 {"id": "t3", "name": "Rooks", "organization_id": "kth"}]`,
		"accounts.yaml": "- {id: team1, username: team1, password: pass-team-one-1, type: team, team_id: t1}\n" +
			"- {id: team2, username: team2, password: pass-team-two-2, type: team, team_id: t2}\n" +
			"- {id: team3, username: team3, password: pass-team-three, type: team, team_id: t3}\n" +
			"- {id: jury, username: jury, password: pass-of-the-jury, type: judge}\n",
	}
}

// clicsEnv is a service running the contest of contestFiles with a
// clock the test moves: it stands an hour before the start; the contest
// starts an hour before the wall clock's now, so that the workers'
// times (the wall clock's) fall in it once the clock is moved on.
type clicsEnv struct {
	*env
	c     *contest.Contest
	clock *contest.ManualClock
	start time.Time
}

func newClicsEnv(t *testing.T, workers bool) *clicsEnv {
	t.Helper()
	return newClicsEnvWith(t, workers, nil)
}

// newClicsEnvWith is newClicsEnv with the package's files changed by
// edit first.
func newClicsEnvWith(t *testing.T, workers bool, edit func(files map[string]string)) *clicsEnv {
	t.Helper()
	start := time.Now().Add(-time.Hour).Truncate(time.Second)
	dir := t.TempDir()
	files := contestFiles(start)
	if edit != nil {
		edit(files)
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	c, err := contest.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	clock := contest.NewManualClock(start.Add(-time.Hour))
	e := newEnv(t, envOpts{tokens: ContestTokens(c), contest: c, clock: clock})
	if workers {
		e.startWorker("w1", scriptEngine{})
	}
	return &clicsEnv{env: e, c: c, clock: clock, start: start}
}

// as sends a request as user (a contest account; "" for the public) and
// decodes the JSON answer into out.
func (ce *clicsEnv) as(user, method, path string, body any, out any) int {
	ce.t.Helper()
	var r io.Reader
	if body != nil {
		r = jsonBody(body)
	}
	req, _ := http.NewRequest(method, ce.http.URL+path, r)
	if user != "" {
		req.Header.Set("Authorization", basicHeader(user, ce.password(user)))
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		ce.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if out != nil {
		if err := json.Unmarshal(b, out); err != nil {
			ce.t.Fatalf("%s %s as %q: %d %q: %v", method, path, user, resp.StatusCode, b, err)
		}
	}
	return resp.StatusCode
}

func (ce *clicsEnv) password(user string) string {
	for _, a := range ce.c.Accounts {
		if a.Username == user {
			return a.Password
		}
	}
	ce.t.Fatalf("no account %s", user)
	return ""
}

// submitAs submits as a team at the clock's time and returns the id.
func (ce *clicsEnv) submitAs(user, problem, script string) string {
	ce.t.Helper()
	ce.token = ce.password(user)
	defer func() { ce.token = "" }()
	return ce.submit(problem, "sol.py", script)
}

// waitJudged waits for the submissions to be done.
func (ce *clicsEnv) waitJudged(ids ...string) {
	ce.t.Helper()
	ce.token = ce.password("jury")
	defer func() { ce.token = "" }()
	ce.waitDone(2*time.Minute, ids...)
}

// play runs the contest up to the freeze: before the start nothing is
// out; team 1 gets a WA then the first solve of A, team 2 solves A later
// and gets a CE on B, team 1 asks about A and the jury answers all, the
// jury writes to team 2; in the freeze team 3 solves A.
func (ce *clicsEnv) play() (frozen string) {
	t := ce.t
	var probs []map[string]any
	if code := ce.as("", "GET", "/api/contests/cup26/problems", nil, &probs); code != 200 || len(probs) != 0 {
		t.Errorf("before the start, the public's problems: got %d %v, want 200 and none", code, probs)
	}
	ce.token = ce.password("team1")
	var a map[string]any
	if code := ce.do("POST", "/api/v1/submissions", jsonBody(SubmitRequest{Problem: "clocks", Filename: "a.py", Source: "ok"}), nil, &a); code != http.StatusNotFound {
		t.Errorf("a submission before the start: got %d %v, want 404", code, a)
	}
	ce.token = ""
	ce.clock.Set(ce.start.Add(10 * time.Minute))
	wa := ce.submitAs("team1", "clocks", "text:1 2 3")
	ce.clock.Set(ce.start.Add(15 * time.Minute))
	ac1 := ce.submitAs("team1", "clocks", "ok")
	ce.clock.Set(ce.start.Add(20 * time.Minute))
	ac2 := ce.submitAs("team2", "clocks", "ok")
	ce2 := ce.submitAs("team2", "eight-puzzle", "ce")
	ce.waitJudged(wa, ac1, ac2, ce2)
	var q, ans map[string]any
	if code := ce.as("team1", "POST", "/api/contests/cup26/clarifications", map[string]any{"problem_id": "clocks", "text": "May a move turn two clocks?"}, &q); code != 201 {
		t.Fatalf("a team's question: got %d %v", code, q)
	}
	if code := ce.as("jury", "POST", "/api/contests/cup26/clarifications", map[string]any{"reply_to_id": q["id"], "text": "No: read the statement again."}, &ans); code != 201 {
		t.Fatalf("the jury's answer: got %d %v", code, ans)
	}
	if code := ce.as("jury", "POST", "/api/contests/cup26/clarifications", map[string]any{"to_team_id": "t2", "text": "Your screen is on."}, nil); code != 201 {
		t.Fatalf("the jury's message to a team: got %d", code)
	}
	ce.clock.Set(ce.start.Add(95 * time.Minute)) // the freeze: 1:30
	frozen = ce.submitAs("team3", "clocks", "ok")
	ce.waitJudged(frozen)
	return frozen
}

// finish ends the contest, thaws the board and finalizes the results.
func (ce *clicsEnv) finish() {
	t := ce.t
	ce.clock.Set(ce.start.Add(2*time.Hour + time.Minute))
	ce.token = ce.password("team1")
	var a map[string]any
	if code := ce.do("POST", "/api/v1/submissions", jsonBody(SubmitRequest{Problem: "clocks", Filename: "a.py", Source: "ok"}), nil, &a); code != http.StatusForbidden {
		t.Errorf("a submission after the end: got %d %v, want 403", code, a)
	}
	ce.token = ""
	var c map[string]any
	if code := ce.as("jury", "PATCH", "/api/contests/cup26", map[string]any{"id": "cup26", "scoreboard_thaw_time": contest.FormatTime(ce.clock.Now())}, &c); code != 200 {
		t.Fatalf("thaw: got %d %v", code, c)
	}
	if err := ce.api.contest.finalize(t.Context()); err != nil {
		t.Fatal(err)
	}
}

// board is the scoreboard user sees, as team:solved:time per row.
func (ce *clicsEnv) board(user string) string {
	var b struct {
		Rows []struct {
			Rank   int    `json:"rank"`
			TeamID string `json:"team_id"`
			Score  struct {
				NumSolved int    `json:"num_solved"`
				TotalTime string `json:"total_time"`
			} `json:"score"`
			Problems []struct {
				ProblemID  string `json:"problem_id"`
				NumPending int    `json:"num_pending"`
			} `json:"problems"`
		} `json:"rows"`
	}
	ce.as(user, "GET", "/api/contests/cup26/scoreboard", nil, &b)
	var out []string
	for _, r := range b.Rows {
		pending := 0
		for _, p := range r.Problems {
			pending += p.NumPending
		}
		out = append(out, fmt.Sprintf("%d:%s:%d:%s:%d", r.Rank, r.TeamID, r.Score.NumSolved, r.Score.TotalTime, pending))
	}
	return strings.Join(out, " ")
}

// TestContest plays a contest through the API: nothing before the
// start, the ICPC board with its penalty and first solve, the freeze that
// hides a late solve from all but the jury, the end after which nothing
// is taken, the thaw.
func TestContest(t *testing.T) {
	t.Parallel()
	ce := newClicsEnv(t, true)
	ce.play()
	want := map[string]string{
		"":      "1:t2:1:0:20:00.000:0 2:t1:1:0:35:00.000:0 3:t3:0:0:00:00.000:1",
		"team3": "1:t2:1:0:20:00.000:0 2:t1:1:0:35:00.000:0 3:t3:0:0:00:00.000:1",
		"jury":  "1:t2:1:0:20:00.000:0 2:t1:1:0:35:00.000:0 3:t3:1:1:35:00.000:0",
	}
	for user, w := range want {
		if got := ce.board(user); got != w {
			t.Errorf("the board of %q in the freeze: got %s, want %s", user, got, w)
		}
	}
	var clars []map[string]any
	ce.as("team3", "GET", "/api/contests/cup26/clarifications", nil, &clars)
	if len(clars) != 1 || clars[0]["text"] != "No: read the statement again." || clars[0]["reply_to_id"] != nil {
		t.Errorf("team 3's clarifications: got %v, want the answer to all, without the question", clars)
	}
	ce.as("team1", "GET", "/api/contests/cup26/clarifications", nil, &clars)
	if len(clars) != 2 || clars[1]["reply_to_id"] != nil && clars[1]["reply_to_id"] != clars[0]["id"] {
		t.Errorf("team 1's clarifications: got %v, want its question and the answer", clars)
	}
	ce.finish()
	if got, w := ce.board(""), want["jury"]; got != w {
		t.Errorf("the public board after the thaw: got %s, want %s", got, w)
	}
	var awards []contest.Award
	ce.as("", "GET", "/api/contests/cup26/awards", nil, &awards)
	if len(awards) < 2 || strings.Join(awards[0].TeamIDs, ",") != "t2" || awards[1].ID != "first-to-solve-clocks" || strings.Join(awards[1].TeamIDs, ",") != "t1" {
		t.Errorf("awards: got %+v, want t2 the winner, t1 first to solve clocks", awards)
	}
	req, _ := http.NewRequest("GET", ce.http.URL+"/api/contests/cup26/results.tsv", nil)
	req.Header.Set("Authorization", basicHeader("jury", ce.password("jury")))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	tsv, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.HasPrefix(string(tsv), "results\t1\nt2\t1\tWinner\t1\t20\t20\t") {
		t.Errorf("results.tsv: got %q", tsv)
	}
}

// feedEvents reads a feed to its end (stream=false).
func (ce *clicsEnv) feedEvents(user, query string) []map[string]json.RawMessage {
	ce.t.Helper()
	req, _ := http.NewRequest("GET", ce.http.URL+"/api/contests/cup26/event-feed?stream=false"+query, nil)
	if user != "" {
		req.Header.Set("Authorization", basicHeader(user, ce.password(user)))
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		ce.t.Fatal(err)
	}
	defer resp.Body.Close()
	var out []map[string]json.RawMessage
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		var ev map[string]json.RawMessage
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			ce.t.Fatalf("feed line %q: %v", sc.Text(), err)
		}
		out = append(out, ev)
	}
	return out
}

// TestContestFeedReplay rebuilds the scoreboard from the event feed alone,
// with a plain ICPC count written here, and finds the API's: the public's
// in the freeze, the jury's, and after the thaw; a feed resumed with
// since_token tells the rest.
func TestContestFeedReplay(t *testing.T) {
	t.Parallel()
	ce := newClicsEnv(t, true)
	ce.play()
	for _, user := range []string{"", "jury"} {
		evs := ce.feedEvents(user, "")
		if got, want := replay(t, evs), ce.board(user); got != want {
			t.Errorf("the feed of %q replayed: got %s, want the API's %s", user, got, want)
		}
	}
	evs := ce.feedEvents("", "")
	var last string
	json.Unmarshal(evs[len(evs)-1]["token"], &last)
	ce.finish()
	rest := ce.feedEvents("", "&since_token="+last)
	if len(rest) == 0 {
		t.Fatal("nothing after the last token, after the thaw")
	}
	if got, want := replay(t, append(evs, rest...)), ce.board(""); got != want {
		t.Errorf("the public feed, resumed after the thaw, replayed: got %s, want %s", got, want)
	}
	if code := ce.as("", "GET", "/api/contests/cup26/event-feed?since_token=999999", nil, nil); code != 400 {
		t.Errorf("an unknown token: got %d, want 400", code)
	}
}

// replay applies a feed's events in order and ranks the teams by ICPC
// rules, counted the plain way: for each team and problem the
// submissions in time order until the first solve, each rejected one
// (penalty true) 20 minutes.
func replay(t *testing.T, evs []map[string]json.RawMessage) string {
	objs := map[string]map[string]map[string]any{}
	for _, ev := range evs {
		var typ, id string
		json.Unmarshal(ev["type"], &typ)
		json.Unmarshal(ev["id"], &id)
		if objs[typ] == nil {
			objs[typ] = map[string]map[string]any{}
		}
		var data map[string]any
		json.Unmarshal(ev["data"], &data)
		if data == nil {
			delete(objs[typ], id)
		} else {
			objs[typ][id] = data
		}
	}
	penalty := map[string]bool{}
	for id, jt := range objs["judgement-types"] {
		penalty[id] = jt["penalty"] == true
	}
	verdict := map[string]string{}
	for _, j := range objs["judgements"] {
		if j["current"] != false {
			if v, ok := j["judgement_type_id"].(string); ok {
				verdict[j["submission_id"].(string)] = v
			}
		}
	}
	type row struct {
		team                string
		solved, total, last int
		pending             int
	}
	rows := map[string]*row{}
	for id := range objs["teams"] {
		rows[id] = &row{team: id}
	}
	var subs []map[string]any
	for _, s := range objs["submissions"] {
		subs = append(subs, s)
	}
	rel := func(s string) int { d, _ := contest.ParseRel(s); return int(d / time.Minute) }
	sortBy(subs, func(s map[string]any) string { return s["time"].(string) + s["id"].(string) })
	done := map[string]bool{}
	tries := map[string]int{}
	for _, s := range subs {
		r := rows[s["team_id"].(string)]
		k := r.team + "/" + s["problem_id"].(string)
		if done[k] {
			continue
		}
		switch v := verdict[s["id"].(string)]; {
		case v == "":
			r.pending++
		case v == "AC":
			done[k] = true
			m := rel(s["contest_time"].(string))
			r.solved++
			r.total += m + 20*tries[k]
			r.last = max(r.last, m)
		case penalty[v]:
			tries[k]++
		}
	}
	var list []*row
	for _, r := range rows {
		list = append(list, r)
	}
	better := func(a, b *row) bool {
		if a.solved != b.solved {
			return a.solved > b.solved
		}
		if a.total != b.total {
			return a.total < b.total
		}
		return a.last < b.last
	}
	names := map[string]string{}
	for id, tm := range objs["teams"] {
		names[id] = tm["name"].(string)
	}
	sortBy(list, func(r *row) string { return names[r.team] })
	for i := 1; i < len(list); i++ {
		for j := i; j > 0 && better(list[j], list[j-1]); j-- {
			list[j], list[j-1] = list[j-1], list[j]
		}
	}
	var out []string
	rank := 0
	for i, r := range list {
		if i == 0 || better(list[i-1], r) {
			rank = i + 1
		}
		out = append(out, fmt.Sprintf("%d:%s:%d:%s:%d", rank, r.team, r.solved, contest.FormatRel(time.Duration(r.total)*time.Minute), r.pending))
	}
	return strings.Join(out, " ")
}

func sortBy[T any](xs []T, key func(T) string) {
	for i := 1; i < len(xs); i++ {
		for j := i; j > 0 && key(xs[j]) < key(xs[j-1]); j-- {
			xs[j], xs[j-1] = xs[j-1], xs[j]
		}
	}
}

// ccsSpecs is the directory of icpc/ccs-specs at its 2026-01 release, with
// check-api.sh and json-schema/: $CCS_SPECS, else
// ~/.cache/optjudge/ccs-specs-2026-01; "" when neither has it. The
// specification has no licence of its own, so it is not copied into this
// repository: .ci/run fetches it where it can (see docs/service.md).
func ccsSpecs() string {
	dirs := []string{os.Getenv("CCS_SPECS")}
	if h, err := os.UserHomeDir(); err == nil {
		dirs = append(dirs, filepath.Join(h, ".cache", "optjudge", "ccs-specs-2026-01"))
	}
	for _, d := range dirs {
		if d == "" {
			continue
		}
		if _, err := os.Stat(filepath.Join(d, "check-api.sh")); err == nil {
			return d
		}
	}
	return ""
}

// TestContestCheckAPI runs the specification's own validator,
// check-api.sh of icpc/ccs-specs 2026-01, against the server: every
// endpoint against its JSON schema, strict (no property the spec does not
// have), every collection non-empty, the errors of missing objects; as
// the public and as the jury, in the freeze and after the contest.
func TestContestCheckAPI(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("-short: the specification's check-api.sh on four accounts; the other contest tests read the API")
	}
	specs := ccsSpecs()
	if specs == "" {
		t.Skip("check-api.sh not found: set CCS_SPECS to a checkout of github.com/icpc/ccs-specs at tag 2026-01 (or put it in ~/.cache/optjudge/ccs-specs-2026-01; .ci/run does)")
	}
	for _, tool := range []string{"bash", "curl", "jq"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("check-api.sh needs %s (.ci/run installs it)", tool)
		}
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	validator := filepath.Join(t.TempDir(), "yajsv")
	os.WriteFile(validator, []byte("#!/bin/sh\n"+yajsvEnv+"=1 exec '"+self+"' \"$@\"\n"), 0o755)
	// the stand-in finds a wrong document wrong
	bad := filepath.Join(t.TempDir(), "state.json")
	os.WriteFile(bad, []byte(`{"started": "yesterday", "ended": null, "finalized": null, "end_of_updates": null}`), 0o644)
	schemas := filepath.Join(specs, "json-schema")
	if out, err := exec.Command(validator, "-q", "-s", filepath.Join(schemas, "state.json"), "-r", schemas+"/*.json", bad).CombinedOutput(); err == nil || !bytes.Contains(out, []byte("fail")) {
		t.Fatalf("the validator passed a wrong started time: %v %s", err, out)
	}
	ce := newClicsEnv(t, true)
	ce.play()
	check := func(stage, user string) {
		args := []string{filepath.Join(specs, "check-api.sh"), "-b", "-e", "-n", "-j", validator, "-a", "stream=false"}
		curl := "-s"
		if user != "" {
			curl += " -u " + user + ":" + ce.password(user)
		}
		args = append(args, "-c", curl, ce.http.URL+"/api")
		out, err := exec.Command("bash", args...).CombinedOutput()
		if err != nil || bytes.Contains(out, []byte("fail")) || bytes.Contains(out, []byte("Warning")) {
			t.Errorf("check-api.sh %s as %q: %v\n%s", stage, user, err, out)
		} else {
			t.Logf("check-api.sh %s as %q:\n%s", stage, user, out)
		}
	}
	check("in the freeze", "")
	check("in the freeze", "jury")
	check("in the freeze", "team1")
	ce.finish()
	check("after the contest", "")
	check("after the contest", "jury")
}
