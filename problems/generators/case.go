package generators

import (
	"fmt"
	"path"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/optjudge/optjudge/problems/kattis"
)

// testCase reads one test (one count value c of entry key: v) named name
// in d; nil after an error.
func (p *parser) testCase(k, v *yaml.Node, field, key, name string, c int, given bool, d *Dir, s settings) *Case {
	t := &Case{Path: joinPath(d.Path, name), Key: key, Line: k.Line, Count: c, CountGiven: given,
		Inline: map[string][]byte{}, Links: map[string]string{}, Match: map[string][]string{}}
	t.Root, _, _ = strings.Cut(t.Path, "/")
	sample := t.Root == "sample"
	switch {
	case strings.HasSuffix(name, ".in"):
		p.bad(k, field, "%q: a test's name has no .in", name)
		return nil
	case !fileNameRE.MatchString(name):
		p.bad(k, field, "%q is not a valid test name (letters, digits, _ . -, not starting with . or -)", name)
		return nil
	case name == "test_group" || name == "testdata":
		p.bad(k, field, "a test may not be called %s: that is the group's file", name)
		return nil
	case isNull(v):
		p.bad(k, field, "empty: a test needs generate, copy or in")
		return nil
	}
	m := v
	if isString(v) {
		m = &yaml.Node{Kind: yaml.MappingNode, Line: v.Line, Column: v.Column}
		if strings.HasSuffix(v.Value, ".in") {
			p.warn(v, field, "a file as a command is deprecated: use copy: %s", strings.TrimSuffix(v.Value, ".in"))
			m.Content = []*yaml.Node{{Kind: yaml.ScalarNode, Value: "copy"}, {Kind: yaml.ScalarNode, Tag: "!!str", Value: strings.TrimSuffix(v.Value, ".in"), Line: v.Line}}
		} else {
			m.Content = []*yaml.Node{{Kind: yaml.ScalarNode, Value: "generate"}, v}
		}
	}
	s = p.settings(m, field, s)
	t.Solution, t.NoSolution, t.Retries = s.solution, s.noSolution, s.retries
	errs := len(p.errs)
	if !p.hasInput(m, sample) {
		want := "generate, copy or in"
		if sample {
			want += "; a sample may have in.statement and in.download instead"
			if p.o.Interactive {
				want += ", or interaction and in.download"
			}
		}
		p.bad(k, field, "makes no input: want %s", want)
		return nil
	}
	for _, kv := range pairs(m) {
		kn, vn := kv[0], kv[1]
		f := join(field, kn.Value)
		switch kn.Value {
		case "generate":
			p.generate(t, vn, f, s.salt)
		case "copy":
			p.copyFrom(t, vn, f)
		case "match":
			p.match(t, vn, f)
		case "count", "solution", "random_salt", "retries":
			// read above
		case "data", "test_group.yaml", "testdata.yaml", "include":
			p.warn(kn, f, "a key of directories, in a test: ignored")
		default:
			ext := "." + kn.Value
			if !contains(textExtensions, ext) {
				p.warn(kn, f, "unknown key: ignored")
				continue
			}
			p.inline(t, kn, vn, f, ext, sample)
		}
	}
	for from, to := range t.Links {
		if _, ok := t.Links[to]; ok {
			p.bad(lookup(m, from[1:]), join(field, from[1:]), "links to %s, itself a link", to[1:])
		}
	}
	if len(p.errs) > errs {
		return nil
	}
	p.duplicate(t, k, field)
	return t
}

// hasInput says whether a test's keys make an input.
func (p *parser) hasInput(m *yaml.Node, sample bool) bool {
	has := func(keys ...string) bool {
		for _, k := range keys {
			if lookup(m, k) == nil {
				return false
			}
		}
		return true
	}
	return has("generate") || has("copy") || has("in") ||
		(sample && has("in.statement", "in.download")) ||
		(sample && p.o.Interactive && has("interaction", "in.download"))
}

// generate reads a test's command: {count} is substituted, then the seed
// is BAPCtools' hash of the salt, the count and the command.
func (p *parser) generate(t *Case, n *yaml.Node, field, salt string) {
	if !isString(n) {
		p.bad(n, field, "got %s, want a command (a generator and its arguments)", describe(n))
		return
	}
	text := n.Value
	if strings.TrimSpace(text) == "" {
		p.bad(n, field, "empty: want a command (a generator and its arguments)")
		return
	}
	// once, as everywhere else: replacing one constant after another, in
	// a map's order, would replace a value's own {{name}} at times
	b, err := kattis.Constants(p.o.Constants).Substitute([]byte(text))
	if err != nil {
		p.bad(n, field, "%v", err)
		return
	}
	text = string(b)
	if strings.Contains(text, "{count}") {
		if t.CountGiven {
			text = strings.ReplaceAll(text, "{count}", fmt.Sprint(t.Count))
		} else {
			p.warn(n, field, "{count} without a count: key: left as it is")
		}
	}
	words, err := shellSplit(text)
	if err != nil {
		p.bad(n, field, "%v", err)
		return
	}
	if len(words) == 0 {
		p.bad(n, field, "empty: want a command (a generator and its arguments)")
		return
	}
	prog, err := relativePath(words[0])
	if err != nil {
		p.bad(n, field, "the generator %s: %v", words[0], err)
		return
	}
	seeds := 0
	for _, a := range words[1:] {
		seeds += len(seedRE.FindAllString(a, -1))
	}
	if seeds > 1 {
		p.bad(n, field, "{seed} (or {seed:N}) may appear once, found %d", seeds)
		return
	}
	t.Generate = &Command{Text: text, Program: prog, Args: words[1:], UsesSeed: seeds > 0}
	t.Seed = Seed(salt, t.Count, text)
}

