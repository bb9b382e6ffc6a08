package problems

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"path"
	"sort"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/optjudge/optjudge/checkers"
)

// KattisSpec is the problem.yaml of a Kattis/ICPC problem package, in the
// legacy format or the 2023-07 one. The package is laid out as
//
//	problem.yaml
//	data/sample/*.in, *.ans       tests, in subdirectories (groups) too
//	data/secret/*.in, *.ans
//	output_validators/NAME        the output validator with validation: custom
//	output_validator/             (2023-07) the output validator
//	input_validators/NAME         input validators (exit 42: valid)
//	submissions/<verdict>/        example submissions
//
// Every key of both formats is accepted and any other is an error; what the
// judge does not use (uuid, author, license, keywords...) is checked for its
// type only. Where the value may take several shapes (name, source, type,
// keywords...), both are accepted. The judge grades pass-fail problems with
// one output validator or the default one; scoring and interactive problems
// are refused with a message naming the key.
//
// The time limit is limits.time_limit (2023-07), else the number in the
// file .timelimit at the package's root (as DOMjudge and BAPCtools write
// it), else 1 second. judge verify checks it against the ICPC margins: 2 for
// the slowest accepted run and 1.5 for the time-limit-exceeded ones, or
// limits.time_multipliers (2023-07), or the legacy time_multiplier and
// time_safety_margin when they are given.
type KattisSpec struct {
	ProblemFormatVersion string       `yaml:"problem_format_version"`
	Type                 any          `yaml:"type"` // "pass-fail", or a list of types (2023-07)
	Name                 any          `yaml:"name"` // the title; a map language -> title (2023-07)
	UUID                 string       `yaml:"uuid"`
	Version              string       `yaml:"version"`
	Author               string       `yaml:"author"`
	Credits              any          `yaml:"credits"`
	Source               any          `yaml:"source"` // a string, or maps with name and url (2023-07)
	SourceURL            string       `yaml:"source_url"`
	License              string       `yaml:"license"`
	RightsOwner          any          `yaml:"rights_owner"`
	EmbargoUntil         any          `yaml:"embargo_until"`
	Limits               KattisLimits `yaml:"limits"`
	Validation           string       `yaml:"validation"`
	ValidatorFlags       string       `yaml:"validator_flags"`
	Grading              any          `yaml:"grading"`
	Keywords             any          `yaml:"keywords"` // space separated, or a list (2023-07)
	Languages            any          `yaml:"languages"`
	AllowFileWriting     bool         `yaml:"allow_file_writing"`
	Constants            any          `yaml:"constants"`

	file  string
	lines map[string]int
}

// KattisLimits are the limits section of a Kattis problem.yaml. Sizes are in
// MiB, times in seconds; code is in KiB.
type KattisLimits struct {
	TimeLimit         float64         `yaml:"time_limit"`         // 2023-07
	TimeMultipliers   TimeMultipliers `yaml:"time_multipliers"`   // 2023-07
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

// TimeMultipliers are the 2023-07 margins of the time limit.
type TimeMultipliers struct {
	ACToTimeLimit  float64 `yaml:"ac_to_time_limit"`
	TimeLimitToTLE float64 `yaml:"time_limit_to_tle"`
}

// ParseKattis decodes a Kattis problem.yaml read from r; name is the file
// name used in error messages.
func ParseKattis(r io.Reader, name string) (*KattisSpec, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", name, err)
	}
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return nil, syntaxError(name, err)
	}
	k := &KattisSpec{file: name, lines: map[string]int{}}
	if len(root.Content) == 0 {
		// An empty problem.yaml is a valid legacy package: every key has a default.
		return k, nil
	}
	collectLines(root.Content[0], "", k.lines)
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(k); err != nil {
		return nil, decodeError(name, err, root.Content[0])
	}
	return k, nil
}

var kattisVersions = []string{"legacy", "legacy-icpc", "2023-07-draft", "2023-07", "2025-09-draft", "2025-09"}

var kattisLicenses = []string{"unknown", "public domain", "cc0", "cc by", "cc by-sa", "educational", "permission"}

// Validate checks the values the judge relies on and refuses what it cannot
// judge, naming every bad key.
func (k *KattisSpec) Validate() error {
	var es SpecErrors
	bad := func(field, format string, args ...any) {
		es = append(es, &SpecError{File: k.file, Line: k.lineOf(field), Field: field, Msg: fmt.Sprintf(format, args...)})
	}
	if v := k.ProblemFormatVersion; v != "" && !contains(kattisVersions, v) {
		bad("problem_format_version", "%q: want one of %s", v, strings.Join(kattisVersions, ", "))
	}
	types, ok := stringOrList(k.Type)
	if !ok {
		bad("type", "want a string or a list of strings")
	}
	for _, t := range types {
		if t != "pass-fail" {
			bad("type", "%q problems are not supported: the judge grades pass-fail problems", t)
		}
	}
	if _, ok := k.title(); !ok {
		bad("name", "want a string, or a mapping from languages to strings")
	}
	if k.License != "" && !contains(kattisLicenses, k.License) {
		bad("license", "%q: want one of %s", k.License, strings.Join(kattisLicenses, ", "))
	}
	if _, ok := stringOrList(k.Keywords); !ok {
		bad("keywords", "want a string or a list of strings")
	}
	k.validateLimits(bad)
	words := strings.Fields(k.Validation)
	switch {
	case len(words) == 0:
	case words[0] != "default" && words[0] != "custom":
		bad("validation", "%q: want default or custom", k.Validation)
	case len(words) > 1:
		bad("validation", "%q: interactive and scoring validation are not supported", k.Validation)
	}
	if !k.custom() {
		for _, f := range strings.Fields(k.ValidatorFlags) {
			if f != "case_sensitive" {
				bad("validator_flags", "%q: the default validator here compares tokens exactly; use a custom output validator", f)
			}
		}
	}
	if len(es) > 0 {
		return es
	}
	return nil
}

