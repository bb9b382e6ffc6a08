package service

import (
	"context"
	"encoding/json"
	"net/http"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/optjudge/optjudge/judge/contest"
	"github.com/optjudge/optjudge/judge/service/store"
)

// Clarification is a question of a team or an answer of the jury, in the
// bucket judge-contest as clar.<id>. A team's question goes to the jury;
// the jury's answer to one team (ToTeam) or to all ("").
type Clarification struct {
	ID        string    `json:"id"`
	FromTeam  string    `json:"from_team_id,omitempty"`
	ToTeam    string    `json:"to_team_id,omitempty"`
	ReplyTo   string    `json:"reply_to_id,omitempty"`
	Problem   string    `json:"problem_id,omitempty"`
	Text      string    `json:"text"`
	Time      time.Time `json:"time"`
	By        string    `json:"by"` // the user who sent it
	Cancelled bool      `json:"-"`
}

// maxClarText bounds a clarification's text.
const maxClarText = 4096

// ClarRequest is POST contests/ID/clarifications: a team's question (text,
// problem_id or none), or the jury's answer (text, reply_to_id, to_team_id;
// both null: to all).
type ClarRequest struct {
	ID          *string  `json:"id"`
	FromTeamID  *string  `json:"from_team_id"`
	ToTeamID    *string  `json:"to_team_id"`
	ToTeamIDs   []string `json:"to_team_ids"`
	ToGroupIDs  []string `json:"to_group_ids"`
	ReplyToID   *string  `json:"reply_to_id"`
	ProblemID   *string  `json:"problem_id"`
	Text        string   `json:"text"`
	Time        *string  `json:"time"`
	ContestTime *string  `json:"contest_time"`
}

func (s *Server) handleClarPost(w http.ResponseWriter, r *http.Request, u *User) {
	var req ClarRequest
	r.Body = http.MaxBytesReader(w, r.Body, 64<<10)
	if err := decodeJSON(r.Body, &req); err != nil {
		writeCLICSError(w, err)
		return
	}
	c, err := s.contest.ask(r.Context(), u, &req)
	if err != nil {
		writeCLICSError(w, err)
		return
	}
	w.Header().Set("Location", "/api/contests/"+s.contest.c.ID+"/clarifications/"+c.ID)
	writeJSON(w, http.StatusCreated, s.contest.clarJSON(c))
}

