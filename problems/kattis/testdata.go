package kattis

import (
	"errors"
	"fmt"
	"io/fs"
	"math"
	"path"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/optjudge/optjudge/specfile"
)

// groupReader reads a package's data/ tree into groups.
type groupReader struct {
	fsys      fs.FS
	origin    string
	rules     GroupRules
	format    FormatVersion
	scoring   bool
	flags     []string // legacy validator_flags, before every group's output_validator_flags
	flagsFrom string
	grading   SpecGrading
	static    bool // the package has a static validator
	constants Constants

	warnings     []Warning
	defects      []Warning // what the format disallows but the tree still reads
	errs         specfile.Errors
	interactions []string
}

// groupTree is what a groupReader read.
type groupTree struct {
	root, invalidInput, validOutput, invalidOutput *Group
	warnings, defects                              []Warning
	interactions                                   []string
	rules                                          GroupRules
}

// loadGroups reads the package's test data tree into p.Package.
func (p *Package) loadGroups() error {
	tree, err := p.readGroups()
	if err != nil {
		return err
	}
	p.Groups, p.InvalidInputs, p.ValidOutputs, p.InvalidOutputs = tree.root, tree.invalidInput, tree.validOutput, tree.invalidOutput
	p.GroupRules = tree.rules
	p.Warnings = append(p.Warnings, tree.warnings...)
	p.Defects = append(p.Defects, tree.defects...)
	p.interactions = tree.interactions
	return nil
}

// readGroups reads the test data tree of a Kattis package afresh.
func (p *Package) readGroups() (*groupTree, error) {
	k := p.Spec
	r := &groupReader{fsys: p.FS, origin: p.Origin, format: k.Format(), scoring: p.Type.Scoring,
		flags: strings.Fields(k.ValidatorFlags), grading: k.Grading, static: p.StaticValidator != nil,
		constants: p.Constants}
	if len(r.flags) == 0 {
		r.flags = nil
	} else {
		r.flagsFrom = fmt.Sprintf("%s:%d: validator_flags", k.file, k.lineOf("validator_flags"))
	}
	r.rules = GroupRulesLegacy
	if r.format == Format2025 || (r.format == Format2023 && r.anyFile("data", "test_group.yaml")) {
		r.rules = GroupRules2025
	}
	// Tests reads the tree afresh from gradings that run at once: this
	// writes nothing of p's.
	tree := &groupTree{rules: r.rules}
	base := r.defaults()
	if r.rules == GroupRules2025 {
		tree.root = r.root2025(base)
	} else {
		tree.root = r.legacyGroup("data", "", base, 0)
	}
	if r.format != FormatLegacy {
		parent := tree.root.Settings
		tree.invalidInput = r.flatGroup("data/invalid_input", "invalid_input", parent)
		tree.validOutput = r.flatGroup("data/valid_output", "valid_output", parent)
		tree.invalidOutput = r.flatGroup("data/invalid_output", "invalid_output", parent)
	}
	if r.rules == GroupRules2025 && r.scoring {
		r.check2025(tree.root)
	}
	tree.warnings, tree.defects, tree.interactions = r.warnings, r.defects, r.interactions
	if len(r.errs) > 0 {
		return nil, r.errs
	}
	return tree, nil
}

// kattisTests lists the tests of data/sample and data/secret, read afresh,
// sorted by name.
func (p *Package) kattisTests() ([]Test, error) {
	tree, err := p.readGroups()
	if err != nil {
		return nil, err
	}
	var ts []Test
	for _, t := range tree.root.AllTests() {
		if !t.Config.Static {
			ts = append(ts, *t)
		}
	}
	sort.SliceStable(ts, func(i, j int) bool { return ts[i].Name < ts[j].Name })
	return ts, nil
}

// defaults are the settings above data/.
func (r *groupReader) defaults() GroupSettings {
	s := GroupSettings{Grading: "default", AcceptScore: 1, RejectScore: 0, Range: FullRange, Unbounded: true}
	s.Test.OutputValidatorArgs = r.flags
	s.Test.OutputValidatorArgsFrom = r.flagsFrom
	return s
}

// anyFile says whether a file called name is anywhere below dir.
func (r *groupReader) anyFile(dir, name string) bool {
	found := false
	fs.WalkDir(r.fsys, dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && d.Name() == name {
			found = true
			return fs.SkipAll
		}
		return nil
	})
	return found
}

