package kattis

import (
	"bytes"
	"fmt"
	"io/fs"
	"math"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/optjudge/optjudge/specfile"
	"github.com/optjudge/optjudge/verdict"
)

// submissionRule is one entry of submissions.yaml: a glob of submissions
// and what they must get, on all tests and on some.
type submissionRule struct {
	glob   string
	source string // "submissions/submissions.yaml:4"
	fields ruleFields
	groups []groupRule

	language, entrypoint string
	model                bool
}

// groupRule is a submissions.yaml rule limited to some tests.
type groupRule struct {
	glob   string
	fields ruleFields
}

// ruleFields are the keys of a rule that constrain results; nil fields
// are not given.
type ruleFields struct {
	source              string
	permitted, required []verdict.Verdict
	score               *ScoreRange
	message             *string
	useForTimeLimit     *string // "true", "false", "lower" or "upper"
}

func (f ruleFields) given() bool {
	return f.permitted != nil || f.required != nil || f.score != nil || f.message != nil || f.useForTimeLimit != nil
}

// readSubmissionsYAML reads submissions/submissions.yaml; its defects go
// into list.
func (p *Package) readSubmissionsYAML(list *SubmissionList) []submissionRule {
	const name = "submissions/submissions.yaml"
	f := &yamlFile{name: p.file(name)}
	defer func() {
		list.Errors = append(list.Errors, f.errs...)
		list.Warnings = append(list.Warnings, f.warnings...)
	}()
	data, err := fs.ReadFile(p.FS, name)
	if err != nil {
		f.errs = append(f.errs, &specfile.Error{File: f.name, Msg: unwrapPath(err).Error()})
		return nil
	}
	return parseSubmissionRules(f, data)
}

// parseSubmissionRules decodes the rules of a submissions.yaml.
func parseSubmissionRules(f *yamlFile, data []byte) []submissionRule {
	doc := f.parse(data)
	if doc == nil {
		return nil
	}
	var rules []submissionRule
	for _, kv := range pairs(doc) {
		glob, v := kv[0].Value, resolve(kv[1])
		if msg := globProblem(glob); msg != "" {
			f.bad(kv[0], abbreviate(glob), "%s", msg)
			continue
		}
		if v.Kind != yaml.MappingNode {
			f.bad(v, glob, "want a mapping of what the submissions must get")
			continue
		}
		r := submissionRule{glob: strings.TrimSuffix(glob, "/"), source: fmt.Sprintf("%s:%d", f.name, kv[0].Line)}
		r.fields.source = r.source
		for _, kv2 := range pairs(v) {
			key, val := kv2[0].Value, kv2[1]
			field := glob + "." + key
			switch key {
			case "language", "entrypoint":
				if s, ok := f.str(val, field); ok {
					if key == "language" {
						r.language = s
					} else {
						r.entrypoint = s
					}
				}
			case "model_solution":
				r.model, _ = f.boolean(val, field)
			case "authors":
				checkPersons(f, val, field)
			case "permitted", "required", "score", "message", "use_for_time_limit":
				ruleKey(f, &r.fields, key, val, field)
			default:
				r.groups = append(r.groups, groupRuleOf(f, key, val, field))
			}
		}
		rules = append(rules, r)
	}
	return rules
}

// checkPersons checks a person (a string, or a mapping with a name) or a
// list of persons; the judge does not use them.
func checkPersons(f *yamlFile, v *yaml.Node, field string) {
	v = resolve(v)
	items := []*yaml.Node{v}
	if v.Kind == yaml.SequenceNode {
		items = v.Content
	}
	for _, it := range items {
		it = resolve(it)
		if (it.Kind != yaml.ScalarNode || isNull(it)) && it.Kind != yaml.MappingNode {
			f.bad(it, field, "want a person (a name, or a mapping with a name) or a list of persons")
			return
		}
	}
}

