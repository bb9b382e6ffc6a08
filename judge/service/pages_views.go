package service

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/optjudge/optjudge/judge"
	"github.com/optjudge/optjudge/judge/service/store"
	"github.com/optjudge/optjudge/verdict"
)

// listData is the list page's.
type listData struct {
	Rows     []SubmissionView
	Problems []ProblemSummary  // in the contest's order
	Labels   map[string]string // the problems' labels in the contest, by name
	Verdicts []verdict.Verdict
	Problem  string          // the filters
	Verdict  verdict.Verdict // Unknown: any
	Pending  bool            // the submissions not graded yet
	User     string          // the jury's filters: a user, a language, a time range
	Language string
	From, To string // 2006-01-02T15:04 (UTC), as a datetime-local field
	Users    []string
	Langs    []string
	ShowUser bool
	Limit    int
	More     bool // more submissions pass the filters than are shown
}

func (listData) title() string { return "Submissions" }

// VerdictFilter is the verdict filter as the list's form and script spell
// it: "", pendingFilter, or a verdict's short name.
func (d listData) VerdictFilter() string {
	switch {
	case d.Pending:
		return pendingFilter
	case d.Verdict == verdict.Unknown:
		return ""
	}
	return d.Verdict.String()
}

// listLimit is how many submissions the list shows.
const listLimit = 100

// pendingFilter is the list's verdict filter for the submissions not done.
const pendingFilter = "pending"

// parseVerdictFilter reads the list's verdict filter: "" any,
// pendingFilter the submissions not done, else a verdict's short name.
func parseVerdictFilter(s string) (v verdict.Verdict, pending bool, err error) {
	switch s {
	case "":
		return verdict.Unknown, false, nil
	case pendingFilter:
		return verdict.Unknown, true, nil
	}
	for _, v := range verdict.All {
		if v.String() == s {
			return v, false, nil
		}
	}
	return verdict.Unknown, false, errorf(http.StatusBadRequest, "verdict %q: want %s or %s", s, verdictNames(), pendingFilter)
}

// verdictNames lists the verdicts' short names, for messages.
func verdictNames() string {
	var names []string
	for _, v := range verdict.All {
		names = append(names, v.String())
	}
	return strings.Join(names, ", ")
}

func (p *pages) handleList(w http.ResponseWriter, r *http.Request, u *User) {
	q := r.URL.Query()
	d := listData{Problem: q.Get("problem"), Verdicts: verdict.All, ShowUser: u.Admin(), Limit: listLimit}
	var err error
	if d.Verdict, d.Pending, err = parseVerdictFilter(q.Get("verdict")); err != nil {
		p.fail(w, r, u, err)
		return
	}
	set, err := p.s.problemSet(r.Context())
	if err != nil {
		p.fail(w, r, u, err)
		return
	}
	d.Problems, d.Labels = set, map[string]string{}
	for _, pr := range set {
		if pr.Label != "" {
			d.Labels[pr.Name] = pr.Label
		}
	}
	if err := p.s.view.check(); err != nil {
		p.fail(w, r, u, err)
		return
	}
	f := filter{Problem: d.Problem, Verdict: d.Verdict, Pending: d.Pending, Limit: listLimit + 1}
	if !u.Admin() {
		f.User = u.Name
	} else {
		d.jury(q, &f, p.s)
	}
	see := p.s.sightOf(u)
	for _, sub := range p.s.view.list(f) {
		if len(d.Rows) == listLimit {
			d.More = true
			break
		}
		d.Rows = append(d.Rows, see.submission(&sub))
	}
	p.render(w, r, http.StatusOK, "list", u, d)
}

// submissionData is the submission page's.
type submissionData struct {
	Sub      SubmissionView
	ShowUser bool
	Request  int
	Tests    []testRow
	Planned  int // the tests of the problem, when known
	Compile  *judge.CompileResult
	Warning  string
	First    *testRow // the first failing test
	Failure  *FailureView
	Summary  *judge.Summary
	Source   string // the source, for the jury ("" for a contestant)
}

func (d submissionData) title() string { return "Submission " + d.Sub.ID }

type testRow struct {
	N         int
	Name      string
	Verdict   verdict.Verdict
	TimeMS    int64
	MemoryKiB int64
	Message   string
}

