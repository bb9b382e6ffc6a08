package service

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/optjudge/optjudge/bytesize"
	"github.com/optjudge/optjudge/judge/contest"
	"github.com/optjudge/optjudge/judge/lang"
	"github.com/optjudge/optjudge/judge/service/store"
)

// ServerConfig configures the HTTP API.
type ServerConfig struct {
	Store   *Store
	Library *Library
	// Tokens are the users; nil: every request is the local admin (the
	// caller must then listen on loopback only).
	Tokens    []Token
	Languages *lang.Table   // nil: lang.Default()
	MaxSource bytesize.Size // 0: 256 KiB
	// MaxPackage bounds an uploaded problem package; 0: 64 MiB.
	MaxPackage bytesize.Size
	// HTTPTimeout bounds the reading of a request and the writing of its
	// answer (HTTPServer's ReadTimeout and WriteTimeout); 0: a minute.
	// Event streams extend their write deadline as they go, uploads
	// take UploadTimeout.
	HTTPTimeout time.Duration
	// UploadTimeout bounds an upload from its first byte to its answer:
	// reading the package over a slow link, verifying and storing it;
	// 0: 15 minutes.
	UploadTimeout time.Duration
	// Verify checks an uploaded problem before it is accepted; nil: it
	// is only loaded (problems.Load validates its spec and files).
	Verify func(ctx context.Context, p *Problem) error
	// Feedback says what contestants see of the secret tests.
	Feedback Feedback
	// MaxStreams bounds the event streams one user may have open at once
	// (each per-submission stream holds two watchers in NATS); 0: 16.
	MaxStreams int
	Log        *log.Logger // nil: silent

	// Contest, when set, makes the service a contest (contest.go): its
	// problems alone are shown (and the others with DemoProblems), from
	// its start; submissions are taken until its end; the Contest API
	// serves it. Clock is its time; nil: the system's.
	Contest      *contest.Contest
	Clock        contest.Clock
	DemoProblems bool
}

// Server is the HTTP API v1: one ServeMux, handlers as methods, errors
// written by writeError.
type Server struct {
	cfg     ServerConfig
	mux     *http.ServeMux
	handler http.Handler
	view    *view
	hub     *hub
	metrics *metrics
	pages   *pages
	log     *log.Logger
	contest *contestLayer // nil without a contest
	langs   langCache     // the languages the live workers run

	streamsMu sync.Mutex
	streams   map[string]int // open event streams by user

	life *lifecycle // of the requests it publishes, and the sweeper's

	ctx    context.Context // ends event streams and the goroutines below at shutdown
	cancel context.CancelFunc
	wg     sync.WaitGroup // the view's watcher, the sweeper, the advisories' watcher
}

// viewReady is how long NewServer waits for the view's first values.
var viewReady = 10 * time.Second

// NewServer starts following the store and returns the API.
func NewServer(cfg ServerConfig) *Server {
	if cfg.Languages == nil {
		cfg.Languages = lang.Default()
	}
	if cfg.MaxSource == 0 {
		cfg.MaxSource = 256 * bytesize.KiB
	}
	if cfg.MaxPackage == 0 {
		cfg.MaxPackage = 64 * bytesize.MiB
	}
	if cfg.MaxStreams <= 0 {
		cfg.MaxStreams = 16
	}
	if cfg.HTTPTimeout <= 0 {
		cfg.HTTPTimeout = time.Minute
	}
	if cfg.UploadTimeout <= 0 {
		cfg.UploadTimeout = 15 * time.Minute
	}
	s := &Server{cfg: cfg, mux: http.NewServeMux(), log: cfg.Log, streams: map[string]int{}}
	if s.log == nil {
		s.log = log.New(io.Discard, "", 0)
	}
	s.ctx, s.cancel = context.WithCancel(context.Background())
	s.metrics = newMetrics(s)
	s.hub = newHub()
	s.view = newView(s.log, func(old, new *Submission) {
		s.metrics.observe(old, new)
		s.hub.publish(new)
	})
	s.life = &lifecycle{st: cfg.Store, log: s.log, who: "server", view: s.view}
	s.pages = newPages(s)
	s.contest = newContestLayer(s)
	s.routes()
	// subscribed before NewServer returns: a worker started after it
	// cannot exhaust a job unseen
	watch, err := s.life.watchMaxDeliveries()
	if err != nil {
		s.log.Printf("max deliveries: %v (the sweeper repairs what the advisories would)", err)
	}
	s.goRun(func() { s.view.run(s.ctx, cfg.Store.Submissions) })
	s.goRun(func() { s.life.sweep(s.ctx) })
	if watch != nil {
		s.goRun(func() { watch(s.ctx) })
	}
	if err := s.view.waitReady(viewReady); err != nil {
		s.log.Printf("%v: the lists, counts and rejudges answer 503 until they come", err)
	}
	return s
}

// goRun runs f in a goroutine Close waits for.
func (s *Server) goRun(f func()) {
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		f()
	}()
}

// endpoint is one route of the API: its ServeMux pattern and handler.
// openapi.yaml documents every one (TestOpenAPIMatchesServer).
type endpoint struct {
	pattern string
	handler http.HandlerFunc
}

