package kattis

import (
	"bytes"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"sort"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// Constants are a package's constants (problem.yaml's constants, 2023-07
// and later): each name's value by "name" and "name.value", and each
// variant by "name.variant". A scalar constant is its value alone.
//
//	constants:
//	  k: {value: 5000000, tex: "5,000,000"}
//	  eps: 1e-6
//
// A constant sequence {{name}} or {{name.variant}} in the files the
// format lists (Markdown statements, input and output validators, the
// included files, example submissions, test_group.yaml) is replaced by
// its text as problem.yaml writes it; a sequence naming no constant stays
// as it is, and Load warns about it, naming the file and the line.
type Constants map[string]string

// constantRE is a constant sequence: {{name}} or {{name.variant}}.
var constantRE = regexp.MustCompile(`\{\{([A-Za-z_][A-Za-z0-9_]*)(?:\.([A-Za-z_][A-Za-z0-9_]*))?\}\}`)

// constantNameRE is what a constant's name and a variant's key must be.
var constantNameRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// maxConstantGrowth bounds how much longer the constants make a file.
// Constants are numbers and short texts, a few bytes each time they are
// named; but a constant may be as long as problem.yaml (1 MiB), and a file
// that names it a hundred thousand times would grow to a hundred gigabytes.
const maxConstantGrowth = 16 << 20

// Substitute replaces the constant sequences of data with their values,
// once (a value's own sequences stay as they are); data without one (or
// that is not text: a NUL byte, or not UTF-8) comes back as it is. It is
// an error for the values to make data more than maxConstantGrowth longer.
func (c Constants) Substitute(data []byte) ([]byte, error) {
	if len(c) == 0 || !bytes.Contains(data, []byte("{{")) || !isText(data) {
		return data, nil
	}
	return c.replace(constantRE, data, func(m []byte) string { return string(m[2 : len(m)-2]) })
}

// replace replaces re's matches in data that name a constant (name
// gives the name in a match) with its value, growing data by at most
// maxConstantGrowth.
func (c Constants) replace(re *regexp.Regexp, data []byte, name func(m []byte) string) ([]byte, error) {
	grown := 0
	out := re.ReplaceAllFunc(data, func(m []byte) []byte {
		v, ok := c[name(m)]
		if !ok || grown > maxConstantGrowth {
			return m
		}
		grown += len(v) - len(m)
		return []byte(v)
	})
	if grown > maxConstantGrowth {
		return nil, fmt.Errorf("its constants make it more than %d MiB longer", maxConstantGrowth>>20)
	}
	return out, nil
}

// isText says whether data may be a text file: valid UTF-8 without NUL.
func isText(data []byte) bool { return bytes.IndexByte(data, 0) < 0 && utf8.Valid(data) }

// parseConstants reads problem.yaml's constants node into k.constants,
// naming each bad entry.
func (k *Spec) parseConstants(n *yaml.Node, bad func(field, format string, args ...any)) {
	n = resolve(n)
	if n == nil || isNull(n) {
		return
	}
	if n.Kind != yaml.MappingNode {
		bad("constants", "want a mapping of names to values")
		return
	}
	k.constants = Constants{}
	for _, kv := range pairs(n) {
		name, v := kv[0].Value, resolve(kv[1])
		field := "constants." + name
		if !constantNameRE.MatchString(name) {
			bad(field, "%q is not a constant name ([A-Za-z_][A-Za-z0-9_]*)", name)
			continue
		}
		if v.Kind != yaml.MappingNode {
			if s, ok := constantValue(v); ok {
				k.constants[name], k.constants[name+".value"] = s, s
			} else {
				bad(field, "got %s, want an integer, a float, a string or a mapping with a value", describe(v))
			}
			continue
		}
		value := false
		for _, vv := range pairs(v) {
			key, val := vv[0].Value, resolve(vv[1])
			if !constantNameRE.MatchString(key) {
				bad(field+"."+key, "%q is not a variant name ([A-Za-z_][A-Za-z0-9_]*)", key)
				continue
			}
			s, ok := constantValue(val)
			if !ok {
				bad(field+"."+key, "got %s, want an integer, a float or a string", describe(val))
				continue
			}
			k.constants[name+"."+key] = s
			if key == "value" {
				k.constants[name], value = s, true
			}
		}
		if !value {
			bad(field, "a mapping without the required key value")
		}
	}
}

// constantValue is a scalar constant's text: an integer or a float as
// problem.yaml writes it, or a string.
func constantValue(n *yaml.Node) (string, bool) {
	if n.Kind != yaml.ScalarNode {
		return "", false
	}
	switch n.Tag {
	case "!!int", "!!float", "!!str":
		return n.Value, true
	}
	return "", false
}

// constantPlaces are the files and directories whose files take the
// constants, as 2025-09 lists them (with the legacy directory names and
// testdata.yaml, 2023-07's name of a group's file): statements,
// validators, included files, example submissions and the test groups'
// files (see constantFiles).
var constantPlaces = []string{
	"statement", "problem_statement", "input_validators", "input_format_validators", "output_validator",
	"output_validators", "answer_validators", "static_validator", "include", "submissions",
}

// maxConstantScan bounds the files read for unknown constants: the
// first bytes of a file, and the warnings of a package.
const (
	maxConstantScan     = 1 << 20
	maxConstantWarnings = 20
)

// constantWarnings scans the files that take the constants for sequences
// that name no constant: one warning each, with its file and line.
func (p *Package) constantWarnings() []Warning {
	c := p.Constants
	if len(c) == 0 {
		return nil
	}
	var ws []Warning
	names := make([]string, 0, len(c))
	for n := range c {
		if !strings.Contains(n, ".") {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	for _, name := range constantFiles(p.FS) {
		data, err := readHead(p.FS, name, maxConstantScan)
		if err != nil || !isText(data) {
			continue
		}
		for _, m := range constantRE.FindAllIndex(data, -1) {
			seq := string(data[m[0]:m[1]])
			if _, ok := c[seq[2:len(seq)-2]]; ok {
				continue
			}
			if len(ws) == maxConstantWarnings {
				ws = append(ws, Warning{File: p.file("."), Msg: "more constant sequences that name no constant; not listed"})
				return ws
			}
			ws = append(ws, Warning{File: p.file(name), Line: lineAt(data, m[0]),
				Msg: fmt.Sprintf("%s names no constant of problem.yaml (%s); left as it is", seq, strings.Join(names, ", "))})
		}
	}
	return ws
}

// constantFiles lists the files of fsys that take the constants, sorted.
func constantFiles(fsys fs.FS) []string {
	var out []string
	for _, dir := range constantPlaces {
		fs.WalkDir(fsys, dir, func(name string, d fs.DirEntry, err error) error {
			switch {
			case err != nil:
				return nil
			case ignoredName(d.Name()) && name != dir:
				if d.IsDir() {
					return fs.SkipDir
				}
			case dir == "statement" || dir == "problem_statement":
				if ext := path.Ext(name); !d.IsDir() && (ext == ".md" || ext == ".tex") {
					out = append(out, name)
				}
			case !d.IsDir():
				out = append(out, name)
			}
			return nil
		})
	}
	fs.WalkDir(fsys, "data", func(name string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && (d.Name() == "test_group.yaml" || d.Name() == "testdata.yaml") {
			out = append(out, name)
		}
		return nil
	})
	sort.Strings(out)
	return out
}

// ReadFile reads a file of the problem that takes the constants (a
// validator's, an included file, an example submission's), with them in
// place.
func (p *Package) ReadFile(name string) ([]byte, error) {
	data, err := fs.ReadFile(p.FS, name)
	if err != nil {
		return nil, err
	}
	if data, err = p.Constants.Substitute(data); err != nil {
		return nil, fmt.Errorf("%s: %w", p.file(name), err)
	}
	return data, nil
}

// statementFiles are where a problem's statement may be, in the order
// they are looked for: the native statement.md, then a package's
// Markdown statement (2023-07 and later in statement/, legacy in
// problem_statement/), then its LaTeX one.
var statementFiles = []string{
	"statement.md",
	"statement/problem.en.md", "statement/problem.md", "problem_statement/problem.en.md", "problem_statement/problem.md",
	"statement/problem.en.tex", "statement/problem.tex", "problem_statement/problem.en.tex", "problem_statement/problem.tex",
}

// Statement is the problem's statement, the first of statementFiles it
// has, with the package's constants in place ({{name}}, and in LaTeX
// \constant{name}); ok is false when it has none, or when its constants
// make it too long.
func (p *Package) Statement() (name string, text []byte, ok bool) {
	for _, f := range statementFiles {
		b, err := fs.ReadFile(p.FS, f)
		if err != nil {
			continue
		}
		if path.Ext(f) == ".tex" {
			b, err = p.Constants.SubstituteTeX(b)
		} else {
			b, err = p.Constants.Substitute(b)
		}
		return f, b, err == nil
	}
	return "", nil, false
}

// SubstituteTeX puts the constants in place in a LaTeX file: {{name}}
// as Substitute does, and \constant{name}, each growing it by at most
// maxConstantGrowth.
func (c Constants) SubstituteTeX(data []byte) ([]byte, error) {
	data, err := c.Substitute(data)
	if err != nil || len(c) == 0 {
		return data, err
	}
	return c.replace(texConstantRE, data, func(m []byte) string { return string(texConstantRE.FindSubmatch(m)[1]) })
}

// texConstantRE is a LaTeX statement's \constant{name} or
// \constant{name.variant}.
var texConstantRE = regexp.MustCompile(`\\constant\{([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)?)\}`)
