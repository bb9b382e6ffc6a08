// Package checkers judges a contestant's output. A checker sees the test's
// input, the contestant's output and, where it has one, the answer file; it
// returns a verdict with a message in the puzzle's own terms.
//
// A wrong output is a Result with Verdict WA and a nil error. A non-nil error
// means the checker itself could not work (an unreadable answer, a reference
// that contradicts a valid contestant move sequence) and is reported as JE,
// never as AC.
package checkers

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/optjudge/optjudge/reference/puzzle/judging"
	"github.com/optjudge/optjudge/verdict"
)

// Files is what a checker judges.
type Files struct {
	Input  []byte // the test input
	Output []byte // the contestant's output
	Answer []byte // the answer file; nil when there is none
}

// Result is a checker's verdict: AC or WA, with a message for people.
type Result struct {
	Verdict verdict.Verdict
	Message string
	// Score and Multiplier are what a Kattis validator wrote to score.txt
	// and score_multiplier.txt in its feedback directory; nil when it
	// wrote none (and for every other checker). Whether the problem takes
	// them is the grading's business.
	Score, Multiplier *float64
	// Finding is what a puzzle's checker found wrong, as facts, for a
	// WA; Message is rendered from it. Nil for an AC and for every other
	// checker, whose message is only text.
	Finding *judging.Finding
}

// Checker judges one test. Implementations are safe for concurrent use.
type Checker interface {
	Check(ctx context.Context, f Files) (Result, error)
}

// Preparer is a checker with work to do before its first check (a
// puzzle's tables to build or read): the judge has it done before it
// times any run.
type Preparer interface {
	Prepare(ctx context.Context) error
}

// Options are a checker's settings from problem.yaml (checker.options).
type Options map[string]string

// OptionError is returned by New for a bad option, so the problem loader can
// point at the option's line in problem.yaml.
type OptionError struct {
	Key string
	Msg string
}

func (e *OptionError) Error() string { return fmt.Sprintf("option %s: %s", e.Key, e.Msg) }

type builtin struct {
	doc  string
	make func(Options) (Checker, error)
}

var builtins = map[string]builtin{}

func register(name, doc string, make func(Options) (Checker, error)) {
	builtins[name] = builtin{doc, make}
}

// New returns the built-in checker called name, configured by opts.
func New(name string, opts Options) (Checker, error) {
	b, ok := builtins[name]
	if !ok {
		return nil, fmt.Errorf("unknown checker %q (built-in: %s)", name, strings.Join(Names(), ", "))
	}
	return b.make(opts)
}

// Names lists the built-in checkers, sorted.
func Names() []string {
	var ns []string
	for n := range builtins {
		ns = append(ns, n)
	}
	sort.Strings(ns)
	return ns
}

// noOptions rejects every option, for checkers that take none.
func noOptions(opts Options) error {
	for k := range opts {
		return &OptionError{Key: k, Msg: "unknown option (this checker takes none)"}
	}
	return nil
}

func accepted(msg string) Result { return Result{Verdict: verdict.AC, Message: msg} }

func wrong(format string, args ...any) Result {
	return Result{Verdict: verdict.WA, Message: fmt.Sprintf(format, args...)}
}

// answerUser is implemented by checkers that read Files.Answer.
type answerUser interface{ UsesAnswer() bool }

// UsesAnswer reports whether c reads the answer file. The puzzle checkers do
// not (they ask the reference), so callers need not make an answer for them;
// a checker that needs one and gets none fails with an error, never AC.
func UsesAnswer(c Checker) bool {
	u, ok := c.(answerUser)
	return ok && u.UsesAnswer()
}