// apiEndpoints are the routes under /api/, each called with its user.
func (s *Server) apiEndpoints() []endpoint {
	return []endpoint{
		{"POST /api/v1/submissions", s.handleSubmit},
		{"GET /api/v1/submissions", s.handleList},
		{"GET /api/v1/submissions/{id}", s.handleSubmission},
		{"GET /api/v1/submissions/{id}/events", s.handleEvents},
		{"GET /api/v1/submissions/{id}/drawing.svg", s.handleDrawing},
		{"GET /api/v1/events", s.handleAllEvents},
		{"GET /api/v1/problems", s.handleProblems},
		{"POST /api/v1/problems", admin(s.handleUpload)},
		{"GET /api/v1/problems/{name}", s.handleProblem},
		{"GET /api/v1/problems/{name}/files/{path...}", s.handleProblemFile},
		{"POST /api/v1/problems/{name}/rejudge", admin(s.handleRejudge)},
		{"GET /api/v1/problems/{name}/rejudges/{id}", admin(s.handleRejudgeResult)},
		{"GET /api/v1/queue", admin(s.handleQueue)},
		{"POST /api/v1/rejudgings", admin(s.handleRejudgingPost)},
		{"GET /api/v1/rejudgings", admin(s.handleRejudgings)},
		{"GET /api/v1/rejudgings/{id}", admin(s.handleRejudging)},
		{"POST /api/v1/rejudgings/{id}/{action}", admin(s.handleRejudgingClose)},
	}
}

// otherEndpoints are the API's routes beside /api/: the health check,
// open to all (an admin is told why it failed), and the metrics, an
// admin's (they count verdicts: a frozen scoreboard's secret).
func (s *Server) otherEndpoints() []endpoint {
	return []endpoint{
		{"GET /healthz", s.identify(s.handleHealth)},
		{"GET /metrics", s.authenticate(admin(s.metrics.handler().ServeHTTP)).ServeHTTP},
	}
}

func (s *Server) routes() {
	api := http.NewServeMux()
	for _, ep := range s.apiEndpoints() {
		api.HandleFunc(ep.pattern, ep.handler)
	}
	api.HandleFunc("/api/", func(w http.ResponseWriter, r *http.Request) {
		var allow []string
		for _, m := range []string{"GET", "POST"} {
			probe := r.Clone(r.Context())
			probe.Method = m
			if _, pattern := api.Handler(probe); pattern != "/api/" && pattern != "" {
				allow = append(allow, m)
			}
		}
		if len(allow) > 0 {
			notAllowed(w, r, allow)
			return
		}
		writeError(w, errorf(http.StatusNotFound, "no such endpoint: %s %s", r.Method, r.URL.Path))
	})
	s.mux.Handle("/api/", s.authenticate(api))
	s.mux.HandleFunc("/api", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, errorf(http.StatusNotFound, "no such endpoint: %s %s (the API is under /api/v1/)", r.Method, r.URL.Path))
	})
	for _, ep := range s.otherEndpoints() {
		s.mux.HandleFunc(ep.pattern, ep.handler)
		_, path, _ := strings.Cut(ep.pattern, " ")
		s.mux.HandleFunc(path, func(w http.ResponseWriter, r *http.Request) { notAllowed(w, r, []string{"GET", "HEAD"}) })
	}
	s.pages.routes(s.mux)
	s.clicsRoutes(s.mux)
	// A browser's request from another site that would change something
	// (a form post of any encoding, a fetch) is refused, the API's too:
	// in local mode the API takes any request from loopback, a page of any
	// site included. And in local mode a request must name this machine:
	// a page of a site whose name was made to point at 127.0.0.1 (DNS
	// rebinding) is the same origin as far as the browser knows.
	s.handler = http.MaxBytesHandler(s.checkHost(http.NewCrossOriginProtection().Handler(s.mux)), int64(s.cfg.MaxPackage)+1<<20)
}

// checkHost refuses, without tokens, a request whose Host is not a
// loopback name or address (421).
func (s *Server) checkHost(next http.Handler) http.Handler {
	if s.cfg.Tokens != nil {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !loopbackHost(r.Host) {
			writeError(w, errorf(http.StatusMisdirectedRequest,
				"Host %q: without --tokens the server answers only requests to this machine's own names (localhost, 127.0.0.1, [::1])", r.Host))
			return
		}
		next.ServeHTTP(w, r)
	})
}

// loopbackHost says whether a Host header names this machine: localhost,
// a name under .localhost (browsers keep those on loopback), a loopback
// address; or is empty (HTTP/1.0, never a browser).
func loopbackHost(hostport string) bool {
	if hostport == "" {
		return true
	}
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.ToLower(strings.Trim(host, "[]")), ".")
	return isLoopback(host) || strings.HasSuffix(host, ".localhost")
}

// Handler is the API's handler, for an http.Server or httptest.
func (s *Server) Handler() http.Handler { return s.handler }

