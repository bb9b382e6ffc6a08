// Command solution is the eight-puzzle reference in contestant form: it reads
// the whole input from stdin and writes the answers to stdout.
package main

import (
	"fmt"
	"io"
	"os"

	"github.com/optjudge/optjudge/reference/eightpuzzle"
)

func main() {
	in, err := io.ReadAll(os.Stdin)
	if err == nil {
		var out []byte
		if out, err = eightpuzzle.Solve(in); err == nil {
			_, err = os.Stdout.Write(out)
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "eight-puzzle:", err)
		os.Exit(1)
	}
}
