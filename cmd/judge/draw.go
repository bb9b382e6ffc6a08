package main

import (
	"flag"
	"fmt"
	"strconv"

	"github.com/optjudge/optjudge/checkers/explain"
)

var cmdDraw = &command{
	Name:      "draw",
	UsageLine: "draw [--svg] [--case N] PROBLEM INPUT [ANSWER]",
	Short:     "draw a puzzle's cases, or an answer's moves, as the judge draws them",
	Long: `
Draw draws the cases of INPUT as judge watch and the web pages draw a
puzzle problem's positions, for a setter checking a definition's layout:
each case's start and goal, and the reference's answer. With ANSWER, each
case's moves as ANSWER gives them are replayed instead: the position they
reach, the move where they went wrong, and, for a valid answer that is not
the one wanted, the reference's beside it. INPUT (or ANSWER) may be "-"
for standard input.

	judge draw clocks case.in
	judge draw rotation-game case.in my.out
	judge draw --svg --case 2 eight-puzzle case.in > case2.svg

--case N draws case N alone; --svg writes the drawing of one case (N, or
the first) as an SVG document, as the web pages show it.

Exit codes: 0 drawn; 2 usage error, a problem with no puzzle definition
to draw with, or an input the puzzle cannot read.
`,
	Flags: func(fs *flag.FlagSet) {
		fs.Bool("svg", false, "write one case's drawing as an SVG document")
		fs.Int("case", 0, "draw case `N` alone (from 1)")
	},
	Run: runDraw,
}

func runDraw(e *env, fs *flag.FlagSet, args []string) int {
	if len(args) < 2 || len(args) > 3 {
		return e.usageError("want PROBLEM INPUT [ANSWER], got %d arguments", len(args))
	}
	svg := fs.Lookup("svg").Value.String() == "true"
	only, _ := strconv.Atoi(fs.Lookup("case").Value.String())
	p, err := e.problem(args[0])
	if err != nil {
		return e.fail(err)
	}
	if p.Puzzle == nil {
		return e.fail(fmt.Errorf("%s: no puzzle definition to draw with (its checker is not a puzzle's)", p.Name))
	}
	input, err := e.readFile(args[1])
	if err != nil {
		return e.fail(err)
	}
	if err := p.Puzzle.Validate(input); err != nil {
		return e.fail(fmt.Errorf("%s: %w", args[1], err))
	}
	var es []*explain.Explanation
	if len(args) == 3 {
		answer, err := e.readFile(args[2])
		if err != nil {
			return e.fail(err)
		}
		es = explain.Answers(p.PuzzleChecker(), input, answer)
	} else {
		es = explain.Cases(p.Puzzle, input)
	}
	if only < 0 || only > len(es) {
		return e.usageError("--case %d: the input holds %d cases", only, len(es))
	}
	if only > 0 {
		es = es[only-1 : only]
	}
	if svg {
		fmt.Fprint(e.stdout, es[0].SVG())
		return exitOK
	}
	for i, ex := range es {
		if i > 0 {
			fmt.Fprintln(e.stdout)
		}
		fmt.Fprint(e.stdout, ex.Text())
	}
	return exitOK
}
