package service

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"embed"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"net/http"
	"net/url"
	"path"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/optjudge/optjudge/verdict"
)

// The pages are served beside the API, with the same users: html/template
// pages from web/, a style sheet and one plain script for live updates
// (web/static), all embedded. A user logs in with their token, kept in an
// HttpOnly, SameSite=Strict cookie (Secure over TLS); without a tokens
// file everyone is the local admin and there is no login. Every form post
// carries a token derived from the user's (and the server refuses other
// sites' posts, see routes); every page has a Content-Security-Policy that
// runs only the site's own script and loads only its own images and
// styles.
//
//go:embed web
var webFS embed.FS

// pageCSP is the policy of every page.
const pageCSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; font-src 'self'; connect-src 'self'; " +
	"form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

// pages are the server's web pages.
type pages struct {
	s         *Server
	templates map[string]*template.Template
	static    fs.FS
	localKey  []byte // the form token's key in local mode
	verdicts  string // the verdicts' words, as JSON, for the script

	mu      sync.Mutex
	samples map[string]string // sample drawings by problem hash, test and case
}

// pageNames are the templates of web/, each with web/layout.html.
var pageNames = []string{"list", "submit", "submission", "queue", "rejudge", "login", "error", "problems", "problem",
	"scoreboard", "clarifications", "rejudgings", "rejudging"}

func newPages(s *Server) *pages {
	p := &pages{s: s, templates: map[string]*template.Template{}, samples: map[string]string{}}
	p.localKey = make([]byte, 32)
	rand.Read(p.localKey)
	words := map[string]string{}
	for _, v := range verdict.All {
		words[v.String()] = v.Long()
	}
	b, _ := json.Marshal(words)
	p.verdicts = string(b)
	for _, name := range pageNames {
		p.templates[name] = template.Must(template.New(name).Funcs(templateFuncs).ParseFS(webFS, "web/layout.html", "web/statement.html", "web/"+name+".html"))
	}
	p.static, _ = fs.Sub(webFS, "web/static")
	return p
}

var templateFuncs = template.FuncMap{
	// verdictWords spells out a verdict, or a verdict filter's name
	// (the list page's options)
	"verdictWords": func(v any) string {
		switch x := v.(type) {
		case verdict.Verdict:
			return x.Long()
		case string:
			if p, err := verdict.Parse(x); err == nil {
				return p.Long()
			}
			return x
		}
		return fmt.Sprint(v)
	},
	"when": func(t time.Time) string {
		if t.IsZero() {
			return ""
		}
		return t.UTC().Format("2006-01-02 15:04:05")
	},
	"iso": func(t time.Time) string { return t.UTC().Format(time.RFC3339) },
	"ago": func(t time.Time) string { return time.Since(t).Round(time.Second).String() },
	"mib": func(kib int64) string {
		if kib < 1024 {
			return strconv.FormatInt(kib, 10) + " KiB"
		}
		if kib%1024 == 0 {
			return strconv.FormatInt(kib/1024, 10) + " MiB"
		}
		return strconv.FormatFloat(float64(kib)/1024, 'f', 1, 64) + " MiB"
	},
	"kib":   func(bytes int) string { return strconv.Itoa(bytes>>10) + " KiB" },
	"score": func(v *float64) string { return strconv.FormatFloat(*v, 'g', -1, 64) },
	"ms": func(ms int64) string {
		if ms < 1000 {
			return strconv.FormatInt(ms, 10) + " ms"
		}
		return (time.Duration(ms) * time.Millisecond).Round(100 * time.Millisecond).String()
	},
	"json": func(v any) string {
		b, _ := json.Marshal(v)
		return string(b)
	},
}

func (p *pages) routes(mux *http.ServeMux) {
	mux.HandleFunc("GET /{$}", p.auth(p.handleList))
	mux.HandleFunc("GET /submit", p.auth(p.handleSubmitForm))
	mux.HandleFunc("POST /submit", p.auth(p.handleSubmitPost)) // checks its form token itself
	mux.HandleFunc("GET /problems", p.auth(p.handleProblems))
	mux.HandleFunc("POST /problems", p.auth(p.admin(p.handleUploadPost))) // checks its form token itself
	mux.HandleFunc("GET /problems/{name}", p.auth(p.handleProblem))
	mux.HandleFunc("GET /problems/{name}/statement", p.auth(p.handleStatement))
	mux.HandleFunc("GET /problems/{name}/files/{path...}", p.auth(p.handleProblemFile))
	mux.HandleFunc("GET /contest.css", p.auth(func(w http.ResponseWriter, r *http.Request, _ *User) { p.handleContestCSS(w, r) }))
	mux.HandleFunc("GET /problems/{name}/samples/{test}/{case}", p.auth(p.handleSampleDrawing))
	mux.HandleFunc("GET /s/{id}", p.auth(p.handleSubmission))
	mux.HandleFunc("GET /queue", p.auth(p.admin(p.handleQueue)))
	mux.HandleFunc("POST /queue/rejudge", p.auth(p.admin(p.post(p.handleRejudgePost))))
	mux.HandleFunc("GET /queue/rejudges/{name}/{id}", p.auth(p.admin(p.handleRejudge)))
	p.contestPageRoutes(mux)
	p.rejudgingPageRoutes(mux)
	mux.HandleFunc("GET /login", p.handleLoginForm)
	mux.HandleFunc("POST /login", p.handleLogin)
	mux.HandleFunc("POST /logout", p.auth(p.post(p.handleLogout)))
	mux.HandleFunc("GET /static/{file}", p.handleStatic)
	mux.HandleFunc("GET /static/katex/{path...}", p.handleKaTeX)
	mux.HandleFunc("GET /favicon.ico", p.handleStatic)
	mux.HandleFunc("/", p.handleNotFound)
}

