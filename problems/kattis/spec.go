package kattis

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/optjudge/optjudge/bytesize"
	"github.com/optjudge/optjudge/specfile"
)

// Spec is the problem.yaml of a Kattis/ICPC problem package, in any
// of its format versions: legacy (and legacy-icpc), 2023-07 (and its
// draft), 2025-09 (and its draft). The package is laid out as
//
//	problem.yaml
//	data/sample/*.in, *.ans       tests, in groups (subdirectories) too,
//	data/secret/*.in, *.ans       with testdata.yaml or test_group.yaml
//	output_validators/NAME        legacy: the output validator (validation: custom)
//	output_validator/             2023-07 and later: the output validator
//	input_validators/NAME         input validators (exit 42: valid), .ctd and .viva too
//	answer_validators/NAME        answer validators (BAPCtools)
//	graders/NAME                  legacy: a custom grader
//	static_validator/             2025-09: the static validator
//	submissions/<folder>/         example submissions (see ExampleSubmission)
//	submissions/submissions.yaml  2025-09: what each submission must get
//
// Every key of every version is read; a key of another version than the
// package's is used too, with a warning, and a key of no version is a
// warning (as problemtools' verifyproblem treats a package), never an
// error. A value of the wrong type or an impossible one is an error naming
// the file, the line and the key. What the judge does not use (uuid,
// credits, license, keywords...) is checked for its type only.
//
// The problem's type is `type` (a string, or a list in 2023-07 and later:
// pass-fail, scoring, interactive, multi-pass, submit-answer) together with
// the legacy `validation: custom [interactive] [score] [multi-pass]`
// (DOMjudge's multi-pass, read as the 2025-09 type). A multi-pass problem
// runs the submission up to limits.validation_passes times (2 by
// default, a whole number of at least 2) on each test. A submit-answer
// problem's submissions are directories of answers (see AnswerFile).
//
// The time limit is limits.time_limit (2023-07 and later), else the number
// in the file .timelimit at the package's root (as DOMjudge and BAPCtools
// write it), else it is derived from the accepted submissions with the
// margins of TimeMultipliers: see Package.Time.
type Spec struct {
	ProblemFormatVersion string      `yaml:"problem_format_version"`
	Type                 any         `yaml:"type"` // "pass-fail", or a list of types (2023-07)
	Name                 any         `yaml:"name"` // the title; a map language -> title (2023-07)
	UUID                 string      `yaml:"uuid"`
	Version              string      `yaml:"version"`
	Author               string      `yaml:"author"`
	Credits              any         `yaml:"credits"`
	Source               any         `yaml:"source"` // a string, or maps with name and url (2023-07)
	SourceURL            string      `yaml:"source_url"`
	License              string      `yaml:"license"`
	RightsOwner          any         `yaml:"rights_owner"`
	EmbargoUntil         any         `yaml:"embargo_until"`
	Limits               SpecLimits  `yaml:"limits"`
	Validation           string      `yaml:"validation"`
	ValidatorFlags       string      `yaml:"validator_flags"`
	Grading              SpecGrading `yaml:"grading"`
	Keywords             any         `yaml:"keywords"` // space separated, or a list (2023-07)
	Languages            any         `yaml:"languages"`
	AllowFileWriting     bool        `yaml:"allow_file_writing"`
	Constants            any         `yaml:"constants"`

	file      string
	lines     map[string]int
	format    FormatVersion
	ptype     ProblemType
	warnings  []Warning
	nodes     map[string]*yaml.Node // the top-level values read node by node: constants
	constants Constants
}

// SpecLimits are the limits section of a Kattis problem.yaml. Sizes are in
// MiB, times in seconds; code is in KiB.
type SpecLimits struct {
	TimeLimit         float64         `yaml:"time_limit"`         // 2023-07
	TimeMultipliers   SpecMultipliers `yaml:"time_multipliers"`   // 2023-07
	TimeResolution    float64         `yaml:"time_resolution"`    // 2023-07
	TimeMultiplier    float64         `yaml:"time_multiplier"`    // legacy
	TimeSafetyMargin  float64         `yaml:"time_safety_margin"` // legacy
	Memory            float64         `yaml:"memory"`
	Output            float64         `yaml:"output"`
	Code              float64         `yaml:"code"`
	CompilationTime   float64         `yaml:"compilation_time"`
	CompilationMemory float64         `yaml:"compilation_memory"`
	ValidationTime    float64         `yaml:"validation_time"`
	ValidationMemory  float64         `yaml:"validation_memory"`
	ValidationOutput  float64         `yaml:"validation_output"`
	ValidationPasses  float64         `yaml:"validation_passes"`
}

