package service

import (
	"context"
	"crypto/hmac"
	"errors"
	"fmt"
	"html/template"
	"io"
	"io/fs"
	"math"
	"mime"
	"net/http"
	"path"
	"regexp"
	"strconv"
	"strings"

	"github.com/optjudge/optjudge/checkers/explain"
	"github.com/optjudge/optjudge/judge/statement"
)

// The problem pages: the problem set (/problems), in the contest's order
// with its labels and colours, and each problem's page (/problems/NAME):
// its statement in the language asked for, its PDF, samples and
// attachments. The submit page shows the same statement beside the form.

// problemsData is the problem set page's.
type problemsData struct {
	Contest *ContestView
	Listed  []ProblemSummary // in the contest's problems.yaml, in its order
	Others  []ProblemSummary // the rest, by name
	Error   string           // why an upload from the page's form failed
	MaxKiB  int64            // the largest package the form takes
}

func (problemsData) title() string { return "Problems" }

// split parts the problem set into the contest's problems and the others.
func split(set []ProblemSummary) (listed, others []ProblemSummary) {
	for _, p := range set {
		if p.Label != "" {
			listed = append(listed, p)
		} else {
			others = append(others, p)
		}
	}
	return listed, others
}

func (p *pages) handleProblems(w http.ResponseWriter, r *http.Request, u *User) {
	p.renderProblems(w, r, u, http.StatusOK, "")
}

// renderProblems shows the problem set, with why an upload failed.
func (p *pages) renderProblems(w http.ResponseWriter, r *http.Request, u *User, status int, uploadError string) {
	set, err := p.s.problemSet(r.Context())
	if err != nil {
		p.fail(w, r, u, err)
		return
	}
	d := problemsData{Contest: p.s.contestView(), Error: uploadError, MaxKiB: int64(p.s.cfg.MaxPackage) >> 10}
	d.Listed, d.Others = split(set)
	p.render(w, r, status, "problems", u, d)
}

// handleUploadPost takes a problem package (.zip or .tar.gz) from the
// problem set page's form, an admin's, as POST /api/v1/problems does, and
// shows the problem's page; a package that does not load or verify comes
// back to the form with the reason.
func (p *pages) handleUploadPost(w http.ResponseWriter, r *http.Request, u *User) {
	ctx, cancel := p.s.uploadDeadline(w, r)
	defer cancel()
	limit := int64(p.s.cfg.MaxPackage)
	r.Body = http.MaxBytesReader(w, r.Body, limit+64<<10)
	if ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); ct != "multipart/form-data" {
		p.fail(w, r, u, errorf(http.StatusUnsupportedMediaType, "the form must be sent as multipart/form-data"))
		return
	}
	mr, err := r.MultipartReader()
	if err != nil {
		p.fail(w, r, u, errorf(http.StatusBadRequest, "bad form: %v", err))
		return
	}
	var csrf string
	var data []byte
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			break
		}
		var mbe *http.MaxBytesError
		if err == nil {
			switch part.FormName() {
			case "csrf":
				var b []byte
				b, err = io.ReadAll(io.LimitReader(part, 1<<10))
				csrf = string(b)
			case "package":
				data, err = io.ReadAll(part)
			}
		}
		if errors.As(err, &mbe) || int64(len(data)) > limit {
			p.renderProblems(w, r, u, http.StatusRequestEntityTooLarge, fmt.Sprintf("the package is larger than the limit of %d KiB", limit>>10))
			return
		}
		if err != nil {
			p.fail(w, r, u, errorf(http.StatusBadRequest, "bad form: %v", err))
			return
		}
	}
	if !hmac.Equal([]byte(csrf), []byte(p.formToken(r))) {
		p.fail(w, r, u, errorf(http.StatusForbidden, "the form is out of date (or came from another site): reload the page and send it again"))
		return
	}
	if len(data) == 0 {
		p.renderProblems(w, r, u, http.StatusBadRequest, "choose a package file (.zip or .tar.gz of the problem's directory)")
		return
	}
	up, err := p.s.upload(ctx, data, u.Name)
	var ae *apiError
	switch {
	case err == nil:
		http.Redirect(w, r, "/problems/"+up.Name, http.StatusSeeOther)
	case errors.As(err, &ae):
		p.renderProblems(w, r, u, ae.status, ae.msg)
	default:
		p.fail(w, r, u, err)
	}
}

