// Package kattis is the model of a Kattis/ICPC problem package, as
// problemtools and BAPCtools read one: problem.yaml in every version
// (legacy, 2023-07, 2025-09: Spec, Parse), the test data tree of groups
// and tests with their settings (Group, Test, TestConfig), constants,
// include/ files and attachments, time limits and their multipliers, the
// example submissions with their expected results (ExampleSubmission,
// Expectation), and the grading as pure functions over the tree (Grade,
// DefaultGrader, Unneeded, Verdict). Package is the whole, read once.
//
// It is the judge's one problem model. It knows no native problem.yaml
// (the judge's legacy dialect): package problems reads that into a
// Package of its own (flat sample and secret groups), and brings the
// puzzle extension (OwnChecker).
package kattis

import (
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/optjudge/optjudge/bytesize"
	"github.com/optjudge/optjudge/checkers"
	"github.com/optjudge/optjudge/specfile"
)

// Package is a problem in the terms of the Kattis/ICPC problem package
// format: its type, its test data groups, its validators and graders, and
// how its time limit is found. A problem in the judge's legacy native
// layout has a Package too: pass-fail, the groups sample and secret.
//
// Everything here is data, read once by Load; the judge decides with the
// pure functions beside it (Grade, TimeMultipliers.Derive,
// ExampleSubmission.Check) and runs the programs itself.
type Package struct {
	// Layout says how the directory is laid out: a Kattis package, or
	// the native layout this Package was made for.
	Layout Layout
	// FS is the problem directory.
	FS fs.FS
	// Origin says where the directory came from, for messages: a path,
	// or "embedded:NAME".
	Origin string
	// Spec is the package's own problem.yaml; nil in the native layout.
	Spec *Spec

	// Checker judges outputs: the default output validator's (see
	// CheckerFor for a test's own), a stand-in for a program of the
	// problem (checkers.Unbuilt until the judge builds CheckerProgram),
	// or a native problem's checker.
	Checker checkers.Checker
	// OwnChecker is a checker the judge brings for the package, set
	// before Load: a puzzle definition's beside problem.yaml (see package
	// problems). It judges outputs in place of the default output
	// validator, where the package has no output validator of its own.
	OwnChecker checkers.Checker
	// CheckerProgram is the checker when it is a program of the problem:
	// a Kattis package's output validator, or a native checker.program.
	// Nil for an interactive problem: its validator is Validation.Program.
	CheckerProgram *Program
	// InputValidators are the problem's validator programs (Kattis
	// protocol: the input on stdin, exit code 42 means valid).
	InputValidators []Program

	// Format is the package's problem_format_version, as a version family.
	Format FormatVersion
	// Type is the problem's type: pass-fail by default, scoring and
	// interactive as problem.yaml says (2023-07 and later: type; legacy:
	// type and validation).
	Type ProblemType
	// Warnings are what Load found odd but could read: unknown keys in a
	// Kattis package's problem.yaml and testdata.yaml or test_group.yaml,
	// keys of another format version, deprecated directories. The native
	// layout has none: it is strict, and any oddity is an error.
	Warnings []Warning
	// Defects are what the package's format forbids but the judge can
	// still judge: a directory name the format disallows, an included
	// file of include/default/ that a language's directory gives too.
	// judge verify reports each as an error; judge run goes ahead.
	Defects []Warning

	// Groups is the test data tree: data/ (Name "") with sample and secret
	// below it, each test a leaf with its effective settings, as Load read
	// it (Tests reads the directories afresh). A native problem's tree is
	// testdata/ with sample and secret, flat.
	Groups *Group
	// GroupRules says how the groups grade: by testdata.yaml as legacy
	// and problemtools have it, or by test_group.yaml as in 2025-09.
	GroupRules GroupRules
	// InvalidInputs, ValidOutputs and InvalidOutputs are the 2023-07 and
	// 2025-09 directories data/invalid_input, data/valid_output and
	// data/invalid_output: tests of the validators, never judged. Nil
	// when absent.
	InvalidInputs  *Group
	ValidOutputs   *Group
	InvalidOutputs *Group

	// Validation says how outputs are judged.
	Validation OutputValidation
	// AnswerValidators check every .ans file (the BAPCtools extension,
	// answer_validators/): run as `validator input_file [args] < answer`,
	// exit 42 valid.
	AnswerValidators []Program
	// Graders is the legacy custom grader (graders/, at most one), used by
	// the groups whose testdata.yaml says grading: custom.
	Graders []Program
	// StaticValidator is the 2025-09 static_validator/ program; nil when
	// the package has none.
	StaticValidator *Program

	// Time says where the time limit comes from and how it is derived.
	Time TimeLimitRules

	// Objective is "max" (the default) or "min": the legacy
	// grading.objective of a scoring problem. 2025-09 always maximises.
	Objective string

	// Submit says what a submission may be and how it is built: the
	// languages allowed, the code limit, the compilation guarantees.
	Submit SubmitRules

	// Constants are problem.yaml's constants (nil when it has none),
	// substituted in the files the format lists: see Constants and
	// ReadFile.
	Constants Constants

	// interactions are the .interaction files of data/sample without a
	// test of their own (see Samples).
	interactions []string
	// defaultCheckers are the default output validator's checkers, by
	// the tests' flags joined with NUL (see CheckerFor).
	defaultCheckers map[string]checkers.Checker
}