// pageHandler is a page's handler, told who asks.
type pageHandler func(w http.ResponseWriter, r *http.Request, u *User)

// user is who sends r: the local admin without tokens, else the user of
// the bearer token or of the session cookie; nil for nobody.
func (p *pages) user(r *http.Request) *User {
	if p.s.cfg.Tokens == nil {
		return LocalAdmin
	}
	tok, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if !ok {
		tok = cookieToken(r)
	}
	if tok == "" {
		return nil
	}
	return p.s.lookupToken(tok)
}

// auth sends nobody to the login page.
func (p *pages) auth(h pageHandler) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		u := p.user(r)
		if u != nil {
			h(w, r.WithContext(context.WithValue(r.Context(), userKey{}, u)), u)
			return
		}
		next := safeNext(r.URL.RequestURI())
		if r.Method != http.MethodGet {
			next = "/"
		}
		if r.Header.Get("Sec-Fetch-Site") == "cross-site" {
			// A SameSite=Strict cookie stays home on a link from another
			// site: one more step from this site brings it along.
			p.render(w, r, http.StatusOK, "error", nil, pageError{Title: "Opening the page", Refresh: next,
				Message: "Opening " + next + "..."})
			return
		}
		http.Redirect(w, r, "/login?next="+url.QueryEscape(next), http.StatusSeeOther)
	}
}

// admin shows contestants a 403 page.
func (p *pages) admin(h pageHandler) pageHandler {
	return func(w http.ResponseWriter, r *http.Request, u *User) {
		if !u.Admin() {
			p.fail(w, r, u, errorf(http.StatusForbidden, "this page is for admins only: you are %s, a %s", u.Name, u.Role))
			return
		}
		h(w, r, u)
	}
}

// post checks a form post's token.
func (p *pages) post(h pageHandler) pageHandler {
	return func(w http.ResponseWriter, r *http.Request, u *User) {
		r.Body = http.MaxBytesReader(w, r.Body, 2*int64(p.s.cfg.MaxSource)+64<<10)
		got := r.FormValue("csrf") // parses a multipart form too
		if want := p.formToken(r); !hmac.Equal([]byte(got), []byte(want)) {
			p.fail(w, r, u, errorf(http.StatusForbidden, "the form is out of date (or came from another site): reload the page and send it again"))
			return
		}
		h(w, r, u)
	}
}

// formToken is the token a form of this user carries: an HMAC of the
// user's own token (the same on every server of a cluster), or of a key of
// this process in local mode.
func (p *pages) formToken(r *http.Request) string {
	key, who := p.localKey, "local"
	if p.s.cfg.Tokens != nil {
		tok, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		if !ok {
			tok = cookieToken(r)
		}
		key, who = []byte(tok), "session"
	}
	m := hmac.New(sha256.New, key)
	m.Write([]byte("optjudge form\x00" + who))
	return hex.EncodeToString(m.Sum(nil))
}

// cookieToken is the token in the session cookie, "" for none.
func cookieToken(r *http.Request) string {
	c, err := r.Cookie(sessionCookie)
	if err != nil {
		return ""
	}
	b, err := base64.RawURLEncoding.DecodeString(c.Value)
	if err != nil {
		return ""
	}
	return string(b)
}

// pageData is what every page's template gets.
type pageData struct {
	Title    string
	Page     string // the body's data-page, for the script
	User     *User
	Login    bool // the server has users (show who is logged in, and log out)
	CSRF     string
	Nav      string
	Verdicts string
	Data     any
	Contest  *contestBanner // nil without a contest
}