// SpecMultipliers are the 2023-07 margins of the time limit, as
// problem.yaml gives them (0 when absent).
type SpecMultipliers struct {
	ACToTimeLimit  float64 `yaml:"ac_to_time_limit"`
	TimeLimitToTLE float64 `yaml:"time_limit_to_tle"`
}

// SpecGrading is the legacy grading section of a scoring problem, with
// the keys that predate the legacy version (accept_score, reject_score,
// range, on_reject), which override every group's testdata.yaml as
// problemtools has it.
type SpecGrading struct {
	Objective          string   `yaml:"objective"` // max (default) or min
	ShowTestDataGroups bool     `yaml:"show_test_data_groups"`
	AcceptScore        *float64 `yaml:"accept_score"`
	RejectScore        *float64 `yaml:"reject_score"`
	Range              string   `yaml:"range"`
	OnReject           string   `yaml:"on_reject"` // first_error, worst_error or grade
}

// Parse decodes a Kattis problem.yaml read from r; name is the file
// name used in messages. Unknown keys are warnings (see Warnings); a value
// of the wrong type is an error.
func Parse(r io.Reader, name string) (*Spec, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", name, err)
	}
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return nil, specfile.Syntax(name, err)
	}
	k := &Spec{file: name, lines: map[string]int{}}
	if len(root.Content) == 0 {
		// An empty problem.yaml is a valid legacy package: every key has a default.
		return k, nil
	}
	doc := root.Content[0]
	if err := specfile.DuplicateKeys(name, doc, specfile.MaxKeys); err != nil {
		return nil, err
	}
	specfile.CollectLines(doc, "", k.lines)
	k.nodes = map[string]*yaml.Node{}
	if doc.Kind == yaml.MappingNode {
		for _, kv := range pairs(doc) {
			if kv[0].Value == "constants" {
				k.nodes[kv[0].Value] = kv[1]
			}
		}
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(k); err != nil {
		errs := specfile.Errors{}
		for _, e := range asSpecErrors(specfile.Decode(name, err, doc)) {
			if e.Msg == "unknown key" {
				k.warnings = append(k.warnings, Warning{File: e.File, Line: e.Line, Field: e.Field, Msg: "unknown key, ignored"})
				continue
			}
			errs = append(errs, e)
		}
		if len(errs) > 0 {
			return nil, errs
		}
	}
	k.format, _ = parseFormatVersion(k.ProblemFormatVersion)
	k.warnOtherVersions()
	return k, nil
}

// Format is the package's format version family.
func (k *Spec) Format() FormatVersion { return k.format }

// Warnings are the oddities Parse and Validate found.
func (k *Spec) Warnings() []Warning { return k.warnings }

// ProblemType is the type Validate worked out from type and validation.
func (k *Spec) ProblemType() ProblemType { return k.ptype }

// kattisKeyVersions says in which format versions each key of problem.yaml
// exists; a key missing here exists in all of them.
var kattisKeyVersions = map[string][]FormatVersion{
	"author": {FormatLegacy}, "source_url": {FormatLegacy}, "validation": {FormatLegacy},
	"validator_flags": {FormatLegacy}, "grading": {FormatLegacy},
	"version": {Format2023, Format2025}, "credits": {Format2023, Format2025},
	"embargo_until": {Format2023, Format2025}, "languages": {Format2023, Format2025},
	"allow_file_writing": {Format2023, Format2025}, "constants": {Format2023, Format2025},
	"limits.time_multiplier": {FormatLegacy}, "limits.time_safety_margin": {FormatLegacy},
	"limits.time_limit": {Format2023, Format2025}, "limits.time_multipliers": {Format2023, Format2025},
	"limits.time_resolution": {Format2023, Format2025}, "limits.validation_passes": {Format2023, Format2025},
}

