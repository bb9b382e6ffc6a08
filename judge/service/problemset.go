package service

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/optjudge/optjudge/judge/lang"
	"github.com/optjudge/optjudge/problems"
)

// The problem set: the problems new submissions can name, in the order of
// the problems directory's contest (problems.yaml: its problems first,
// with their labels and colours, then the others by name), each with its
// statements in the languages it has, its samples and its attachments.

// ContestView is the contest of the problems directory, as the API shows
// it.
type ContestView struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// contestView is the server's contest; nil without one.
func (s *Server) contestView() *ContestView {
	c := s.cfg.Library.Contest()
	if c == nil {
		return nil
	}
	return &ContestView{ID: c.ID, Name: c.Name}
}

// summaryOf is p as the lists show it, with its label and colour when the
// contest has it.
func (s *Server) summaryOf(p *Problem) ProblemSummary {
	sum := ProblemSummary{Name: p.Name, Title: p.Title, Hash: p.Hash, Uploaded: p.Uploaded, Limits: ProblemLimit{
		TimeMS: p.Limits.Time.Milliseconds(), MemoryKiB: p.Limits.Memory.KiB(), OutputKiB: p.Limits.Output.KiB(),
		CodeKiB: p.Package.Submit.CodeLimit.KiB()}}
	if e := s.cfg.Library.Contest().Find(p.Name); e != nil {
		sum.Label, sum.RGB, sum.Color = e.Label, e.RGB, e.Color
	}
	return sum
}

// problemSet is every problem new submissions can name, in the contest's
// order: those problems.yaml lists first, then the others by name.
func (s *Server) problemSet(ctx context.Context) ([]ProblemSummary, error) {
	names, err := s.cfg.Library.Names(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]ProblemSummary, 0, len(names))
	for _, n := range names {
		p, err := s.cfg.Library.Current(ctx, n)
		if err != nil {
			return nil, err
		}
		if p != nil {
			out = append(out, s.summaryOf(p))
		}
	}
	order := map[string]int{}
	if c := s.cfg.Library.Contest(); c != nil {
		for i, e := range c.Problems {
			order[e.ID] = i + 1
		}
	}
	out = s.contestProblems(ctx, out)
	sort.SliceStable(out, func(i, j int) bool {
		oi, oj := order[out[i].Name], order[out[j].Name]
		if (oi > 0) != (oj > 0) {
			return oi > 0
		}
		return oi < oj // names are sorted already
	})
	return out, nil
}

// languagesOf lists the server's languages that p takes (problem.yaml's
// languages, by their Kattis codes), in the table's order.
func (s *Server) languagesOf(p *Problem) []*lang.Language {
	var out []*lang.Language
	for i := range s.cfg.Languages.List {
		l := &s.cfg.Languages.List[i]
		if p.Package.Submit.AllowsLanguage(l.KattisCode()) {
			out = append(out, l)
		}
	}
	return out
}

// chooseLang is the statement language for a request: ?lang= when the
// problem has it, else the first of Accept-Language it has (a tag's
// language alone will do: de-AT takes de, pt takes pt-BR), else English,
// else the first.
func chooseLang(have []string, query, accept string) string {
	if len(have) == 0 {
		return ""
	}
	find := func(tag string) string {
		for _, h := range have {
			if strings.EqualFold(h, tag) {
				return h
			}
		}
		primary, _, _ := strings.Cut(tag, "-")
		for _, h := range have {
			hp, _, _ := strings.Cut(h, "-")
			if strings.EqualFold(hp, primary) {
				return h
			}
		}
		return ""
	}
	if query != "" {
		if h := find(query); h != "" {
			return h
		}
	}
	for _, tag := range acceptLanguages(accept) {
		if h := find(tag); h != "" {
			return h
		}
	}
	if h := find("en"); h != "" {
		return h
	}
	return have[0]
}

// acceptLanguages are an Accept-Language header's tags, most wanted
// first; a tag with q=0 is left out.
func acceptLanguages(header string) []string {
	type tagQ struct {
		tag string
		q   float64
	}
	var tags []tagQ
	for i, part := range strings.Split(header, ",") {
		if i == 32 {
			break // a header is a few tags; the rest is noise
		}
		tag, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		q := 1.0
		if v, ok := strings.CutPrefix(strings.TrimSpace(params), "q="); ok {
			if f, err := strconv.ParseFloat(v, 64); err == nil {
				q = f
			}
		}
		if tag = strings.TrimSpace(tag); tag != "" && tag != "*" && q > 0 {
			tags = append(tags, tagQ{tag, q})
		}
	}
	sort.SliceStable(tags, func(i, j int) bool { return tags[i].q > tags[j].q })
	out := make([]string, len(tags))
	for i, t := range tags {
		out[i] = t.tag
	}
	return out
}

// statementChoice is the statement a request gets: its language, the
// other languages, the file to show (Markdown, else LaTeX) and the PDF.
type statementChoice struct {
	Lang  string
	Langs []string
	Text  *problems.StatementFile // nil: none in Markdown or LaTeX
	PDF   *problems.StatementFile // nil: none
}

func chooseStatement(p *Problem, query, accept string) statementChoice {
	c := statementChoice{Langs: p.StatementLanguages()}
	c.Lang = chooseLang(c.Langs, query, accept)
	for _, f := range p.Statements() {
		if f.Lang != c.Lang {
			continue
		}
		switch {
		case f.Format == "pdf":
			c.PDF = &f
		case c.Text == nil: // Markdown sorts before LaTeX
			c.Text = &f
		}
	}
	return c
}

