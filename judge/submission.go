package judge

import (
	"bufio"
	"bytes"
	"debug/elf"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"github.com/optjudge/optjudge/bytesize"
	"github.com/optjudge/optjudge/internal/proc"
	"github.com/optjudge/optjudge/judge/internal/nofollow"
	"github.com/optjudge/optjudge/judge/lang"
)

// Bounds of a submission the judge copies.
const (
	MaxSubmissionFiles = 1000              // files and directories of a directory submission
	MaxSubmissionSize  = 64 * bytesize.MiB // all its files together
)

// sourceSet is a submission as the judge copies and builds it.
type sourceSet struct {
	path    string         // the submission: a file or a directory
	dir     bool           // a directory of files
	lang    *lang.Language // nil: an executable, run as it is
	files   []string       // what is copied: slash-separated paths in the build directory, sorted
	sources []string       // the language's source files among files ({files})
	entry   string         // the entry file ({src})
	main    string         // a JVM language's main class named by BuildOptions.Entry, or ""
	// content holds the files whose content is not the submission's file
	// on disk: the problem's included files, and the submission's own with
	// the problem's constants in place.
	content map[string][]byte
	// links is where a directory's symbolic links may lead (the problem
	// package on disk, for its example submissions); "": none is followed.
	links string
}

// origin is where the file name of the build directory comes from.
func (s *sourceSet) origin(name string) string {
	if !s.dir {
		return s.path
	}
	return filepath.Join(s.path, filepath.FromSlash(name))
}

// open opens the submission's file name, following a symbolic link only
// to a file within s.links.
func (s *sourceSet) open(name string) (*os.File, error) {
	p := s.origin(name)
	if s.links != "" {
		if target, err := filepath.EvalSymlinks(p); err == nil && target != p && within(s.links, target) {
			p = target
		}
	}
	return nofollow.Open(p)
}

// head is the first line of the submission's file name (see headLine).
func (s *sourceSet) head(name string) []byte {
	f, err := s.open(name)
	if err != nil {
		return nil
	}
	defer f.Close()
	return firstLineOf(f)
}

// read is the content of the build's file name.
func (s *sourceSet) read(name string) ([]byte, error) {
	if b, ok := s.content[name]; ok {
		return b, nil
	}
	in, err := s.open(name)
	if err != nil {
		return nil, err
	}
	defer in.Close()
	return io.ReadAll(io.LimitReader(in, int64(MaxSubmissionSize)+1))
}

// within says whether path is root or below it, both with links resolved.
func within(root, path string) bool {
	r, err := filepath.EvalSymlinks(root)
	if err != nil {
		return false
	}
	rel, err := filepath.Rel(r, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// copyInto copies the submission's files into dir (an empty directory of
// the judge's), never through a link but one within s.links, making the
// directories they are in with mode dirMode (a build's: writable by the
// compiler's box).
func (s *sourceSet) copyInto(dir string, dirMode os.FileMode) error {
	for _, f := range s.files {
		dst := filepath.Join(dir, filepath.FromSlash(f))
		if err := mkdirs(dir, path.Dir(f), dirMode); err != nil {
			return fmt.Errorf("copying the submission: %w", err)
		}
		if b, ok := s.content[f]; ok {
			if err := copyTo(bytes.NewReader(b), dst, 0o644); err != nil {
				return fmt.Errorf("copying the submission: %w", err)
			}
			continue
		}
		in, err := s.open(f)
		if err != nil {
			return fmt.Errorf("copying the submission: %w", err)
		}
		err = copyTo(in, dst, 0o644)
		in.Close()
		if err != nil {
			return fmt.Errorf("copying the submission: %w", err)
		}
	}
	return nil
}

// size is the total size of the submission's own files.
func (s *sourceSet) size() (int64, error) {
	if !s.dir {
		st, err := os.Stat(s.path)
		if err != nil {
			return 0, err
		}
		return st.Size(), nil
	}
	var n int64
	for _, f := range s.files {
		in, err := s.open(f)
		if err != nil {
			return 0, err
		}
		st, err := in.Stat()
		in.Close()
		if err != nil {
			return 0, err
		}
		n += st.Size()
	}
	return n, nil
}

// mkdirs makes the directories of rel (slash-separated) below root with
// mode perm, past the umask.
func mkdirs(root, rel string, perm os.FileMode) error {
	if rel == "." || rel == "" {
		return nil
	}
	if err := mkdirs(root, path.Dir(rel), perm); err != nil {
		return err
	}
	d := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.Mkdir(d, perm); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return nil
		}
		return err
	}
	return os.Chmod(d, perm)
}

