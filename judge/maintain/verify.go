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
	"sync"
	"time"

	"github.com/optjudge/optjudge/checkers"
	"github.com/optjudge/optjudge/judge"
	"github.com/optjudge/optjudge/problems"
	"github.com/optjudge/optjudge/problems/kattis"
	"github.com/optjudge/optjudge/reference/lex"
	"github.com/optjudge/optjudge/verdict"
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
	// Graded, when set, is given each submission's result as it comes, in
	// the order of the submissions. Progress and Graded are never called
	// concurrently.
	Graded func(SubmissionResult)
	// Jobs is how many example submissions are graded at once (their
	// programs share the Judge's MaxRuns); 0: runtime.NumCPU().
	Jobs int
	// Strict makes a submission that cannot be built here (in no language
	// of the table, or with its compiler not installed) an error, not a
	// warning.
	Strict bool
	// GeneratorCache is the cache of GenerateData, for the check that a
	// package's data/ is what its generators/generators.yaml makes; "":
	// the Judge's.
	GeneratorCache string

	// stepHook, when set (tests), is told each step as Progress is, but
	// from no lock: a test may hold one step until another begins.
	stepHook func(step string)
}

// SubmissionResult is how one example submission fared.
type SubmissionResult struct {
	Path string          // as the problem's origin names it
	Want verdict.Verdict // its one final verdict (its folder's); Unknown when its expectations ask for more
	// Expect says what it must get, for people: "WA", "AC, partially",
	// "time limit exceeded" (a 2025-09 folder's rules).
	Expect string
	Got    verdict.Verdict // under the time limit (in the Kattis verdicts in a Kattis package)
	// OK: it meets its expectations (the findings say how it does not).
	OK        bool
	Scored    bool    // the problem is a scoring one
	Score     float64 // its score, when Scored
	Test      string  // the first test not accepted; for AC, the slowest
	Message   string  // that test's message, or the compiler's
	Slowest   time.Duration
	TimeLimit time.Duration // the time limit it is held to
}

// DerivedLimit is a time limit derived from the accepted submissions, as
// problemtools derives it (problems.TimeMultipliers.Derive).
type DerivedLimit struct {
	Limit       time.Duration // the limit
	TLE         time.Duration // what the time-limit-exceeded submissions must exceed
	Slowest     time.Duration // the slowest run that bounds it from below
	Submission  string        // whose it is
	Test        string        // on which test
	Multipliers kattis.TimeMultipliers
	// Verdict is that test's, when it is not AC (2025-09: a
	// wrong_answer submission's run bounds the limit too); "" for AC.
	Verdict string `json:",omitempty"`
}

