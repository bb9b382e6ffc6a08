// Command solution is the reference of an embedded problem in contestant
// form: it reads the input from stdin and writes the answer to stdout,
// solved by the problem's definition (its puzzle.yaml) through the
// generic engine. The problem is chosen when it is built:
//
//	go build -ldflags "-X main.problem=rotation-game" ./problems/internal/solution
package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/optjudge/optjudge/problems"
)

// problem is the embedded problem's name, set by the linker.
var problem string

func main() {
	if err := solve(os.Stdin, os.Stdout); err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", problem, err)
		os.Exit(1)
	}
}

func solve(r io.Reader, w io.Writer) error {
	in, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	p, err := problems.LoadEmbedded(problem)
	if err != nil {
		return err
	}
	if p.Reference == nil {
		return errors.New("the problem has no reference solver")
	}
	out, err := p.Reference.Solve(in)
	if err != nil {
		return err
	}
	_, err = w.Write(out)
	return err
}
