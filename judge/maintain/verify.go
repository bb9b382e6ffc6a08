// Package maintain keeps a problem's test set honest, as Kattis's
// problemtools, BAPCtools and Polygon do: Verify checks a problem from its
// spec to its example submissions' verdicts and time margins, Generate
// writes tests from the reference's generators, and Stress grades a
// submission on generated tests until one fails, then shrinks that input to
// a minimal failing case.
package maintain

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"sort"
	"strings"
	"time"

	"github.com/optjudge/optjudge/checkers"
	"github.com/optjudge/optjudge/judge"
	"github.com/optjudge/optjudge/judge/proc"
	"github.com/optjudge/optjudge/judge/verdict"
	"github.com/optjudge/optjudge/problems"
	"github.com/optjudge/optjudge/reference"
	"github.com/optjudge/optjudge/reference/lex"
)

// Severity ranks a finding.
type Severity int

const (
	// Error: something is wrong; the problem does not verify.
	Error Severity = iota
	// Warning: worth a look; the problem still verifies.
	Warning
)

func (s Severity) String() string {
	if s == Warning {
		return "warning"
	}
	return "error"
}

// Finding is one thing Verify found, about one file.
type Finding struct {
	Severity Severity
	File     string // the file at fault, as the problem's origin names it
	Pos      string // ":line:col" or ":line" within File, or ""
	Msg      string
}

// String shows the finding as compilers do: "file:line:col: error: msg".
func (f Finding) String() string {
	return fmt.Sprintf("%s%s: %s: %s", f.File, f.Pos, f.Severity, f.Msg)
}

// ThinFactor says when a margin is thin: a rule that would break on a
// machine (or a run) this much slower earns a warning.
const ThinFactor = 1.25

// VerifyOptions tune Verify.
type VerifyOptions struct {
	// Judge builds the problem's programs and the example submissions and
	// grades them; Build tunes the builds (the language table).
	Judge *judge.Judge
	Build judge.BuildOptions
	// Grade grades the example submissions: parallelism. Its Tests,
	// TimeLimit, Lazy and Checker are set per submission; a WallLimit of 0
	// (the usual) is twice each submission's time limit plus 1 s.
	Grade judge.GradeOptions
	// Progress, when set, is told each long step before it starts.
	Progress func(step string)
	// Graded, when set, is given each submission's result as it comes.
	Graded func(SubmissionResult)
	// Strict makes a submission that cannot be built here (in no language
	// of the table, or with its compiler not installed) an error, not a
	// warning.
	Strict bool
}

// SubmissionResult is how one example submission fared.
type SubmissionResult struct {
	Path      string          // as the problem's origin names it
	Want      verdict.Verdict // from its folder
	Got       verdict.Verdict
	Test      string        // the first test not accepted; for AC, the slowest
	Message   string        // that test's message, or the compiler's
	Slowest   time.Duration // CPU time of its slowest test
	TimeLimit time.Duration // the CPU limit it ran under
}

// VerifyReport is everything Verify found.
type VerifyReport struct {
	Problem     string
	Tests       int
	Findings    []Finding
	Submissions []SubmissionResult
	TimeLimit   time.Duration
	Rules       problems.TimeRules
	// SlowestAC is the accepted submission with the slowest test; nil when
	// no accepted submission was accepted.
	SlowestAC *SubmissionResult
	// Suggested is the time limit the rules imply: the slowest accepted run
	// times Rules.AC, rounded up to Resolution; 0 without SlowestAC.
	Suggested  time.Duration
	Resolution time.Duration
	// Skipped counts the example submissions not graded: in no language
	// of the table, or with their compiler not installed.
	Skipped int
}

// Errors counts the findings of severity Error.
func (r *VerifyReport) Errors() int {
	n := 0
	for _, f := range r.Findings {
		if f.Severity == Error {
			n++
		}
	}
	return n
}

// Warnings counts the findings of severity Warning.
func (r *VerifyReport) Warnings() int { return len(r.Findings) - r.Errors() }

