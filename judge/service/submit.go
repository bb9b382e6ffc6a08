package service

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/optjudge/optjudge/judge/lang"
	"github.com/optjudge/optjudge/verdict"
)

// SubmitRequest is the body of POST /api/v1/submissions.
type SubmitRequest struct {
	Problem  string `json:"problem"`
	Filename string `json:"filename"`
	Source   string `json:"source"`
	Language string `json:"language,omitempty"`

	// The jury's, through the Contest API (contest_submit.go): the
	// submission made for another user, at another time, with an id of
	// its own; zero: the caller, now, a new id.
	For string    `json:"-"`
	At  time.Time `json:"-"`
	ID  string    `json:"-"`
}

// Accepted is the answer to a submission.
type Accepted struct {
	ID    string `json:"id"`
	State string `json:"state"`
}

func (s *Server) handleSubmit(w http.ResponseWriter, r *http.Request) {
	req, err := s.readSubmission(w, r)
	if err != nil {
		writeError(w, err)
		return
	}
	sub, err := s.submit(r.Context(), userFrom(r.Context()), req, r.Header.Get("Idempotency-Key"))
	if err != nil {
		writeError(w, err)
		return
	}
	w.Header().Set("Location", "/api/v1/submissions/"+sub.ID)
	writeJSON(w, http.StatusAccepted, Accepted{ID: sub.ID, State: sub.State})
}

// readSubmission reads a JSON body or a multipart form (problem,
// language, file) and checks its fields.
func (s *Server) readSubmission(w http.ResponseWriter, r *http.Request) (*SubmitRequest, error) {
	// room for JSON's escapes, which may double a source
	r.Body = http.MaxBytesReader(w, r.Body, 2*int64(s.cfg.MaxSource)+64<<10)
	ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	var req SubmitRequest
	switch ct {
	case "multipart/form-data":
		if err := s.readForm(r, &req); err != nil {
			return nil, err
		}
	case "application/json", "":
		if err := decodeJSON(r.Body, &req); err != nil {
			return nil, err
		}
	default:
		return nil, errorf(http.StatusUnsupportedMediaType, "Content-Type %s: send application/json or multipart/form-data", ct)
	}
	if err := s.checkRequest(&req); err != nil {
		return nil, err
	}
	return &req, nil
}

// checkRequest checks a submission's fields, before the problem and the
// language are looked up.
func (s *Server) checkRequest(req *SubmitRequest) error {
	if len(req.Source) > int(s.cfg.MaxSource) {
		return errorf(http.StatusRequestEntityTooLarge, "source: %d bytes, over the limit of %d", len(req.Source), s.cfg.MaxSource)
	}
	switch {
	case req.Problem == "":
		return errorf(http.StatusBadRequest, "problem: required")
	case !problemRE.MatchString(req.Problem):
		return errorf(http.StatusNotFound, "unknown problem %q", req.Problem)
	case req.Filename == "":
		return errorf(http.StatusBadRequest, "filename: required (it chooses the language, e.g. sol.cpp)")
	case !filenameRE.MatchString(req.Filename):
		return errorf(http.StatusBadRequest, "filename %q: want a plain file name of letters, digits and ._+- (no directories)", req.Filename)
	case req.Source == "":
		return errorf(http.StatusBadRequest, "source: required, and not empty")
	}
	return nil
}

func (s *Server) readForm(r *http.Request, req *SubmitRequest) error {
	if err := r.ParseMultipartForm(int64(s.cfg.MaxSource) + 64<<10); err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return err
		}
		return errorf(http.StatusBadRequest, "bad multipart form: %v", err)
	}
	defer r.MultipartForm.RemoveAll()
	req.Problem, req.Language = r.FormValue("problem"), r.FormValue("language")
	f, h, err := r.FormFile("file")
	if err != nil {
		if src := r.FormValue("source"); src != "" {
			req.Source, req.Filename = src, r.FormValue("filename")
			return nil
		}
		return errorf(http.StatusBadRequest, "file: required (or source and filename)")
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, int64(s.cfg.MaxSource)+1))
	if err != nil {
		return errorf(http.StatusBadRequest, "file: %v", err)
	}
	req.Source, req.Filename = string(b), h.Filename
	if fn := r.FormValue("filename"); fn != "" {
		req.Filename = fn
	}
	return nil
}

