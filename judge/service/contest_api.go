package service

import (
	"archive/zip"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"path"
	"sort"
	"strings"
	"time"

	"github.com/optjudge/optjudge/judge/contest"
)

// The ICPC Contest API (CLICS, icpc/ccs-specs 2026-01) under /api:
//
//	GET   /api/                               API information
//	GET   /api/contests[/ID]                  the contest
//	PATCH /api/contests/ID                    {"id", "scoreboard_thaw_time"}: thaw (admin, after the end)
//	GET   /api/contests/ID/access             what the caller may see and do
//	GET   /api/contests/ID/state              started, frozen, ended, thawed, finalized
//	GET   /api/contests/ID/TYPE[/OBJ]         judgement-types, languages, problems, groups,
//	                                          organizations, teams, accounts, submissions,
//	                                          judgements, runs, clarifications, awards
//	GET   /api/contests/ID/account            the caller's account
//	GET   /api/contests/ID/scoreboard         ?group_id=G
//	GET   /api/contests/ID/event-feed         NDJSON, ?since_token=N, ?stream=false
//	GET   /api/contests/ID/submissions/S/files  the source, zipped (its team, the jury)
//	POST  /api/contests/ID/clarifications     a team asks, the jury answers (contest_clar.go)
//	POST  /api/contests/ID/submissions        a team submits, or the jury for a team (contest_submit.go)
//	PUT   /api/contests/ID/submissions/S      the jury submits with an id of its own
//	GET   /api/contests/ID/results.tsv        ICPC's results file (admin)
//
// Who asks: the public (no credentials), a team (a contestant whose
// account is a team's), or the jury (an admin), by bearer token, HTTP
// basic authentication (name and token) or the pages' cookie. The public
// and the teams see the configuration, the state, every team's
// submissions (without their files) and judgements but those the freeze
// hides, and the clarifications sent to all; a team its own files, its
// own judgements under the freeze and its own clarifications too; the
// jury everything. Errors are {"code", "message"}.

// APIVersion is the Contest API's version served.
const APIVersion = "2026-01"

// clicsTypes are the collection endpoints.
var clicsTypes = []string{"judgement-types", "languages", "problems", "groups", "organizations", "teams", "accounts",
	"submissions", "judgements", "runs", "clarifications", "awards"}

// clicsProperties are the properties served of each type, for access.
var clicsProperties = map[string][]string{
	"contest":         {"id", "name", "formal_name", "start_time", "duration", "scoreboard_freeze_duration", "scoreboard_type", "penalty_time"},
	"state":           {"started", "frozen", "ended", "thawed", "finalized", "end_of_updates"},
	"judgement-types": {"id", "name", "penalty", "solved"},
	"languages":       {"id", "name", "entry_point_required", "entry_point_name", "extensions"},
	"problems":        {"id", "label", "name", "ordinal", "rgb", "color", "time_limit", "memory_limit", "output_limit", "code_limit", "test_data_count", "max_score"},
	"groups":          {"id", "icpc_id", "name", "type", "location"},
	"organizations":   {"id", "icpc_id", "name", "formal_name", "country", "country_subdivision", "url", "twitter_hashtag", "twitter_account", "location"},
	"teams":           {"id", "icpc_id", "name", "label", "display_name", "organization_id", "group_ids", "hidden", "location"},
	"accounts":        {"id", "username", "name", "type", "ip", "team_id", "person_id"},
	"submissions":     {"id", "language_id", "problem_id", "team_id", "time", "contest_time", "entry_point", "files"},
	"judgements":      {"id", "submission_id", "judgement_type_id", "score", "current", "start_time", "start_contest_time", "end_time", "end_contest_time", "max_run_time"},
	"runs":            {"id", "judgement_id", "ordinal", "judgement_type_id", "time", "contest_time", "run_time"},
	"clarifications":  {"id", "from_team_id", "to_team_id", "reply_to_id", "problem_id", "text", "time", "contest_time"},
	"awards":          {"id", "citation", "team_ids"},
	"scoreboard":      {"time", "contest_time", "state", "rows"},
	"event-feed":      {"type", "id", "data", "token"},
}

