package service

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"html/template"
	"io"
	"mime"
	"net/http"
	"path"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/optjudge/optjudge/checkers/explain"
)

// submitData is the submit page's.
type submitData struct {
	Problems   []ProblemSummary
	Problem    string
	Languages  []languageOption
	Language   string
	Filename   string
	Source     string
	Key        string // the form's Idempotency-Key: sent twice, one submission
	Error      string
	Note       string
	MaxSource  int
	Extensions string // JSON: extension -> language, for the script's hint
	Statement  *statementData
}

func (submitData) title() string { return "Submit" }

type languageOption struct{ Name, Extensions string }

// statementData is a problem's statement and samples.
type statementData struct {
	Name, Title string
	Limits      ProblemLimit
	HTML        template.HTML
	Samples     []sampleData
}

type sampleData struct {
	Name, Input, Answer string
	Drawings            []drawingRef
}

type drawingRef struct{ URL, Alt string }

// maxSampleDrawings bounds the cases drawn per sample.
const maxSampleDrawings = 3

func (p *pages) handleSubmitForm(w http.ResponseWriter, r *http.Request, u *User) {
	d, err := p.submitForm(r.Context(), r.URL.Query().Get("problem"))
	if err != nil {
		p.fail(w, r, u, err)
		return
	}
	p.render(w, r, http.StatusOK, "submit", u, d)
}

// submitForm is a fresh form with problem chosen (the first if "").
func (p *pages) submitForm(ctx context.Context, problem string) (*submitData, error) {
	d := &submitData{MaxSource: int(p.s.cfg.MaxSource), Key: newKey()}
	names, err := p.s.cfg.Library.Names(ctx)
	if err != nil {
		return nil, err
	}
	for _, n := range names {
		pr, err := p.s.cfg.Library.Current(ctx, n)
		if err != nil {
			return nil, err
		}
		if pr != nil {
			d.Problems = append(d.Problems, summaryOf(pr))
		}
	}
	exts := map[string]string{}
	for _, l := range p.s.cfg.Languages.List {
		d.Languages = append(d.Languages, languageOption{Name: l.Name, Extensions: strings.Join(l.Extensions, " ")})
		for _, e := range l.Extensions {
			// an ending goes to the first language that has it, as the
			// judge picks it; an explicit language (pypy3) is chosen by name
			if _, ok := exts[e]; !ok && !l.Explicit {
				exts[e] = l.Name
			}
		}
	}
	d.Extensions = templateFuncs["json"].(func(any) string)(exts)
	d.Problem = problem
	if !p.known(d.Problems, problem) && len(d.Problems) > 0 {
		d.Problem = d.Problems[0].Name
	}
	if d.Problem != "" {
		if d.Statement, err = p.statement(ctx, d.Problem); err != nil {
			return nil, err
		}
	}
	return d, nil
}

func (p *pages) known(ps []ProblemSummary, name string) bool {
	for _, s := range ps {
		if s.Name == name {
			return true
		}
	}
	return false
}

func newKey() string {
	var b [12]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// submitted is a submit form as sent.
type submitted struct {
	fields   map[string]string
	file     []byte
	filename string
	fileSize int // the whole file's, though only MaxSource+1 bytes are kept
}

// readSubmitForm reads the multipart form part by part: a file over the
// limit is read no further than that, so that the form can say so with
// the other fields kept.
func (p *pages) readSubmitForm(w http.ResponseWriter, r *http.Request) (*submitted, error) {
	limit := int64(p.s.cfg.MaxSource)
	r.Body = http.MaxBytesReader(w, r.Body, max(8<<20, 4*limit))
	if ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); ct != "multipart/form-data" {
		return nil, errorf(http.StatusUnsupportedMediaType, "the form must be sent as multipart/form-data")
	}
	mr, err := r.MultipartReader()
	if err != nil {
		return nil, errorf(http.StatusBadRequest, "bad form: %v", err)
	}
	f := &submitted{fields: map[string]string{}}
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			return f, nil
		}
		if err != nil {
			return nil, formError(err)
		}
		b, err := io.ReadAll(io.LimitReader(part, limit+1))
		if err != nil {
			return nil, formError(err)
		}
		rest, err := io.Copy(io.Discard, part)
		if err != nil {
			return nil, formError(err)
		}
		if part.FormName() == "file" {
			f.file, f.filename, f.fileSize = b, part.FileName(), len(b)+int(rest)
		} else if part.FormName() != "" {
			f.fields[part.FormName()] = string(b)
		}
	}
}

