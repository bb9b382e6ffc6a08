// Package judge grades submissions: it builds a contestant's program, runs it
// on every test of a problem under the problem's limits inside the sandbox,
// hands each output to the problem's checker and reports the verdicts.
//
// Grade is the one entry point; the CLI and, later, a grading service's
// workers call it the same way.
package judge

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/optjudge/optjudge/checkers"
	"github.com/optjudge/optjudge/judge/bytesize"
	"github.com/optjudge/optjudge/judge/sandbox"
	"github.com/optjudge/optjudge/judge/verdict"
	"github.com/optjudge/optjudge/problems"
)

// Options tune one grading. The zero value grades with the problem's limits,
// one test at a time, in the default temporary directory.
type Options struct {
	Tests       []problems.Test // nil: the problem's sample then secret tests
	TimeLimit   time.Duration   // CPU time per test; 0: the problem's
	WallLimit   time.Duration   // 0: 2 x TimeLimit + 1 s
	MemoryLimit bytesize.Size   // 0: the problem's
	Lazy        bool            // stop at the first test that is not AC
	Parallel    int             // tests run at once; 0 or 1: one at a time
	Keep        bool            // keep the build and working directories

	Lang           string        // force a language by name; "" picks by extension
	Languages      *Languages    // nil: DefaultLanguages()
	CompileTimeout time.Duration // 0: 30 s
	TempDir        string        // "": the system's
	GoCache        string        // Go build cache shared by builds; "": a fresh one per build (slow)
	Path           string        // PATH for compilers; "": /usr/local/bin:/usr/bin:/bin

	// Checker judges the outputs; nil: the problem's, its checker program
	// built once per grading (see BuildChecker).
	Checker checkers.Checker
	// Sandbox runs the tests; nil makes one with sandbox.New for this call.
	Sandbox *sandbox.Sandbox
	// Progress, when set, is called once as each test finishes, never
	// concurrently, in completion order.
	Progress func(TestResult)
}

func (o *Options) path() string {
	if o.Path != "" {
		return o.Path
	}
	return "/usr/local/bin:/usr/bin:/bin"
}

// Submission is what a contestant handed in: a source file or an executable.
type Submission struct {
	Path string
}

// Grade builds sub and judges it on the tests of p. A contestant's failure
// (CE, WA, TLE, ...) is data in the report with a nil error; an error means the
// judge itself could not grade, and no verdict may be taken from it.
func Grade(ctx context.Context, p *problems.Problem, sub Submission, opts Options) (*Report, error) {
	pp, err := Prepare(ctx, sub, opts)
	if err != nil {
		return nil, err
	}
	if !opts.Keep {
		defer pp.Close()
	}
	r, err := pp.Grade(ctx, p, opts)
	if err != nil {
		return nil, err
	}
	if opts.Keep {
		r.KeptIn = pp.prog.dir
	}
	return r, nil
}

func (o Options) withDefaults() (*Options, error) {
	if o.Languages == nil {
		o.Languages = DefaultLanguages()
	}
	if o.CompileTimeout == 0 {
		o.CompileTimeout = 30 * time.Second
	}
	if o.Parallel < 1 {
		o.Parallel = 1
	}
	if o.TimeLimit < 0 || o.WallLimit < 0 || o.MemoryLimit < 0 {
		return nil, errors.New("negative limit")
	}
	return &o, nil
}

// limits are the limits in force for this grading.
func (o *Options) limits(p *problems.Problem) Limits {
	l := Limits{Time: p.Limits.Time, Memory: p.Limits.Memory, Output: p.Limits.Output}
	if o.TimeLimit > 0 {
		l.Time = o.TimeLimit
	}
	if o.MemoryLimit > 0 {
		l.Memory = o.MemoryLimit
	}
	l.Wall = 2*l.Time + time.Second
	if o.WallLimit > 0 {
		l.Wall = o.WallLimit
	}
	l.fill()
	return l
}

// prepare builds a source file, or wraps an executable.
func (o *Options) prepare(ctx context.Context, sub Submission) (*program, error) {
	lang, err := o.Languages.Resolve(sub.Path, o.Lang)
	if err != nil {
		return nil, err
	}
	if lang == nil {
		return executable(sub.Path, o)
	}
	return build(ctx, sub.Path, lang, o)
}

