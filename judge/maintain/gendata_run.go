package maintain

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/optjudge/optjudge/bytesize"
	"github.com/optjudge/optjudge/judge"
	"github.com/optjudge/optjudge/problems"
	"github.com/optjudge/optjudge/problems/generators"
	"github.com/optjudge/optjudge/problems/kattis"
	"github.com/optjudge/optjudge/verdict"
)

// generatorMemory is the memory a generator or solution run may use
// (BAPCtools' default for its programs).
const generatorMemory = 2 * bytesize.GiB

// program is a generator or solution of the package, as the judge builds
// it: its path on disk, its build options and the key of its build (the
// cache's key for its runs).
type genProgram struct {
	name      string // as generators.yaml names it, for messages
	path      string // on disk
	generator bool   // its files are testcase.*; else (a solution) its output is the .ans
	build     judge.BuildOptions
	key       string
	pp        *judge.Prepared // built on first use
	err       error           // why it did not build
}

// runLimits is the bare problem a generator or solution runs under.
func (g *dataGen) runLimits() *problems.Problem {
	return &problems.Problem{Name: g.p.Name, Package: kattis.Package{Origin: g.p.Package.Origin}, Limits: problems.Limits{
		Time: g.o.Timeout, Memory: generatorMemory, Output: generatorOutput}}
}

// generatorProgram finds a command's generator: an entry of generators:
// (its files copied into a directory of their own, the first the entry
// point), a directory or a file below generators/.
func (g *dataGen) generatorProgram(name string) (*genProgram, error) {
	gp := &genProgram{name: name, build: g.o.Build, generator: true}
	if deps, ok := g.cfg.Generators[name]; ok {
		dir := filepath.Join(g.tmp, "programs", filepath.FromSlash(name))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, err
		}
		for _, d := range deps {
			b, err := fs.ReadFile(g.p.Package.FS, d)
			if err != nil {
				return nil, fmt.Errorf("%s (generators: %s): %w", d, strings.TrimPrefix(name, "generators/"), unwrapFSError(err))
			}
			if b, err = g.p.Package.Constants.Substitute(b); err != nil {
				return nil, fmt.Errorf("%s (generators: %s): %w", d, strings.TrimPrefix(name, "generators/"), err)
			}
			if err := os.WriteFile(filepath.Join(dir, filepath.Base(d)), b, 0o755); err != nil {
				return nil, err
			}
		}
		gp.path, gp.build.Entry = dir, filepath.Base(deps[0])
	} else {
		path, err := g.inPackage(name)
		if err != nil {
			return nil, fmt.Errorf("%s: no such generator (a file or directory in generators/, or a key of generators:)", name)
		}
		gp.path = path
		if err := g.withConstants(gp, name); err != nil {
			return nil, err
		}
	}
	return gp, g.keyOf(gp)
}

// withConstants points gp at a copy of the generator name with
// problem.yaml's constants in place, when one of its files names one:
// BAPCtools' generators take the constants as the validators do. The
// copy's content is then what the build, and the cache's key, see.
func (g *dataGen) withConstants(gp *genProgram, name string) error {
	c := g.p.Package.Constants
	if len(c) == 0 {
		return nil
	}
	dst := filepath.Join(g.tmp, "constants", filepath.FromSlash(name))
	if err := copyOut(g.p.Package.FS, name, dst); err != nil {
		return fmt.Errorf("%s: %w", name, unwrapFSError(err))
	}
	changed := false
	err := filepath.WalkDir(dst, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		sub, err := c.Substitute(b)
		if err != nil {
			rel, _ := filepath.Rel(filepath.Dir(dst), p)
			return fmt.Errorf("%s: %w", path.Join(path.Dir(name), filepath.ToSlash(rel)), err)
		}
		if bytes.Equal(sub, b) {
			return nil
		}
		changed = true
		return os.WriteFile(p, sub, 0o644)
	})
	if err != nil || !changed {
		os.RemoveAll(dst)
		return err
	}
	gp.path = dst
	return nil
}

