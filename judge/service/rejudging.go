package service

import (
	"context"
	"errors"
	"fmt"
	"github.com/optjudge/optjudge/judge/service/store"
	"github.com/optjudge/optjudge/verdict"
	"net/http"
	"sort"
	"strings"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// A rejudging with preview, as DOMjudge has it: the jury picks
// submissions (one, or a selection by problem, user or team, language,
// verdict and time), each is graded again by a run of its own, and
// nothing changes until the jury has seen the result (the old and the new
// verdict of each, and, in a contest, what the scoreboard would become)
// and applies it; or cancels it, and nothing changes at all.
//
// A run is a submission record of its own (Submission.Rejudging names the
// rejudging, RejudgeOf the submission it grades again), with the same
// source, problem and language, graded by the workers like any other
// (lifecycle): its user is "rejudging:<id>", no one's, so that no list,
// scoreboard or feed counts it (filter leaves runs out but when asked
// for a rejudging's). Applying copies each run's judging into its
// submission as the submission's next request: the new judging is the
// valid one from then on (its judgement current, the old one not), and the
// scoreboard and the event feed follow from the record as they always do.
// A submission graded again since the rejudging began (a plain rejudge of
// its problem) is left as it is, and the rejudging says so.
//
//	kv judge-rejudgings   <rejudging> -> Rejudging

// Rejudging states.
const (
	RejudgingOpen      = "open"
	RejudgingApplied   = "applied"
	RejudgingCancelled = "cancelled"
)

// Rejudging is a rejudging's record.
type Rejudging struct {
	ID        string          `json:"id"`
	Reason    string          `json:"reason,omitempty"`
	By        string          `json:"by"`
	CreatedAt time.Time       `json:"created_at"`
	State     string          `json:"state"`
	ClosedBy  string          `json:"closed_by,omitempty"`
	ClosedAt  time.Time       `json:"closed_at,omitzero"`
	Items     []RejudgingItem `json:"items"`
}

// RejudgingItem is one submission of a rejudging.
type RejudgingItem struct {
	Submission string          `json:"submission"`
	Run        string          `json:"run"`     // the run that grades it again
	Request    int             `json:"request"` // the submission's request whose judging the run may replace
	Before     verdict.Verdict `json:"before"`  // that judging's verdict
	// After is the run's verdict, recorded when the rejudging is closed.
	After verdict.Verdict `json:"after,omitempty"`
	// Applied says that the run's judging replaced the submission's;
	// Skipped why it did not, when the rejudging was applied.
	Applied bool   `json:"applied,omitempty"`
	Skipped string `json:"skipped,omitempty"`
}

// RejudgingRequest is the body of POST /api/v1/rejudgings: the
// submissions by id, or the finished submissions that pass every filter
// given (at least one). From and To are times (RFC 3339) of submission,
// From inclusive, To exclusive; Team is a contest's team.
type RejudgingRequest struct {
	Reason      string          `json:"reason,omitempty"`
	Submissions []string        `json:"submissions,omitempty"`
	Problem     string          `json:"problem,omitempty"`
	User        string          `json:"user,omitempty"`
	Team        string          `json:"team,omitempty"`
	Language    string          `json:"language,omitempty"`
	Verdict     verdict.Verdict `json:"verdict,omitempty"`
	From        string          `json:"from,omitempty"`
	To          string          `json:"to,omitempty"`
}

// runUser is the user of a rejudging's runs.
func runUser(rejudging string) string { return "rejudging:" + rejudging }

// selection reads a request into the submissions it names.
func (s *Server) selection(ctx context.Context, req *RejudgingRequest) ([]Submission, error) {
	if err := s.view.check(); err != nil {
		return nil, err
	}
	if len(req.Submissions) > 0 {
		var out []Submission
		for _, id := range req.Submissions {
			sub, err := s.lookup(ctx, LocalAdmin, id)
			if err != nil {
				return nil, err
			}
			if sub.Rejudging != "" {
				return nil, errorf(http.StatusBadRequest, "submission %s is a run of rejudging %s, not a submission", id, sub.Rejudging)
			}
			out = append(out, *sub)
		}
		return out, nil
	}
	f := filter{Problem: req.Problem, User: req.User, Language: req.Language, Verdict: req.Verdict}
	for _, t := range []struct {
		name, text string
		to         *time.Time
	}{{"from", req.From, &f.From}, {"to", req.To, &f.To}} {
		if t.text == "" {
			continue
		}
		v, err := time.Parse(time.RFC3339, t.text)
		if err != nil {
			return nil, errorf(http.StatusBadRequest, "%s %q: want a time such as 2026-06-25T10:00:00Z", t.name, t.text)
		}
		*t.to = v
	}
	if f == (filter{}) && req.Team == "" {
		return nil, errorf(http.StatusBadRequest, "choose the submissions: submissions, or one of problem, user, team, language, verdict, from, to")
	}
	if req.Team != "" && (s.contest == nil || s.contest.c.Team(req.Team) == nil) {
		return nil, errorf(http.StatusBadRequest, "team %q: not a team of the contest", req.Team)
	}
	var out []Submission
	for _, sub := range s.view.list(f) {
		if req.Team == "" || s.contest.c.TeamOf(sub.User) == req.Team {
			out = append(out, sub)
		}
	}
	return out, nil
}

// startRejudging makes a rejudging of the finished submissions of the
// selection that are in no open rejudging, and queues their runs. The
// runs grade the current version of each problem.
func (s *Server) startRejudging(ctx context.Context, by string, req *RejudgingRequest) (*Rejudging, error) {
	subs, err := s.selection(ctx, req)
	if err != nil {
		return nil, err
	}
	busy, err := s.inOpenRejudgings(ctx)
	if err != nil {
		return nil, err
	}
	rj := &Rejudging{ID: newID("", ""), Reason: req.Reason, By: by, CreatedAt: time.Now().UTC(), State: RejudgingOpen,
		Items: []RejudgingItem{}}
	probs := map[string]*Problem{}
	var runs []*Submission
	for _, sub := range subs {
		if sub.State != StateDone || busy[sub.ID] || len(sub.Judgings) == 0 {
			continue
		}
		p, ok := probs[sub.Problem]
		if !ok {
			if p, err = s.cfg.Library.Current(ctx, sub.Problem); err != nil {
				return nil, err
			}
			probs[sub.Problem] = p
		}
		if p == nil {
			continue // a problem no longer there
		}
		now := time.Now().UTC()
		run := &Submission{ID: newID("", ""), Problem: sub.Problem, ProblemHash: p.Hash, User: runUser(rj.ID),
			Language: sub.Language, Filename: sub.Filename, Source: sub.Source, Size: sub.Size, CreatedAt: now,
			Request: 1, QueuedAt: now, State: StateQueued, Judgings: []JudgingRef{}, Rejudging: rj.ID, RejudgeOf: sub.ID}
		runs = append(runs, run)
		rj.Items = append(rj.Items, RejudgingItem{Submission: sub.ID, Run: run.ID, Request: sub.Request, Before: sub.Verdict})
	}
	if len(rj.Items) == 0 {
		return nil, errorf(http.StatusConflict, "no submission to rejudge: %d chosen, none finished and outside an open rejudging", len(subs))
	}
	// the record first: a run never names a rejudging that is not there
	if err := store.CreateJSON(ctx, s.cfg.Store.Rejudgings, rj.ID, rj); err != nil {
		return nil, fmt.Errorf("storing the rejudging: %w", err)
	}
	for i, run := range runs {
		if err := s.life.accept(ctx, run); err != nil {
			rj.Items = rj.Items[:i]
			if _, uerr := store.Update(context.WithoutCancel(ctx), s.cfg.Store.Rejudgings, rj.ID, func(r *Rejudging) error {
				r.Items = rj.Items
				return nil
			}); uerr != nil {
				s.log.Printf("rejudging %s: keeping the %d runs queued: %v", rj.ID, i, uerr)
			}
			return nil, fmt.Errorf("rejudging %s: queued %d runs of %d, then: %w", rj.ID, i, len(runs), err)
		}
	}
	return rj, nil
}

// inOpenRejudgings are the submissions of the open rejudgings.
func (s *Server) inOpenRejudgings(ctx context.Context) (map[string]bool, error) {
	all, err := s.rejudgings(ctx)
	if err != nil {
		return nil, err
	}
	out := map[string]bool{}
	for _, rj := range all {
		if rj.State == RejudgingOpen {
			for _, it := range rj.Items {
				out[it.Submission] = true
			}
		}
	}
	return out, nil
}

// rejudgings are every rejudging, newest first.
func (s *Server) rejudgings(ctx context.Context) ([]Rejudging, error) {
	kv := s.cfg.Store.Rejudgings
	keys, err := kv.ListKeys(ctx)
	if err != nil {
		return nil, err
	}
	var out []Rejudging
	for k := range keys.Keys() {
		var rj Rejudging
		if _, err := store.GetJSON(ctx, kv, k, &rj); err != nil {
			if errors.Is(err, jetstream.ErrKeyNotFound) {
				continue
			}
			return nil, err
		}
		out = append(out, rj)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID > out[j].ID })
	return out, nil
}

