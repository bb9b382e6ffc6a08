package service

import (
	"io/fs"
	"net/http"
	"path"
	"strings"
	"time"

	"github.com/optjudge/optjudge/judge/contest"
)

// The contest's pages: the scoreboard (/scoreboard), the clarifications
// (/clarifications), and a line at the top of every page saying where
// the contest is (contestBanner). Both pages follow the contest by
// reading their own fragment again every few seconds (?part=live).

// contestBanner is the top line of every page in a contest.
type contestBanner struct {
	Name, State, When string
	Frozen            bool
}

// banner is the contest's line now; nil without a contest.
func (s *Server) banner() *contestBanner {
	l := s.contest
	if l == nil {
		return nil
	}
	now := l.now()
	st, _ := l.state()
	b := &contestBanner{Name: l.c.Name}
	left := func(t time.Time) string {
		return strings.TrimSuffix(contest.FormatRel(t.Sub(now).Truncate(time.Second)), ".000")
	}
	switch {
	case l.c.Start.IsZero():
		b.State = "not scheduled"
	case st.Started == nil:
		b.State, b.When = "starts in "+left(l.c.Start), "at "+l.c.Start.UTC().Format("15:04 UTC")
	case st.Ended == nil:
		b.State, b.When = "running", left(l.c.End())+" left"
		b.Frozen = st.Frozen != nil
	default:
		b.State = "over"
		b.Frozen = st.Frozen != nil && st.Thawed == nil
		if st.Finalized != nil {
			b.When = "results final"
		}
	}
	return b
}

// scoreboardData is the scoreboard page's.
type scoreboardData struct {
	ID       string // the contest's, for the jury's export links
	Contest  string
	Problems []contest.Problem
	Rows     []boardRow
	Frozen   bool // the board hides results of the freeze from this user
	Admin    bool
	CanThaw  bool
	CanFinal bool
	Final    bool
}

func (scoreboardData) title() string { return "Scoreboard" }

type boardRow struct {
	contest.Row
	Name, Org string
	Time      string
	Mine      bool
	Cells     []boardCell
}

type boardCell struct {
	contest.Cell
	Label, Class, Text, Title string
}

func (p *pages) handleScoreboard(w http.ResponseWriter, r *http.Request, u *User) {
	l := p.s.contest
	if l == nil {
		p.fail(w, r, u, errorf(http.StatusNotFound, "this server runs no contest"))
		return
	}
	st, prog := l.state()
	b := l.board(r.Context(), u, r.URL.Query().Get("group"))
	d := scoreboardData{ID: l.c.ID, Contest: l.c.Name, Problems: l.c.Problems, Admin: u.Admin(),
		Frozen: !u.Admin() && st.Frozen != nil && prog.Thawed.IsZero(), Final: st.Finalized != nil}
	d.CanThaw = u.Admin() && st.Ended != nil && st.Frozen != nil && prog.Thawed.IsZero()
	d.CanFinal = u.Admin() && st.Ended != nil && st.Finalized == nil
	orgs := map[string]string{}
	for _, o := range l.c.Organizations {
		orgs[o.ID] = o.Name
	}
	mine := l.teamOf(u)
	for _, row := range b.Rows {
		br := boardRow{Row: row, Name: row.Team.Shown(), Mine: row.Team.ID == mine, Time: itoa(int(row.Penalty / time.Minute))}
		if row.Team.OrganizationID != nil {
			br.Org = orgs[*row.Team.OrganizationID]
		}
		for k, c := range row.Problems {
			br.Cells = append(br.Cells, cellOf(c, l.c.Problems[k].Label))
		}
		d.Rows = append(d.Rows, br)
	}
	name := "scoreboard"
	if r.URL.Query().Get("part") == "live" {
		name = "scoreboard-live"
	}
	p.renderPart(w, r, name, u, d)
}

// cellOf is a cell as the board shows it: solved (first or not) with its
// minute and tries, rejected with its tries, pending.
func cellOf(c contest.Cell, label string) boardCell {
	bc := boardCell{Cell: c, Label: label}
	tries := c.Judged + c.Pending
	switch {
	case c.Solved && c.First:
		bc.Class, bc.Text, bc.Title = "first", itoa(int(c.Time/time.Minute)), "first to solve"
	case c.Solved:
		bc.Class, bc.Text, bc.Title = "solved", itoa(int(c.Time/time.Minute)), "solved"
	case c.Pending > 0:
		bc.Class, bc.Text, bc.Title = "pending", "?", "pending"
	case c.Judged > 0:
		bc.Class, bc.Text, bc.Title = "tried", "-", "rejected"
	default:
		return bc
	}
	bc.Text += " " + map[bool]string{true: "(1 try)", false: "(" + itoa(tries) + " tries)"}[tries == 1]
	return bc
}

// renderPart renders a page, or with ?part=live its live part alone.
func (p *pages) renderPart(w http.ResponseWriter, r *http.Request, name string, u *User, data any) {
	if !strings.HasSuffix(name, "-live") {
		p.render(w, r, http.StatusOK, name, u, data)
		return
	}
	page := strings.TrimSuffix(name, "-live")
	var buf strings.Builder
	if err := p.templates[page].ExecuteTemplate(&buf, "live", data); err != nil {
		p.fail(w, r, u, err)
		return
	}
	pageHeaders(w)
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Write([]byte(buf.String()))
}

// clarData is the clarifications page's.
type clarData struct {
	Clars    []clarRow
	Problems []contest.Problem
	Teams    []contest.Team
	Admin    bool
	CanAsk   bool
	Error    string
	Text     string
	CSRF     string // the form token, for the answers' forms of the live part
}

func (clarData) title() string { return "Clarifications" }