// Run says whose run the limit comes from, for people: "the slowest
// accepted run", or "the slowest run that bounds it from below (WA)".
func (d *DerivedLimit) Run() string {
	if d.Verdict == "" {
		return "the slowest accepted run"
	}
	return "the slowest run that bounds it from below (" + d.Verdict + ")"
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
	// Derived is set when the package gives no time limit: TimeLimit is
	// then derived from the accepted submissions.
	Derived *DerivedLimit
	// Skipped counts the example submissions not graded: in no language
	// of the table, or with their compiler not installed.
	Skipped int
	// Attachments are the package's attachments/ files, as the problem's
	// origin names them: offered to contestants, checked for nothing.
	Attachments []string
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
		Problem: p.Name, TimeLimit: p.Limits.Time, Rules: p.TimeRules(), Resolution: 100 * time.Millisecond,
	}}
	if p.Package.Spec != nil && p.Package.Spec.Limits.TimeResolution > 0 {
		v.rep.Resolution = time.Duration(p.Package.Spec.Limits.TimeResolution * float64(time.Second))
	}
	for _, w := range p.Package.Warnings {
		v.add(Warning, w.File, linePos(w.Line), "%s", fieldMsg(w.Field, w.Msg))
	}
	for _, d := range p.Package.Defects {
		v.add(Error, d.File, linePos(d.Line), "%s", fieldMsg(d.Field, d.Msg))
	}
	v.checkLanguageCodes()
	v.checkUnsolvable()
	for _, a := range p.Package.Attachments() {
		v.rep.Attachments = append(v.rep.Attachments, v.file(a))
	}
	if p.Package.Layout == kattis.LayoutKattis && isDirFS(p.Package.FS, "attachments") && len(v.rep.Attachments) == 0 {
		v.add(Warning, v.file("attachments"), "", "empty: no file to offer")
	}
	// The submissions need none of the checks below: they build beside
	// them.
	eb := v.startBuilds(ctx)
	defer eb.close()
	if HasGenerators(p) && p.Dir != "" {
		if err := v.checkGenerated(ctx); err != nil {
			return nil, err
		}
	}
	tests, err := p.Package.Tests()
	if err != nil {
		return nil, fmt.Errorf("listing tests of %s: %w", p.Package.Origin, err)
	}
	v.rep.Tests = len(tests)
	v.checkTestFiles(tests)
	if err := v.checkInputs(ctx, tests); err != nil {
		return nil, err
	}
	if err := v.checkAnswerValidators(ctx, tests); err != nil {
		return nil, err
	}
	if p.Package.Validation.Interactive && p.Package.Validation.Program != nil {
		// The validator talks with the submissions: no answer is an output.
		v.step("building " + p.Package.Validation.Program.Path)
		if err := opts.Judge.BuildInteractor(ctx, p, opts.Build.Languages); err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			v.add(Error, v.file(p.Package.Validation.Program.Path), "", "%v", err)
			v.add(Error, v.file("submissions"), "", "not graded: the interactive validator does not build")
			return v.rep, nil
		}
	} else {
		v.step("building the checker")
		chks, err := opts.Judge.Checkers(ctx, p, opts.Build.Languages)
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			v.add(Error, v.file(p.Package.CheckerProgram.Path), "", "%v", err)
			v.add(Error, v.file("submissions"), "", "not graded: the checker does not build")
			return v.rep, nil
		}
		// A multi-pass problem's answers and .out files are no pass's
		// output: the format checks them for other problems only.
		if p.Package.Validation.Passes == 0 {
			if err := v.checkAnswers(ctx, tests, chks); err != nil {
				return nil, err
			}
			if err := v.checkOutputs(ctx, chks); err != nil {
				return nil, err
			}
		}
	}
	if err := v.checkSubmissions(ctx, eb); err != nil {
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
	mu      sync.Mutex      // held around the callbacks, which gradings in parallel reach
}

func (v *verifier) step(s string) {
	if v.opts.stepHook != nil {
		v.opts.stepHook(s)
	}
	if v.opts.Progress != nil {
		v.mu.Lock()
		v.opts.Progress(s)
		v.mu.Unlock()
	}
}

func (v *verifier) add(sev Severity, file, pos, format string, args ...any) {
	v.rep.Findings = append(v.rep.Findings, finding(sev, file, pos, format, args...))
}

func finding(sev Severity, file, pos, format string, args ...any) Finding {
	return Finding{Severity: sev, File: file, Pos: pos, Msg: fmt.Sprintf(format, args...)}
}

// file names a file of the problem as its origin does.
func (v *verifier) file(name string) string {
	return kattis.Test{Origin: v.p.Package.Origin}.Path(name)
}

// checkTestFiles: samples and secret tests exist, every input has its
// answer and every answer its input.
func (v *verifier) checkTestFiles(tests []kattis.Test) {
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
		switch {
		case count[g] > 0:
		case g == "sample" && v.p.Package.Layout == kattis.LayoutKattis && len(v.p.Package.Samples()) > 0:
			// an interactive problem's samples: .interaction files alone
		case g == "sample" && v.p.Package.Layout == kattis.LayoutKattis:
			v.add(Warning, v.file(v.p.Package.TestDir(g)), "", "no sample tests") // problemtools only warns
		default:
			v.add(Error, v.file(v.p.Package.TestDir(g)), "", "no %s tests", g)
		}
	}
	for _, g := range []string{"sample", "secret"} {
		fs.WalkDir(v.p.Package.FS, v.p.Package.TestDir(g), func(name string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(name, ".ans") {
				if _, err := fs.Stat(v.p.Package.FS, strings.TrimSuffix(name, ".ans")+".in"); err != nil {
					v.add(Warning, v.file(name), "", "no .in beside it")
				}
			}
			return nil
		})
	}
}