// rejudging reads one rejudging; an unknown id is 404.
func (s *Server) rejudging(ctx context.Context, id string) (*Rejudging, error) {
	var rj Rejudging
	var err error
	if idRE.MatchString(id) {
		_, err = store.GetJSON(ctx, s.cfg.Store.Rejudgings, id, &rj)
	} else {
		err = jetstream.ErrKeyNotFound
	}
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return nil, errorf(http.StatusNotFound, "no rejudging %q", id)
	}
	if err != nil {
		return nil, err
	}
	return &rj, nil
}

// RejudgingView is a rejudging as the jury sees it: every submission
// with its old and new verdict ("" while its run is being graded), and
// in a contest the rows of the jury's scoreboard that applying it would
// change (of the runs graded so far; null without a contest, and once
// closed).
type RejudgingView struct {
	Rejudging
	Total      int            `json:"total"`
	Done       int            `json:"done"`
	Pending    int            `json:"pending"`
	Changed    int            `json:"changed"`
	Rows       []RejudgingRow `json:"rows"`
	Scoreboard []BoardChange  `json:"scoreboard"`
}

// RejudgingRow is one submission of a rejudging.
type RejudgingRow struct {
	Submission string          `json:"submission"`
	Run        string          `json:"run"`
	User       string          `json:"user"`
	Team       string          `json:"team,omitempty"`
	Problem    string          `json:"problem"`
	Language   string          `json:"language"`
	CreatedAt  time.Time       `json:"created_at"`
	Before     verdict.Verdict `json:"before"`
	After      verdict.Verdict `json:"after,omitempty"`
	RunState   string          `json:"run_state"`
	Changed    bool            `json:"changed"`
	Applied    bool            `json:"applied,omitempty"`
	Skipped    string          `json:"skipped,omitempty"`
}

