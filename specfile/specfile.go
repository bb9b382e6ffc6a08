// Package specfile reads what the YAML spec formats share (both
// problem.yaml formats, and puzzle.yaml through a Format of its own): the
// errors that name a file, its line and the field, and the YAML decoding
// that finds them (syntax errors, unknown keys, values of the wrong type,
// keys given twice).
package specfile

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// Error is a problem with one field of a spec file.
type Error struct {
	File  string
	Line  int    // 0 when unknown
	Field string // dotted path, e.g. "limits.time_limit"; "" for syntax errors
	Msg   string
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
	}
	b.WriteString(": ")
	if e.Field != "" {
		b.WriteString(e.Field + ": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

// Errors is every problem found in one spec file.
type Errors []*Error

func (es Errors) Error() string {
	msgs := make([]string, len(es))
	for i, e := range es {
		msgs[i] = e.Error()
	}
	return strings.Join(msgs, "\n")
}

var lineRE = regexp.MustCompile(`^line (\d+): (.*)$`)

// Syntax turns "yaml: line 3: did not find expected key" into
// "problem.yaml:3: did not find expected key".
func Syntax(file string, err error) *Error {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	if m := lineRE.FindStringSubmatch(msg); m != nil {
		n, _ := strconv.Atoi(m[1])
		return &Error{File: file, Line: n, Msg: m[2]}
	}
	return &Error{File: file, Msg: msg}
}

var fieldNotFoundRE = regexp.MustCompile(`^field (\S+) not found in type (\S+)$`)
var cannotRE = regexp.MustCompile("^cannot unmarshal !!(\\w+)(?: `(.*)`)? into (\\S+)$")

// A Format is what sets a YAML format's messages apart from problem.yaml's,
// which the zero Format gives.
type Format struct {
	// TypeName names a Go type, as yaml.v3 spells it ("[]string"), as the
	// value a key wants ("a list").
	TypeName func(goType string) string
	// Null names a null value in "got ..., want ..."; "" names it "null".
	Null string
	// KeyPaths gives an empty key a path of its own ("a." within a, not a),
	// and has a type error name the first value on its line that a key
	// holds, the document itself only when no key's value is there.
	KeyPaths bool
	// Keys lists the keys of a Go type, as yaml.v3 names the type
	// ("puzzle.Move"), so that an unknown key close to one of them is
	// told which it may have meant; nil for no suggestions.
	Keys func(goType string) []string
}

// Decode rewrites yaml.v3's type errors so each names the file, the line
// and the field: Errors, or an *Error when err is not a type error.
func Decode(file string, err error, root *yaml.Node) error { return Format{}.Decode(file, err, root) }

// Decode is the package's Decode with f's names and paths.
func (f Format) Decode(file string, err error, root *yaml.Node) error {
	var te *yaml.TypeError
	if !errors.As(err, &te) {
		return Syntax(file, err)
	}
	var es Errors
	ix := f.indexPaths(root)
	for _, e := range te.Errors {
		m := lineRE.FindStringSubmatch(e)
		if m == nil {
			es = append(es, &Error{File: file, Msg: e})
			continue
		}
		line, _ := strconv.Atoi(m[1])
		se := &Error{File: file, Line: line, Msg: m[2]}
		if k := fieldNotFoundRE.FindStringSubmatch(m[2]); k != nil {
			se.Field = ix.keyAt(line, k[1])
			se.Msg = "unknown key"
			if f.Keys != nil {
				if near := Nearest(k[1], f.Keys(k[2])); near != "" {
					se.Msg = fmt.Sprintf("unknown key (did you mean %s?)", near)
				}
			}
		} else if c := cannotRE.FindStringSubmatch(m[2]); c != nil {
			se.Field = ix.valueAt(line, nodeKind(c[1]))
			se.Msg = fmt.Sprintf("got %s, want %s", f.kindName(c[1], c[2]), f.typeName(c[3]))
		}
		es = append(es, se)
	}
	return es
}

func (f Format) kindName(tag, value string) string {
	switch tag {
	case "null":
		if f.Null != "" {
			return f.Null
		}
	case "str":
		return fmt.Sprintf("the string %q", value)
	case "int", "float":
		return "the number " + value
	case "bool":
		return "the boolean " + value
	case "seq":
		return "a list"
	case "map":
		return "a mapping"
	}
	return tag
}

func (f Format) typeName(goType string) string {
	if f.TypeName != nil {
		return f.TypeName(goType)
	}
	switch {
	case goType == "string":
		return "a string"
	case goType == "float64":
		return "a number"
	case goType == "bool":
		return "true or false"
	case strings.HasPrefix(goType, "[]"):
		return "a list of strings"
	case strings.HasPrefix(goType, "map["):
		return "a mapping of strings"
	}
	return "a mapping"
}

func (f Format) joinPath(prefix, key string) string {
	switch {
	case prefix == "":
		return key
	case key == "" && !f.KeyPaths:
		return prefix
	}
	return prefix + "." + key
}

// MaxKeys bounds the keys of one mapping of a problem.yaml: yaml.v3
// compares every pair of keys when it decodes a mapping into a struct.
const MaxKeys = 1000

// MaxDepth bounds how deep lists and mappings nest in a spec file. The
// formats nest a few levels (generators.yaml a few per directory); yaml.v3
// allows 10000, and the walks that name every value by its path (this
// one, CollectLines, Decode's index) spend time and memory that grow as
// the square of the depth: a 1 MB problem.yaml of lists nested 9990 deep
// took over a minute and 8 GB.
const MaxDepth = 100

// DuplicateKeys refuses a mapping that gives a key twice, before yaml.v3
// decodes it: its own check makes an error of each duplicate pair, which a
// file of many repeated keys turns into minutes and gigabytes. With max >
// 0, a mapping of more than max keys is refused too. Lists and mappings
// nested more than MaxDepth deep are refused, so that callers may walk
// the document after it.
func DuplicateKeys(file string, n *yaml.Node, max int) error {
	return Format{}.DuplicateKeys(file, n, max)
}

// DuplicateKeys is the package's DuplicateKeys with f's paths.
func (f Format) DuplicateKeys(file string, n *yaml.Node, max int) error {
	return f.dupKeys(file, "", n, max, 1)
}

func (f Format) dupKeys(file, prefix string, n *yaml.Node, max, depth int) error {
	if depth > MaxDepth && (n.Kind == yaml.MappingNode || n.Kind == yaml.SequenceNode) {
		return &Error{File: file, Line: n.Line, Msg: fmt.Sprintf("lists and mappings nested more than %d deep", MaxDepth)}
	}
	switch n.Kind {
	case yaml.MappingNode:
		if max > 0 && len(n.Content)/2 > max {
			return &Error{File: file, Line: n.Line, Field: prefix, Msg: fmt.Sprintf("%d keys, more than %d", len(n.Content)/2, max)}
		}
		seen := make(map[string]int, len(n.Content)/2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			p := f.joinPath(prefix, k.Value)
			if k.Kind == yaml.ScalarNode {
				if line, dup := seen[k.Value]; dup {
					return &Error{File: file, Line: k.Line, Field: p, Msg: fmt.Sprintf("given twice (first on line %d)", line)}
				}
				seen[k.Value] = k.Line
			}
			if err := f.dupKeys(file, p, n.Content[i+1], max, depth+1); err != nil {
				return err
			}
		}
	case yaml.SequenceNode:
		for i, c := range n.Content {
			if err := f.dupKeys(file, fmt.Sprintf("%s[%d]", prefix, i), c, max, depth+1); err != nil {
				return err
			}
		}
	}
	return nil
}

// CollectLines records the line of every mapping value by its dotted path.
func CollectLines(n *yaml.Node, prefix string, lines map[string]int) {
	Format{}.CollectLines(n, prefix, lines)
}

// CollectLines is the package's CollectLines with f's paths.
func (f Format) CollectLines(n *yaml.Node, prefix string, lines map[string]int) {
	switch n.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			p := f.joinPath(prefix, n.Content[i].Value)
			lines[p] = n.Content[i].Line
			f.CollectLines(n.Content[i+1], p, lines)
		}
	case yaml.SequenceNode:
		for i, c := range n.Content {
			p := fmt.Sprintf("%s[%d]", prefix, i)
			lines[p] = c.Line
			f.CollectLines(c, p, lines)
		}
	}
}

