package puzzle

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/optjudge/optjudge/specfile"
)

// FileName is the name of a definition in a problem directory.
const FileName = "puzzle.yaml"

// MaxFileSize bounds a definition file: the largest shipped one is a few
// kilobytes.
const MaxFileSize = 1 << 20

// Error is a problem with one field of a definition.
type Error specfile.Error

func (e *Error) Error() string { return (*specfile.Error)(e).Error() }

// Errors is every problem found in one definition, in file order.
type Errors []*Error

func (es Errors) Error() string {
	ses := make(specfile.Errors, len(es))
	for i, e := range es {
		ses[i] = (*specfile.Error)(e)
	}
	return ses.Error()
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
	d, err := ParseFS(os.DirFS(dir), FileName, filepath.Join(dir, FileName))
	if err != nil {
		return nil, err
	}
	if err := d.Validate(); err != nil {
		return nil, err
	}
	return d, nil
}

// ParseFS is Parse of the file of fsys, named name in messages, and reads
// the twsearch definition it names (tws.file, beside it) into its sets,
// symbols, moves and goal.
func ParseFS(fsys fs.FS, file, name string) (*Definition, error) {
	f, err := fsys.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	d, err := Parse(f, name)
	if err != nil || d.Tws == nil {
		return d, err
	}
	if err := d.readTws(fsys, path.Dir(file), filepath.Dir(name)); err != nil {
		return nil, err
	}
	return d, nil
}

// readTws reads the definition's twsearch file from fsys's directory dir
// (named nameDir in messages).
func (d *Definition) readTws(fsys fs.FS, dir, nameDir string) error {
	var es Errors
	bad := func(field, msg string) {
		es = append(es, &Error{File: d.file, Line: d.Line(field), Field: field, Msg: msg})
	}
	for _, k := range []struct {
		key   string
		given bool
	}{{"cells", d.Cells != nil}, {"sets", d.Sets != nil}, {"grid", d.Grid != nil}, {"size", d.Size != nil},
		{"symbols", d.Symbols != nil}, {"counts", d.Counts != nil}, {"blank", d.Blank != ""},
		{"orientation", d.Orientation != 0}, {"moves", d.Moves != nil}, {"goal", d.Line("goal") > 0},
		{"rules", d.Rules != nil}, {"parts", d.Parts != nil}} {
		if k.given {
			bad(k.key, "not with tws: the twsearch file gives the puzzle")
		}
	}
	file := d.Tws.File
	if file == "" || path.IsAbs(file) || strings.Contains(file, "..") || strings.Contains(file, "\\") {
		bad("tws.file", fmt.Sprintf("%q: want the name of a file beside %s", file, filepath.Base(d.file)))
	}
	if es != nil {
		return es
	}
	data, err := fs.ReadFile(fsys, path.Join(dir, file))
	if err != nil {
		bad("tws.file", err.Error())
		return es
	}
	if len(data) > MaxFileSize {
		bad("tws.file", fmt.Sprintf("larger than %d bytes", MaxFileSize))
		return es
	}
	name := filepath.Join(nameDir, filepath.FromSlash(file))
	t, err := readTws(data, name)
	if err != nil {
		var te *twsError
		if errors.As(err, &te) {
			return Errors{{File: te.file, Line: te.line, Msg: te.msg}}
		}
		return err
	}
	if err := t.apply(d, d.Tws.Moves); err != nil {
		bad("tws.moves", err.Error())
		return es
	}
	d.tws = true
	return nil
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
		return nil, Errors{(*Error)(specfile.Syntax(name, err))}
	}
	if len(root.Content) == 0 {
		return nil, Errors{{File: name, Msg: "empty file"}}
	}
	doc := root.Content[0]
	if doc.Kind != yaml.MappingNode {
		return nil, Errors{{File: name, Line: doc.Line, Msg: "want a mapping of keys to values"}}
	}
	if err := format.DuplicateKeys(name, doc, 0); err != nil {
		return nil, errorsOf(err)
	}
	d := Defaults()
	d.file = name
	d.lines = map[string]int{}
	format.CollectLines(doc, "", d.lines)
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&d); err != nil {
		return nil, errorsOf(format.Decode(name, err, doc))
	}
	var next yaml.Node
	if err := dec.Decode(&next); err != io.EOF {
		return nil, Errors{{File: name, Line: next.Line, Msg: "more than one YAML document"}}
	}
	return &d, nil
}

// format is how puzzle.yaml's messages differ from problem.yaml's.
var format = specfile.Format{TypeName: typeName, Null: "nothing", KeyPaths: true, Keys: keysOf}

// keysOf lists the keys of a type of the definition, as yaml.v3 names it
// ("puzzle.Move"): its fields' yaml names. The types are those reachable
// from Definition.
func keysOf(goType string) []string {
	var keys []string
	seen := map[reflect.Type]bool{}
	var walk func(t reflect.Type)
	walk = func(t reflect.Type) {
		for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Map {
			t = t.Elem()
		}
		if t.Kind() != reflect.Struct || seen[t] {
			return
		}
		seen[t] = true
		for i := range t.NumField() {
			f := t.Field(i)
			if !f.IsExported() {
				continue
			}
			if t.String() == goType {
				if name, _, _ := strings.Cut(f.Tag.Get("yaml"), ","); name != "" && name != "-" {
					keys = append(keys, name)
				}
			}
			walk(f.Type)
		}
	}
	walk(reflect.TypeOf(Definition{}))
	return keys
}

// errorsOf is what specfile found, as a definition's Errors.
func errorsOf(err error) Errors {
	var ses specfile.Errors
	var se *specfile.Error
	switch {
	case errors.As(err, &ses):
	case errors.As(err, &se):
		ses = specfile.Errors{se}
	default:
		return Errors{{Msg: err.Error()}}
	}
	es := make(Errors, len(ses))
	for i, e := range ses {
		es[i] = (*Error)(e)
	}
	return es
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
