package judge

import (
	"bytes"
	_ "embed"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/optjudge/optjudge/judge/bytesize"
	"github.com/optjudge/optjudge/judge/sandbox"
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
	// Toolchain lists the host paths besides the system directories
	// (sandbox.SystemDirs) that the build's box and the runs' boxes see
	// read-only: absolute, or starting with {home} (Config.Home) or {bin}
	// (the directory the compiler, else the interpreter, was found in on
	// Config.Path). A pattern (filepath.Match) names every path it matches.
	Toolchain []string `yaml:"toolchain"`
	// Env is extra environment of the build and of the runs, K=V, with
	// {home}, {bin} and {dir} (the build or working directory).
	Env []string `yaml:"env"`
	// GoCache gives the build the Judge's Go build cache, read-only, with
	// the standard packages it imports built into it first (see
	// Judge.warmGoCache for why).
	GoCache bool `yaml:"go_cache"`
	// CompileLimits bound the build; zero fields take the defaults.
	CompileLimits CompileLimits `yaml:"compile_limits"`
}

// CompileLimits bound one build of a program, the whole process tree of the
// compiler.
type CompileLimits struct {
	Time      float64 `yaml:"time"`      // seconds of CPU time; default 30 (wall: twice that, and 1 s)
	Memory    float64 `yaml:"memory"`    // MiB of peak resident memory; default 1024
	Processes int     `yaml:"processes"` // processes and threads; default 256
	Output    float64 `yaml:"output"`    // MiB: the largest file the build may write; default 256
}

// The defaults of CompileLimits.
const (
	DefaultCompileTime      = 30 * time.Second
	DefaultCompileMemory    = 1024 * bytesize.MiB
	DefaultCompileProcesses = 256
	DefaultCompileOutput    = 256 * bytesize.MiB
)

// compileOutputCap bounds what is kept of the compiler's own output (each
// of stdout and stderr); a CE message shows its first lines.
const compileOutputCap = 64 * bytesize.KiB

// sandbox returns the limits of a build in the sandbox's terms, the
// defaults filled in.
func (l CompileLimits) sandbox() sandbox.Limits {
	lim := sandbox.Limits{
		CPU: DefaultCompileTime, Memory: DefaultCompileMemory, Processes: DefaultCompileProcesses,
		FileSize: DefaultCompileOutput, Output: compileOutputCap, Stderr: compileOutputCap,
	}
	if l.Time > 0 {
		lim.CPU = time.Duration(l.Time * float64(time.Second))
	}
	if l.Memory > 0 {
		lim.Memory = bytesize.Size(l.Memory * float64(bytesize.MiB))
	}
	if l.Processes > 0 {
		lim.Processes = l.Processes
	}
	if l.Output > 0 {
		lim.FileSize = bytesize.Size(l.Output * float64(bytesize.MiB))
	}
	lim.Wall = 2*lim.CPU + time.Second
	return lim
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
		if err := lang.validate(); err != nil {
			return nil, fmt.Errorf("%s (%s): %w", where, lang.Name, err)
		}
		seen[lang.Name] = true
	}
	if len(l.List) == 0 {
		return nil, fmt.Errorf("%s: no languages", name)
	}
	return &l, nil
}

// validate checks the fields past the name, commands and file.
func (lang *Language) validate() error {
	for i, p := range lang.Toolchain {
		if !filepath.IsAbs(p) && !strings.HasPrefix(p, "{home}") && !strings.HasPrefix(p, "{bin}") {
			return fmt.Errorf("toolchain[%d]: want an absolute path, or one starting with {home} or {bin}, got %q", i, p)
		}
	}
	for i, kv := range lang.Env {
		if k, _, ok := strings.Cut(kv, "="); !ok || k == "" {
			return fmt.Errorf("env[%d]: want K=V, got %q", i, kv)
		}
	}
	l := lang.CompileLimits
	if l.Time < 0 || l.Memory < 0 || l.Processes < 0 || l.Output < 0 {
		return fmt.Errorf("compile_limits: must not be negative")
	}
	return nil
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
