package puzzle

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/optjudge/optjudge/reference/puzzle/engine"
)

// schema is puzzle.schema.json, decoded.
type schema map[string]any

func loadSchema(t *testing.T) schema {
	t.Helper()
	data, err := os.ReadFile("puzzle.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	var s schema
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatalf("puzzle.schema.json: %v", err)
	}
	return s
}

// resolve follows a "$ref" into "$defs".
func (root schema) resolve(s map[string]any) map[string]any {
	if ref, ok := s["$ref"].(string); ok {
		return root["$defs"].(map[string]any)[strings.TrimPrefix(ref, "#/$defs/")].(map[string]any)
	}
	return s
}

// TestSchemaFields checks that the schema and the decoder agree on every
// key: each struct's yaml tags are exactly its schema's properties.
func TestSchemaFields(t *testing.T) {
	root := loadSchema(t)
	compareFields(t, root, "", reflect.TypeFor[Definition](), map[string]any(root))
}

func compareFields(t *testing.T, root schema, path string, typ reflect.Type, s map[string]any) {
	t.Helper()
	s = root.resolve(s)
	for typ.Kind() == reflect.Pointer {
		typ = typ.Elem()
	}
	switch typ.Kind() {
	case reflect.Slice:
		if items, ok := s["items"].(map[string]any); ok {
			compareFields(t, root, path+"[]", typ.Elem(), items)
		} else {
			t.Errorf("%s: the Go type is a list, the schema has no items", path)
		}
		return
	case reflect.Map:
		if extra, ok := s["additionalProperties"].(map[string]any); ok {
			compareFields(t, root, path+".*", typ.Elem(), extra)
		} else {
			t.Errorf("%s: the Go type is a mapping, the schema has no additionalProperties schema", path)
		}
		return
	case reflect.Struct:
	default:
		return
	}
	props, _ := s["properties"].(map[string]any)
	if s["additionalProperties"] != false {
		t.Errorf("%s: the schema allows unknown keys, the decoder does not", path)
	}
	var goKeys []string
	for f := range typ.Fields() {
		tag := strings.Split(f.Tag.Get("yaml"), ",")[0]
		if tag == "" || !f.IsExported() {
			continue
		}
		goKeys = append(goKeys, tag)
		p, ok := props[tag].(map[string]any)
		if !ok {
			t.Errorf("%s: key %q decoded, but not in the schema", path, tag)
			continue
		}
		compareFields(t, root, joinPath(path, tag), f.Type, p)
	}
	for k := range props {
		if !slices.Contains(goKeys, k) {
			t.Errorf("%s: key %q in the schema, but the decoder refuses it", path, k)
		}
	}
}

// TestSchemaEnums checks the schema's enums against the Go constants.
func TestSchemaEnums(t *testing.T) {
	root := loadSchema(t)
	sub := func(keys ...string) map[string]any {
		s := map[string]any(root)
		for _, k := range keys {
			s = root.resolve(s)
			if k == "[]" {
				s = s["items"].(map[string]any)
			} else {
				s = s["properties"].(map[string]any)[k].(map[string]any)
			}
		}
		return root.resolve(s)
	}
	var methods []string
	for m := engine.MethodAuto; m <= engine.MethodBidirectional; m++ {
		methods = append(methods, m.String())
	}
	tests := []struct {
		path []string
		want []string
	}{
		{[]string{"mode"}, []string{string(ModeAny), string(ModeShortest), string(ModeSmallest), string(ModeAtMost)}},
		{[]string{"input", "cases"}, []string{string(CasesOne), string(CasesUntilEOF), string(CasesTerminated)}},
		{[]string{"output", "order"}, []string{string(OrderAsMade), string(OrderAscending)}},
		{[]string{"layout", "show"}, []string{string(ShowSymbol), string(ShowTile), string(ShowSticker), string(ShowDial), string(ShowOnOff), string(ShowBar)}},
		{[]string{"search", "method"}, methods},
		{[]string{"moves", "[]", "slide"}, []string{"up", "down", "left", "right"}},
	}
	for _, tt := range tests {
		var got []string
		for _, v := range sub(tt.path...)["enum"].([]any) {
			got = append(got, v.(string))
		}
		sort.Strings(got)
		want := append([]string(nil), tt.want...)
		sort.Strings(want)
		if !slices.Equal(got, want) {
			t.Errorf("%s: the schema has %q, the Go code %q", strings.Join(tt.path, "."), got, want)
		}
	}
}

