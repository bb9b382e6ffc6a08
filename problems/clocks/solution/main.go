// Command solution is the reference solution of The Clocks in contestant
// form: it reads the input from stdin and writes the answer to stdout.
package main

import (
	"fmt"
	"io"
	"os"

	"github.com/optjudge/optjudge/reference/clocks"
)

func main() {
	in, err := io.ReadAll(os.Stdin)
	if err == nil {
		var out []byte
		if out, err = clocks.Solve(in); err == nil {
			_, err = os.Stdout.Write(out)
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "clocks:", err)
		os.Exit(1)
	}
}