// submit stores the source and the submission, then queues its first
// grading. A retry with the same Idempotency-Key returns the submission
// the first try made (its job deduplicated by JetStream).
func (s *Server) submit(ctx context.Context, u *User, req *SubmitRequest, idemKey string) (*Submission, error) {
	p, err := s.cfg.Library.Current(ctx, req.Problem)
	if err != nil {
		return nil, err
	}
	if p == nil {
		return nil, errorf(http.StatusNotFound, "unknown problem %q", req.Problem)
	}
	if err := s.contestTakes(ctx, u, p.Name); err != nil {
		return nil, err
	}
	l, err := s.cfg.Languages.Detect(req.Filename, []byte(req.Source))
	if req.Language != "" {
		l, err = s.cfg.Languages.ByName(req.Language)
	}
	if ule := (*lang.UnknownError)(nil); errors.As(err, &ule) {
		return nil, errorf(http.StatusBadRequest, "%v; say language", err)
	}
	if err != nil {
		return nil, errorf(http.StatusBadRequest, "%v", err)
	}
	if err := s.languageRuns(ctx, l.Name); err != nil {
		return nil, err
	}
	if langs := p.Package.Submit.Languages; langs != nil && !p.Package.Submit.AllowsLanguage(l.KattisCode()) {
		return nil, errorf(http.StatusBadRequest, "language %s: not a language of problem %s (%s)", l.Name, p.Name, strings.Join(langs, ", "))
	}
	if lim := p.Package.Submit.CodeLimit; lim > 0 && len(req.Source) > int(lim) {
		return nil, errorf(http.StatusRequestEntityTooLarge, "source: %d bytes, over problem %s's code limit of %s", len(req.Source), p.Name, lim)
	}
	sum := sha256.Sum256([]byte(req.Source))
	hash := hex.EncodeToString(sum[:])
	if _, err := s.cfg.Store.Sources.GetInfo(ctx, hash); errors.Is(err, jetstream.ErrObjectNotFound) {
		if _, err := s.cfg.Store.Sources.PutBytes(ctx, hash, []byte(req.Source)); err != nil {
			return nil, fmt.Errorf("storing the source: %w", err)
		}
	} else if err != nil {
		return nil, err
	}
	now := s.now().UTC()
	sub := &Submission{
		ID: newID(u.Name, idemKey), Problem: p.Name, ProblemHash: p.Hash, User: u.Name, Language: l.Name,
		Filename: req.Filename, Source: hash, Size: len(req.Source), CreatedAt: now,
		Request: 1, QueuedAt: now, State: StateQueued, Judgings: []JudgingRef{},
	}
	if u.Admin() {
		if req.For != "" {
			sub.User = req.For
		}
		if !req.At.IsZero() {
			sub.CreatedAt = req.At.UTC()
		}
		if req.ID != "" {
			sub.ID = req.ID
		}
	}
	err = s.life.accept(ctx, sub)
	if errors.Is(err, jetstream.ErrKeyExists) && idemKey != "" {
		return s.resubmitted(ctx, sub)
	}
	if err != nil {
		return nil, err
	}
	return sub, nil
}

// resubmitted answers a retried POST: the submission made before, whose
// first message is published again if the first try stopped between
// storing the submission and publishing it (lifecycle.resume).
func (s *Server) resubmitted(ctx context.Context, want *Submission) (*Submission, error) {
	sub, err := s.cfg.Store.Submission(ctx, want.ID)
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		// withdrawn in between: a try of its own
		return s.submitNew(ctx, want)
	}
	if err != nil {
		return nil, err
	}
	if sub.Problem != want.Problem || sub.Source != want.Source || sub.Language != want.Language || sub.Filename != want.Filename {
		return nil, errorf(http.StatusConflict, "Idempotency-Key already used for another submission (%s)", sub.ID)
	}
	if sub.State != StateQueued || sub.Request != 1 || len(sub.Judgings) > 0 {
		return sub, nil
	}
	if err := s.life.resume(ctx, sub); err != nil {
		return nil, err
	}
	return sub, nil
}

// submitNew stores sub afresh after its earlier record went.
func (s *Server) submitNew(ctx context.Context, sub *Submission) (*Submission, error) {
	if err := s.life.accept(ctx, sub); err != nil {
		if errors.Is(err, jetstream.ErrKeyExists) {
			return nil, errorf(http.StatusConflict, "submission %s is being made by another request with this Idempotency-Key: try again", sub.ID)
		}
		return nil, err
	}
	return sub, nil
}

// newID is a submission's id: 20 hex digits, time-ordered; with an
// Idempotency-Key, derived from the user and the key instead.
func newID(user, idemKey string) string {
	if idemKey != "" {
		h := sha256.Sum256([]byte(user + "\x00" + idemKey))
		return hex.EncodeToString(h[:10])
	}
	var b [4]byte
	rand.Read(b[:])
	return fmt.Sprintf("%012x%s", time.Now().UnixMilli(), hex.EncodeToString(b[:]))
}