// statementData is a problem's statement, samples and attachments.
type statementData struct {
	ProblemSummary
	Lang        string
	Langs       []langLink // the statement's other languages
	HTML        template.HTML
	Note        string // why the statement shows as it does
	PDF         string // the PDF's URL, "" for none
	Samples     []sampleData
	Attachments []FileLink
	Languages   []string // the languages the problem takes
}

func (d *statementData) title() string {
	if d.Label != "" {
		return d.Label + ": " + d.Title
	}
	return d.Title
}

type langLink struct{ Lang, URL string }

type sampleData struct {
	Name, Input, Answer string
	Interaction         []interactionLine
	Drawings            []drawingRef
}

// interactionLine is a line of a sample interaction: Out for what the
// program wrote (>), else what it read (<).
type interactionLine struct {
	Out  bool
	Text string
}

type drawingRef struct{ URL, Alt string }

// maxSampleDrawings bounds the cases drawn per sample.
const maxSampleDrawings = 3

// statement is problem name's statement for r (?lang=, Accept-Language),
// samples and attachments, for u.
func (p *pages) statement(ctx context.Context, r *http.Request, u *User, name string) (*statementData, error) {
	pr, err := p.s.problemNamed(ctx, name)
	if err != nil {
		return nil, err
	}
	q, accept := "", ""
	if r != nil {
		q, accept = r.URL.Query().Get("lang"), r.Header.Get("Accept-Language")
	}
	st := chooseStatement(pr, q, accept)
	d := &statementData{ProblemSummary: p.s.summaryOf(pr), Lang: st.Lang, Attachments: p.s.attachmentsOf(u, pr, false)}
	d.Title = pr.TitleIn(st.Lang)
	for _, l := range st.Langs {
		if l != st.Lang {
			d.Langs = append(d.Langs, langLink{Lang: l, URL: "/problems/" + pr.Name + "?lang=" + l})
		}
	}
	for _, l := range p.s.languagesOf(pr) {
		d.Languages = append(d.Languages, l.Name)
	}
	if st.PDF != nil {
		d.PDF = problemFileURL(false, pr.Name, st.PDF.Path)
	}
	if err := d.text(pr, st); err != nil {
		return nil, err
	}
	if err := p.addSamples(d, pr); err != nil {
		return nil, err
	}
	return d, nil
}

// text renders the statement: Markdown as HTML, LaTeX as its source
// (with a note, or only the PDF when there is one).
func (d *statementData) text(pr *Problem, st statementChoice) error {
	if st.Text == nil {
		if d.PDF != "" {
			d.Note = "The statement of this problem is a PDF."
		} else {
			d.HTML = template.HTML("<p>This problem has no statement.</p>")
		}
		return nil
	}
	var b []byte
	info, err := fs.Stat(pr.Package.FS, st.Text.Path)
	if err == nil && info.Size() <= maxStatement { // not read at all when it is too large
		b, err = pr.ReadStatement(*st.Text)
	}
	if err != nil {
		return err
	}
	if b == nil || len(b) > maxStatement {
		d.Note = fmt.Sprintf("The statement (%s, %d bytes) is too large to show here.", st.Text.Path, max(int64(len(b)), info.Size()))
		return nil
	}
	if st.Text.Format == "md" {
		d.HTML = markdownWithImages(string(b), statementPicture(pr, path.Dir(st.Text.Path)))
		return nil
	}
	// LaTeX, as problemtools' problem2html renders it
	d.HTML = statement.LaTeX(string(b), statementPicture(pr, path.Dir(st.Text.Path)))
	return nil
}

// statementPicture resolves a picture a Markdown statement in dir shows
// (figure.png) to its URL: only a picture beside the statement
// (problems.Problem.StatementPath), never another file or another site.
func statementPicture(pr *Problem, dir string) func(string) string {
	return func(name string) string {
		if !pictureNameRE.MatchString(name) {
			return ""
		}
		full := path.Join(dir, name)
		if !fs.ValidPath(full) || !pr.StatementPath(full) {
			return ""
		}
		return problemFileURL(false, pr.Name, full)
	}
}

var pictureNameRE = regexp.MustCompile(`^(\./)?[A-Za-z0-9_][A-Za-z0-9._-]*$`)

