// Command solution is the reference solution of The Rotation Game in
// contestant form: it reads the input from stdin and writes the answer to
// stdout.
package main

import (
	"fmt"
	"io"
	"os"

	"github.com/optjudge/optjudge/reference/rotation"
)

func main() {
	in, err := io.ReadAll(os.Stdin)
	if err == nil {
		var out []byte
		if out, err = rotation.Solve(in); err == nil {
			_, err = os.Stdout.Write(out)
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "rotation-game:", err)
		os.Exit(1)
	}
}
