package main

import (
	"context"
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
	"github.com/optjudge/optjudge/reference"
)

var cmdStress = &command{
	Name:      "stress",
	UsageLine: "stress [flags] PROBLEM SUBMISSION",
	Short:     "grade a submission on generated tests and shrink the first failure",
	Long: `
Stress builds SUBMISSION once and grades it, the full way (sandbox, limits,
checker), on tests drawn by the problem's reference as judge gen draws them,
in parallel batches, until a test is not accepted or --count tests passed.
On a terminal a progress line shows the tests done and the rate.

The first failing input is then shrunk to a minimal one that fails with the
same verdict: first the fewest cases (each case alone, then delta debugging
over halves and finer chunks), then each case as shallow as it gets (every
case along the reference's optimal path toward the goal, and random cases at
every smaller optimal distance, until none that is shallower still fails).
The shrunk input is printed with its verdict, the checker's message and the
reference's answer. --save adds it to the problem's secret tests (a problem
directory on disk) as stress-SEED-N.in with its .ans.

Test N of a seed is the same as judge gen --seed SEED makes as KIND-SEED-N.

A problem without a reference of ours (a Kattis package) is stressed with
the setter's generator, as oj generate-input and BAPCtools' generators do:
--generator GEN is a program of the language table, run in the sandbox as
GEN SEED (SEED, SEED+1, ... for tests 1, 2, ...), printing one input, which
the package's input validators check. --brute answers the inputs (default:
the package's model solution, else its first accepted submission); an
interactive problem's validator reads the input and gets an empty answer.
Nothing is shrunk: the failing seed and its input are printed. A package
without a time limit gets the one judge run derives.

Examples:

	judge stress --count 1000 rotation-game my.cpp
	judge stress eight-puzzle sol.py --kind deep --cases 10 --save
	judge stress ./guess sol.py --generator gen.py --count 500

Exit codes: 0 every test was accepted; 1 a test failed (or the submission
does not compile); 2 usage error or the judge itself failed.
`,
	Flags: func(fs *flag.FlagSet) {
		fs.Int("count", 100, "stop after `N` accepted tests")
		fs.Uint64("seed", 1, "the random seed")
		fs.String("kind", reference.Random, "what to draw: `KIND` random or deep")
		fs.Int("cases", 1, "cases per test where the format holds several")
		fs.Bool("save", false, "add the shrunk input to the problem's secret tests")
		fs.String("generator", "", "make the inputs with `GEN` SEED (a problem without a reference)")
		fs.String("brute", "", "answer the generator's inputs with `PROGRAM`")
		fs.Int("j", runtime.NumCPU(), "run `N` tests in parallel")
		fs.String("languages", "", "read the language table from `FILE`")
	},
	Run: runStress,
}

