// Package export writes a problem as the judges that contests run on take
// it, so that a puzzle problem's exact checker and validator go with it:
//
//   - Kattis: the legacy package format, which Kattis installs and
//     problemtools' verifyproblem verifies (it knows no 2025-09);
//   - BAPCtools: the package format as written, 2025-09, which BAPCtools
//     runs (it knows no legacy package without bt upgrade);
//   - DOMjudge: the zip its problem import reads.
//
// A definition's checker and input validator become programs those tools
// build and run themselves, by the format's rules for validators: a
// directory with build and run scripts around a judge binary (the
// judge's validator command) and the definition. Every answer is the
// reference's. What a target cannot hold is left out, with a note.
package export

import (
	"archive/zip"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/optjudge/optjudge/problems"
	"github.com/optjudge/optjudge/problems/kattis"
)

// Target is a judge that a problem is exported for.
type Target int

const (
	Kattis    Target = iota // legacy format: Kattis, problemtools
	BAPCtools               // 2025-09: BAPCtools
	DOMjudge                // DOMjudge's problem zip
)

// Targets lists the targets by name.
var Targets = map[string]Target{"kattis": Kattis, "bapctools": BAPCtools, "domjudge": DOMjudge}

func (t Target) String() string {
	for name, v := range Targets {
		if v == t {
			return name
		}
	}
	return "unknown"
}

// Options say how a problem is exported.
type Options struct {
	Target Target
	// Validator is the judge binary the exported validators run (as
	// "judge validator"): the judge's own executable, say. Needed for a
	// problem with a puzzle definition only.
	Validator string
}

// Result is what Export wrote.
type Result struct {
	Files int
	// Notes say what the target could not hold, or what was changed to
	// fit it, one a line.
	Notes []string
}

// file is one file of the exported package: its content, or where to
// read it, and its mode.
type file struct {
	data []byte
	src  string // path within the problem's FS, or, with disk, on disk
	disk bool
	mode fs.FileMode
	link string // a relative symbolic link to this target instead (directories only)
}

// exporter builds the exported package in memory, path by path.
type exporter struct {
	p     *problems.Problem
	o     Options
	zip   bool // written as a zip file
	files map[string]file
	notes []string
}

func (x *exporter) put(name string, data []byte, mode fs.FileMode) {
	x.files[name] = file{data: data, mode: mode}
}

func (x *exporter) note(format string, args ...any) {
	x.notes = append(x.notes, fmt.Sprintf(format, args...))
}

// Export writes the problem p for the target into out: a new directory,
// or a zip file when out ends in .zip (DOMjudge's is always a zip, its
// files at the root). A problem of the legacy native layout is exported as
// judge convert would make it a package first. out must not exist.
func Export(p *problems.Problem, out string, o Options) (*Result, error) {
	if _, err := os.Lstat(out); err == nil {
		return nil, fmt.Errorf("%s: already exists: judge export writes a new directory or zip file", out)
	}
	if o.Target == DOMjudge && !strings.HasSuffix(out, ".zip") {
		return nil, fmt.Errorf("%s: DOMjudge imports a zip file: name it NAME.zip (its name is the problem's id there)", out)
	}
	p, cleanup, err := asPackage(p)
	if err != nil {
		return nil, err
	}
	defer cleanup()
	x := &exporter{p: p, o: o, zip: strings.HasSuffix(out, ".zip"), files: map[string]file{}}
	if err := x.build(); err != nil {
		return nil, err
	}
	if x.zip {
		err = x.writeZip(out)
	} else {
		err = x.writeDir(out)
	}
	if err != nil {
		return nil, err
	}
	return &Result{Files: len(x.files), Notes: x.notes}, nil
}

