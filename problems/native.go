package problems

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"path"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/optjudge/optjudge/bytesize"
	"github.com/optjudge/optjudge/checkers"
	"github.com/optjudge/optjudge/problems/kattis"
	"github.com/optjudge/optjudge/specfile"
)

// nativeSpec is a problem.yaml of the judge's legacy native layout
// (testdata/ where a package has data/). The judge reads it into its one
// problem model, a kattis.Package (see loadNative), and judge convert
// rewrites such a problem as a package. The format, with its defaults:
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
// An interactive problem names its interactor (see nativeInteractor):
//
//	interactor:
//	  program: interactor.cpp    # a source file, or a directory holding one
//	  protocol: testlib          # testlib (default) or kattis
//	  args: []                   # extra arguments
//
// Decoding is strict: an unknown key, a wrong type or an impossible value is an
// error of the form "problem.yaml:7: limits.time_limit: must be > 0".
type nativeSpec struct {
	Name    string        `yaml:"name"`
	Title   string        `yaml:"title"`
	Sources []string      `yaml:"sources"`
	Limits  nativeLimits  `yaml:"limits"`
	Checker nativeChecker `yaml:"checker"`
	// Puzzle is the path of the problem's puzzle definition.
	Puzzle    string `yaml:"puzzle"`
	Reference string `yaml:"reference"`
	Validator string `yaml:"validator"`
	// InputValidators are programs of the problem, Kattis input validators.
	InputValidators []string `yaml:"input_validators"`
	// Interactor makes the problem interactive: a program of the problem
	// that talks with the submission.
	Interactor *nativeInteractor `yaml:"interactor"`

	file  string
	lines map[string]int // dotted key path -> line of its value
	tree  *tree          // what checkTree passed over; nil for none
}

// nativeLimits holds the limits in the ICPC/Kattis units.
type nativeLimits struct {
	TimeLimit float64 `yaml:"time_limit"` // seconds of CPU per test file
	Memory    float64 `yaml:"memory"`     // MiB
	Output    float64 `yaml:"output"`     // MiB
}

// nativeChecker names a built-in checker and its options, or a checker
// program of the problem and its protocol.
type nativeChecker struct {
	Name     string            `yaml:"name"`
	Options  map[string]string `yaml:"options"`
	Program  string            `yaml:"program"`  // a file or directory of the problem
	Protocol string            `yaml:"protocol"` // testlib (default) or kattis
	Args     []string          `yaml:"args"`     // extra arguments for the program
}

// nativeInteractor is an interactive problem's interactor: a program of the
// problem run beside the submission, each one's standard output the
// other's standard input, by one of two protocols. testlib (Codeforces,
// Polygon): `interactor input_file output_file answer_file`, exit 0 accepts
// (1 wrong answer, 2 presentation error, 3 the interactor failed), and the
// checker then judges what it wrote to output_file against the answer.
// kattis: `interactor input_file answer_file feedback_dir/ [args]`, exit 42
// accepts, 43 rejects, and no checker is given.
type nativeInteractor struct {
	Program  string   `yaml:"program"`  // a file or directory of the problem
	Protocol string   `yaml:"protocol"` // testlib (default) or kattis
	Args     []string `yaml:"args"`     // extra arguments for the program
}

// nativeDefaults are the values a problem.yaml starts from.
func nativeDefaults() nativeSpec {
	return nativeSpec{
		Limits:  nativeLimits{TimeLimit: 1, Memory: 2048, Output: 8},
		Checker: nativeChecker{Name: "tokens"},
	}
}