// resolve says how the submission at p is built: in the language named by
// force, else the one its files select (see detect); for a file of no
// language, as an executable if it is one.
func resolve(l *lang.Table, p, force, entry, links string) (*sourceSet, error) {
	st, err := os.Stat(p)
	if err != nil {
		return nil, fmt.Errorf("submission %s: %w", p, unwrapPathError(err))
	}
	if st.IsDir() {
		return resolveDir(l, p, force, entry, links)
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("submission %s: not a regular file", p)
	}
	if st.Size() > int64(MaxSubmissionSize) {
		return nil, fmt.Errorf("submission %s: %s, over the limit of %s", p, bytesize.Size(st.Size()), MaxSubmissionSize)
	}
	s := &sourceSet{path: p}
	if force != "" {
		if s.lang, err = l.ByName(force); err != nil {
			return nil, err
		}
	} else if s.lang = l.Pick([]string{filepath.Base(p)}, func(string) []byte { return headLine(p) }); s.lang == nil {
		if why := notProgram(p); why != "" {
			return nil, &lang.UnknownError{Path: p, Ext: filepath.Ext(p), Known: l.Names(), Reason: why}
		}
		s.files = []string{exeName}
		return s, nil
	}
	name := buildName(s.lang, filepath.Base(p))
	s.files, s.sources, s.entry = []string{name}, []string{name}, name
	return s, nil
}

// buildName is the name a one-file submission gets in the build
// directory: the language's File, else its own, else (a name that is not
// safe on a command line, or of another language's ending) main with the
// language's ending.
func buildName(lang *lang.Language, base string) string {
	if lang.File != "" {
		return lang.File
	}
	ext := filepath.Ext(base)
	if !slices.ContainsFunc(lang.Extensions, func(e string) bool { return strings.EqualFold(e, ext) }) && len(lang.Extensions) > 0 {
		base, ext = strings.TrimSuffix(base, ext)+lang.Extensions[0], lang.Extensions[0]
	}
	if !safeName(base) {
		return "main" + ext
	}
	return base
}

// safeName reports whether a file name means only itself on a command
// line and in a language's strings: no leading dash, nothing but letters,
// digits and ._+-.
func safeName(name string) bool {
	if name == "" || name[0] == '-' || name[0] == '.' {
		return false
	}
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("._+-", r)) {
			return false
		}
	}
	return true
}

// resolveDir resolves a directory submission: every file in it (but
// hidden ones and editors' backups) is copied; the language is force, else
// the one most of its files select.
func resolveDir(l *lang.Table, p, force, entry, links string) (*sourceSet, error) {
	files, err := listDir(p, links)
	if err != nil {
		return nil, fmt.Errorf("submission %s: %w", p, err)
	}
	s := &sourceSet{path: p, dir: true, files: files, links: links}
	if force != "" {
		if s.lang, err = l.ByName(force); err != nil {
			return nil, err
		}
	} else if s.lang = l.Pick(files, s.head); s.lang == nil {
		return nil, &lang.UnknownError{Path: p, Dir: true, Known: l.Names()}
	}
	for _, f := range files {
		if l.HasExt(s.lang, f) {
			s.sources = append(s.sources, f)
		}
	}
	if len(s.sources) == 0 {
		return nil, fmt.Errorf("submission %s: no %s source file (%s)", p, s.lang.DisplayName(), strings.Join(s.lang.Extensions, ", "))
	}
	s.entry = entryFile(s.sources)
	switch {
	case entry == "":
	case slices.Contains(s.sources, entry):
		s.entry = entry
	case s.lang.MainClass:
		s.main = entry // a class, as the Kattis format has it for Java and Kotlin
	default:
		return nil, fmt.Errorf("submission %s: entrypoint %s is not one of its %s source files (%s)", p, entry, s.lang.DisplayName(), strings.Join(s.sources, ", "))
	}
	return s, nil
}

