package generators

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/optjudge/optjudge/problems/kattis"
	"github.com/optjudge/optjudge/specfile"
)

// rootDirs are the directories data: may hold, in the order BAPCtools
// generates them.
var rootDirs = []string{"sample", "secret", "invalid_output", "invalid_answer", "invalid_input", "valid_output", "testing_tool_test", "fuzz"}

// deprecatedRootDirs are the plural names BAPCtools once used.
var deprecatedRootDirs = []string{"invalid_outputs", "invalid_answers", "invalid_inputs", "valid_outputs"}

// Extensions are the files of a test that generators.yaml may write inline
// or a generator may leave, and that are copied into data/: BAPCtools'
// text extensions, the legacy .hint and .desc, and its pictures.
var Extensions = []string{".in", ".ans", ".out", ".in.statement", ".ans.statement", ".in.download", ".ans.download",
	".interaction", ".yaml", ".hint", ".desc", ".png", ".jpg", ".svg", ".pdf"}

// textExtensions may be written inline.
var textExtensions = Extensions[:11]

// sampleOnly are the extensions only a sample may have.
var sampleOnly = map[string]bool{".in.statement": true, ".ans.statement": true, ".in.download": true, ".ans.download": true}

// linkKeys may be {link: ...}, to linkTargets of their kind.
var linkKeys = map[string]bool{".in.statement": true, ".ans.statement": true, ".in.download": true, ".ans.download": true}

// caseKeys make a mapping a test rather than a directory.
var caseKeys = append([]string{"copy", "generate", "count", "match"}, keysOf(textExtensions)...)

// fileNameRE is BAPCtools' FILE_NAME_REGEX: the names of tests and
// directories.
var fileNameRE = regexp.MustCompile(`^[a-zA-Z0-9_][a-zA-Z0-9_.-]{0,254}$`)

// seedRE matches {seed} and {seed:N}.
var seedRE = regexp.MustCompile(`\{seed(:[0-9]+)?\}`)

var rangeRE = regexp.MustCompile(`^(-?\d+)\.\.=(-?\d+)$`)

func keysOf(exts []string) []string {
	out := make([]string, len(exts))
	for i, e := range exts {
		out[i] = e[1:]
	}
	return out
}

// settings are what a directory passes down to its tests.
type settings struct {
	solution   string
	noSolution bool
	salt       string
	retries    int
}

// known is a key of the file, for include:.
type known struct {
	c *Case
	d *Dir
}

type parser struct {
	file  string
	lines []string
	o     Options
	errs  specfile.Errors
	warns []kattis.Warning

	cfg      *Config
	numbered int // the tests of numbered lists, across the file
	nextCase int // the last number given to a test
	keys     map[string][]known
	included map[string]bool
	byPath   map[string]*Case // every test's path, included ones too
	rules    map[string]*Case // by what makes them, for duplicate warnings
}

// Parse reads generators.yaml from data; name is the file as messages
// name it. Every problem is an error naming the file, the line and the
// field (problems.SpecErrors); what BAPCtools only warns about is a
// warning in Config.Warnings.
func Parse(data []byte, name string, o Options) (*Config, error) {
	p := &parser{file: name, lines: strings.Split(string(data), "\n"), o: o, cfg: &Config{Generators: map[string][]string{}},
		keys: map[string][]known{}, included: map[string]bool{}, byPath: map[string]*Case{}, rules: map[string]*Case{}}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, specfile.Errors{specfile.Syntax(name, err)}
	}
	root := &yaml.Node{Kind: yaml.MappingNode, Line: 1, Column: 1}
	if len(doc.Content) > 0 && !isNull(doc.Content[0]) {
		root = doc.Content[0]
	}
	if root.Kind != yaml.MappingNode {
		return nil, specfile.Errors{{File: name, Line: root.Line, Msg: "want a mapping of keys to values"}}
	}
	if err := (specfile.Format{KeyPaths: true}).DuplicateKeys(name, root, 0); err != nil {
		return nil, specfile.Errors{err.(*specfile.Error)}
	}
	e := expansion{counts: map[*yaml.Node]int{}}
	switch n := e.count(root); {
	case e.cycle != nil:
		return nil, specfile.Errors{{File: name, Line: e.cycle.Line, Msg: fmt.Sprintf("the alias *%s is inside the value it names", e.cycle.Value)}}
	case n > maxNodes:
		return nil, specfile.Errors{{File: name, Line: root.Line, Msg: fmt.Sprintf("its aliases expand it to more than %d entries", maxNodes)}}
	}
	if isCase(root) {
		return nil, specfile.Errors{{File: name, Line: root.Line, Msg: "the top level must be a directory, not a test (it has a key of a test: " + strings.Join(caseKeysIn(root), ", ") + ")"}}
	}
	p.numbered = countNumbered(root)
	p.cfg.Root = &Dir{Line: root.Line}
	p.directory(root, "", p.cfg.Root, settings{retries: 1}, true)
	sort.SliceStable(p.errs, func(i, j int) bool { return p.errs[i].Line < p.errs[j].Line })
	sort.SliceStable(p.warns, func(i, j int) bool { return p.warns[i].Line < p.warns[j].Line })
	p.cfg.Warnings = p.warns
	if len(p.errs) > 0 {
		return p.cfg, p.errs
	}
	return p.cfg, nil
}

