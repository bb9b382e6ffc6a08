package main

import (
	"context"
	"flag"
	"fmt"

	"github.com/optjudge/optjudge/checkers"
	"github.com/optjudge/optjudge/verdict"
)

var cmdCheck = &command{
	Name:      "check",
	UsageLine: "check [--problems DIR] PROBLEM INPUT OUTPUT [ANSWER]",
	Short:     "judge one output with the problem's checker",
	Long: `
Check judges OUTPUT, a contestant's output for INPUT, with the problem's
checker and prints the verdict and the checker's message, e.g.

	WA: case 3: 9 moves, the optimum is 7

A puzzle's checker replays the moves against its definition, the exact
reference, and needs no ANSWER (one given is not read). Other checkers compare
with ANSWER; when it is absent, the problem's reference solver writes it, where
the problem has one. OUTPUT may be "-" for standard input.

Examples:

	judge check rotation-game case.in my.out
	./a.out < case.in | judge check eight-puzzle case.in -

Exit codes: 0 accepted; 1 rejected; 2 usage error, an unreadable or invalid
INPUT, or a checker or reference failure (a judge error).
`,
	Run: runCheck,
}

func runCheck(e *env, _ *flag.FlagSet, args []string) int {
	if len(args) < 3 || len(args) > 4 {
		return e.usageError("want PROBLEM INPUT OUTPUT [ANSWER], got %d arguments", len(args))
	}
	p, err := e.problem(args[0])
	if err != nil {
		return e.fail(err)
	}
	if args[1] == "-" {
		return e.usageError("INPUT cannot be standard input")
	}
	var f checkers.Files
	if f.Input, err = e.readFile(args[1]); err != nil {
		return e.fail(err)
	}
	if p.Validator != nil {
		if err := p.Validator.Validate(f.Input); err != nil {
			return e.fail(inFile(args[1], err))
		}
	}
	if f.Output, err = e.readFile(args[2]); err != nil {
		return e.fail(err)
	}
	if len(args) == 4 {
		if f.Answer, err = e.readFile(args[3]); err != nil {
			return e.fail(err)
		}
	}
	ctx := context.Background()
	chk := p.Package.Checker
	if p.Package.CheckerProgram != nil {
		langs, err := languages("", p)
		if err != nil {
			return e.fail(err)
		}
		j, err := newJudge(langs)
		if err != nil {
			return e.fail(err)
		}
		defer j.Close()
		if chk, err = j.Checker(ctx, p, nil); err != nil {
			return e.fail(fmt.Errorf("building the checker: %w", err))
		}
	}
	if f.Answer == nil && p.Reference != nil && checkers.UsesAnswer(chk) {
		if f.Answer, err = p.Reference.Solve(f.Input); err != nil {
			return e.fail(fmt.Errorf("reference solver: %w", inFile(args[1], err)))
		}
	}
	r, err := chk.Check(ctx, f)
	if err != nil {
		fmt.Fprintf(e.stdout, "%s: %v\n", verdict.JE, err)
		return exitError
	}
	fmt.Fprintf(e.stdout, "%s: %s\n", r.Verdict, r.Message)
	if r.Verdict != verdict.AC {
		return exitRejected
	}
	return exitOK
}