func (r *groupReader) file(name string) string { return Test{Origin: r.origin}.Path(name) }

func (r *groupReader) warn(name, format string, args ...any) {
	r.warnings = append(r.warnings, Warning{File: r.file(name), Msg: fmt.Sprintf(format, args...)})
}

func (r *groupReader) fail(name, format string, args ...any) {
	r.errs = append(r.errs, &specfile.Error{File: r.file(name), Msg: fmt.Sprintf(format, args...)})
}

// configFile is the group file of dir: testdata.yaml or test_group.yaml,
// whichever the rules read (the other one too, with a warning); "" when
// there is none.
func (r *groupReader) configFile(dir string) string {
	want, other := "testdata.yaml", "test_group.yaml"
	if r.rules == GroupRules2025 {
		want, other = other, want
	}
	for _, name := range []string{want, other} {
		p := path.Join(dir, name)
		if st, err := fs.Stat(r.fsys, p); err == nil && !st.IsDir() {
			if name == other {
				r.warn(p, "format %s names this file %s; read as one", r.format, want)
			}
			return p
		}
	}
	return ""
}

// readYAML reads and parses a package file; nil when it is empty. A
// group's file (testdata.yaml, test_group.yaml) takes the constants; a
// test's .yaml, test data, does not.
func (r *groupReader) readYAML(name string) (*yamlFile, *yaml.Node) {
	f := &yamlFile{name: r.file(name)}
	data, err := fs.ReadFile(r.fsys, name)
	if err != nil {
		f.errs = append(f.errs, &specfile.Error{File: f.name, Msg: unwrapPath(err).Error()})
		return f, nil
	}
	if base := path.Base(name); base == "test_group.yaml" || base == "testdata.yaml" {
		if data, err = r.constants.Substitute(data); err != nil {
			f.errs = append(f.errs, &specfile.Error{File: f.name, Msg: err.Error()})
			return f, nil
		}
	}
	return f, f.parse(data)
}

func (r *groupReader) collect(f *yamlFile) {
	r.errs = append(r.errs, f.errs...)
	r.warnings = append(r.warnings, f.warnings...)
}

// legacyGroup reads the group in dir and everything below it, with the
// legacy and problemtools rules: every directory is a group.
func (r *groupReader) legacyGroup(dir, name string, parent GroupSettings, depth int) *Group {
	g := &Group{Name: name, Dir: dir}
	s := parent
	if cfg := r.configFile(dir); cfg != "" {
		g.Config = cfg
		r.applyLegacy(cfg, &s, depth)
	}
	r.applyProblemGrading(&s)
	s.Test.Group = name
	s.Test.FullFeedback = name == "sample" || strings.HasPrefix(name, "sample/")
	g.Settings = s
	entries, err := visibleEntries(r.fsys, dir)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			r.fail(dir, "%v", unwrapPath(err))
		}
		return g
	}
	names := entryNames(entries)
	type keyed struct {
		key  string
		item Item
	}
	var items []keyed
	for _, e := range entries {
		sub := path.Join(dir, e.Name())
		switch {
		case e.IsDir() && strings.HasSuffix(e.Name(), ".files") && names[strings.TrimSuffix(e.Name(), ".files")+".in"]:
			// A test's files, not a group.
		case e.IsDir() && depth == 0 && e.Name() != "sample" && e.Name() != "secret":
			if !r.validationDir(e.Name()) {
				r.warn(sub, "not a test data group: data/ holds sample and secret")
			}
		case e.IsDir():
			items = append(items, keyed{e.Name(), Item{Group: r.legacyGroup(sub, path.Join(name, e.Name()), s, depth+1)}})
		case strings.HasSuffix(e.Name(), ".in") && depth == 0:
			r.warn(sub, "not read: a test belongs in data/sample or data/secret")
		case strings.HasSuffix(e.Name(), ".in"):
			base := strings.TrimSuffix(e.Name(), ".in")
			items = append(items, keyed{base + ".ans", Item{Test: r.newTest(dir, base, name, s, names)}})
		case strings.HasSuffix(e.Name(), ".interaction") && !names[strings.TrimSuffix(e.Name(), ".interaction")+".in"]:
			r.interaction(sub)
		}
	}
	sort.SliceStable(items, func(i, j int) bool { return items[i].key < items[j].key })
	for _, it := range items {
		g.Items = append(g.Items, it.item)
	}
	return g
}