// solutionProgram finds a solution: a file or directory of the package,
// built with its submissions.yaml language and entry point.
func (g *dataGen) solutionProgram(name string) (*genProgram, error) {
	gp := &genProgram{name: name, build: g.o.Build}
	path, err := g.inPackage(name)
	if err != nil {
		return nil, fmt.Errorf("/%s: no such solution", name)
	}
	gp.path = path
	if list, err := g.p.Package.Submissions(); err == nil {
		for _, s := range list.Submissions {
			if s.Path == name {
				if s.Language != "" {
					gp.build.Lang = s.Language
				}
				gp.build.Entry = s.Entrypoint
			}
		}
	}
	return gp, g.keyOf(gp)
}

// inPackage is a program's path on disk, its symbolic links followed
// (BAPCtools' packages link generators to each other), never out of the
// package.
func (g *dataGen) inPackage(name string) (string, error) {
	root, err := filepath.EvalSymlinks(g.p.Dir)
	if err != nil {
		return "", err
	}
	path, err := filepath.EvalSymlinks(filepath.Join(g.p.Dir, filepath.FromSlash(name)))
	if err != nil {
		return "", err
	}
	if rel, err := filepath.Rel(root, path); err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
		return "", fmt.Errorf("%s: outside the package", name)
	}
	return path, nil
}

// keyOf sets the key of a program's build: the judge's build key, or for
// a directory with build and run scripts the hash of its files.
func (g *dataGen) keyOf(gp *genProgram) error {
	if judge.IsBuildRun(gp.path) {
		h := sha256.New()
		fmt.Fprintf(h, "build/run\n")
		err := filepath.WalkDir(gp.path, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(gp.path, p)
			info, _ := d.Info()
			fmt.Fprintf(h, "file %q %v %d\n", rel, info != nil && info.Mode()&0o100 != 0, len(b))
			h.Write(b)
			return nil
		})
		gp.key = hex.EncodeToString(h.Sum(nil))
		return err
	}
	key, err := g.o.Judge.BuildKey(judge.Submission{Path: gp.path}, gp.build)
	gp.key = key
	return err
}

// prepare builds a program once.
func (g *dataGen) prepare(ctx context.Context, gp *genProgram) error {
	if gp.pp != nil || gp.err != nil {
		return gp.err
	}
	g.step("building " + gp.name)
	pp, err := g.o.Judge.Prepare(ctx, judge.Submission{Path: gp.path}, gp.build)
	switch {
	case err != nil && ctx.Err() != nil:
		return ctx.Err()
	case err != nil:
		gp.err = err
	case !pp.Compile.OK:
		pp.Close()
		gp.err = fmt.Errorf("does not build:\n%s", firstLines(pp.Compile.Message, 20))
	default:
		gp.pp = pp
	}
	return nil
}

func (g *dataGen) closePrograms(progs []*genProgram) {
	for _, gp := range progs {
		if gp != nil && gp.pp != nil {
			gp.pp.Close()
		}
	}
}

// firstLines is s cut to its first n lines.
func firstLines(s string, n int) string {
	lines := strings.SplitAfter(s, "\n")
	if len(lines) > n {
		lines = append(lines[:n], "...\n")
	}
	return strings.TrimRight(strings.Join(lines, ""), "\n")
}

// runGenerators runs each test's generator, from the cache where it ran
// before: tests of one generator in one batch, the failing ones again
// with seed+1 while their retries last.
func (g *dataGen) runGenerators(ctx context.Context, cases []*generators.Case) error {
	byProgram := map[string][]*generators.Case{}
	for _, t := range cases {
		if t.Generate != nil {
			byProgram[t.Generate.Program] = append(byProgram[t.Generate.Program], t)
		}
	}
	names := make([]string, 0, len(byProgram))
	for name := range byProgram {
		names = append(names, name)
	}
	sort.Strings(names)
	var progs []*genProgram
	defer func() { g.closePrograms(progs) }()
	for _, name := range names {
		gp, err := g.generatorProgram(name)
		if err != nil {
			for _, t := range byProgram[name] {
				g.fail(t, commandOf(t), "%v", err)
			}
			continue
		}
		progs = append(progs, gp)
		if err := g.runGenerator(ctx, gp, byProgram[name]); err != nil {
			return err
		}
	}
	return nil
}

// genRun is one program run to do: its arguments, its standard input,
// and where its output goes.
type genRun struct {
	t     *generators.Case
	args  []string
	stdin []byte
	key   string
	seed  uint32
}