// parseNative decodes a native problem.yaml read from r; name is the file name used in
// error messages. It applies the defaults but does not validate names of
// checkers or solvers: see Validate.
func parseNative(r io.Reader, name string) (*nativeSpec, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", name, err)
	}
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return nil, specfile.Syntax(name, err)
	}
	s := nativeDefaults()
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
func (s *nativeSpec) Validate() error {
	var es specfile.Errors
	bad := func(field, format string, args ...any) {
		es = append(es, &specfile.Error{File: s.file, Line: s.lineOf(field), Field: field, Msg: fmt.Sprintf(format, args...)})
	}
	switch {
	case s.Name == "":
		bad("name", "required")
	case !nameRE.MatchString(s.Name):
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
func (s *nativeSpec) validateChecker(bad func(field, format string, args ...any)) {
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
func (s *nativeSpec) validateInteractor(bad func(field, format string, args ...any)) {
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

// protocol is the interactor's protocol (testlib by default).
func (it *nativeInteractor) protocol() checkers.Protocol {
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
func (s *nativeSpec) lineOf(field string) int { return specfile.LineOf(s.lines, field) }

// checker makes the problem's checker: a puzzle's, a built-in one, or a
// stand-in for a program of the problem, which must exist.
func (s *nativeSpec) checker(fsys fs.FS, ps *puzzles) (checkers.Checker, *kattis.Program, error) {
	c := s.Checker
	if c.Program == "" && isPuzzleName(c.Name) {
		chk, err := ps.checker(c.Name, c.Options)
		if err != nil {
			return nil, nil, err // the definition's, at its file and line
		}
		return chk, nil, nil
	}
	if c.Program == "" {
		chk, err := checkers.New(c.Name, c.Options)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", s.file, err)
		}
		return chk, nil, nil
	}
	if err := s.programExists(fsys, "checker.program", c.Program); err != nil {
		return nil, nil, err
	}
	proto := checkers.Testlib
	if c.Protocol != "" {
		proto, _ = checkers.ParseProtocol(c.Protocol) // Validate checked it
	}
	prog := &kattis.Program{Path: c.Program, Protocol: proto, Args: c.Args}
	return checkers.Unbuilt{Path: c.Program}, prog, nil
}

func (s *nativeSpec) inputValidators(fsys fs.FS) ([]kattis.Program, error) {
	var progs []kattis.Program
	for i, v := range s.InputValidators {
		if err := s.programExists(fsys, fmt.Sprintf("input_validators[%d]", i), v); err != nil {
			return nil, err
		}
		progs = append(progs, kattis.Program{Path: v})
	}
	return progs, nil
}

// programExists checks that the program p of the field exists, and is
// no file that checkTree passed over (a link out of the directory, say).
func (s *nativeSpec) programExists(fsys fs.FS, field, p string) error {
	if passed := s.tree.refused(p); passed != "" {
		return &specfile.Error{File: s.file, Line: s.lineOf(field), Field: field, Msg: fmt.Sprintf("%s: %s is a file the package format forbids (see the warnings)", p, passed)}
	}
	if _, err := fs.Stat(fsys, p); err != nil {
		return &specfile.Error{File: s.file, Line: s.lineOf(field), Field: field, Msg: fmt.Sprintf("%s: %v", p, unwrapPath(err))}
	}
	return nil
}

// loadNative loads a problem of the legacy native layout into the
// package model: its problem.yaml (see nativeSpec), testdata/ as the
// groups sample and secret, its built-in checker or checker program, and
// the puzzles it names. It says, in a warning, how to make it a package.
func loadNative(fsys fs.FS, origin, specName string, data []byte, t *tree) (*Problem, error) {
	s, err := parseNative(bytes.NewReader(data), specName)
	if err != nil {
		return nil, err
	}
	s.tree = t
	s.applyPuzzle(fsys)
	if err := s.Validate(); err != nil {
		return nil, err
	}
	ps, err := s.loadPuzzles(fsys, origin)
	if err != nil {
		return nil, err
	}
	chk, prog, err := s.checker(fsys, ps)
	if err != nil {
		return nil, err
	}
	validators, err := s.inputValidators(fsys)
	if err != nil {
		return nil, err
	}
	if it := s.Interactor; it != nil {
		if err := s.programExists(fsys, "interactor.program", it.Program); err != nil {
			return nil, err
		}
	}
	p := &Problem{
		Name:    s.Name,
		Title:   s.Title,
		Sources: s.Sources,
		Limits: Limits{
			Time:   time.Duration(s.Limits.TimeLimit * float64(time.Second)),
			Memory: bytesize.Size(s.Limits.Memory * float64(bytesize.MiB)),
			Output: bytesize.Size(s.Limits.Output * float64(bytesize.MiB)),
		},
		Package: kattis.Package{
			Layout:          kattis.LayoutNative,
			FS:              fsys,
			Origin:          origin,
			Checker:         chk,
			CheckerProgram:  prog,
			InputValidators: validators,
		},
	}
	if err := p.usePuzzles(ps, s.Reference, s.Validator); err != nil {
		return nil, err
	}
	if err := p.nativePackage(s); err != nil {
		return nil, err
	}
	p.Package.Warnings = append(p.Package.Warnings, kattis.Warning{File: specName, Msg: p.Notice()})
	if base := path.Base(filepath.ToSlash(origin)); origin != "" && !strings.HasPrefix(origin, "embedded:") && base != s.Name && base != "." {
		p.Package.Warnings = append(p.Package.Warnings, kattis.Warning{File: specName, Line: s.lineOf("name"), Field: "name",
			Msg: fmt.Sprintf("%q is not the directory's name %q: the format wants them the same (the problem is called %s here)", s.Name, base, s.Name)})
	}
	return p, nil
}

// Notice says, for a problem of the legacy native layout, that judge
// convert makes it a package; "" for a package.
func (p *Problem) Notice() string {
	if p.Package.Layout != kattis.LayoutNative {
		return ""
	}
	return fmt.Sprintf("the judge's legacy native layout (testdata/); judge convert %s rewrites it as a Kattis/ICPC package", convertArg(p.Package.Origin))
}

// convertArg is the directory to name to judge convert.
func convertArg(origin string) string {
	if strings.ContainsAny(origin, " '\"$`\\") {
		return strconv.Quote(origin)
	}
	return origin
}

// nativePackage makes the package model of a native problem from its
// Spec and testdata/: pass-fail (interactive with an interactor), the
// groups sample and secret, flat, and the time limit problem.yaml gives,
// held to the problem's TimeRules.
func (p *Problem) nativePackage(s *nativeSpec) error {
	pk := &p.Package
	root, err := nativeGroups(pk.FS, pk.Origin)
	if err != nil {
		return err
	}
	pk.Groups = root
	pk.Validation.Program = pk.CheckerProgram
	if it := s.Interactor; it != nil {
		pk.Type.Interactive, pk.Validation.Interactive = true, true
		pk.Validation.Program = &kattis.Program{Path: it.Program, Protocol: it.protocol(), Args: it.Args}
	}
	pk.Time = kattis.TimeLimitRules{Given: true, Source: p.file("problem.yaml"), Limit: p.Limits.Time,
		Multipliers: kattis.TimeMultipliers{ACToTimeLimit: DefaultTimeRules.AC, TimeLimitToTLE: DefaultTimeRules.TLE, Resolution: kattis.TimeMultipliers2023.Resolution}}
	return nil
}

// file names a file of the problem as its origin does.
func (p *Problem) file(name string) string { return kattis.Test{Origin: p.Package.Origin}.Path(name) }

// nativeGroups is the tree of a native problem: testdata/ with sample and
// secret, each a flat list of tests.
func nativeGroups(fsys fs.FS, origin string) (*kattis.Group, error) {
	root := &kattis.Group{Dir: "testdata", Settings: kattis.GroupSettings{Grading: "default", AcceptScore: 1, Range: kattis.FullRange, Unbounded: true}}
	for _, name := range []string{"sample", "secret"} {
		dir := path.Join("testdata", name)
		ts, err := kattis.ListTests(fsys, dir, name, origin)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		g := &kattis.Group{Name: name, Dir: dir, Settings: root.Settings}
		g.Settings.Test.Group = name
		g.Settings.Test.FullFeedback = name == "sample"
		for i := range ts {
			g.Items = append(g.Items, kattis.Item{Test: &ts[i]})
		}
		root.Items = append(root.Items, kattis.Item{Group: g})
	}
	return root, nil
}