// Verify checks p as Kattis's verifyproblem does: the tests (samples exist,
// every input has its answer), every input against the input validators,
// every answer against the checker and, where the answer is unique, against
// the reference's output, and every example submission under
// submissions/<verdict>/ against the verdict its folder names, with the
// time-limit margins of p.TimeRules. A problem defect is a Finding; an
// error means the judge could not verify (the sandbox failed, ctx ended).
func Verify(ctx context.Context, p *problems.Problem, opts VerifyOptions) (*VerifyReport, error) {
	v := &verifier{p: p, opts: opts, invalid: map[string]bool{}, rep: &VerifyReport{
		Problem: p.Name, TimeLimit: p.Limits.Time, Rules: p.TimeRules, Resolution: 100 * time.Millisecond,
	}}
	if p.Kattis != nil && p.Kattis.Limits.TimeResolution > 0 {
		v.rep.Resolution = time.Duration(p.Kattis.Limits.TimeResolution * float64(time.Second))
	}
	for _, w := range p.Warnings {
		v.add(Warning, w.File, linePos(w.Line), "%s", fieldMsg(w.Field, w.Msg))
	}
	tests, err := p.Tests()
	if err != nil {
		return nil, fmt.Errorf("listing tests of %s: %w", p.Origin, err)
	}
	v.rep.Tests = len(tests)
	v.checkTestFiles(tests)
	if err := v.checkInputs(ctx, tests); err != nil {
		return nil, err
	}
	v.step("building the checker")
	chk, err := opts.Judge.Checker(ctx, p, opts.Build.Languages)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		v.add(Error, v.file(p.CheckerProgram.Path), "", "%v", err)
		v.add(Error, v.file("submissions"), "", "not graded: the checker does not build")
		return v.rep, nil
	}
	if err := v.checkAnswers(ctx, tests, chk); err != nil {
		return nil, err
	}
	if err := v.checkSubmissions(ctx, chk); err != nil {
		return nil, err
	}
	v.suggest()
	return v.rep, nil
}

type verifier struct {
	p       *problems.Problem
	opts    VerifyOptions
	rep     *VerifyReport
	invalid map[string]bool // inputs that failed validation, by In path
}

func (v *verifier) step(s string) {
	if v.opts.Progress != nil {
		v.opts.Progress(s)
	}
}

func (v *verifier) add(sev Severity, file, pos, format string, args ...any) {
	v.rep.Findings = append(v.rep.Findings, Finding{Severity: sev, File: file, Pos: pos, Msg: fmt.Sprintf(format, args...)})
}

// file names a file of the problem as its origin does.
func (v *verifier) file(name string) string {
	return problems.Test{Origin: v.p.Origin}.Path(name)
}

// checkTestFiles: samples and secret tests exist, every input has its
// answer and every answer its input.
func (v *verifier) checkTestFiles(tests []problems.Test) {
	count := map[string]int{}
	for _, t := range tests {
		count[t.Group]++
		if t.Ans == "" {
			sev := Error
			if v.p.Reference != nil {
				sev = Warning // the grader asks the reference
			}
			v.add(sev, t.Path(t.In), "", "no .ans beside it")
		}
	}
	for _, g := range []string{"sample", "secret"} {
		if count[g] == 0 {
			v.add(Error, v.file(v.p.TestDir(g)), "", "no %s tests", g)
		}
	}
	for _, g := range []string{"sample", "secret"} {
		fs.WalkDir(v.p.FS, v.p.TestDir(g), func(name string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(name, ".ans") {
				if _, err := fs.Stat(v.p.FS, strings.TrimSuffix(name, ".ans")+".in"); err != nil {
					v.add(Warning, v.file(name), "", "no .in beside it")
				}
			}
			return nil
		})
	}
}

// checkInputs runs the built-in validator and the validator programs on
// every input.
func (v *verifier) checkInputs(ctx context.Context, tests []problems.Test) error {
	if v.p.Validator == nil && len(v.p.InputValidators) == 0 {
		v.add(Warning, v.file("problem.yaml"), "", "no input validator: the inputs are not checked")
		return nil
	}
	var programs []*checkers.InputValidator
	for _, prog := range v.p.InputValidators {
		if tool := prog.Kind.Tool(); tool != "" {
			v.skipScript(prog, tool)
			continue
		}
		v.step("building " + prog.Path)
		one := *v.p
		one.InputValidators = []problems.Program{prog}
		vs, err := v.opts.Judge.InputValidators(ctx, &one, v.opts.Build.Languages)
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			v.add(Error, v.file(prog.Path), "", "%v", err)
			continue
		}
		programs = append(programs, vs...)
	}
	v.step("validating the inputs")
	for _, t := range tests {
		in, err := t.Input()
		if err != nil {
			return err
		}
		if v.p.Validator != nil {
			if err := v.p.Validator.Validate(in); err != nil {
				v.invalid[t.In] = true
				v.add(Error, t.Path(t.In), lexPos(err), "%s", lexMsg(err))
			}
		}
		for _, iv := range programs {
			msg, err := iv.Validate(ctx, in)
			if err != nil {
				if ctx.Err() != nil {
					return ctx.Err()
				}
				msg = err.Error()
			}
			if msg != "" {
				v.invalid[t.In] = true
				v.add(Error, t.Path(t.In), "", "%s", msg)
			}
		}
	}
	return nil
}

