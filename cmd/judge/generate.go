package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/optjudge/optjudge/judge"
	"github.com/optjudge/optjudge/judge/maintain"
	"github.com/optjudge/optjudge/problems"
	"github.com/optjudge/optjudge/problems/kattis"
	"github.com/optjudge/optjudge/specfile"
)

var cmdGenerate = &command{
	Name:      "generate",
	UsageLine: "generate [flags] PACKAGE",
	Short:     "write a Kattis package's data/ from its generators/generators.yaml",
	Long: `
Generate writes PACKAGE's data/ from its generators/generators.yaml, as
BAPCtools' bt generate does (the format of BAPC, NWERC and GCPC setters):

  - each test's .in from its generator, run in the sandbox as the command
    says, {seed} (or {seed:N}) replaced by BAPCtools' seed of the command,
    so the same file gives the same seeds as bt generate; {name} is
    "testcase", and the files the generator writes (testcase.in,
    testcase.ans, .yaml, ...) are the test's; its standard output is the
    .in when it writes no testcase.in;
  - copy: (files below generators/), inline in:, ans:, out:, yaml:,
    hint:, desc:, interaction: and the statement and download files;
  - count:, random_salt:, retries:, include:, numbered lists, the
    test_group.yaml (or testdata.yaml) of each directory, and programs of
    several files (a directory, build and run scripts, or generators:);
  - each .in checked by the package's input validators, with its group's
    arguments;
  - each .ans from the test's solution: (a path from the package root), or
    the package's model solution, else its first accepted submission (bt
    picks one at random and writes it into generators.yaml; this one is
    always the same, and generators.yaml is left alone); an interactive
    problem's .ans is empty.

Only files whose content changes are written. A generator's or solution's
output is cached (in the judge's cache directory) by the program's build
and its arguments or input: an unchanged rule never runs its program
again. Files of data/ that generators.yaml does not make are listed and
left alone; --clean removes them: those an earlier judge generate wrote
are deleted, any other is moved to a trash directory that is named.
--dry-run says what would change and writes nothing.

A test that cannot be made (its generator crashes, runs out of time or
writes nothing, its input is invalid, its solution fails) is a line naming
the test and the command; its files are left as they were. Visualizers are
not run.

judge gen on a package with generators.yaml does the same.

Examples:

	judge generate path/to/package
	judge generate path/to/package --clean -j 4

Exit codes: 0 every test was made; 1 a test could not be made; 2 usage
error, an error in generators.yaml (file:line: field: message), or the
judge itself failed.
`,
	Flags: generateFlags,
	Run:   runGenerate,
}

func generateFlags(fs *flag.FlagSet) {
	fs.Bool("clean", false, "remove the files of data/ that generators.yaml does not make")
	fs.Bool("dry-run", false, "say what would change; write nothing")
	fs.Int("j", runtime.NumCPU(), "run `N` programs in parallel")
	fs.Duration("timeout", maintain.GeneratorTimeout, "CPU time of one generator or solution run")
	fs.String("languages", "", "read the language table from `FILE`")
	fs.String("cache", "", "cache the programs' outputs (and keep --clean's trash) in `DIR` (default: the judge's cache directory's generate/)")
}

func runGenerate(e *env, fs *flag.FlagSet, args []string) int {
	if len(args) != 1 {
		return e.usageError("want one PACKAGE, got %d arguments", len(args))
	}
	p, err := e.problem(args[0])
	if err != nil {
		// data/ is what generate writes: one that does not load is no
		// reason to stop
		st, serr := os.Stat(filepath.Join(args[0], "generators", "generators.yaml"))
		if serr != nil || !st.Mode().IsRegular() {
			return e.fail(err)
		}
		q, qerr := maintain.LoadWithoutData(args[0])
		if qerr != nil {
			return e.fail(err)
		}
		fmt.Fprintf(e.stderr, "judge generate: note: %s does not load with its data/ (%s): generating data/ anew\n", args[0], oneLine(err.Error(), 300))
		p = q
	}
	return e.generate(fs, p)
}