// warnOtherVersions warns about each key of another format version.
func (k *Spec) warnOtherVersions() {
	keys := make([]string, 0, len(kattisKeyVersions))
	for key := range kattisKeyVersions {
		keys = append(keys, key)
	}
	sort.Strings(keys)
	for _, key := range keys {
		line, present := k.lines[key]
		vs := kattisKeyVersions[key]
		if !present || containsVersion(vs, k.format) {
			continue
		}
		names := make([]string, len(vs))
		for i, v := range vs {
			names[i] = v.String()
		}
		k.warnings = append(k.warnings, Warning{File: k.file, Line: line, Field: key,
			Msg: fmt.Sprintf("not a key of format %s (it is one of %s); used anyway", k.format, strings.Join(names, " and "))})
	}
}

func containsVersion(vs []FormatVersion, v FormatVersion) bool {
	for _, x := range vs {
		if x == v {
			return true
		}
	}
	return false
}

var kattisVersions = []string{"legacy", "legacy-icpc", "2023-07-draft", "2023-07", "2025-09-draft", "2025-09", "draft"}

var kattisLicenses = []string{"unknown", "public domain", "cc0", "cc by", "cc by-sa", "educational", "permission"}

// Validate checks the values the judge relies on, works out the problem's
// type, and refuses what it cannot judge, naming every bad key.
func (k *Spec) Validate() error {
	var es specfile.Errors
	bad := func(field, format string, args ...any) {
		es = append(es, &specfile.Error{File: k.file, Line: k.lineOf(field), Field: field, Msg: fmt.Sprintf(format, args...)})
	}
	if v := k.ProblemFormatVersion; v != "" && !contains(kattisVersions, v) {
		bad("problem_format_version", "%q: want one of %s", v, strings.Join(kattisVersions, ", "))
	}
	k.validateType(bad)
	if _, ok := k.title(); !ok {
		bad("name", "want a string, or a mapping from languages to strings")
	}
	if k.License != "" && !contains(kattisLicenses, k.License) {
		bad("license", "%q: want one of %s", k.License, strings.Join(kattisLicenses, ", "))
	}
	if _, ok := stringOrList(k.Keywords); !ok {
		bad("keywords", "want a string or a list of strings")
	}
	if langs, ok := stringOrList(k.Languages); !ok {
		bad("languages", "want all, or a list of language codes")
	} else if len(langs) > 1 && contains(langs, "all") {
		bad("languages", "all excludes a list of languages")
	} else if _, given := k.lines["languages"]; given && len(langs) == 0 {
		bad("languages", "want all, or a non-empty list of language codes")
	}
	k.validateLimits(bad)
	k.validatePasses(bad)
	k.validateGrading(bad)
	k.parseConstants(k.nodes["constants"], bad)
	if k.format != FormatLegacy {
		for _, key := range []string{"name", "uuid"} {
			if _, ok := k.lines[key]; !ok {
				k.warnings = append(k.warnings, Warning{File: k.file, Field: key, Msg: fmt.Sprintf("required in format %s", k.format)})
			}
		}
	}
	if len(es) > 0 {
		return es
	}
	return nil
}

// validateType reads type and the legacy validation into k.ptype.
func (k *Spec) validateType(bad func(field, format string, args ...any)) {
	types, ok := stringOrList(k.Type)
	if !ok {
		bad("type", "want a string or a list of strings")
	}
	var t ProblemType
	seen := map[string]bool{}
	for _, name := range types {
		if seen[name] {
			bad("type", "%q is given twice", name)
		}
		seen[name] = true
		switch name {
		case "pass-fail":
		case "scoring":
			t.Scoring = true
		case "interactive":
			t.Interactive = true
		case "multi-pass":
			t.MultiPass = true
		case "submit-answer":
			t.SubmitAnswer = true
		default:
			bad("type", "%q: want pass-fail, scoring, interactive, multi-pass or submit-answer", name)
		}
	}
	if seen["pass-fail"] && seen["scoring"] {
		bad("type", "pass-fail and scoring exclude each other")
	}
	if t.SubmitAnswer && (t.MultiPass || t.Interactive) {
		bad("type", "submit-answer excludes multi-pass and interactive")
	}
	words := strings.Fields(k.Validation)
	switch {
	case len(words) == 0:
	case words[0] == "default":
		if len(words) > 1 {
			bad("validation", "%q: default takes no parameters (custom does: interactive, score, multi-pass)", k.Validation)
		}
	case words[0] == "custom":
		for _, w := range words[1:] {
			switch w {
			case "interactive":
				t.Interactive = true
			case "multi-pass":
				// DOMjudge's legacy extension
				t.MultiPass = true
			case "score":
				if !t.Scoring {
					bad("validation", "custom score is only for scoring problems (type: scoring)")
				}
			default:
				bad("validation", "%q: custom takes interactive, score and multi-pass", w)
			}
		}
	default:
		bad("validation", "%q: want default or custom", k.Validation)
	}
	k.ptype = t
}