// SubmissionView is a submission as the API shows it.
type SubmissionView struct {
	ID        string          `json:"id"`
	Problem   string          `json:"problem"`
	User      string          `json:"user"`
	Language  string          `json:"language"`
	Filename  string          `json:"filename"`
	CreatedAt time.Time       `json:"created_at"`
	State     string          `json:"state"`
	Verdict   verdict.Verdict `json:"verdict,omitempty"`
	// Score is a scoring problem's score of the latest judging (MaxScore
	// its best, when bounded).
	Score    *float64 `json:"score,omitempty"`
	MaxScore *float64 `json:"max_score,omitempty"`
	Worker   string   `json:"worker,omitempty"`
	Report   any      `json:"report,omitempty"`
	// Failure is the latest judging's first failing test, when the
	// checker rejected its output.
	Failure  *FailureView `json:"failure,omitempty"`
	Judgings []JudgingRef `json:"judgings"`
}

// viewOf is sub as an admin sees it (see sight.submission).
func viewOf(sub *Submission) SubmissionView {
	v := SubmissionView{ID: sub.ID, Problem: sub.Problem, User: sub.User, Language: sub.Language,
		Filename: sub.Filename, CreatedAt: sub.CreatedAt, State: sub.State, Worker: sub.Worker, Judgings: sub.Judgings}
	if len(sub.Judgings) > 0 {
		last := sub.Judgings[len(sub.Judgings)-1]
		v.Verdict, v.Score, v.MaxScore = last.Verdict, last.Score, last.MaxScore
	}
	if v.Judgings == nil {
		v.Judgings = []JudgingRef{}
	}
	return v
}

// lookup finds a submission the user may see: others' are 404 to a
// contestant, as if they did not exist.
func (s *Server) lookup(ctx context.Context, u *User, id string) (*Submission, error) {
	if !subIDRE.MatchString(id) {
		return nil, errorf(http.StatusNotFound, "no submission %q", id)
	}
	sub, err := s.cfg.Store.Submission(ctx, id)
	if errors.Is(err, jetstream.ErrKeyNotFound) || (err == nil && !u.Admin() && sub.User != u.Name) {
		return nil, errorf(http.StatusNotFound, "no submission %q", id)
	}
	return sub, err
}

func (s *Server) handleSubmission(w http.ResponseWriter, r *http.Request) {
	sub, err := s.lookup(r.Context(), userFrom(r.Context()), r.PathValue("id"))
	if err != nil {
		writeError(w, err)
		return
	}
	v, err := s.fullView(r.Context(), userFrom(r.Context()), sub)
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, v)
}

// fullView is sub with its latest judging's report and failure, as u may
// see them (see sight).
func (s *Server) fullView(ctx context.Context, u *User, sub *Submission) (SubmissionView, error) {
	see := s.sightOf(u)
	v := see.submission(sub)
	n := len(sub.Judgings)
	if n == 0 {
		return v, nil
	}
	st := s.cfg.Store
	j, err := st.Judging(ctx, sub.ID, sub.Judgings[n-1].Request)
	if err != nil {
		return v, fmt.Errorf("judging %s: %w", judgingKey(sub.ID, sub.Judgings[n-1].Request), err)
	}
	raw, err := st.Report(ctx, j)
	if err != nil {
		return v, err
	}
	if raw, err = see.report(raw, j.Samples); err != nil {
		return v, fmt.Errorf("report %s: %w", j.Report, err)
	}
	v.Report = raw
	f, err := st.Failure(ctx, j)
	if err != nil {
		return v, err
	}
	if f != nil {
		v.Failure, _ = see.failure(f, sub.ID)
	}
	return v, nil
}

func (s *Server) handleList(w http.ResponseWriter, r *http.Request) {
	u := userFrom(r.Context())
	q := r.URL.Query()
	f := filter{Problem: q.Get("problem"), User: q.Get("user"), State: q.Get("state"), Limit: 100}
	if l := q.Get("limit"); l != "" {
		n, err := strconv.Atoi(l)
		if err != nil || n < 1 || n > 1000 {
			writeError(w, errorf(http.StatusBadRequest, "limit %q: want a number from 1 to 1000", l))
			return
		}
		f.Limit = n
	}
	switch f.State {
	case "", StateQueued, StateRunning, StateDone:
	default:
		writeError(w, errorf(http.StatusBadRequest, "state %q: want queued, running or done", f.State))
		return
	}
	if err := s.view.check(); err != nil {
		writeError(w, err)
		return
	}
	if !u.Admin() {
		if f.User != "" && f.User != u.Name {
			writeJSON(w, http.StatusOK, map[string]any{"submissions": []SubmissionView{}})
			return
		}
		f.User = u.Name
	}
	subs := s.view.list(f)
	out := make([]SubmissionView, len(subs))
	see := s.sightOf(u)
	for i := range subs {
		out[i] = see.submission(&subs[i])
	}
	writeJSON(w, http.StatusOK, map[string]any{"submissions": out})
}
