package kattis

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// Group is a test data group: a directory under data/ with the settings
// that govern its tests and how its result is graded.
//
// In the legacy and 2023-07 formats every directory is a group, with the
// settings of its testdata.yaml inherited key by key from the nearest
// ancestor that sets them (problemtools' reading). In 2025-09 the groups
// are sample, secret and the subdirectories of secret that hold a
// test_group.yaml; the tests in any other subdirectory belong to the group
// above it, and the test arguments are inherited from data/ to secret to
// its groups, while the scoring keys are each group's own.
type Group struct {
	Name     string // "" for data/ itself; "sample", "secret", "secret/group1"
	Dir      string // its directory in the problem's FS, e.g. "data/secret/group1"
	Config   string // its testdata.yaml or test_group.yaml in the FS; "" when it has none
	Settings GroupSettings
	// Items are its tests and subgroups in the order they are judged.
	// Legacy: the directory's entries sorted by name, a test sorting as
	// its .ans file (problemtools' order); 2025-09: the tests sorted by
	// name, or the groups of secret sorted by name.
	Items []Item
}

// Item is a test or a subgroup of a group: exactly one of the two is set.
type Item struct {
	Test  *Test
	Group *Group
}

// GroupRules says which rules a package's groups follow.
type GroupRules int

const (
	// GroupRulesLegacy: testdata.yaml as the legacy format and
	// problemtools (for 2023-07 too) read it. Each group's result is its
	// grader's (the default grader with GraderFlags, or the custom
	// grader) over its items' results, stopping at the first rejected
	// item with on_reject: break; a test's score is the validator's
	// score.txt, else AcceptScore or RejectScore. The root data/ is the
	// submission's result.
	GroupRulesLegacy GroupRules = iota
	// GroupRules2025: test_group.yaml as 2025-09 has it. A pass-fail
	// problem is accepted when every test is; a scoring problem's score is
	// secret's, from its groups' or tests' scores by Aggregation and
	// MaxScore, with RequirePass dependencies and static validation.
	GroupRules2025
)

// GroupSettings are a group's effective settings, defaults and
// inheritance applied.
type GroupSettings struct {
	// Legacy and 2023-07 (testdata.yaml), inherited.
	OnReject    OnReject   // break (default) or continue
	Grading     string     // "default" (the default grader) or "custom" (graders/)
	GraderFlags []string   // the default grader's flags: worst_error, first_error, always_accept, sum, avg, min, max, ignore_sample, accept_if_any_accepted
	AcceptScore float64    // an accepted test's score when the validator gives none (1)
	RejectScore float64    // a rejected test's score (0)
	Range       ScoreRange // the scores the group may get (-inf +inf)

	// 2025-09 (test_group.yaml), the group's own.
	MaxScore    float64     // the most the group (or secret) may score, when bounded
	Unbounded   bool        // max_score: unbounded (the default below secret)
	Aggregation Aggregation // pass-fail, sum (secret's default) or min
	RequirePass []string    // groups (or sample) every test of which must pass for this one to be run
	// StaticValidation is the group's static validation test case;
	// nil when it has none.
	StaticValidation *StaticValidation

	// Test is what every test of the group starts from (a test's .yaml may
	// change it in 2025-09).
	Test TestConfig
}

// OnReject is what judging does after a rejected test or subgroup.
type OnReject int

const (
	OnRejectBreak    OnReject = iota // stop, and grade what was judged
	OnRejectContinue                 // judge the rest of the group too
)

func (o OnReject) String() string {
	if o == OnRejectContinue {
		return "continue"
	}
	return "break"
}

// Aggregation is how a 2025-09 group's score comes from its items'.
type Aggregation int

const (
	AggregatePassFail Aggregation = iota // the group's max_score if every test is accepted, else 0
	AggregateSum                         // the sum of its items' scores
	AggregateMin                         // the least of its items' scores
)

func (a Aggregation) String() string {
	switch a {
	case AggregateSum:
		return "sum"
	case AggregateMin:
		return "min"
	}
	return "pass-fail"
}