// addSamples adds pr's samples: a package's as its statement shows them,
// interactions included; a native problem's with their drawings.
func (p *pages) addSamples(d *statementData, pr *Problem) error {
	all, err := samplesOf(pr)
	if err != nil {
		return err
	}
	for k, sm := range all {
		sd := sampleData{Name: sm.Name, Input: excerpt([]byte(sm.Input)), Answer: excerpt([]byte(sm.Answer))}
		for _, line := range strings.SplitAfter(excerpt([]byte(sm.Interaction)), "\n") {
			if line == "" {
				continue
			}
			sd.Interaction = append(sd.Interaction, interactionLine{Out: line[0] == '>', Text: strings.TrimPrefix(strings.TrimPrefix(line, ">"), "<")})
		}
		if pr.Puzzle != nil {
			for c, e := range p.sampleCases(pr, []byte(sm.Input)) {
				if c == maxSampleDrawings {
					break
				}
				sd.Drawings = append(sd.Drawings, drawingRef{URL: fmt.Sprintf("/problems/%s/samples/%d/%d", pr.Name, k, c+1), Alt: e.Description()})
			}
		}
		d.Samples = append(d.Samples, sd)
	}
	return nil
}

// sampleCases explains the cases of a sample input (nil for problems
// whose checker draws nothing).
func (p *pages) sampleCases(pr *Problem, in []byte) []*explain.Explanation {
	if pr.Problem == nil {
		return nil
	}
	return explain.Cases(pr.Puzzle, in)
}

// handleProblem is a problem's page.
func (p *pages) handleProblem(w http.ResponseWriter, r *http.Request, u *User) {
	d, err := p.statement(r.Context(), r, u, r.PathValue("name"))
	if err != nil {
		p.fail(w, r, u, err)
		return
	}
	p.render(w, r, http.StatusOK, "problem", u, d)
}

// handleStatement is the statement alone, for the submit page's script.
func (p *pages) handleStatement(w http.ResponseWriter, r *http.Request, u *User) {
	st, err := p.statement(r.Context(), r, u, r.PathValue("name"))
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

// handleProblemFile downloads a file of a problem (see Server.problemFile).
func (p *pages) handleProblemFile(w http.ResponseWriter, r *http.Request, u *User) {
	pr, f, st, err := p.s.problemFile(r.Context(), u, r.PathValue("name"), r.PathValue("path"))
	if err != nil {
		p.fail(w, r, u, err)
		return
	}
	serveProblemFile(w, r, pr, r.PathValue("path"), f, st)
}

// handleContestCSS is the style sheet of the problems' colours (a page's
// policy allows no style of its own): .label-NAME in the problem's
// colour, with text that reads on it.
func (p *pages) handleContestCSS(w http.ResponseWriter, r *http.Request) {
	var b strings.Builder
	if l := p.s.contest; l != nil {
		for _, e := range l.c.Problems {
			if rgb := normalRGB(e.RGB); rgb != "" && problemRE.MatchString(e.ID) {
				fmt.Fprintf(&b, ".label-%s { background: %s; color: %s; border-color: %s; }\n", e.ID, rgb, inkOn(rgb), rgb)
			}
		}
	} else if c := p.s.cfg.Library.Contest(); c != nil {
		for _, e := range c.Problems {
			if e.RGB == "" || !problemRE.MatchString(e.ID) {
				continue
			}
			fmt.Fprintf(&b, ".label-%s { background: %s; color: %s; border-color: %s; }\n", e.ID, e.RGB, inkOn(e.RGB), e.RGB)
		}
	}
	w.Header().Set("Content-Type", "text/css; charset=utf-8")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Cache-Control", "no-cache")
	io.WriteString(w, b.String())
}

// inkOn is black or white, whichever contrasts more with the colour
// #rrggbb (WCAG's relative luminance).
func inkOn(rgb string) string {
	v, err := strconv.ParseUint(strings.TrimPrefix(rgb, "#"), 16, 32)
	if err != nil {
		return "#000"
	}
	lin := func(c uint64) float64 {
		x := float64(c&0xff) / 255
		if x <= 0.04045 {
			return x / 12.92
		}
		return math.Pow((x+0.055)/1.055, 2.4)
	}
	l := 0.2126*lin(v>>16) + 0.7152*lin(v>>8) + 0.0722*lin(v)
	if (l+0.05)/0.05 >= 1.05/(l+0.05) {
		return "#000"
	}
	return "#fff"
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
	if pr.Puzzle == nil {
		return ""
	}
	all, err := samplesOf(pr)
	if err != nil || k >= len(all) {
		return ""
	}
	if es := p.sampleCases(pr, []byte(all[k].Input)); c <= len(es) {
		return es[c-1].SVG()
	}
	return ""
}