// ask stores a clarification from u: a team's question or the jury's
// message; every field checked, the one at fault named.
func (l *contestLayer) ask(ctx context.Context, u *User, req *ClarRequest) (*Clarification, error) {
	if u == nil {
		return nil, errorf(http.StatusUnauthorized, "log in to send a clarification")
	}
	team := l.teamOf(u)
	switch {
	case req.ID != nil:
		return nil, errorf(http.StatusBadRequest, "id: must not be given, the server chooses it")
	case req.Time != nil || req.ContestTime != nil:
		return nil, errorf(http.StatusBadRequest, "time: must not be given, the server sets it")
	case req.ToTeamIDs != nil || req.ToGroupIDs != nil:
		return nil, errorf(http.StatusBadRequest, "to_team_ids: not supported: send to_team_id, or neither for all")
	case strings.TrimSpace(req.Text) == "":
		return nil, errorf(http.StatusBadRequest, "text: required")
	case len(req.Text) > maxClarText || !utf8.ValidString(req.Text):
		return nil, errorf(http.StatusBadRequest, "text: at most %d bytes of UTF-8", maxClarText)
	case req.ProblemID != nil && !l.inContest(*req.ProblemID):
		return nil, errorf(http.StatusBadRequest, "problem_id: no problem %q in the contest", *req.ProblemID)
	}
	c := &Clarification{ID: newID("", ""), Text: req.Text, Time: l.now().UTC(), By: u.Name}
	if req.ProblemID != nil {
		c.Problem = *req.ProblemID
	}
	switch {
	case u.Admin():
		if req.FromTeamID != nil {
			return nil, errorf(http.StatusBadRequest, "from_team_id: the jury's message is from no team")
		}
		if req.ToTeamID != nil {
			if l.c.Team(*req.ToTeamID) == nil {
				return nil, errorf(http.StatusBadRequest, "to_team_id: no team %q", *req.ToTeamID)
			}
			c.ToTeam = *req.ToTeamID
		}
		if req.ReplyToID != nil {
			q := l.clar(*req.ReplyToID)
			if q == nil {
				return nil, errorf(http.StatusBadRequest, "reply_to_id: no clarification %q", *req.ReplyToID)
			}
			c.ReplyTo = q.ID
			if c.Problem == "" {
				c.Problem = q.Problem
			}
		}
	case team != "":
		if req.FromTeamID != nil && *req.FromTeamID != team {
			return nil, errorf(http.StatusBadRequest, "from_team_id: you are team %q", team)
		}
		if req.ToTeamID != nil || req.ReplyToID != nil {
			return nil, errorf(http.StatusBadRequest, "to_team_id: a team's question goes to the jury")
		}
		if req.ProblemID != nil && !l.c.Started(l.now()) {
			return nil, errorf(http.StatusBadRequest, "problem_id: no problem is out before the start")
		}
		c.FromTeam = team
	default:
		return nil, errorf(http.StatusForbidden, "%s is not a team of the contest", u.Name)
	}
	if l.kv == nil {
		return nil, errorf(http.StatusServiceUnavailable, "the contest's bucket is not open")
	}
	if err := store.CreateJSON(ctx, l.kv, "clar."+c.ID, c); err != nil {
		return nil, err
	}
	l.mu.Lock()
	l.clars[c.ID] = c
	l.mu.Unlock()
	l.feed.poke()
	return c, nil
}

// clar is the clarification id, nil if none.
func (l *contestLayer) clar(id string) *Clarification {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.clars[id]
}

// clarList is the clarifications in time order.
func (l *contestLayer) clarList() []Clarification {
	l.mu.Lock()
	out := make([]Clarification, 0, len(l.clars))
	for _, c := range l.clars {
		out = append(out, *c)
	}
	l.mu.Unlock()
	sort.Slice(out, func(i, j int) bool {
		if !out[i].Time.Equal(out[j].Time) {
			return out[i].Time.Before(out[j].Time)
		}
		return out[i].ID < out[j].ID
	})
	return out
}

// clarWho is a clarification's audience: a question its team's and the
// jury's, an answer to one team that team's, an answer to all everyone's.
func clarWho(c *Clarification) string {
	switch {
	case c.FromTeam != "":
		return whoTeam(c.FromTeam)
	case c.ToTeam != "":
		return whoTeam(c.ToTeam)
	}
	return ""
}

func (l *contestLayer) clarJSON(c *Clarification) map[string]any {
	m := map[string]any{"id": c.ID, "from_team_id": nil, "to_team_id": nil, "reply_to_id": nil, "problem_id": nil,
		"text": c.Text, "time": contest.FormatTime(c.Time), "contest_time": contest.FormatRel(l.contestTime(c.Time))}
	for k, v := range map[string]string{"from_team_id": c.FromTeam, "to_team_id": c.ToTeam, "problem_id": c.Problem} {
		if v != "" {
			m[k] = v
		}
	}
	// the question answered, when the answer's readers could read it
	if q := l.clar(c.ReplyTo); q != nil && (clarWho(q) == clarWho(c) || clarWho(q) == "") {
		m["reply_to_id"] = q.ID
	}
	return m
}

func (l *contestLayer) clarFacts() []fact {
	var out []fact
	for _, c := range l.clarList() {
		b, _ := json.Marshal(l.clarJSON(&c))
		out = append(out, fact{typ: "clarifications", id: c.ID, who: clarWho(&c), data: b})
	}
	return out
}
