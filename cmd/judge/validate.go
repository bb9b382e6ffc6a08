package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/optjudge/optjudge/checkers"
	"github.com/optjudge/optjudge/problems"
	"github.com/optjudge/optjudge/problems/kattis"
)

var cmdValidate = &command{
	Name:      "validate",
	UsageLine: "validate [--problems DIR] PROBLEM [FILE|DIR]...",
	Short:     "check input files with the problem's input validator",
	Long: `
Validate checks each FILE with the problem's input validator and prints one
message per invalid file, naming the line and column:

	bad.in:2:7: value 4 out of range 0..3

A DIR stands for every *.in below it. Without FILE arguments it validates the
problem's own testdata.

Examples:

	judge validate clocks my-test.in
	judge validate eight-puzzle generated/

Exit codes: 0 every file is valid; 1 some file is invalid; 2 usage error or an
unreadable file.
`,
	Run: runValidate,
}

func runValidate(e *env, _ *flag.FlagSet, args []string) int {
	if len(args) < 1 {
		return e.usageError("want PROBLEM and the files to validate")
	}
	p, err := e.problem(args[0])
	if err != nil {
		return e.fail(err)
	}
	if p.Validator == nil && len(p.Package.InputValidators) == 0 {
		return e.fail(fmt.Errorf("%s: the problem names no input validator", p.Package.Origin))
	}
	ctx := context.Background()
	var external []*checkers.InputValidator
	if len(p.Package.InputValidators) > 0 {
		langs, err := languages("", p)
		if err != nil {
			return e.fail(err)
		}
		j, err := newJudge(langs)
		if err != nil {
			return e.fail(err)
		}
		defer j.Close()
		for _, w := range p.Package.ToolWarnings(j.LookPath) {
			fmt.Fprintf(e.stderr, "judge validate: warning: %s\n", w)
		}
		if external, err = j.InputValidators(ctx, p, nil); err != nil {
			return e.fail(fmt.Errorf("building the input validators: %w", err))
		}
	}
	var files []file
	if len(args) == 1 {
		tests, err := p.Package.Tests()
		if err != nil {
			return e.fail(err)
		}
		for _, t := range tests {
			files = append(files, file{name: t.Path(t.In), read: t.Input, test: &t})
		}
	} else if files, err = expand(args[1:]); err != nil {
		return e.fail(err)
	}
	invalid := 0
	for _, f := range files {
		in, err := f.read()
		if err != nil {
			return e.fail(err)
		}
		bad, err := validateInput(ctx, p, withArgs(p, external, f.test), in)
		if err != nil {
			return e.fail(fmt.Errorf("validating %s: %w", f.name, err))
		}
		if bad != nil {
			invalid++
			fmt.Fprintln(e.stdout, inFile(f.name, bad))
		}
	}
	fmt.Fprintf(e.stdout, "%d of %d files valid\n", len(files)-invalid, len(files))
	if invalid > 0 {
		return exitRejected
	}
	return exitOK
}

// validateInput runs the built-in validator and then every external one. It
// returns the first complaint about in (nil when valid), or an error when a
// validator could not run.
func validateInput(ctx context.Context, p *problems.Problem, external []*checkers.InputValidator, in []byte) (bad, err error) {
	if p.Validator != nil {
		if bad := p.Validator.Validate(in); bad != nil {
			return bad, nil
		}
	}
	for _, v := range external {
		msg, err := v.Validate(ctx, in)
		if err != nil {
			return nil, err
		}
		if msg != "" {
			return errors.New(msg), nil
		}
	}
	return nil, nil
}

type file struct {
	name string
	read func() ([]byte, error)
	test *kattis.Test // the problem's test it is, or nil
}

// withArgs gives the validators the arguments of test t (each group's
// input_validator_flags or input_validator_args); nil t: their own.
func withArgs(p *problems.Problem, vs []*checkers.InputValidator, t *kattis.Test) []*checkers.InputValidator {
	if t == nil {
		return vs
	}
	out := make([]*checkers.InputValidator, len(vs))
	for i, v := range vs {
		c := *v
		for _, prog := range p.Package.InputValidators {
			if prog.Name() == v.Program {
				c.Args = p.Package.InputValidatorArgs(*t, prog)
			}
		}
		out[i] = &c
	}
	return out
}

// expand turns the FILE|DIR arguments into files, a directory into every *.in
// below it in lexical order.
func expand(args []string) ([]file, error) {
	var files []file
	for _, a := range args {
		st, err := os.Stat(a)
		if err != nil {
			return nil, fmt.Errorf("%s: no such file or directory", a)
		}
		if !st.IsDir() {
			files = append(files, osFile(a))
			continue
		}
		err = filepath.WalkDir(a, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() && strings.HasSuffix(p, ".in") {
				files = append(files, osFile(p))
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return files, nil
}

func osFile(name string) file {
	return file{name: name, read: func() ([]byte, error) {
		b, err := os.ReadFile(name)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", name, err)
		}
		return b, nil
	}}
}
