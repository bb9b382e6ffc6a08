package kattis

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
)

// File is a file a problem adds to a build of a submission: its path in
// the build directory (slash-separated) and its content.
type File struct {
	Path string
	Data []byte
}

// Limits of a language's included files.
const (
	maxIncludeFiles = 1000
	maxIncludeSize  = 64 << 20
)

// IncludeCodes lists the language directories of include/ (the Kattis
// language codes, and "default"), sorted; nil without include/.
func (p *Package) IncludeCodes() []string {
	if p.Layout != LayoutKattis {
		return nil
	}
	entries, err := visibleEntries(p.FS, "include")
	if err != nil {
		return nil
	}
	var codes []string
	for _, e := range entries {
		if e.IsDir() {
			codes = append(codes, e.Name())
		}
	}
	return codes
}

// IncludeFiles are the files copied into every submission in the language
// of Kattis code code before it is built (the format's included files):
// those of include/default/ and of include/<code>/, the language's own
// winning a clash (problemtools reads them so; the format has the
// language's directory override the default), with the constants in place
// (see Constants). They are copied over the submission's own files of the
// same name, as the format says. nil for a native problem, or when
// include/ has none for the language.
func (p *Package) IncludeFiles(code string) ([]File, error) {
	if p.Layout != LayoutKattis || code == "" || code == "default" {
		return nil, nil
	}
	byPath := map[string][]byte{}
	n, size := 0, 0
	for _, dir := range []string{"include/default", "include/" + code} {
		err := walkFiles(p.FS, dir, func(name string) error {
			data, err := p.ReadFile(name)
			if err != nil {
				return fmt.Errorf("reading %s: %w", p.file(name), unwrapPath(err))
			}
			if n, size = n+1, size+len(data); n > maxIncludeFiles || size > maxIncludeSize {
				return fmt.Errorf("%s: more than %d files or %d MiB", p.file("include"), maxIncludeFiles, maxIncludeSize>>20)
			}
			byPath[strings.TrimPrefix(name, dir+"/")] = data
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	out := make([]File, 0, len(byPath))
	for name, data := range byPath {
		out = append(out, File{Path: name, Data: data})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out, nil
}

// walkFiles calls fn with every file below dir (none when it does not
// exist), following symbolic links (Load has checked that none leads out
// of the package), but not the names a package ignores.
func walkFiles(fsys fs.FS, dir string, fn func(name string) error) error {
	entries, err := visibleEntries(fsys, dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	for _, e := range entries {
		name := path.Join(dir, e.Name())
		if e.IsDir() {
			err = walkFiles(fsys, name, fn)
		} else {
			err = fn(name)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// includeCollisions lists the files of include/default/ that a
// language's directory gives too (problemtools reports each as an error).
func (p *Package) includeCollisions() []string {
	def := map[string]bool{}
	walkFiles(p.FS, "include/default", func(name string) error {
		def[strings.TrimPrefix(name, "include/default/")] = true
		return nil
	})
	var out []string
	for _, code := range p.IncludeCodes() {
		if code == "default" {
			continue
		}
		dir := "include/" + code
		walkFiles(p.FS, dir, func(name string) error {
			if def[strings.TrimPrefix(name, dir+"/")] {
				out = append(out, name)
			}
			return nil
		})
	}
	return out
}

// checkIncludes reports what the format forbids of include/: a file of
// include/default/ that a language's directory gives too, and (legacy)
// include/default/ itself, as problemtools reports them.
func (p *Package) checkIncludes() {
	for _, name := range p.includeCollisions() {
		p.Defects = append(p.Defects, Warning{File: p.file(name), Msg: "include/default/ has a file of this name too (the language's is used)"})
	}
	if p.Format == FormatLegacy && isDirFS(p.FS, "include/default") {
		p.Defects = append(p.Defects, Warning{File: p.file("include/default"), Msg: "format legacy has no include/default/ (it is used anyway)"})
	}
}

// AnswerFile is the file of a submit-answer problem's submission that
// answers test t, among the submission's files (slash-separated paths in
// its directory): the first of NAME.out, NAME.ans and NAME, for NAME the
// test's name ("secret/group1/03") and then its last element ("03"); ok
// is false when there is none. The answers are judged as a program's
// outputs would be.
func AnswerFile(files []string, t Test) (string, bool) {
	have := map[string]bool{}
	for _, f := range files {
		have[f] = true
	}
	for _, name := range []string{t.Name, path.Base(t.Name)} {
		for _, ext := range []string{".out", ".ans", ""} {
			if have[name+ext] {
				return name + ext, true
			}
		}
	}
	return "", false
}

// Attachments lists the files of attachments/ (the files offered to
// contestants beside the statement and the samples), slash-separated
// paths within the package, sorted; nil when it has none.
func (p *Package) Attachments() []string {
	if p.Layout != LayoutKattis {
		return nil
	}
	var out []string
	walkFiles(p.FS, "attachments", func(name string) error {
		out = append(out, name)
		return nil
	})
	sort.Strings(out)
	return out
}