// customValidation is the legacy validation: custom.
func (k *Spec) customValidation() bool { return strings.HasPrefix(k.Validation, "custom") }

// customScore is the legacy validation: custom score.
func (k *Spec) customScore() bool {
	words := strings.Fields(k.Validation)
	return len(words) > 0 && words[0] == "custom" && contains(words[1:], "score")
}

func (k *Spec) validateLimits(bad func(field, format string, args ...any)) {
	l := k.Limits
	for _, f := range []struct {
		key string
		v   float64
	}{
		{"time_limit", l.TimeLimit}, {"time_multipliers.ac_to_time_limit", l.TimeMultipliers.ACToTimeLimit},
		{"time_multipliers.time_limit_to_tle", l.TimeMultipliers.TimeLimitToTLE}, {"time_resolution", l.TimeResolution},
		{"time_multiplier", l.TimeMultiplier}, {"time_safety_margin", l.TimeSafetyMargin},
		{"memory", l.Memory}, {"output", l.Output}, {"code", l.Code},
		{"compilation_time", l.CompilationTime}, {"compilation_memory", l.CompilationMemory},
		{"validation_time", l.ValidationTime}, {"validation_memory", l.ValidationMemory},
		{"validation_output", l.ValidationOutput}, {"validation_passes", l.ValidationPasses},
	} {
		field := "limits." + f.key
		if _, given := k.lines[field]; given && (math.IsNaN(f.v) || math.IsInf(f.v, 0) || f.v <= 0) {
			bad(field, "must be > 0, got %v", f.v)
		}
	}
	// the judge holds these in durations and byte counts
	for _, f := range []struct {
		key  string
		v    float64
		max  float64
		unit string
	}{{"time_limit", l.TimeLimit, 3600, "seconds (an hour)"}, {"memory", l.Memory, 1 << 20, "MiB"}, {"output", l.Output, 1 << 14, "MiB"}} {
		if f.v > f.max {
			bad("limits."+f.key, "%v: at most %v %s", f.v, f.max, f.unit)
		}
	}
	for _, f := range []struct {
		key string
		v   float64
	}{
		{"time_multipliers.ac_to_time_limit", l.TimeMultipliers.ACToTimeLimit},
		{"time_multipliers.time_limit_to_tle", l.TimeMultipliers.TimeLimitToTLE},
	} {
		field := "limits." + f.key
		if line, given := k.lines[field]; given && f.v > 0 && f.v < 1 {
			k.warnings = append(k.warnings, Warning{File: k.file, Line: line, Field: field, Msg: fmt.Sprintf("%v is below 1: the format wants a margin of at least 1", f.v)})
		}
	}
}

// validatePasses checks limits.validation_passes: a whole number of at
// least 2, for multi-pass problems only (elsewhere a warning: ignored).
func (k *Spec) validatePasses(bad func(field, format string, args ...any)) {
	const field = "limits.validation_passes"
	line, given := k.lines[field]
	if !given {
		return
	}
	if n := k.Limits.ValidationPasses; n != math.Trunc(n) || n < 2 {
		bad(field, "%v: want a whole number of at least 2", n)
		return
	}
	if !k.ptype.MultiPass {
		k.warnings = append(k.warnings, Warning{File: k.file, Line: line, Field: field, Msg: "only for multi-pass problems; ignored"})
	}
}

// passes is the most passes of a multi-pass problem on one test
// (limits.validation_passes, 2 by default); 0 for any other problem.
func (k *Spec) passes() int {
	switch {
	case !k.ptype.MultiPass:
		return 0
	case k.Limits.ValidationPasses >= 2:
		return int(k.Limits.ValidationPasses)
	}
	return 2
}