// TestShippedMatchSchema validates the shipped definitions against the
// schema with a small validator of the keywords it uses.
func TestShippedMatchSchema(t *testing.T) {
	root := loadSchema(t)
	for _, name := range shipped {
		data, err := os.ReadFile(filepath.Join("testdata", name+".yaml"))
		if err != nil {
			t.Fatal(err)
		}
		var doc any
		if err := yaml.Unmarshal(data, &doc); err != nil {
			t.Fatal(err)
		}
		for _, e := range root.validate(map[string]any(root), normalize(doc), name) {
			t.Error(e)
		}
	}
	// And the validator does find problems.
	bad := map[string]any{"symbols": "ab", "moves": []any{map[string]any{"name": "m"}}, "goal": map[string]any{}, "mode": "fast", "colour": 1}
	if errs := root.validate(map[string]any(root), bad, "bad"); len(errs) != 4 {
		t.Errorf("a bad document: got %d problems %q, want 4", len(errs), errs)
	}
}

// validate checks v against s and returns the problems found.
func (root schema) validate(s map[string]any, v any, path string) []string {
	s = root.resolve(s)
	var errs []string
	bad := func(format string, args ...any) { errs = append(errs, path+": "+fmt.Sprintf(format, args...)) }
	if enum, ok := s["enum"].([]any); ok && !slices.Contains(enum, v) {
		bad("%v is not one of %v", v, enum)
	}
	if typ, ok := s["type"]; ok && !hasType(typ, v) {
		bad("%v (%T) is not of type %v", v, v, typ)
		return errs
	}
	if p, ok := s["pattern"].(string); ok {
		if str, ok := v.(string); ok && !regexp.MustCompile(p).MatchString(str) {
			bad("%q does not match %s", str, p)
		}
	}
	if n, ok := v.(int); ok {
		if lo, ok := s["minimum"].(float64); ok && float64(n) < lo {
			bad("%d < %v", n, lo)
		}
		if hi, ok := s["maximum"].(float64); ok && float64(n) > hi {
			bad("%d > %v", n, hi)
		}
	}
	switch x := v.(type) {
	case []any:
		if lo, ok := s["minItems"].(float64); ok && float64(len(x)) < lo {
			bad("%d items, fewer than %v", len(x), lo)
		}
		if hi, ok := s["maxItems"].(float64); ok && float64(len(x)) > hi {
			bad("%d items, more than %v", len(x), hi)
		}
		if items, ok := s["items"].(map[string]any); ok {
			for i, item := range x {
				errs = append(errs, root.validate(items, item, fmt.Sprintf("%s[%d]", path, i))...)
			}
		}
	case map[string]any:
		errs = append(errs, root.validateObject(s, x, path)...)
	}
	if alts, ok := s["oneOf"].([]any); ok {
		n := 0
		for _, a := range alts {
			if len(root.validate(a.(map[string]any), v, path)) == 0 {
				n++
			}
		}
		if n != 1 {
			bad("matches %d of oneOf's schemas, want 1", n)
		}
	}
	return errs
}

func (root schema) validateObject(s, x map[string]any, path string) []string {
	var errs []string
	for _, r := range asStrings(s["required"]) {
		if _, ok := x[r]; !ok {
			errs = append(errs, fmt.Sprintf("%s: %s required", path, r))
		}
	}
	props, _ := s["properties"].(map[string]any)
	for _, k := range sortedKeys(x) {
		if p, ok := props[k].(map[string]any); ok {
			errs = append(errs, root.validate(p, x[k], joinPath(path, k))...)
			continue
		}
		switch extra := s["additionalProperties"].(type) {
		case bool:
			if !extra {
				errs = append(errs, fmt.Sprintf("%s: unknown key %s", path, k))
			}
		case map[string]any:
			errs = append(errs, root.validate(extra, x[k], joinPath(path, k))...)
		}
	}
	return errs
}

func asStrings(v any) []string {
	var out []string
	list, _ := v.([]any)
	for _, x := range list {
		out = append(out, x.(string))
	}
	return out
}

// normalize gives every YAML mapping string keys, as JSON has: counts: {1: 8}
// decodes with integer keys.
func normalize(v any) any {
	switch x := v.(type) {
	case map[any]any:
		m := map[string]any{}
		for k, y := range x {
			m[fmt.Sprint(k)] = normalize(y)
		}
		return m
	case map[string]any:
		for k, y := range x {
			x[k] = normalize(y)
		}
	case []any:
		for i, y := range x {
			x[i] = normalize(y)
		}
	}
	return v
}

// hasType reports whether a YAML value has one of the JSON types t names.
func hasType(t any, v any) bool {
	var types []string
	switch x := t.(type) {
	case string:
		types = []string{x}
	case []any:
		for _, y := range x {
			types = append(types, y.(string))
		}
	}
	for _, ty := range types {
		switch v.(type) {
		case string:
			if ty == "string" {
				return true
			}
		case int:
			if ty == "integer" || ty == "number" {
				return true
			}
		case float64:
			if ty == "number" {
				return true
			}
		case bool:
			if ty == "boolean" {
				return true
			}
		case []any:
			if ty == "array" {
				return true
			}
		case map[string]any:
			if ty == "object" {
				return true
			}
		}
	}
	return false
}

// joinPath is the path of key within path, as messages write it.
func joinPath(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}
