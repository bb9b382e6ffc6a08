package maintain

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
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

// validate checks every made input of the sample and secret tests with
// the package's input validators, each test with its group's arguments
// as the package will have them: the package is loaded with the made
// data/ in place of its own. A refused input fails its test. A validator
// that accepted an input with the same arguments before is not run again.
func (g *dataGen) validate(ctx context.Context) error {
	want, owner := g.files()
	scratch := filepath.Join(g.tmp, "data")
	for p, b := range want {
		dst := filepath.Join(g.tmp, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(dst, b, 0o644); err != nil {
			return err
		}
	}
	if err := os.MkdirAll(scratch, 0o755); err != nil {
		return err
	}
	made, err := problems.Load(overlayFS{base: g.p.Package.FS, data: os.DirFS(scratch)}, g.p.Package.Origin)
	var tests []kattis.Test
	if err == nil {
		tests, err = made.Package.Tests()
	}
	if err != nil {
		// validate each input on its own, with the validators' own
		// arguments
		g.res.Warnings = append(g.res.Warnings, kattis.Warning{File: g.res.File,
			Msg: fmt.Sprintf("the data/ it makes does not load as the package's tests (%v): inputs validated without their groups' arguments", oneLineErr(err))})
		made, tests = g.p, nil
		for path := range want {
			if test, ext, ok := testOf(path); ok && ext == ".in" && (strings.HasPrefix(path, "data/sample/") || strings.HasPrefix(path, "data/secret/")) {
				tests = append(tests, kattis.Test{Name: test, FS: os.DirFS(g.tmp), In: path, Origin: g.p.Package.Origin})
			}
		}
	}
	if len(made.Package.InputValidators) == 0 {
		return nil
	}
	byTest := map[string]*generatorsCase{}
	for _, t := range tests {
		test := owner[t.In]
		if test == "" {
			continue
		}
		byTest[t.Name] = &generatorsCase{test: t, path: test}
	}
	if len(byTest) == 0 {
		return nil
	}
	keys := map[string]string{}
	var progs []kattis.Program // those the judge runs: a .ctd or .viva needs its tool
	for _, prog := range made.Package.InputValidators {
		if tool := prog.Kind.Tool(); tool != "" {
			if _, err := g.o.Judge.LookPath(tool); err != nil {
				continue
			}
		}
		progs = append(progs, prog)
		keys[prog.Name()] = treeHash(made.Package.FS, prog.Path)
	}
	names := make([]string, 0, len(byTest))
	for n := range byTest {
		names = append(names, n)
	}
	sort.Strings(names)
	// the validations not in the cache; the validators are built only
	// when there is one
	type check struct {
		c    *generatorsCase
		prog kattis.Program
		args []string
		in   []byte
		key  string
	}
	var todo []check
	for _, n := range names {
		c := byTest[n]
		in, err := c.test.Input()
		if err != nil {
			return err
		}
		for _, prog := range progs {
			args := made.Package.InputValidatorArgs(c.test, prog)
			key := cacheKey("valid", keys[prog.Name()], append([]string{prog.Name()}, args...), in)
			if _, ok := g.cached(key); !ok {
				todo = append(todo, check{c, prog, args, in, key})
			}
		}
	}
	if len(todo) == 0 {
		return nil
	}
	g.step("building the input validators")
	validators, err := g.o.Judge.InputValidators(ctx, made, g.o.Build.Languages)
	if err != nil {
		return fmt.Errorf("the input validators: %w", err)
	}
	g.step(fmt.Sprintf("validating %d inputs", len(names)))
	refused := map[string]bool{}
	for _, ck := range todo {
		if refused[ck.c.path] {
			continue
		}
		for _, v := range validators {
			if v.Program != ck.prog.Name() {
				continue
			}
			x := *v
			x.Args = ck.args
			why, err := x.Validate(ctx, ck.in)
			if err != nil {
				return err
			}
			if why != "" {
				refused[ck.c.path] = true
				g.invalid(ck.c.path, fmt.Sprintf("the input is invalid: %s", why))
				break
			}
			if err := g.store(ck.key, nil); err != nil {
				return err
			}
		}
	}
	return nil
}

// oneLineErr is an error's message on one line.
func oneLineErr(err error) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(err.Error(), "\n", "; ")), " ")
}

type generatorsCase struct {
	test kattis.Test
	path string // the made test it is, "secret/03"
}

// invalid fails the made test at path (a test of generators.yaml or an
// included copy) for an invalid input.
func (g *dataGen) invalid(path, msg string) {
	for t := range g.made {
		if t.Path == path {
			g.fail(t, commandOf(t), "%s", msg)
			return
		}
	}
	g.refused[path] = true
	g.res.Failures = append(g.res.Failures, GenerateFailure{Test: path, Msg: msg + " (an included copy, with this group's arguments)"})
}

// treeHash hashes a program's files in fsys (a file, or a directory's
// files by their names), for the cache's keys.
func treeHash(fsys fs.FS, name string) string {
	h := sha256.New()
	fs.WalkDir(fsys, name, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		b, err := fs.ReadFile(fsys, p)
		if err != nil {
			return nil
		}
		fmt.Fprintf(h, "file %q %d\n", p, len(b))
		h.Write(b)
		return nil
	})
	return hex.EncodeToString(h.Sum(nil))
}

// overlayFS is a package with another data/: the package's files but
// data/, which comes from data (the made data, rooted at data/).
type overlayFS struct {
	base, data fs.FS
}

func (o overlayFS) route(name string) (fs.FS, string) {
	if name == "data" {
		return o.data, "."
	}
	if rest, ok := strings.CutPrefix(name, "data/"); ok {
		return o.data, rest
	}
	return o.base, name
}