func nodeKind(tag string) yaml.Kind {
	switch tag {
	case "seq":
		return yaml.SequenceNode
	case "map":
		return yaml.MappingNode
	}
	return yaml.ScalarNode
}

// nodePaths indexes a document's keys and values by line, so that each
// of many decode errors finds its path at once: keys by line and name,
// values by line and kind, the first in document order winning (with
// KeyPaths, the first that a key holds).
type nodePaths struct {
	f      Format
	keys   map[string]string
	values map[string]string
}

func (f Format) indexPaths(root *yaml.Node) *nodePaths {
	ix := &nodePaths{f: f, keys: map[string]string{}, values: map[string]string{}}
	ix.walk(root, "")
	return ix
}

func (ix *nodePaths) walk(n *yaml.Node, prefix string) {
	if k := valueKey(n.Line, n.Kind); ix.values[k] == "" {
		if _, seen := ix.values[k]; !seen || ix.f.KeyPaths {
			ix.values[k] = prefix
		}
	}
	switch n.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			p := ix.f.joinPath(prefix, k.Value)
			if key := keyKey(k.Line, k.Value); ix.keys[key] == "" {
				ix.keys[key] = p
			}
			ix.walk(n.Content[i+1], p)
		}
	case yaml.SequenceNode:
		for i, c := range n.Content {
			ix.walk(c, fmt.Sprintf("%s[%d]", prefix, i))
		}
	}
}