// groupRuleOf reads a rule limited to the tests a glob names.
func groupRuleOf(f *yamlFile, key string, v *yaml.Node, field string) groupRule {
	g := groupRule{glob: strings.TrimSuffix(key, "/")}
	g.fields.source = fmt.Sprintf("%s:%d", f.name, v.Line)
	if msg := globProblem(key); msg != "" {
		f.bad(v, abbreviate(field), "%s", msg)
		return groupRule{}
	}
	v = resolve(v)
	if v.Kind != yaml.MappingNode {
		f.warn(v, field, "unknown key, ignored (a test group's rule is a mapping)")
		return groupRule{}
	}
	for _, kv := range pairs(v) {
		switch k := kv[0].Value; k {
		case "permitted", "required", "score", "message", "use_for_time_limit":
			ruleKey(f, &g.fields, k, kv[1], field+"."+k)
		default:
			f.warn(kv[0], field+"."+k, "unknown key, ignored")
		}
	}
	return g
}

// ruleKey reads one constraining key of a rule.
func ruleKey(f *yamlFile, rf *ruleFields, key string, v *yaml.Node, field string) {
	switch key {
	case "permitted", "required":
		names, ok := f.stringOrStrings(v, field)
		if !ok {
			return
		}
		list := []verdict.Verdict{}
		for _, n := range names {
			x, ok := kattisVerdictName(n)
			if !ok {
				f.bad(v, field, "%q: want AC, WA, TLE or RTE", n)
				return
			}
			list = append(list, x)
		}
		if key == "permitted" {
			rf.permitted = list
		} else {
			rf.required = list
		}
	case "score":
		if r, ok := scoreRangeOf(f, v, field); ok {
			rf.score = &r
		}
	case "message":
		if s, ok := f.str(v, field); ok {
			rf.message = &s
		}
	case "use_for_time_limit":
		if s, ok := f.str(v, field); ok {
			switch s {
			case "true", "false", "lower", "upper":
				rf.useForTimeLimit = &s
			default:
				f.bad(v, field, "%q: want true, false, lower or upper", s)
			}
		}
	}
}

// kattisVerdictName reads a verdict of submissions.yaml.
func kattisVerdictName(s string) (verdict.Verdict, bool) {
	switch s {
	case "AC":
		return verdict.AC, true
	case "WA":
		return verdict.WA, true
	case "TLE":
		return verdict.TLE, true
	case "RTE":
		return verdict.RE, true
	}
	return verdict.Unknown, false
}

// scoreRangeOf reads a score: a number, or a list of the least and the
// most.
func scoreRangeOf(f *yamlFile, v *yaml.Node, field string) (ScoreRange, bool) {
	v = resolve(v)
	if v.Kind != yaml.SequenceNode {
		x, ok := f.float(v, field)
		return ScoreRange{Min: x, Max: x}, ok
	}
	if len(v.Content) != 2 {
		f.bad(v, field, "want a number, or a list of two: the least and the most")
		return ScoreRange{}, false
	}
	lo, ok1 := f.float(v.Content[0], field)
	hi, ok2 := f.float(v.Content[1], field)
	if ok1 && ok2 && lo > hi {
		f.bad(v, field, "the least score %v is above the most %v", lo, hi)
		return ScoreRange{}, false
	}
	return ScoreRange{Min: lo, Max: hi}, ok1 && ok2
}

// override is a default folder's expectation with the keys the rule gives
// in place of the defaults (submissions.yaml naming the folder itself).
func (r submissionRule) override(base Expectation) Expectation {
	e := base
	f := r.fields
	if f.permitted != nil {
		e.Permitted = f.permitted
	}
	if f.required != nil {
		e.Required = f.required
	}
	if f.score != nil {
		e.Score = f.score
	}
	if f.message != nil {
		e.Message = *f.message
	}
	if f.given() {
		e.Source = base.Source + " (with " + r.source + ")"
	}
	if f.permitted != nil || f.required != nil || f.useForTimeLimit != nil {
		e.TimeLimit, _ = timeBound(e.Permitted, e.Required, f.useForTimeLimit)
	}
	return e
}

// expectation makes the rule's expectation on tests ("" for all).
func (f ruleFields) expectation(tests string) (Expectation, error) {
	e := Expectation{Source: f.source, Tests: tests, Permitted: f.permitted, Required: f.required, Score: f.score}
	if f.message != nil {
		e.Message = *f.message
	}
	if u := f.useForTimeLimit; u != nil && *u == "lower" && e.Permitted == nil {
		e.Permitted = vs(verdict.AC, verdict.WA, verdict.RE)
	}
	if u := f.useForTimeLimit; u != nil && *u == "upper" && e.Required == nil {
		e.Required = vs(verdict.TLE)
	}
	var err error
	e.TimeLimit, err = timeBound(e.Permitted, e.Required, f.useForTimeLimit)
	return e, err
}