// view reads the state of a rejudging's runs.
func (s *Server) rejudgingView(ctx context.Context, rj *Rejudging) (*RejudgingView, error) {
	v := &RejudgingView{Rejudging: *rj, Total: len(rj.Items), Rows: []RejudgingRow{}}
	v.Items = nil
	over := map[string]runVerdict{}
	for _, it := range rj.Items {
		row := RejudgingRow{Submission: it.Submission, Run: it.Run, Before: it.Before, After: it.After, Applied: it.Applied, Skipped: it.Skipped,
			RunState: StateDone}
		if sub, err := s.cfg.Store.Submission(ctx, it.Submission); err == nil {
			row.User, row.Problem, row.Language, row.CreatedAt = sub.User, sub.Problem, sub.Language, sub.CreatedAt
			if s.contest != nil {
				row.Team = s.contest.c.TeamOf(sub.User)
			}
		}
		if rj.State == RejudgingOpen {
			run, err := s.cfg.Store.Submission(ctx, it.Run)
			if err != nil {
				return nil, fmt.Errorf("run %s: %w", it.Run, err)
			}
			row.RunState = run.State
			if run.State == StateDone && len(run.Judgings) > 0 {
				last := run.Judgings[len(run.Judgings)-1]
				row.After = last.Verdict
				over[it.Submission] = runVerdict{run: run, ref: last}
			}
		}
		if row.After == verdict.Unknown {
			v.Pending++
		} else {
			v.Done++
		}
		row.Changed = row.After != verdict.Unknown && row.After != row.Before
		if row.Changed {
			v.Changed++
		}
		v.Rows = append(v.Rows, row)
	}
	if s.contest != nil && rj.State == RejudgingOpen {
		v.Scoreboard = s.contest.boardChanges(ctx, over)
	}
	return v, nil
}

