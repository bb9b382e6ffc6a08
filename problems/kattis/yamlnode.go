package kattis

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/optjudge/optjudge/specfile"
)

// yamlFile is one small YAML file of a package (testdata.yaml,
// test_group.yaml, a test's .yaml, submissions.yaml) read node by node, so
// that each key may take the several shapes the format allows and every
// message names the file, the line and the key.
type yamlFile struct {
	name     string // as messages name it
	errs     specfile.Errors
	warnings []Warning
}

// parseYAMLFile parses data into its top-level mapping; nil (and no error)
// for an empty file. A file that is not a mapping is an error.
func (f *yamlFile) parse(data []byte) *yaml.Node {
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		f.errs = append(f.errs, asSpecErrors(specfile.Syntax(f.name, err))...)
		return nil
	}
	if len(root.Content) == 0 {
		return nil
	}
	doc := root.Content[0]
	if doc.Kind == yaml.ScalarNode && doc.Tag == "!!null" {
		return nil
	}
	if doc.Kind != yaml.MappingNode {
		f.bad(doc, "", "want a mapping of keys to values")
		return nil
	}
	if err := specfile.DuplicateKeys(f.name, doc, 0); err != nil {
		f.errs = append(f.errs, err.(*specfile.Error))
		return nil
	}
	return doc
}

func (f *yamlFile) bad(n *yaml.Node, field, format string, args ...any) {
	f.errs = append(f.errs, &specfile.Error{File: f.name, Line: n.Line, Field: field, Msg: fmt.Sprintf(format, args...)})
}

func (f *yamlFile) warn(n *yaml.Node, field, format string, args ...any) {
	f.warnings = append(f.warnings, Warning{File: f.name, Line: n.Line, Field: field, Msg: fmt.Sprintf(format, args...)})
}

// pairs lists a mapping's keys with their values.
func pairs(m *yaml.Node) [][2]*yaml.Node {
	var out [][2]*yaml.Node
	for i := 0; i+1 < len(m.Content); i += 2 {
		out = append(out, [2]*yaml.Node{m.Content[i], m.Content[i+1]})
	}
	return out
}

// resolve follows an alias.
func resolve(n *yaml.Node) *yaml.Node {
	for n != nil && n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	return n
}

func isNull(n *yaml.Node) bool { return n.Kind == yaml.ScalarNode && n.Tag == "!!null" }

// str reads a scalar as a string (numbers and booleans as written).
func (f *yamlFile) str(n *yaml.Node, field string) (string, bool) {
	n = resolve(n)
	if n.Kind != yaml.ScalarNode || isNull(n) {
		f.bad(n, field, "want a string")
		return "", false
	}
	return n.Value, true
}

// strings reads a list of scalars.
func (f *yamlFile) strings(n *yaml.Node, field string) ([]string, bool) {
	n = resolve(n)
	if isNull(n) {
		return nil, true
	}
	if n.Kind != yaml.SequenceNode {
		f.bad(n, field, "want a list of strings")
		return nil, false
	}
	out := []string{}
	for _, c := range n.Content {
		c = resolve(c)
		if c.Kind != yaml.ScalarNode || isNull(c) {
			f.bad(c, field, "want a list of strings")
			return nil, false
		}
		out = append(out, c.Value)
	}
	return out, true
}

// stringOrStrings reads a string (one item) or a list of strings.
func (f *yamlFile) stringOrStrings(n *yaml.Node, field string) ([]string, bool) {
	n = resolve(n)
	if n.Kind == yaml.ScalarNode && !isNull(n) {
		return []string{n.Value}, true
	}
	return f.strings(n, field)
}

// words reads a string of space-separated words (the legacy flags).
func (f *yamlFile) words(n *yaml.Node, field string) ([]string, bool) {
	n = resolve(n)
	if isNull(n) {
		return nil, true
	}
	s, ok := f.str(n, field)
	return strings.Fields(s), ok
}

// float reads a number.
func (f *yamlFile) float(n *yaml.Node, field string) (float64, bool) {
	n = resolve(n)
	if n.Kind == yaml.ScalarNode && (n.Tag == "!!int" || n.Tag == "!!float") {
		if v, err := parseYAMLFloat(n.Value); err == nil {
			return v, true
		}
	}
	f.bad(n, field, "got %s, want a number", describe(n))
	return 0, false
}

// boolean reads true or false.
func (f *yamlFile) boolean(n *yaml.Node, field string) (bool, bool) {
	n = resolve(n)
	if n.Kind == yaml.ScalarNode && n.Tag == "!!bool" {
		var b bool
		if err := n.Decode(&b); err == nil {
			return b, true
		}
	}
	f.bad(n, field, "got %s, want true or false", describe(n))
	return false, false
}

// parseYAMLFloat parses a YAML number, with its .inf and .nan spellings.
func parseYAMLFloat(s string) (float64, error) {
	switch strings.ToLower(strings.TrimLeft(s, "+")) {
	case ".inf":
		return math.Inf(1), nil
	case "-.inf":
		return math.Inf(-1), nil
	case ".nan":
		return math.NaN(), nil
	}
	if v, err := strconv.ParseInt(strings.ReplaceAll(s, "_", ""), 0, 64); err == nil {
		return float64(v), nil
	}
	return strconv.ParseFloat(strings.ReplaceAll(s, "_", ""), 64)
}

// describe names a node's value for messages.
func describe(n *yaml.Node) string {
	switch n.Kind {
	case yaml.SequenceNode:
		return "a list"
	case yaml.MappingNode:
		return "a mapping"
	}
	switch n.Tag {
	case "!!str":
		return fmt.Sprintf("the string %q", n.Value)
	case "!!bool":
		return "the boolean " + n.Value
	case "!!null":
		return "nothing"
	}
	return "the number " + n.Value
}

// asSpecErrors is err as a list of errors: itself when it is one, else a
// list of one.
func asSpecErrors(err error) specfile.Errors {
	switch e := err.(type) {
	case specfile.Errors:
		return e
	case *specfile.Error:
		return specfile.Errors{e}
	}
	return specfile.Errors{{Msg: err.Error()}}
}
