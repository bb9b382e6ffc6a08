package judge

import (
	"archive/tar"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/optjudge/optjudge/judge/lang"
)

// exportFormat is the version of Export's archive and of BuildKey.
const exportFormat = 2

// Bounds of an archive Import accepts.
const (
	maxManifest   = 1 << 20
	maxExportFile = int64(lang.DefaultCompileOutput)
)

// manifest is the first entry of an exported build.
type manifest struct {
	Format     int            `json:"format"`
	Submission string         `json:"submission"`
	Language   string         `json:"language"`        // a name of the table, or "executable"
	Entry      *lang.Language `json:"entry"`           // the table's entry it was built with; nil for an executable
	Compile    CompileResult  `json:"compile"`         // with its Time in nanoseconds
	TimeNS     int64          `json:"compile_time_ns"` // CompileResult.Time
	Files      []string       `json:"files"`           // the program's files, in the order of the entries
	Main       string         `json:"main"`            // the entry file ({src})
	MainClass  string         `json:"main_class"`      // the class holding main ({mainclass}), for a JVM language
}

// BuildKey names the build that Prepare(sub, o) would make: equal keys, the
// same build. It covers the format of the build, the language's entry in
// the table, the compiler and interpreter programs found on the PATH (by
// their content: a new compiler version is a new key) and every file of
// the submission, by its name in the build and its content. It builds
// nothing.
func (j *Judge) BuildKey(sub Submission, o BuildOptions) (string, error) {
	src, _, err := j.source(sub, o)
	if err != nil {
		return "", err
	}
	return j.buildKey(sub, src, o)
}

