package main

import (
	"flag"
	"fmt"
	"path/filepath"

	"github.com/optjudge/optjudge/judge/maintain"
	"github.com/optjudge/optjudge/problems"
	"github.com/optjudge/optjudge/reference"
)

var cmdNew = &command{
	Name:      "new",
	UsageLine: "new [--puzzle] DIR",
	Short:     "write the skeleton of a new problem package",
	Long: `
New writes the skeleton of a Kattis/ICPC problem package (format 2025-09)
into the new directory DIR, whose name is the problem's (lower-case letters
and digits; dashes too): problem.yaml with a fresh uuid, a Markdown
statement, data/sample and data/secret, an input validator to fill in and
the submission folders. It loads as it is, and judge verify DIR says what it
still lacks.

With --puzzle the package is a puzzle problem: a starter definition,
puzzle.yaml (a 2x3 sliding puzzle, each key commented), is its checker,
input validator and reference, and its tests are generated from it (a
sample of one of the deepest boards; three files of five random boards).

Examples:

	judge new hello
	judge new --puzzle slide

Exit codes: 0 written; 2 usage error, or DIR exists.
`,
	Flags: func(fs *flag.FlagSet) {
		fs.Bool("puzzle", false, "a puzzle problem, with a starter definition and tests generated from it")
	},
	Run: runNew,
}

func runNew(e *env, fs *flag.FlagSet, args []string) int {
	if len(args) != 1 {
		return e.usageError("want DIR, got %d arguments", len(args))
	}
	dir := args[0]
	puzzle := fs.Lookup("puzzle").Value.String() == "true"
	s, err := problems.NewPackage(dir, puzzle)
	if err != nil {
		return e.fail(err)
	}
	files := s.Files
	if puzzle {
		made, err := generateStart(dir)
		if err != nil {
			return e.fail(err)
		}
		files = append(files, made...)
	}
	fmt.Fprintf(e.stdout, "wrote %s: a Kattis/ICPC package (2025-09)\n", dir)
	for _, f := range files {
		fmt.Fprintf(e.stdout, "  %s\n", f)
	}
	fmt.Fprintf(e.stdout, "to fill in:\n")
	for _, t := range s.Todo {
		fmt.Fprintf(e.stdout, "  %s\n", t)
	}
	return exitOK
}

// generateStart makes a new puzzle package's tests from its definition.
func generateStart(dir string) ([]string, error) {
	p, err := problems.LoadDir(dir)
	if err != nil {
		return nil, err
	}
	var made []string
	for _, g := range []struct {
		sub string
		o   maintain.GenerateOptions
	}{
		{"sample", maintain.GenerateOptions{Kind: reference.Deep, Count: 1, Cases: 1, Seed: 1}},
		{"secret", maintain.GenerateOptions{Kind: reference.Random, Count: 3, Cases: 5, Seed: 1}},
	} {
		g.o.Dir = filepath.Join(dir, "data", g.sub)
		files, err := maintain.Generate(p, g.o)
		if err != nil {
			return nil, err
		}
		for _, f := range files {
			rel, _ := filepath.Rel(dir, f.In)
			made = append(made, filepath.ToSlash(rel)+" (and .ans)")
		}
	}
	return made, nil
}
