package kattis

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"
)

// groupKind is where a 2025-09 test_group.yaml sits, which decides its
// defaults and the keys it may hold.
type groupKind int

const (
	kindData   groupKind = iota // data/ (read for the test arguments only)
	kindSample                  // data/sample
	kindSecret                  // data/secret
	kindGroup                   // data/secret/GROUP
	kindOther                   // data/invalid_input and the like
)

// root2025 reads data/ with the 2025-09 rules.
func (r *groupReader) root2025(base GroupSettings) *Group {
	root := &Group{Dir: "data"}
	s := base
	ff := r.apply2025Config(root, &s, kindData)
	root.Settings = s
	entries, err := visibleEntries(r.fsys, "data")
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			r.fail("data", "%v", unwrapPath(err))
		}
		return root
	}
	for _, e := range entries {
		sub := path.Join("data", e.Name())
		switch {
		case e.IsDir() && e.Name() == "sample":
			g := r.flatGroup2025(sub, "sample", s, kindSample, ff)
			root.Items = append(root.Items, Item{Group: g})
		case e.IsDir() && e.Name() == "secret":
			root.Items = append(root.Items, Item{Group: r.secret2025(s, ff)})
		case e.IsDir() && r.validationDir(e.Name()):
		case e.IsDir():
			r.warn(sub, "not a test data group: data/ holds sample and secret")
		case strings.HasSuffix(e.Name(), ".in"):
			r.warn(sub, "not read: a test belongs in data/sample or data/secret")
		}
	}
	return root
}

// fullFeedback tells whether an ancestor set full_feedback.
type fullFeedback struct {
	set   bool
	value bool
}

// secret2025 reads data/secret: its groups (the subdirectories with a
// test_group.yaml), or its tests when it has no groups.
func (r *groupReader) secret2025(parent GroupSettings, ff fullFeedback) *Group {
	dir := "data/secret"
	entries, _ := visibleEntries(r.fsys, dir)
	var groups, plain []string
	tests := false
	for _, e := range entries {
		switch {
		case e.IsDir() && fileExists(r.fsys, path.Join(dir, e.Name(), "test_group.yaml")):
			groups = append(groups, e.Name())
		case e.IsDir():
			plain = append(plain, e.Name())
		case strings.HasSuffix(e.Name(), ".in"):
			tests = true
		}
	}
	if len(groups) == 0 {
		return r.flatGroup2025(dir, "secret", parent, kindSecret, ff)
	}
	g := &Group{Name: "secret", Dir: dir}
	s := parent
	if r.scoring {
		s.MaxScore, s.Unbounded, s.Aggregation = 100, false, AggregateSum
	}
	ff = r.applyFF(r.apply2025Config(g, &s, kindSecret), ff)
	s.Test.Group, s.Test.FullFeedback = "secret", ff.value && ff.set
	g.Settings = s
	if tests {
		r.fail(dir, "holds test data groups, so it must not hold tests itself")
	}
	for _, name := range plain {
		// a defect, not a stop: BAPCtools (divsort, generatorincludes)
		// reads such a directory, and its tests are judged
		r.defects = append(r.defects, Warning{File: r.file(path.Join(dir, name)),
			Msg: "not a test data group (no test_group.yaml), though data/secret holds groups: the format allows groups only there; read as a group with data/secret's settings"})
		groups = append(groups, name)
	}
	sort.Strings(groups)
	for _, name := range groups {
		sub := r.flatGroup2025(path.Join(dir, name), "secret/"+name, s, kindGroup, ff)
		g.Items = append(g.Items, Item{Group: sub})
	}
	return g
}

func (r *groupReader) applyFF(own, inherited fullFeedback) fullFeedback {
	if own.set {
		return own
	}
	return inherited
}