// SubmitRules are what a Kattis package's problem.yaml says of the
// submissions beyond the limits of their runs.
type SubmitRules struct {
	// Languages are the Kattis language codes a submission may be in
	// (problem.yaml's languages); nil: all.
	Languages []string
	// CodeLimit bounds the total size of a submission's own files
	// (limits.code, before the included files); 0: not given.
	CodeLimit bytesize.Size
	// CompilationTime and CompilationMemory are what a build is
	// guaranteed (limits.compilation_time, compilation_memory): the judge
	// gives a build at least these; 0: not given.
	CompilationTime   time.Duration
	CompilationMemory bytesize.Size
	// ValidationOutput bounds what the output validator writes
	// (standard output, standard error, the feedback directory's files;
	// limits.validation_output); 0: not given.
	ValidationOutput bytesize.Size
	// AllowFileWriting: submissions may create, change and remove files
	// in their working directory (allow_file_writing; 2025-09's default
	// is false, earlier versions' true).
	AllowFileWriting bool
}

// AllowsLanguage says whether a submission in the language of Kattis
// code code may be judged.
func (r SubmitRules) AllowsLanguage(code string) bool {
	return r.Languages == nil || slices.Contains(r.Languages, code)
}

// Warning is something a package gets wrong or old that does not stop it
// from loading.
type Warning struct {
	File  string // as the problem's origin names it
	Line  int    // 0 when unknown
	Field string // dotted key path, or ""
	Msg   string
}

// String shows the warning as "file:line: field: msg".
func (w Warning) String() string {
	return (&specfile.Error{File: w.File, Line: w.Line, Field: w.Field, Msg: w.Msg}).Error()
}

// FormatVersion is a family of problem_format_version values that read the
// same way.
type FormatVersion int

const (
	// FormatLegacy: "legacy", "legacy-icpc", or no problem_format_version.
	FormatLegacy FormatVersion = iota
	// Format2023: "2023-07-draft" and "2023-07", read as problemtools
	// reads them (testdata.yaml with the legacy keys; test_group.yaml, when
	// a package has one, as in 2025-09).
	Format2023
	// Format2025: "2025-09", "2025-09-draft" and "draft".
	Format2025
)

func (v FormatVersion) String() string {
	switch v {
	case Format2023:
		return "2023-07"
	case Format2025:
		return "2025-09"
	}
	return "legacy"
}

// parseFormatVersion maps a problem_format_version value to its family.
func parseFormatVersion(s string) (FormatVersion, bool) {
	switch s {
	case "", "legacy", "legacy-icpc":
		return FormatLegacy, true
	case "2023-07-draft", "2023-07":
		return Format2023, true
	case "2025-09-draft", "2025-09", "draft":
		return Format2025, true
	}
	return FormatLegacy, false
}