// asPackage is p as a package: p itself, or a native problem converted
// into a temporary directory (removed by cleanup).
func asPackage(p *problems.Problem) (*problems.Problem, func(), error) {
	if p.Package.Layout == kattis.LayoutKattis {
		return p, func() {}, nil
	}
	if p.Dir == "" {
		return nil, nil, fmt.Errorf("%s: a problem of the native layout exports from a directory on disk only", p.Package.Origin)
	}
	tmp, err := os.MkdirTemp("", "optjudge-export-")
	if err != nil {
		return nil, nil, err
	}
	cleanup := func() { os.RemoveAll(tmp) }
	dir := filepath.Join(tmp, filepath.Base(p.Dir))
	if _, err := problems.Convert(p.Dir, dir); err != nil {
		cleanup()
		return nil, nil, err
	}
	q, err := problems.LoadDir(dir)
	if err != nil {
		cleanup()
		return nil, nil, err
	}
	q.Name = p.Name
	return q, cleanup, nil
}

// build lays out the exported package.
func (x *exporter) build() error {
	pk := &x.p.Package
	if x.o.Target == BAPCtools && pk.Format != kattis.Format2025 {
		return fmt.Errorf("%s: a package of format %s: BAPCtools takes 2025-09 (bt upgrade makes one)", pk.Origin, pk.Format)
	}
	if x.o.Target == Kattis && pk.Type.Scoring && pk.Format == kattis.Format2025 {
		return fmt.Errorf("%s: a scoring problem of format 2025-09 has no legacy form that grades the same", pk.Origin)
	}
	if err := x.copyParts(); err != nil {
		return err
	}
	if err := x.answers(); err != nil {
		return err
	}
	if err := x.validators(); err != nil {
		return err
	}
	if err := x.statement(); err != nil {
		return err
	}
	var err error
	switch x.o.Target {
	case Kattis:
		err = x.legacy()
	case BAPCtools:
		err = x.bapctools()
	case DOMjudge:
		err = x.domjudge()
	}
	if err == nil && !x.zip && x.o.Target != DOMjudge {
		x.linkSamples()
	}
	return err
}

// linkSamples makes each secret test that is a sample's copy a link to
// it: problemtools and BAPCtools take identical test files for a mistake
// and pass links over (the judge's embedded problems cannot hold links).
func (x *exporter) linkSamples() {
	samples := map[string]string{} // the .in and .ans together -> the sample's path without extension
	for name := range x.files {
		if base, ok := strings.CutSuffix(name, ".in"); ok && strings.HasPrefix(name, "data/sample/") {
			if key, ok := x.testKey(base); ok {
				samples[key] = base
			}
		}
	}
	var linked []string
	for _, name := range x.names() {
		base, ok := strings.CutSuffix(name, ".in")
		if !ok || !strings.HasPrefix(name, "data/secret/") {
			continue
		}
		key, ok := x.testKey(base)
		sample, same := samples[key]
		if !ok || !same {
			continue
		}
		for _, ext := range []string{".in", ".ans"} {
			rel, _ := filepath.Rel(path.Dir(base), sample+ext)
			f := x.files[base+ext]
			f.link = filepath.ToSlash(rel)
			x.files[base+ext] = f
		}
		linked = append(linked, base)
	}
	if len(linked) > 0 {
		x.note("%s: links to the sample they copy (problemtools and BAPCtools take identical test files for a mistake)", strings.Join(linked, ", "))
	}
}

// testKey is a test's input and answer together, for comparing tests;
// false when it has no answer or cannot be read.
func (x *exporter) testKey(base string) (string, bool) {
	in, _, err1 := x.read(base + ".in")
	ans, _, err2 := x.read(base + ".ans")
	if _, has := x.files[base+".ans"]; !has || err1 != nil || err2 != nil {
		return "", false
	}
	return string(in) + "\x00" + string(ans), true
}

// parts are the top-level files and directories of a package that an
// export carries (in the target's names: see legacy and domjudge).
var parts = []string{
	"problem.yaml", ".timelimit", "data", "statement", "problem_statement", "attachments",
	"submissions", "include", "generators", "solution", "input_validators",
	"input_format_validators", "output_validator", "output_validators", "answer_validators",
	"static_validator", "graders",
}

