package service

import (
	"archive/zip"
	"bytes"
	"encoding/base64"
	"errors"
	"io"
	"net/http"
	"path"
	"strings"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/optjudge/optjudge/judge/contest"
)

// Submissions through the Contest API, as the spec's team_submit and
// admin_submit capabilities have them:
//
//	POST contests/ID/submissions       a team's (team_id its own or absent;
//	                                   no id, time or contest_time), or the
//	                                   jury's for a team (team_id and time
//	                                   required, no id)
//	PUT  contests/ID/submissions/SID   the jury's, with the id it chose
//
// The body is the submission as GET shows it: language_id, problem_id,
// entry_point where the language asks for one, and files, one object
// whose data is a zip (base64) of the one source file the judge grades.
// A team's submission is checked as the web upload's is (the contest
// running, the problem one of its problems, the language offered, the
// source within the limits); every refusal is a 4xx {"code", "message"}.
// The answer, 201 with a Location, is the submission as its team sees it.

// clicsSubmission is the body of a POST or PUT of a submission.
type clicsSubmission struct {
	ID          *string `json:"id"`
	LanguageID  string  `json:"language_id"`
	ProblemID   string  `json:"problem_id"`
	TeamID      *string `json:"team_id"`
	Time        *string `json:"time"`
	ContestTime *string `json:"contest_time"`
	EntryPoint  *string `json:"entry_point"`
	Files       []struct {
		Data     string `json:"data"`
		Mime     string `json:"mime"`
		Href     string `json:"href"`
		Filename string `json:"filename"`
	} `json:"files"`
	Reaction any `json:"reaction"` // taken and not honoured, as the spec allows
}

func (s *Server) handleSubmissionPost(w http.ResponseWriter, r *http.Request, u *User) {
	s.clicsSubmit(w, r, u, "")
}

func (s *Server) handleSubmissionPut(w http.ResponseWriter, r *http.Request, u *User) {
	s.clicsSubmit(w, r, u, r.PathValue("id"))
}

// clicsSubmit takes a submission; id is the URL's of a PUT ("" for a POST).
func (s *Server) clicsSubmit(w http.ResponseWriter, r *http.Request, u *User, id string) {
	l := s.contest
	if u == nil {
		w.Header().Set("WWW-Authenticate", `Basic realm="judge"`)
		writeCLICSError(w, errorf(http.StatusUnauthorized, "log in to submit (a team's account, or the jury's)"))
		return
	}
	var body clicsSubmission
	// base64 of a zip: room for both over the source
	r.Body = http.MaxBytesReader(w, r.Body, 2*int64(s.cfg.MaxSource)+64<<10)
	if err := decodeJSON(r.Body, &body); err != nil {
		writeCLICSError(w, err)
		return
	}
	req, err := l.submitRequest(u, &body, id)
	if err != nil {
		writeCLICSError(w, err)
		return
	}
	if err := s.checkRequest(req); err != nil {
		writeCLICSError(w, err)
		return
	}
	sub, err := s.submit(r.Context(), u, req, "")
	if errors.Is(err, jetstream.ErrKeyExists) {
		err = errorf(http.StatusConflict, "id: submission %q exists", req.ID)
	}
	if err != nil {
		writeCLICSError(w, err)
		return
	}
	w.Header().Set("Location", "/api/contests/"+l.c.ID+"/submissions/"+sub.ID)
	writeJSON(w, http.StatusCreated, l.submissionJSON(sub, l.c.TeamOf(sub.User), true))
}

// submitRequest checks a submission's body as u may send it and reads
// its source.
func (l *contestLayer) submitRequest(u *User, b *clicsSubmission, putID string) (*SubmitRequest, error) {
	team := l.teamOf(u)
	req := &SubmitRequest{Problem: b.ProblemID, Language: b.LanguageID}
	switch {
	case u.Admin():
		if err := l.juryFields(b, putID, req); err != nil {
			return nil, err
		}
		team = *b.TeamID
	case team == "":
		return nil, errorf(http.StatusForbidden, "%s is not a team of the contest", u.Name)
	case putID != "":
		return nil, errorf(http.StatusForbidden, "a team submits with POST (the server chooses the id)")
	case b.ID != nil || b.Time != nil || b.ContestTime != nil:
		return nil, errorf(http.StatusBadRequest, "id, time, contest_time: the server sets them for a team's submission")
	case b.TeamID != nil && *b.TeamID != team:
		return nil, errorf(http.StatusForbidden, "team_id: you submit for team %s, not %q", team, *b.TeamID)
	}
	switch {
	case b.ProblemID == "":
		return nil, errorf(http.StatusBadRequest, "problem_id: required")
	case l.c.Problem(b.ProblemID) == nil:
		return nil, errorf(http.StatusBadRequest, "problem_id: no problem %q in the contest", b.ProblemID)
	case b.LanguageID == "":
		return nil, errorf(http.StatusBadRequest, "language_id: required")
	}
	offered := false
	for _, lang := range l.languages() {
		offered = offered || lang["id"] == b.LanguageID
	}
	if !offered {
		return nil, errorf(http.StatusBadRequest, "language_id: no language %q offered (see contests/%s/languages)", b.LanguageID, l.c.ID)
	}
	if _, ok := entryPoint[b.LanguageID]; ok && (b.EntryPoint == nil || *b.EntryPoint == "") {
		return nil, errorf(http.StatusBadRequest, "entry_point: required for %s (%s)", b.LanguageID, entryPoint[b.LanguageID])
	}
	if _, ok := entryPoint[b.LanguageID]; !ok && b.EntryPoint != nil {
		return nil, errorf(http.StatusBadRequest, "entry_point: %s takes none", b.LanguageID)
	}
	name, src, err := oneFile(b)
	if err != nil {
		return nil, err
	}
	if ep := b.EntryPoint; ep != nil && *ep != name && *ep != strings.TrimSuffix(name, path.Ext(name)) {
		return nil, errorf(http.StatusBadRequest, "entry_point %q: not the file's (%s)", *ep, name)
	}
	req.Filename, req.Source = name, string(src)
	if u.Admin() {
		req.For = l.userOf(team)
	}
	return req, nil
}

