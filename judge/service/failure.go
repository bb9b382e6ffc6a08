package service

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"unicode/utf8"

	"github.com/optjudge/optjudge/checkers/explain"
	"github.com/optjudge/optjudge/judge"
	"github.com/optjudge/optjudge/reference/puzzle/judging"
	"github.com/optjudge/optjudge/verdict"
)

// Failure is what a judging keeps of its first failing test when the
// checker rejected its output (WA), for the pages: the checker's message,
// the drawing of the case that went wrong (checkers/explain, for a puzzle
// problem), and the test's input and the program's output, cut.
// It is stored beside the report, in judge-reports, as
// <report>.failure.
//
// Who sees what: an admin sees everything, and so does a contestant of a
// sample test, whose input and answer the statement shows anyway; of a
// secret test a contestant sees nothing of it (see sight.failure): the
// drawing is the test's input, the message the checker's.
type Failure struct {
	Test    string `json:"test"`
	Sample  bool   `json:"sample"`
	Message string `json:"message"`

	Drawing     string `json:"drawing,omitempty"` // SVG, the whole explanation
	Description string `json:"description,omitempty"`

	Input      string `json:"input"`  // the first failureExcerpt bytes
	Output     string `json:"output"` // the first failureExcerpt bytes
	InputSize  int    `json:"input_size"`
	OutputSize int    `json:"output_size"`
}

// failureExcerpt is how much of the input and the output a Failure keeps.
const failureExcerpt = 8 << 10

// failureOf is the Failure of a grading's first failing test, nil when it
// was not rejected by the checker (AC, CE, TLE, RE, ...) or its input
// cannot be read. The engine's report carries each test's output
// (TestResult.Output); the input is the problem's.
func failureOf(p *Problem, r *judge.Report) *Failure {
	if r == nil {
		return nil
	}
	i := verdict.FirstRejected(r.Tests, func(t judge.TestResult) verdict.Verdict { return t.Verdict })
	if i < 0 || r.Tests[i].Verdict != verdict.WA {
		return nil
	}
	tr := &r.Tests[i]
	tests, err := p.Package.Tests()
	if err != nil {
		return nil
	}
	for _, t := range tests {
		if t.Name != tr.Name {
			continue
		}
		input, err := t.Input()
		if err != nil {
			return nil
		}
		return newFailure(p, t.Name, t.Group == "sample", input, tr.Output, tr.Message, tr.Finding)
	}
	return nil
}

// newFailure is the Failure of a test whose output the checker rejected
// with message, which a puzzle's checker renders from its finding (nil for
// another checker's): the drawing is made from the finding, never from
// the message.
func newFailure(p *Problem, test string, sample bool, input, output []byte, message string, finding *judging.Finding) *Failure {
	f := &Failure{Test: test, Sample: sample, Message: message,
		Input: excerpt(input), Output: excerpt(output), InputSize: len(input), OutputSize: len(output)}
	if p.Problem == nil {
		return f
	}
	e := explain.Explain(p.PuzzleChecker(), input, output, finding)
	if e == nil {
		return f
	}
	f.Drawing, f.Description = e.SVG(), e.Description()
	return f
}

// excerpt is the start of b as text, cut at a character boundary.
func excerpt(b []byte) string {
	if len(b) <= failureExcerpt {
		return string(b)
	}
	b = b[:failureExcerpt]
	for i := 0; i < utf8.UTFMax && len(b) > 0 && !utf8.Valid(b); i++ {
		b = b[:len(b)-1]
	}
	return string(b)
}

// FailureView is a judging's first failing test as the API shows it to
// one user (see Failure for who sees what: sight.failure).
type FailureView struct {
	Test    string          `json:"test"`
	Verdict verdict.Verdict `json:"verdict"`
	Message string          `json:"message"`
	// Drawing is the address of the drawing, an SVG image; "" when the
	// checker draws nothing.
	Drawing     string  `json:"drawing,omitempty"`
	Description string  `json:"description,omitempty"` // the drawing in words
	Input       *string `json:"input,omitempty"`
	Output      *string `json:"output,omitempty"`
	InputSize   int     `json:"input_size,omitempty"`
	OutputSize  int     `json:"output_size,omitempty"`
}

// storeFailure stores f beside the report called report; "" when f is nil.
func (s *Store) storeFailure(ctx context.Context, report string, f *Failure) (string, error) {
	if f == nil {
		return "", nil
	}
	b, err := json.Marshal(f)
	if err != nil {
		return "", err
	}
	name := report + ".failure"
	if _, err := s.Reports.PutBytes(ctx, name, b); err != nil {
		return "", fmt.Errorf("storing the failure: %w", err)
	}
	return name, nil
}

// Failure reads a judging's Failure; nil when it has none.
func (s *Store) Failure(ctx context.Context, j *Judging) (*Failure, error) {
	if j.Failure == "" {
		return nil, nil
	}
	b, err := s.Reports.GetBytes(ctx, j.Failure)
	if err != nil {
		return nil, fmt.Errorf("failure %s: %w", j.Failure, err)
	}
	var f Failure
	if err := json.Unmarshal(b, &f); err != nil {
		return nil, fmt.Errorf("failure %s: %w", j.Failure, err)
	}
	return &f, nil
}

// latestFailure is the Failure of sub's latest finished judging.
func (s *Server) latestFailure(ctx context.Context, sub *Submission) (*Failure, error) {
	n := len(sub.Judgings)
	if n == 0 {
		return nil, nil
	}
	j, err := s.cfg.Store.Judging(ctx, sub.ID, sub.Judgings[n-1].Request)
	if err != nil {
		return nil, fmt.Errorf("judging %s: %w", judgingKey(sub.ID, sub.Judgings[n-1].Request), err)
	}
	return s.cfg.Store.Failure(ctx, j)
}

// handleDrawing serves the drawing of a submission's first failing test
// as the user may see it, as an SVG image that can run nothing.
func (s *Server) handleDrawing(w http.ResponseWriter, r *http.Request) {
	u := userFrom(r.Context())
	sub, err := s.lookup(r.Context(), u, r.PathValue("id"))
	if err != nil {
		writeError(w, err)
		return
	}
	f, err := s.latestFailure(r.Context(), sub)
	if err != nil {
		writeError(w, err)
		return
	}
	var svg string
	if f != nil {
		_, svg = s.sightOf(u).failure(f, sub.ID)
	}
	if svg == "" {
		writeError(w, errorf(http.StatusNotFound, "submission %s has no drawing", sub.ID))
		return
	}
	writeSVG(w, svg)
}

// writeSVG writes an SVG image under a policy that lets it run and load
// nothing, should it be opened as a page.
func writeSVG(w http.ResponseWriter, svg string) {
	h := w.Header()
	h.Set("Content-Type", "image/svg+xml")
	h.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; sandbox")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Cache-Control", "private, no-cache")
	w.Write([]byte(svg))
}