func runStress(e *env, fs *flag.FlagSet, args []string) int {
	if len(args) != 2 {
		return e.usageError("want PROBLEM and SUBMISSION, got %d arguments", len(args))
	}
	o := maintain.StressOptions{
		Kind:  flagValue(fs, "kind").(string),
		Count: flagValue(fs, "count").(int),
		Cases: flagValue(fs, "cases").(int),
		Seed:  flagValue(fs, "seed").(uint64),

		Generator: flagValue(fs, "generator").(string),
		Brute:     flagValue(fs, "brute").(string),
	}
	parallel := flagValue(fs, "j").(int)
	switch {
	case o.Kind != reference.Random && o.Kind != reference.Deep:
		return e.usageError("--kind %s: want random or deep", o.Kind)
	case o.Count < 1 || o.Cases < 1 || parallel < 1:
		return e.usageError("--count, --cases and -j want at least 1")
	}
	p, err := e.problem(args[0])
	if err != nil {
		return e.fail(err)
	}
	if flagValue(fs, "save").(bool) && p.Dir == "" {
		return e.usageError("--save adds to a problem directory; %s is embedded in the judge", p.Name)
	}
	if flagValue(fs, "save").(bool) && o.Generator != "" {
		return e.usageError("--save writes the reference's answer; with --generator the failing seed is the counterexample")
	}
	if o.Brute != "" && o.Generator == "" {
		return e.usageError("--brute answers the inputs of --generator")
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
	o.Judge, o.Build, o.Grade = j, judge.BuildOptions{Languages: langs}, judge.GradeOptions{Parallel: parallel, Outputs: judge.OutputsNone}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if o.Generator != "" {
		if err := e.timeLimit(ctx, j, p, o.Build, &o.Grade); err != nil {
			return e.fail(err)
		}
		fmt.Fprintf(e.stdout, "stress %s: %s, tests of %s from seed %d, isolation: %s\n",
			p.Name, args[1], o.Generator, o.Seed, j.Isolation())
	} else {
		fmt.Fprintf(e.stdout, "stress %s: %s, %s tests of %s, seed %d, isolation: %s\n",
			p.Name, args[1], o.Kind, plural(o.Cases, "case"), o.Seed, j.Isolation())
	}
	prog := newProgressLine(e.stdout)
	o.Progress = func(done int, elapsed time.Duration) {
		prog.show(fmt.Sprintf("%d tests, %.1f tests/s", done, float64(done)/max(elapsed.Seconds(), 1e-3)))
	}
	o.Shrinking = prog.show
	res, err := maintain.Stress(ctx, p, judge.Submission{Path: args[1]}, o)
	prog.clear()
	if err != nil {
		return e.fail(err)
	}
	if !res.Compile.OK {
		fmt.Fprintf(e.stdout, "CE compilation error:\n%s\n", indent(res.Compile.Message))
		return exitRejected
	}
	fmt.Fprintf(e.stdout, "%s in %s (%s a test)\n", plural(res.Tests, "test"), res.Elapsed.Round(time.Millisecond),
		(res.Elapsed / time.Duration(max(res.Tests, 1))).Round(time.Microsecond))
	f := res.Failure
	if f == nil {
		fmt.Fprintf(e.stdout, "every test was accepted\n")
		return exitOK
	}
	printFailure(e, f)
	if flagValue(fs, "save").(bool) {
		g, err := maintain.Save(p, fmt.Sprintf("stress-%d-%d", o.Seed, f.Index), f.Shrunk)
		if err != nil {
			return e.fail(err)
		}
		fmt.Fprintf(e.stdout, "saved as %s with %s\n", g.In, filepath.Base(g.Ans))
	}
	return exitRejected
}

func printFailure(e *env, f *maintain.Failure) {
	if f.Seed != "" {
		fmt.Fprintf(e.stdout, "test %d failed (generator seed %s): %s: %s\n", f.Index, f.Seed, f.Verdict, oneLine(f.Message, 200))
		fmt.Fprintf(e.stdout, "input:\n%s", indentBlock(f.Input))
		if len(f.ShrunkAnswer) > 0 {
			fmt.Fprintf(e.stdout, "the answer:\n%s", indentBlock(f.ShrunkAnswer))
		}
		return
	}
	fmt.Fprintf(e.stdout, "test %d failed: %s: %s\n", f.Index, f.Verdict, oneLine(f.Message, 200))
	depth := fmt.Sprintf("at depth %d", f.Depth)
	if f.Depth < 0 {
		depth = "without a solution"
	}
	fmt.Fprintf(e.stdout, "shrunk in %s to %s %s:\n", plural(f.Gradings, "run"), plural(f.Cases, "case"), depth)
	fmt.Fprint(e.stdout, indentBlock(f.Shrunk))
	fmt.Fprintf(e.stdout, "verdict: %s: %s\n", f.ShrunkVerdict, oneLine(f.ShrunkMessage, 200))
	fmt.Fprintf(e.stdout, "the reference's answer:\n%s", indentBlock(f.ShrunkAnswer))
}

// indentBlock indents every line of a file's content by four spaces.
func indentBlock(b []byte) string {
	s := strings.TrimSuffix(string(b), "\n")
	return "    " + strings.ReplaceAll(s, "\n", "\n    ") + "\n"
}