// buildKey is BuildKey of sub, read as src.
func (j *Judge) buildKey(sub Submission, src *sourceSet, o BuildOptions) (string, error) {
	h := sha256.New()
	fmt.Fprintf(h, "optjudge build %d\n", exportFormat)
	if src.lang == nil {
		fmt.Fprintf(h, "executable\n")
		b, err := os.ReadFile(sub.Path)
		if err != nil {
			return "", fmt.Errorf("submission %s: %w", sub.Path, unwrapPathError(err))
		}
		fmt.Fprintf(h, "\nsource %d\n", len(b))
		h.Write(b)
		return hex.EncodeToString(h.Sum(nil)), nil
	}
	if err := j.hashLanguage(h, src.lang); err != nil {
		return "", err
	}
	fmt.Fprintf(h, "\nentry %q %q\n", src.entry, src.main)
	if o.Problem != nil {
		// the limits the build ran under decide a CE
		fmt.Fprintf(h, "\nlimits %v\n", compileLimits(src.lang, o.Problem))
	}
	for _, f := range src.files {
		b, err := src.read(f)
		if err != nil {
			return "", fmt.Errorf("submission %s: %w", sub.Path, unwrapPathError(err))
		}
		fmt.Fprintf(h, "\nfile %q %d\n", f, len(b))
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// hashLanguage writes the language's table entry and the identities of
// its programs into h.
func (j *Judge) hashLanguage(h io.Writer, lang *lang.Language) error {
	entry, err := json.Marshal(lang)
	if err != nil {
		return err
	}
	h.Write(entry)
	tc, err := j.finder.Find(lang, true)
	if err != nil {
		return err
	}
	var ids []string
	for _, prog := range []string{tc.Compiler, tc.Interp} {
		if prog == "" {
			continue
		}
		id, err := j.programID(prog)
		if err != nil {
			return fmt.Errorf("%s: %w", lang.Name, err)
		}
		ids = append(ids, id)
		fmt.Fprintf(h, "\n%s\n", id)
	}
	if len(lang.Version) > 0 {
		// what the version command says too: a wrapper script (kotlinc,
		// scalac) or a launcher (java) stays the same file when the
		// toolchain it starts is upgraded
		v, err := j.versionOnce(lang, tc, strings.Join(ids, " "))
		if err != nil {
			return fmt.Errorf("%s: %w", lang.Name, err)
		}
		fmt.Fprintf(h, "\nversion %q\n", v)
	}
	return nil
}

// versionOnce is lang's version line, run once per Judge and identity of
// its programs (ids).
func (j *Judge) versionOnce(lang *lang.Language, tc *lang.Toolchain, ids string) (string, error) {
	k := "version\x00" + lang.Name + "\x00" + strings.Join(lang.Version, "\x00") + "\x00" + ids
	j.mu.Lock()
	v, ok := j.compilers[k]
	j.mu.Unlock()
	if ok {
		return v, nil
	}
	v, err := j.version(context.Background(), lang, tc)
	if err != nil {
		return "", err
	}
	j.mu.Lock()
	j.compilers[k] = v
	j.mu.Unlock()
	return v, nil
}

// programID is the SHA-256 of a program's file, links resolved, computed
// once per file version (path, size, modification time).
func (j *Judge) programID(path string) (string, error) {
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return "", err
	}
	fi, err := os.Stat(real)
	if err != nil {
		return "", err
	}
	k := fmt.Sprintf("%s %d %d", real, fi.Size(), fi.ModTime().UnixNano())
	j.mu.Lock()
	id, ok := j.compilers[k]
	j.mu.Unlock()
	if ok {
		return id, nil
	}
	f, err := os.Open(real)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	id = hex.EncodeToString(h.Sum(nil))
	j.mu.Lock()
	j.compilers[k] = id
	j.mu.Unlock()
	return id, nil
}

// Export writes the build, self-contained, as a tar archive that Import
// reads back, on this machine or another with the same language table: a
// manifest (the language, its table entry, the compile result) and the
// program's files. A failed build exports too: its import grades as CE
// without compiling again.
func (pp *Prepared) Export(w io.Writer) error {
	m := manifest{Format: exportFormat, Submission: pp.Submission.Path, Language: pp.Language,
		Compile: pp.Compile, TimeNS: int64(pp.Compile.Time)}
	if pp.Language != "executable" {
		lang, err := pp.langs.ByName(pp.Language)
		if err != nil {
			return err
		}
		m.Entry = lang
	}
	if pp.Compile.OK {
		if pp.prog == nil {
			return errors.New("exporting a closed build")
		}
		m.Files, m.Main, m.MainClass = pp.prog.files, pp.prog.vars["src"], pp.prog.vars["mainclass"]
	}
	b, err := json.Marshal(m)
	if err != nil {
		return err
	}
	tw := tar.NewWriter(w)
	if err := writeEntry(tw, "manifest.json", 0o644, bytes.NewReader(b), int64(len(b))); err != nil {
		return err
	}
	for _, name := range m.Files {
		if err := exportFile(tw, pp.prog.dir, name); err != nil {
			return err
		}
	}
	return tw.Close()
}

func exportFile(tw *tar.Writer, dir, name string) error {
	f, err := os.Open(filepath.Join(dir, name))
	if err != nil {
		return fmt.Errorf("exporting the build: %w", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return fmt.Errorf("exporting the build: %w", err)
	}
	return writeEntry(tw, name, int64(fi.Mode().Perm()), f, fi.Size())
}

func writeEntry(tw *tar.Writer, name string, mode int64, r io.Reader, size int64) error {
	hdr := &tar.Header{Name: name, Mode: mode, Size: size, Typeflag: tar.TypeReg, ModTime: time.Unix(0, 0), Format: tar.FormatPAX}
	if err := tw.WriteHeader(hdr); err != nil {
		return fmt.Errorf("exporting the build: %w", err)
	}
	if _, err := io.Copy(tw, r); err != nil {
		return fmt.Errorf("exporting the build: %w", err)
	}
	return nil
}

// Import reads a build that Export wrote into a Prepared of this Judge,
// ready to grade; Close it as one from Prepare. The archive is checked: its
// language must be in the Judge's table with the same entry, and its files
// must be exactly the ones that language runs. The run command, the modes
// and what the runs' boxes see come from the Judge's own table, never from
// the archive.
func (j *Judge) Import(r io.Reader) (*Prepared, error) {
	tr := tar.NewReader(r)
	hdr, err := tr.Next()
	if err != nil || hdr.Name != "manifest.json" || hdr.Typeflag != tar.TypeReg || hdr.Size > maxManifest {
		return nil, fmt.Errorf("importing a build: no manifest first (%v)", err)
	}
	var m manifest
	if err := json.NewDecoder(io.LimitReader(tr, maxManifest)).Decode(&m); err != nil {
		return nil, fmt.Errorf("importing a build: manifest: %w", err)
	}
	if m.Format != exportFormat {
		return nil, fmt.Errorf("importing a build: format %d, want %d", m.Format, exportFormat)
	}
	m.Compile.Time = time.Duration(m.TimeNS)
	pp := &Prepared{Submission: Submission{Path: m.Submission}, Language: m.Language, Compile: m.Compile, j: j, langs: j.cfg.Languages}
	prog, err := j.importedProgram(&m)
	if err != nil || !m.Compile.OK {
		return pp, err
	}
	if prog.dir, err = os.MkdirTemp(j.tmp, "prog-"); err != nil {
		return nil, fmt.Errorf("importing a build: %w", err)
	}
	if err := readFiles(tr, prog.dir, prog.files); err != nil {
		removeAll(prog.dir)
		return nil, err
	}
	pp.prog = prog
	return pp, nil
}

// importedProgram is the program m describes, as this Judge's table runs
// it, its directory still to make.
func (j *Judge) importedProgram(m *manifest) (*program, error) {
	if m.Language == "executable" {
		if m.Compile.OK && !slices.Equal(m.Files, []string{exeName}) {
			return nil, fmt.Errorf("importing a build: an executable's files are %q, want [%s]", m.Files, exeName)
		}
		return &program{lang: m.Language, files: []string{exeName}, run: []string{"./" + exeName}}, nil
	}
	lang, err := j.cfg.Languages.ByName(m.Language)
	if err != nil {
		return nil, fmt.Errorf("importing a build: %w", err)
	}
	mine, _ := json.Marshal(lang)
	theirs, _ := json.Marshal(m.Entry)
	if !bytes.Equal(mine, theirs) {
		return nil, fmt.Errorf("importing a build: it was built with another table entry for %s", lang.Name)
	}
	if !m.Compile.OK {
		return nil, nil
	}
	if err := checkFiles(lang, m); err != nil {
		return nil, err
	}
	tc, err := j.finder.Find(lang, true)
	if err != nil {
		return nil, err
	}
	return &program{lang: lang.Name, files: m.Files, run: runCommand(lang, tc), vars: runVars(m.Main, m.MainClass),
		env: tc.Env, readOnly: tc.ReadOnly}, nil
}

// checkFiles checks an imported build's files against its language: the
// executable or jar it builds, or (interpreted) the submission's files, of
// safe names, the entry among them; and a main class that is a class
// name.
func checkFiles(lang *lang.Language, m *manifest) error {
	if built := builtFiles(lang); built != nil {
		if !slices.Equal(m.Files, built) {
			return fmt.Errorf("importing a build: files %q, want %q", m.Files, built)
		}
	} else {
		if len(m.Files) == 0 || len(m.Files) > MaxSubmissionFiles || !slices.Contains(m.Files, m.Main) {
			return fmt.Errorf("importing a build: %d files, entry %q", len(m.Files), m.Main)
		}
		for _, f := range m.Files {
			for _, part := range strings.Split(f, "/") {
				if !safeName(part) {
					return fmt.Errorf("importing a build: file %q: not a safe relative name", f)
				}
			}
		}
	}
	if lang.MainClass && !javaClassRE.MatchString(m.MainClass) {
		return fmt.Errorf("importing a build: main class %q", m.MainClass)
	}
	return nil
}

// javaClassRE is a binary class name of a main class, dots between the
// parts (Java identifiers, $ for a nested class).
var javaClassRE = regexp.MustCompile(`^[\p{L}_$][\p{L}\p{N}_$]*(\.[\p{L}_$][\p{L}\p{N}_$]*)*$`)

// readFiles writes the archive's next entries, which must be files, in
// order, into dir.
func readFiles(tr *tar.Reader, dir string, files []string) error {
	for _, name := range files {
		hdr, err := tr.Next()
		if err != nil {
			return fmt.Errorf("importing a build: %s: %w", name, err)
		}
		if hdr.Name != name || hdr.Typeflag != tar.TypeReg || hdr.Size < 0 || hdr.Size > maxExportFile {
			return fmt.Errorf("importing a build: entry %q (%d bytes), want the file %s", hdr.Name, hdr.Size, name)
		}
		mode := os.FileMode(0o644)
		if name == exeName {
			mode = 0o755
		}
		dst := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return fmt.Errorf("importing a build: %w", err)
		}
		if err := copyTo(io.LimitReader(tr, hdr.Size), dst, mode); err != nil {
			return fmt.Errorf("importing a build: %w", err)
		}
	}
	if _, err := tr.Next(); err != io.EOF {
		return errors.New("importing a build: more entries than its files")
	}
	return nil
}
