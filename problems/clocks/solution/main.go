// Command solution is the reference solution of clocks in contestant form:
// it reads the input from stdin and writes the answer to stdout. The
// reference is the problem's puzzle.yaml, solved by the generic engine.
package main

import (
	"fmt"
	"io"
	"os"

	"github.com/optjudge/optjudge/problems"
)

func main() {
	in, err := io.ReadAll(os.Stdin)
	if err == nil {
		var p *problems.Problem
		if p, err = problems.LoadEmbedded("clocks"); err == nil {
			var out []byte
			if out, err = p.Reference.Solve(in); err == nil {
				_, err = os.Stdout.Write(out)
			}
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "clocks:", err)
		os.Exit(1)
	}
}
