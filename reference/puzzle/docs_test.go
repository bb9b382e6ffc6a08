package puzzle

import (
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// docPage is the puzzle format's page of the docs, which `judge help
// puzzle` prints.
var docPage = filepath.Join("..", "..", "docs", "puzzle-format.md")

// docRow is a row of a key table of the page: | `key` | type | default | example |.
type docRow struct {
	key, typ, def, example string
	line                   int
}

var (
	keyRE  = regexp.MustCompile("^`([a-z_.\\[\\]]+)`$")
	codeRE = regexp.MustCompile("`([^`]*)`")
)

// docRows reads the rows of the page's key tables, those headed "| key |
// type | default | example |"; an empty default is "".
func docRows(t *testing.T) []docRow {
	t.Helper()
	data, err := os.ReadFile(docPage)
	if err != nil {
		t.Fatal(err)
	}
	var rows []docRow
	inTable := false
	for i, l := range strings.Split(string(data), "\n") {
		switch {
		case l == "| key | type | default | example |":
			inTable = true
		case !strings.HasPrefix(l, "|"):
			inTable = false
		case inTable && !strings.HasPrefix(l, "| ---"):
			cells := strings.Split(strings.Trim(l, "|"), "|")
			m := keyRE.FindStringSubmatch(strings.TrimSpace(cells[0]))
			if len(cells) != 4 || m == nil {
				t.Errorf("puzzle-format.md:%d: want | `key` | type | default | example |, got %s", i+1, l)
				continue
			}
			rows = append(rows, docRow{key: m[1], typ: strings.TrimSpace(cells[1]), def: strings.TrimSpace(cells[2]), example: strings.TrimSpace(cells[3]), line: i + 1})
		}
	}
	return rows
}

// schemaPaths lists every key of the schema by its path
// ("moves[].cycles"), with its schema.
func schemaPaths(root schema) map[string]map[string]any {
	out := map[string]map[string]any{}
	var walk func(s map[string]any, path string)
	walk = func(s map[string]any, path string) {
		s = root.resolve(s)
		if props, ok := s["properties"].(map[string]any); ok {
			for k, v := range props {
				p := joinPath(path, k)
				out[p] = root.resolve(v.(map[string]any))
				walk(v.(map[string]any), p)
			}
		}
		if items, ok := s["items"].(map[string]any); ok && s["type"] == "array" {
			walk(items, path+"[]")
		}
	}
	walk(root, "")
	return out
}

// TestDocsKeys: every key of the schema has its row in the page, and every
// row is a key of the schema, once.
func TestDocsKeys(t *testing.T) {
	paths := schemaPaths(loadSchema(t))
	seen := map[string]int{}
	for _, r := range docRows(t) {
		if _, ok := paths[r.key]; !ok {
			t.Errorf("puzzle-format.md:%d: %s is not a key of puzzle.schema.json", r.line, r.key)
		}
		if seen[r.key] != 0 {
			t.Errorf("puzzle-format.md:%d: %s documented twice (also line %d)", r.line, r.key, seen[r.key])
		}
		seen[r.key] = r.line
	}
	var missing []string
	for p := range paths {
		if seen[p] == 0 {
			missing = append(missing, p)
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("puzzle-format.md documents no row for %s", strings.Join(missing, ", "))
	}
}

// TestDocsTypes: each row's type is the schema's: its values for an enum,
// else the kind of value.
func TestDocsTypes(t *testing.T) {
	paths := schemaPaths(loadSchema(t))
	for _, r := range docRows(t) {
		s, ok := paths[r.key]
		if !ok {
			continue
		}
		want := kindOf(s)
		if enum, ok := s["enum"].([]any); ok {
			var vals, got []string
			for _, v := range enum {
				vals = append(vals, v.(string))
			}
			for _, m := range codeRE.FindAllStringSubmatch(r.typ, -1) {
				got = append(got, unquote(m[1]))
			}
			sort.Strings(vals)
			sort.Strings(got)
			if !slices.Equal(got, vals) {
				t.Errorf("puzzle-format.md:%d: %s: the type lists %q, the schema %q", r.line, r.key, got, vals)
			}
			continue
		}
		if !strings.HasPrefix(r.typ, want) {
			t.Errorf("puzzle-format.md:%d: %s: type %q, the schema's is %s", r.line, r.key, r.typ, want)
		}
	}
}

// kindOf names a schema's kind of value as the page's type column starts.
func kindOf(s map[string]any) string {
	switch typ := s["type"].(type) {
	case []any:
		return "token"
	case string:
		switch typ {
		case "array":
			return "list"
		case "object":
			if _, ok := s["properties"]; ok {
				return "object"
			}
			return "mapping"
		}
		return typ
	}
	return "?"
}

// unquote reads a code span as the YAML scalar it shows (`" "` is a space).
func unquote(s string) string {
	var v string
	if yaml.Unmarshal([]byte(s), &v) == nil {
		return v
	}
	return s
}

// TestDocsExamplesDecode: each row's example, and its default where the
// default is a value, decodes as the key's value (strictly, as Parse
// reads a definition); a default of a key outside any list is the value
// Defaults gives it.
func TestDocsExamplesDecode(t *testing.T) {
	defaults := Defaults()
	for _, r := range docRows(t) {
		for _, cell := range []struct{ what, text string }{{"example", r.example}, {"default", r.def}} {
			if !strings.HasPrefix(cell.text, "`") {
				if cell.what == "example" {
					t.Errorf("puzzle-format.md:%d: %s: no example", r.line, r.key)
				}
				continue
			}
			lit := codeRE.FindStringSubmatch(cell.text)[1]
			var v any
			if err := yaml.Unmarshal([]byte(lit), &v); err != nil {
				t.Errorf("puzzle-format.md:%d: %s: %s %s: %v", r.line, r.key, cell.what, lit, err)
				continue
			}
			doc, err := yaml.Marshal(nest(r.key, v))
			if err != nil {
				t.Fatal(err)
			}
			d, err := Parse(strings.NewReader(string(doc)), "example")
			if err != nil {
				t.Errorf("puzzle-format.md:%d: %s: %s %s does not decode: %v", r.line, r.key, cell.what, lit, err)
				continue
			}
			if cell.what != "default" || strings.Contains(r.key, "[]") {
				continue
			}
			got, want := field(reflect.ValueOf(*d), r.key), field(reflect.ValueOf(defaults), r.key)
			if !reflect.DeepEqual(got.Interface(), want.Interface()) {
				t.Errorf("puzzle-format.md:%d: %s: default %s, but Defaults() gives %#v", r.line, r.key, lit, want.Interface())
			}
		}
	}
}

// nest is the document that gives v at path ("moves[].cost": {moves: [{cost: v}]}).
func nest(path string, v any) any {
	keys := strings.Split(path, ".")
	for i := len(keys) - 1; i >= 0; i-- {
		k, list := strings.CutSuffix(keys[i], "[]")
		if list && i < len(keys)-1 {
			v = []any{v}
		}
		v = map[string]any{k: v}
	}
	return v
}

// field is the value at a path of keys of a definition.
func field(v reflect.Value, path string) reflect.Value {
	for _, k := range strings.Split(path, ".") {
		for v.Kind() == reflect.Pointer {
			if v.IsNil() {
				v = reflect.Zero(v.Type().Elem())
				continue
			}
			v = v.Elem()
		}
		for i := range v.NumField() {
			if strings.Split(v.Type().Field(i).Tag.Get("yaml"), ",")[0] == k {
				v = v.Field(i)
				break
			}
		}
	}
	return v
}

// TestDocsColorNames: the page's list of colour names is the validator's.
func TestDocsColorNames(t *testing.T) {
	data, err := os.ReadFile(docPage)
	if err != nil {
		t.Fatal(err)
	}
	_, list, ok := strings.Cut(string(data), "\nColour names (CSS's named colours):")
	if !ok {
		t.Fatal("puzzle-format.md has no paragraph \"Colour names (CSS's named colours):\"")
	}
	list, _, _ = strings.Cut(list, "\n\n")
	var got []string
	for _, m := range codeRE.FindAllStringSubmatch(list, -1) {
		got = append(got, m[1])
	}
	if want := cssColorNames(); !slices.Equal(got, want) {
		t.Errorf("puzzle-format.md's colour names differ from the validator's:\ngot  %q\nwant %q", got, want)
	}
}
