package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"time"

	"github.com/optjudge/optjudge/bytesize"
	"github.com/optjudge/optjudge/judge"
	"github.com/optjudge/optjudge/judge/lang"
	"github.com/optjudge/optjudge/problems"
	"github.com/optjudge/optjudge/verdict"
)

var cmdRun = &command{
	Name:      "run",
	UsageLine: "run [flags] PROBLEM SUBMISSION",
	Short:     "grade a submission on every test of a problem",
	Long: `
Run compiles SUBMISSION, runs it on the problem's data/sample then
data/secret tests (sorted by name; testdata/ in the legacy native layout)
under the problem's limits inside the sandbox, checks every output and prints a verdict per test and a summary.

SUBMISSION is a source file; a directory of files that make one program (C
and C++ compile every source together; Java, Kotlin and Scala compile every
file and run the class that holds main; the others start from the file named
__main__, else main, else the only or the first source by name); or an
executable: an ELF file for this machine, or a #! script whose interpreter
is installed. The language comes from the files' endings (.c, .cpp, .go,
.py, .java, .kt, .rs, .js, .cs, .hs, .rb, .php, .ml, .scala, .lisp), a .py
file's #! line (#!...python2 is Python 2), or --lang (cpython3 by --lang
only: .py runs on PyPy, or CPython where PyPy is not installed); "judge
doctor" lists the languages and their compilers. Anything else is refused
and never run. In a Kattis package, the package's included files for the
language (include/) are built with the submission, a file under its
submissions/ has its constants in place, and a language problem.yaml's
languages does not list, or files over limits.code, are refused; in a
submit-answer package SUBMISSION is a directory of answers (NAME.out for
each test). A JVM program gets -Xmx and -Xss from the memory
limit, as on Kattis; its threads (the JIT compiler's, the garbage
collector's) count towards its CPU time and its processes.

Verdicts: AC accepted, WA wrong answer, TLE time limit exceeded (CPU time of
the whole process tree, or the wall-clock limit), MLE memory limit exceeded
(peak resident memory), OLE output limit exceeded, RE run-time error (a signal
or a non-zero exit code), CE compilation error, JE judge error. Per test the
first of TLE, MLE, OLE, RE that applies wins, then the checker's verdict; the
overall verdict is the first test's, in test order, that is not AC.

Languages come from a table embedded in the judge, overridden by a
languages.yaml beside the problem directory or by --languages FILE.

Examples:

	judge run rotation-game solution.cpp
	judge run --lazy --json clocks sol.py > report.json
	judge run eight-puzzle ./a.out --tests mytests -j 1 --time-limit 2s
	judge run clocks -- -odd-name.py
	judge run clocks Clocks.java --memory-limit 256M
	judge run clocks my-solution-dir/

Exit codes: 0 accepted; 1 any other verdict; 2 usage error, a submission in
no language, one the problem does not take, a compiler not installed, or
judge error (JE).
`,
	Flags: func(fs *flag.FlagSet) {
		gradeFlags(fs)
		fs.Bool("json", false, "print the report as JSON (its shape: judge help report)")
		fs.Bool("keep", false, "keep the build and working directories and say where")
		fs.Bool("no-color", false, "no colours, even on a terminal")
	},
	Run: runRun,
}

// gradeFlags registers the flags that gradeOptions reads, shared by run and
// watch.
func gradeFlags(fs *flag.FlagSet) {
	fs.String("tests", "", "run every `DIR`/*.in (with the .ans beside it) instead of the problem's tests")
	fs.Duration("time-limit", 0, "CPU time limit per test, e.g. 2s (default: the problem's)")
	fs.String("memory-limit", "", "memory limit `SIZE`: 256M, 1G, or MiB as a bare number (default: the problem's)")
	fs.Duration("wall-limit", 0, "wall-clock limit per test (default: 2 x time limit + 1s)")
	fs.Bool("lazy", false, "stop at the first test that is not AC")
	fs.Int("j", runtime.NumCPU(), "run `N` tests in parallel")
	fs.String("lang", "", "force the language `NAME` (c, cpp, go, python3, pypy3, java, kotlin, rust, ...: judge doctor lists them)")
	fs.String("languages", "", "read the language table from `FILE`")
}

