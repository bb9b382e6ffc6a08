package kattis

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/optjudge/optjudge/specfile"
	"github.com/optjudge/optjudge/verdict"
)

// ExampleSubmission is one program under submissions/<folder>/: a file, or
// a directory of files that make one submission, with everything the
// package says it must get.
type ExampleSubmission struct {
	Path   string // in the problem's FS, e.g. "submissions/accepted/hello.c"
	Dir    bool   // a directory: one submission of several files
	Folder string // its folder under submissions/, e.g. "accepted"
	// Expectations are the rules it must meet, all of them: its folder's,
	// those of submissions.yaml that match it, its @EXPECTED_RESULTS@.
	Expectations []Expectation
	// Language and Entrypoint are submissions.yaml's, "" to detect.
	Language, Entrypoint string
	// ModelSolution is submissions.yaml's model_solution.
	ModelSolution bool

	kattis bool // verdicts are compared in the Kattis set
}

// Expectation is one rule an example submission must meet. Its parts all
// hold at once; an empty part asks nothing.
type Expectation struct {
	// Source says where the rule is stated, for messages:
	// "submissions/wrong_answer/", "submissions/submissions.yaml:4",
	// "submissions/mixed/x.py:3 (@EXPECTED_RESULTS@)".
	Source string
	// Tests is the test-name glob the rule is limited to (2025-09: a key
	// of a submissions.yaml entry naming a test data group or tests); ""
	// for every test. A test is selected when its name or a group above
	// it matches.
	Tests string
	// Verdicts: the final verdict (the submission's graded verdict; with
	// Tests, the first rejected selected test's) is one of these. The
	// legacy and 2023-07 folders (as problemtools checks them) and
	// @EXPECTED_RESULTS@ state it.
	Verdicts []verdict.Verdict
	// Permitted: every selected test gets one of these.
	Permitted []verdict.Verdict
	// Required: at least one selected test gets one of these.
	Required []verdict.Verdict
	// Score: the submission's score (with Tests, the score of each group
	// Tests names) is in this range.
	Score *ScoreRange
	// Partial (legacy partially_accepted): accepted, below the best score;
	// the best score itself is a warning, as problemtools has it.
	Partial bool
	// FullScore (legacy accepted, scoring problems): problemtools warns
	// when an accepted submission misses the best score.
	FullScore bool
	// Message must be a substring of a selected test's judge message.
	Message string
	// TimeLimit says how the submission bounds the time limit.
	TimeLimit TimeBound

	best   float64 // the best score, for Partial and FullScore
	bestOK bool    // it is finite
}

// TimeBound is how an example submission bounds the time limit.
type TimeBound int

const (
	TimeBoundNone TimeBound = iota
	// TimeBoundLower: the limit is at least its slowest run (on the
	// selected tests) times ac_to_time_limit.
	TimeBoundLower
	// TimeBoundUpper: the limit times time_limit_to_tle is at most its
	// slowest run on the selected tests.
	TimeBoundUpper
)

func (b TimeBound) String() string {
	switch b {
	case TimeBoundLower:
		return "lower"
	case TimeBoundUpper:
		return "upper"
	}
	return "none"
}

// SubmissionList is what Submissions found under submissions/.
type SubmissionList struct {
	Submissions []ExampleSubmission
	// Warnings (Kattis layout): folders of no version, files out of place,
	// odd tags or keys. Their submissions have no expectations and are
	// not graded.
	Warnings []Warning
	// Errors are defects that leave expectations unknown: a native folder
	// that names no verdict (the native layout is strict), a
	// submissions.yaml value of the wrong type.
	Errors specfile.Errors
}

// Bound is one way an example submission bounds the time limit: by its
// slowest run on the tests Tests selects.
type Bound struct {
	Kind   TimeBound
	Tests  string // the test-name glob; "" for every test
	Source string // the expectation's
	// Permitted are the verdicts its tests may get (the expectation's);
	// a run with another on them bounds nothing. nil: any.
	Permitted []verdict.Verdict
}

// Bounds lists how s bounds the time limit: one entry for each of its
// expectations that does (2025-09: a rule on some tests bounds it by those
// tests only).
func (s ExampleSubmission) Bounds() []Bound {
	var out []Bound
	for _, e := range s.Expectations {
		dup := slices.ContainsFunc(out, func(b Bound) bool { return b.Kind == e.TimeLimit && b.Tests == e.Tests })
		if e.TimeLimit != TimeBoundNone && !dup {
			out = append(out, Bound{Kind: e.TimeLimit, Tests: e.Tests, Source: e.Source, Permitted: e.Permitted})
		}
	}
	return out
}

