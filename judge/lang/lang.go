// Package lang is the judge's language table and toolchains: how each
// language's programs are built and run (languages.yaml, embedded, or a
// table of the same format), which language a submission's files are in,
// and where a language's compiler and interpreter are found on the PATH as
// the sandbox's boxes will see them. It knows nothing of problems or
// gradings: package judge builds and runs programs with what it says.
package lang

import (
	"bytes"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/optjudge/optjudge/bytesize"
	"gopkg.in/yaml.v3"
)

//go:embed languages.yaml
var defaultLanguages []byte

// Language says how to build and run programs written in one language. The
// table format is documented in languages.yaml, embedded in the judge.
type Language struct {
	Name    string   `yaml:"name"`
	Title   string   `yaml:"title"`   // for people ("C++"); "": Name
	Aliases []string `yaml:"aliases"` // other names ByName accepts
	// Extensions are the endings of the language's source files.
	Extensions []string `yaml:"extensions"`
	// Shebang, a regular expression, gates the files ending in one of
	// ShebangExtensions: such a file counts for the language only when its
	// first line matches (Python 2's #!...python2).
	Shebang           string   `yaml:"shebang"`
	ShebangExtensions []string `yaml:"shebang_extensions"`
	// Explicit: chosen by name only, never by a file's ending.
	Explicit bool `yaml:"explicit"`
	// Code is the Kattis language code the entry stands for (a
	// package's include/<code>/, problem.yaml's languages); "": Name.
	Code string `yaml:"code"`
	// Fallback names the language built and run instead when this one's
	// compiler or interpreter is not installed (python3 on PyPy falls
	// back to cpython3); "": none.
	Fallback string `yaml:"fallback"`
	// File is the name a one-file submission gets; "": its own.
	File    string   `yaml:"file"`
	Compile []string `yaml:"compile"`
	Run     []string `yaml:"run"`
	// MainClass: a JVM language whose build leaves {jar}, or class files
	// in {classes}; the judge finds the class holding main.
	MainClass bool `yaml:"main_class"`
	// Version prints the compiler's version, for judge doctor.
	Version []string `yaml:"version"`
	// Debian names the package that provides the language.
	Debian string `yaml:"debian"`
	// Toolchain lists the host paths besides the system directories
	// (sandbox.SystemDirs) that the build's box and the runs' boxes see
	// read-only: absolute, or starting with {home} (Finder.Home) or {bin}
	// (the directory the compiler, else the interpreter, was found in on
	// Finder.Path). A pattern (filepath.Match) names every path it
	// matches.
	Toolchain []string `yaml:"toolchain"`
	// Env is extra environment of the build and of the runs, K=V, with
	// {home}, {bin} and {dir} (the build or working directory).
	Env []string `yaml:"env"`
	// GoCache gives the build the Judge's Go build cache, read-only, with
	// the standard packages it imports built into it first (see the judge's
	// warmGoCache for why).
	GoCache bool `yaml:"go_cache"`
	// CompileLimits bound the build; zero fields take the defaults.
	CompileLimits CompileLimits `yaml:"compile_limits"`

	shebang *regexp.Regexp // Shebang compiled
}

// DisplayName is the language's title, else its name.
func (lang *Language) DisplayName() string {
	if lang.Title != "" {
		return lang.Title
	}
	return lang.Name
}

// KattisCode is the Kattis language code of the entry: Code, else Name.
func (lang *Language) KattisCode() string {
	if lang.Code != "" {
		return lang.Code
	}
	return lang.Name
}

// CompileLimits bound one build of a program, the whole process tree of the
// compiler.
type CompileLimits struct {
	Time      float64 `yaml:"time"`      // seconds of CPU time; default 30 (wall: twice that, and 1 s)
	Memory    float64 `yaml:"memory"`    // MiB of peak resident memory; default 2048
	Processes int     `yaml:"processes"` // processes and threads; default 256
	Output    float64 `yaml:"output"`    // MiB: the largest file the build may write; default 2048
}

// The defaults of CompileLimits.
const (
	DefaultCompileTime      = 30 * time.Second
	DefaultCompileMemory    = 2048 * bytesize.MiB
	DefaultCompileProcesses = 256
	// a static array is in the executable: DOMjudge's hello has a 512 MiB
	// one that should compile (DOMjudge's script_filesize_limit is 2.5 GB)
	DefaultCompileOutput = 2 * bytesize.GiB
)

// Table is a language table.
type Table struct {
	List []Language `yaml:"languages"`
}

// Default returns the table embedded in the judge (languages.yaml): C,
// C++, Go, Python 3 and 2, PyPy 3, Java, Kotlin, Rust, JavaScript, C#,
// Haskell, Ruby, PHP, OCaml, Scala and Common Lisp.
func Default() *Table {
	l, err := Parse(bytes.NewReader(defaultLanguages), "languages.yaml")
	if err != nil {
		panic("embedded languages.yaml: " + err.Error()) // a build defect, caught by tests
	}
	return l
}

// Load reads a language table from a file.
func Load(path string) (*Table, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Parse(f, path)
}

