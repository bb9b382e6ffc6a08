package maintain

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing/fstest"
	"time"

	"github.com/optjudge/optjudge/judge"
	"github.com/optjudge/optjudge/problems"
	"github.com/optjudge/optjudge/problems/generators"
	"github.com/optjudge/optjudge/problems/kattis"
	"github.com/optjudge/optjudge/specfile"
)

// GeneratorTimeout is the CPU time one run of a generator, or of the
// solution that answers its input, gets by default: BAPCtools'
// generator_time. The wall clock gets twice as much.
const GeneratorTimeout = 60 * time.Second

// GenerateDataOptions tune GenerateData.
type GenerateDataOptions struct {
	// Judge builds and runs the generators and solutions in its sandbox;
	// Build gives the language table.
	Judge *judge.Judge
	Build judge.BuildOptions
	// Parallel is how many programs run at once; 0 or 1: one at a time.
	Parallel int
	// Timeout is the CPU time of one generator or solution run; 0 is
	// GeneratorTimeout.
	Timeout time.Duration
	// Cache is the directory of the generators' and solutions' earlier
	// outputs, by what made them; "" is the Judge's cache directory's
	// generate/.
	Cache string
	// DryRun makes the data and compares it with data/, writing nothing
	// (judge verify's check that data/ is up to date).
	DryRun bool
	// Clean removes the files of data/ that generators.yaml does not
	// make: those an earlier GenerateData wrote are deleted, any other is
	// moved to a trash directory in the cache (Result.Trash).
	Clean bool
	// Progress, when set, is told each long step before it starts.
	Progress func(step string)
}

// Change is what GenerateData did to a file of data/.
type Change int

const (
	Unchanged Change = iota
	New
	Changed
	Removed // a file of a test that its rule no longer makes
	Stale   // a file no rule makes: left alone, or removed with Clean
	Trashed // such a file that GenerateData had not written, moved to the trash with Clean
)

func (c Change) String() string {
	return [...]string{"unchanged", "new", "changed", "removed", "stale", "trashed"}[c]
}

// FileChange is one file of data/ and what GenerateData did to it (or,
// in a dry run, would do).
type FileChange struct {
	Path   string // relative to the package, "data/secret/01.in"
	Test   string // the test it belongs to, "secret/01"; "" for a group's file or a stale file
	Change Change
}

// GenerateFailure is a test GenerateData could not make: its files in
// data/ are left as they were.
type GenerateFailure struct {
	Test    string // "secret/03-random"
	Command string // the generator's command with its seed, or the solution; "" when no program failed
	Msg     string
}

func (f GenerateFailure) String() string {
	if f.Command == "" {
		return fmt.Sprintf("%s: %s", f.Test, f.Msg)
	}
	return fmt.Sprintf("%s: %s: %s", f.Test, f.Command, f.Msg)
}

// GenerateDataResult is what GenerateData made.
type GenerateDataResult struct {
	File     string // generators.yaml, as the problem's origin names it
	Tests    int    // the tests generators.yaml makes (included copies counted)
	Files    []FileChange
	Failures []GenerateFailure
	Warnings []kattis.Warning
	// Solution is the default solution that answered the tests whose
	// rule names none ("" when none did).
	Solution string
	// Runs are the generator and solution runs done now; Cached those
	// whose output came from the cache.
	Runs, Cached int
	// Trash is where Clean moved files GenerateData had not written; ""
	// when it moved none.
	Trash string
}

// Count is how many files had change c.
func (r *GenerateDataResult) Count(c Change) int {
	n := 0
	for _, f := range r.Files {
		if f.Change == c {
			n++
		}
	}
	return n
}

// OutOfDate lists what in data/ differs from what generators.yaml makes:
// the tests with a file missing, changed or to remove, and the group
// files (by path), sorted.
func (r *GenerateDataResult) OutOfDate() []string {
	seen := map[string]bool{}
	for _, f := range r.Files {
		switch {
		case f.Change == Unchanged || f.Change == Stale || f.Change == Trashed:
		case f.Test != "":
			seen[f.Test] = true
		default:
			seen[f.Path] = true
		}
	}
	out := make([]string, 0, len(seen))
	for t := range seen {
		out = append(out, t)
	}
	sort.Strings(out)
	return out
}

// HasGenerators says whether p's data is made by BAPCtools'
// generators/generators.yaml.
func HasGenerators(p *problems.Problem) bool {
	st, err := fs.Stat(p.Package.FS, generators.File)
	return err == nil && st.Mode().IsRegular()
}

