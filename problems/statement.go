package problems

import (
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"sort"
	"strings"
)

// StatementFile is one statement of a problem: a language's Markdown,
// LaTeX or PDF file.
type StatementFile struct {
	// Lang is the language code of the file's name (problem.<lang>.md),
	// "en" for a file that names none (the native statement.md, the
	// legacy problem.tex).
	Lang string
	// Format is "md", "tex" or "pdf".
	Format string
	// Path is the file, slash-separated within the package.
	Path string
}

// statementDirs are the directories a package's statements are in: the
// 2023-07 and 2025-09 statement/, and the legacy problem_statement/.
var statementDirs = []string{"statement", "problem_statement"}

// statementNameRE is a statement file's name in a statement directory:
// problem.md, problem.en.md, problem.pt-BR.tex, problem.zh-Hant.pdf.
var statementNameRE = regexp.MustCompile(`^problem(?:\.([A-Za-z]{2,3}(?:-[A-Za-z0-9]{2,8})*))?\.(md|tex|pdf)$`)

// Statements lists the problem's statement files: the native
// statement.md, and a package's problem[.<lang>].{md,tex,pdf} in
// statement/ or problem_statement/ (the first directory that has one),
// sorted by language and then Markdown, LaTeX, PDF.
func (p *Problem) Statements() []StatementFile {
	var out []StatementFile
	if st, err := fs.Stat(p.Package.FS, "statement.md"); err == nil && st.Mode().IsRegular() {
		out = append(out, StatementFile{Lang: "en", Format: "md", Path: "statement.md"})
	}
	for _, dir := range statementDirs {
		ents, err := fs.ReadDir(p.Package.FS, dir)
		if err != nil {
			continue
		}
		found := false
		for _, e := range ents {
			m := statementNameRE.FindStringSubmatch(e.Name())
			if m == nil || e.IsDir() {
				continue
			}
			lang := m[1]
			if lang == "" {
				lang = "en"
			}
			out = append(out, StatementFile{Lang: lang, Format: m[2], Path: dir + "/" + e.Name()})
			found = true
		}
		if found {
			break
		}
	}
	order := map[string]int{"md": 0, "tex": 1, "pdf": 2}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Lang != out[j].Lang {
			return out[i].Lang < out[j].Lang
		}
		return order[out[i].Format] < order[out[j].Format]
	})
	// problem.md and problem.en.md both say English: the named one wins
	seen := map[[2]string]bool{}
	kept := out[:0]
	for _, f := range out {
		k := [2]string{f.Lang, f.Format}
		if !seen[k] {
			kept = append(kept, f)
		}
		seen[k] = true
	}
	return kept
}

// StatementLanguages lists the languages the problem has a statement in,
// sorted.
func (p *Problem) StatementLanguages() []string {
	var out []string
	for _, f := range p.Statements() {
		if len(out) == 0 || out[len(out)-1] != f.Lang {
			out = append(out, f.Lang)
		}
	}
	return out
}

// ReadStatement reads a statement file of Statements: a Markdown or LaTeX
// one with the package's constants in place ({{name}}, and in LaTeX
// \constant{name}), a PDF as it is.
func (p *Problem) ReadStatement(f StatementFile) ([]byte, error) {
	b, err := fs.ReadFile(p.Package.FS, f.Path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p.file(f.Path), err)
	}
	switch f.Format {
	case "pdf":
		return b, nil
	case "tex":
		b, err = p.Package.Constants.SubstituteTeX(b)
	default:
		b, err = p.Package.Constants.Substitute(b)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p.file(f.Path), err)
	}
	return b, nil
}

// TitleIn is the problem's title in lang, when problem.yaml gives one
// for it (name: a map of language to title), else Title.
func (p *Problem) TitleIn(lang string) string {
	if p.Package.Spec != nil {
		if names, ok := p.Package.Spec.Name.(map[string]any); ok {
			if t, ok := names[lang].(string); ok && strings.TrimSpace(t) != "" {
				return t
			}
		}
	}
	return p.Title
}

// StatementPath reports whether name is a file of the problem's
// statement that contestants may have: one of Statements, or a picture
// beside them in its directory (what a statement shows). Never a file
// beside it of another kind (a jury's solution.tex).
func (p *Problem) StatementPath(name string) bool {
	sts := p.Statements()
	for _, f := range sts {
		if f.Path == name {
			return true
		}
	}
	dir, base := path.Split(name)
	if !pictureExts[strings.ToLower(path.Ext(base))] || strings.HasPrefix(base, ".") {
		return false
	}
	for _, f := range sts {
		if d, _ := path.Split(f.Path); d == dir && d != "" {
			return true
		}
	}
	return false
}

var pictureExts = map[string]bool{".png": true, ".jpg": true, ".jpeg": true, ".gif": true, ".svg": true, ".webp": true}