// HasBound says whether s bounds the time limit so, on some tests.
func (s ExampleSubmission) HasBound(k TimeBound) bool {
	for _, b := range s.Bounds() {
		if b.Kind == k {
			return true
		}
	}
	return false
}

// Selects says whether the test-name glob of an expectation or a bound
// ("" for every test) selects the test name: the test itself or a group
// above it matches.
func Selects(glob, test string) bool { return glob == "" || globMatch(glob, test) }

// Needs says whether the result of the test name decides an expectation
// of s however an earlier test fared, so that a grading that stops early
// must run it all the same: a rule on some tests (their verdicts, a
// message, a group's score) or a bound of the time limit on them, and a
// rule on every test's verdict that the first rejected test does not
// decide (required verdicts, a message, permitted verdicts beyond AC).
func (s ExampleSubmission) Needs(name string) bool {
	for _, e := range s.Expectations {
		switch {
		case e.Tests != "" && globMatch(e.Tests, name):
			return true
		case e.Tests == "" && (len(e.Required) > 0 || e.Message != "" || (len(e.Permitted) > 0 && !onlyAC(e.Permitted))):
			return true
		}
	}
	return false
}

// Excludes says whether verdict v on the test called name breaks one of
// s's permitted rules that covers the test (compared as Check compares
// them): no other test can mend that, so judge verify may stop grading
// s there, as problemtools and BAPCtools stop at a first failure.
func (s ExampleSubmission) Excludes(name string, v verdict.Verdict) bool {
	if s.kattis {
		v = Verdict(v)
	}
	for _, e := range s.Expectations {
		if len(e.Permitted) > 0 && (e.Tests == "" || globMatch(e.Tests, name)) && !hasVerdict(e.Permitted, v) {
			return true
		}
	}
	return false
}

// Lazy says whether grading that stops at the first rejected test decides
// every expectation: true for final-verdict rules of a pass-fail problem.
func (s ExampleSubmission) Lazy() bool {
	for _, e := range s.Expectations {
		switch {
		case len(e.Required) > 0, e.Message != "", e.Score != nil, e.Partial:
			return false
		case len(e.Permitted) > 0 && !onlyAC(e.Permitted):
			return false
		}
	}
	return true
}

// FinalVerdict is the one final verdict s's expectations come to when it
// is graded lazily (stopping at the first rejected test) in a pass-fail
// problem: a folder's verdict, or permitted AC and X with X required; ok
// is false when they ask for more (a score, a message, some tests, a
// choice of verdicts) or for nothing.
func (s ExampleSubmission) FinalVerdict() (v verdict.Verdict, ok bool) {
	for _, e := range s.Expectations {
		w, single := e.finalVerdict()
		if !single || (ok && w != v) {
			return verdict.Unknown, false
		}
		v, ok = w, true
	}
	return v, ok
}

func (e Expectation) finalVerdict() (verdict.Verdict, bool) {
	if e.Tests != "" || e.Score != nil || e.Message != "" || e.Partial {
		return verdict.Unknown, false
	}
	switch {
	case len(e.Verdicts) == 1 && e.Permitted == nil && e.Required == nil:
		return e.Verdicts[0], true
	case len(e.Verdicts) > 0:
		return verdict.Unknown, false
	case onlyAC(e.Permitted) && e.Required == nil:
		return verdict.AC, true
	case len(e.Required) == 1 && len(e.Permitted) == 2 && hasVerdict(e.Permitted, verdict.AC) && hasVerdict(e.Permitted, e.Required[0]):
		return e.Required[0], true
	}
	return verdict.Unknown, false
}

func onlyAC(vs []verdict.Verdict) bool { return len(vs) == 1 && vs[0] == verdict.AC }