// GenerateData writes p's data/ from its generators/generators.yaml, as
// BAPCtools' `bt generate` does: each test's .in from its generator, run
// in the sandbox with its arguments and seed (or copied, or written
// inline), checked by the input validators, its .ans from its solution
// (or the package's model solution), the test_group.yaml of each
// directory, the included tests copied in. Only files whose content
// changes are written; a program's output is cached by the program's
// build and its arguments (or input), so an unchanged rule never runs its
// program again. A test that cannot be made is a failure in the result
// (its files are left as they were); an error in generators.yaml is an
// error (problems.SpecErrors, each naming the line and the field).
func GenerateData(ctx context.Context, p *problems.Problem, o GenerateDataOptions) (*GenerateDataResult, error) {
	if p.Dir == "" {
		return nil, fmt.Errorf("%s: generating data needs a package on disk", p.Package.Origin)
	}
	cfg, err := generators.Load(p.Package.FS, p.Package.Origin, generators.Options{Interactive: p.Package.Type.Interactive || p.Package.Type.MultiPass, Constants: p.Package.Constants})
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%s: no %s", p.Package.Origin, generators.File)
	}
	if err != nil {
		return nil, err
	}
	if o.Timeout <= 0 {
		o.Timeout = GeneratorTimeout
	}
	if o.Cache == "" {
		o.Cache = filepath.Join(o.Judge.CacheDir(), "generate")
	}
	tmp, err := os.MkdirTemp(o.Judge.TempDir(), "generate-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	g := &dataGen{p: p, cfg: cfg, o: o, tmp: tmp, res: &GenerateDataResult{File: p.Package.Origin + "/" + generators.File, Warnings: cfg.Warnings},
		made: map[*generators.Case]*madeCase{}, refused: map[string]bool{}}
	if err := g.make(ctx); err != nil {
		return nil, err
	}
	if err := g.validate(ctx); err != nil {
		return nil, err
	}
	if err := g.compare(); err != nil {
		return nil, err
	}
	if !o.DryRun {
		if err := g.write(); err != nil {
			return nil, err
		}
	}
	return g.res, nil
}

// dataGen is one GenerateData.
type dataGen struct {
	p   *problems.Problem
	cfg *generators.Config
	o   GenerateDataOptions
	tmp string
	res *GenerateDataResult

	made    map[*generators.Case]*madeCase
	refused map[string]bool // included copies whose input their group's validators refused
}

// madeCase is a test's files as made, by extension.
type madeCase struct {
	files  map[string][]byte
	failed bool
}

func (g *dataGen) step(s string) {
	if g.o.Progress != nil {
		g.o.Progress(s)
	}
}

func (g *dataGen) fail(t *generators.Case, command, format string, args ...any) {
	g.made[t].failed = true
	g.res.Failures = append(g.res.Failures, GenerateFailure{Test: t.Path, Command: command, Msg: fmt.Sprintf(format, args...)})
}

func (g *dataGen) warn(t *generators.Case, format string, args ...any) {
	g.res.Warnings = append(g.res.Warnings, kattis.Warning{File: g.res.File, Line: t.Line, Field: t.Path, Msg: fmt.Sprintf(format, args...)})
}

// commandOf shows a test's generator command with its seed, for messages.
func commandOf(t *generators.Case) string {
	if t.Generate == nil {
		return ""
	}
	return "`" + strings.Join(append([]string{strings.TrimPrefix(t.Generate.Program, "generators/")}, t.Generate.Argv(t.Seed)...), " ") + "`"
}

// make makes every test's files, in BAPCtools' steps: the generator, the
// copied files, the inline ones, the links, then the answers.
func (g *dataGen) make(ctx context.Context) error {
	cases := g.cfg.Cases()
	for _, t := range cases {
		g.made[t] = &madeCase{files: map[string][]byte{}}
	}
	if err := g.runGenerators(ctx, cases); err != nil {
		return err
	}
	for _, t := range cases {
		m := g.made[t]
		if m.failed {
			continue
		}
		if t.Copy != "" {
			g.copyFiles(t, m)
		}
		for ext, b := range t.Inline {
			m.files[ext] = b
		}
		for from, to := range t.Links {
			b, ok := m.files[to]
			if !ok {
				g.fail(t, "", "%s links to %s, which the test does not have", from[1:], to[1:])
				continue
			}
			m.files[from] = b
		}
		if !m.failed && !hasInput(t, m.files) {
			g.fail(t, commandOf(t), "no .in was made (the generator wrote no testcase.in and nothing to standard output)")
		}
	}
	if err := g.answer(ctx, cases); err != nil {
		return err
	}
	for _, t := range cases {
		if m := g.made[t]; !m.failed {
			g.match(t, m)
		}
	}
	g.res.Tests = len(cases)
	for _, d := range g.cfg.Dirs() {
		g.res.Tests += len(d.Includes)
	}
	return nil
}