// timeBound works out how a rule bounds the time limit: a rule requiring
// TLE (and nothing else) bounds it from above, one not permitting TLE from
// below; use_for_time_limit opts out (false) or in (lower, upper).
func timeBound(permitted, required []verdict.Verdict, use *string) (TimeBound, error) {
	auto := TimeBoundNone
	switch {
	case len(required) == 1 && required[0] == verdict.TLE:
		auto = TimeBoundUpper
	case permitted != nil && !hasVerdict(permitted, verdict.TLE):
		auto = TimeBoundLower
	}
	if use == nil || *use == "true" {
		return auto, nil
	}
	switch *use {
	case "false":
		return TimeBoundNone, nil
	case "lower":
		if permitted != nil && hasVerdict(permitted, verdict.TLE) {
			return TimeBoundLower, fmt.Errorf("use_for_time_limit: lower, but TLE is permitted")
		}
		return TimeBoundLower, nil
	}
	if required != nil && !hasVerdict(required, verdict.TLE) {
		return TimeBoundUpper, fmt.Errorf("use_for_time_limit: upper, but TLE is not required")
	}
	return TimeBoundUpper, nil
}

// applyRules adds the expectations of every rule matching s (but the
// folder's own, already applied).
func (p *Package) applyRules(s *ExampleSubmission, rules []submissionRule, list *SubmissionList) {
	rel := strings.TrimPrefix(s.Path, "submissions/")
	_, known := kattisFolders(p.Format)[s.Folder]
	for _, r := range rules {
		if !globMatch(r.glob, rel) {
			continue
		}
		own := known && r.glob == s.Folder
		if r.fields.given() && !own {
			addExpectation(s, r.fields, "", list)
		}
		for _, g := range r.groups {
			if g.glob != "" && g.fields.given() {
				addExpectation(s, g.fields, g.glob, list)
			}
		}
		if r.language != "" {
			s.Language = r.language
		}
		if r.entrypoint != "" {
			s.Entrypoint = r.entrypoint
		}
		s.ModelSolution = s.ModelSolution || r.model
	}
}

func addExpectation(s *ExampleSubmission, f ruleFields, tests string, list *SubmissionList) {
	e, err := f.expectation(tests)
	if err != nil {
		list.Errors = append(list.Errors, &specfile.Error{File: f.source, Msg: err.Error()})
	}
	s.Expectations = append(s.Expectations, e)
}

// maxTagSource bounds how much of a source file is searched for
// @EXPECTED_RESULTS@.
const maxTagSource = 1 << 20

// expectedResults adds the expectation of DOMjudge's @EXPECTED_RESULTS@
// comment, found in one file of the submission.
func (p *Package) expectedResults(s *ExampleSubmission, list *SubmissionList) error {
	files := []string{s.Path}
	if s.Dir {
		files = nil
		err := fs.WalkDir(p.FS, s.Path, func(name string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() {
				files = append(files, name)
			}
			return nil
		})
		if err != nil {
			return fmt.Errorf("listing %s: %w", p.file(s.Path), unwrapPath(err))
		}
	}
	var found *Expectation
	for _, name := range files {
		data, err := readHead(p.FS, name, maxTagSource)
		if err != nil {
			return fmt.Errorf("reading %s: %w", p.file(name), unwrapPath(err))
		}
		e, warn := parseExpectedResults(data)
		if warn != "" {
			list.Warnings = append(list.Warnings, Warning{File: p.file(name), Line: e.line, Msg: warn + "; ignored"})
			continue
		}
		if e.Expectation == nil {
			continue
		}
		if found != nil {
			list.Warnings = append(list.Warnings, Warning{File: p.file(s.Path), Msg: "@EXPECTED_RESULTS@ in more than one file; ignored"})
			return nil
		}
		found = e.Expectation
		found.Source = fmt.Sprintf("%s:%d (@EXPECTED_RESULTS@)", p.file(name), e.line)
	}
	if found != nil {
		s.Expectations = append(s.Expectations, *found)
	}
	return nil
}

