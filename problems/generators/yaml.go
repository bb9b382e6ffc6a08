package generators

import (
	"crypto/sha512"
	"encoding/binary"
	"errors"
	"fmt"
	"path"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// Seed is BAPCtools' seed of a generator command: the SHA-512 of the salt,
// ":N-1" for count value N when N is not 1, and the command without the
// white space around it, read as a number, modulo 2^31.
//
//	int(hashlib.sha512((salt + f":{count-1}" + command.strip()).encode()).hexdigest(), 16) % 2**31
func Seed(salt string, count int, command string) uint32 {
	s := salt
	if count != 1 {
		s += ":" + strconv.Itoa(count-1)
	}
	s += strings.TrimSpace(command)
	sum := sha512.Sum512([]byte(s))
	return binary.BigEndian.Uint32(sum[60:]) & (1<<31 - 1)
}

// shellSplit splits a command into words as Python's shlex.split does:
// white space separates, '...' is literal, "..." keeps a backslash but
// before " and \, and a backslash outside quotes escapes the next
// character.
func shellSplit(s string) ([]string, error) {
	var words []string
	var cur strings.Builder
	inWord := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		case c == '\'':
			inWord = true
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return nil, errors.New("no closing quotation")
			}
			cur.WriteString(s[i+1 : i+1+j])
			i += j + 1
		case c == '"':
			inWord = true
			i++
			for ; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) && (s[i+1] == '"' || s[i+1] == '\\') {
					i++
				}
				cur.WriteByte(s[i])
			}
			if i >= len(s) {
				return nil, errors.New("no closing quotation")
			}
		case c == '\\':
			inWord = true
			if i+1 >= len(s) {
				return nil, errors.New("no escaped character")
			}
			i++
			cur.WriteByte(s[i])
		default:
			inWord = true
			cur.WriteByte(c)
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, nil
}

// relativePath is a path below generators/ as the package root names
// it; absolute paths and paths out of the package are refused.
func relativePath(p string) (string, error) {
	if strings.HasPrefix(p, "/") {
		return "", fmt.Errorf("%s: want a path relative to generators/, not an absolute one", p)
	}
	clean := path.Clean("generators/" + p)
	if !inside(clean) {
		return "", fmt.Errorf("%s: outside the package", p)
	}
	return clean, nil
}

// absolutePath is a path from the package root (/submissions/...), as the
// root names it.
func absolutePath(p string) (string, error) {
	if !strings.HasPrefix(p, "/") {
		return "", fmt.Errorf("%s: want a path from the package root, starting with / (/submissions/accepted/sol.py)", p)
	}
	clean := path.Clean(strings.TrimLeft(p, "/"))
	if !inside(clean) || clean == "." {
		return "", fmt.Errorf("%s: outside the package", p)
	}
	return clean, nil
}

func inside(clean string) bool { return clean != ".." && !strings.HasPrefix(clean, "../") }

// text is a mapping's source, from the line of the value on, as
// BAPCtools (ruamel.yaml's round trip) writes it back: the lines indented
// below its key, out-dented, an end-of-line comment kept at its column,
// comment lines after the last value dropped, and the blank lines after a
// last block scalar (| or >) kept.
func (p *parser) text(k, v *yaml.Node) []byte {
	first := v.Line - 1
	if first < 0 || first >= len(p.lines) {
		return nil
	}
	col := v.Column - 1
	var out []string
	if v.Line == k.Line || v.Style&yaml.FlowStyle != 0 {
		// a flow mapping ({a: b}) on its key's line
		out = append(out, p.lines[first][min(col, len(p.lines[first])):])
	} else {
		out = append(out, dedent(p.lines[first], col))
	}
	for i := first + 1; i < len(p.lines); i++ {
		l := strings.TrimRight(p.lines[i], "\r")
		t := strings.TrimLeft(l, " \t")
		if t != "" && len(l)-len(t) <= k.Column-1 {
			break
		}
		out = append(out, dedent(l, col))
	}
	blankOK := lastIsBlockScalar(v)
	end := len(out)
	for end > 1 {
		t := strings.TrimSpace(out[end-1])
		if t == "" || strings.HasPrefix(t, "#") {
			end--
			continue
		}
		break
	}
	if blankOK {
		for end < len(out) && strings.TrimSpace(out[end]) == "" {
			end++
		}
	}
	return []byte(strings.Join(out[:end], "\n") + "\n")
}