// Parse decodes a language table strictly; name is the file name
// used in messages.
func Parse(r io.Reader, name string) (*Table, error) {
	dec := yaml.NewDecoder(r)
	dec.KnownFields(true)
	var l Table
	if err := dec.Decode(&l); err != nil {
		return nil, fmt.Errorf("%s: %s", name, strings.TrimPrefix(err.Error(), "yaml: "))
	}
	seen := map[string]bool{}
	for i := range l.List {
		lang := &l.List[i]
		where := fmt.Sprintf("%s: languages[%d]", name, i)
		switch {
		case lang.Name == "":
			return nil, fmt.Errorf("%s: name: required", where)
		case len(lang.Run) == 0:
			return nil, fmt.Errorf("%s (%s): run: required", where, lang.Name)
		case lang.File != "" && !plainName(lang.File):
			return nil, fmt.Errorf("%s (%s): file: want a plain file name, got %q", where, lang.Name, lang.File)
		}
		for _, n := range append([]string{lang.Name}, lang.Aliases...) {
			if seen[n] {
				return nil, fmt.Errorf("%s (%s): name %q appears twice", where, lang.Name, n)
			}
			seen[n] = true
		}
		if err := lang.validate(); err != nil {
			return nil, fmt.Errorf("%s (%s): %w", where, lang.Name, err)
		}
	}
	if len(l.List) == 0 {
		return nil, fmt.Errorf("%s: no languages", name)
	}
	for i := range l.List {
		lang := &l.List[i]
		if lang.Fallback == "" {
			continue
		}
		fb, err := l.ByName(lang.Fallback)
		switch {
		case err != nil:
			return nil, fmt.Errorf("%s: languages[%d] (%s): fallback: %w", name, i, lang.Name, err)
		case fb == lang || fb.Fallback != "":
			return nil, fmt.Errorf("%s: languages[%d] (%s): fallback: %s is itself or has a fallback of its own", name, i, lang.Name, fb.Name)
		}
	}
	return &l, nil
}

// validate checks the fields past the name, commands and file, and
// compiles the shebang.
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
	for i, e := range lang.Extensions {
		if !strings.HasPrefix(e, ".") || len(e) < 2 || strings.ContainsAny(e, `/\`) {
			return fmt.Errorf("extensions[%d]: want an ending such as .cpp, got %q", i, e)
		}
	}
	if (lang.Shebang == "") != (len(lang.ShebangExtensions) == 0) {
		return errors.New("shebang and shebang_extensions: give both or neither")
	}
	if lang.Shebang != "" {
		re, err := regexp.Compile(lang.Shebang)
		if err != nil {
			return fmt.Errorf("shebang: %w", err)
		}
		lang.shebang = re
	}
	if err := lang.checkPlaceholders(); err != nil {
		return err
	}
	l := lang.CompileLimits
	if l.Time < 0 || l.Memory < 0 || l.Processes < 0 || l.Output < 0 {
		return fmt.Errorf("compile_limits: must not be negative")
	}
	return nil
}

// The placeholders each command may hold.
var (
	compilePlaceholders = []string{"src", "files", "exe", "jar", "classes", "dir"}
	runPlaceholders     = []string{"src", "exe", "jar", "dir", "mainclass", "memlimit"}
)

// checkPlaceholders refuses a placeholder a command cannot have, and
// {files} inside a longer argument.
func (lang *Language) checkPlaceholders() error {
	check := func(field string, argv, allowed []string) error {
		for i, a := range argv {
			for _, m := range placeholderRE.FindAllStringSubmatch(a, -1) {
				if !slices.Contains(allowed, m[1]) {
					return fmt.Errorf("%s[%d]: unknown placeholder {%s} (known here: {%s})", field, i, m[1], strings.Join(allowed, "}, {"))
				}
			}
			if strings.Contains(a, "{files}") && a != "{files}" {
				return fmt.Errorf("%s[%d]: {files} must be a whole argument, got %q", field, i, a)
			}
		}
		return nil
	}
	runAllowed := runPlaceholders
	if !lang.MainClass {
		runAllowed = slices.DeleteFunc(slices.Clone(runPlaceholders), func(v string) bool { return v == "mainclass" })
	}
	if err := check("compile", lang.Compile, compilePlaceholders); err != nil {
		return err
	}
	if err := check("run", lang.Run, runAllowed); err != nil {
		return err
	}
	if lang.MainClass && len(lang.Compile) == 0 {
		return errors.New("main_class: needs a compile command")
	}
	return check("version", lang.Version, nil)
}

// placeholderRE is a placeholder of a command.
var placeholderRE = regexp.MustCompile(`\{([a-z]+)\}`)

// Expand puts the values of vars for their placeholders in a command's
// argv, in one pass (a value is never read for placeholders again); an
// argument that is exactly {files} becomes files, one argument each. A
// placeholder without a value stays.
func Expand(argv []string, vars map[string]string, files []string) []string {
	out := make([]string, 0, len(argv))
	for _, a := range argv {
		if a == "{files}" && files != nil {
			out = append(out, files...)
			continue
		}
		out = append(out, placeholderRE.ReplaceAllStringFunc(a, func(m string) string {
			if v, ok := vars[m[1:len(m)-1]]; ok {
				return v
			}
			return m
		}))
	}
	return out
}

// ByName finds a language by its name or one of its aliases.
func (l *Table) ByName(name string) (*Language, error) {
	for i := range l.List {
		if l.List[i].Name == name || slices.Contains(l.List[i].Aliases, name) {
			return &l.List[i], nil
		}
	}
	return nil, fmt.Errorf("unknown language %q (known: %s)", name, strings.Join(l.Names(), ", "))
}

// Names lists the languages' names in table order.
func (l *Table) Names() []string {
	ns := make([]string, len(l.List))
	for i, lang := range l.List {
		ns[i] = lang.Name
	}
	return ns
}

// plainName reports whether name is a file name without a directory.
func plainName(name string) bool {
	return name != "" && name != "." && name != ".." && !strings.ContainsAny(name, `/\`)
}