func (p *parser) bad(n *yaml.Node, field, format string, args ...any) {
	p.errs = append(p.errs, &specfile.Error{File: p.file, Line: n.Line, Field: field, Msg: fmt.Sprintf(format, args...)})
}

func (p *parser) warn(n *yaml.Node, field, format string, args ...any) {
	p.warns = append(p.warns, kattis.Warning{File: p.file, Line: n.Line, Field: field, Msg: fmt.Sprintf(format, args...)})
}

// directory reads a directory's mapping n into d.
func (p *parser) directory(n *yaml.Node, field string, d *Dir, s settings, root bool) {
	s = p.settings(n, field, s)
	var data *yaml.Node
	var includes *yaml.Node
	for _, kv := range pairs(n) {
		k, v := kv[0], kv[1]
		f := join(field, k.Value)
		switch k.Value {
		case "solution", "random_salt", "retries":
			// read by settings
		case "data":
			data = v
		case "include":
			includes = v
		case "test_group.yaml", "testdata.yaml":
			if d.GroupFile != "" {
				p.bad(k, f, "and %s both given: one group file per directory", d.GroupFile)
				continue
			}
			d.GroupFile = k.Value
			switch {
			case isNull(v):
				d.RemoveGroupFile = true
			case v.Kind == yaml.MappingNode && len(v.Content) == 0:
				d.GroupFile = "" // {}: BAPCtools writes nothing
			case v.Kind == yaml.MappingNode:
				d.GroupYAML = p.text(k, v)
			default:
				p.bad(v, f, "got %s, want a mapping (the file's keys)", describe(v))
			}
		case "generators":
			if !root {
				p.warn(k, f, "reserved for the top level: ignored")
				continue
			}
			p.generators(v, f)
		case "version":
			if !root {
				p.warn(k, f, "reserved for the top level: ignored")
			}
		case "command":
			p.warn(k, f, "reserved: ignored")
		case "gitignore_generated", "parallel", "visualizer":
			if root {
				p.warn(k, f, "deprecated: ignored")
			} else {
				p.warn(k, f, "unknown key: ignored")
			}
		default:
			p.warn(k, f, "unknown key: ignored")
		}
	}
	var before []*Case
	if includes != nil {
		before = p.includes(includes, join(field, "include"))
	}
	if data != nil {
		p.children(data, join(field, "data"), d, s, root)
	}
	for _, c := range before {
		name := lastElem(c.Path)
		at := joinPath(d.Path, name)
		if prev, ok := p.byPath[at]; ok {
			if prev.Path != c.Path {
				p.bad(includes, join(field, "include"), "%s is included here, but %s is already there", c.Path, at)
			}
			continue
		}
		p.byPath[at] = c
		d.Includes = append(d.Includes, c)
	}
}

// settings reads the keys a directory or test passes down.
func (p *parser) settings(n *yaml.Node, field string, s settings) settings {
	for _, kv := range pairs(n) {
		k, v := kv[0], kv[1]
		f := join(field, k.Value)
		switch k.Value {
		case "solution":
			switch {
			case isNull(v):
				s.solution, s.noSolution = "", true
			case isString(v):
				sol, err := absolutePath(v.Value)
				if err != nil {
					p.bad(v, f, "%v", err)
					continue
				}
				s.solution, s.noSolution = sol, false
			default:
				p.bad(v, f, "got %s, want a path from the package root (/submissions/accepted/sol.py)", describe(v))
			}
		case "random_salt":
			if !isString(v) {
				p.warn(v, f, "got %s, want a string: ignored (quote it)", describe(v))
				continue
			}
			s.salt = v.Value
		case "retries":
			r, err := strconv.Atoi(v.Value)
			if v.Kind != yaml.ScalarNode || v.Tag != "!!int" || err != nil || r <= 0 {
				p.warn(v, f, "got %s, want a number > 0: ignored", describe(v))
				continue
			}
			s.retries = r
		}
	}
	return s
}