// StaticValidation is a 2025-09 static validation test case: the static
// validator run on the submission's source, worth Score (or pass-fail).
type StaticValidation struct {
	Score    float64
	PassFail bool
	Args     []string // static_validator_args

	argsOnly *yaml.Node // static_validator_args read before (or without) the score
}

// ScoreRange is a closed range of scores; infinite ends are allowed.
type ScoreRange struct{ Min, Max float64 }

// FullRange is the default range, -inf to +inf.
var FullRange = ScoreRange{Min: math.Inf(-1), Max: math.Inf(1)}

// Contains says whether the range holds s.
func (r ScoreRange) Contains(s float64) bool { return r.Min <= s && s <= r.Max }

func (r ScoreRange) String() string {
	return fmt.Sprintf("[%s, %s]", formatScore(r.Min), formatScore(r.Max))
}

// parseRange reads the legacy "A B" range; inf, -inf and +inf are allowed.
func parseRange(s string) (ScoreRange, error) {
	f := strings.Fields(s)
	if len(f) != 2 {
		return FullRange, fmt.Errorf("%q: want two numbers, the least and the most score", s)
	}
	var v [2]float64
	for i, w := range f {
		x, err := strconv.ParseFloat(w, 64)
		if err != nil || math.IsNaN(x) {
			return FullRange, fmt.Errorf("%q: %q is not a number", s, w)
		}
		v[i] = x
	}
	if v[0] > v[1] {
		return FullRange, fmt.Errorf("%q: the least score is above the most", s)
	}
	return ScoreRange{Min: v[0], Max: v[1]}, nil
}

func formatScore(s float64) string {
	switch {
	case math.IsInf(s, 1):
		return "+inf"
	case math.IsInf(s, -1):
		return "-inf"
	}
	return strconv.FormatFloat(s, 'g', -1, 64)
}

// TestConfig is the configuration of one test: what its group says, with
// the test's own files and (2025-09) its .yaml.
type TestConfig struct {
	// Group names the test data group whose settings apply, e.g.
	// "secret/group1"; in 2025-09 the group above a plain directory.
	Group string

	// Args are the submission's command-line arguments (2023-07: .args;
	// 2025-09: args).
	Args []string
	// Files is the test's .files directory in the FS, copied into the
	// submission's working directory (and the input validator's, 2025-09)
	// before it runs; "" when there is none.
	Files string
	// InputValidatorArgs and AnswerValidatorArgs are the validators'
	// arguments (legacy: input_validator_flags).
	InputValidatorArgs  ValidatorArgs
	AnswerValidatorArgs ValidatorArgs
	// OutputValidatorArgs are the output validator's extra arguments, the
	// default validator's flags (case_sensitive, space_change_sensitive,
	// float_tolerance ε...) or a custom one's: legacy validator_flags then
	// output_validator_flags (problemtools concatenates them), or 2025-09
	// output_validator_args.
	OutputValidatorArgs []string
	// OutputValidatorArgsFrom says where they were set, for messages:
	// "data/secret/testdata.yaml:3: output_validator_flags".
	OutputValidatorArgsFrom string
	// InputVisualizerArgs and OutputVisualizerArgs (2025-09) are not used
	// in judging.
	InputVisualizerArgs  []string
	OutputVisualizerArgs []string
	// FullFeedback: a solver who fails the test may see it (2025-09; true
	// in sample).
	FullFeedback bool
	// Hint and Description: the .hint and .desc files beside the test, or
	// hint and description in its .yaml.
	Hint, Description string
	// Out is the test's .out file, an output the validator must accept;
	// "" when none.
	Out string
	// Interaction is the .interaction file beside it: shown, never run.
	Interaction string
	// InStatement, AnsStatement, InDownload, AnsDownload are the files
	// shown or offered for download instead of .in and .ans; "" when none.
	InStatement, AnsStatement, InDownload, AnsDownload string
	// Static marks the static validation test case of its group: the
	// judge runs the static validator on the submission instead.
	Static bool
}