// clicsRoutes adds the Contest API's routes to the server's mux: beside
// /api/v1/, outside its authentication (the public reads without one).
func (s *Server) clicsRoutes(mux *http.ServeMux) {
	h := func(f func(http.ResponseWriter, *http.Request, *User)) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			u, err := s.clicsUser(r)
			if err != nil {
				w.Header().Set("WWW-Authenticate", `Basic realm="judge"`)
				writeCLICSError(w, err)
				return
			}
			if s.contest == nil {
				writeCLICSError(w, errorf(http.StatusNotFound, "this server runs no contest (judge serve --contest DIR)"))
				return
			}
			if id := r.PathValue("cid"); id != "" && id != s.contest.c.ID {
				writeCLICSError(w, errorf(http.StatusNotFound, "no contest %q", id))
				return
			}
			w.Header().Set("Access-Control-Allow-Origin", "*")
			f(w, r, u)
		}
	}
	mux.HandleFunc("GET /api/{$}", s.handleAPIInfo)
	mux.HandleFunc("GET /api/contests", h(s.handleContests))
	mux.HandleFunc("GET /api/contests/{cid}", h(s.handleContest))
	mux.HandleFunc("PATCH /api/contests/{cid}", h(s.handleContestPatch))
	mux.HandleFunc("GET /api/contests/{cid}/access", h(s.handleAccess))
	mux.HandleFunc("GET /api/contests/{cid}/state", h(s.handleState))
	mux.HandleFunc("GET /api/contests/{cid}/scoreboard", h(s.handleScoreboard))
	mux.HandleFunc("GET /api/contests/{cid}/event-feed", h(s.handleFeed))
	mux.HandleFunc("GET /api/contests/{cid}/account", h(s.handleAccount))
	mux.HandleFunc("GET /api/contests/{cid}/results.tsv", h(s.handleResults))
	mux.HandleFunc("GET /api/contests/{cid}/{type}", h(s.handleCollection))
	mux.HandleFunc("GET /api/contests/{cid}/{type}/{id}", h(s.handleObject))
	mux.HandleFunc("GET /api/contests/{cid}/submissions/{id}/files", h(s.handleSubmissionFiles))
	mux.HandleFunc("POST /api/contests/{cid}/clarifications", h(s.handleClarPost))
	mux.HandleFunc("POST /api/contests/{cid}/submissions", h(s.handleSubmissionPost))
	mux.HandleFunc("PUT /api/contests/{cid}/submissions/{id}", h(s.handleSubmissionPut))
	mux.HandleFunc("/api/contests/", func(w http.ResponseWriter, r *http.Request) {
		writeCLICSError(w, errorf(http.StatusNotFound, "no such endpoint: %s %s", r.Method, r.URL.Path))
	})
}

// writeCLICSError writes an error as the Contest API has it:
// {"code": status, "message": "..."}.
func writeCLICSError(w http.ResponseWriter, err error) {
	rec := &statusRecorder{header: http.Header{}}
	writeError(rec, err)
	var e struct{ Error string }
	json.Unmarshal(rec.body, &e)
	for k, v := range rec.header {
		if k != "Content-Length" {
			w.Header()[k] = v
		}
	}
	writeJSON(w, rec.status, map[string]any{"code": rec.status, "message": e.Error})
}

// statusRecorder keeps what writeError writes.
type statusRecorder struct {
	header http.Header
	status int
	body   []byte
}

func (r *statusRecorder) Header() http.Header    { return r.header }
func (r *statusRecorder) WriteHeader(status int) { r.status = status }
func (r *statusRecorder) Write(b []byte) (int, error) {
	r.body = append(r.body, b...)
	return len(b), nil
}

func (s *Server) handleAPIInfo(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Access-Control-Allow-Origin", "*")
	writeJSON(w, http.StatusOK, map[string]any{
		"version": APIVersion, "version_url": "https://ccs-specs.icpc.io/" + APIVersion + "/contest_api",
		"provider": map[string]any{"name": "optjudge"},
	})
}