// generators reads the generators: key, the programs of several files.
func (p *parser) generators(n *yaml.Node, field string) {
	if isNull(n) {
		return
	}
	if n.Kind != yaml.MappingNode {
		p.bad(n, field, "got %s, want a mapping of names to lists of files", describe(n))
		return
	}
	for _, kv := range pairs(n) {
		k, v := kv[0], kv[1]
		f := join(field, k.Value)
		if strings.HasPrefix(k.Value, "/") || !fileNameRE.MatchString(k.Value) {
			p.warn(k, f, "not a valid name: ignored")
			continue
		}
		if v.Kind != yaml.SequenceNode || len(v.Content) == 0 {
			p.warn(v, f, "want a list of files, the first the entry point: ignored")
			continue
		}
		var deps []string
		for _, c := range v.Content {
			if !isString(c) {
				p.bad(c, f, "got %s, want a file in generators/", describe(c))
				return
			}
			rel, err := relativePath(c.Value)
			if err != nil {
				p.bad(c, f, "%v", err)
				return
			}
			deps = append(deps, rel)
		}
		p.cfg.Generators["generators/"+k.Value] = deps
	}
}

// includes reads a directory's include: list, the tests of keys parsed
// before it.
func (p *parser) includes(n *yaml.Node, field string) []*Case {
	var items []*yaml.Node
	switch {
	case isNull(n):
	case n.Kind == yaml.SequenceNode:
		items = n.Content
	case isString(n):
		items = []*yaml.Node{n}
	default:
		p.bad(n, field, "got %s, want a list of keys", describe(n))
		return nil
	}
	var out []*Case
	for i, it := range items {
		f := fmt.Sprintf("%s[%d]", field, i)
		switch {
		case !isString(it):
			p.bad(it, f, "got %s, want the key of a test or directory", describe(it))
			continue
		case strings.Contains(it.Value, "/"):
			p.bad(it, f, "%q is a path: want the key of a test or directory", it.Value)
			continue
		}
		list := p.keys[it.Value]
		switch len(list) {
		case 0:
			p.bad(it, f, "%q is no test or directory listed before", it.Value)
			continue
		case 1:
		default:
			p.bad(it, f, "%q is ambiguous: %d tests or directories have that key", it.Value, len(list))
			continue
		}
		p.included[it.Value] = true
		if c := list[0].c; c != nil {
			out = append(out, c)
			continue
		}
		var walk func(d *Dir)
		walk = func(d *Dir) {
			for _, x := range d.Items {
				if x.Case != nil {
					out = append(out, x.Case)
				} else {
					walk(x.Dir)
				}
			}
			out = append(out, d.Includes...)
		}
		walk(list[0].d)
	}
	return out
}

// children reads a directory's data: a mapping (named children, sorted
// by name but at the root) or a list of one-key mappings (numbered).
func (p *parser) children(n *yaml.Node, field string, d *Dir, s settings, root bool) {
	var entries []*yaml.Node
	numbered := false
	switch {
	case isNull(n):
		return
	case n.Kind == yaml.MappingNode:
		entries = []*yaml.Node{n}
	case n.Kind == yaml.SequenceNode:
		if root {
			p.bad(n, field, "the top level's data must be a mapping (sample, secret, ...), not a numbered list")
			return
		}
		entries, numbered = n.Content, true
	default:
		p.bad(n, field, "got %s, want a mapping of names to tests and directories, or a list of them", describe(n))
		return
	}
	groups := 0
	for _, e := range entries {
		for _, kv := range pairs(e) {
			if isDirectory(kv[1]) {
				groups++
			}
		}
	}
	nextGroup := 0
	for i, e := range entries {
		f := field
		if numbered {
			f = fmt.Sprintf("%s[%d]", field, i)
			if e.Kind != yaml.MappingNode || len(e.Content) != 2 {
				p.bad(e, f, "a numbered entry must be a mapping of exactly one name to a test or directory")
				continue
			}
		}
		for _, kv := range p.ordered(e, f, root) {
			k, v := kv[0], kv[1]
			key := k.Value
			if isNull(k) {
				key = ""
			}
			cf := join(f, key)
			if k.Kind != yaml.ScalarNode || (k.Tag != "!!str" && !isNull(k)) {
				p.warn(k, cf, "%s as a name: ignored, as BAPCtools ignores it (quote it: \"%s\")", describe(k), k.Value)
				continue
			}
			if !numbered && key == "" {
				p.bad(k, cf, "a test or directory that is not numbered needs a name")
				continue
			}
			switch {
			case isDirectory(v):
				name := key
				if numbered {
					nextGroup++
					name = numberedName(key, nextGroup, groups)
				}
				p.subdirectory(k, v, cf, key, name, d, s)
			case isCase(v):
				p.cases(k, v, cf, key, numbered, d, s)
			default:
				p.bad(v, cf, "got %s: neither a test (a command, or a mapping with generate, copy, in ...) nor a directory (a mapping with data)", describe(v))
			}
		}
	}
}

