package specfile

import (
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// spec is a small format to decode: a string, a number in a mapping, and a
// mapping of strings (where a key may be empty).
type spec struct {
	Name   string `yaml:"name"`
	Limits struct {
		Time float64 `yaml:"time"`
	} `yaml:"limits"`
	Colors map[string]string `yaml:"colors"`
}

// check decodes src as f would have its callers do, and returns the
// message.
func check(t *testing.T, f Format, src string) string {
	t.Helper()
	var root yaml.Node
	if err := yaml.Unmarshal([]byte(src), &root); err != nil {
		return Syntax("s.yaml", err).Error()
	}
	doc := root.Content[0]
	if err := f.DuplicateKeys("s.yaml", doc, 0); err != nil {
		return err.Error()
	}
	dec := yaml.NewDecoder(strings.NewReader(src))
	dec.KnownFields(true)
	var s spec
	if err := dec.Decode(&s); err != nil {
		return f.Decode("s.yaml", err, doc).Error()
	}
	return ""
}

// keyed is a format with names and paths of its own, as puzzle.yaml's.
var keyed = Format{TypeName: func(goType string) string { return "a " + goType }, Null: "nothing", KeyPaths: true}

func TestFormat(t *testing.T) {
	tests := []struct {
		name string
		f    Format
		src  string
		want string
	}{
		{"syntax", Format{}, "name: [a\n", `s.yaml:1: did not find expected ',' or ']'`},
		{"unknown key", Format{}, "name: x\nnmae: y\n", `s.yaml:2: nmae: unknown key`},
		{"wrong type", Format{}, "name: x\nlimits: {time: fast}\n", `s.yaml:2: limits.time: got the string "fast", want a number`},
		{"wrong type, named by the format", keyed, "name: x\nlimits: {time: fast}\n", `s.yaml:2: limits.time: got the string "fast", want a float64`},
		{"null", Format{}, "limits:\n  time: !!null [1]\n", `s.yaml:2: limits.time[0]: got null, want a number`},
		{"null, named by the format", keyed, "limits:\n  time: !!null [1]\n", `s.yaml:2: limits.time[0]: got nothing, want a float64`},
		{"the document's line", Format{}, "name: {a: b}\n", `s.yaml:1: got a mapping, want a string`},
		{"the document's line, with key paths", keyed, "name: {a: b}\n", `s.yaml:1: name: got a mapping, want a string`},
		{"empty key", Format{}, "colors:\n  \"\": [1]\n", `s.yaml:2: colors: got a list, want a string`},
		{"empty key, with key paths", keyed, "colors:\n  \"\": [1]\n", `s.yaml:2: colors.: got a list, want a string`},
		{"empty key twice", Format{}, "colors: {\"\": a, \"\": b}\n", `s.yaml:1: colors: given twice (first on line 1)`},
		{"empty key twice, with key paths", keyed, "colors: {\"\": a, \"\": b}\n", `s.yaml:1: colors.: given twice (first on line 1)`},
		{"nested as deep as allowed", Format{}, "name: " + nested(MaxDepth-1, "[", "]") + "\n", `s.yaml:1: name: got a list, want a string`},
		{"nested too deep", Format{}, "name: " + nested(MaxDepth, "[", "]") + "\n", `s.yaml:1: lists and mappings nested more than 100 deep`},
		{"mappings nested too deep", Format{}, "name: " + nested(MaxDepth, "{a: ", "}") + "\n", `s.yaml:1: lists and mappings nested more than 100 deep`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := check(t, tt.f, tt.src); got != tt.want {
				t.Errorf("got\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

// nested is n opening and closing brackets around a 1.
func nested(n int, open, close string) string {
	return strings.Repeat(open, n) + "1" + strings.Repeat(close, n)
}

func TestCollectLines(t *testing.T) {
	var root yaml.Node
	if err := yaml.Unmarshal([]byte("name: x\ncolors:\n  \"\": red\n"), &root); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		f    Format
		want map[string]int
	}{
		{Format{}, map[string]int{"name": 1, "colors": 3}},
		{keyed, map[string]int{"name": 1, "colors": 2, "colors.": 3}},
	} {
		got := map[string]int{}
		tt.f.CollectLines(root.Content[0], "", got)
		if len(got) != len(tt.want) {
			t.Errorf("KeyPaths %v: got %v, want %v", tt.f.KeyPaths, got, tt.want)
		}
		for p, n := range tt.want {
			if got[p] != n {
				t.Errorf("KeyPaths %v: got %v, want %v", tt.f.KeyPaths, got, tt.want)
				break
			}
		}
	}
	if got, want := LineOf(map[string]int{"name": 1, "colors": 2}, "colors.blue"), 2; got != want {
		t.Errorf("LineOf(colors.blue): got %d, want %d", got, want)
	}
}

func TestNearest(t *testing.T) {
	names := []string{"cycles", "reverse", "slide", "add", "sequence", "inverse", "twist", "cost", "name"}
	for key, want := range map[string]string{
		"cycle": "cycles", "cyclse": "cycles", "slid": "slide", "reverse": "reverse", "nmae": "", // two edits on four letters
		"colour": "", "ad": "add", "cots": "", "sequnce": "sequence",
	} {
		if got := Nearest(key, names); got != want {
			t.Errorf("Nearest(%q): got %q, want %q", key, got, want)
		}
	}
}