// ProblemType is the set of a problem's types. The zero value is a
// pass-fail problem judged by running the submission once per test.
type ProblemType struct {
	Scoring      bool // an accepted submission also gets a score
	Interactive  bool // the output validator talks with the submission
	MultiPass    bool // the submission runs again on the input the output validator writes (OutputValidation.Passes)
	SubmitAnswer bool // the submission is the answers, a file per test (see AnswerFile)
}

// String lists the types as problem.yaml spells them, e.g. "scoring
// interactive"; "pass-fail" for the zero value.
func (t ProblemType) String() string {
	var s []string
	if t.Scoring {
		s = append(s, "scoring")
	} else {
		s = append(s, "pass-fail")
	}
	if t.Interactive {
		s = append(s, "interactive")
	}
	if t.MultiPass {
		s = append(s, "multi-pass")
	}
	if t.SubmitAnswer {
		s = append(s, "submit-answer")
	}
	return strings.Join(s, " ")
}

// OutputValidation says how a problem judges outputs.
type OutputValidation struct {
	// Default is true when a Kattis package uses the default output
	// validator (the checker default, with each test's
	// OutputValidatorArgs: see CheckerFor); Program is then nil. A native
	// problem's checker is its spec's (Package.Checker).
	Default bool
	// DefaultOptions are the default validator's options when every test
	// gives it the same flags; nil else.
	DefaultOptions checkers.Options
	// Program is the custom output validator: output_validator/ (2023-07
	// and later) or the one program in output_validators/ (legacy, with
	// validation: custom). It is called with the Kattis protocol, each
	// test's OutputValidatorArgs after the three file arguments. In an
	// interactive problem it is the interactor, and CheckerProgram is nil.
	Program *Program
	// Interactive: the validator and the submission run at the same time,
	// each one's stdout connected to the other's stdin.
	Interactive bool
	// ScoreAllowed: a score.txt the validator writes in its feedback
	// directory is the test's score (legacy: validation custom score; 2023-07
	// and later: every scoring problem). Without it, a score.txt is a
	// judge error.
	ScoreAllowed bool
	// ScoreRequired: a test the validator accepts without writing score.txt
	// is a judge error (legacy custom score).
	ScoreRequired bool
	// MultiplierAllowed: score_multiplier.txt is read too (2025-09).
	MultiplierAllowed bool
	// Passes is the most times a multi-pass problem runs the submission
	// on one test (limits.validation_passes: 2 by default); 0 for a
	// problem of one pass. Each pass has the test's limits; the output
	// validator (Program) asks for one more by accepting and writing
	// nextpass.in, the next pass's input, in its feedback directory,
	// which lasts from pass to pass. In an interactive multi-pass problem
	// each pass is an interaction.
	Passes int
}

// ProgramKind says how a program of the problem is built and run.
type ProgramKind int

const (
	// ProgramSource: a source file, or a directory of sources, built with
	// the judge's language table.
	ProgramSource ProgramKind = iota
	// ProgramBuildRun: a directory with a build script, a run script, or
	// both: build runs in a copy of the directory, then run is the program.
	ProgramBuildRun
	// ProgramCheckTestData: a .ctd script, run by checktestdata (exit 0
	// accepts the input on stdin).
	ProgramCheckTestData
	// ProgramViva: a .viva script, run by viva (the input file as its last
	// argument, exit 0 accepts).
	ProgramViva
)

func (k ProgramKind) String() string {
	switch k {
	case ProgramBuildRun:
		return "build/run scripts"
	case ProgramCheckTestData:
		return "checktestdata"
	case ProgramViva:
		return "viva"
	}
	return "source"
}

// Tool is the external program a kind needs on PATH to run: "checktestdata"
// or "viva"; "" for kinds the judge builds itself.
func (k ProgramKind) Tool() string {
	switch k {
	case ProgramCheckTestData:
		return "checktestdata"
	case ProgramViva:
		return "viva"
	}
	return ""
}