// lastIsBlockScalar says whether the last value below n is a | or >
// scalar.
func lastIsBlockScalar(n *yaml.Node) bool {
	for n != nil && len(n.Content) > 0 {
		n = n.Content[len(n.Content)-1]
	}
	return n != nil && n.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0
}

// dedent drops col columns of indentation from l, keeping an end-of-line
// comment at its column (as ruamel.yaml does).
func dedent(l string, col int) string {
	out := strings.TrimRight(cut(l, col), " \t")
	c := commentAt(l)
	if c < 0 {
		return out
	}
	shift := len(l) - len(cut(l, col))
	code := strings.TrimRight(out[:c-shift], " \t")
	if strings.TrimSpace(code) == "" {
		return out
	}
	return code + strings.Repeat(" ", max(1, c-len(code))) + l[c:]
}

// commentAt is where an end-of-line comment starts in a YAML line (a #
// after white space, outside quotes); -1 for none.
func commentAt(l string) int {
	var quote byte
	for i := 0; i < len(l); i++ {
		c := l[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '#' && i > 0 && (l[i-1] == ' ' || l[i-1] == '\t'):
			return i
		}
	}
	return -1
}

// cut drops col columns of indentation from l (fewer if l has fewer).
func cut(l string, col int) string {
	t := strings.TrimLeft(l, " ")
	return l[min(col, len(l)-len(t)):]
}

// maxNodes bounds a generators.yaml's entries with its aliases expanded:
// the parser walks an alias's value as often as it is named, so a few
// lines that alias aliases would otherwise take it for ever.
const maxNodes = 1 << 20

// expansion counts a document's nodes with every alias expanded, at most
// maxNodes+1. yaml.v3 knows an anchor before it reads the anchor's value,
// so an alias may sit inside the value it names (a: &a {b: *a}), which the
// parser would walk for ever: cycle is the first such alias.
type expansion struct {
	counts map[*yaml.Node]int // each node's count, counting while it is counted
	cycle  *yaml.Node
}

// counting marks a node whose count is not known yet: an alias to it is
// inside it.
const counting = -1

func (e *expansion) count(n *yaml.Node) int {
	if c, ok := e.counts[n]; ok {
		return c
	}
	e.counts[n] = counting
	c := 1
	if n.Kind == yaml.AliasNode {
		if e.counts[n.Alias] == counting {
			e.cycle = n
			return maxNodes + 1
		}
		c = e.count(n.Alias)
	}
	for _, k := range n.Content {
		if c += e.count(k); c > maxNodes {
			break
		}
	}
	c = min(c, maxNodes+1)
	e.counts[n] = c
	return c
}

// pairs lists a mapping's keys with their values (aliases resolved).
func pairs(m *yaml.Node) [][2]*yaml.Node {
	var out [][2]*yaml.Node
	if m == nil || m.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		out = append(out, [2]*yaml.Node{m.Content[i], resolve(m.Content[i+1])})
	}
	return out
}

func resolve(n *yaml.Node) *yaml.Node {
	for n != nil && n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	return n
}

// lookup is the value of key in mapping m; nil when absent.
func lookup(m *yaml.Node, key string) *yaml.Node {
	for _, kv := range pairs(m) {
		if kv[0].Value == key && !isNull(kv[0]) {
			return kv[1]
		}
	}
	return nil
}

func isNull(n *yaml.Node) bool {
	return n == nil || (n.Kind == yaml.ScalarNode && n.Tag == "!!null")
}

func isString(n *yaml.Node) bool { return n != nil && n.Kind == yaml.ScalarNode && n.Tag == "!!str" }

// isCase says whether an entry is a test: nothing, a command, or a
// mapping with a key only tests have.
func isCase(n *yaml.Node) bool {
	return isNull(n) || isString(n) || (n.Kind == yaml.MappingNode && len(caseKeysIn(n)) > 0)
}

func isDirectory(n *yaml.Node) bool { return n != nil && n.Kind == yaml.MappingNode && !isCase(n) }

func caseKeysIn(n *yaml.Node) []string {
	var out []string
	for _, kv := range pairs(n) {
		if contains(caseKeys, kv[0].Value) {
			out = append(out, kv[0].Value)
		}
	}
	return out
}

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

// join extends a dotted field path.
func join(field, key string) string {
	if field == "" {
		return key
	}
	return field + "." + key
}

func joinPath(dir, name string) string {
	if dir == "" {
		return name
	}
	return dir + "/" + name
}

func lastElem(p string) string { return path.Base(p) }

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