// kattisFolders are the folders each version defines, with what their
// submissions must get.
func kattisFolders(v FormatVersion) map[string]Expectation {
	if v == Format2025 {
		f := map[string]Expectation{
			"accepted":            {Permitted: vs(verdict.AC)},
			"rejected":            {Required: vs(verdict.RE, verdict.TLE, verdict.WA)},
			"wrong_answer":        {Permitted: vs(verdict.AC, verdict.WA), Required: vs(verdict.WA)},
			"time_limit_exceeded": {Permitted: vs(verdict.AC, verdict.TLE), Required: vs(verdict.TLE)},
			"run_time_error":      {Permitted: vs(verdict.AC, verdict.RE), Required: vs(verdict.RE)},
			"brute_force":         {Permitted: vs(verdict.AC, verdict.RE, verdict.TLE), Required: vs(verdict.RE, verdict.TLE)},
		}
		for name, e := range f {
			e.TimeLimit, _ = timeBound(e.Permitted, e.Required, nil)
			f[name] = e
		}
		return f
	}
	// problemtools checks the final verdict, for 2023-07 too (and its
	// partially_accepted/); 2023-07 adds rejected and brute_force.
	f := map[string]Expectation{
		"accepted":            {Verdicts: vs(verdict.AC), FullScore: true, TimeLimit: TimeBoundLower},
		"partially_accepted":  {Verdicts: vs(verdict.AC), Partial: true},
		"wrong_answer":        {Verdicts: vs(verdict.WA)},
		"time_limit_exceeded": {Verdicts: vs(verdict.TLE), TimeLimit: TimeBoundUpper},
		"run_time_error":      {Verdicts: vs(verdict.RE)},
	}
	if v == Format2023 {
		f["rejected"] = Expectation{Verdicts: vs(verdict.WA, verdict.TLE, verdict.RE)}
		f["brute_force"] = Expectation{Verdicts: vs(verdict.TLE, verdict.RE)}
	}
	return f
}

func vs(v ...verdict.Verdict) []verdict.Verdict { return v }

// Submissions lists the example submissions under submissions/ with their
// expectations. A problem without submissions/ has none.
//
// In the native layout each folder names a verdict (accepted,
// wrong_answer, time_limit_exceeded, run_time_error,
// memory_limit_exceeded, output_limit_exceeded, compile_error): the final
// verdict must be it, and any other folder is an error. In a Kattis
// package the folders are its version's (see ExampleSubmission and
// kattisFolders), submissions.yaml adds rules (2023-07 and later), a
// source holding DOMjudge's "@EXPECTED_RESULTS@: " comment (outside the
// folders accepted, wrong_answer, time_limit_exceeded, run_time_error, as
// DOMjudge has it) adds the rule that its final verdict, and every
// rejected test's, is one of those listed; a folder with no rule is a
// warning, its submissions not graded.
func (p *Package) Submissions() (*SubmissionList, error) {
	list := &SubmissionList{}
	entries, err := visibleEntries(p.FS, "submissions")
	if errors.Is(err, fs.ErrNotExist) {
		return list, nil
	}
	if err != nil {
		return nil, fmt.Errorf("listing %s: %w", p.file("submissions"), unwrapPath(err))
	}
	var rules []submissionRule
	if p.Layout == LayoutKattis && p.Format != FormatLegacy && fileExists(p.FS, "submissions/submissions.yaml") {
		rules = p.readSubmissionsYAML(list)
	}
	for _, e := range entries {
		rel := path.Join("submissions", e.Name())
		switch {
		case e.IsDir():
		case e.Name() == "submissions.yaml" && p.Layout == LayoutKattis && p.Format == FormatLegacy:
			list.Warnings = append(list.Warnings, Warning{File: p.file(rel), Msg: "ignored: format legacy has no submissions.yaml"})
			continue
		case e.Name() == "submissions.yaml" && p.Layout == LayoutKattis:
			continue
		default:
			list.Warnings = append(list.Warnings, Warning{File: p.file(rel), Msg: "ignored: only the folders under submissions/ are read"})
			continue
		}
		subs, err := p.folder(e.Name(), rules, list)
		if err != nil {
			return nil, err
		}
		list.Submissions = append(list.Submissions, subs...)
	}
	sort.Slice(list.Submissions, func(i, j int) bool { return list.Submissions[i].Path < list.Submissions[j].Path })
	return list, nil
}