// ordered lists a data: mapping's entries in the order BAPCtools
// generates them: the root's in rootDirs order (other keys are
// warnings), any other's by name.
func (p *parser) ordered(e *yaml.Node, field string, root bool) [][2]*yaml.Node {
	kvs := pairs(e)
	if !root {
		sort.SliceStable(kvs, func(i, j int) bool { return keyOf(kvs[i][0]) < keyOf(kvs[j][0]) })
		return kvs
	}
	var out [][2]*yaml.Node
	for _, name := range rootDirs {
		for _, kv := range kvs {
			if kv[0].Value == name {
				out = append(out, kv)
			}
		}
	}
	for _, kv := range kvs {
		switch {
		case contains(rootDirs, kv[0].Value):
		case contains(deprecatedRootDirs, kv[0].Value):
			p.warn(kv[0], join(field, kv[0].Value), "deprecated: ignored (use %s)", strings.TrimSuffix(kv[0].Value, "s"))
		default:
			p.warn(kv[0], join(field, kv[0].Value), "unknown key: ignored (the top level holds %s)", strings.Join(rootDirs, ", "))
		}
	}
	return out
}

func keyOf(k *yaml.Node) string {
	if isNull(k) {
		return ""
	}
	return k.Value
}

// subdirectory reads the directory key: v into a new child of d.
func (p *parser) subdirectory(k, v *yaml.Node, field, key, name string, d *Dir, s settings) {
	if !fileNameRE.MatchString(name) {
		p.bad(k, field, "%q is not a valid directory name (letters, digits, _ . -, not starting with . or -)", name)
		return
	}
	sub := &Dir{Path: joinPath(d.Path, name), Line: k.Line}
	p.keys[key] = append(p.keys[key], known{d: sub})
	d.Items = append(d.Items, Item{Dir: sub})
	p.directory(v, field, sub, s, false)
}

// cases reads the test key: v, one per count value, into d.
func (p *parser) cases(k, v *yaml.Node, field, key string, numbered bool, d *Dir, s settings) {
	counts, ok := p.count(v, field)
	if !ok {
		return
	}
	// BAPCtools pads the numbers when they are consecutive
	pad := 0
	if mn, mx := minMax(counts); mx-mn == len(counts)-1 {
		for _, c := range counts {
			pad = max(pad, len(strconv.Itoa(c)))
		}
	}
	given := v.Kind == yaml.MappingNode && lookup(v, "count") != nil
	for _, c := range counts {
		name := key
		if numbered {
			p.nextCase++
			name = numberedName(key, p.nextCase, p.numbered)
		}
		if given {
			name += "-" + pythonPad(c, pad)
		}
		t := p.testCase(k, v, field, key, name, c, given, d, s)
		if t == nil {
			continue
		}
		if _, dup := p.byPath[t.Path]; dup {
			p.bad(k, field, "%s is made twice", t.Path)
			continue
		}
		p.byPath[t.Path] = t
		p.keys[key] = append(p.keys[key], known{c: t})
		if len(p.keys[key]) == 2 && p.included[key] {
			p.warn(k, field, "the key %q, already included, is used again", key)
		}
		d.Items = append(d.Items, Item{Case: t})
	}
}