// hasInput says whether a test has what stands for its input: an .in, or
// for a sample the statement's and download's files.
func hasInput(t *generators.Case, files map[string][]byte) bool {
	if _, ok := files[".in"]; ok {
		return true
	}
	if t.Root != "sample" {
		return false
	}
	_, st := files[".in.statement"]
	_, it := files[".interaction"]
	_, dl := files[".in.download"]
	return (st || it) && dl
}

// copyFiles copies a test's copy: files, every extension there is.
func (g *dataGen) copyFiles(t *generators.Case, m *madeCase) {
	n := 0
	for _, ext := range generators.Extensions {
		b, err := fs.ReadFile(g.p.Package.FS, t.Copy+ext)
		if err != nil {
			continue
		}
		m.files[ext] = b
		n++
	}
	if n == 0 {
		g.fail(t, "", "copy: %s: no file %s.in (nor .ans, ...) to copy", strings.TrimPrefix(t.Copy, "generators/"), t.Copy)
	}
}

// match warns about a test whose .in or .ans does not match its patterns.
func (g *dataGen) match(t *generators.Case, m *madeCase) {
	for _, ext := range []string{".in", ".ans"} {
		for _, pat := range t.Match[ext] {
			b, ok := m.files[ext]
			if !ok {
				g.warn(t, "match: no %s to match %q", ext, pat)
				continue
			}
			if re, err := generators.CompilePattern(pat); err == nil && !re.Match(b) {
				g.warn(t, "match: the %s does not match %q", ext, pat)
			}
		}
	}
}

// noAnswerRoots are the directories whose tests get no answer from a
// solution: the validators' own tests, and BAPCtools' testing-tool tests.
var noAnswerRoots = map[string]bool{"invalid_input": true, "invalid_answer": true, "invalid_output": true, "valid_output": true, "testing_tool_test": true}

// needsAnswer says whether a test of root must have an .ans in the end.
func needsAnswer(root string) bool { return root != "invalid_input" && root != "testing_tool_test" }

// answer gives each test without an .ans one: empty for an interactive or
// multi-pass problem, else its solution's output on its .in: the rule's,
// else a puzzle package's reference (its definition), else the default
// solution.
func (g *dataGen) answer(ctx context.Context, cases []*generators.Case) error {
	interactive := g.p.Package.Type.Interactive || g.p.Package.Type.MultiPass
	bySolution := map[string][]*generators.Case{}
	var order []string
	for _, t := range cases {
		m := g.made[t]
		_, hasAns := m.files[".ans"]
		_, hasIn := m.files[".in"]
		switch {
		case m.failed || hasAns:
			continue
		case interactive && hasIn && t.Root != "invalid_input":
			m.files[".ans"] = []byte{}
			continue
		case !hasIn && t.Root == "sample" && interactive:
			m.files[".ans"] = []byte{}
			continue
		case !hasIn:
			continue
		case noAnswerRoots[t.Root] || t.NoSolution:
			why := "the rule has solution: null"
			if !t.NoSolution {
				why = t.Root + " tests get none from a solution"
			}
			if needsAnswer(t.Root) {
				g.fail(t, commandOf(t), "no .ans was made, and %s", why)
			}
			continue
		}
		sol := t.Solution
		if sol == "" && g.p.Reference != nil {
			// a puzzle's definition is the exact reference
			ans, err := g.p.Reference.Solve(m.files[".in"])
			if err != nil {
				g.fail(t, "", "no .ans was made: the definition's reference (puzzle.yaml): %v", err)
				continue
			}
			m.files[".ans"] = ans
			continue
		}
		if sol == "" {
			def, err := g.defaultSolution()
			if err != nil {
				g.fail(t, "", "no .ans was made, and %v", err)
				continue
			}
			sol = def
		}
		if _, ok := bySolution[sol]; !ok {
			order = append(order, sol)
		}
		bySolution[sol] = append(bySolution[sol], t)
	}
	for _, sol := range order {
		if err := g.runSolution(ctx, sol, bySolution[sol]); err != nil {
			return err
		}
	}
	return nil
}

