package problems

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"regexp"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/optjudge/optjudge/checkers"
	"github.com/optjudge/optjudge/problems/specfile"
)

// Spec is the decoded problem.yaml. The format, with its defaults:
//
//	name: rotation-game          # required; [a-z0-9][a-z0-9-]*, the directory's name
//	title: The Rotation Game     # required
//	sources: [UVa 1343]          # optional list of strings
//	limits:
//	  time_limit: 4              # seconds of CPU per test file (default 1)
//	  memory: 256                # MiB of peak resident memory (default 2048)
//	  output: 8                  # MiB of standard output (default 8)
//	checker:
//	  name: rotation-game        # a built-in checker (default tokens)
//	  options: {}                # string -> string, checker specific
//	puzzle: puzzle.yaml          # the puzzle's definition (see package puzzle)
//	reference: puzzle            # the definition's reference solver (optional)
//	validator: puzzle            # the definition's input validator (optional)
//
// A problem with a puzzle definition (puzzle:, or a puzzle.yaml beside
// problem.yaml) is judged by it: its checker (checker.name: puzzle, whose
// one option, mode, replaces the definition's), its reference solver and
// its input validator are the defaults. checker.name, reference and
// validator may also name a puzzle shipped with the judge (an embedded
// problem's name: clocks, eight-puzzle, fifteen-puzzle, ...): see
// problems/puzzle.go.
//
// A checker may instead be a program of the problem directory, built with
// the judge's language table and called by one of two protocols:
//
//	checker:
//	  program: checker/check.cpp # a source file, or a directory holding one
//	  protocol: testlib          # testlib (default) or kattis
//	  args: []                   # extra arguments (Kattis validator_flags)
//	input_validators:            # programs run on every input; exit 42 is valid
//	  - validators/validate.py
//
// An interactive problem names its interactor (see InteractorSpec):
//
//	interactor:
//	  program: interactor.cpp    # a source file, or a directory holding one
//	  protocol: testlib          # testlib (default) or kattis
//	  args: []                   # extra arguments
//
// A Kattis problem package (data/ instead of testdata/) has a problem.yaml
// of its own: see kattis.Spec.
//
// Decoding is strict: an unknown key, a wrong type or an impossible value is an
// error of the form "problem.yaml:7: limits.time_limit: must be > 0".
type Spec struct {
	Name    string      `yaml:"name"`
	Title   string      `yaml:"title"`
	Sources []string    `yaml:"sources"`
	Limits  LimitsSpec  `yaml:"limits"`
	Checker CheckerSpec `yaml:"checker"`
	// Puzzle is the path of the problem's puzzle definition.
	Puzzle    string `yaml:"puzzle"`
	Reference string `yaml:"reference"`
	Validator string `yaml:"validator"`
	// InputValidators are programs of the problem, Kattis input validators.
	InputValidators []string `yaml:"input_validators"`
	// Interactor makes the problem interactive: a program of the problem
	// that talks with the submission.
	Interactor *InteractorSpec `yaml:"interactor"`

	file  string
	lines map[string]int // dotted key path -> line of its value
	// anyName: the name is a Kattis package's directory, whatever it is
	// (Problem.checkName reports one the format disallows)
	anyName bool
}

// LimitsSpec holds the limits in the ICPC/Kattis units.
type LimitsSpec struct {
	TimeLimit float64 `yaml:"time_limit"` // seconds of CPU per test file
	Memory    float64 `yaml:"memory"`     // MiB
	Output    float64 `yaml:"output"`     // MiB
}

// CheckerSpec names a built-in checker and its options, or a checker
// program of the problem and its protocol.
type CheckerSpec struct {
	Name     string            `yaml:"name"`
	Options  map[string]string `yaml:"options"`
	Program  string            `yaml:"program"`  // a file or directory of the problem
	Protocol string            `yaml:"protocol"` // testlib (default) or kattis
	Args     []string          `yaml:"args"`     // extra arguments for the program
}

// InteractorSpec is an interactive problem's interactor: a program of the
// problem run beside the submission, each one's standard output the
// other's standard input, by one of two protocols. testlib (Codeforces,
// Polygon): `interactor input_file output_file answer_file`, exit 0 accepts
// (1 wrong answer, 2 presentation error, 3 the interactor failed), and the
// checker then judges what it wrote to output_file against the answer.
// kattis: `interactor input_file answer_file feedback_dir/ [args]`, exit 42
// accepts, 43 rejects, and no checker is given.
type InteractorSpec struct {
	Program  string   `yaml:"program"`  // a file or directory of the problem
	Protocol string   `yaml:"protocol"` // testlib (default) or kattis
	Args     []string `yaml:"args"`     // extra arguments for the program
}

// Defaults are the values a problem.yaml starts from.
func Defaults() Spec {
	return Spec{
		Limits:  LimitsSpec{TimeLimit: 1, Memory: 2048, Output: 8},
		Checker: CheckerSpec{Name: "tokens"},
	}
}

// Parse decodes a problem.yaml read from r; name is the file name used in
// error messages. It applies the defaults but does not validate names of
// checkers or solvers: see Validate.
func Parse(r io.Reader, name string) (*Spec, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", name, err)
	}
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return nil, specfile.Syntax(name, err)
	}
	s := Defaults()
	s.file = name
	s.lines = map[string]int{}
	if len(root.Content) == 0 {
		return nil, &specfile.Error{File: name, Msg: "empty file"}
	}
	if err := specfile.DuplicateKeys(name, root.Content[0], specfile.MaxKeys); err != nil {
		return nil, err
	}
	specfile.CollectLines(root.Content[0], "", s.lines)
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&s); err != nil {
		return nil, specfile.Decode(name, err, root.Content[0])
	}
	return &s, nil
}