func (o overlayFS) Open(name string) (fs.File, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	f, n := o.route(name)
	return f.Open(n)
}

func (o overlayFS) Stat(name string) (fs.FileInfo, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "stat", Path: name, Err: fs.ErrInvalid}
	}
	f, n := o.route(name)
	return fs.Stat(f, n)
}

func (o overlayFS) ReadDir(name string) ([]fs.DirEntry, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: fs.ErrInvalid}
	}
	if name != "." {
		f, n := o.route(name)
		return fs.ReadDir(f, n)
	}
	ents, err := fs.ReadDir(o.base, ".")
	if err != nil {
		return nil, err
	}
	out := ents[:0]
	for _, e := range ents {
		if e.Name() != "data" {
			out = append(out, e)
		}
	}
	if st, err := fs.Stat(o.data, "."); err == nil {
		out = append(out, fs.FileInfoToDirEntry(renamedInfo{st, "data"}))
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name() < out[j].Name() })
	return out, nil
}

type renamedInfo struct {
	fs.FileInfo
	name string
}

func (r renamedInfo) Name() string { return r.name }

// write applies the changes to data/: new and changed files written,
// removed ones deleted; with Clean, the stale files deleted when an
// earlier run wrote them, else moved to the trash.
func (g *dataGen) write() error {
	want, _ := g.files()
	written, err := g.loadWritten()
	if err != nil {
		return err
	}
	for i, f := range g.res.Files {
		dst := filepath.Join(g.p.Dir, filepath.FromSlash(f.Path))
		switch {
		case f.Change == New || f.Change == Changed:
			if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
				return err
			}
			if err := writeFileAtomic(dst, want[f.Path]); err != nil {
				return err
			}
		case f.Change == Removed:
			if err := os.Remove(dst); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return err
			}
			delete(written, f.Path)
		case f.Change == Stale && g.o.Clean && written[f.Path]:
			if err := os.Remove(dst); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return err
			}
			g.res.Files[i].Change = Removed
			delete(written, f.Path)
		case f.Change == Stale && g.o.Clean:
			if err := g.trash(f.Path); err != nil {
				return err
			}
			g.res.Files[i].Change = Trashed
		}
	}
	for _, d := range g.cfg.Dirs() {
		// as BAPCtools, every directory of generators.yaml, empty or not
		if err := os.MkdirAll(filepath.Join(g.p.Dir, "data", filepath.FromSlash(d.Path)), 0o755); err != nil {
			return err
		}
	}
	for p := range want {
		written[p] = true
	}
	if g.o.Clean {
		removeEmptyDirs(filepath.Join(g.p.Dir, "data"))
	}
	return g.saveWritten(written)
}

// writeFileAtomic replaces a file by a new one written beside it, so that
// an interrupted run never leaves half a file.
func writeFileAtomic(dst string, b []byte) error {
	tmp := dst + ".optjudge-tmp"
	if err := os.WriteFile(tmp, b, 0o644); err != nil {
		return err
	}
	if err := os.Rename(tmp, dst); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}

// trash moves a file of data/ that no run of GenerateData wrote into the
// cache's trash directory (one per run), keeping its path.
func (g *dataGen) trash(rel string) error {
	if g.res.Trash == "" {
		g.res.Trash = filepath.Join(g.o.Cache, "trash", time.Now().Format("20060102-150405.000000000"))
	}
	dst := filepath.Join(g.res.Trash, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	src := filepath.Join(g.p.Dir, filepath.FromSlash(rel))
	if err := os.Rename(src, dst); err == nil {
		return nil
	}
	b, err := os.ReadFile(src) // another file system
	if err != nil {
		return err
	}
	if err := os.WriteFile(dst, b, 0o644); err != nil {
		return err
	}
	return os.Remove(src)
}

// removeEmptyDirs removes the empty directories below root (not root).
func removeEmptyDirs(root string) {
	var dirs []string
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() && p != root {
			dirs = append(dirs, p)
		}
		return nil
	})
	for i := len(dirs) - 1; i >= 0; i-- {
		os.Remove(dirs[i]) // fails unless empty
	}
}

// writtenFile is where the files GenerateData wrote into a package's
// data/ are listed: in the cache, by the package's absolute path.
func (g *dataGen) writtenFile() string {
	abs, err := filepath.Abs(g.p.Dir)
	if err != nil {
		abs = g.p.Dir
	}
	sum := sha256.Sum256([]byte(abs))
	return filepath.Join(g.o.Cache, "written", hex.EncodeToString(sum[:16])+".json")
}

type writtenList struct {
	Package string   `json:"package"`
	Files   []string `json:"files"`
}

func (g *dataGen) loadWritten() (map[string]bool, error) {
	out := map[string]bool{}
	b, err := os.ReadFile(g.writtenFile())
	if errors.Is(err, fs.ErrNotExist) {
		return out, nil
	}
	if err != nil {
		return nil, err
	}
	var l writtenList
	if json.Unmarshal(b, &l) == nil {
		for _, f := range l.Files {
			out[path.Clean(f)] = true
		}
	}
	return out, nil
}

func (g *dataGen) saveWritten(written map[string]bool) error {
	l := writtenList{Package: g.p.Dir}
	for f := range written {
		l.Files = append(l.Files, f)
	}
	sort.Strings(l.Files)
	b, err := json.MarshalIndent(l, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(g.writtenFile()), 0o755); err != nil {
		return err
	}
	return writeFileAtomic(g.writtenFile(), append(b, '\n'))
}