// validateGrading checks the legacy grading section.
func (k *Spec) validateGrading(bad func(field, format string, args ...any)) {
	g := k.Grading
	if g.Objective != "" && g.Objective != "max" && g.Objective != "min" {
		bad("grading.objective", "%q: want max or min", g.Objective)
	}
	if g.OnReject != "" && !contains([]string{"first_error", "worst_error", "grade"}, g.OnReject) {
		bad("grading.on_reject", "%q: want first_error, worst_error or grade", g.OnReject)
	}
	if g.Range != "" {
		if _, err := parseRange(g.Range); err != nil {
			bad("grading.range", "%v", err)
		}
	}
	for _, key := range []string{"accept_score", "reject_score", "range", "on_reject"} {
		if line, ok := k.lines["grading."+key]; ok {
			k.warnings = append(k.warnings, Warning{File: k.file, Line: line, Field: "grading." + key,
				Msg: "deprecated in problem.yaml: set it in testdata.yaml; it overrides every group's"})
		}
	}
	if !k.ptype.Scoring {
		if _, ok := k.lines["grading"]; ok {
			k.warnings = append(k.warnings, Warning{File: k.file, Line: k.lines["grading"], Field: "grading", Msg: "only for scoring problems; ignored"})
		}
	}
}

// title returns the problem's name: the string, or the English (else the
// first) entry of a map.
func (k *Spec) title() (string, bool) {
	switch n := k.Name.(type) {
	case nil:
		return "", true
	case string:
		return n, true
	case map[string]any:
		langs := make([]string, 0, len(n))
		for lang, v := range n {
			if _, ok := v.(string); !ok {
				return "", false
			}
			langs = append(langs, lang)
		}
		sort.Strings(langs)
		if t, ok := n["en"]; ok {
			return t.(string), true
		}
		if len(langs) > 0 {
			return n[langs[0]].(string), true
		}
		return "", true
	}
	return "", false
}

// sources returns the source credits as strings.
func (k *Spec) sources() []string {
	var out []string
	add := func(v any) {
		switch s := v.(type) {
		case string:
			out = append(out, s)
		case map[string]any:
			if n, ok := s["name"].(string); ok {
				out = append(out, n)
			}
		}
	}
	if l, ok := k.Source.([]any); ok {
		for _, v := range l {
			add(v)
		}
	} else {
		add(k.Source)
	}
	return out
}

func (k *Spec) lineOf(field string) int { return specfile.LineOf(k.lines, field) }

// submitRules are what problem.yaml says of the submissions.
func (k *Spec) submitRules() SubmitRules {
	l := k.Limits
	r := SubmitRules{
		CodeLimit:         bytesize.Size(l.Code * float64(bytesize.KiB)),
		CompilationTime:   seconds(l.CompilationTime),
		CompilationMemory: bytesize.Size(l.CompilationMemory * float64(bytesize.MiB)),
		ValidationOutput:  bytesize.Size(l.ValidationOutput * float64(bytesize.MiB)),
		AllowFileWriting:  k.AllowFileWriting,
	}
	if _, given := k.lines["allow_file_writing"]; !given && k.format != Format2025 {
		r.AllowFileWriting = true // before 2025-09, nothing said otherwise (problemtools: true in 2023-07)
	}
	if langs, _ := stringOrList(k.Languages); len(langs) > 0 && !(len(langs) == 1 && langs[0] == "all") {
		r.Languages = langs
	}
	return r
}

// multipliers are the package's time-limit margins: the version's defaults
// under what limits says (the legacy and the 2023-07 keys alike).
func (k *Spec) multipliers() TimeMultipliers {
	m := TimeMultipliers2023
	if k.format == FormatLegacy {
		m = LegacyTimeMultipliers
	}
	l := k.Limits
	if l.TimeMultiplier > 0 {
		m.ACToTimeLimit = l.TimeMultiplier
	}
	if l.TimeSafetyMargin > 0 {
		m.TimeLimitToTLE = l.TimeSafetyMargin
	}
	if l.TimeMultipliers.ACToTimeLimit > 0 {
		m.ACToTimeLimit = l.TimeMultipliers.ACToTimeLimit
	}
	if l.TimeMultipliers.TimeLimitToTLE > 0 {
		m.TimeLimitToTLE = l.TimeMultipliers.TimeLimitToTLE
	}
	if l.TimeResolution > 0 {
		m.Resolution = seconds(l.TimeResolution)
	}
	return m
}

// stringOrList accepts nothing, a string, or a list of strings.
func stringOrList(v any) ([]string, bool) {
	switch x := v.(type) {
	case nil:
		return nil, true
	case string:
		return strings.Fields(x), true
	case []any:
		out := make([]string, 0, len(x))
		for _, e := range x {
			s, ok := e.(string)
			if !ok {
				return nil, false
			}
			out = append(out, s)
		}
		return out, true
	}
	return nil, false
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
