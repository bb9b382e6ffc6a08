package puzzle

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// FileName is the name of a definition in a problem directory.
const FileName = "puzzle.yaml"

// MaxFileSize bounds a definition file: the largest shipped one is a few
// kilobytes.
const MaxFileSize = 1 << 20

// Error is a problem with one field of a definition.
type Error struct {
	File  string
	Line  int    // 0 when unknown
	Field string // the key's path, "moves[3].cycles[0]"; "" for syntax errors
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

// Errors is every problem found in one definition, in file order.
type Errors []*Error

func (es Errors) Error() string {
	msgs := make([]string, len(es))
	for i, e := range es {
		msgs[i] = e.Error()
	}
	return strings.Join(msgs, "\n")
}

// Defaults returns the definition that a file's keys are decoded over.
func Defaults() Definition {
	return Definition{
		Mode:   ModeSmallest,
		Input:  Input{Cases: CasesOne, Lines: 1, Separator: " "},
		Output: Output{Separator: " ", Order: OrderAsMade, Lines: []string{LineMoves}},
		Layout: Layout{Show: ShowSymbol},
		Search: Search{Method: "auto"},
	}
}

// Load reads and validates dir/puzzle.yaml.
func Load(dir string) (*Definition, error) {
	path := filepath.Join(dir, FileName)
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	d, err := Parse(f, path)
	if err != nil {
		return nil, err
	}
	if err := d.Validate(); err != nil {
		return nil, err
	}
	return d, nil
}

// Parse decodes a definition read from r over the Defaults; name is the
// file's name in messages. An unknown key, a value of the wrong type or a
// key given twice is an error; Parse does not check values (see Validate).
// Errors are of type Errors.
func Parse(r io.Reader, name string) (*Definition, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxFileSize+1))
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", name, err)
	}
	if len(data) > MaxFileSize {
		return nil, Errors{{File: name, Msg: fmt.Sprintf("larger than %d bytes", MaxFileSize)}}
	}
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return nil, Errors{syntaxError(name, err)}
	}
	if len(root.Content) == 0 {
		return nil, Errors{{File: name, Msg: "empty file"}}
	}
	doc := root.Content[0]
	if doc.Kind != yaml.MappingNode {
		return nil, Errors{{File: name, Line: doc.Line, Msg: "want a mapping of keys to values"}}
	}
	if err := duplicateKeys(name, "", doc); err != nil {
		return nil, Errors{err}
	}
	d := Defaults()
	d.file = name
	d.lines = map[string]int{}
	collectLines(doc, "", d.lines)
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&d); err != nil {
		return nil, decodeError(name, err, doc)
	}
	var next yaml.Node
	if err := dec.Decode(&next); err != io.EOF {
		return nil, Errors{{File: name, Line: next.Line, Msg: "more than one YAML document"}}
	}
	return &d, nil
}

var lineRE = regexp.MustCompile(`^line (\d+): (.*)$`)

// syntaxError turns "yaml: line 3: did not find expected key" into
// "puzzle.yaml:3: did not find expected key".
func syntaxError(file string, err error) *Error {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	if m := lineRE.FindStringSubmatch(msg); m != nil {
		n, _ := strconv.Atoi(m[1])
		return &Error{File: file, Line: n, Msg: m[2]}
	}
	return &Error{File: file, Msg: msg}
}

var (
	fieldNotFoundRE = regexp.MustCompile(`^field (\S+) not found in type \S+$`)
	cannotRE        = regexp.MustCompile("^cannot unmarshal !!(\\w+)(?: `(.*)`)? into (\\S+)$")
)