// runVerdict is a run's judging, put in place of its submission's.
type runVerdict struct {
	run *Submission
	ref JudgingRef
}

// applyRejudging makes each run's judging its submission's valid one.
// Every run must be done (409 otherwise: apply when they are, or cancel).
func (s *Server) applyRejudging(ctx context.Context, id, by string) (*Rejudging, error) {
	rj, err := s.rejudging(ctx, id)
	if err != nil {
		return nil, err
	}
	if rj.State != RejudgingOpen {
		return nil, errorf(http.StatusConflict, "rejudging %s is %s", id, rj.State)
	}
	runs := make([]*Judging, len(rj.Items))
	pending := 0
	for i, it := range rj.Items {
		run, err := s.cfg.Store.Submission(ctx, it.Run)
		if err != nil {
			return nil, fmt.Errorf("run %s: %w", it.Run, err)
		}
		if run.State != StateDone {
			pending++
			continue
		}
		if runs[i], err = s.cfg.Store.Judging(ctx, run.ID, run.Request); err != nil {
			return nil, fmt.Errorf("run %s: %w", it.Run, err)
		}
	}
	if pending > 0 {
		return nil, errorf(http.StatusConflict, "rejudging %s: %d of %d runs are still being graded: apply it when they are done, or cancel it", id, pending, len(rj.Items))
	}
	items := append([]RejudgingItem(nil), rj.Items...)
	for i := range items {
		items[i].After = runs[i].Verdict
		if err := s.applyRun(ctx, &items[i], runs[i]); err != nil {
			return nil, fmt.Errorf("rejudging %s: applying %s: %w", id, items[i].Submission, err)
		}
	}
	return s.closeRejudging(ctx, id, RejudgingApplied, by, items)
}

// applyRun makes the run's judging j the submission's next request, if the
// submission is still at the request the rejudging began from. Applying
// again is harmless: a submission that has the run's judging already is
// left as it is.
func (s *Server) applyRun(ctx context.Context, it *RejudgingItem, j *Judging) error {
	st := s.cfg.Store
	next := it.Request + 1
	sub, err := st.Submission(ctx, it.Submission)
	if err != nil {
		return err
	}
	listed := false
	for _, r := range sub.Judgings {
		listed = listed || r.Request == next
	}
	if !listed && (sub.Request != it.Request || sub.State != StateDone) {
		// not a judging of request next to take over: a plain rejudge's
		it.Skipped = fmt.Sprintf("graded again since the rejudging began (request %d)", sub.Request)
		return nil
	}
	nj := *j
	nj.Submission, nj.Request = it.Submission, next
	err = store.CreateJSON(ctx, st.Judgings, judgingKey(it.Submission, next), &nj)
	if errors.Is(err, jetstream.ErrKeyExists) {
		have, gerr := st.Judging(ctx, it.Submission, next)
		if gerr != nil {
			return gerr
		}
		if have.Report != j.Report {
			it.Skipped = fmt.Sprintf("graded again since the rejudging began (request %d)", next)
			return nil
		}
		nj = *have
	} else if err != nil {
		return err
	}
	skipped := ""
	_, err = store.Update(ctx, st.Submissions, it.Submission, func(sub *Submission) error {
		for _, r := range sub.Judgings {
			if r.Request == next {
				return store.ErrNoChange // applied before
			}
		}
		if sub.Request != it.Request || sub.State != StateDone {
			skipped = fmt.Sprintf("graded again since the rejudging began (request %d)", sub.Request)
			return store.ErrNoChange
		}
		sub.Request, sub.ProblemHash, sub.Verdict = next, nj.ProblemHash, nj.Verdict
		sub.Judgings = append(sub.Judgings, nj.JudgingRef)
		return nil
	})
	if err != nil {
		return err
	}
	it.Skipped, it.Applied = skipped, skipped == ""
	return nil
}

