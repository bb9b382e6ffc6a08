package judge

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"github.com/optjudge/optjudge/bytesize"
	"github.com/optjudge/optjudge/judge/lang"
	"github.com/optjudge/optjudge/problems"
	"github.com/optjudge/optjudge/problems/kattis"
)

// RefusedError says that the problem does not take the submission: it is
// in a language that problem.yaml's languages does not list, or its files
// pass limits.code. Nothing of it was built.
type RefusedError struct {
	Path   string
	Reason string
	// Code: over the code limit; else its language is not allowed.
	Code bool
}

func (e *RefusedError) Error() string { return e.Path + ": " + e.Reason }

// Check says why Prepare would refuse sub without building anything: a
// file in no language (*lang.UnknownError), a compiler not installed
// (*lang.NotInstalledError), a language or a size the problem does not take
// (*RefusedError), a missing file; nil when it would build it.
func (j *Judge) Check(sub Submission, o BuildOptions) error {
	if IsBuildRun(sub.Path) || (o.Problem != nil && o.Problem.Package.Type.SubmitAnswer) {
		return nil
	}
	_, _, err := j.source(sub, o)
	return err
}

// source is the submission as Prepare builds it and BuildKey names it: in
// its language (the one forced, or its files'; that language's fallback
// where only the fallback is installed), refused when the problem does not
// take it, its own files with the problem's constants in place when it is
// one of the problem's example submissions, and the problem's included
// files for its language copied over them. tc is nil for an executable.
func (j *Judge) source(sub Submission, o BuildOptions) (*sourceSet, *lang.Toolchain, error) {
	langs := j.table(o.Languages)
	p := o.Problem
	links := ""
	if p != nil && o.Example {
		links = p.Dir // an example submission's links within the package are followed
	}
	src, err := resolve(langs, sub.Path, o.Lang, o.Entry, links)
	if err != nil {
		return nil, nil, err
	}
	if p != nil {
		if err := refused(p, src); err != nil {
			return nil, nil, err
		}
	}
	if src.lang == nil {
		return src, nil, nil
	}
	lang, tc, err := j.finder.Installed(j.table(langs), src.lang, true)
	if err != nil {
		return nil, nil, err
	}
	if lang != src.lang {
		src.retarget(langs, lang)
	}
	if p == nil {
		return src, tc, nil
	}
	if o.Example && len(p.Package.Constants) > 0 {
		if err := src.substitute(p.Package.Constants); err != nil {
			return nil, nil, err
		}
	}
	files, err := p.Package.IncludeFiles(lang.KattisCode())
	if err != nil {
		return nil, nil, err
	}
	src.include(langs, files, o.Entry != "")
	return src, tc, nil
}

// refused says why p does not take the submission src, or nil: its code
// limit (the submission's own files), its languages.
func refused(p *problems.Problem, src *sourceSet) error {
	if lim := p.Package.Submit.CodeLimit; lim > 0 {
		n, err := src.size()
		if err != nil {
			return fmt.Errorf("submission %s: %w", src.path, unwrapPathError(err))
		}
		if n > int64(lim) {
			return &RefusedError{Path: src.path, Code: true,
				Reason: fmt.Sprintf("%s of code, over the problem's limit of %s (limits.code)", bytesize.Size(n), lim)}
		}
	}
	if p.Package.Submit.Languages == nil {
		return nil
	}
	code, name := "", "an executable"
	if src.lang != nil {
		code, name = src.lang.KattisCode(), src.lang.DisplayName()
	}
	if !p.Package.Submit.AllowsLanguage(code) {
		return &RefusedError{Path: src.path,
			Reason: fmt.Sprintf("%s is not a language of the problem (problem.yaml's languages: %s)", name, strings.Join(p.Package.Submit.Languages, ", "))}
	}
	return nil
}

// retarget makes the submission one in lang (a fallback with the same
// endings): its sources are lang's.
func (s *sourceSet) retarget(langs *lang.Table, lang *lang.Language) {
	s.lang = lang
	if !s.dir {
		return
	}
	var sources []string
	for _, f := range s.files {
		if langs.HasExt(lang, f) {
			sources = append(sources, f)
		}
	}
	if len(sources) > 0 {
		s.sources = sources
	}
}

// substitute puts the constants in place in the submission's files.
func (s *sourceSet) substitute(c kattis.Constants) error {
	for _, f := range s.files {
		if _, ok := s.content[f]; ok {
			continue
		}
		b, err := s.read(f)
		if err != nil {
			return fmt.Errorf("submission %s: %w", s.path, unwrapPathError(err))
		}
		sub, err := c.Substitute(b)
		if err != nil {
			return fmt.Errorf("submission %s: %w", s.origin(f), err)
		}
		if !bytes.Equal(sub, b) {
			s.setContent(f, sub)
		}
	}
	return nil
}

func (s *sourceSet) setContent(name string, b []byte) {
	if s.content == nil {
		s.content = map[string][]byte{}
	}
	s.content[name] = b
}

// include copies the problem's included files over the submission's
// (they win a clash, as the format has it). The build's sources are then
// every file of the language, and its entry an included source named as
// the language's entry point (__main__, else main: a driver) unless the
// submission names one (entry).
func (s *sourceSet) include(langs *lang.Table, files []kattis.File, entry bool) {
	if len(files) == 0 {
		return
	}
	for _, f := range files {
		s.setContent(f.Path, f.Data)
		if !slices.Contains(s.files, f.Path) {
			s.files = append(s.files, f.Path)
		}
	}
	slices.Sort(s.files)
	var sources, included []string
	for _, f := range s.files {
		if langs.HasExt(s.lang, f) {
			sources = append(sources, f)
			if _, ok := s.content[f]; ok && slices.ContainsFunc(files, func(x kattis.File) bool { return x.Path == f }) {
				included = append(included, f)
			}
		}
	}
	s.sources = sources
	if entry {
		return
	}
	for _, want := range []string{"__main__", "main"} {
		for _, f := range included {
			if !strings.Contains(f, "/") && strings.EqualFold(stem(f), want) {
				s.entry = f
				return
			}
		}
	}
	if s.entry == "" || !slices.Contains(s.sources, s.entry) {
		s.entry = entryFile(s.sources)
	}
}