// folder lists the submissions of one folder with their expectations.
func (p *Package) folder(name string, rules []submissionRule, list *SubmissionList) ([]ExampleSubmission, error) {
	dir := path.Join("submissions", name)
	base, known := Expectation{}, false
	if p.Layout == LayoutKattis {
		base, known = kattisFolders(p.Format)[name]
	} else if v, err := verdict.Parse(name); err == nil && v != verdict.JE && v != verdict.Unknown {
		base, known = Expectation{Verdicts: vs(v)}, true
		if v == verdict.AC {
			base.TimeLimit = TimeBoundLower
		} else if v == verdict.TLE {
			base.TimeLimit = TimeBoundUpper
		}
	} else {
		list.Errors = append(list.Errors, &specfile.Error{File: p.file(dir),
			Msg: "not a verdict folder (accepted, wrong_answer, time_limit_exceeded, run_time_error, memory_limit_exceeded, output_limit_exceeded, compile_error)"})
		return nil, nil
	}
	if known {
		base.Source = p.file(dir) + "/"
		for _, r := range rules {
			if r.glob == name {
				base = r.override(base)
				if _, err := timeBound(base.Permitted, base.Required, r.fields.useForTimeLimit); err != nil {
					list.Errors = append(list.Errors, &specfile.Error{File: r.source, Msg: err.Error()})
				}
			}
		}
		if base.Partial && !p.Type.Scoring {
			list.Warnings = append(list.Warnings, Warning{File: p.file(dir), Msg: "partially accepted submissions are for scoring problems"})
		}
	}
	entries, err := visibleEntries(p.FS, dir)
	if err != nil {
		return nil, fmt.Errorf("listing %s: %w", p.file(dir), unwrapPath(err))
	}
	var out []ExampleSubmission
	unmatched := 0
	for _, e := range entries {
		s := ExampleSubmission{Path: path.Join(dir, e.Name()), Dir: e.IsDir(), Folder: name, kattis: p.Layout == LayoutKattis}
		if known {
			s.Expectations = append(s.Expectations, base)
		}
		p.applyRules(&s, rules, list)
		if p.Layout == LayoutKattis && !domjudgeFolders[name] {
			if err := p.expectedResults(&s, list); err != nil {
				return nil, err
			}
		}
		if len(s.Expectations) == 0 {
			unmatched++
		}
		p.setBest(&s)
		out = append(out, s)
	}
	if !known && unmatched > 0 {
		list.Warnings = append(list.Warnings, Warning{File: p.file(dir),
			Msg: fmt.Sprintf("not a submissions folder of format %s (%s): its %s not graded", p.Format, folderNames(p.Format), plural(unmatched, "submission is", "submissions are"))})
	}
	return out, nil
}

// domjudgeFolders are where DOMjudge ignores @EXPECTED_RESULTS@.
var domjudgeFolders = map[string]bool{"accepted": true, "wrong_answer": true, "time_limit_exceeded": true, "run_time_error": true}