// validationDir says whether a directory of data/ is one of the 2023-07
// and 2025-09 directories of validator tests.
func (r *groupReader) validationDir(name string) bool {
	switch name {
	case "invalid_input", "valid_output", "invalid_output":
		if r.format == FormatLegacy {
			r.warn(path.Join("data", name), "not read: format legacy has no %s", name)
		}
		return true
	}
	return false
}

func (r *groupReader) interaction(name string) {
	if strings.HasPrefix(name, "data/sample/") {
		r.interactions = append(r.interactions, name)
	}
}

func entryNames(entries []fs.DirEntry) map[string]bool {
	names := make(map[string]bool, len(entries))
	for _, e := range entries {
		names[e.Name()] = true
	}
	return names
}

// applyLegacy applies a testdata.yaml with the keys problemtools reads.
func (r *groupReader) applyLegacy(name string, s *GroupSettings, depth int) {
	f, doc := r.readYAML(name)
	defer r.collect(f)
	if doc == nil {
		return
	}
	for _, kv := range pairs(doc) {
		key, v := kv[0].Value, kv[1]
		switch key {
		case "on_reject":
			if w, ok := f.str(v, key); ok {
				switch w {
				case "break":
					s.OnReject = OnRejectBreak
				case "continue":
					s.OnReject = OnRejectContinue
				default:
					f.bad(v, key, "%q: want break or continue", w)
				}
			}
		case "grading":
			if w, ok := f.str(v, key); ok {
				if w != "default" && w != "custom" {
					f.bad(v, key, "%q: want default or custom", w)
				}
				s.Grading = w
			}
		case "grader_flags":
			if w, ok := f.words(v, key); ok {
				s.GraderFlags = w
				r.checkGraderFlags(f, v, w, depth)
			}
		case "input_validator_flags":
			if a, ok := legacyValidatorFlags(f, v, key); ok {
				s.Test.InputValidatorArgs = a
			}
		case "output_validator_flags":
			if a, ok := legacyValidatorFlags(f, v, key); ok {
				s.Test.OutputValidatorArgs = append(append([]string(nil), r.flags...), a.All...)
				s.Test.OutputValidatorArgsFrom = fmt.Sprintf("%s:%d: output_validator_flags", f.name, v.Line)
			}
		case "accept_score", "reject_score", "range":
			r.legacyScoreKey(f, key, v, s)
		default:
			f.warn(kv[0], key, "unknown key, ignored")
		}
	}
}

// legacyScoreKey reads accept_score, reject_score or range, keys of
// scoring problems only.
func (r *groupReader) legacyScoreKey(f *yamlFile, key string, v *yaml.Node, s *GroupSettings) {
	if !r.scoring {
		f.warn(v, key, "only for scoring problems; ignored")
		return
	}
	switch key {
	case "accept_score":
		if x, ok := f.float(v, key); ok {
			s.AcceptScore = x
		}
	case "reject_score":
		if x, ok := f.float(v, key); ok {
			s.RejectScore = x
		}
	default:
		if w, ok := f.str(v, key); ok {
			rg, err := parseRange(w)
			if err != nil {
				f.bad(v, key, "%v", err)
			}
			s.Range = rg
		}
	}
}

// checkGraderFlags: ignore_sample is for the root group only; unknown
// flags are ignored by the default grader.
func (r *groupReader) checkGraderFlags(f *yamlFile, v *yaml.Node, flags []string, depth int) {
	for _, fl := range flags {
		switch fl {
		case "ignore_sample":
			if depth > 0 {
				f.bad(v, "grader_flags", "ignore_sample is only for data/testdata.yaml")
			}
		case "worst_error", "no_errors", "first_error", "always_accept", "sum", "avg", "min", "max", "accept_if_any_accepted":
		default:
			f.warn(v, "grader_flags", "%q: not a flag of the default grader; ignored by it", fl)
		}
	}
}