func (g *dataGen) runGenerator(ctx context.Context, gp *genProgram, cases []*generators.Case) error {
	runs := make([]genRun, len(cases))
	for i, t := range cases {
		runs[i] = genRun{t: t, seed: t.Seed}
	}
	for try := 0; len(runs) > 0; try++ {
		for i := range runs {
			runs[i].seed = uint32((uint64(runs[i].t.Seed) + uint64(try)) % (1 << 31))
			runs[i].args = runs[i].t.Generate.Argv(runs[i].seed)
			runs[i].key = cacheKey("generator", gp.key, runs[i].args, nil)
		}
		outs, errs, err := g.runAll(ctx, gp, runs)
		if err != nil {
			return err
		}
		var again []genRun
		for i, r := range runs {
			m := g.made[r.t]
			if errs[i] == nil {
				m.files = outs[i]
				continue
			}
			if try+1 < r.t.Retries && errs[i].retry {
				again = append(again, r)
				continue
			}
			how := errs[i].msg
			if try > 0 {
				how = fmt.Sprintf("%s (tried %d times, seed+1 each time)", how, try+1)
			}
			g.fail(r.t, commandOf(r.t), "%s", how)
		}
		runs = again
	}
	return nil
}

// runError is why a run did not give a test its files.
type runError struct {
	msg   string
	retry bool // it crashed: another seed may do
}

// runAll gives each run's files: from the cache, or by running the
// program (built on the first run the cache does not have) in the
// sandbox, one test each, its working directory kept to collect the
// files it wrote (testcase.in, testcase.ans, ...); its standard output is
// the .in when it wrote no testcase.in.
func (g *dataGen) runAll(ctx context.Context, gp *genProgram, runs []genRun) ([]map[string][]byte, []*runError, error) {
	outs := make([]map[string][]byte, len(runs))
	errs := make([]*runError, len(runs))
	var todo []int
	for i, r := range runs {
		if files, ok := g.cached(r.key); ok {
			outs[i] = files
			g.res.Cached++
			continue
		}
		todo = append(todo, i)
	}
	if len(todo) == 0 {
		return outs, errs, nil
	}
	if err := g.prepare(ctx, gp); err != nil {
		return nil, nil, err
	}
	if gp.err != nil {
		for _, i := range todo {
			errs[i] = &runError{msg: fmt.Sprintf("%s: %v", gp.name, gp.err)}
		}
		return outs, errs, nil
	}
	g.step(fmt.Sprintf("running %s on %d tests", gp.name, len(todo)))
	batch := filepath.Join(g.tmp, fmt.Sprintf("batch-%d", g.res.Runs))
	if err := os.MkdirAll(batch, 0o755); err != nil {
		return nil, nil, err
	}
	defer os.RemoveAll(batch)
	tests := make([]kattis.Test, len(todo))
	fsys := os.DirFS(batch)
	for k, i := range todo {
		name := fmt.Sprintf("%06d", k)
		if err := os.WriteFile(filepath.Join(batch, name+".in"), runs[i].stdin, 0o644); err != nil {
			return nil, nil, err
		}
		tests[k] = kattis.Test{Name: runs[i].t.Path, FS: fsys, In: name + ".in", Origin: batch,
			Config: &kattis.TestConfig{Args: runs[i].args}}
	}
	o := judge.GradeOptions{Tests: tests, Parallel: g.o.Parallel, Keep: true, Checker: acceptAll{}, Outputs: judge.OutputsAll,
		TimeLimit: g.o.Timeout, WallLimit: 2 * g.o.Timeout}
	rep, err := gp.pp.Grade(ctx, g.runLimits(), o)
	if err != nil {
		if rep != nil { // cancelled: the finished runs' kept directories
			for _, tr := range rep.Tests {
				os.RemoveAll(tr.Dir)
			}
		}
		return nil, nil, err
	}
	g.res.Runs += len(todo)
	for _, tr := range rep.Tests {
		i := todo[tr.Index]
		files, rerr := collect(tr, gp.generator, g.o.Timeout)
		if tr.Dir != "" {
			os.RemoveAll(tr.Dir)
		}
		if rerr != nil {
			errs[i] = rerr
			continue
		}
		outs[i] = files
		if err := g.store(runs[i].key, files); err != nil {
			return nil, nil, err
		}
	}
	for _, i := range todo {
		if outs[i] == nil && errs[i] == nil {
			errs[i] = &runError{msg: "did not run"}
		}
	}
	return outs, errs, nil
}