// listDir lists the files of a directory submission, sorted, slash-
// separated: regular files only (a link is refused: the judge would copy
// what it points to; but one to a file or directory within links, the
// problem package of an example submission, is followed), hidden files
// and directories and editors' backups (~) passed over, within
// MaxSubmissionFiles and MaxSubmissionSize.
func listDir(root, links string) ([]string, error) {
	l := &lister{links: links}
	if err := l.walk(root, ""); err != nil {
		return nil, unwrapPathError(err)
	}
	if len(l.files) == 0 {
		return nil, fmt.Errorf("no files")
	}
	slices.Sort(l.files)
	return l.files, nil
}

// lister is listDir's walk.
type lister struct {
	links string
	files []string
	n     int
	size  int64
	depth int
}

// walk lists the directory dir, rel below the submission's top.
func (l *lister) walk(dir, rel string) error {
	if l.depth++; l.depth > 32 {
		return fmt.Errorf("%s: directories nested too deep", rel)
	}
	defer func() { l.depth-- }()
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, d := range entries {
		name := d.Name()
		r := path.Join(rel, name)
		if strings.HasPrefix(name, ".") || strings.HasSuffix(name, "~") {
			continue
		}
		if !safeName(name) {
			return fmt.Errorf("%s: want a file name of letters, digits and ._+-, not starting with - or .", r)
		}
		if l.n++; l.n > MaxSubmissionFiles {
			return fmt.Errorf("more than %d files", MaxSubmissionFiles)
		}
		full := filepath.Join(dir, name)
		t := d.Type()
		if t&fs.ModeSymlink != 0 {
			target, err := filepath.EvalSymlinks(full)
			if l.links == "" || err != nil || !within(l.links, target) {
				return fmt.Errorf("%s: a symbolic link (give the file itself)", r)
			}
			st, err := os.Stat(target)
			if err != nil {
				return err
			}
			t, full = st.Mode().Type(), target
		}
		switch {
		case t.IsDir():
			if err := l.walk(full, r); err != nil {
				return err
			}
			continue
		case !t.IsRegular():
			return fmt.Errorf("%s: not a regular file", r)
		}
		st, err := os.Stat(full)
		if err != nil {
			return err
		}
		if l.size += st.Size(); l.size > int64(MaxSubmissionSize) {
			return fmt.Errorf("over %s in all", MaxSubmissionSize)
		}
		l.files = append(l.files, r)
	}
	return nil
}

// entryFile picks the file a directory's program starts from, among its
// sources (sorted), those at its top first: the one named __main__ (the
// Kattis format's Python entry point), else main in any case (as
// problemtools does: main.py, Main.java), else the only one, else the
// first by name.
func entryFile(sources []string) string {
	cands := slices.DeleteFunc(slices.Clone(sources), func(s string) bool { return strings.Contains(s, "/") })
	if len(cands) == 0 {
		cands = sources
	}
	for _, want := range []string{"__main__", "main"} {
		for _, s := range cands {
			if strings.EqualFold(stem(s), want) {
				return s
			}
		}
	}
	return cands[0]
}

// stem is a file's base name without its ending.
func stem(name string) string {
	base := path.Base(name)
	return strings.TrimSuffix(base, path.Ext(base))
}