func readHead(fsys fs.FS, name string, max int) ([]byte, error) {
	f, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	buf := make([]byte, max)
	n := 0
	for n < max {
		m, err := f.Read(buf[n:])
		n += m
		if err != nil {
			break
		}
	}
	return buf[:n], nil
}

// expectedResults is a source's @EXPECTED_RESULTS@ comment: the rule it
// states and its line; a nil Expectation when the source has none.
type expectedResults struct {
	*Expectation
	line int
}

// domjudgeResults maps DOMjudge's result names (and the Kattis folder
// names it accepts) to the Kattis verdict set.
var domjudgeResults = map[string]verdict.Verdict{
	"CORRECT": verdict.AC, "ACCEPTED": verdict.AC,
	"WRONG-ANSWER": verdict.WA, "WRONG_ANSWER": verdict.WA, "NO-OUTPUT": verdict.WA, "OUTPUT-LIMIT": verdict.WA,
	"TIMELIMIT": verdict.TLE, "TIME_LIMIT_EXCEEDED": verdict.TLE,
	"RUN-ERROR": verdict.RE, "RUN_TIME_ERROR": verdict.RE, "MEMORY-LIMIT": verdict.RE,
	"COMPILER-ERROR": verdict.CE,
}

// parseExpectedResults finds DOMjudge's "@EXPECTED_RESULTS@: " comment in
// a source (matched without regard to case, as DOMjudge does) and reads
// the comma-separated results after it, to the end of the line: the final
// verdict must be one of them and every test accepted or one of them (as
// BAPCtools checks it). "@EXPECTED_SCORE@: N" states the score instead. A
// source with the tag twice, or with an unknown result, gets a warning
// instead of a rule.
func parseExpectedResults(src []byte) (expectedResults, string) {
	lower := asciiLower(src)
	var tag string
	pos := -1
	for _, t := range []string{"@expected_results@: ", "@expected_score@: "} {
		i := bytes.Index(lower, []byte(t))
		if i < 0 {
			continue
		}
		if pos >= 0 || bytes.Contains(lower[i+1:], []byte(t)) {
			return expectedResults{line: lineAt(src, i)}, "more than one @EXPECTED_RESULTS@ or @EXPECTED_SCORE@"
		}
		tag, pos = t, i
	}
	if pos < 0 {
		return expectedResults{}, ""
	}
	line := lineAt(src, pos)
	rest := src[pos+len(tag):]
	if nl := bytes.IndexByte(rest, '\n'); nl >= 0 {
		rest = rest[:nl]
	}
	text := strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(string(rest)), "*/"))
	if tag == "@expected_score@: " {
		x, err := strconv.ParseFloat(text, 64)
		if err != nil || math.IsNaN(x) {
			return expectedResults{line: line}, fmt.Sprintf("@EXPECTED_SCORE@: %q is not a number", text)
		}
		return expectedResults{Expectation: &Expectation{Score: &ScoreRange{Min: x - 1e-6, Max: x + 1e-6}}, line: line}, ""
	}
	e := &Expectation{}
	for _, r := range strings.Split(text, ",") {
		name := strings.ToUpper(strings.TrimSpace(r))
		v, ok := domjudgeResults[name]
		if !ok {
			return expectedResults{line: line}, fmt.Sprintf("@EXPECTED_RESULTS@: %q is not a result (CORRECT, WRONG-ANSWER, TIMELIMIT, RUN-ERROR, MEMORY-LIMIT, OUTPUT-LIMIT, NO-OUTPUT, COMPILER-ERROR)", strings.TrimSpace(r))
		}
		if !hasVerdict(e.Verdicts, v) {
			e.Verdicts = append(e.Verdicts, v)
		}
	}
	e.Permitted = append([]verdict.Verdict{verdict.AC}, e.Verdicts...)
	return expectedResults{Expectation: e, line: line}, ""
}

// asciiLower lowers the ASCII letters only, so that indexes into it are
// indexes into src.
func asciiLower(src []byte) []byte {
	out := make([]byte, len(src))
	for i, c := range src {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		out[i] = c
	}
	return out
}

func lineAt(src []byte, i int) int { return bytes.Count(src[:i], []byte("\n")) + 1 }
