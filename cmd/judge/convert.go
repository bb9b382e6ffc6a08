package main

import (
	"flag"
	"fmt"

	"github.com/optjudge/optjudge/problems"
)

var cmdConvert = &command{
	Name:      "convert",
	UsageLine: "convert [--out OUT] DIR",
	Short:     "rewrite a problem of the legacy native layout as a Kattis/ICPC package",
	Long: `
Convert rewrites the problem in DIR, of the judge's legacy native layout
(problem.yaml with name and title, testdata/, statement.md), as a
Kattis/ICPC package of format 2025-09, in DIR itself or, with --out, in the
new directory OUT (which must not exist, or be empty):

	testdata/              -> data/ (every test byte for byte)
	statement.md           -> statement/problem.en.md
	problem.yaml           -> written anew: problem_format_version 2025-09, name
	                          (the title), a new uuid, source, limits (with
	                          their comments)
	checker tokens|default -> the default output validator, its flags in
	                          data/{sample,secret}/test_group.yaml
	checker puzzle|NAME    -> puzzle.yaml beside problem.yaml (a shipped
	                          puzzle's definition copied; options.mode in it)
	checker.program        -> output_validator/ (a testlib checker in C, C++ or
	                          Python 3 with build and run scripts that call it
	                          by the format's protocol)
	input_validators       -> input_validators/
	interactor (kattis)    -> output_validator/, type: interactive
	solution/              -> submissions/accepted/solution/

Nothing is overwritten: a file the package would have that exists already is
an error, before anything changes. A directory that is already a package is
left as it is. The package is loaded once written; a problem that loads as
it did before converts to a package that verifies with the same tests.

Examples:

	judge convert problems/my-puzzle
	judge convert --out /tmp/my-puzzle-package problems/my-puzzle

Exit codes: 0 converted, or already a package; 2 usage error, a problem that
does not load, a part with no place in the format, or a file in the way.
`,
	Flags: func(fs *flag.FlagSet) {
		fs.String("out", "", "write the package to the new directory `OUT` (default: DIR itself)")
	},
	Run: runConvert,
}

func runConvert(e *env, fs *flag.FlagSet, args []string) int {
	if len(args) != 1 {
		return e.usageError("want DIR, got %d arguments", len(args))
	}
	out := fs.Lookup("out").Value.String()
	c, err := problems.Convert(args[0], out)
	if err != nil {
		return e.fail(err)
	}
	if c.Already {
		fmt.Fprintf(e.stdout, "%s is a Kattis/ICPC package already: nothing to do\n", args[0])
		return exitOK
	}
	for _, s := range c.Steps {
		fmt.Fprintf(e.stdout, "  %s\n", s)
	}
	if out == "" {
		out = args[0]
	}
	fmt.Fprintf(e.stdout, "converted %s: the package is %s\n", args[0], out)
	return exitOK
}