// legacyValidatorFlags reads input_validator_flags or
// output_validator_flags: a string of flags for every validator, the legacy
// mapping {name: NAME, flags: FLAGS}, or (2023-07) a mapping from validator
// names to flags.
func legacyValidatorFlags(f *yamlFile, v *yaml.Node, key string) (ValidatorArgs, bool) {
	v = resolve(v)
	switch {
	case isNull(v):
		return ValidatorArgs{}, true
	case v.Kind == yaml.ScalarNode:
		return ValidatorArgs{All: strings.Fields(v.Value)}, true
	case v.Kind != yaml.MappingNode:
		f.bad(v, key, "want a string of flags, or a mapping from validator names to flags")
		return ValidatorArgs{}, false
	}
	m := map[string]string{}
	for _, kv := range pairs(v) {
		s, ok := f.str(kv[1], key+"."+kv[0].Value)
		if !ok {
			return ValidatorArgs{}, false
		}
		m[kv[0].Value] = s
	}
	if name, ok := m["name"]; ok && len(m) <= 2 {
		if flags, ok := m["flags"]; ok || len(m) == 1 {
			a := ValidatorArgs{ByName: map[string][]string{name: strings.Fields(flags)}}
			if key == "output_validator_flags" {
				a.All = strings.Fields(flags)
			}
			return a, true
		}
	}
	if key == "output_validator_flags" {
		f.bad(v, key, "want a string of flags, or {name: NAME, flags: FLAGS}")
		return ValidatorArgs{}, false
	}
	a := ValidatorArgs{ByName: map[string][]string{}}
	for name, s := range m {
		a.ByName[name] = strings.Fields(s)
	}
	return a, true
}

// applyProblemGrading applies the pre-legacy grading keys of problem.yaml,
// which override every group's (as problemtools has it).
func (r *groupReader) applyProblemGrading(s *GroupSettings) {
	g := r.grading
	if !r.scoring {
		return
	}
	if g.AcceptScore != nil {
		s.AcceptScore = *g.AcceptScore
	}
	if g.RejectScore != nil {
		s.RejectScore = *g.RejectScore
	}
	if g.Range != "" {
		if rg, err := parseRange(g.Range); err == nil {
			s.Range = rg
		}
	}
	switch g.OnReject {
	case "first_error":
		s.OnReject = OnRejectBreak
	case "grade":
		s.OnReject = OnRejectContinue
	}
}

// newTest makes the test dir/base with the settings s and the files
// beside it; names are the entries of dir.
func (r *groupReader) newTest(dir, base, group string, s GroupSettings, names map[string]bool) *Test {
	stem := path.Join(dir, base)
	t := &Test{Name: strings.TrimPrefix(stem, "data/"), FS: r.fsys, In: stem + ".in", Origin: r.origin}
	t.Group, _, _ = strings.Cut(t.Name, "/")
	if names[base+".ans"] {
		t.Ans = stem + ".ans"
	}
	c := s.Test
	c.Group = group
	has := func(ext string) string {
		if names[base+ext] {
			return stem + ext
		}
		return ""
	}
	if d := has(".files"); d != "" && isDirFS(r.fsys, d) {
		c.Files = d
	}
	c.Interaction, c.Out = has(".interaction"), has(".out")
	c.InStatement, c.AnsStatement = has(".in.statement"), has(".ans.statement")
	c.InDownload, c.AnsDownload = has(".in.download"), has(".ans.download")
	c.Hint, c.Description = r.text(has(".hint")), r.text(has(".desc"))
	if r.format == Format2023 {
		if a := has(".args"); a != "" {
			c.Args = strings.Fields(r.text(a))
		}
	}
	if y := has(".yaml"); y != "" && r.rules == GroupRules2025 {
		r.applyTestYAML(y, &c)
	}
	t.Config = &c
	return t
}

// text reads a small text file of the package; "" for no file.
func (r *groupReader) text(name string) string {
	if name == "" {
		return ""
	}
	b, err := fs.ReadFile(r.fsys, name)
	if err != nil {
		r.fail(name, "%v", unwrapPath(err))
		return ""
	}
	return strings.TrimRight(string(b), "\n")
}

// scoreMax is the most a test may score in a 2025-09 group: the group's
// max_score with min aggregation, its share (less the static validation
// score) with sum; +inf when unbounded.
func scoreMax(g *Group) float64 {
	s := g.Settings
	if s.Unbounded {
		return math.Inf(1)
	}
	if s.Aggregation == AggregateMin {
		return s.MaxScore
	}
	n, static := 0, 0.0
	for _, t := range g.AllTests() {
		if t.Config.Static {
			continue
		}
		n++
	}
	if sv := s.StaticValidation; sv != nil && !sv.PassFail {
		static = sv.Score
	}
	if n == 0 {
		return 0
	}
	return (s.MaxScore - static) / float64(n)
}