func formError(err error) error {
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		return errorf(http.StatusRequestEntityTooLarge, "the form is larger than %d bytes: the file is far over the limit", mbe.Limit)
	}
	return errorf(http.StatusBadRequest, "bad form: %v", err)
}

func (p *pages) handleSubmitPost(w http.ResponseWriter, r *http.Request, u *User) {
	f, err := p.readSubmitForm(w, r)
	if err != nil {
		p.fail(w, r, u, err)
		return
	}
	if !hmac.Equal([]byte(f.fields["csrf"]), []byte(p.formToken(r))) {
		p.fail(w, r, u, errorf(http.StatusForbidden, "the form is out of date (or came from another site): reload the page and send it again"))
		return
	}
	req, note := p.request(f)
	err = p.s.checkRequest(req)
	if f.fileSize > int(p.s.cfg.MaxSource) {
		err = errorf(http.StatusRequestEntityTooLarge, "file %s: %d bytes, over the limit of %d", f.filename, f.fileSize, p.s.cfg.MaxSource)
	}
	var sub *Submission
	if err == nil {
		sub, err = p.s.submit(r.Context(), u, req, f.fields["key"])
	}
	if err == nil {
		http.Redirect(w, r, "/s/"+sub.ID, http.StatusSeeOther)
		return
	}
	var ae *apiError
	if !errors.As(err, &ae) {
		p.fail(w, r, u, err)
		return
	}
	d, ferr := p.submitForm(r.Context(), req.Problem)
	if ferr != nil {
		p.fail(w, r, u, ferr)
		return
	}
	d.Problem, d.Language, d.Filename, d.Error, d.Note = req.Problem, req.Language, req.Filename, ae.msg, note
	if len(req.Source) <= int(p.s.cfg.MaxSource) && utf8.ValidString(req.Source) {
		d.Source = req.Source
		if f.filename != "" && d.Source != "" {
			d.Note = "The file's text is in the box below: send it from there, or choose the file again."
		}
	}
	p.render(w, r, ae.status, "submit", u, d)
}

// request is the submission a form asks for: the file when one was
// chosen, else the pasted source, named by the file name field or, with a
// language chosen, after the language.
func (p *pages) request(f *submitted) (*SubmitRequest, string) {
	req := &SubmitRequest{Problem: f.fields["problem"], Language: f.fields["language"]}
	note := ""
	if f.filename != "" || f.fileSize > 0 {
		// a file over the limit is kept to MaxSource+1 bytes: still over it
		req.Source, req.Filename = string(f.file), plainName(path.Base(f.filename))
		if req.Filename != f.filename && f.filename != "" {
			note = fmt.Sprintf("The file %q is sent as %s.", f.filename, req.Filename)
		}
		return req, note
	}
	req.Source = f.fields["source"]
	req.Filename = plainName(strings.TrimSpace(f.fields["filename"]))
	if req.Filename == "" && req.Language != "" {
		if l, err := p.s.cfg.Languages.ByName(req.Language); err == nil && len(l.Extensions) > 0 {
			req.Filename = "submission" + l.Extensions[0]
		}
	}
	return req, note
}

// plainName makes a file name of a browser's (spaces, brackets, accents)
// one the API takes: other characters become '_'.
func plainName(name string) string {
	if name == "" || name == "." || name == "/" {
		return ""
	}
	b := []byte(name)
	for i, c := range b {
		ok := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '+' || c == '-'
		if !ok || (i == 0 && (c == '.' || c == '+' || c == '-')) {
			b[i] = '_'
		}
	}
	if len(b) > 100 {
		b = append(b[:90], b[len(b)-10:]...)
	}
	return string(b)
}