// Name is the program's name within the package: its directory's name, or
// its file's name without the extension. Per-validator argument maps are
// keyed by it.
func (p Program) Name() string {
	base := path.Base(p.Path)
	if p.Kind == ProgramSource || p.Kind == ProgramCheckTestData || p.Kind == ProgramViva {
		if ext := path.Ext(base); ext != "" && ext != base {
			return strings.TrimSuffix(base, ext)
		}
	}
	return base
}

// ToolWarnings says which of the problem's programs cannot run here because
// the tool they need is not installed: look is exec.LookPath, or a stand-in
// in tests. The programs are skipped by the judge, with this warning.
func (p *Package) ToolWarnings(look func(string) (string, error)) []Warning {
	var ws []Warning
	progs := append(append([]Program(nil), p.InputValidators...), p.AnswerValidators...)
	for _, prog := range progs {
		tool := prog.Kind.Tool()
		if tool == "" {
			continue
		}
		if _, err := look(tool); err != nil {
			ws = append(ws, Warning{File: p.file(prog.Path),
				Msg: fmt.Sprintf("skipped: a %s script needs %s, which is not on PATH", prog.Kind, tool)})
		}
	}
	return ws
}

// file names a file of the problem as its origin does.
func (p *Package) file(name string) string { return Test{Origin: p.Origin}.Path(name) }

// TimeLimitRules say whether a package gives its time limit or leaves it to
// be derived from its accepted submissions, and the margins of both.
type TimeLimitRules struct {
	// Given is true when the package states the limit: limits.time_limit,
	// or a .timelimit file. problems.Problem.Limits.Time is then that limit;
	// otherwise it is the 1-second default until the judge derives one.
	Given bool
	// Source says where a given limit comes from, for messages:
	// "problem.yaml:9 (limits.time_limit)" or ".timelimit"; "" when derived.
	Source string
	// Limit is the given limit; 0 when derived.
	Limit time.Duration
	// Multipliers are the margins and the resolution.
	Multipliers TimeMultipliers
}

// TimeMultipliers are a package's time-limit margins, as problemtools
// applies them: the slowest accepted run times ACToTimeLimit, rounded up to
// Resolution, is the limit; the limit times TimeLimitToTLE is what every
// time-limit-exceeded submission must exceed.
type TimeMultipliers struct {
	ACToTimeLimit  float64       // 2023-07 and later: ac_to_time_limit (2); legacy: time_multiplier (5)
	TimeLimitToTLE float64       // time_limit_to_tle (1.5); legacy: time_safety_margin (2)
	Resolution     time.Duration // time_resolution (1 s)
}

// UnknownTimeLimit is the limit problemtools runs the accepted submissions
// under while it does not know the time limit yet.
const UnknownTimeLimit = 300 * time.Second

// Layout is how a problem directory is laid out.
type Layout int

const (
	// LayoutNative: problem.yaml as Spec documents it, tests in testdata/.
	LayoutNative Layout = iota
	// LayoutKattis: a Kattis/ICPC package, problem.yaml as Spec
	// documents it, tests in data/ (in groups too).
	LayoutKattis
)

func (l Layout) String() string {
	if l == LayoutKattis {
		return "kattis"
	}
	return "native"
}

// Program is a program of the problem directory: a source file, or a
// directory holding one source file (and the headers or modules it uses).
// The judge builds it with its language table and runs it outside the
// sandbox: it is the problem setter's trusted code.
type Program struct {
	Path     string            // slash-separated, within the problem's FS
	Protocol checkers.Protocol // how a checker program is called; NoProtocol for validators
	Args     []string          // arguments after the protocol's
	Kind     ProgramKind       // how it is built and run (Kattis packages: build/run scripts, .ctd, .viva)
	// Files are the other files of a file program's folder that are no
	// program (a testlib.h beside a validator): copied beside it when it
	// is built, as part of the one program.
	Files []string
}