func (s *Server) handleContests(w http.ResponseWriter, r *http.Request, u *User) {
	writeJSON(w, http.StatusOK, []json.RawMessage{s.contest.contestJSON()})
}

func (s *Server) handleContest(w http.ResponseWriter, r *http.Request, u *User) {
	writeJSON(w, http.StatusOK, s.contest.contestJSON())
}

// handleContestPatch thaws the board: {"id": ID, "scoreboard_thaw_time":
// TIME} from a jury member after the end; the board thaws now (200 with
// the contest).
func (s *Server) handleContestPatch(w http.ResponseWriter, r *http.Request, u *User) {
	if u == nil || !u.Admin() {
		writeCLICSError(w, errorf(http.StatusForbidden, "only the jury may change the contest"))
		return
	}
	var req struct {
		ID       string  `json:"id"`
		Thaw     *string `json:"scoreboard_thaw_time"`
		Start    *string `json:"start_time"`
		Countdow *string `json:"countdown_pause_time"`
	}
	r.Body = http.MaxBytesReader(w, r.Body, 64<<10)
	if err := decodeJSON(r.Body, &req); err != nil {
		writeCLICSError(w, err)
		return
	}
	switch {
	case req.ID != s.contest.c.ID:
		writeCLICSError(w, errorf(http.StatusConflict, "id: %q is not this contest's (%s)", req.ID, s.contest.c.ID))
		return
	case req.Start != nil || req.Countdow != nil:
		writeCLICSError(w, errorf(http.StatusForbidden, "start_time: the start is the contest package's (contest_start is not a capability here)"))
		return
	case req.Thaw == nil:
		writeCLICSError(w, errorf(http.StatusBadRequest, "scoreboard_thaw_time: required"))
		return
	}
	if _, err := contest.ParseTime(*req.Thaw); err != nil {
		writeCLICSError(w, errorf(http.StatusBadRequest, "scoreboard_thaw_time: %v", err))
		return
	}
	if err := s.contest.thaw(r.Context()); err != nil {
		writeCLICSError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, s.contest.contestJSON())
}

func (s *Server) handleAccess(w http.ResponseWriter, r *http.Request, u *User) {
	l := s.contest
	caps := []string{}
	team := l.teamOf(u)
	switch {
	case u != nil && u.Admin():
		caps = append(caps, "contest_thaw", "admin_clar", "admin_submit")
	case team != "":
		caps = append(caps, "post_clar", "team_submit")
	}
	var eps []map[string]any
	for _, t := range append([]string{"contest", "state"}, append(clicsTypes, "scoreboard", "event-feed")...) {
		if t == "accounts" && (u == nil || (!u.Admin() && team == "")) {
			continue
		}
		eps = append(eps, map[string]any{"type": t, "properties": clicsProperties[t]})
	}
	writeJSON(w, http.StatusOK, map[string]any{"capabilities": caps, "endpoints": eps})
}

func (s *Server) handleState(w http.ResponseWriter, r *http.Request, u *User) {
	st, _ := s.contest.state()
	writeJSON(w, http.StatusOK, stateJSON(st))
}

// handleCollection is GET contests/ID/TYPE: the objects u may see,
// filtered by any ID property given in the query (an empty value
// matches null).
func (s *Server) handleCollection(w http.ResponseWriter, r *http.Request, u *User) {
	l := s.contest
	typ := r.PathValue("type")
	if !contains(clicsTypes, typ) || (typ == "accounts" && u == nil) {
		writeCLICSError(w, errorf(http.StatusNotFound, "no such endpoint: %s", typ))
		return
	}
	l.feed.sync(r.Context())
	list := l.feed.list(u, l.teamOf(u), typ)
	if q := r.URL.Query(); len(q) > 0 {
		list = filterObjects(list, q)
	}
	writeJSON(w, http.StatusOK, list)
}