// defaultSolution is the solution of the tests whose rule names none:
// the package's model solution, else its first accepted submission (by
// name); BAPCtools picks one at random and writes it into
// generators.yaml, this one is always the same and generators.yaml is
// left alone.
func (g *dataGen) defaultSolution() (string, error) {
	if g.res.Solution != "" {
		return g.res.Solution, nil
	}
	pick, err := defaultSubmission(g.p)
	if err != nil {
		return "", err
	}
	if pick == nil {
		return "", fmt.Errorf("generators.yaml names no solution: and the package has no accepted submission")
	}
	g.res.Solution = pick.Path
	return pick.Path, nil
}

// defaultSubmission is the package's model solution, else its first
// accepted submission; nil when it has neither.
func defaultSubmission(p *problems.Problem) (*kattis.ExampleSubmission, error) {
	list, err := p.Package.Submissions()
	if err != nil {
		return nil, err
	}
	var pick *kattis.ExampleSubmission
	for i, sub := range list.Submissions {
		if sub.ModelSolution {
			return &list.Submissions[i], nil
		}
		if pick == nil && sub.Folder == "accepted" {
			pick = &list.Submissions[i]
		}
	}
	return pick, nil
}

// files lists what GenerateData makes, by path relative to the package:
// every test's files, the included copies and the group files.
func (g *dataGen) files() (map[string][]byte, map[string]string) {
	out, owner := map[string][]byte{}, map[string]string{}
	add := func(test string, m *madeCase) {
		for ext, b := range m.files {
			path := "data/" + test + ext
			out[path], owner[path] = b, test
		}
	}
	for _, d := range g.cfg.Dirs() {
		if d.GroupFile != "" && !d.RemoveGroupFile {
			out[joinData(d.Path, d.GroupFile)] = d.GroupYAML
		}
		for _, it := range d.Items {
			if it.Case != nil && !g.made[it.Case].failed {
				add(it.Case.Path, g.made[it.Case])
			}
		}
		for _, t := range d.Includes {
			if at := joinPath(d.Path, filepath.Base(t.Path)); !g.made[t].failed && !g.refused[at] {
				add(at, g.made[t])
			}
		}
	}
	return out, owner
}

func joinData(dir, name string) string { return "data/" + joinPath(dir, name) }

func joinPath(dir, name string) string {
	if dir == "" {
		return name
	}
	return dir + "/" + name
}

// failedTests are the tests (included copies too) whose files are left
// as they are.
func (g *dataGen) failedTests() map[string]bool {
	out := map[string]bool{}
	for _, d := range g.cfg.Dirs() {
		for _, it := range d.Items {
			if it.Case != nil && g.made[it.Case].failed {
				out[it.Case.Path] = true
			}
		}
		for _, t := range d.Includes {
			if at := joinPath(d.Path, filepath.Base(t.Path)); g.made[t].failed || g.refused[at] {
				out[at] = true
			}
		}
	}
	return out
}

// testOf is the test a file of data/ belongs to: its path without data/
// and the longest extension of a test's files.
func testOf(path string) (string, string, bool) {
	rel := strings.TrimPrefix(path, "data/")
	for _, ext := range longestFirst {
		if strings.HasSuffix(rel, ext) {
			return strings.TrimSuffix(rel, ext), ext, true
		}
	}
	return "", "", false
}

var longestFirst = func() []string {
	exts := append([]string(nil), generators.Extensions...)
	sort.SliceStable(exts, func(i, j int) bool { return len(exts[i]) > len(exts[j]) })
	return exts
}()

// compare sets the result's files: every file made, new, changed or the
// same as in data/, the files of made tests that their rule no longer
// makes (removed), and the files no rule makes (stale).
func (g *dataGen) compare() error {
	want, owner := g.files()
	failed := g.failedTests()
	have, err := g.dataFiles()
	if err != nil {
		return err
	}
	var paths []string
	for path := range want {
		paths = append(paths, path)
	}
	sort.Strings(paths)
	for _, path := range paths {
		old, err := os.ReadFile(filepath.Join(g.p.Dir, filepath.FromSlash(path)))
		c := Unchanged
		switch {
		case errors.Is(err, fs.ErrNotExist):
			c = New
		case err != nil:
			return err
		case !bytes.Equal(old, want[path]):
			c = Changed
		}
		g.res.Files = append(g.res.Files, FileChange{Path: path, Test: owner[path], Change: c})
	}
	made := map[string]bool{}
	removeGroup := map[string]bool{}
	for _, d := range g.cfg.Dirs() {
		if d.RemoveGroupFile {
			removeGroup[joinData(d.Path, d.GroupFile)] = true
		}
		for _, it := range d.Items {
			if it.Case != nil {
				made[it.Case.Path] = true
			}
		}
		for _, t := range d.Includes {
			made[joinPath(d.Path, filepath.Base(t.Path))] = true
		}
	}
	for _, path := range have {
		if _, ok := want[path]; ok {
			continue
		}
		test, _, isTest := testOf(path)
		switch {
		case isTest && failed[test]:
			// left as it was
		case isTest && made[test]:
			g.res.Files = append(g.res.Files, FileChange{Path: path, Test: test, Change: Removed})
		case removeGroup[path]:
			g.res.Files = append(g.res.Files, FileChange{Path: path, Change: Removed})
		default:
			g.res.Files = append(g.res.Files, FileChange{Path: path, Change: Stale})
		}
	}
	return nil
}

