package service

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"mime"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/optjudge/optjudge/judge/service/store"
	"github.com/optjudge/optjudge/problems"
	"github.com/optjudge/optjudge/problems/kattis"
)

// ProblemSummary is a problem in GET /api/v1/problems. Label, RGB and
// Color are its entry's in the contest's problems.yaml, when it has one.
type ProblemSummary struct {
	Name     string       `json:"name"`
	Title    string       `json:"title"`
	Hash     string       `json:"hash"`
	Uploaded bool         `json:"uploaded"`
	Limits   ProblemLimit `json:"limits"`
	Label    string       `json:"label,omitempty"`
	RGB      string       `json:"rgb,omitempty"`
	Color    string       `json:"color,omitempty"`
}

// ProblemLimit are a problem's limits in the report's units; CodeKiB is
// limits.code, 0 when the problem sets none (the server's --max-source
// holds).
type ProblemLimit struct {
	TimeMS    int64 `json:"time_ms"`
	MemoryKiB int64 `json:"memory_kib"`
	OutputKiB int64 `json:"output_kib"`
	CodeKiB   int64 `json:"code_kib,omitempty"`
}

// ProblemDetail is GET /api/v1/problems/NAME: what a contestant may see,
// never the secret tests or any answer but the samples'. Statement is
// the text of the statement in StatementLanguage (chosen by ?lang= or
// Accept-Language), in StatementFormat: md (Markdown) or tex (LaTeX
// source); "" when the problem has neither (a PDF alone, or nothing).
type ProblemDetail struct {
	ProblemSummary
	Sources           []string        `json:"sources"`
	Statement         string          `json:"statement"`
	StatementFormat   string          `json:"statement_format"`
	StatementLanguage string          `json:"statement_language"`
	Statements        []StatementLink `json:"statements"`
	Samples           []Sample        `json:"samples"`
	Attachments       []FileLink      `json:"attachments"`
	Languages         []string        `json:"languages"`
}

// StatementLink is one statement file of a problem.
type StatementLink struct {
	Language string `json:"language"`
	Format   string `json:"format"` // md, tex or pdf
	URL      string `json:"url"`
}

// Sample is a sample test, or a sample interaction: its transcript, each
// line starting with > (the program wrote it) or < (the program read it).
type Sample struct {
	Name        string `json:"name"`
	Input       string `json:"input"`
	Answer      string `json:"answer"`
	Interaction string `json:"interaction,omitempty"`
}

func (s *Server) handleProblems(w http.ResponseWriter, r *http.Request) {
	set, err := s.problemSet(r.Context())
	if err != nil {
		writeError(w, err)
		return
	}
	out := map[string]any{"problems": set}
	if c := s.contestView(); c != nil {
		out["contest"] = c
	}
	writeJSON(w, http.StatusOK, out)
}

// problemNamed is the current version of a problem, 404 when there is
// none.
func (s *Server) problemNamed(ctx context.Context, name string) (*Problem, error) {
	var p *Problem
	var err error
	if problemRE.MatchString(name) {
		if err = s.problemHidden(ctx, name); err != nil {
			return nil, err
		}
		p, err = s.cfg.Library.Current(ctx, name)
	}
	if err == nil && p == nil {
		err = errorf(http.StatusNotFound, "unknown problem %q", name)
	}
	return p, err
}

func (s *Server) handleProblem(w http.ResponseWriter, r *http.Request) {
	u := userFrom(r.Context())
	p, err := s.problemNamed(r.Context(), r.PathValue("name"))
	if err != nil {
		writeError(w, err)
		return
	}
	d := ProblemDetail{ProblemSummary: s.summaryOf(p), Sources: p.Sources, Statements: []StatementLink{}, Languages: []string{}}
	if d.Sources == nil {
		d.Sources = []string{}
	}
	for _, l := range s.languagesOf(p) {
		d.Languages = append(d.Languages, l.Name)
	}
	for _, f := range p.Statements() {
		d.Statements = append(d.Statements, StatementLink{Language: f.Lang, Format: f.Format, URL: problemFileURL(true, p.Name, f.Path)})
	}
	st := chooseStatement(p, r.URL.Query().Get("lang"), r.Header.Get("Accept-Language"))
	d.StatementLanguage = st.Lang
	if st.Text != nil {
		b, err := p.ReadStatement(*st.Text)
		if err != nil {
			writeError(w, err)
			return
		}
		d.Statement, d.StatementFormat = string(b), st.Text.Format
	}
	if d.Samples, err = samplesOf(p); err != nil {
		writeError(w, err)
		return
	}
	d.Attachments = s.attachmentsOf(u, p, true)
	writeJSON(w, http.StatusOK, d)
}

// samplesOf lists p's samples whole: a package's as its statement shows
// them (.in.statement, .ans.statement, .interaction), a native problem's
// sample tests.
func samplesOf(p *Problem) ([]Sample, error) {
	out := []Sample{}
	if p.Package.Layout == kattis.LayoutKattis {
		for _, sm := range p.Package.Samples() {
			var b [3][]byte
			for i, f := range []string{sm.Input, sm.Output, sm.Interaction} {
				if f == "" {
					continue
				}
				var err error
				if b[i], err = fs.ReadFile(p.Package.FS, f); err != nil {
					return nil, err
				}
			}
			out = append(out, Sample{Name: sm.Name, Input: string(b[0]), Answer: string(b[1]), Interaction: string(b[2])})
		}
		return out, nil
	}
	tests, err := p.Package.Tests()
	if err != nil {
		return nil, err
	}
	for _, t := range tests {
		if t.Group != "sample" {
			continue
		}
		in, err1 := t.Input()
		ans, err2 := t.Answer()
		if err := errors.Join(err1, err2); err != nil {
			return nil, err
		}
		out = append(out, Sample{Name: t.Name, Input: string(in), Answer: string(ans)})
	}
	return out, nil
}