// filterObjects keeps the objects whose properties named in q (of string
// or null values) have the values asked.
func filterObjects(list []json.RawMessage, q map[string][]string) []json.RawMessage {
	out := []json.RawMessage{}
	for _, raw := range list {
		var m map[string]any
		json.Unmarshal(raw, &m)
		ok := true
		for k, vs := range q {
			if !strings.HasSuffix(k, "_id") || len(vs) == 0 {
				continue
			}
			switch v := m[k].(type) {
			case nil:
				ok = ok && vs[0] == ""
			case string:
				ok = ok && v == vs[0]
			}
		}
		if ok {
			out = append(out, raw)
		}
	}
	return out
}

func (s *Server) handleObject(w http.ResponseWriter, r *http.Request, u *User) {
	l := s.contest
	typ, id := r.PathValue("type"), r.PathValue("id")
	if !contains(clicsTypes, typ) || (typ == "accounts" && u == nil) {
		writeCLICSError(w, errorf(http.StatusNotFound, "no such endpoint: %s", typ))
		return
	}
	l.feed.sync(r.Context())
	data, ok := l.feed.one(u, l.teamOf(u), typ, id)
	if !ok {
		writeCLICSError(w, errorf(http.StatusNotFound, "%s: no %q", typ, id))
		return
	}
	writeJSON(w, http.StatusOK, data)
}

func (s *Server) handleAccount(w http.ResponseWriter, r *http.Request, u *User) {
	if u == nil {
		writeCLICSError(w, errorf(http.StatusNotFound, "account: not logged in"))
		return
	}
	for _, a := range s.contest.c.Accounts {
		if a.Username == u.Name {
			writeJSON(w, http.StatusOK, accountJSON(a))
			return
		}
	}
	typ := "admin"
	out := map[string]any{"id": u.Name, "username": u.Name, "type": typ}
	if t := s.contest.teamOf(u); t != "" {
		out["type"], out["team_id"] = "team", t
	} else if !u.Admin() {
		writeCLICSError(w, errorf(http.StatusNotFound, "account: %s is no team's and not the jury", u.Name))
		return
	}
	writeJSON(w, http.StatusOK, out)
}

// handleSubmissionFiles is a submission's source as a zip, for its team
// and the jury.
func (s *Server) handleSubmissionFiles(w http.ResponseWriter, r *http.Request, u *User) {
	l := s.contest
	id := r.PathValue("id")
	sub, err := s.cfg.Store.Submission(r.Context(), id)
	if !subIDRE.MatchString(id) || err != nil || u == nil || (!u.Admin() && (l.teamOf(u) == "" || l.c.TeamOf(sub.User) != l.teamOf(u))) {
		writeCLICSError(w, errorf(http.StatusNotFound, "submissions: no files of %q", id))
		return
	}
	src, err := s.cfg.Store.Sources.GetBytes(r.Context(), sub.Source)
	if err != nil {
		writeCLICSError(w, err)
		return
	}
	w.Header().Set("Content-Type", "application/zip")
	w.Header().Set("Content-Disposition", `attachment; filename="files.zip"`)
	zw := zip.NewWriter(w)
	f, err := zw.Create(path.Base(sub.Filename))
	if err == nil {
		f.Write(src)
	}
	zw.Close()
}

// handleResults is the board as ICPC's results.tsv, for the jury: the
// teams that are not hidden, with their medals and awards.
func (s *Server) handleResults(w http.ResponseWriter, r *http.Request, u *User) {
	if u == nil || !u.Admin() {
		writeCLICSError(w, errorf(http.StatusForbidden, "results.tsv is the jury's"))
		return
	}
	b, awards := s.contest.awards(r.Context(), u)
	w.Header().Set("Content-Type", "text/tab-separated-values; charset=utf-8")
	w.Header().Set("Content-Disposition", fmt.Sprintf("attachment; filename=%q", "results.tsv"))
	s.contest.c.WriteResults(w, b, awards)
}