// juryFields checks what the jury gives of a submission: the team it
// submits for and when; an id only with PUT.
func (l *contestLayer) juryFields(b *clicsSubmission, putID string, req *SubmitRequest) error {
	switch {
	case putID == "" && b.ID != nil:
		return errorf(http.StatusBadRequest, "id: not with POST (the server chooses it); PUT contests/%s/submissions/ID chooses it", l.c.ID)
	case putID != "" && (b.ID == nil || *b.ID != putID):
		return errorf(http.StatusConflict, "id: want the URL's, %q", putID)
	case putID != "" && !subIDRE.MatchString(putID):
		return errorf(http.StatusBadRequest, "id %q: want at most 36 letters, digits, '_' or '-'", putID)
	case b.TeamID == nil:
		return errorf(http.StatusBadRequest, "team_id: required when the jury submits")
	case l.c.Team(*b.TeamID) == nil:
		return errorf(http.StatusBadRequest, "team_id: no team %q in the contest", *b.TeamID)
	case b.Time == nil:
		return errorf(http.StatusBadRequest, "time: required when the jury submits")
	case b.ContestTime != nil:
		return errorf(http.StatusBadRequest, "contest_time: not taken, time says when")
	}
	at, err := contest.ParseTime(*b.Time)
	if err != nil {
		return errorf(http.StatusBadRequest, "time: %v", err)
	}
	if at.Before(l.c.Start) || !at.Before(l.c.End()) {
		return errorf(http.StatusBadRequest, "time: %s is not in the contest (%s to %s)", *b.Time,
			contest.FormatTime(l.c.Start), contest.FormatTime(l.c.End()))
	}
	req.At, req.ID = at, putID
	return nil
}

// userOf is the user who submits for team: its account, else the team
// itself (a contest whose teams come from the tokens file).
func (l *contestLayer) userOf(team string) string {
	for _, a := range l.c.Accounts {
		if a.Type == contest.AccountTeam && a.TeamID != nil && *a.TeamID == team {
			return a.Username
		}
	}
	return team
}

// oneFile reads the source out of a submission's files: one zip holding
// one file at its root.
func oneFile(b *clicsSubmission) (string, []byte, error) {
	if len(b.Files) != 1 {
		return "", nil, errorf(http.StatusBadRequest, "files: want one file reference holding a zip, got %d", len(b.Files))
	}
	f := b.Files[0]
	switch {
	case f.Mime != "" && f.Mime != "application/zip":
		return "", nil, errorf(http.StatusBadRequest, "files: mime %q: want application/zip", f.Mime)
	case f.Data == "":
		return "", nil, errorf(http.StatusBadRequest, "files: data (the zip, base64) required; this judge fetches no href")
	}
	raw, err := base64.StdEncoding.DecodeString(f.Data)
	if err != nil {
		return "", nil, errorf(http.StatusBadRequest, "files: data: not base64: %v", err)
	}
	zr, err := zip.NewReader(bytes.NewReader(raw), int64(len(raw)))
	if err != nil {
		return "", nil, errorf(http.StatusBadRequest, "files: data: not a zip: %v", err)
	}
	var files []*zip.File
	for _, zf := range zr.File {
		if !zf.FileInfo().IsDir() {
			files = append(files, zf)
		}
	}
	if len(files) != 1 {
		return "", nil, errorf(http.StatusBadRequest, "files: the zip holds %d files; this judge grades one source file", len(files))
	}
	zf := files[0]
	if !filenameRE.MatchString(zf.Name) {
		return "", nil, errorf(http.StatusBadRequest, "files: %q: want a plain file name at the zip's root", zf.Name)
	}
	rc, err := zf.Open()
	if err != nil {
		return "", nil, errorf(http.StatusBadRequest, "files: %s: %v", zf.Name, err)
	}
	defer rc.Close()
	// the server's MaxSource bounds it again in submit; this bounds the
	// inflating of a zip bomb
	src, err := io.ReadAll(io.LimitReader(rc, 4<<20+1))
	if err != nil {
		return "", nil, errorf(http.StatusBadRequest, "files: %s: %v", zf.Name, err)
	}
	if len(src) > 4<<20 {
		return "", nil, errorf(http.StatusRequestEntityTooLarge, "files: %s: over 4 MiB", zf.Name)
	}
	return zf.Name, src, nil
}
