package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/optjudge/optjudge/reference/lex"
)

var cmdSolve = &command{
	Name:      "solve",
	UsageLine: "solve [--problems DIR] PROBLEM [INPUT]",
	Short:     "print the reference solver's output for an input",
	Long: `
Solve reads INPUT (standard input when INPUT is absent or "-"), checks it with
the problem's input validator and prints the exact reference output.

Examples:

	judge solve rotation-game problems/rotation-game/data/sample/01-sample.in
	printf '3 3 0\n2 2 2\n2 1 2\n' | judge solve clocks

Exit codes: 0 solved; 2 usage error, unreadable or invalid input, or a problem
without a reference solver.
`,
	Run: runSolve,
}

func runSolve(e *env, _ *flag.FlagSet, args []string) int {
	if len(args) < 1 || len(args) > 2 {
		return e.usageError("want PROBLEM and at most one INPUT, got %d arguments", len(args))
	}
	p, err := e.problem(args[0])
	if err != nil {
		return e.fail(err)
	}
	if p.Reference == nil {
		return e.fail(fmt.Errorf("%s: the problem names no reference solver", p.Package.Origin))
	}
	name := "-"
	if len(args) == 2 {
		name = args[1]
	}
	in, err := e.readFile(name)
	if err != nil {
		return e.fail(err)
	}
	out, err := p.Reference.Solve(in)
	if err != nil {
		return e.fail(inFile(e.displayName(name), err))
	}
	if _, err := e.stdout.Write(out); err != nil {
		return e.fail(err)
	}
	return exitOK
}

// readFile reads a file named on the command line; "-" is standard input.
func (e *env) readFile(name string) ([]byte, error) {
	if name == "-" {
		b, err := io.ReadAll(e.stdin)
		if err != nil {
			return nil, fmt.Errorf("reading standard input: %w", err)
		}
		return b, nil
	}
	b, err := os.ReadFile(name)
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			return nil, fmt.Errorf("%s: %v", name, pe.Err)
		}
		return nil, err
	}
	return b, nil
}

func (e *env) displayName(name string) string {
	if name == "-" {
		return "<stdin>"
	}
	return name
}

// inFile prefixes an error about a file's content with the file's name, giving
// "name:line:col: msg" for a positioned error.
func inFile(name string, err error) error {
	var le *lex.Error
	if errors.As(err, &le) {
		return fmt.Errorf("%s:%v", name, le)
	}
	return fmt.Errorf("%s: %w", name, err)
}