// checkInputs runs the built-in validator and the validator programs on
// every input, each program with the test's arguments, and checks that
// every input of data/invalid_input is refused by one of them.
func (v *verifier) checkInputs(ctx context.Context, tests []kattis.Test) error {
	for _, w := range v.p.Package.ToolWarnings(v.lookPath) {
		v.add(Warning, w.File, linePos(w.Line), "%s", w.Msg)
	}
	if v.p.Validator == nil && len(v.p.Package.InputValidators) == 0 {
		v.add(Warning, v.file("problem.yaml"), "", "no input validator: the inputs are not checked")
		return nil
	}
	programs, err := v.buildInputValidators(ctx)
	if err != nil {
		return err
	}
	v.step("validating the inputs")
	for _, t := range tests {
		msgs, err := v.validateInput(ctx, t, programs)
		if err != nil {
			return err
		}
		for _, m := range msgs {
			v.invalid[t.In] = true
			v.add(Error, t.Path(t.In), m.pos, "%s", m.msg)
		}
	}
	if v.p.Package.InvalidInputs == nil || len(programs) == 0 && v.p.Validator == nil {
		return nil
	}
	for _, t := range v.p.Package.InvalidInputs.AllTests() {
		msgs, err := v.validateInput(ctx, *t, programs)
		if err != nil {
			return err
		}
		if len(msgs) == 0 {
			v.add(Error, t.Path(t.In), "", "an invalid input, but every input validator accepts it")
		}
	}
	return nil
}

// checkLanguageCodes warns about a language code of the package that no
// language of the table has: a directory of include/, an entry of
// problem.yaml's languages.
// checkUnsolvable warns of a puzzle's text for a case without a solution
// where every case seems to have one: none of a thousand random
// arrangements lacks a solution, so the text would never be written (and
// a contestant reading the statement looks for such cases in vain).
func (v *verifier) checkUnsolvable() {
	pz := v.p.Puzzle
	if pz == nil || pz.Definition().Output.Unsolvable == "" {
		return
	}
	if some, known := pz.SomeUnsolvable(); known && !some {
		d := pz.Definition()
		v.add(Warning, d.File(), linePos(d.Line("output.unsolvable")), "output.unsolvable: %q may never be written: none of a thousand random cases lacks a solution (every case can be solved, it seems)", d.Output.Unsolvable)
	}
}

func (v *verifier) checkLanguageCodes() {
	langs := v.opts.Build.Languages
	if langs == nil {
		langs = v.opts.Judge.Languages()
	}
	known := map[string]bool{"default": true}
	for _, l := range langs.List {
		known[l.KattisCode()] = true
		known[l.Name] = true
	}
	for _, code := range v.p.Package.IncludeCodes() {
		if !known[code] {
			v.add(Warning, v.file("include/"+code), "", "no language of the table has the code %s: its files are never included", code)
		}
	}
	for _, code := range v.p.Package.Submit.Languages {
		if !known[code] {
			v.add(Warning, v.file("problem.yaml"), "", "languages: no language of the table has the code %s", code)
		}
	}
}

// lookPath finds a tool on the Judge's PATH.
func (v *verifier) lookPath(name string) (string, error) { return v.opts.Judge.LookPath(name) }

// validator is an input validator program, built, with the program it is.
type validator struct {
	iv   *checkers.InputValidator
	prog kattis.Program
}

// buildInputValidators builds each input validator program (a finding for
// one that does not build); a checktestdata or viva script whose tool is
// missing is left out, with its warning.
func (v *verifier) buildInputValidators(ctx context.Context) ([]validator, error) {
	var out []validator
	for _, prog := range v.p.Package.InputValidators {
		if tool := prog.Kind.Tool(); tool != "" {
			if _, err := v.lookPath(tool); err != nil {
				continue // ToolWarnings said so
			}
		}
		v.step("building " + prog.Path)
		one := *v.p
		one.Package.InputValidators = []kattis.Program{prog}
		vs, err := v.opts.Judge.InputValidators(ctx, &one, v.opts.Build.Languages)
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			v.add(Error, v.file(prog.Path), "", "%v", err)
			continue
		}
		out = append(out, validator{vs[0], prog})
	}
	return out, nil
}

type inputMsg struct{ pos, msg string }

// validateInput runs every validator on the input of t; what they say
// against it.
func (v *verifier) validateInput(ctx context.Context, t kattis.Test, programs []validator) ([]inputMsg, error) {
	in, err := t.Input()
	if err != nil {
		return nil, err
	}
	var out []inputMsg
	if v.p.Validator != nil {
		if err := v.p.Validator.Validate(in); err != nil {
			out = append(out, inputMsg{lexPos(err), lexMsg(err)})
		}
	}
	for _, p := range programs {
		iv := *p.iv
		iv.Args = v.p.Package.InputValidatorArgs(t, p.prog)
		msg, err := iv.Validate(ctx, in)
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			msg = err.Error()
		}
		if msg != "" {
			out = append(out, inputMsg{"", msg})
		}
	}
	return out, nil
}

