package main

import (
	"flag"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/optjudge/optjudge/judge/maintain"
	"github.com/optjudge/optjudge/reference"
)

var cmdGen = &command{
	Name:      "gen",
	UsageLine: "gen [flags] PROBLEM",
	Short:     "write generated tests with the reference's answers",
	Long: `
Gen writes test inputs drawn by the problem's reference, each with its .ans
(the reference's output) beside it, into --out DIR:

  random  each case drawn uniformly among the valid ones;
  deep    each case at the greatest optimal distance, from the reference's
          tables (rotation-game 13 moves, clocks 27, eight-puzzle 31,
          pocket-cube 11, lights-out 15); where the reference has no table
          (fifteen-puzzle, pancakes of 16), the deepest of many random cases;
  all     every case, where the state space is small: the 181,440 solvable
          eight-puzzle boards and 1,000 unsolvable ones in all.in, the
          3,674,160 pocket-cube positions in all.in, or the 262,144 clocks
          positions, one per file (all-000000.in ...).

Random and deep files are named KIND-SEED-NNN.in and do not depend on
--count: file NNN is drawn from its own stream of the seed, so the same seed
gives the same files. --cases sets the cases per file for the formats that
hold several (all but clocks).

A Kattis package with BAPCtools' generators/generators.yaml (and no
reference of ours) is generated as judge generate does: data/ from its
generators, as bt generate does.

Examples:

	judge gen --kind deep --count 5 --cases 10 rotation-game
	judge gen eight-puzzle --kind all --out all

Exit codes: 0 written; 2 usage error, a problem without a reference, or a
file that cannot be written.
`,
	Flags: func(fs *flag.FlagSet) {
		fs.String("kind", reference.Random, "what to draw: `KIND` random, deep or all")
		fs.Int("count", 10, "how many files of kind random or deep")
		fs.Int("cases", 1, "cases per file where the format holds several")
		fs.Uint64("seed", 1, "the random seed")
		fs.String("out", "generated", "write the files into `DIR`")
	},
	Run: runGen,
}

func runGen(e *env, fs *flag.FlagSet, args []string) int {
	if len(args) != 1 {
		return e.usageError("want one PROBLEM, got %d arguments", len(args))
	}
	o := maintain.GenerateOptions{
		Kind:  flagValue(fs, "kind").(string),
		Count: flagValue(fs, "count").(int),
		Cases: flagValue(fs, "cases").(int),
		Seed:  flagValue(fs, "seed").(uint64),
		Dir:   flagValue(fs, "out").(string),
	}
	switch {
	case o.Kind != reference.Random && o.Kind != reference.Deep && o.Kind != maintain.All:
		return e.usageError("--kind %s: want random, deep or all", o.Kind)
	case o.Count < 1:
		return e.usageError("--count %d: want at least 1", o.Count)
	case o.Cases < 1:
		return e.usageError("--cases %d: want at least 1", o.Cases)
	}
	p, err := e.problem(args[0])
	if err != nil {
		return e.fail(err)
	}
	if p.Reference == nil && maintain.HasGenerators(p) {
		// as bt generate: the package's own generators
		var set []string
		fs.Visit(func(f *flag.Flag) {
			if f.Name != "problems" {
				set = append(set, "--"+f.Name)
			}
		})
		if len(set) > 0 {
			return e.usageError("%s has generators/generators.yaml, which judge gen runs as judge generate does: %s do not apply", p.Package.Origin, strings.Join(set, ", "))
		}
		gfs := flag.NewFlagSet("generate", flag.ContinueOnError)
		generateFlags(gfs)
		return e.generate(gfs, p)
	}
	gen, err := maintain.Generate(p, o)
	if err != nil {
		return e.fail(err)
	}
	first, last := filepath.Base(gen[0].In), filepath.Base(gen[len(gen)-1].In)
	span := first
	if len(gen) > 1 {
		span += " ... " + last
	}
	fmt.Fprintf(e.stdout, "%s: wrote %s into %s (%s), each with the reference's .ans\n", p.Name, plural(len(gen), "test"), o.Dir, span)
	if o.Kind == reference.Deep {
		if distinct, total, err := maintain.Distinct(p, gen); err == nil && distinct < total {
			fmt.Fprintf(e.stderr, "judge gen: warning: %d of the %d deep cases repeat another: the puzzle's deepest positions are few (%d drawn); ask for fewer, or use --kind random\n", total-distinct, total, distinct)
		}
	}
	return exitOK
}