// flatGroup2025 reads a group whose tests are every .in below dir, in
// plain subdirectories too, sorted by name.
func (r *groupReader) flatGroup2025(dir, name string, parent GroupSettings, kind groupKind, ff fullFeedback) *Group {
	g := &Group{Name: name, Dir: dir}
	s := parent
	s.MaxScore, s.Unbounded, s.Aggregation, s.RequirePass, s.StaticValidation = 0, true, AggregatePassFail, nil, nil
	if kind == kindSecret && r.scoring {
		s.MaxScore, s.Unbounded, s.Aggregation = 100, false, AggregateSum
	}
	ff = r.applyFF(r.apply2025Config(g, &s, kind), ff)
	s.Test.Group = name
	s.Test.FullFeedback = ff.value
	if !ff.set {
		s.Test.FullFeedback = kind == kindSample
	}
	g.Settings = s
	var tests []*Test
	r.collectTests(dir, name, s, &tests, kind)
	sort.Slice(tests, func(i, j int) bool { return tests[i].Name < tests[j].Name })
	if sv := s.StaticValidation; sv != nil {
		c := s.Test
		c.Static = true
		st := &Test{Name: name + "/static_validation", Group: strings.SplitN(name, "/", 2)[0], FS: r.fsys, Origin: r.origin, Config: &c}
		g.Items = append(g.Items, Item{Test: st})
	}
	for _, t := range tests {
		g.Items = append(g.Items, Item{Test: t})
	}
	return g
}

// collectTests adds the tests of dir and of its plain subdirectories.
func (r *groupReader) collectTests(dir, group string, s GroupSettings, out *[]*Test, kind groupKind) {
	entries, err := visibleEntries(r.fsys, dir)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			r.fail(dir, "%v", unwrapPath(err))
		}
		return
	}
	names := entryNames(entries)
	for _, e := range entries {
		sub := path.Join(dir, e.Name())
		switch {
		case e.IsDir() && strings.HasSuffix(e.Name(), ".files"):
		case e.IsDir() && kind == kindOther && r.rules == GroupRules2025 && fileExists(r.fsys, path.Join(sub, "test_group.yaml")):
			// the validators' tests: a test_group.yaml holds for the
			// tests of its directory (2025-09, Invalid input), no group
			ss := s
			r.apply2025Config(&Group{Dir: sub}, &ss, kind)
			r.collectTests(sub, group, ss, out, kind)
		case e.IsDir():
			if fileExists(r.fsys, path.Join(sub, "test_group.yaml")) {
				where := "below a test data group"
				if kind == kindSample {
					where = "in data/sample"
				}
				r.fail(path.Join(sub, "test_group.yaml"), "a test data group %s: groups are the directories of data/secret only", where)
			}
			r.collectTests(sub, group, s, out, kind)
		case strings.HasSuffix(e.Name(), ".in"):
			base := strings.TrimSuffix(e.Name(), ".in")
			if base == "test_group" {
				r.fail(sub, "a test must not be called test_group")
			}
			*out = append(*out, r.newTest(dir, base, group, s, names))
		case strings.HasSuffix(e.Name(), ".interaction") && !names[strings.TrimSuffix(e.Name(), ".interaction")+".in"]:
			r.interaction(sub)
		}
	}
}

// flatGroup reads one of the directories of validator tests; nil when it
// does not exist.
func (r *groupReader) flatGroup(dir, name string, parent GroupSettings) *Group {
	if !isDirFS(r.fsys, dir) {
		return nil
	}
	if r.rules == GroupRules2025 {
		return r.flatGroup2025(dir, name, parent, kindOther, fullFeedback{})
	}
	g := &Group{Name: name, Dir: dir}
	s := parent
	if cfg := r.configFile(dir); cfg != "" {
		g.Config = cfg
		r.applyLegacy(cfg, &s, 1)
	}
	s.Test.Group = name
	g.Settings = s
	var tests []*Test
	r.collectTests(dir, name, s, &tests, kindOther)
	sort.Slice(tests, func(i, j int) bool { return tests[i].Name < tests[j].Name })
	for _, t := range tests {
		g.Items = append(g.Items, Item{Test: t})
	}
	return g
}

func fileExists(fsys fs.FS, name string) bool {
	st, err := fs.Stat(fsys, name)
	return err == nil && !st.IsDir()
}