// skipScript reports an input validator script (checktestdata, viva) that
// judge verify does not run: a warning, never an error.
func (v *verifier) skipScript(prog problems.Program, tool string) {
	if _, err := proc.LookPath(tool, v.opts.Judge.Path(), nil); err != nil {
		v.add(Warning, v.file(prog.Path), "", "skipped: a %s script needs %s, which is not on PATH", prog.Kind, tool)
		return
	}
	v.add(Warning, v.file(prog.Path), "", "skipped: judge verify does not run %s scripts", prog.Kind)
}

func lexPos(err error) string {
	var le *lex.Error
	if !errors.As(err, &le) {
		return ""
	}
	if le.Col > 0 {
		return fmt.Sprintf(":%d:%d", le.Line, le.Col)
	}
	return fmt.Sprintf(":%d", le.Line)
}

func lexMsg(err error) string {
	var le *lex.Error
	if errors.As(err, &le) {
		return le.Msg
	}
	return err.Error()
}

// checkAnswers hands every answer file to the checker as if it were a
// contestant's output, and compares it with the reference's output where
// the answer is unique.
func (v *verifier) checkAnswers(ctx context.Context, tests []problems.Test, chk checkers.Checker) error {
	v.step("checking the answers")
	unique := false
	if v.p.Reference != nil {
		tools, ok := reference.ToolsFor(v.p.Reference.Name)
		_, tokens := v.p.Checker.(checkers.Tokens)
		unique = (ok && tools.Unique) || (tokens && v.p.CheckerProgram == nil)
	}
	for _, t := range tests {
		if t.Ans == "" || v.invalid[t.In] {
			continue
		}
		in, err := t.Input()
		if err != nil {
			return err
		}
		ans, err := t.Answer()
		if err != nil {
			return err
		}
		r, err := chk.Check(ctx, checkers.Files{Input: in, Output: ans, Answer: ans})
		switch {
		case ctx.Err() != nil:
			return ctx.Err()
		case err != nil:
			v.add(Error, t.Path(t.Ans), "", "the checker failed on it: %v", err)
		case r.Verdict != verdict.AC:
			v.add(Error, t.Path(t.Ans), "", "the checker rejects it: %s", r.Message)
		}
		if !unique {
			continue
		}
		want, err := v.p.Reference.Solve(in)
		if err != nil {
			v.add(Error, t.Path(t.In), "", "the reference fails on it: %v", err)
			continue
		}
		if line, got, exp, differ := firstDifference(ans, want); differ {
			v.add(Error, t.Path(t.Ans), fmt.Sprintf(":%d", line), "differs from the reference's output: got %q, want %q", got, exp)
		}
	}
	return nil
}

// firstDifference compares two outputs line by line, ignoring trailing
// blanks on each line and blank lines at the end.
func firstDifference(got, want []byte) (line int, g, w string, differ bool) {
	gl, wl := lines(got), lines(want)
	for i := 0; i < max(len(gl), len(wl)); i++ {
		var a, b string
		if i < len(gl) {
			a = gl[i]
		}
		if i < len(wl) {
			b = wl[i]
		}
		if a != b || (i >= len(gl)) != (i >= len(wl)) {
			return i + 1, a, b, true
		}
	}
	return 0, "", "", false
}

func lines(b []byte) []string {
	ls := strings.Split(string(bytes.TrimRight(b, " \t\r\n")), "\n")
	for i := range ls {
		ls[i] = strings.TrimRight(ls[i], " \t\r")
	}
	if len(ls) == 1 && ls[0] == "" {
		return nil
	}
	return ls
}

// suggest works out the time limit the rules imply.
func (v *verifier) suggest() {
	var slowest *SubmissionResult
	for i, s := range v.rep.Submissions {
		if s.Want == verdict.AC && s.Got == verdict.AC && (slowest == nil || s.Slowest > slowest.Slowest) {
			slowest = &v.rep.Submissions[i]
		}
	}
	if slowest == nil {
		return
	}
	v.rep.SlowestAC = slowest
	res := v.rep.Resolution
	need := time.Duration(float64(slowest.Slowest) * v.rep.Rules.AC)
	v.rep.Suggested = max(res, time.Duration(math.Ceil(float64(need)/float64(res)))*res)
}

// sortedFindings orders findings by file, errors first within a file.
func sortedFindings(fs []Finding) []Finding {
	out := append([]Finding(nil), fs...)
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].File != out[j].File {
			return out[i].File < out[j].File
		}
		return out[i].Severity < out[j].Severity
	})
	return out
}

// Sorted returns the findings ordered by file, errors first within a file.
func (r *VerifyReport) Sorted() []Finding { return sortedFindings(r.Findings) }