func runRun(e *env, fs *flag.FlagSet, args []string) int {
	if len(args) != 2 {
		return e.usageError("want PROBLEM and SUBMISSION, got %d arguments", len(args))
	}
	p, err := e.problem(args[0])
	if err != nil {
		return e.fail(err)
	}
	bo, opts, err := e.gradeOptions(fs, p)
	if err != nil {
		return e.usageError("%v", err)
	}
	lang, name, err := resolveSubmission(bo, args[1])
	if p.Package.Type.SubmitAnswer {
		lang, name, err = nil, judge.AnswersLanguage, nil // files of answers
	}
	if err != nil {
		return e.fail(withHint(err))
	}
	j, err := newJudge(bo.Languages)
	if err != nil {
		return e.fail(err)
	}
	defer j.Close()
	if lang != nil {
		used, err := j.BuiltAs(lang)
		if err != nil {
			return e.fail(err)
		}
		name = builtName(lang, used)
	}
	bo.Problem, bo.Example = p, p.IsExample(args[1])
	if err := j.Check(judge.Submission{Path: args[1]}, bo); err != nil {
		return e.fail(err)
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := e.timeLimit(ctx, j, p, bo, opts); err != nil {
		return e.fail(err)
	}
	asJSON := flagValue(fs, "json").(bool)
	out := newReporter(e.stdout, isTerminal(e.stdout) && !flagValue(fs, "no-color").(bool))
	if !asJSON {
		out.header(p, args[1], name, j, opts)
		opts.Progress = out.onTest
	}
	r, err := j.Grade(ctx, p, judge.Submission{Path: args[1]}, bo, *opts)
	if err != nil {
		out.clearProgress()
		return e.fail(err)
	}
	if asJSON {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(r); err != nil {
			return e.fail(err)
		}
	} else {
		out.report(r)
	}
	switch r.Verdict {
	case verdict.AC:
		return exitOK
	case verdict.JE:
		return exitError
	}
	return exitRejected
}

// resolveSubmission is the language the submission at path is built in,
// and its name for the header: a language of the table, "executable", or a
// directory's build and run scripts (no language of the table).
func resolveSubmission(bo judge.BuildOptions, path string) (*lang.Language, string, error) {
	if judge.IsBuildRun(path) {
		return nil, judge.BuildRunLanguage, nil
	}
	lang, err := judge.ResolveLanguage(bo.Languages, path, bo.Lang)
	if err != nil {
		return nil, "", err
	}
	if lang == nil {
		return nil, "executable", nil
	}
	return lang, lang.Name, nil
}

// builtName names the language of a submission for the header: its own,
// or "python3 as cpython3" where it falls back.
func builtName(lang, used *lang.Language) string {
	if used == lang {
		return lang.Name
	}
	return lang.Name + " as " + used.Name
}

// withHint adds to a submission in no language the flag that names one.
func withHint(err error) error {
	var ule *lang.UnknownError
	if errors.As(err, &ule) {
		return fmt.Errorf("%w; use --lang NAME", err)
	}
	return err
}

// gradeOptions turns run's flags into the build and grade options.
func (e *env) gradeOptions(fs *flag.FlagSet, p *problems.Problem) (judge.BuildOptions, *judge.GradeOptions, error) {
	bo := judge.BuildOptions{
		Lang: flagValue(fs, "lang").(string),
		Keep: fs.Lookup("keep") != nil && flagValue(fs, "keep").(bool), // watch has no --keep
	}
	o := &judge.GradeOptions{
		TimeLimit: flagValue(fs, "time-limit").(time.Duration),
		WallLimit: flagValue(fs, "wall-limit").(time.Duration),
		Lazy:      flagValue(fs, "lazy").(bool),
		Parallel:  flagValue(fs, "j").(int),
		Keep:      bo.Keep,
		Outputs:   judge.OutputsRejected, // watch explains the first failure
	}
	if o.TimeLimit < 0 || o.WallLimit < 0 {
		return bo, nil, errors.New("limits must be positive")
	}
	if o.Parallel < 1 {
		return bo, nil, fmt.Errorf("-j %d: want at least 1", o.Parallel)
	}
	if m := flagValue(fs, "memory-limit").(string); m != "" {
		size, err := bytesize.Parse(m)
		if err != nil || size <= 0 {
			return bo, nil, fmt.Errorf("--memory-limit %s: want e.g. 256M, 1G or a number of MiB", m)
		}
		o.MemoryLimit = size
	}
	if dir := flagValue(fs, "tests").(string); dir != "" {
		tests, err := problems.TestsIn(dir)
		if err != nil {
			return bo, nil, fmt.Errorf("--tests: %w", err)
		}
		if len(tests) == 0 {
			return bo, nil, fmt.Errorf("--tests %s: no .in files", dir)
		}
		o.Tests = tests
	}
	langs, err := languages(flagValue(fs, "languages").(string), p)
	if err != nil {
		return bo, nil, err
	}
	bo.Languages = langs
	return bo, o, nil
}

// languages picks the language table: --languages FILE, else a
// languages.yaml beside the problem directory, else the embedded one.
func languages(file string, p *problems.Problem) (*lang.Table, error) {
	if file != "" {
		return lang.Load(file)
	}
	if p.Dir != "" {
		beside := filepath.Join(filepath.Dir(filepath.Clean(p.Dir)), "languages.yaml")
		if _, err := os.Stat(beside); err == nil {
			return lang.Load(beside)
		}
	}
	return lang.Default(), nil
}

func flagValue(fs *flag.FlagSet, name string) any {
	return fs.Lookup(name).Value.(flag.Getter).Get()
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0 && st.Mode()&os.ModeDevice != 0
}