func minMax(xs []int) (int, int) {
	mn, mx := xs[0], xs[0]
	for _, x := range xs {
		mn, mx = min(mn, x), max(mx, x)
	}
	return mn, mx
}

// count reads a test's count: 1..100, a list of distinct numbers or an
// inclusive range lo..=hi; [1] when it has none.
func (p *parser) count(v *yaml.Node, field string) ([]int, bool) {
	n := lookup(v, "count")
	if v.Kind != yaml.MappingNode || n == nil {
		return []int{1}, true
	}
	f := join(field, "count")
	switch {
	case n.Kind == yaml.ScalarNode && n.Tag == "!!int":
		c, err := strconv.Atoi(n.Value)
		if err != nil || c < 1 || c > 100 {
			p.bad(n, f, "%s: want a number from 1 to 100", n.Value)
			return nil, false
		}
		out := make([]int, c)
		for i := range out {
			out[i] = i + 1
		}
		return out, true
	case n.Kind == yaml.SequenceNode:
		seen := map[int]bool{}
		var out []int
		for _, x := range n.Content {
			c, err := strconv.Atoi(x.Value)
			if x.Kind != yaml.ScalarNode || x.Tag != "!!int" || err != nil {
				p.bad(x, f, "got %s, want a list of numbers", describe(x))
				return nil, false
			}
			if seen[c] {
				p.bad(x, f, "%d is in the list twice", c)
				return nil, false
			}
			seen[c] = true
			out = append(out, c)
		}
		if len(out) < 1 || len(out) > 100 {
			p.bad(n, f, "%d numbers: want 1 to 100", len(out))
			return nil, false
		}
		return out, true
	case isString(n):
		m := rangeRE.FindStringSubmatch(n.Value)
		if m == nil {
			p.bad(n, f, "%q: want a number, a list of numbers or a range such as -4..=5", n.Value)
			return nil, false
		}
		lo, err1 := strconv.Atoi(m[1])
		hi, err2 := strconv.Atoi(m[2])
		switch {
		case err1 != nil || err2 != nil:
			p.bad(n, f, "%q: a bound out of range", n.Value)
			return nil, false
		case lo > hi:
			p.bad(n, f, "%q: the start %d is after the end %d", n.Value, lo, hi)
			return nil, false
		case hi-lo+1 > 100:
			p.bad(n, f, "%q: %d numbers, more than 100", n.Value, hi-lo+1)
			return nil, false
		}
		var out []int
		for c := lo; c <= hi; c++ {
			out = append(out, c)
		}
		return out, true
	}
	p.bad(n, f, "got %s, want a number, a list of numbers or a range such as -4..=5", describe(n))
	return nil, false
}

// numberedName is the name of item i of n in a numbered list: i padded to
// the width of n, then "-key" unless key is empty.
func numberedName(key string, i, n int) string {
	s := fmt.Sprintf("%0*d", len(strconv.Itoa(n)), i)
	if key != "" {
		s += "-" + key
	}
	return s
}

// pythonPad formats c as Python's f"{c:0{pad}}": zero-padded to pad
// characters, the sign among them.
func pythonPad(c, pad int) string {
	s := strconv.Itoa(c)
	if len(s) >= pad {
		return s
	}
	if c < 0 {
		return "-" + strings.Repeat("0", pad-len(s)) + s[1:]
	}
	return strings.Repeat("0", pad-len(s)) + s
}

// countNumbered counts the tests of every numbered list in the file (with
// their counts), as BAPCtools does before it numbers them: the numbers'
// width is that of the total.
func countNumbered(n *yaml.Node) int {
	data := lookup(n, "data")
	if data == nil {
		return 0
	}
	var entries []*yaml.Node
	numbered := false
	switch data.Kind {
	case yaml.MappingNode:
		entries = []*yaml.Node{data}
	case yaml.SequenceNode:
		entries, numbered = data.Content, true
	default:
		return 0
	}
	total := 0
	for _, e := range entries {
		if e.Kind != yaml.MappingNode {
			continue
		}
		for _, kv := range pairs(e) {
			switch v := kv[1]; {
			case isCase(v) && numbered:
				total += len(quietCount(v))
			case isDirectory(v):
				total += countNumbered(v)
			}
		}
	}
	return total
}

// quietCount is count without messages (a bad count is reported when the
// test is read).
func quietCount(v *yaml.Node) []int {
	p := &parser{}
	c, ok := p.count(v, "")
	if !ok {
		return []int{1}
	}
	return c
}