// decodeError rewrites yaml.v3's type errors so that each names the file,
// the line and the key.
func decodeError(file string, err error, doc *yaml.Node) error {
	var te *yaml.TypeError
	if !errors.As(err, &te) {
		return Errors{syntaxError(file, err)}
	}
	ix := indexPaths(doc)
	var es Errors
	for _, msg := range te.Errors {
		m := lineRE.FindStringSubmatch(msg)
		if m == nil {
			es = append(es, &Error{File: file, Msg: msg})
			continue
		}
		line, _ := strconv.Atoi(m[1])
		e := &Error{File: file, Line: line, Msg: m[2]}
		if f := fieldNotFoundRE.FindStringSubmatch(m[2]); f != nil {
			e.Field = ix.keys[keyAt(line, f[1])]
			e.Msg = "unknown key"
		} else if c := cannotRE.FindStringSubmatch(m[2]); c != nil {
			e.Field = ix.values[valueAt(line, nodeKind(c[1]))]
			e.Msg = fmt.Sprintf("got %s, want %s", kindName(c[1], c[2]), typeName(c[3]))
		}
		es = append(es, e)
	}
	return es
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

func kindName(tag, value string) string {
	switch tag {
	case "str":
		return fmt.Sprintf("the string %q", value)
	case "int", "float":
		return "the number " + value
	case "bool":
		return "the boolean " + value
	case "null":
		return "nothing"
	case "seq":
		return "a list"
	case "map":
		return "a mapping"
	}
	return tag
}

// typeName names a Go type of the definition as the YAML it wants.
func typeName(goType string) string {
	switch {
	case goType == "int":
		return "a whole number"
	case goType == "bool":
		return "true or false"
	case strings.HasPrefix(goType, "[][]"):
		return "a list of lists"
	case strings.HasPrefix(goType, "[]"):
		return "a list"
	case strings.HasPrefix(goType, "map["):
		return "a mapping"
	case strings.HasPrefix(goType, "puzzle.") || strings.HasPrefix(goType, "*puzzle."):
		switch strings.TrimPrefix(strings.TrimPrefix(goType, "*"), "puzzle.") {
		case "Mode", "Cases", "Order", "Show":
			return "a string"
		}
		return "a mapping"
	}
	return "a string"
}

// duplicateKeys refuses a mapping that gives a key twice, before yaml.v3
// decodes it (its own check is quadratic in the number of duplicates).
func duplicateKeys(file, prefix string, n *yaml.Node) *Error {
	switch n.Kind {
	case yaml.MappingNode:
		seen := make(map[string]int, len(n.Content)/2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			p := joinPath(prefix, k.Value)
			if k.Kind == yaml.ScalarNode {
				if line, dup := seen[k.Value]; dup {
					return &Error{File: file, Line: k.Line, Field: p, Msg: fmt.Sprintf("given twice (first on line %d)", line)}
				}
				seen[k.Value] = k.Line
			}
			if err := duplicateKeys(file, p, n.Content[i+1]); err != nil {
				return err
			}
		}
	case yaml.SequenceNode:
		for i, c := range n.Content {
			if err := duplicateKeys(file, fmt.Sprintf("%s[%d]", prefix, i), c); err != nil {
				return err
			}
		}
	}
	return nil
}

func joinPath(prefix, key string) string {
	if prefix == "" {
		return key
	}
	return prefix + "." + key
}

// collectLines records the line of every key and list item by its path.
func collectLines(n *yaml.Node, prefix string, lines map[string]int) {
	switch n.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			p := joinPath(prefix, n.Content[i].Value)
			lines[p] = n.Content[i].Line
			collectLines(n.Content[i+1], p, lines)
		}
	case yaml.SequenceNode:
		for i, c := range n.Content {
			p := fmt.Sprintf("%s[%d]", prefix, i)
			lines[p] = c.Line
			collectLines(c, p, lines)
		}
	}
}

// nodePaths indexes a document's keys by line and name and its values by
// line and kind, the first in document order winning, so that each decode
// error finds its path at once.
type nodePaths struct {
	keys   map[string]string
	values map[string]string
}

func keyAt(line int, key string) string       { return fmt.Sprintf("%d\x00%s", line, key) }
func valueAt(line int, kind yaml.Kind) string { return fmt.Sprintf("%d\x00%d", line, kind) }

func indexPaths(doc *yaml.Node) *nodePaths {
	ix := &nodePaths{keys: map[string]string{}, values: map[string]string{}}
	ix.walk(doc, "")
	return ix
}

func (ix *nodePaths) walk(n *yaml.Node, prefix string) {
	if k := valueAt(n.Line, n.Kind); ix.values[k] == "" {
		ix.values[k] = prefix
	}
	switch n.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			p := joinPath(prefix, k.Value)
			if key := keyAt(k.Line, k.Value); ix.keys[key] == "" {
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