func (p *pages) handleSubmission(w http.ResponseWriter, r *http.Request, u *User) {
	ctx := r.Context()
	sub, err := p.s.lookup(ctx, u, r.PathValue("id"))
	if err != nil {
		p.fail(w, r, u, err)
		return
	}
	v, err := p.s.fullView(ctx, u, sub)
	if err != nil {
		p.fail(w, r, u, err)
		return
	}
	d := submissionData{Sub: v, ShowUser: u.Admin(), Request: sub.Request, Failure: v.Failure}
	if sub.State == StateDone && v.Report != nil {
		var rep judge.Report
		if raw, ok := v.Report.(json.RawMessage); ok && json.Unmarshal(raw, &rep) == nil {
			d.fromReport(&rep)
		}
	} else {
		var pr Progress
		if _, err := store.GetJSON(ctx, p.s.cfg.Store.Progress, sub.ID, &pr); err == nil && pr.Request == sub.Request {
			for i, t := range pr.Tests {
				t = p.s.sightOf(u).brief(t)
				d.Tests = append(d.Tests, testRow{N: i + 1, Name: t.Name, Verdict: t.Verdict, TimeMS: t.TimeMS, MemoryKiB: t.MemoryKiB, Message: t.Message})
			}
		} else if err != nil && !errors.Is(err, jetstream.ErrKeyNotFound) {
			p.fail(w, r, u, err)
			return
		}
	}
	if u.Admin() {
		if b, err := p.s.cfg.Store.Sources.GetBytes(ctx, sub.Source); err == nil {
			d.Source = string(b)
		}
	}
	d.Sub.Report = nil // the page has what it needs of it
	p.render(w, r, http.StatusOK, "submission", u, d)
}

func (d *submissionData) fromReport(rep *judge.Report) {
	for i, t := range rep.Tests {
		row := testRow{N: i + 1, Name: t.Name, Verdict: t.Verdict, TimeMS: t.TimeMS, MemoryKiB: t.MemoryKiB, Message: t.Message}
		d.Tests = append(d.Tests, row)
		if d.First == nil && t.Verdict != verdict.AC {
			d.First = &row
		}
	}
	if rep.Verdict == verdict.CE || (!rep.Compile.OK && rep.Compile.Message != "") {
		d.Compile = &rep.Compile
	}
	d.Warning, d.Planned, d.Summary = rep.Warning, rep.Summary.Tests, &rep.Summary
	if d.Failure != nil && (d.First == nil || d.First.Name != d.Failure.Test) {
		d.Failure = nil
	}
}

// queueData is the queue page's.
type queueData struct {
	Queue    *QueueView
	Problems []problemCount
}

func (queueData) title() string { return "Queue" }

type problemCount struct {
	Name, Title string
	Done        int
}

func (p *pages) handleQueue(w http.ResponseWriter, r *http.Request, u *User) {
	q, err := p.s.queueView(r.Context())
	if err != nil {
		p.fail(w, r, u, err)
		return
	}
	d := queueData{Queue: q}
	names, err := p.s.cfg.Library.Names(r.Context())
	if err != nil {
		p.fail(w, r, u, err)
		return
	}
	done := p.s.view.counts().Done
	for _, n := range names {
		pc := problemCount{Name: n, Done: done[n]}
		if pr, err := p.s.cfg.Library.Current(r.Context(), n); err == nil && pr != nil {
			pc.Title = pr.Title
		}
		d.Problems = append(d.Problems, pc)
	}
	sort.Slice(d.Problems, func(i, j int) bool { return d.Problems[i].Name < d.Problems[j].Name })
	p.render(w, r, http.StatusOK, "queue", u, d)
}

func (p *pages) handleRejudgePost(w http.ResponseWriter, r *http.Request, u *User) {
	name := r.FormValue("problem")
	rj, err := p.s.rejudge(r.Context(), name, u.Name)
	if err != nil {
		p.fail(w, r, u, err)
		return
	}
	http.Redirect(w, r, "/queue/rejudges/"+name+"/"+rj.ID, http.StatusSeeOther)
}

// rejudgeData is the rejudge page's.
type rejudgeData struct{ *RejudgeResult }

func (rejudgeData) title() string { return "Rejudge" }

func (p *pages) handleRejudge(w http.ResponseWriter, r *http.Request, u *User) {
	res, err := p.s.rejudgeResult(r.Context(), r.PathValue("name"), r.PathValue("id"))
	if err != nil {
		p.fail(w, r, u, err)
		return
	}
	p.render(w, r, http.StatusOK, "rejudge", u, rejudgeData{res})
}

// jury reads the jury's filters of the list: user, language, from, to
// (a bad time is left out).
func (d *listData) jury(q url.Values, f *filter, s *Server) {
	d.User, d.Language, d.From, d.To = q.Get("user"), q.Get("language"), q.Get("from"), q.Get("to")
	f.User, f.Language = d.User, d.Language
	for _, v := range []struct {
		text string
		to   *time.Time
	}{{d.From, &f.From}, {d.To, &f.To}} {
		if t, err := time.Parse("2006-01-02T15:04", v.text); err == nil {
			*v.to = t
		}
	}
	for _, t := range s.cfg.Tokens {
		d.Users = append(d.Users, t.Name)
	}
	for _, l := range s.cfg.Languages.List {
		d.Langs = append(d.Langs, l.Name)
	}
}