// checkAnswerValidators runs the answer validators (answer_validators/) on
// every answer file, with the test's input and arguments.
func (v *verifier) checkAnswerValidators(ctx context.Context, tests []kattis.Test) error {
	if len(v.p.Package.AnswerValidators) == 0 {
		return nil
	}
	v.step("building the answer validators")
	avs, err := v.opts.Judge.AnswerValidators(ctx, v.p, v.opts.Build.Languages)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		v.add(Error, v.file("answer_validators"), "", "%v", err)
		return nil
	}
	v.step("validating the answers")
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
		for _, av := range avs {
			var args []string
			if t.Config != nil {
				args = t.Config.AnswerValidatorArgs.For(av.Program)
			}
			msg, err := av.Validate(ctx, in, ans, args)
			if err != nil {
				if ctx.Err() != nil {
					return ctx.Err()
				}
				msg = err.Error()
			}
			if msg != "" {
				v.add(Error, t.Path(t.Ans), "", "%s", msg)
			}
		}
	}
	return nil
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
func (v *verifier) checkAnswers(ctx context.Context, tests []kattis.Test, chks *judge.Checkers) error {
	v.step("checking the answers")
	unique := false
	if v.p.Reference != nil {
		tools, err := v.p.Tools()
		_, tokens := v.p.Package.Checker.(checkers.Tokens)
		unique = (err == nil && tools.Unique) || (tokens && v.p.Package.CheckerProgram == nil)
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
		r, err := chks.For(t).Check(ctx, checkers.Files{Input: in, Output: ans, Answer: ans})
		// a package's output validator may take no answer file for an
		// output (a validator that reads the input alone): problemtools
		// holds it to the samples' only, and warns about the others
		sev := Error
		if v.p.Package.Layout == kattis.LayoutKattis && t.Group != "sample" {
			sev = Warning
		}
		switch {
		case ctx.Err() != nil:
			return ctx.Err()
		case err != nil:
			v.add(sev, t.Path(t.Ans), "", "the checker failed on it: %v", err)
		case r.Verdict != verdict.AC:
			v.add(sev, t.Path(t.Ans), "", "the checker rejects it: %s", r.Message)
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

// checkOutputs holds the output validator to the outputs of the package:
// each test's .out and those of data/valid_output it must accept, those
// of data/invalid_output it must reject.
func (v *verifier) checkOutputs(ctx context.Context, chks *judge.Checkers) error {
	type output struct {
		t    *kattis.Test
		want verdict.Verdict
	}
	var outs []output
	if v.p.Package.Groups != nil {
		for _, t := range v.p.Package.Groups.AllTests() {
			if t.Config != nil && t.Config.Out != "" {
				outs = append(outs, output{t, verdict.AC})
			}
		}
	}
	for _, g := range []struct {
		group *kattis.Group
		want  verdict.Verdict
	}{{v.p.Package.ValidOutputs, verdict.AC}, {v.p.Package.InvalidOutputs, verdict.WA}} {
		if g.group != nil {
			for _, t := range g.group.AllTests() {
				if t.Config != nil && t.Config.Out != "" {
					outs = append(outs, output{t, g.want})
				}
			}
		}
	}
	for _, o := range outs {
		t := *o.t
		in, err := t.Input()
		if err != nil {
			return err
		}
		ans, err := t.Answer()
		if err != nil {
			return err
		}
		out, err := fs.ReadFile(t.FS, t.Config.Out)
		if err != nil {
			return err
		}
		r, err := chks.For(t).Check(ctx, checkers.Files{Input: in, Output: out, Answer: ans})
		switch {
		case ctx.Err() != nil:
			return ctx.Err()
		case err != nil:
			v.add(Error, t.Path(t.Config.Out), "", "the output validator failed on it: %v", err)
		case r.Verdict != o.want && o.want == verdict.AC:
			v.add(Error, t.Path(t.Config.Out), "", "the output validator rejects it: %s", r.Message)
		case r.Verdict != o.want:
			v.add(Error, t.Path(t.Config.Out), "", "an invalid output, but the output validator accepts it")
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
