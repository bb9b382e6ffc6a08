package judge

import (
	"bytes"
	_ "embed"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"gopkg.in/yaml.v3"
)

//go:embed languages.yaml
var defaultLanguages []byte

// Language says how to build and run programs written in one language. The
// table format is documented in languages.yaml, embedded in the judge.
type Language struct {
	Name       string   `yaml:"name"`
	Extensions []string `yaml:"extensions"`
	File       string   `yaml:"file"`
	Compile    []string `yaml:"compile"`
	Run        []string `yaml:"run"`
}

// Languages is a language table.
type Languages struct {
	List []Language `yaml:"languages"`
}

// DefaultLanguages returns the table embedded in the judge: C, C++, Go and
// Python.
func DefaultLanguages() *Languages {
	l, err := ParseLanguages(bytes.NewReader(defaultLanguages), "languages.yaml")
	if err != nil {
		panic("embedded languages.yaml: " + err.Error()) // a build defect, caught by tests
	}
	return l
}

// LoadLanguages reads a language table from a file.
func LoadLanguages(path string) (*Languages, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ParseLanguages(f, path)
}

// ParseLanguages decodes a language table strictly; name is the file name
// used in messages.
func ParseLanguages(r io.Reader, name string) (*Languages, error) {
	dec := yaml.NewDecoder(r)
	dec.KnownFields(true)
	var l Languages
	if err := dec.Decode(&l); err != nil {
		return nil, fmt.Errorf("%s: %s", name, strings.TrimPrefix(err.Error(), "yaml: "))
	}
	seen := map[string]bool{}
	for i, lang := range l.List {
		where := fmt.Sprintf("%s: languages[%d]", name, i)
		switch {
		case lang.Name == "":
			return nil, fmt.Errorf("%s: name: required", where)
		case seen[lang.Name]:
			return nil, fmt.Errorf("%s: name: %q appears twice", where, lang.Name)
		case len(lang.Run) == 0:
			return nil, fmt.Errorf("%s (%s): run: required", where, lang.Name)
		case lang.File == "" || strings.ContainsAny(lang.File, `/\`):
			return nil, fmt.Errorf("%s (%s): file: want a plain file name, got %q", where, lang.Name, lang.File)
		}
		seen[lang.Name] = true
	}
	if len(l.List) == 0 {
		return nil, fmt.Errorf("%s: no languages", name)
	}
	return &l, nil
}

// Resolve says how a submission file will be built: the language named by
// force, else the one its extension selects. It returns a nil Language for an
// executable file of no known language, which runs as it is.
func (l *Languages) Resolve(path, force string) (*Language, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("submission %s: %w", path, unwrapPathError(err))
	}
	if st.IsDir() {
		return nil, fmt.Errorf("submission %s: is a directory", path)
	}
	if force != "" {
		return l.ByName(force)
	}
	lang, err := l.ForFile(path)
	if err != nil && st.Mode()&0o111 != 0 {
		return nil, nil
	}
	return lang, err
}

// ByName finds a language by its name.
func (l *Languages) ByName(name string) (*Language, error) {
	for i := range l.List {
		if l.List[i].Name == name {
			return &l.List[i], nil
		}
	}
	return nil, fmt.Errorf("unknown language %q (known: %s)", name, strings.Join(l.names(), ", "))
}

// ForFile picks the language of a source file by its extension.
func (l *Languages) ForFile(path string) (*Language, error) {
	ext := strings.ToLower(filepath.Ext(path))
	for i := range l.List {
		for _, e := range l.List[i].Extensions {
			if strings.ToLower(e) == ext {
				return &l.List[i], nil
			}
		}
	}
	return nil, fmt.Errorf("%s: no language for extension %q (known: %s); use --lang", path, ext, strings.Join(l.names(), ", "))
}

func (l *Languages) names() []string {
	ns := make([]string, len(l.List))
	for i, lang := range l.List {
		ns[i] = lang.Name
	}
	return ns
}

// expand substitutes the placeholders of a command.
func expand(cmd []string, vars map[string]string) []string {
	out := make([]string, len(cmd))
	for i, w := range cmd {
		for k, v := range vars {
			w = strings.ReplaceAll(w, "{"+k+"}", v)
		}
		out[i] = w
	}
	return out
}