// handleScoreboard is the board u sees: the jury's live, the others'
// with what the freeze hides as pending.
func (s *Server) handleScoreboard(w http.ResponseWriter, r *http.Request, u *User) {
	l := s.contest
	g := r.URL.Query().Get("group_id")
	if g != "" && !l.hasGroup(g) {
		writeCLICSError(w, errorf(http.StatusBadRequest, "group_id: no group %q", g))
		return
	}
	b := l.board(r.Context(), u, g)
	st, _ := l.state()
	now := l.now()
	out := map[string]any{"time": contest.FormatTime(now), "contest_time": contest.FormatRel(l.contestTime(now)),
		"state": stateJSON(st), "rows": l.rowsJSON(b)}
	writeJSON(w, http.StatusOK, out)
}

func (l *contestLayer) hasGroup(id string) bool {
	for _, g := range l.c.Groups {
		if g.ID == id {
			return true
		}
	}
	return false
}

func (l *contestLayer) rowsJSON(b *contest.Scoreboard) []map[string]any {
	rows := []map[string]any{}
	for _, r := range b.Rows {
		score := map[string]any{"time": nil}
		if l.c.ScoreboardType == contest.Score {
			score["score"] = r.Score
		} else {
			score["num_solved"], score["total_time"] = r.Solved, contest.FormatRel(r.Penalty)
		}
		if r.Solved > 0 || r.Score > 0 {
			score["time"] = contest.FormatRel(r.Last)
		}
		var probs []map[string]any
		for _, c := range r.Problems {
			p := map[string]any{"problem_id": c.Problem, "num_judged": c.Judged, "num_pending": c.Pending}
			if l.c.ScoreboardType == contest.Score {
				p["score"] = c.Score
				if c.Score > 0 {
					p["time"] = contest.FormatRel(c.Time)
				}
			} else {
				p["solved"] = c.Solved
				if c.Solved {
					p["time"] = contest.FormatRel(c.Time)
				}
			}
			probs = append(probs, p)
		}
		rows = append(rows, map[string]any{"rank": r.Rank, "team_id": r.Team.ID, "score": score, "problems": probs})
	}
	return rows
}

// subInfo is a submission of the contest: its record and team.
type subInfo struct {
	sub  Submission
	team string
	at   time.Duration // contest time
}

// submissions are the contest's submissions: to its problems, by its
// teams, from its start; in time order.
func (l *contestLayer) submissions() []subInfo {
	var out []subInfo
	for _, sub := range l.s.view.list(filter{}) {
		team := l.c.TeamOf(sub.User)
		if team == "" || !l.inContest(sub.Problem) || l.c.Start.IsZero() || sub.CreatedAt.Before(l.c.Start) {
			continue
		}
		out = append(out, subInfo{sub: sub, team: team, at: l.contestTime(sub.CreatedAt)})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].at != out[j].at {
			return out[i].at < out[j].at
		}
		return out[i].sub.ID < out[j].sub.ID
	})
	return out
}

// board is the scoreboard u sees.
func (l *contestLayer) board(ctx context.Context, u *User, group string) *contest.Scoreboard {
	return l.boardWith(ctx, u, group, nil)
}

// boardWith is the scoreboard u sees with the judgings of over (by
// submission) in place of the submissions' own: a rejudging's preview.
func (l *contestLayer) boardWith(ctx context.Context, u *User, group string, over map[string]runVerdict) *contest.Scoreboard {
	admin := u != nil && u.Admin()
	return l.compute(ctx, admin, contest.Options{Group: group, Hidden: admin}, over)
}

// awards are the awards u sees: the board's as u sees its results, of
// the teams that are not hidden (a hidden team wins nothing, and takes no
// rank from the others, on the jury's board too).
func (l *contestLayer) awards(ctx context.Context, u *User) (*contest.Scoreboard, []contest.Award) {
	b := l.compute(ctx, u != nil && u.Admin(), contest.Options{}, nil)
	return b, l.c.Awards(b)
}