// generate runs generators.yaml of p, with the flags of generateFlags.
func (e *env) generate(fs *flag.FlagSet, p *problems.Problem) int {
	o := maintain.GenerateDataOptions{
		Parallel: flagValue(fs, "j").(int),
		Timeout:  flagValue(fs, "timeout").(time.Duration),
		Clean:    flagValue(fs, "clean").(bool),
		DryRun:   flagValue(fs, "dry-run").(bool),
		Cache:    flagValue(fs, "cache").(string),
	}
	switch {
	case o.Parallel < 1:
		return e.usageError("-j %d: want at least 1", o.Parallel)
	case o.Timeout <= 0:
		return e.usageError("--timeout %s: want more than 0", o.Timeout)
	case o.Clean && o.DryRun:
		return e.usageError("--clean and --dry-run: pick one")
	case !maintain.HasGenerators(p):
		return e.fail(fmt.Errorf("%s: no generators/generators.yaml", p.Package.Origin))
	}
	langs, err := languages(flagValue(fs, "languages").(string), p)
	if err != nil {
		return e.fail(err)
	}
	j, err := newJudge(langs)
	if err != nil {
		return e.fail(err)
	}
	defer j.Close()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	o.Judge, o.Build = j, judge.BuildOptions{Languages: langs}
	fmt.Fprintf(e.stdout, "generate %s (%s), isolation: %s\n", p.Name, p.Package.Origin, j.Isolation())
	res, code := e.runGenerateData(ctx, p, o)
	if res == nil {
		return code
	}
	e.printGenerated(res, o)
	return code
}

// runGenerateData runs GenerateData with a progress line; a nil result
// comes with the exit code of the error it printed.
func (e *env) runGenerateData(ctx context.Context, p *problems.Problem, o maintain.GenerateDataOptions) (*maintain.GenerateDataResult, int) {
	prog := newProgressLine(e.stdout)
	o.Progress = prog.show
	res, err := maintain.GenerateData(ctx, p, o)
	prog.clear()
	var ses specfile.Errors
	switch {
	case errors.As(err, &ses):
		for _, se := range ses {
			fmt.Fprintf(e.stderr, "%s\n", se)
		}
		fmt.Fprintf(e.stderr, "judge %s: %s in %s: nothing generated\n", e.cmd.Name, plural(len(ses), "error"), p.Package.Origin+"/generators/generators.yaml")
		return nil, exitError
	case err != nil:
		return nil, e.fail(err)
	}
	if len(res.Failures) > 0 {
		return res, exitRejected
	}
	return res, exitOK
}

// printGenerated shows what GenerateData did: warnings, each file it
// wrote, removed or would, the tests it could not make, and a summary.
func (e *env) printGenerated(res *maintain.GenerateDataResult, o maintain.GenerateDataOptions) {
	for _, w := range res.Warnings {
		fmt.Fprintf(e.stdout, "%s: warning: %s\n", locate(w), w.Msg)
	}
	if res.Solution != "" {
		fmt.Fprintf(e.stdout, "answers from %s: generators.yaml names no solution (the model solution, else the first accepted submission)\n", res.Solution)
	}
	would := ""
	if o.DryRun {
		would = "would be "
	}
	for _, f := range res.Files {
		switch f.Change {
		case maintain.New, maintain.Changed, maintain.Removed:
			fmt.Fprintf(e.stdout, "%s%-9s %s\n", would, f.Change, f.Path)
		case maintain.Trashed:
			fmt.Fprintf(e.stdout, "trashed   %s: not made by judge generate, moved to %s\n", f.Path, res.Trash)
		case maintain.Stale:
			fmt.Fprintf(e.stdout, "stale     %s: generators.yaml does not make it (--clean removes it)\n", f.Path)
		}
	}
	for _, f := range res.Failures {
		fmt.Fprintf(e.stdout, "FAILED    %s\n", f)
	}
	var parts []string
	for _, c := range []maintain.Change{maintain.New, maintain.Changed, maintain.Unchanged, maintain.Removed, maintain.Stale, maintain.Trashed} {
		if n := res.Count(c); n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, c))
		}
	}
	failed := ""
	if len(res.Failures) > 0 {
		failed = fmt.Sprintf(", %d failed", len(res.Failures))
	}
	fmt.Fprintf(e.stdout, "%s%s; files: %s\n", plural(res.Tests, "test"), failed, strings.Join(parts, ", "))
}

// locate shows where a warning is: file:line: field.
func locate(w kattis.Warning) string {
	s := w.File
	if w.Line > 0 {
		s += fmt.Sprintf(":%d", w.Line)
	}
	if w.Field != "" {
		s += ": " + w.Field
	}
	return s
}