func keyKey(line int, key string) string       { return fmt.Sprintf("%d\x00%s", line, key) }
func valueKey(line int, kind yaml.Kind) string { return fmt.Sprintf("%d\x00%d", line, kind) }

// keyAt is the path of the mapping key named key on line ("" if none).
func (ix *nodePaths) keyAt(line int, key string) string { return ix.keys[keyKey(line, key)] }

// valueAt is the path of the first value of the given kind on line.
func (ix *nodePaths) valueAt(line int, kind yaml.Kind) string { return ix.values[valueKey(line, kind)] }

// LineOf is the line of field in a file whose lines CollectLines
// recorded, or of its nearest parent present in the file; 0 when the whole
// section is missing.
func LineOf(lines map[string]int, field string) int {
	for p := field; p != ""; {
		if n, ok := lines[p]; ok {
			return n
		}
		i := strings.LastIndexAny(p, ".[")
		if i < 0 {
			break
		}
		p = p[:i]
	}
	return 0
}

// Nearest is the one of names that key most likely misspells: the
// closest by edit distance, at most 2 edits away (1 for a key of four
// letters or fewer); "" when none is that close, or two are.
func Nearest(key string, names []string) string {
	most := 2
	if len(key) <= 4 {
		most = 1
	}
	best, bestD, tie := "", most+1, false
	for _, n := range names {
		switch d := editDistance(key, n); {
		case d < bestD:
			best, bestD, tie = n, d, false
		case d == bestD:
			tie = true
		}
	}
	if tie {
		return ""
	}
	return best
}

// editDistance is the Levenshtein distance of a and b, in bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			c := prev[j-1]
			if a[i-1] != b[j-1] {
				c++
			}
			cur[j] = min(c, prev[j]+1, cur[j-1]+1)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