// compute ranks the contest's submissions, with the results the jury
// sees (admin) or the freeze leaves the others, and the judgings of over
// in place of their submissions'.
func (l *contestLayer) compute(ctx context.Context, admin bool, o contest.Options, over map[string]runVerdict) *contest.Scoreboard {
	_, p := l.state()
	var runs []contest.Run
	for _, si := range l.submissions() {
		run := contest.Run{ID: si.sub.ID, Team: si.team, Problem: si.sub.Problem, Time: si.at}
		if si.sub.State == StateDone && len(si.sub.Judgings) > 0 && (admin || !l.c.FrozenFor(si.sub.CreatedAt, p)) {
			sub, last := &si.sub, si.sub.Judgings[len(si.sub.Judgings)-1]
			if o, ok := over[sub.ID]; ok {
				sub, last = o.run, o.ref
			}
			run.Verdict = clicsVerdict(last.Verdict)
			if l.c.ScoreboardType == contest.Score {
				run.Score = l.feed.brief(ctx, sub, last).score
			}
		}
		runs = append(runs, run)
	}
	return l.c.Compute(runs, o)
}

// BoardChange is a team's line of the jury's scoreboard before and after
// a rejudging. Penalty is the total time in minutes.
type BoardChange struct {
	Team          string  `json:"team_id"`
	Name          string  `json:"name"`
	RankBefore    int     `json:"rank_before"`
	RankAfter     int     `json:"rank_after"`
	SolvedBefore  int     `json:"solved_before"`
	SolvedAfter   int     `json:"solved_after"`
	PenaltyBefore int     `json:"penalty_before"`
	PenaltyAfter  int     `json:"penalty_after"`
	ScoreBefore   float64 `json:"score_before"`
	ScoreAfter    float64 `json:"score_after"`
}

// boardChanges are the rows of the jury's board that the judgings of
// over would change, in their new order.
func (l *contestLayer) boardChanges(ctx context.Context, over map[string]runVerdict) []BoardChange {
	before := l.boardWith(ctx, LocalAdmin, "", nil)
	after := l.boardWith(ctx, LocalAdmin, "", over)
	was := map[string]contest.Row{}
	for _, r := range before.Rows {
		was[r.Team.ID] = r
	}
	out := []BoardChange{}
	for _, r := range after.Rows {
		b := was[r.Team.ID]
		c := BoardChange{Team: r.Team.ID, Name: r.Team.Shown(), RankBefore: b.Rank, RankAfter: r.Rank,
			SolvedBefore: b.Solved, SolvedAfter: r.Solved, PenaltyBefore: int(b.Penalty / time.Minute),
			PenaltyAfter: int(r.Penalty / time.Minute), ScoreBefore: b.Score, ScoreAfter: r.Score}
		if c.RankBefore != c.RankAfter || c.SolvedBefore != c.SolvedAfter || c.PenaltyBefore != c.PenaltyAfter || c.ScoreBefore != c.ScoreAfter {
			out = append(out, c)
		}
	}
	return out
}

func stateJSON(st contest.State) map[string]any {
	t := func(p *time.Time) any {
		if p == nil {
			return nil
		}
		return contest.FormatTime(*p)
	}
	return map[string]any{"started": t(st.Started), "frozen": t(st.Frozen), "ended": t(st.Ended), "thawed": t(st.Thawed),
		"finalized": t(st.Finalized), "end_of_updates": t(st.EndOfUpdates)}
}

func (l *contestLayer) contestJSON() json.RawMessage {
	c := l.c
	m := map[string]any{"id": c.ID, "name": c.Name, "duration": contest.FormatRel(c.Duration),
		"scoreboard_freeze_duration": contest.FormatRel(c.Freeze), "scoreboard_type": c.ScoreboardType, "start_time": nil}
	if c.FormalName != "" {
		m["formal_name"] = c.FormalName
	}
	if !c.Start.IsZero() {
		m["start_time"] = contest.FormatTime(c.Start)
	}
	if c.ScoreboardType == contest.PassFail {
		m["penalty_time"] = contest.FormatRel(c.Penalty)
	}
	b, _ := json.Marshal(m)
	return b
}

func accountJSON(a contest.Account) map[string]any {
	m := map[string]any{"id": a.ID, "username": a.Username, "type": a.Type}
	if a.Name != nil {
		m["name"] = *a.Name
	}
	if a.TeamID != nil {
		m["team_id"] = *a.TeamID
	}
	return m
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
