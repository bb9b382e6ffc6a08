package service

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net/http"
	"regexp"
	"strings"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/optjudge/optjudge/judge"
	"github.com/optjudge/optjudge/judge/bytesize"
)

// ServerConfig configures the HTTP API.
type ServerConfig struct {
	Store   *Store
	Library *Library
	// Tokens are the users; nil: every request is the local admin (the
	// caller must then listen on loopback only).
	Tokens    []Token
	Languages *judge.Languages // nil: judge.DefaultLanguages()
	MaxSource bytesize.Size    // 0: 256 KiB
	// MaxPackage bounds an uploaded problem package; 0: 64 MiB.
	MaxPackage bytesize.Size
	// Verify checks an uploaded problem before it is accepted; nil: it
	// is only loaded (problems.Load validates its spec and files).
	Verify func(ctx context.Context, p *Problem) error
	Log    *log.Logger // nil: silent
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

	ctx    context.Context // ends event streams at shutdown
	cancel context.CancelFunc
	done   chan struct{}
}

// NewServer starts following the store and returns the API.
func NewServer(cfg ServerConfig) *Server {
	if cfg.Languages == nil {
		cfg.Languages = judge.DefaultLanguages()
	}
	if cfg.MaxSource == 0 {
		cfg.MaxSource = 256 * bytesize.KiB
	}
	if cfg.MaxPackage == 0 {
		cfg.MaxPackage = 64 * bytesize.MiB
	}
	s := &Server{cfg: cfg, mux: http.NewServeMux(), log: cfg.Log, done: make(chan struct{})}
	if s.log == nil {
		s.log = log.New(io.Discard, "", 0)
	}
	s.ctx, s.cancel = context.WithCancel(context.Background())
	s.metrics = newMetrics(s)
	s.hub = newHub()
	s.view = newView(func(old, new *Submission) {
		s.metrics.observe(old, new)
		s.hub.publish(new)
	})
	s.pages = newPages(s)
	s.routes()
	go func() {
		defer close(s.done)
		go s.sweep(s.ctx)
		go s.watchMaxDeliveries(s.ctx)
		s.view.run(s.ctx, cfg.Store.submissions)
	}()
	s.view.waitReady(10 * time.Second)
	return s
}

func (s *Server) routes() {
	api := http.NewServeMux()
	api.HandleFunc("POST /api/v1/submissions", s.handleSubmit)
	api.HandleFunc("GET /api/v1/submissions", s.handleList)
	api.HandleFunc("GET /api/v1/submissions/{id}", s.handleSubmission)
	api.HandleFunc("GET /api/v1/submissions/{id}/events", s.handleEvents)
	api.HandleFunc("GET /api/v1/submissions/{id}/drawing.svg", s.handleDrawing)
	api.HandleFunc("GET /api/v1/events", s.handleAllEvents)
	api.HandleFunc("GET /api/v1/problems", s.handleProblems)
	api.HandleFunc("POST /api/v1/problems", admin(s.handleUpload))
	api.HandleFunc("GET /api/v1/problems/{name}", s.handleProblem)
	api.HandleFunc("POST /api/v1/problems/{name}/rejudge", admin(s.handleRejudge))
	api.HandleFunc("GET /api/v1/problems/{name}/rejudges/{id}", admin(s.handleRejudgeResult))
	api.HandleFunc("GET /api/v1/queue", admin(s.handleQueue))
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
			w.Header().Set("Allow", strings.Join(allow, ", "))
			writeError(w, errorf(http.StatusMethodNotAllowed, "%s %s: allowed are %s", r.Method, r.URL.Path, strings.Join(allow, ", ")))
			return
		}
		writeError(w, errorf(http.StatusNotFound, "no such endpoint: %s %s", r.Method, r.URL.Path))
	})
	s.mux.Handle("/api/", s.authenticate(api))
	s.mux.HandleFunc("GET /healthz", s.handleHealth)
	s.mux.Handle("GET /metrics", s.metrics.handler())
	s.pages.routes(s.mux)
	// A browser's request from another site that would change something
	// (a form post, a fetch) is refused, the API's too: in local mode the
	// API takes any request from loopback, a page of any site included.
	s.handler = http.MaxBytesHandler(http.NewCrossOriginProtection().Handler(s.mux), int64(s.cfg.MaxPackage)+1<<20)
}

// Handler is the API's handler, for an http.Server or httptest.
func (s *Server) Handler() http.Handler { return s.handler }

// HTTPServer wraps the API in an http.Server with timeouts; event streams
// extend their own write deadlines.
func (s *Server) HTTPServer(addr string) *http.Server {
	hs := &http.Server{
		Addr:              addr,
		Handler:           s.handler,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       time.Minute,
		WriteTimeout:      time.Minute,
		IdleTimeout:       2 * time.Minute,
		ErrorLog:          s.log,
	}
	hs.RegisterOnShutdown(s.cancel) // event streams end; Shutdown waits for them
	return hs
}

// Close stops following the store and ends the event streams.
func (s *Server) Close() error {
	s.cancel()
	<-s.done
	return nil
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
// status an apiError carries, 503 when JetStream does not answer, else 500.
func writeError(w http.ResponseWriter, err error) {
	status := http.StatusInternalServerError
	var ae *apiError
	var mbe *http.MaxBytesError
	switch {
	case errors.As(err, &ae):
		status = ae.status
	case errors.As(err, &mbe):
		status, err = http.StatusRequestEntityTooLarge, fmt.Errorf("the request is larger than %d bytes", mbe.Limit)
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
	idRE       = regexp.MustCompile(`^[0-9a-f]{20}$`)
	userRE     = regexp.MustCompile(`^[A-Za-z0-9._-]{1,64}$`)
	filenameRE = regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9._+-]{0,99}$`)
	problemRE  = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,63}$`)
)

func (s *Server) handleHealth(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), 5*time.Second)
	defer cancel()
	if err := s.cfg.Store.Ping(ctx); err != nil {
		writeJSON(w, http.StatusServiceUnavailable, map[string]string{"status": "unavailable", "error": err.Error()})
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
}
