package lang

import (
	"bytes"
	"fmt"
	"path"
	"slices"
	"strings"
)

// MaxHead bounds what is read of a file's first line for its shebang.
const MaxHead = 256

// UnknownError says that a submission is in no language of the
// table and is no program either: a file of an unknown ending that is not
// an executable (an ELF file for this machine, or a #! script whose
// interpreter is installed), or a directory with no source file of a known
// language. Nothing of it was run.
type UnknownError struct {
	Path   string   // the submission
	Ext    string   // a file's ending ("" for none, or a directory)
	Dir    bool     // the submission is a directory
	Known  []string // the table's languages
	Reason string   // why it is not a program, or ""
}

func (e *UnknownError) Error() string { return e.Path + ": " + e.Detail() }

// Detail is the message without the submission's path.
func (e *UnknownError) Detail() string {
	known := strings.Join(e.Known, ", ")
	switch {
	case e.Dir:
		return fmt.Sprintf("no source file of a known language (known: %s)", known)
	case e.Reason != "":
		return fmt.Sprintf("no language for extension %q (known: %s), and not a program: %s", e.Ext, known, e.Reason)
	}
	return fmt.Sprintf("no language for extension %q (known: %s)", e.Ext, known)
}

// Pick picks the language of a program of the given files, as
// problemtools does: each language counts the files that are evidence for
// it (its endings, and its shebang where it has one); the most wins, ties
// go to the language with more shebang matches, then to the first in the
// table. Explicit languages never win. head returns a file's first line.
func (l *Table) Pick(files []string, head func(string) []byte) *Language {
	best, bestN, bestShebang := -1, 0, 0
	for i := range l.List {
		lang := &l.List[i]
		if lang.Explicit {
			continue
		}
		n, shebang := 0, 0
		for _, f := range files {
			if !l.HasExt(lang, f) {
				continue
			}
			if lang.shebang != nil && slices.ContainsFunc(lang.ShebangExtensions, func(e string) bool { return strings.EqualFold(e, path.Ext(f)) }) {
				if !lang.shebang.Match(head(f)) {
					continue
				}
				shebang++
			}
			n++
		}
		if n > bestN || (n == bestN && n > 0 && shebang > bestShebang) {
			best, bestN, bestShebang = i, n, shebang
		}
	}
	if best < 0 {
		return nil
	}
	return &l.List[best]
}

// HasExt reports whether the file's ending is one of lang's: exactly, or
// in another case when no language of the table has it exactly (.C is
// C++, .CPP too).
func (l *Table) HasExt(lang *Language, file string) bool {
	ext := path.Ext(file)
	if slices.Contains(lang.Extensions, ext) {
		return true
	}
	for i := range l.List {
		if slices.Contains(l.List[i].Extensions, ext) {
			return false
		}
	}
	return slices.ContainsFunc(lang.Extensions, func(e string) bool { return strings.EqualFold(e, ext) })
}

// Detect picks the language of a one-file submission from its name and
// content (its first line, for Python 2's #!), as Resolve does for a file
// on disk; a name of no language is an *UnknownError.
func (l *Table) Detect(name string, content []byte) (*Language, error) {
	line, _, _ := bytes.Cut(content[:min(len(content), MaxHead)], []byte("\n"))
	if lang := l.Pick([]string{path.Base(name)}, func(string) []byte { return line }); lang != nil {
		return lang, nil
	}
	return nil, &UnknownError{Path: name, Ext: path.Ext(name), Known: l.Names()}
}