// maxStatement bounds the statement text shown: a larger one is offered
// as its file only.
const maxStatement = 1 << 20

// problemFileURL is where a file of a problem is downloaded from: the
// API's route, or the pages'.
func problemFileURL(api bool, name, file string) string {
	if api {
		return "/api/v1/problems/" + name + "/files/" + file
	}
	return "/problems/" + name + "/files/" + file
}

// problemFile opens a file of the current version of problem name that u
// may have (sight.problemFile): 404 for any other path, traversals and
// links out of their directory included.
func (s *Server) problemFile(ctx context.Context, u *User, name, file string) (*Problem, fs.File, fs.FileInfo, error) {
	notFound := errorf(http.StatusNotFound, "problem %s has no file %q to download", name, file)
	if !problemRE.MatchString(name) || !fs.ValidPath(file) || s.problemHidden(context.WithValue(ctx, userKey{}, u), name) != nil {
		return nil, nil, nil, notFound
	}
	p, err := s.cfg.Library.Current(ctx, name)
	if err != nil {
		return nil, nil, nil, err
	}
	if p == nil {
		return nil, nil, nil, errorf(http.StatusNotFound, "unknown problem %q", name)
	}
	if !s.sightOf(u).problemFile(p.Problem, file) || !staysInside(p, file) {
		return nil, nil, nil, notFound
	}
	f, err := p.Package.FS.Open(file)
	if err != nil {
		return nil, nil, nil, notFound
	}
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		f.Close()
		return nil, nil, nil, notFound
	}
	return p, f, st, nil
}

// staysInside says whether a file of a problem on disk is in its own
// directory once links are followed: a link of attachments/ to a secret
// answer is not an attachment.
func staysInside(p *Problem, file string) bool {
	if p.Dir == "" {
		return true // embedded: no links
	}
	top, _, _ := strings.Cut(file, "/")
	if strings.HasPrefix(file, "data/sample/") {
		top = "data/sample"
	}
	dir, err1 := filepath.EvalSymlinks(filepath.Join(p.Dir, filepath.FromSlash(top)))
	real, err2 := filepath.EvalSymlinks(filepath.Join(p.Dir, filepath.FromSlash(file)))
	if err := errors.Join(err1, err2); err != nil {
		return false
	}
	rel, err := filepath.Rel(dir, real)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// fileTypes are the types a problem's files are served as; any other
// file is application/octet-stream.
var fileTypes = map[string]string{
	".pdf": "application/pdf", ".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".gif": "image/gif",
	".svg": "image/svg+xml", ".webp": "image/webp",
}

// serveProblemFile writes a file of a problem: a statement's PDF or
// picture to be shown, anything else (an attachment, a sample) as a
// download. A file that could hold a script (an SVG, an HTML attachment)
// runs none: it is served sandboxed, or as a download.
func serveProblemFile(w http.ResponseWriter, r *http.Request, p *Problem, file string, f fs.File, st fs.FileInfo) {
	defer f.Close()
	h := w.Header()
	ext := strings.ToLower(path.Ext(file))
	typ, shown := fileTypes[ext]
	if strings.HasPrefix(file, "attachments/") || strings.HasPrefix(file, "data/") || !shown {
		typ = "application/octet-stream"
		h.Set("Content-Disposition", fmt.Sprintf("attachment; filename=%q", safeFilename(path.Base(file))))
	}
	h.Set("Content-Type", typ)
	h.Set("X-Content-Type-Options", "nosniff")
	if typ != "application/pdf" {
		// a browser's PDF viewer does not open in a sandbox
		h.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; sandbox")
	}
	h.Set("Cache-Control", "private, no-cache")
	h.Set("ETag", `"`+p.Hash[:min(len(p.Hash), 32)]+`"`)
	if rs, ok := f.(io.ReadSeeker); ok {
		http.ServeContent(w, r, "", st.ModTime(), rs)
		return
	}
	h.Set("Content-Length", strconv.FormatInt(st.Size(), 10))
	if r.Method != http.MethodHead {
		io.Copy(w, f)
	}
}

// safeFilename is a file name for Content-Disposition: no quotes,
// backslashes or control characters.
func safeFilename(name string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == '"' || r == '\\' || r == 0x7f {
			return '_'
		}
		return r
	}, name)
}

// FileLink is a file of a problem the API and the pages offer.
type FileLink struct {
	Name string `json:"name"` // within its directory: attachments/lib/x.h is lib/x.h
	Path string `json:"path"` // within the package
	Size int64  `json:"size"`
	URL  string `json:"url"`
}

// attachmentsOf lists p's attachments that u may have, with their URLs
// in the API or the pages.
func (s *Server) attachmentsOf(u *User, p *Problem, api bool) []FileLink {
	see := s.sightOf(u)
	out := []FileLink{}
	for _, a := range p.Package.Attachments() {
		st, err := fs.Stat(p.Package.FS, a)
		if err != nil || !see.problemFile(p.Problem, a) || !staysInside(p, a) {
			continue
		}
		out = append(out, FileLink{Name: strings.TrimPrefix(a, "attachments/"), Path: a, Size: st.Size(),
			URL: problemFileURL(api, p.Name, a)})
	}
	return out
}
