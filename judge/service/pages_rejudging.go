package service

import (
	"net/http"

	"github.com/optjudge/optjudge/judge/contest"
	"github.com/optjudge/optjudge/verdict"
)

// The jury's pages of the rejudgings with preview (rejudging.go): the
// list with a form to start one (/rejudgings), one rejudging with its
// old and new verdicts and the scoreboard they would make, read again
// every few seconds (?part=live), with Apply and Cancel.

// rejudgingsData is the list page's.
type rejudgingsData struct {
	List     []Rejudging
	Problems []string
	Teams    []contest.Team
	Users    []string
	Langs    []string
	Verdicts []verdict.Verdict
	Contest  bool
}

func (rejudgingsData) title() string { return "Rejudgings" }

func (p *pages) handleRejudgings(w http.ResponseWriter, r *http.Request, u *User) {
	ctx := r.Context()
	list, err := p.s.rejudgings(ctx)
	if err != nil {
		p.fail(w, r, u, err)
		return
	}
	d := rejudgingsData{List: list, Verdicts: verdict.All, Contest: p.s.contest != nil}
	if d.Problems, err = p.s.cfg.Library.Names(ctx); err != nil {
		p.fail(w, r, u, err)
		return
	}
	if p.s.contest != nil {
		d.Teams = p.s.contest.c.Teams
	}
	for _, t := range p.s.cfg.Tokens {
		d.Users = append(d.Users, t.Name)
	}
	for _, l := range p.s.cfg.Languages.List {
		d.Langs = append(d.Langs, l.Name)
	}
	p.render(w, r, http.StatusOK, "rejudgings", u, d)
}

// handleRejudgingsPost starts a rejudging from the form (the list's
// filters, or one submission) and shows it.
func (p *pages) handleRejudgingsPost(w http.ResponseWriter, r *http.Request, u *User) {
	req, err := rejudgingFilterOf(r.FormValue)
	if err != nil {
		p.fail(w, r, u, err)
		return
	}
	rj, err := p.s.startRejudging(r.Context(), u.Name, req)
	if err != nil {
		p.fail(w, r, u, err)
		return
	}
	http.Redirect(w, r, "/rejudgings/"+rj.ID, http.StatusSeeOther)
}

// rejudgingData is one rejudging's page.
type rejudgingData struct {
	*RejudgingView
	CSRF    string // the form token, for the live part's form
	Contest bool
	Score   bool // a score contest
}

func (d rejudgingData) title() string { return "Rejudging " + d.ID }

func (p *pages) handleRejudgingPage(w http.ResponseWriter, r *http.Request, u *User) {
	rj, err := p.s.rejudging(r.Context(), r.PathValue("id"))
	if err != nil {
		p.fail(w, r, u, err)
		return
	}
	v, err := p.s.rejudgingView(r.Context(), rj)
	if err != nil {
		p.fail(w, r, u, err)
		return
	}
	d := rejudgingData{RejudgingView: v, CSRF: p.formToken(r), Contest: p.s.contest != nil}
	d.Score = d.Contest && p.s.contest.c.ScoreboardType == contest.Score
	name := "rejudging"
	if r.URL.Query().Get("part") == "live" {
		name = "rejudging-live"
	}
	p.renderPart(w, r, name, u, d)
}

// handleRejudgingAct applies or cancels a rejudging.
func (p *pages) handleRejudgingAct(w http.ResponseWriter, r *http.Request, u *User) {
	id := r.PathValue("id")
	var err error
	switch r.FormValue("do") {
	case "apply":
		_, err = p.s.applyRejudging(r.Context(), id, u.Name)
	case "cancel":
		_, err = p.s.cancelRejudging(r.Context(), id, u.Name)
	default:
		err = errorf(http.StatusBadRequest, "do: apply or cancel")
	}
	if err != nil {
		p.fail(w, r, u, err)
		return
	}
	http.Redirect(w, r, "/rejudgings/"+id, http.StatusSeeOther)
}

// rejudgingPageRoutes are the rejudgings' pages, the jury's.
func (p *pages) rejudgingPageRoutes(mux *http.ServeMux) {
	mux.HandleFunc("GET /rejudgings", p.auth(p.admin(p.handleRejudgings)))
	mux.HandleFunc("POST /rejudgings", p.auth(p.admin(p.post(p.handleRejudgingsPost))))
	mux.HandleFunc("GET /rejudgings/{id}", p.auth(p.admin(p.handleRejudgingPage)))
	mux.HandleFunc("POST /rejudgings/{id}", p.auth(p.admin(p.post(p.handleRejudgingAct))))
}
