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

	"github.com/optjudge/optjudge/problems"
)

// ProblemSummary is a problem in GET /api/v1/problems.
type ProblemSummary struct {
	Name     string       `json:"name"`
	Title    string       `json:"title"`
	Hash     string       `json:"hash"`
	Uploaded bool         `json:"uploaded"`
	Limits   ProblemLimit `json:"limits"`
}

// ProblemLimit are a problem's limits in the report's units.
type ProblemLimit struct {
	TimeMS    int64 `json:"time_ms"`
	MemoryKiB int64 `json:"memory_kib"`
	OutputKiB int64 `json:"output_kib"`
}

// ProblemDetail is GET /api/v1/problems/NAME: what a contestant may see,
// never the secret tests or any answer but the samples'.
type ProblemDetail struct {
	ProblemSummary
	Sources   []string `json:"sources"`
	Statement string   `json:"statement"`
	Samples   []Sample `json:"samples"`
	Languages []string `json:"languages"`
}

// Sample is a sample test.
type Sample struct {
	Name   string `json:"name"`
	Input  string `json:"input"`
	Answer string `json:"answer"`
}

func summaryOf(p *Problem) ProblemSummary {
	return ProblemSummary{Name: p.Name, Title: p.Title, Hash: p.Hash, Uploaded: p.Uploaded, Limits: ProblemLimit{
		TimeMS: p.Limits.Time.Milliseconds(), MemoryKiB: p.Limits.Memory.KiB(), OutputKiB: p.Limits.Output.KiB()}}
}

func (s *Server) handleProblems(w http.ResponseWriter, r *http.Request) {
	names, err := s.cfg.Library.Names(r.Context())
	if err != nil {
		writeError(w, err)
		return
	}
	out := []ProblemSummary{}
	for _, n := range names {
		p, err := s.cfg.Library.Current(r.Context(), n)
		if err != nil {
			writeError(w, err)
			return
		}
		if p != nil {
			out = append(out, summaryOf(p))
		}
	}
	writeJSON(w, http.StatusOK, map[string]any{"problems": out})
}

func (s *Server) handleProblem(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("name")
	var p *Problem
	var err error
	if problemRE.MatchString(name) {
		p, err = s.cfg.Library.Current(r.Context(), name)
	}
	if err == nil && p == nil {
		err = errorf(http.StatusNotFound, "unknown problem %q", name)
	}
	if err != nil {
		writeError(w, err)
		return
	}
	d := ProblemDetail{ProblemSummary: summaryOf(p), Sources: p.Sources, Samples: []Sample{}}
	if d.Sources == nil {
		d.Sources = []string{}
	}
	for _, l := range s.cfg.Languages.List {
		d.Languages = append(d.Languages, l.Name)
	}
	if b, err := fs.ReadFile(p.FS, "statement.md"); err == nil {
		d.Statement = string(b)
	}
	tests, err := p.Tests()
	if err != nil {
		writeError(w, err)
		return
	}
	for _, t := range tests {
		if t.Group != "sample" {
			continue
		}
		in, err1 := t.Input()
		ans, err2 := t.Answer()
		if err := errors.Join(err1, err2); err != nil {
			writeError(w, err)
			return
		}
		d.Samples = append(d.Samples, Sample{Name: t.Name, Input: string(in), Answer: string(ans)})
	}
	writeJSON(w, http.StatusOK, d)
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
	ctx := r.Context()
	if ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); !slices.Contains(uploadTypes, ct) {
		writeError(w, errorf(http.StatusUnsupportedMediaType, "Content-Type %q: send the package as application/zip or application/gzip (or application/octet-stream)", ct))
		return
	}
	// an upload takes longer than the server's timeouts allow a request:
	// a large package over a slow link, then its verification
	deadline := time.Now().Add(s.cfg.UploadTimeout)
	rc := http.NewResponseController(w)
	rc.SetReadDeadline(deadline)
	rc.SetWriteDeadline(deadline.Add(10 * time.Second)) // room for the answer
	ctx, cancel := context.WithDeadline(ctx, deadline)
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

func (s *Server) upload(ctx context.Context, data []byte, by string) (*UploadedProblem, error) {
	tmp, err := os.MkdirTemp(s.cfg.Library.cache, "upload-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	dir, err := Unpack(data, tmp, DefaultUnpackLimits)
	if err != nil {
		return nil, errorf(http.StatusBadRequest, "package: %v", err)
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
	if _, err := s.cfg.Store.packages.PutBytes(ctx, h, data); err != nil {
		return nil, fmt.Errorf("storing the package: %w", err)
	}
	up := &UploadedProblem{Name: pp.Name, Hash: h, Title: pp.Title, Size: int64(len(data)), By: by, UploadedAt: time.Now().UTC()}
	if err := putJSON(ctx, s.cfg.Store.problems, pp.Name, up); err != nil {
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