// apply2025Config applies dir's test_group.yaml (or testdata.yaml) to s.
func (r *groupReader) apply2025Config(g *Group, s *GroupSettings, kind groupKind) fullFeedback {
	cfg := r.configFile(g.Dir)
	if cfg == "" {
		return fullFeedback{}
	}
	g.Config = cfg
	f, doc := r.readYAML(cfg)
	defer r.collect(f)
	if doc == nil {
		return fullFeedback{}
	}
	var ff fullFeedback
	for _, kv := range pairs(doc) {
		key, v := kv[0].Value, kv[1]
		if r.testArg(f, key, v, &s.Test) {
			continue
		}
		switch key {
		case "full_feedback":
			ff.value, ff.set = f.boolean(v, key)
		case "max_score", "score_aggregation", "require_pass", "static_validation_score", "static_validator_args":
			r.scoreKey(f, key, v, s, kind)
		default:
			f.warn(kv[0], key, "unknown key, ignored")
		}
	}
	if sv := s.StaticValidation; sv != nil && sv.argsOnly != nil {
		f.bad(sv.argsOnly, "static_validator_args", "given without static_validation_score")
		s.StaticValidation = nil
	}
	return ff
}

// testArg applies one of the argument keys a test_group.yaml and a test's
// .yaml share; false when key is not one.
func (r *groupReader) testArg(f *yamlFile, key string, v *yaml.Node, c *TestConfig) bool {
	switch key {
	case "args":
		if a, ok := f.strings(v, key); ok {
			c.Args = a
		}
	case "input_validator_args":
		if a, ok := validatorArgs2025(f, v, key); ok {
			c.InputValidatorArgs = a
		}
	case "answer_validator_args":
		if a, ok := validatorArgs2025(f, v, key); ok {
			c.AnswerValidatorArgs = a
		}
	case "output_validator_args":
		if a, ok := f.strings(v, key); ok {
			c.OutputValidatorArgs = a
			c.OutputValidatorArgsFrom = fmt.Sprintf("%s:%d: output_validator_args", f.name, v.Line)
		}
	case "input_visualizer_args":
		if a, ok := f.strings(v, key); ok {
			c.InputVisualizerArgs = a
		}
	case "output_visualizer_args":
		if a, ok := f.strings(v, key); ok {
			c.OutputVisualizerArgs = a
		}
	default:
		return false
	}
	return true
}

// validatorArgs2025 reads a list of arguments for every validator, or a
// mapping from validator names to lists.
func validatorArgs2025(f *yamlFile, v *yaml.Node, key string) (ValidatorArgs, bool) {
	v = resolve(v)
	if v.Kind != yaml.MappingNode {
		a, ok := f.strings(v, key)
		return ValidatorArgs{All: a}, ok
	}
	out := ValidatorArgs{ByName: map[string][]string{}}
	for _, kv := range pairs(v) {
		a, ok := f.strings(kv[1], key+"."+kv[0].Value)
		if !ok {
			return ValidatorArgs{}, false
		}
		out.ByName[kv[0].Value] = a
	}
	return out, true
}

// scoreKey applies one of the scoring keys of a test_group.yaml.
func (r *groupReader) scoreKey(f *yamlFile, key string, v *yaml.Node, s *GroupSettings, kind groupKind) {
	switch {
	case kind != kindSecret && kind != kindGroup:
		f.warn(v, key, "only for data/secret and its groups; ignored")
		return
	case !r.scoring && key != "static_validation_score" && key != "static_validator_args":
		f.warn(v, key, "only for scoring problems; ignored")
		return
	}
	switch key {
	case "max_score":
		if n := resolve(v); n.Kind == yaml.ScalarNode && n.Value == "unbounded" {
			s.Unbounded = true
		} else if x, ok := f.float(v, key); ok {
			if x < 0 || x != float64(int64(x)) {
				f.bad(v, key, "%v: want a non-negative integer or unbounded", x)
			}
			s.MaxScore, s.Unbounded = x, false
		}
	case "score_aggregation":
		if w, ok := f.str(v, key); ok {
			switch w {
			case "pass-fail":
				s.Aggregation = AggregatePassFail
			case "sum":
				s.Aggregation = AggregateSum
			case "min":
				s.Aggregation = AggregateMin
			default:
				f.bad(v, key, "%q: want pass-fail, sum or min", w)
			}
		}
	case "require_pass":
		if a, ok := f.stringOrStrings(v, key); ok {
			s.RequirePass = a
		}
	case "static_validation_score":
		r.staticScore(f, v, s)
	case "static_validator_args":
		if a, ok := f.strings(v, key); ok {
			if s.StaticValidation == nil {
				s.StaticValidation = &StaticValidation{argsOnly: v}
			}
			s.StaticValidation.Args = a
		}
	}
}