// render writes a page; a template that fails writes a plain 500 (the
// page is rendered into a buffer first).
func (p *pages) render(w http.ResponseWriter, r *http.Request, status int, name string, u *User, data any) {
	d := pageData{Page: name, User: u, Login: p.s.cfg.Tokens != nil, Nav: name, Verdicts: p.verdicts, Data: data, Contest: p.s.banner()}
	if u != nil {
		d.CSRF = p.formToken(r)
	}
	if t, ok := data.(interface{ title() string }); ok {
		d.Title = t.title()
	}
	var buf bytes.Buffer
	if err := p.templates[name].ExecuteTemplate(&buf, "layout", d); err != nil {
		p.s.log.Printf("page %s: %v", name, err)
		http.Error(w, "the page could not be made", http.StatusInternalServerError)
		return
	}
	pageHeaders(w)
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	w.Write(buf.Bytes())
}

func pageHeaders(w http.ResponseWriter) {
	h := w.Header()
	h.Set("Content-Security-Policy", pageCSP)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Referrer-Policy", "same-origin")
	h.Set("Cache-Control", "no-store")
}

// pageError is the error page's data.
type pageError struct {
	Status  int
	Title   string
	Message string
	Refresh string // a page of this site to go on to
}

func (e pageError) title() string { return e.Title }

// fail shows an error as a page, with the status an apiError carries.
func (p *pages) fail(w http.ResponseWriter, r *http.Request, u *User, err error) {
	status, msg := http.StatusInternalServerError, err.Error()
	var ae *apiError
	var mbe *http.MaxBytesError
	switch {
	case errors.As(err, &ae):
		status = ae.status
	case errors.As(err, &mbe):
		status, msg = http.StatusRequestEntityTooLarge, "the request is larger than the limit"
	default:
		p.s.log.Printf("page %s: %v", r.URL.Path, err)
	}
	p.render(w, r, status, "error", u, pageError{Status: status, Title: http.StatusText(status), Message: msg})
}

func (p *pages) handleNotFound(w http.ResponseWriter, r *http.Request) {
	p.fail(w, r, p.user(r), errorf(http.StatusNotFound, "no page %s", r.URL.Path))
}

func (p *pages) handleStatic(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("file")
	if name == "" {
		name = path.Base(r.URL.Path)
	}
	if name == "favicon.ico" {
		name = "icon.svg"
	}
	b, err := fs.ReadFile(p.static, name)
	if err != nil || strings.HasPrefix(name, ".") {
		http.NotFound(w, r)
		return
	}
	types := map[string]string{".css": "text/css; charset=utf-8", ".js": "text/javascript; charset=utf-8",
		".svg": "image/svg+xml", ".ico": "image/svg+xml"}
	w.Header().Set("Content-Type", types[path.Ext(name)])
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Cache-Control", "public, max-age=300")
	w.Write(b)
}

// safeNext is a page of this site to go to after logging in.
func safeNext(next string) string {
	if !strings.HasPrefix(next, "/") || strings.HasPrefix(next, "//") || strings.HasPrefix(next, "/\\") || strings.HasPrefix(next, "/api/") {
		return "/"
	}
	return next
}

type loginData struct {
	Next, Error string
}

func (loginData) title() string { return "Log in" }

func (p *pages) handleLoginForm(w http.ResponseWriter, r *http.Request) {
	next := safeNext(r.URL.Query().Get("next"))
	if u := p.user(r); u != nil {
		http.Redirect(w, r, next, http.StatusSeeOther)
		return
	}
	p.render(w, r, http.StatusOK, "login", nil, loginData{Next: next})
}

func (p *pages) handleLogin(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, 64<<10)
	next := safeNext(r.FormValue("next"))
	if p.s.cfg.Tokens == nil {
		http.Redirect(w, r, next, http.StatusSeeOther)
		return
	}
	tok := strings.TrimSpace(r.FormValue("token"))
	if tok == "" || p.s.lookupToken(tok) == nil {
		p.render(w, r, http.StatusUnauthorized, "login", nil, loginData{Next: next, Error: "unknown token"})
		return
	}
	http.SetCookie(w, &http.Cookie{Name: sessionCookie, Value: base64.RawURLEncoding.EncodeToString([]byte(tok)),
		Path: "/", MaxAge: 7 * 24 * 3600, HttpOnly: true, Secure: r.TLS != nil, SameSite: http.SameSiteStrictMode})
	http.Redirect(w, r, next, http.StatusSeeOther)
}

func (p *pages) handleLogout(w http.ResponseWriter, r *http.Request, u *User) {
	http.SetCookie(w, &http.Cookie{Name: sessionCookie, Value: "", Path: "/", MaxAge: -1,
		HttpOnly: true, Secure: r.TLS != nil, SameSite: http.SameSiteStrictMode})
	target := "/login"
	if p.s.cfg.Tokens == nil {
		target = "/"
	}
	http.Redirect(w, r, target, http.StatusSeeOther)
}