func folderNames(v FormatVersion) string {
	var names []string
	for n := range kattisFolders(v) {
		names = append(names, n)
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// setBest records the best score for the rules that need it.
func (p *Package) setBest(s *ExampleSubmission) {
	best, ok := p.BestScore()
	for i := range s.Expectations {
		s.Expectations[i].best, s.Expectations[i].bestOK = best, ok
	}
}

// Run is one example submission's graded run, as Check reads it.
type Run struct {
	// Grading is Package.Grade's result: the final verdict and score, and
	// each group's score.
	Grading *Grading
	// Tests are the tests run, in judging order.
	Tests []RunTest
}

// RunTest is one test of a Run.
type RunTest struct {
	Name         string          // e.g. "secret/group1/03"
	Verdict      verdict.Verdict // the judge's
	JudgeMessage string          // the validator's judgemessage.txt (or the checker's message)
}

// Mismatch is an expectation a run does not meet.
type Mismatch struct {
	Source  string // the expectation's
	Warning bool   // problemtools only warns about it
	Msg     string
}

func (m Mismatch) String() string { return m.Source + ": " + m.Msg }

// Check holds a graded run to every expectation of s; none means it meets
// them all.
func (s ExampleSubmission) Check(run Run) []Mismatch {
	var out []Mismatch
	for _, e := range s.Expectations {
		out = append(out, e.check(run, s.kattis)...)
	}
	return out
}

// check holds a run to one expectation.
func (e Expectation) check(run Run, kattis bool) []Mismatch {
	var out []Mismatch
	bad := func(warning bool, format string, args ...any) {
		out = append(out, Mismatch{Source: e.Source, Warning: warning, Msg: fmt.Sprintf(format, args...)})
	}
	conv := func(v verdict.Verdict) verdict.Verdict {
		if kattis {
			return Verdict(v)
		}
		return v
	}
	if run.Grading != nil && run.Grading.Verdict == verdict.CE && !hasVerdict(e.Verdicts, verdict.CE) {
		if len(e.Verdicts) > 0 {
			bad(false, "got CE, want %s", verdictList(e.Verdicts, " or "))
		} else {
			bad(false, "got CE: it does not compile")
		}
		return out
	}
	var tests []RunTest
	for _, t := range run.Tests {
		if e.Tests == "" || globMatch(e.Tests, t.Name) {
			t.Verdict = conv(t.Verdict)
			tests = append(tests, t)
		}
	}
	final, on := e.final(run, tests, conv)
	if len(e.Verdicts) > 0 && !hasVerdict(e.Verdicts, final) {
		bad(false, "got %s%s, want %s", final, on, verdictList(e.Verdicts, " or "))
	}
	for _, t := range tests {
		if len(e.Permitted) > 0 && !hasVerdict(e.Permitted, t.Verdict) {
			bad(false, "got %s on %s, permitted: %s", t.Verdict, t.Name, verdictList(e.Permitted, ", "))
			break
		}
	}
	if len(e.Required) > 0 && !anyVerdict(tests, e.Required) {
		bad(false, "no %s got %s (required)%s", e.testsName(), verdictList(e.Required, " or "), e.summary(tests))
	}
	if e.Message != "" && !anyMessage(tests, e.Message) {
		bad(false, "no judge message of %s contains %q", e.testsName(), e.Message)
	}
	out = append(out, e.checkScore(run, final)...)
	return out
}

// final is the verdict the Verdicts rule reads: the graded one for every
// test, else the first rejected selected test's; on names that test.
func (e Expectation) final(run Run, tests []RunTest, conv func(verdict.Verdict) verdict.Verdict) (verdict.Verdict, string) {
	first := ""
	if i := verdict.FirstRejected(tests, func(t RunTest) verdict.Verdict { return t.Verdict }); i >= 0 {
		first = tests[i].Name
		if e.Tests != "" {
			return tests[i].Verdict, " on " + first
		}
	}
	if e.Tests == "" && run.Grading != nil {
		v := conv(run.Grading.Verdict)
		if v == verdict.AC || first == "" {
			return v, ""
		}
		return v, " on " + first
	}
	if len(tests) == 0 {
		return verdict.Unknown, ""
	}
	return verdict.AC, ""
}

func (e Expectation) checkScore(run Run, final verdict.Verdict) []Mismatch {
	var out []Mismatch
	bad := func(warning bool, format string, args ...any) {
		out = append(out, Mismatch{Source: e.Source, Warning: warning, Msg: fmt.Sprintf(format, args...)})
	}
	if run.Grading == nil {
		return nil
	}
	score := run.Grading.Score
	if e.Score != nil {
		if e.Tests == "" {
			if !e.Score.Contains(score) {
				bad(false, "scores %s, want %s", formatScore(score), e.Score)
			}
		} else {
			for name, o := range run.Grading.Groups {
				if globMatch(e.Tests, name) && !e.Score.Contains(o.Score) {
					bad(false, "scores %s on %s, want %s", formatScore(o.Score), name, e.Score)
				}
			}
		}
	}
	switch {
	case e.Partial && final == verdict.AC && e.bestOK && score == e.best:
		bad(true, "fully accepted (score %s), though partially accepted", formatScore(score))
	case e.FullScore && final == verdict.AC && run.Grading.Scored && e.bestOK && score != e.best:
		bad(true, "scores %s, not the full %s (consider partially_accepted/)", formatScore(score), formatScore(e.best))
	}
	return out
}

func (e Expectation) testsName() string {
	if e.Tests == "" {
		return "test"
	}
	return "test of " + e.Tests
}

func (e Expectation) summary(tests []RunTest) string {
	counts := map[verdict.Verdict]int{}
	for _, t := range tests {
		counts[t.Verdict]++
	}
	var parts []string
	for _, v := range verdict.All {
		if counts[v] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", counts[v], v))
		}
	}
	if len(parts) == 0 {
		return "; no test was run"
	}
	return "; got " + strings.Join(parts, ", ")
}

func hasVerdict(list []verdict.Verdict, v verdict.Verdict) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

func anyVerdict(tests []RunTest, want []verdict.Verdict) bool {
	for _, t := range tests {
		if hasVerdict(want, t.Verdict) {
			return true
		}
	}
	return false
}

func anyMessage(tests []RunTest, msg string) bool {
	for _, t := range tests {
		if strings.Contains(t.JudgeMessage, msg) {
			return true
		}
	}
	return false
}

func verdictList(list []verdict.Verdict, sep string) string {
	names := make([]string, len(list))
	for i, v := range list {
		names[i] = v.String()
	}
	return strings.Join(names, sep)
}