// handleProblemFile downloads a statement, a picture of one, an
// attachment or a sample's file.
func (s *Server) handleProblemFile(w http.ResponseWriter, r *http.Request) {
	p, f, st, err := s.problemFile(r.Context(), userFrom(r.Context()), r.PathValue("name"), r.PathValue("path"))
	if err != nil {
		writeError(w, err)
		return
	}
	serveProblemFile(w, r, p, r.PathValue("path"), f, st)
}

// uploadTypes are the Content-Types an upload may have. None of them is
// one a browser's form or a script's plain request of another site may
// send without asking first (a CORS preflight this server never answers).
var uploadTypes = []string{"application/zip", "application/x-zip-compressed", "application/gzip", "application/x-gzip",
	"application/x-tar+gzip", "application/octet-stream"}

// handleUpload takes a problem package (.zip or .tar.gz of the problem
// directory) as the body, unpacks it with the archive guards, loads and
// verifies it, and stores it by content hash.
func (s *Server) handleUpload(w http.ResponseWriter, r *http.Request) {
	if ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); !slices.Contains(uploadTypes, ct) {
		writeError(w, errorf(http.StatusUnsupportedMediaType, "Content-Type %q: send the package as application/zip or application/gzip (or application/octet-stream)", ct))
		return
	}
	ctx, cancel := s.uploadDeadline(w, r)
	defer cancel()
	r.Body = http.MaxBytesReader(w, r.Body, int64(s.cfg.MaxPackage))
	data, err := io.ReadAll(r.Body)
	if err != nil {
		writeError(w, err)
		return
	}
	up, err := s.upload(ctx, data, userFrom(ctx).Name)
	if err != nil {
		writeError(w, err)
		return
	}
	w.Header().Set("Location", "/api/v1/problems/"+up.Name)
	writeJSON(w, http.StatusCreated, up)
}

// uploadDeadline gives an upload, the API's or the page's, longer than
// the server's timeouts allow a request: a large package over a slow
// link, then its verification, UploadTimeout in all.
func (s *Server) uploadDeadline(w http.ResponseWriter, r *http.Request) (context.Context, context.CancelFunc) {
	deadline := time.Now().Add(s.cfg.UploadTimeout)
	rc := http.NewResponseController(w)
	rc.SetReadDeadline(deadline)
	rc.SetWriteDeadline(deadline.Add(10 * time.Second)) // room for the answer
	return context.WithDeadline(r.Context(), deadline)
}

func (s *Server) upload(ctx context.Context, data []byte, by string) (*UploadedProblem, error) {
	tmp, err := os.MkdirTemp(s.cfg.Library.cache, "upload-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	dir, err := Unpack(data, tmp, DefaultUnpackLimits)
	if errors.Is(err, errNotArchive) {
		return nil, errorf(http.StatusBadRequest, "package: %v", err)
	}
	if err != nil { // the package's own fault, as one that does not load
		return nil, errorf(http.StatusUnprocessableEntity, "package: %v", err)
	}
	pp, err := problems.LoadDir(filepath.Join(tmp, dir))
	if err != nil {
		return nil, errorf(http.StatusUnprocessableEntity, "package: %v", trimDir(err, tmp))
	}
	h := pp.Hash()
	p := &Problem{Problem: pp, Hash: h, Uploaded: true}
	if s.cfg.Verify != nil {
		if err := s.cfg.Verify(ctx, p); err != nil && ctx.Err() == nil {
			return nil, errorf(http.StatusUnprocessableEntity, "package %s does not verify: %v", pp.Name, trimDir(err, tmp))
		}
	}
	// nothing is stored for a client that will not hear of it: it went
	// away, or the upload took too long
	if err := ctx.Err(); err != nil {
		s.log.Printf("upload of %s by %s dropped: %v", pp.Name, by, err)
		return nil, errorf(http.StatusServiceUnavailable, "package %s not stored: the upload took longer than %v", pp.Name, s.cfg.UploadTimeout)
	}
	if _, err := s.cfg.Store.Packages.PutBytes(ctx, h, data); err != nil {
		return nil, fmt.Errorf("storing the package: %w", err)
	}
	up := &UploadedProblem{Name: pp.Name, Hash: h, Title: pp.Title, Size: int64(len(data)), By: by, UploadedAt: time.Now().UTC()}
	if err := store.PutJSON(ctx, s.cfg.Store.Problems, pp.Name, up); err != nil {
		return nil, err
	}
	return up, nil
}

// trimDir takes the temporary directory out of a message.
func trimDir(err error, dir string) string {
	msg := err.Error()
	for _, d := range []string{dir + string(filepath.Separator), dir} {
		msg = strings.ReplaceAll(msg, d, "")
	}
	return msg
}