func (r *groupReader) staticScore(f *yamlFile, v *yaml.Node, s *GroupSettings) {
	sv := &StaticValidation{}
	if s.StaticValidation != nil && s.StaticValidation.argsOnly != nil {
		sv.Args = s.StaticValidation.Args
	}
	if n := resolve(v); n.Kind == yaml.ScalarNode && n.Value == "pass-fail" {
		sv.PassFail = true
	} else if x, ok := f.float(v, "static_validation_score"); ok {
		if x < 0 || x != float64(int64(x)) {
			f.bad(v, "static_validation_score", "%v: want a non-negative integer or pass-fail", x)
		}
		sv.Score = x
	}
	if !r.static {
		f.bad(v, "static_validation_score", "the package has no static validator (static_validator/)")
	}
	s.StaticValidation = sv
}

// applyTestYAML applies a test's own .yaml.
func (r *groupReader) applyTestYAML(name string, c *TestConfig) {
	f, doc := r.readYAML(name)
	defer r.collect(f)
	if doc == nil {
		return
	}
	for _, kv := range pairs(doc) {
		key, v := kv[0].Value, kv[1]
		if r.testArg(f, key, v, c) {
			continue
		}
		switch key {
		case "full_feedback":
			if b, ok := f.boolean(v, key); ok {
				c.FullFeedback = b
			}
		case "hint":
			if s, ok := f.str(v, key); ok {
				c.Hint = s
			}
		case "description":
			if s, ok := f.str(v, key); ok {
				c.Description = s
			}
		default:
			f.warn(kv[0], key, "unknown key, ignored")
		}
	}
}

// check2025 checks the scoring settings of a 2025-09 scoring problem: what
// would make its score undefined is an error.
func (r *groupReader) check2025(root *Group) {
	secret := root.Find("secret")
	if secret == nil {
		return
	}
	at := func(g *Group) string {
		if g.Config != "" {
			return g.Config
		}
		return g.Dir
	}
	ss := secret.Settings
	if ss.Aggregation == AggregatePassFail && ss.Unbounded {
		r.fail(at(secret), "score_aggregation: pass-fail needs a bounded max_score")
	}
	for _, g := range secret.subgroups() {
		s := g.Settings
		switch {
		case ss.Aggregation == AggregatePassFail && s.Aggregation != AggregatePassFail:
			r.fail(at(g), "score_aggregation: %s, but data/secret aggregates pass-fail, and so must its groups", s.Aggregation)
		case s.Unbounded && !ss.Unbounded:
			r.fail(at(g), "max_score: unbounded (the default for a group), but data/secret's is %s: give the group a max_score", formatScore(ss.MaxScore))
		case s.Aggregation == AggregatePassFail && s.Unbounded:
			r.fail(at(g), "score_aggregation: pass-fail needs a bounded max_score")
		}
		if sv := s.StaticValidation; sv != nil && sv.PassFail != (s.Aggregation == AggregatePassFail) {
			r.fail(at(g), "static_validation_score: %s with score_aggregation: %s; pass-fail goes with pass-fail only", staticName(sv), s.Aggregation)
		}
		r.checkRequirePass(g, root, at(g))
	}
	if len(ss.RequirePass) > 0 {
		for _, dep := range ss.RequirePass {
			if dep != "sample" {
				r.fail(at(secret), "require_pass: %q: data/secret may only require sample", dep)
			}
		}
	}
}

func staticName(sv *StaticValidation) string {
	if sv.PassFail {
		return "pass-fail"
	}
	return formatScore(sv.Score)
}

// checkRequirePass: each group a group requires exists, aggregates
// pass-fail, and comes before it.
func (r *groupReader) checkRequirePass(g, root *Group, at string) {
	for _, dep := range g.Settings.RequirePass {
		d := root.Find(dep)
		switch {
		case d == nil || (dep != "sample" && !strings.HasPrefix(dep, "secret/")):
			r.fail(at, "require_pass: %q is not a test data group", dep)
		case dep >= g.Name:
			r.fail(at, "require_pass: %q does not come before %s", dep, g.Name)
		case dep != "sample" && d.Settings.Aggregation != AggregatePassFail:
			r.fail(at, "require_pass: %q aggregates %s; a required group must be pass-fail", dep, d.Settings.Aggregation)
		}
	}
}