// statement is a problem's statement and samples for the submit page.
func (p *pages) statement(ctx context.Context, name string) (*statementData, error) {
	pr, err := p.s.cfg.Library.Current(ctx, name)
	if err != nil {
		return nil, err
	}
	if pr == nil {
		return nil, errorf(http.StatusNotFound, "unknown problem %q", name)
	}
	d := &statementData{Name: pr.Name, Title: pr.Title, Limits: summaryOf(pr).Limits, HTML: statementHTML(pr)}
	tests, err := pr.Tests()
	if err != nil {
		return nil, err
	}
	k := 0
	for _, t := range tests {
		if t.Group != "sample" {
			continue
		}
		in, err1 := t.Input()
		ans, err2 := t.Answer()
		if err := errors.Join(err1, err2); err != nil {
			return nil, err
		}
		sd := sampleData{Name: t.Name, Input: excerpt(in), Answer: excerpt(ans)}
		for c, e := range p.sampleCases(pr, k, in) {
			if c == maxSampleDrawings {
				break
			}
			sd.Drawings = append(sd.Drawings, drawingRef{URL: fmt.Sprintf("/problems/%s/samples/%d/%d", pr.Name, k, c+1), Alt: e.Description()})
		}
		d.Samples = append(d.Samples, sd)
		k++
	}
	return d, nil
}

// sampleCases explains the cases of a sample input (nil for problems
// whose checker draws nothing).
func (p *pages) sampleCases(pr *Problem, k int, in []byte) []*explain.Explanation {
	if pr.Problem == nil {
		return nil
	}
	return explain.Cases(pr.Puzzle, in)
}

// statementHTML is the statement: statement.md, or a Kattis package's
// problem_statement/problem[.en].md rendered; a LaTeX statement as text.
func statementHTML(pr *Problem) template.HTML {
	name, b, ok := pr.Statement() // the package's constants in place
	switch {
	case !ok:
		return template.HTML("<p>This problem has no statement.</p>")
	case path.Ext(name) == ".md":
		return markdown(string(b))
	}
	return template.HTML("<pre class=\"tex\">" + template.HTMLEscapeString(string(b)) + "</pre>")
}

func (p *pages) handleStatement(w http.ResponseWriter, r *http.Request, u *User) {
	name := r.PathValue("name")
	if !problemRE.MatchString(name) {
		p.fail(w, r, u, errorf(http.StatusNotFound, "unknown problem %q", name))
		return
	}
	st, err := p.statement(r.Context(), name)
	if err != nil {
		p.fail(w, r, u, err)
		return
	}
	var buf strings.Builder
	if err := p.templates["submit"].ExecuteTemplate(&buf, "statement", st); err != nil {
		p.fail(w, r, u, err)
		return
	}
	pageHeaders(w)
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	io.WriteString(w, buf.String())
}

// handleSampleDrawing draws case c of sample test k, cached by the
// problem's version.
func (p *pages) handleSampleDrawing(w http.ResponseWriter, r *http.Request, u *User) {
	name := r.PathValue("name")
	k, err1 := strconv.Atoi(r.PathValue("test"))
	c, err2 := strconv.Atoi(r.PathValue("case"))
	var pr *Problem
	var err error
	if problemRE.MatchString(name) && err1 == nil && err2 == nil && k >= 0 && c >= 1 && c <= maxSampleDrawings {
		pr, err = p.s.cfg.Library.Current(r.Context(), name)
	}
	if err != nil {
		writeError(w, err)
		return
	}
	if pr == nil {
		writeError(w, errorf(http.StatusNotFound, "no such drawing"))
		return
	}
	key := fmt.Sprintf("%s/%d/%d", pr.Hash, k, c)
	p.mu.Lock()
	svg, ok := p.samples[key]
	p.mu.Unlock()
	if !ok {
		svg = p.drawSample(pr, k, c)
		p.mu.Lock()
		if len(p.samples) > 1000 {
			clear(p.samples)
		}
		p.samples[key] = svg
		p.mu.Unlock()
	}
	if svg == "" {
		writeError(w, errorf(http.StatusNotFound, "no such drawing"))
		return
	}
	writeSVG(w, svg)
}

func (p *pages) drawSample(pr *Problem, k, c int) string {
	tests, err := pr.Tests()
	if err != nil {
		return ""
	}
	for _, t := range tests {
		if t.Group != "sample" {
			continue
		}
		if k > 0 {
			k--
			continue
		}
		in, err := t.Input()
		if err != nil {
			return ""
		}
		if es := p.sampleCases(pr, k, in); c <= len(es) {
			return es[c-1].SVG()
		}
		return ""
	}
	return ""
}
