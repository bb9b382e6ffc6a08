package service

import (
	"crypto/hmac"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"path"
	"strings"
	"unicode/utf8"
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
	Contest    *ContestView
	Listed     []ProblemSummary // the contest's problems, in its order
	Others     []ProblemSummary
}

func (submitData) title() string { return "Submit" }

// languageOption is a language of the form; Off when the problem
// chosen does not take it (hidden, and refused if sent).
type languageOption struct {
	Name, Extensions string
	Off              bool
}

func (p *pages) handleSubmitForm(w http.ResponseWriter, r *http.Request, u *User) {
	d, err := p.submitForm(r, u, r.URL.Query().Get("problem"))
	if err != nil {
		p.fail(w, r, u, err)
		return
	}
	p.render(w, r, http.StatusOK, "submit", u, d)
}

// submitForm is a fresh form with problem chosen (the first if ""),
// its languages those the problem takes.
func (p *pages) submitForm(r *http.Request, u *User, problem string) (*submitData, error) {
	ctx := r.Context()
	d := &submitData{MaxSource: int(p.s.cfg.MaxSource), Key: newKey()}
	var err error
	if d.Problems, err = p.s.problemSet(ctx); err != nil {
		return nil, err
	}
	d.Contest = p.s.contestView()
	d.Listed, d.Others = split(d.Problems)
	d.Problem = problem
	if !p.known(d.Problems, problem) && len(d.Problems) > 0 {
		d.Problem = d.Problems[0].Name
	}
	allowed := map[string]bool{}
	if d.Problem != "" {
		if d.Statement, err = p.statement(ctx, r, u, d.Problem); err != nil {
			return nil, err
		}
		for _, l := range d.Statement.Languages {
			allowed[l] = true
		}
	}
	exts := map[string]string{}
	for _, l := range p.s.offeredLanguages() {
		d.Languages = append(d.Languages, languageOption{Name: l.Name, Extensions: strings.Join(l.Extensions, " "),
			Off: d.Problem != "" && !allowed[l.Name]})
		for _, e := range l.Extensions {
			// an ending goes to the first language that has it, as the
			// judge picks it; an explicit language (pypy3) is chosen by name
			if _, ok := exts[e]; !ok && !l.Explicit {
				exts[e] = l.Name
			}
		}
	}
	d.Extensions = templateFuncs["json"].(func(any) string)(exts)
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
	d, ferr := p.submitForm(r, u, req.Problem)
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