var nameRE = regexp.MustCompile(`^[a-z0-9][a-z0-9-]*$`)

// Validate checks every field's value, the names of the checker, reference
// and validator and the checker's options, and reports all problems at once.
func (s *Spec) Validate() error {
	var es specfile.Errors
	bad := func(field, format string, args ...any) {
		es = append(es, &specfile.Error{File: s.file, Line: s.lineOf(field), Field: field, Msg: fmt.Sprintf(format, args...)})
	}
	switch {
	case s.Name == "":
		bad("name", "required")
	case !nameRE.MatchString(s.Name) && !s.anyName:
		bad("name", "%q: use lower-case letters, digits and '-'", s.Name)
	}
	if strings.TrimSpace(s.Title) == "" {
		bad("title", "required")
	}
	for i, src := range s.Sources {
		if strings.TrimSpace(src) == "" {
			bad(fmt.Sprintf("sources[%d]", i), "empty source")
		}
	}
	l := s.Limits
	switch {
	case math.IsNaN(l.TimeLimit) || l.TimeLimit <= 0:
		bad("limits.time_limit", "must be > 0 seconds, got %v", l.TimeLimit)
	case l.TimeLimit > 3600:
		bad("limits.time_limit", "%v seconds is more than an hour", l.TimeLimit)
	}
	if math.IsNaN(l.Memory) || l.Memory < 1 || l.Memory > 1<<20 {
		bad("limits.memory", "must be between 1 and 1048576 MiB, got %v", l.Memory)
	}
	if math.IsNaN(l.Output) || l.Output <= 0 || l.Output > 1<<14 {
		bad("limits.output", "must be > 0 and at most 16384 MiB, got %v", l.Output)
	}
	s.validateChecker(bad)
	s.validateInteractor(bad)
	for i, v := range s.InputValidators {
		if msg := programPath(v); msg != "" {
			bad(fmt.Sprintf("input_validators[%d]", i), "%s", msg)
		}
	}
	if s.Puzzle != "" {
		if msg := programPath(s.Puzzle); msg != "" {
			bad("puzzle", "%s", msg)
		}
	}
	if s.Reference != "" && !isPuzzleName(s.Reference) {
		bad("reference", "unknown reference solver %q (want %s)", s.Reference, puzzleNames())
	}
	if s.Validator != "" && !isPuzzleName(s.Validator) {
		bad("validator", "unknown input validator %q (want %s)", s.Validator, puzzleNames())
	}
	if len(es) > 0 {
		return es
	}
	return nil
}

// validateChecker checks the checker section: a built-in name with its
// options, or a program with its protocol, never both.
func (s *Spec) validateChecker(bad func(field, format string, args ...any)) {
	c := s.Checker
	if c.Program == "" {
		if c.Protocol != "" {
			bad("checker.protocol", "only for a checker program (checker.program)")
		}
		if len(c.Args) > 0 {
			bad("checker.args", "only for a checker program (checker.program)")
		}
		var err error
		if isPuzzleName(c.Name) {
			_, err = checkers.PuzzleMode(c.Options)
		} else {
			_, err = checkers.New(c.Name, c.Options)
		}
		if err != nil {
			var oe *checkers.OptionError
			switch {
			case errors.As(err, &oe):
				bad("checker.options."+oe.Key, "%s", oe.Msg)
			default:
				bad("checker.name", "%v", err)
			}
		}
		return
	}
	if _, named := s.lines["checker.name"]; named {
		bad("checker.name", "give either a built-in checker's name or a program, not both")
	}
	if len(c.Options) > 0 {
		bad("checker.options", "options are for built-in checkers; a program takes args")
	}
	if msg := programPath(c.Program); msg != "" {
		bad("checker.program", "%s", msg)
	}
	if c.Protocol != "" {
		if _, err := checkers.ParseProtocol(c.Protocol); err != nil {
			bad("checker.protocol", "%v", err)
		}
	}
}

// validateInteractor checks the interactor section: a program and its
// protocol; a kattis interactor decides alone, so no checker is given.
func (s *Spec) validateInteractor(bad func(field, format string, args ...any)) {
	it := s.Interactor
	if it == nil {
		return
	}
	if msg := programPath(it.Program); msg != "" {
		bad("interactor.program", "%s", msg)
	}
	if it.Protocol == "" {
		return
	}
	proto, err := checkers.ParseProtocol(it.Protocol)
	if err != nil {
		bad("interactor.protocol", "%v", err)
		return
	}
	if _, given := s.lines["checker"]; given && proto == checkers.Kattis {
		bad("checker", "a kattis interactor judges the test itself: give no checker (a testlib one's output goes to the checker)")
	}
}

// InteractorProtocol is the interactor's protocol (testlib by default).
func (it *InteractorSpec) InteractorProtocol() checkers.Protocol {
	if p, err := checkers.ParseProtocol(it.Protocol); err == nil {
		return p
	}
	return checkers.Testlib
}

// programPath says what is wrong with the path of a program of the problem,
// or "": it must be a relative, slash-separated path inside the directory.
func programPath(p string) string {
	switch {
	case strings.TrimSpace(p) == "":
		return "empty path"
	case strings.HasPrefix(p, "/") || strings.Contains(p, `\`):
		return fmt.Sprintf("%q: want a path relative to the problem directory, with slashes", p)
	case !fs.ValidPath(p) || p == ".":
		return fmt.Sprintf("%q: want a clean path inside the problem directory", p)
	}
	return ""
}

// lineOf returns the line of field, or of its nearest parent present in the
// file, or 0 when the whole section is missing.
func (s *Spec) lineOf(field string) int { return specfile.LineOf(s.lines, field) }