// HTTPServer wraps the API in an http.Server with timeouts (HTTPTimeout);
// event streams and uploads extend their own deadlines.
func (s *Server) HTTPServer(addr string) *http.Server {
	hs := &http.Server{
		Addr:              addr,
		Handler:           s.handler,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       s.cfg.HTTPTimeout,
		WriteTimeout:      s.cfg.HTTPTimeout,
		IdleTimeout:       2 * time.Minute,
		ErrorLog:          s.log,
	}
	hs.RegisterOnShutdown(s.cancel) // event streams end; Shutdown waits for them
	return hs
}

// Close stops following the store, the sweeper and the advisories' watcher
// and waits for them, and ends the event streams (an http.Server's
// Shutdown waits for those).
func (s *Server) Close() error {
	s.cancel()
	s.wg.Wait()
	return nil
}

// notAllowed is the 405 of a path that takes other methods.
func notAllowed(w http.ResponseWriter, r *http.Request, allow []string) {
	w.Header().Set("Allow", strings.Join(allow, ", "))
	writeError(w, errorf(http.StatusMethodNotAllowed, "%s %s: allowed are %s", r.Method, r.URL.Path, strings.Join(allow, ", ")))
}

// apiError is an error with its HTTP status.
type apiError struct {
	status int
	msg    string
}

func (e *apiError) Error() string { return e.msg }

func errorf(status int, format string, args ...any) error {
	return &apiError{status: status, msg: fmt.Sprintf(format, args...)}
}

// writeError writes every error of the API: {"error": "..."} with the
// status an apiError carries, 507 when a stream is at its limit, 503 when
// JetStream does not answer, else 500.
func writeError(w http.ResponseWriter, err error) {
	status := http.StatusInternalServerError
	var (
		ae  *apiError
		mbe *http.MaxBytesError
		ne  net.Error
	)
	switch {
	case errors.As(err, &ae):
		status = ae.status
	case errors.As(err, &mbe):
		status, err = http.StatusRequestEntityTooLarge, fmt.Errorf("the request is larger than %d bytes", mbe.Limit)
	case errors.As(err, &ne) && ne.Timeout() && !errors.Is(err, context.DeadlineExceeded):
		status, err = http.StatusRequestTimeout, fmt.Errorf("the request took too long to arrive: %w", err)
	case store.IsFull(err):
		status, err = http.StatusInsufficientStorage, fmt.Errorf("the store is full (judge serve --store-size): %w", err)
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, jetstream.ErrNoHeartbeat),
		errors.Is(err, jetstream.ErrJetStreamNotEnabled):
		status, err = http.StatusServiceUnavailable, fmt.Errorf("the store does not answer: %w", err)
	}
	writeJSON(w, status, map[string]string{"error": err.Error()})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.Encode(v)
}

// decodeJSON decodes a request body strictly into v, with messages that
// name the field at fault.
func decodeJSON(r io.Reader, v any) error {
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	err := dec.Decode(v)
	var (
		se  *json.SyntaxError
		te  *json.UnmarshalTypeError
		mbe *http.MaxBytesError
	)
	switch {
	case err == nil:
		if dec.More() {
			return errorf(http.StatusBadRequest, "bad JSON: more than one value in the body")
		}
		return nil
	case errors.As(err, &mbe):
		return err
	case errors.Is(err, io.EOF):
		return errorf(http.StatusBadRequest, "bad JSON: an empty body")
	case errors.Is(err, io.ErrUnexpectedEOF):
		return errorf(http.StatusBadRequest, "bad JSON: the body ends early")
	case errors.As(err, &se):
		return errorf(http.StatusBadRequest, "bad JSON at byte %d: %v", se.Offset, err)
	case errors.As(err, &te):
		if te.Field == "" {
			return errorf(http.StatusBadRequest, "bad JSON: want an object, got %s", te.Value)
		}
		return errorf(http.StatusBadRequest, "field %s: want a %s, got %s", te.Field, te.Type, te.Value)
	}
	return errorf(http.StatusBadRequest, "bad JSON: %s", err.Error())
}

var (
	idRE = regexp.MustCompile(`^[0-9a-f]{20}$`)
	// subIDRE is a submission's id: ours (idRE), or one the jury chose
	// through the Contest API (a CLICS ID without dots, which the
	// buckets' keys use as separators)
	subIDRE    = regexp.MustCompile(`^[A-Za-z0-9_-]{1,36}$`)
	userRE     = regexp.MustCompile(`^[A-Za-z0-9._-]{1,64}$`)
	filenameRE = regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9._+-]{0,99}$`)
	problemRE  = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,63}$`)
)

// handleHealth is 200 when JetStream answers and the view has its first
// values, else 503; why is an admin's to know (it names servers and
// addresses).
func (s *Server) handleHealth(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), 5*time.Second)
	defer cancel()
	err := s.cfg.Store.Ping(ctx)
	if err == nil {
		err = s.view.check()
	}
	if err != nil {
		out := map[string]string{"status": "unavailable"}
		if u := userFrom(r.Context()); u != nil && u.Admin() {
			out["error"] = err.Error()
		}
		writeJSON(w, http.StatusServiceUnavailable, out)
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
}