// ValidatorArgs are the arguments of a kind of validator: the same for
// each (All), or per validator name (ByName; validators it does not name
// get none).
type ValidatorArgs struct {
	All    []string
	ByName map[string][]string
}

// For returns the arguments of the validator called name (see
// Program.Name).
func (a ValidatorArgs) For(name string) []string {
	if a.ByName != nil {
		return a.ByName[name]
	}
	return a.All
}

// InputValidatorArgs are the arguments the problem's input validator v
// gets on test t: its input_validator_args, followed in 2025-09 by the
// test's args.
func (p *Package) InputValidatorArgs(t Test, v Program) []string {
	if t.Config == nil {
		return v.Args
	}
	args := append([]string(nil), t.Config.InputValidatorArgs.For(v.Name())...)
	if p.GroupRules == GroupRules2025 {
		args = append(args, t.Config.Args...)
	}
	return args
}

// OutputValidatorArgs are the extra arguments of the output validator (the
// default one's flags, or the custom one's arguments) on test t.
func (p *Package) OutputValidatorArgs(t Test) []string {
	if t.Config != nil {
		return t.Config.OutputValidatorArgs
	}
	if p.CheckerProgram != nil {
		return p.CheckerProgram.Args
	}
	return nil
}

// AllTests lists every test below g, in judging order.
func (g *Group) AllTests() []*Test {
	var out []*Test
	for _, it := range g.Items {
		if it.Test != nil {
			out = append(out, it.Test)
		} else {
			out = append(out, it.Group.AllTests()...)
		}
	}
	return out
}

// Subgroups lists g's direct subgroups.
func (g *Group) subgroups() []*Group {
	var out []*Group
	for _, it := range g.Items {
		if it.Group != nil {
			out = append(out, it.Group)
		}
	}
	return out
}

// Find returns the group called name below or at g; nil if there is none.
func (g *Group) Find(name string) *Group {
	if g.Name == name {
		return g
	}
	for _, sub := range g.subgroups() {
		if name == sub.Name || strings.HasPrefix(name, sub.Name+"/") {
			return sub.Find(name)
		}
	}
	return nil
}

// Walk calls fn on g and every group below it, parents first.
func (g *Group) Walk(fn func(*Group)) {
	fn(g)
	for _, sub := range g.subgroups() {
		sub.Walk(fn)
	}
}

// GroupOf returns the group whose settings a test has.
func (p *Package) GroupOf(t Test) *Group {
	if p.Groups == nil {
		return nil
	}
	if t.Config != nil {
		return p.Groups.Find(t.Config.Group)
	}
	return p.Groups.Find(t.Group)
}

// Samples lists what a statement shows as samples: each sample test, and
// each .interaction file in data/sample without a test of its own (in an
// interactive problem, the samples are usually only those).
type Sample struct {
	Name        string // "sample/1"
	Test        *Test  // the test; nil for an interaction alone
	Interaction string // the .interaction file; "" when none
	// Input and Output are the files to show: .in.statement or .in,
	// .ans.statement, .out or .ans; "" for an interaction alone.
	Input, Output string
}

// Samples lists the problem's samples, sorted by name.
func (p *Package) Samples() []Sample {
	if p.Groups == nil {
		return nil
	}
	sample := p.Groups.Find("sample")
	if sample == nil {
		return nil
	}
	var out []Sample
	for _, t := range sample.AllTests() {
		s := Sample{Name: t.Name, Test: t, Input: t.In, Output: t.Ans}
		if c := t.Config; c != nil {
			s.Interaction = c.Interaction
			s.Input = firstOf(c.InStatement, t.In)
			s.Output = firstOf(c.AnsStatement, c.Out, t.Ans)
		}
		out = append(out, s)
	}
	for _, name := range p.interactions {
		out = append(out, Sample{Name: strings.TrimSuffix(strings.TrimPrefix(name, "data/"), ".interaction"), Interaction: name})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

func firstOf(s ...string) string {
	for _, x := range s {
		if x != "" {
			return x
		}
	}
	return ""
}