func unwrapPathError(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// grader runs the tests of one grading.
type grader struct {
	p       *problems.Problem
	prog    *program
	sb      *sandbox.Sandbox
	opts    *Options
	limits  Limits
	checker checkers.Checker
}

// runAll runs the tests on Parallel workers. With Lazy, a failure cancels the
// tests after it in test order; the tests before it still finish, so the
// verdict is the same as a one-at-a-time run's.
func (g *grader) runAll(ctx context.Context, tests []problems.Test) ([]TestResult, error) {
	results := make([]*TestResult, len(tests))
	ctxs := make([]context.Context, len(tests))
	cancels := make([]context.CancelFunc, len(tests))
	for i := range tests {
		ctxs[i], cancels[i] = context.WithCancel(ctx)
		defer cancels[i]()
	}
	var (
		mu        sync.Mutex
		firstFail = len(tests)
		firstErr  error
		next      int
		wg        sync.WaitGroup
	)
	work := func() {
		defer wg.Done()
		var wd workDir
		defer wd.remove()
		for {
			mu.Lock()
			i := next
			next++
			stop := i >= len(tests) || i > firstFail || firstErr != nil
			mu.Unlock()
			if stop {
				return
			}
			tr, err := g.runTest(ctxs[i], tests[i], &wd)
			mu.Lock()
			switch {
			case err != nil && ctxs[i].Err() != nil && ctx.Err() == nil:
				// cancelled because an earlier test failed under Lazy
			case err != nil:
				if firstErr == nil {
					firstErr = err
				}
			default:
				results[i] = &tr
				if g.opts.Progress != nil {
					g.opts.Progress(tr)
				}
				if g.opts.Lazy && tr.Verdict != verdict.AC && i < firstFail {
					firstFail = i
					for j := i + 1; j < len(tests); j++ {
						cancels[j]()
					}
				}
			}
			mu.Unlock()
		}
	}
	for w := 0; w < min(g.opts.Parallel, len(tests)); w++ {
		wg.Add(1)
		go work()
	}
	wg.Wait()
	if firstErr != nil {
		return nil, firstErr
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var out []TestResult
	for i, r := range results {
		if r != nil && i <= firstFail {
			out = append(out, *r)
		}
	}
	return out, nil
}

// runTest runs one test in a fresh working directory (w's, emptied) and
// judges it. Only a cancelled context or a failure to set the test up is an
// error; a sandbox or checker failure is a JE result.
func (g *grader) runTest(ctx context.Context, t problems.Test, w *workDir) (TestResult, error) {
	tr := TestResult{Name: t.Name}
	input, err := t.Input()
	if err != nil {
		return tr, err
	}
	answer, err := t.Answer()
	if err != nil {
		return tr, err
	}
	var dir string
	if g.opts.Keep {
		// a directory per test, left for the user
		if dir, err = os.MkdirTemp(g.opts.TempDir, "optjudge-run-"); err != nil {
			return tr, fmt.Errorf("creating a working directory: %w", err)
		}
		tr.Dir = dir
		err = placeProgram(g.prog, dir)
	} else {
		dir, err = w.fresh(g.opts.TempDir, g.prog)
	}
	if err != nil {
		return tr, err
	}
	res, err := g.sb.Run(ctx, &sandbox.Cmd{
		Path:   g.prog.run[0],
		Args:   g.prog.run[1:],
		Dir:    dir,
		Stdin:  input,
		Limits: g.limits.sandbox(),
	})
	if ctx.Err() != nil {
		return tr, ctx.Err()
	}
	if err != nil {
		tr.Verdict, tr.Message = verdict.JE, "sandbox: "+err.Error()
		return tr, nil
	}
	tr.measure(res)
	if g.opts.Keep {
		saveOutputs(dir, res)
	}
	if v, msg := runVerdict(res, g.limits); v != verdict.Unknown {
		tr.Verdict, tr.Message = v, msg
		return tr, nil
	}
	g.check(ctx, &tr, t, input, res.Stdout, answer)
	return tr, nil
}

// check hands a completed run's output to the checker.
func (g *grader) check(ctx context.Context, tr *TestResult, t problems.Test, input, output, answer []byte) {
	if answer == nil && g.p.Reference != nil && checkers.UsesAnswer(g.checker) {
		var err error
		if answer, err = g.p.Reference.Solve(input); err != nil {
			tr.Verdict, tr.Message = verdict.JE, fmt.Sprintf("reference on %s: %v", t.Path(t.In), err)
			return
		}
	}
	cr, err := g.checker.Check(ctx, checkers.Files{Input: input, Output: output, Answer: answer})
	switch {
	case err != nil:
		tr.Verdict, tr.Message = verdict.JE, "checker: "+err.Error()
	case cr.Verdict != verdict.AC && cr.Verdict != verdict.WA:
		tr.Verdict, tr.Message = verdict.JE, fmt.Sprintf("checker returned %v: %s", cr.Verdict, cr.Message)
	default:
		tr.Verdict, tr.Message = cr.Verdict, cr.Message
	}
}

// placeProgram puts the built program into a working directory: by a hard
// link as root, where the contestant runs as another user and cannot write
// to it, else by a copy (the contestant may be the file's owner there, and
// a link would let it change the build for every later test).
func placeProgram(p *program, dir string) error {
	src, dst := filepath.Join(p.dir, p.file), filepath.Join(dir, p.file)
	if os.Geteuid() == 0 && os.Link(src, dst) == nil {
		return nil
	}
	if err := copyFile(src, dst, p.mode); err != nil {
		return fmt.Errorf("placing the program: %w", err)
	}
	return nil
}

// workDir is one worker's working directory, emptied between its tests
// rather than made anew: the same directory also lets the sandbox run the
// tests in the same (refreshed) box. The contestant owns the directory
// during a run; what it could leave on the directory itself is reset or
// makes a new one.
type workDir struct {
	path string
	mode os.FileMode // the directory's, as made
	prog os.FileInfo // the program's file where it was placed, nil if not yet
}

// workDirTime is the modification time of a working directory between
// tests, so that a test cannot pass anything on in it.
var workDirTime = time.Unix(0, 0)

// fresh returns the directory as a new one would be: nothing in it but the
// program. The program stays from the last test if it is still the same
// file; anything else the last test left is removed.
func (w *workDir) fresh(tmp string, p *program) (string, error) {
	if w.path != "" {
		if err := w.empty(p); err == nil {
			return w.path, nil
		}
		w.remove() // cannot be emptied (a program made it unreadable): a new one
	}
	dir, err := os.MkdirTemp(tmp, "optjudge-run-")
	if err != nil {
		return "", fmt.Errorf("creating a working directory: %w", err)
	}
	fi, err := os.Lstat(dir)
	if err != nil {
		os.Remove(dir)
		return "", fmt.Errorf("creating a working directory: %w", err)
	}
	w.path, w.mode = dir, fi.Mode()
	if err := w.place(p); err != nil {
		return "", err
	}
	return dir, nil
}

// empty removes what the last test left and puts the program back if it
// is not the file placed there, untouched. A directory whose mode changed
// or that carries extended attributes (or an ACL) is not emptied: the
// caller makes a new one.
func (w *workDir) empty(p *program) error {
	fi, err := os.Lstat(w.path)
	if err != nil {
		return err
	}
	if fi.Mode() != w.mode {
		return errors.New("working directory changed")
	}
	if hasXattrs(w.path) {
		return errors.New("working directory has extended attributes")
	}
	ents, err := os.ReadDir(w.path)
	if err != nil {
		return err
	}
	kept := false
	for _, e := range ents {
		path := filepath.Join(w.path, e.Name())
		if e.Name() == p.file && w.prog != nil {
			if fi, err := os.Lstat(path); err == nil && untouched(fi, w.prog) {
				kept = true
				continue
			}
		}
		if err := os.RemoveAll(path); err != nil {
			return err
		}
	}
	if !kept {
		if err := w.place(p); err != nil {
			return err
		}
	}
	return os.Chtimes(w.path, workDirTime, workDirTime)
}

func (w *workDir) place(p *program) error {
	w.prog = nil
	if err := placeProgram(p, w.path); err != nil {
		return err
	}
	fi, err := os.Lstat(filepath.Join(w.path, p.file))
	if err != nil {
		return fmt.Errorf("placing the program: %w", err)
	}
	w.prog = fi
	return nil
}

// remove removes the directory, once the worker is done.
func (w *workDir) remove() {
	if w.path != "" {
		os.Chmod(w.path, 0o700) // a program may have taken our rights away
		os.RemoveAll(w.path)
		w.path, w.prog = "", nil
	}
}

// saveOutputs leaves the run's output beside it for --keep.
func saveOutputs(dir string, res *sandbox.Result) {
	os.WriteFile(filepath.Join(dir, "stdout.txt"), res.Stdout, 0o644)
	os.WriteFile(filepath.Join(dir, "stderr.txt"), res.Stderr, 0o644)
}

// firstLine returns the first non-empty line of b, cut to n bytes.
func firstLine(b []byte, n int) string {
	for _, l := range strings.Split(string(b), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			if len(l) > n {
				l = l[:n] + "..."
			}
			return l
		}
	}
	return ""
}