// collect reads a run's result: a generator's files (its testcase.* and
// its standard output for the .in), or a solution's output as the .ans.
func collect(tr judge.TestResult, generator bool, timeout time.Duration) (map[string][]byte, *runError) {
	switch tr.Verdict {
	case verdict.AC:
	case verdict.TLE:
		return nil, &runError{msg: fmt.Sprintf("ran out of time (%s of CPU): %s", timeout, tr.Message)}
	default:
		msg := fmt.Sprintf("failed (%s): %s", tr.Verdict, tr.Message)
		if s := strings.TrimSpace(tr.Stderr); s != "" {
			first, rest, _ := strings.Cut(s, "\n")
			if tr.Hint == "" || strings.TrimSpace(first) != strings.TrimSpace(tr.Hint) {
				rest = s // the message does not quote the first line
			}
			if rest = strings.TrimSpace(rest); rest != "" {
				msg += "\n" + firstLines(rest, 8)
			}
		}
		return nil, &runError{msg: msg, retry: tr.Verdict == verdict.RE}
	}
	if !generator {
		return map[string][]byte{".ans": tr.Output}, nil
	}
	files := map[string][]byte{}
	for _, ext := range generators.Extensions {
		b, err := os.ReadFile(filepath.Join(tr.Dir, "testcase"+ext))
		if err == nil {
			files[ext] = b
		}
	}
	if _, ok := files[".in"]; !ok {
		if len(tr.Output) == 0 {
			return nil, &runError{msg: "wrote no testcase.in and nothing to standard output"}
		}
		files[".in"] = tr.Output
	}
	return files, nil
}

// runSolution answers tests with a solution: their .in on its standard
// input, its output the .ans.
func (g *dataGen) runSolution(ctx context.Context, name string, cases []*generators.Case) error {
	gp, err := g.solutionProgram(name)
	if err != nil {
		for _, t := range cases {
			g.fail(t, "", "%v", err)
		}
		return nil
	}
	defer g.closePrograms([]*genProgram{gp})
	runs := make([]genRun, len(cases))
	for i, t := range cases {
		in := g.made[t].files[".in"]
		runs[i] = genRun{t: t, stdin: in, key: cacheKey("solution", gp.key, nil, in)}
	}
	outs, errs, err := g.runAll(ctx, gp, runs)
	if err != nil {
		return err
	}
	for i, r := range runs {
		if errs[i] != nil {
			g.fail(r.t, "the solution /"+name, "%s", errs[i].msg)
			continue
		}
		g.made[r.t].files[".ans"] = outs[i][".ans"]
	}
	return nil
}

// cacheKey names a run's output in the cache: the program's build, its
// arguments, its input.
func cacheKey(kind, program string, args []string, stdin []byte) string {
	h := sha256.New()
	fmt.Fprintf(h, "optjudge generate 1 %s\nprogram %s\n", kind, program)
	for _, a := range args {
		fmt.Fprintf(h, "arg %d %s\n", len(a), a)
	}
	fmt.Fprintf(h, "stdin %d\n", len(stdin))
	h.Write(stdin)
	return hex.EncodeToString(h.Sum(nil))
}

// cached reads a run's files from the cache.
func (g *dataGen) cached(key string) (map[string][]byte, bool) {
	dir := filepath.Join(g.o.Cache, "runs", key[:2], key)
	if _, err := os.Stat(filepath.Join(dir, "done")); err != nil {
		return nil, false
	}
	files := map[string][]byte{}
	for _, ext := range generators.Extensions {
		if b, err := os.ReadFile(filepath.Join(dir, "testcase"+ext)); err == nil {
			files[ext] = b
		}
	}
	return files, true
}

// store writes a run's files into the cache, done last, so that a half
// written entry is never read.
func (g *dataGen) store(key string, files map[string][]byte) error {
	dir := filepath.Join(g.o.Cache, "runs", key[:2], key)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("the generators' cache: %w", err)
	}
	for ext, b := range files {
		if err := os.WriteFile(filepath.Join(dir, "testcase"+ext), b, 0o644); err != nil {
			return fmt.Errorf("the generators' cache: %w", err)
		}
	}
	return os.WriteFile(filepath.Join(dir, "done"), nil, 0o644)
}

func unwrapFSError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