type clarRow struct {
	Clarification
	From, To, Problem string
	Answered          bool
}

func (p *pages) clarData(r *http.Request, u *User) (*clarData, error) {
	l := p.s.contest
	if l == nil {
		return nil, errorf(http.StatusNotFound, "this server runs no contest")
	}
	team := l.teamOf(u)
	d := &clarData{Admin: u.Admin(), CanAsk: team != "", Teams: l.c.Teams, CSRF: p.formToken(r)}
	if u.Admin() || l.c.Started(l.now()) {
		d.Problems = l.c.Problems
	}
	label := map[string]string{}
	for _, pr := range l.c.Problems {
		label[pr.ID] = pr.Label + ": " + pr.ID
	}
	answered := map[string]bool{}
	all := l.clarList()
	for _, c := range all {
		if c.ReplyTo != "" {
			answered[c.ReplyTo] = true
		}
	}
	for i := len(all) - 1; i >= 0; i-- {
		c := all[i]
		if !allowed(u, team, clarWho(&c)) {
			continue
		}
		row := clarRow{Clarification: c, Problem: label[c.Problem], Answered: answered[c.ID], From: "jury", To: "all teams"}
		if c.Problem == "" {
			row.Problem = "general"
		}
		if c.FromTeam != "" {
			row.From, row.To = teamName(l.c, c.FromTeam), "jury"
		}
		if c.ToTeam != "" {
			row.To = teamName(l.c, c.ToTeam)
		}
		d.Clars = append(d.Clars, row)
	}
	return d, nil
}

func teamName(c *contest.Contest, id string) string {
	if t := c.Team(id); t != nil {
		return t.Shown()
	}
	return id
}

func (p *pages) handleClarifications(w http.ResponseWriter, r *http.Request, u *User) {
	d, err := p.clarData(r, u)
	if err != nil {
		p.fail(w, r, u, err)
		return
	}
	name := "clarifications"
	if r.URL.Query().Get("part") == "live" {
		name += "-live"
	}
	p.renderPart(w, r, name, u, d)
}

// handleClarPost sends a clarification from the page's form: a team's
// question (problem, text), the jury's answer (reply_to, to: a team or
// all, text).
func (p *pages) handleClarPost(w http.ResponseWriter, r *http.Request, u *User) {
	l := p.s.contest
	if l == nil {
		p.fail(w, r, u, errorf(http.StatusNotFound, "this server runs no contest"))
		return
	}
	req := &ClarRequest{Text: r.FormValue("text")}
	opt := func(v string) *string {
		if v == "" {
			return nil
		}
		return &v
	}
	req.ProblemID, req.ReplyToID = opt(r.FormValue("problem")), opt(r.FormValue("reply_to"))
	if u.Admin() {
		req.ToTeamID = opt(r.FormValue("to"))
		if q := l.clar(r.FormValue("reply_to")); q != nil && r.FormValue("to") == "sender" {
			req.ToTeamID = opt(q.FromTeam)
		}
	}
	if _, err := l.ask(r.Context(), u, req); err != nil {
		d, derr := p.clarData(r, u)
		if derr != nil {
			p.fail(w, r, u, derr)
			return
		}
		var ae *apiError
		if !asAPIError(err, &ae) {
			p.fail(w, r, u, err)
			return
		}
		d.Error, d.Text = ae.msg, req.Text
		p.render(w, r, ae.status, "clarifications", u, d)
		return
	}
	http.Redirect(w, r, "/clarifications", http.StatusSeeOther)
}

// handleThawPost thaws the board from the scoreboard page (the jury's).
func (p *pages) handleThawPost(w http.ResponseWriter, r *http.Request, u *User) {
	if p.s.contest == nil {
		p.fail(w, r, u, errorf(http.StatusNotFound, "this server runs no contest"))
		return
	}
	var err error
	if r.FormValue("do") == "finalize" {
		err = p.s.contest.finalize(r.Context())
	} else {
		err = p.s.contest.thaw(r.Context())
	}
	if err != nil {
		p.fail(w, r, u, err)
		return
	}
	http.Redirect(w, r, "/scoreboard", http.StatusSeeOther)
}

// contestPageRoutes are the contest's pages.
func (p *pages) contestPageRoutes(mux *http.ServeMux) {
	mux.HandleFunc("GET /scoreboard", p.auth(p.handleScoreboard))
	mux.HandleFunc("POST /scoreboard", p.auth(p.admin(p.post(p.handleThawPost))))
	mux.HandleFunc("GET /clarifications", p.auth(p.handleClarifications))
	mux.HandleFunc("POST /clarifications", p.auth(p.post(p.handleClarPost)))
}

// normalRGB is #rgb or #rrggbb as #rrggbb; "" for anything else.
func normalRGB(s string) string {
	s = strings.ToLower(s)
	switch {
	case len(s) == 4 && s[0] == '#':
		return "#" + string([]byte{s[1], s[1], s[2], s[2], s[3], s[3]})
	case len(s) == 7 && s[0] == '#':
		return s
	}
	return ""
}

// handleKaTeX serves the vendored KaTeX (web/static/katex): its script,
// style sheet and fonts.
func (p *pages) handleKaTeX(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("path")
	b, err := fs.ReadFile(p.static, "katex/"+name)
	if err != nil || strings.Contains(name, "..") || !fs.ValidPath(name) {
		http.NotFound(w, r)
		return
	}
	types := map[string]string{".css": "text/css; charset=utf-8", ".js": "text/javascript; charset=utf-8", ".woff2": "font/woff2"}
	typ, ok := types[path.Ext(name)]
	if !ok {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", typ)
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Cache-Control", "public, max-age=86400")
	w.Write(b)
}