// headLine is the first line of a file, up to lang.MaxHead bytes; nil when it
// cannot be read.
func headLine(p string) []byte {
	f, err := nofollow.Open(p)
	if err != nil {
		return nil
	}
	defer f.Close()
	return firstLineOf(f)
}

// firstLineOf is the first line of r, up to lang.MaxHead bytes.
func firstLineOf(r io.Reader) []byte {
	b, _ := bufio.NewReader(io.LimitReader(r, lang.MaxHead)).ReadBytes('\n')
	return bytes.TrimRight(b, "\r\n")
}

// notProgram says why the file is not a program the sandbox can run, or
// "" when it is one: an ELF executable for this machine, or a #! script
// whose interpreter is installed where the boxes see it.
func notProgram(p string) string {
	line := headLine(p)
	if bytes.HasPrefix(line, []byte("#!")) {
		return missingInterpreter(string(line[2:]))
	}
	f, err := elf.Open(p)
	if err != nil {
		return "not an ELF executable, nor a #! script"
	}
	defer f.Close()
	if f.Type != elf.ET_EXEC && f.Type != elf.ET_DYN {
		return fmt.Sprintf("an ELF file of type %s, not an executable", f.Type)
	}
	if m, ok := nativeMachine[runtime.GOARCH]; ok && (f.Machine != m.machine || f.Class != m.class) {
		return fmt.Sprintf("an ELF executable for %s (%s), not for this machine", f.Machine, f.Class)
	}
	return ""
}

// nativeMachine is what an ELF header says for the judge's architecture.
var nativeMachine = map[string]struct {
	machine elf.Machine
	class   elf.Class
}{
	"amd64": {elf.EM_X86_64, elf.ELFCLASS64}, "arm64": {elf.EM_AARCH64, elf.ELFCLASS64},
	"386": {elf.EM_386, elf.ELFCLASS32}, "riscv64": {elf.EM_RISCV, elf.ELFCLASS64},
	"ppc64le": {elf.EM_PPC64, elf.ELFCLASS64}, "s390x": {elf.EM_S390, elf.ELFCLASS64},
	"loong64": {elf.EM_LOONGARCH, elf.ELFCLASS64},
}

// missingInterpreter says why the interpreter of a #! line is not there,
// or "": an absolute path in the system directories, and for
// /usr/bin/env NAME, NAME on the boxes' PATH.
func missingInterpreter(line string) string {
	fields := strings.Fields(line)
	if len(fields) == 0 {
		return "a #! line with no interpreter"
	}
	interp := fields[0]
	if !filepath.IsAbs(interp) || !isExecutable(interp) || !lang.Visible(interp, nil) {
		return fmt.Sprintf("a #! script whose interpreter %s is not installed", interp)
	}
	if path.Base(interp) != "env" {
		return ""
	}
	for _, a := range fields[1:] {
		if strings.HasPrefix(a, "-") || strings.Contains(a, "=") {
			continue
		}
		if _, err := proc.LookPath(a, proc.DefaultPath, func(c string) bool { return lang.Visible(c, nil) }); err != nil {
			return fmt.Sprintf("a #! script whose interpreter %s is not installed", a)
		}
		return ""
	}
	return "a #! line that names no program for env"
}

func isExecutable(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular() && st.Mode()&0o111 != 0
}

// ResolveLanguage says in which language of the table t the submission at
// path is built: the one named by force, else the one its files select.
// It returns a nil Language for a file of no known language that is a
// program (an ELF executable for this machine, or a #! script whose
// interpreter is installed), which runs as it is, and an
// *lang.UnknownError for anything else.
func ResolveLanguage(t *lang.Table, path, force string) (*lang.Language, error) {
	s, err := resolve(t, path, force, "", "")
	if err != nil {
		return nil, err
	}
	return s.lang, nil
}