// dataFiles lists the files below data/, sorted.
func (g *dataGen) dataFiles() ([]string, error) {
	var out []string
	root := filepath.Join(g.p.Dir, "data")
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if errors.Is(err, fs.ErrNotExist) && path == root {
			return fs.SkipAll
		}
		if err != nil {
			return err
		}
		if d.IsDir() {
			return nil
		}
		rel, _ := filepath.Rel(g.p.Dir, path)
		out = append(out, filepath.ToSlash(rel))
		return nil
	})
	sort.Strings(out)
	return out, err
}

// checkGenerated checks that a package's data/ is what its
// generators/generators.yaml makes: it makes the data (from the cache
// where the programs ran before) and compares, writing nothing. The tests
// that differ are one warning; a test that cannot be made, or an error in
// generators.yaml, is an error.
func (v *verifier) checkGenerated(ctx context.Context) error {
	v.step("checking data/ against " + generators.File)
	res, err := GenerateData(ctx, v.p, GenerateDataOptions{Judge: v.opts.Judge, Build: v.opts.Build,
		Parallel: v.opts.Grade.Parallel, Cache: v.opts.GeneratorCache, DryRun: true})
	var ses specfile.Errors
	switch {
	case errors.As(err, &ses):
		for _, se := range ses {
			v.add(Error, se.File, linePos(se.Line), "%s", fieldMsg(se.Field, se.Msg))
		}
		return nil
	case err != nil && ctx.Err() != nil:
		return ctx.Err()
	case err != nil:
		v.add(Error, v.file(generators.File), "", "%v", err)
		return nil
	}
	for _, w := range res.Warnings {
		v.add(Warning, w.File, linePos(w.Line), "%s", fieldMsg(w.Field, w.Msg))
	}
	for _, f := range res.Failures {
		v.add(Error, res.File, "", "%s", f)
	}
	if stale := outOfDate(res); stale != "" {
		v.add(Warning, v.file("data"), "", "out of date against %s: %s (judge generate rewrites them)", generators.File, stale)
	}
	for _, f := range res.Files {
		if f.Change == Stale {
			v.add(Warning, v.file(f.Path), "", "not made by %s (judge generate --clean removes it)", generators.File)
		}
	}
	return nil
}

// outOfDate names the tests of data/ that differ from what generators.yaml
// makes, with what differs: "secret/03 (.in changed), secret/04 (new)".
func outOfDate(res *GenerateDataResult) string {
	what := map[string][]string{}
	for _, f := range res.Files {
		if f.Change == Unchanged || f.Change == Stale || f.Change == Trashed {
			continue
		}
		name, ext := f.Path, ""
		if f.Test != "" {
			name, ext = f.Test, strings.TrimPrefix(f.Path, "data/"+f.Test)
		}
		what[name] = append(what[name], strings.TrimSpace(ext+" "+map[Change]string{New: "missing", Changed: "changed", Removed: "to remove"}[f.Change]))
	}
	names := res.OutOfDate()
	var parts []string
	for i, n := range names {
		if i == 10 {
			parts = append(parts, fmt.Sprintf("and %d more", len(names)-10))
			break
		}
		parts = append(parts, fmt.Sprintf("%s (%s)", n, strings.Join(what[n], ", ")))
	}
	return strings.Join(parts, ", ")
}

// LoadWithoutData loads the package in dir with its data/ left out: the
// package GenerateData needs when the data/ there does not load (an
// older one, or another tool's): data/ is what it writes. All of dir,
// data/ too, is checked as LoadDir checks it: GenerateData reads and
// writes the files of data/, and must not read a named pipe, nor write
// through a link out of the package.
func LoadWithoutData(dir string) (*problems.Problem, error) {
	if err := problems.CheckDir(dir); err != nil {
		return nil, err
	}
	p, err := problems.Load(overlayFS{base: os.DirFS(dir), data: fstest.MapFS{}}, dir)
	if err != nil {
		return nil, err
	}
	p.Dir = dir
	return p, nil
}