func (k *KattisSpec) validateLimits(bad func(field, format string, args ...any)) {
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
		if _, given := k.lines[field]; given && (math.IsNaN(f.v) || f.v <= 0) {
			bad(field, "must be > 0, got %v", f.v)
		}
	}
}

func (k *KattisSpec) custom() bool { return strings.HasPrefix(k.Validation, "custom") }

// title returns the problem's name: the string, or the English (else the
// first) entry of a map.
func (k *KattisSpec) title() (string, bool) {
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
func (k *KattisSpec) sources() []string {
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

func (k *KattisSpec) lineOf(field string) int {
	s := Spec{lines: k.lines}
	return s.lineOf(field)
}

// rules are the time-limit margins the package asks for.
func (k *KattisSpec) rules() TimeRules {
	r := DefaultTimeRules
	l := k.Limits
	if l.TimeMultiplier > 0 {
		r.AC = l.TimeMultiplier
	}
	if l.TimeSafetyMargin > 0 {
		r.TLE = l.TimeSafetyMargin
	}
	if l.TimeMultipliers.ACToTimeLimit > 0 {
		r.AC = l.TimeMultipliers.ACToTimeLimit
	}
	if l.TimeMultipliers.TimeLimitToTLE > 0 {
		r.TLE = l.TimeMultipliers.TimeLimitToTLE
	}
	return r
}

// spec translates the package's problem.yaml and directories into the
// judge's Spec; short is the package's directory name.
func (k *KattisSpec) spec(fsys fs.FS, short string) (*Spec, error) {
	s := Defaults()
	s.file, s.lines = k.file, k.lines
	s.Name = short
	s.Title, _ = k.title()
	if strings.TrimSpace(s.Title) == "" {
		s.Title = short
	}
	s.Sources = k.sources()
	if k.Limits.Memory > 0 {
		s.Limits.Memory = k.Limits.Memory
	}
	if k.Limits.Output > 0 {
		s.Limits.Output = k.Limits.Output
	}
	tl, err := k.timeLimit(fsys)
	if err != nil {
		return nil, err
	}
	s.Limits.TimeLimit = tl
	validator, err := k.outputValidator(fsys)
	if err != nil {
		return nil, err
	}
	if validator != "" {
		s.Checker = CheckerSpec{Program: validator, Protocol: checkers.Kattis.String()}
		if flags := strings.Fields(k.ValidatorFlags); len(flags) > 0 {
			s.Checker.Args = flags
		}
	}
	s.InputValidators, err = programsIn(fsys, "input_validators", "input_format_validators")
	if err != nil {
		return nil, fmt.Errorf("%s: %w", k.file, err)
	}
	return &s, nil
}

// timeLimit is limits.time_limit, else .timelimit, else the default.
func (k *KattisSpec) timeLimit(fsys fs.FS) (float64, error) {
	if k.Limits.TimeLimit > 0 {
		return k.Limits.TimeLimit, nil
	}
	b, err := fs.ReadFile(fsys, ".timelimit")
	if errors.Is(err, fs.ErrNotExist) {
		return Defaults().Limits.TimeLimit, nil
	}
	name := path.Join(path.Dir(k.file), ".timelimit")
	if err != nil {
		return 0, fmt.Errorf("reading %s: %w", name, err)
	}
	tl, err := strconv.ParseFloat(strings.TrimSpace(string(b)), 64)
	if err != nil || tl <= 0 || math.IsNaN(tl) || math.IsInf(tl, 0) {
		return 0, &SpecError{File: name, Line: 1, Msg: fmt.Sprintf("want a time limit in seconds, got %q", strings.TrimSpace(string(b)))}
	}
	return tl, nil
}

// outputValidator finds the output validator's program: output_validator/
// (2023-07), or the one program in output_validators/ with validation:
// custom. It returns "" for the default validator.
func (k *KattisSpec) outputValidator(fsys fs.FS) (string, error) {
	if isDirFS(fsys, "output_validator") {
		return "output_validator", nil
	}
	progs, err := programsIn(fsys, "output_validators")
	if err != nil {
		return "", fmt.Errorf("%s: %w", k.file, err)
	}
	if !k.custom() {
		return "", nil
	}
	switch len(progs) {
	case 0:
		return "", &SpecError{File: k.file, Line: k.lineOf("validation"), Field: "validation",
			Msg: "custom, but there is no program in output_validators/ or output_validator/"}
	case 1:
		return progs[0], nil
	}
	return "", &SpecError{File: k.file, Line: k.lineOf("validation"), Field: "validation",
		Msg: fmt.Sprintf("output_validators/ holds %d programs (%s); the judge runs one", len(progs), strings.Join(progs, ", "))}
}

// programsIn lists the programs in the first of dirs that exists: each file
// or directory in it is one program, as the Kattis format has it.
func programsIn(fsys fs.FS, dirs ...string) ([]string, error) {
	for _, d := range dirs {
		entries, err := fs.ReadDir(fsys, d)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		var progs []string
		for _, e := range entries {
			if !strings.HasPrefix(e.Name(), ".") {
				progs = append(progs, path.Join(d, e.Name()))
			}
		}
		return progs, nil
	}
	return nil, nil
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

func isDirFS(fsys fs.FS, name string) bool {
	st, err := fs.Stat(fsys, name)
	return err == nil && st.IsDir()
}