// copyFrom reads a test's copy: key, a path below generators/ without
// its extension.
func (p *parser) copyFrom(t *Case, n *yaml.Node, field string) {
	if !isString(n) {
		p.bad(n, field, "got %s, want a path below generators/, without an extension", describe(n))
		return
	}
	if ext := path.Ext(n.Value); contains(textExtensions, ext) {
		p.warn(n, field, "%s: give the path without its extension", n.Value)
	}
	rel, err := relativePath(n.Value)
	if err != nil {
		p.bad(n, field, "%v", err)
		return
	}
	t.Copy = rel
}

// inline reads a file of the test given in the yaml: a string, a mapping
// (the .yaml), or {link: ext} for the statement and download files.
func (p *parser) inline(t *Case, k, v *yaml.Node, field, ext string, sample bool) {
	switch {
	case ext == ".interaction" && !p.o.Interactive:
		p.bad(k, field, "an interaction, but the problem is neither interactive nor multi-pass")
		return
	case sampleOnly[ext] && !sample:
		p.bad(k, field, "only a sample may have a %s file", ext[1:])
		return
	}
	if ext == ".yaml" && v.Kind == yaml.MappingNode {
		t.Inline[ext] = p.text(k, v)
		return
	}
	if v.Kind == yaml.MappingNode && len(v.Content) == 2 && v.Content[0].Value == "link" && isString(v.Content[1]) && linkKeys[ext] {
		to := "." + v.Content[1].Value
		if !linkKeys[to] && to != ".in" && to != ".ans" {
			p.bad(v.Content[1], field+".link", "%q: want in, ans, in.statement, ans.statement, in.download or ans.download", to[1:])
			return
		}
		if kind(ext) != kind(to) {
			p.bad(v.Content[1], field+".link", "%s may not link to %s", ext[1:], to[1:])
			return
		}
		t.Links[ext] = to
		return
	}
	if !isString(v) {
		p.bad(v, field, "got %s, want a string (quote numbers), or {link: ...}", describe(v))
		return
	}
	s := v.Value
	if s != "" && !strings.HasSuffix(s, "\n") {
		s += "\n"
	}
	t.Inline[ext] = []byte(s)
}

// kind is what a file is of: "in" or "ans".
func kind(ext string) string {
	k, _, _ := strings.Cut(ext[1:], ".")
	return k
}

// match reads a test's match: patterns the .in (or, by key, the .ans)
// should match.
func (p *parser) match(t *Case, n *yaml.Node, field string) {
	if isString(n) || n.Kind == yaml.SequenceNode {
		n = &yaml.Node{Kind: yaml.MappingNode, Line: n.Line, Content: []*yaml.Node{{Kind: yaml.ScalarNode, Value: "in"}, n}}
	}
	if n.Kind != yaml.MappingNode {
		p.bad(n, field, "got %s, want a pattern, a list of them, or in: and ans: lists", describe(n))
		return
	}
	for _, kv := range pairs(n) {
		k, v := kv[0], kv[1]
		f := join(field, k.Value)
		if k.Value != "in" && k.Value != "ans" {
			p.warn(k, f, "unknown key: ignored (want in or ans)")
			continue
		}
		items := []*yaml.Node{v}
		if v.Kind == yaml.SequenceNode {
			items = v.Content
		}
		for _, it := range items {
			if !isString(it) {
				p.bad(it, f, "got %s, want a regular expression", describe(it))
				continue
			}
			if len(it.Value) > maxPatternLength {
				p.bad(it, f, "a pattern of %d bytes, longer than %d", len(it.Value), maxPatternLength)
				continue
			}
			if _, err := CompilePattern(it.Value); err != nil {
				p.bad(it, f, "%q: %v", it.Value, err)
				continue
			}
			t.Match["."+k.Value] = append(t.Match["."+k.Value], it.Value)
		}
	}
}

// duplicate warns about a test made exactly as an earlier one, unless
// count: asked for copies.
func (p *parser) duplicate(t *Case, k *yaml.Node, field string) {
	var b strings.Builder
	if g := t.Generate; g != nil {
		text := g.Text
		if g.UsesSeed {
			text = seedRE.ReplaceAllLiteralString(text, fmt.Sprint(t.Seed))
		}
		fmt.Fprintf(&b, "generate %q\n", text)
	}
	fmt.Fprintf(&b, "copy %q\n", t.Copy)
	for _, ext := range textExtensions {
		if c, ok := t.Inline[ext]; ok {
			fmt.Fprintf(&b, "%s %q\n", ext, c)
		}
	}
	prev, dup := p.rules[b.String()]
	if !dup {
		p.rules[b.String()] = t
		return
	}
	if prev.Key == t.Key && t.CountGiven {
		return // count: asked for copies (a {seed} or {count} would differ)
	}
	p.warn(k, field, "%s is made exactly as %s: use count: for copies, or a {seed} to tell them apart", t.Path, prev.Path)
}