// copyParts takes every file of the package's parts as it is.
func (x *exporter) copyParts() error {
	fsys := x.p.Package.FS
	for _, top := range parts {
		st, err := fs.Stat(fsys, top)
		if err != nil {
			continue
		}
		if !st.IsDir() {
			x.files[top] = file{src: top, mode: st.Mode().Perm()}
			continue
		}
		err = fs.WalkDir(fsys, top, func(name string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if strings.HasPrefix(d.Name(), ".") || strings.HasPrefix(d.Name(), "-") {
				if d.IsDir() {
					return fs.SkipDir
				}
				return nil
			}
			st, err := fs.Stat(fsys, name)
			if err != nil {
				return err
			}
			if st.IsDir() {
				if d.Type()&fs.ModeSymlink != 0 {
					return fmt.Errorf("%s/%s: a link to a directory: export the package with its links resolved", x.p.Package.Origin, name)
				}
				return nil
			}
			if st.Mode().IsRegular() {
				x.files[name] = file{src: name, mode: st.Mode().Perm()}
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// answers makes every test's answer the reference's.
func (x *exporter) answers() error {
	ref := x.p.Reference
	if ref == nil {
		return nil
	}
	tests, err := x.p.Package.Tests()
	if err != nil {
		return err
	}
	changed := 0
	for _, t := range tests {
		in, err := t.Input()
		if err != nil {
			return err
		}
		ans, err := ref.Solve(in)
		if err != nil {
			return fmt.Errorf("solving %s: %w", t.Path(t.In), err)
		}
		name := strings.TrimSuffix(t.In, ".in") + ".ans"
		if old, err := t.Answer(); err != nil || !bytes.Equal(old, ans) {
			changed++
		}
		x.put(name, ans, 0o644)
	}
	if changed > 0 {
		x.note("%d answer files written anew by the reference (they differed from it, or were missing)", changed)
	}
	return nil
}

// validators puts the definition's checker and input validator in the
// package as programs, and takes the definition out of its root.
func (x *exporter) validators() error {
	delete(x.files, "puzzle.yaml")
	def, err := fs.ReadFile(x.p.Package.FS, "puzzle.yaml")
	if errors.Is(err, fs.ErrNotExist) || x.p.Validator == nil {
		return nil
	}
	if err != nil {
		return err
	}
	if x.o.Validator == "" {
		return errors.New("exporting a puzzle's validators needs a judge binary to ship with them")
	}
	dirs := []string{"input_validators/puzzle"}
	if x.p.Puzzle != nil && x.p.Package.CheckerProgram == nil {
		dirs = append(dirs, "output_validator")
	}
	// A twsearch file the definition names goes beside it.
	var tws string
	var twsData []byte
	if x.p.Puzzle != nil {
		if t := x.p.Puzzle.Definition().Tws; t != nil {
			tws = t.File
			delete(x.files, tws)
			if twsData, err = fs.ReadFile(x.p.Package.FS, tws); err != nil {
				return err
			}
		}
	}
	for _, dir := range dirs {
		kind := "input"
		if dir == "output_validator" {
			kind = "output"
		}
		x.files[dir+"/optjudge"] = file{src: x.o.Validator, disk: true, mode: 0o755}
		x.put(dir+"/puzzle.yaml", def, 0o644)
		if tws != "" {
			x.put(dir+"/"+tws, twsData, 0o644)
		}
		x.put(dir+"/build", []byte(buildScript), 0o755)
		x.put(dir+"/run", fmt.Appendf(nil, runScript, kind, kind), 0o755)
		x.put(dir+"/README", fmt.Appendf(nil, readme, kind), 0o644)
	}
	return nil
}

// buildScript makes the shipped files executable: DOMjudge keeps no
// file modes but run's and build's.
const buildScript = `#!/bin/sh
# judge export: the judge binary (optjudge) and this definition's
# validator need no build. DOMjudge keeps no file modes but build's and
# run's, and builds as a user who does not own the files: a copy of its own
# is made executable.
for f in optjudge run; do
	[ -x "$f" ] && continue
	cp "$f" "$f.tmp" && mv -f "$f.tmp" "$f" && chmod 755 "$f" || exit 1
done
`

// runScript calls the judge binary as the format calls a validator.
const runScript = `#!/bin/sh
# judge export: the puzzle definition beside this script as an %s
# validator, by the judge binary beside it (judge help validator).
dir=$(dirname "$0")
exec "$dir/optjudge" validator %s -- "$dir/puzzle.yaml" "$@"
`

const readme = `This %s validator is a puzzle definition (puzzle.yaml) judged by optjudge,
the binary beside it (a Linux x86-64 executable; "optjudge help validator"
says how it is called). It needs nothing else from the host. The first check
of a puzzle with a table builds the table (a second or so) in optjudge's
cache directory, or where it cannot write there in $TMPDIR/optjudge-puzzles,
and later checks read it.
`

// writeDir writes the package into the new directory out.
func (x *exporter) writeDir(out string) error {
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	for _, name := range x.names() {
		dst := filepath.Join(out, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		if l := x.files[name].link; l != "" {
			if err := os.Symlink(l, dst); err != nil {
				return err
			}
			continue
		}
		b, f, err := x.read(name)
		if err != nil {
			return err
		}
		if err := os.WriteFile(dst, b, f.mode); err != nil {
			return err
		}
	}
	return nil
}

// writeZip writes the package into the zip file out, its files at the
// root, each directory with an entry of its own (DOMjudge finds a
// submission of several files by its directory's entry), modes kept.
func (x *exporter) writeZip(out string) (err error) {
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return err
	}
	f, err := os.OpenFile(out, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			os.Remove(out)
		}
	}()
	zw := zip.NewWriter(f)
	stamp := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC) // the same bytes for the same package
	dirs := map[string]bool{}
	for _, name := range x.names() {
		var missing []string
		for d := path.Dir(name); d != "." && !dirs[d]; d = path.Dir(d) {
			dirs[d] = true
			missing = append(missing, d)
		}
		for i := len(missing) - 1; i >= 0; i-- {
			h := &zip.FileHeader{Name: missing[i] + "/", Modified: stamp}
			h.SetMode(fs.ModeDir | 0o755)
			if _, err := zw.CreateHeader(h); err != nil {
				return err
			}
		}
		b, fl, err := x.read(name)
		if err != nil {
			return err
		}
		h := &zip.FileHeader{Name: name, Method: zip.Deflate, Modified: stamp}
		h.SetMode(fl.mode)
		w, err := zw.CreateHeader(h)
		if err != nil {
			return err
		}
		if _, err := w.Write(b); err != nil {
			return err
		}
	}
	return zw.Close()
}

// names lists the package's files, sorted, directories' files after the
// directory's own (so that a zip's directory entries come first).
func (x *exporter) names() []string {
	names := make([]string, 0, len(x.files))
	for n := range x.files {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

func (x *exporter) read(name string) ([]byte, file, error) {
	f := x.files[name]
	if f.data != nil || f.src == "" {
		return f.data, f, nil
	}
	var b []byte
	var err error
	if f.disk {
		b, err = os.ReadFile(f.src)
	} else {
		b, err = fs.ReadFile(x.p.Package.FS, f.src)
	}
	if err != nil {
		return nil, f, fmt.Errorf("reading %s: %w", f.src, err)
	}
	if f.mode == 0 {
		f.mode = 0o644
	}
	return b, f, nil
}

// move renames every file below (or at) from to be below (or at) to.
func (x *exporter) move(from, to string) {
	for name, f := range x.files {
		if name == from || strings.HasPrefix(name, from+"/") {
			delete(x.files, name)
			x.files[to+strings.TrimPrefix(name, from)] = f
		}
	}
}

// remove drops every file below (or at) name.
func (x *exporter) remove(name string) int {
	n := 0
	for f := range x.files {
		if f == name || strings.HasPrefix(f, name+"/") {
			delete(x.files, f)
			n++
		}
	}
	return n
}