// cancelRejudging closes a rejudging without changing any submission.
// Its runs still being graded finish, and count for nothing.
func (s *Server) cancelRejudging(ctx context.Context, id, by string) (*Rejudging, error) {
	rj, err := s.rejudging(ctx, id)
	if err != nil {
		return nil, err
	}
	items := append([]RejudgingItem(nil), rj.Items...)
	for i, it := range items {
		if run, err := s.cfg.Store.Submission(ctx, it.Run); err == nil && run.State == StateDone {
			items[i].After = run.Verdict
		}
	}
	return s.closeRejudging(ctx, id, RejudgingCancelled, by, items)
}

// closeRejudging moves an open rejudging to state, with its items as
// they ended.
func (s *Server) closeRejudging(ctx context.Context, id, state, by string, items []RejudgingItem) (*Rejudging, error) {
	rj, err := store.Update(ctx, s.cfg.Store.Rejudgings, id, func(r *Rejudging) error {
		if r.State != RejudgingOpen {
			return errorf(http.StatusConflict, "rejudging %s is %s", id, r.State)
		}
		r.State, r.ClosedBy, r.ClosedAt, r.Items = state, by, time.Now().UTC(), items
		return nil
	})
	if err != nil {
		return nil, err
	}
	if s.contest != nil {
		s.contest.feed.poke()
	}
	return rj, nil
}

// The API's handlers (admin).

func (s *Server) handleRejudgingPost(w http.ResponseWriter, r *http.Request) {
	var req RejudgingRequest
	r.Body = http.MaxBytesReader(w, r.Body, 1<<20)
	if err := decodeJSON(r.Body, &req); err != nil {
		writeError(w, err)
		return
	}
	rj, err := s.startRejudging(r.Context(), userFrom(r.Context()).Name, &req)
	if err != nil {
		writeError(w, err)
		return
	}
	w.Header().Set("Location", "/api/v1/rejudgings/"+rj.ID)
	writeJSON(w, http.StatusCreated, rj)
}

func (s *Server) handleRejudgings(w http.ResponseWriter, r *http.Request) {
	all, err := s.rejudgings(r.Context())
	if err != nil {
		writeError(w, err)
		return
	}
	if all == nil {
		all = []Rejudging{}
	}
	writeJSON(w, http.StatusOK, map[string]any{"rejudgings": all})
}

func (s *Server) handleRejudging(w http.ResponseWriter, r *http.Request) {
	rj, err := s.rejudging(r.Context(), r.PathValue("id"))
	if err != nil {
		writeError(w, err)
		return
	}
	v, err := s.rejudgingView(r.Context(), rj)
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, v)
}

func (s *Server) handleRejudgingClose(w http.ResponseWriter, r *http.Request) {
	id, by := r.PathValue("id"), userFrom(r.Context()).Name
	var rj *Rejudging
	var err error
	switch r.PathValue("action") {
	case "apply":
		rj, err = s.applyRejudging(r.Context(), id, by)
	case "cancel":
		rj, err = s.cancelRejudging(r.Context(), id, by)
	default:
		err = errorf(http.StatusNotFound, "no such endpoint: %s %s (apply or cancel)", r.Method, r.URL.Path)
	}
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, rj)
}

// rejudgingFilterOf reads the pages' form into a request; a verdict of
// no name is a 400.
func rejudgingFilterOf(get func(string) string) (*RejudgingRequest, error) {
	req := &RejudgingRequest{Reason: strings.TrimSpace(get("reason")), Problem: get("problem"), User: get("user"),
		Team: get("team"), Language: get("language")}
	if err := req.Verdict.UnmarshalText([]byte(get("verdict"))); err != nil {
		return nil, errorf(http.StatusBadRequest, "verdict: %v", err)
	}
	if id := get("submission"); id != "" {
		req.Submissions = []string{id}
	}
	for _, t := range []struct {
		text string
		to   *string
	}{{get("from"), &req.From}, {get("to"), &req.To}} {
		if v, err := time.Parse("2006-01-02T15:04", t.text); err == nil {
			*t.to = v.UTC().Format(time.RFC3339)
		}
	}
	return req, nil
}
