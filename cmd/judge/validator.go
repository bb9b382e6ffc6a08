package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/optjudge/optjudge/checkers"
	"github.com/optjudge/optjudge/problems"
	"github.com/optjudge/optjudge/verdict"
)

// Exit codes of the format's validators.
const (
	exitValid   = 42 // accepted, valid
	exitInvalid = 43 // rejected, invalid
)

var cmdValidator = &command{
	Name:      "validator",
	UsageLine: "validator output DEFINITION INPUT ANSWER FEEDBACK_DIR [ARGS...] < OUTPUT | validator input DEFINITION [ARGS...] < INPUT",
	Short:     "run a puzzle definition as a Kattis/ICPC output or input validator",
	Long: `
Validator judges with a puzzle definition (a puzzle.yaml) as the Kattis/ICPC
problem package format calls its validators, so that the definition's checker
and input validator serve in any judge that runs the format: judge export
ships this program with the definition, behind the format's build and run
scripts.

	judge validator output puzzle.yaml INPUT ANSWER FEEDBACK_DIR [ARGS...] < OUTPUT

judges OUTPUT, a submission's output for INPUT, in the definition's mode (its
mode key): exit 42 accepted, 43 rejected, the checker's message in
FEEDBACK_DIR/judgemessage.txt and, of a rejection, the facts it is rendered
from in FEEDBACK_DIR/finding.json (the case, the move, what is wrong: the
judge's report's "finding"). The answer file is not needed: the definition
is the exact reference (it is read, as the format gives it, and ignored).

	judge validator input puzzle.yaml [ARGS...] < INPUT

checks INPUT: exit 42 valid, 43 invalid with the reason on standard output.

Both ignore ARGS (a judge's output_validator_args, such as BAPCtools'
case_sensitive). The definition's tables are kept in the judge's cache
directory, or, where it cannot write there, in $TMPDIR/optjudge-puzzles: the
first check of a puzzle with a table builds it (a second or so), the next
ones read it.

Exit codes: 42 accepted or valid; 43 rejected or invalid; 2 usage error, an
unreadable file, a bad definition or a checker failure (a judge error).
`,
	Run: runValidator,
}

func runValidator(e *env, _ *flag.FlagSet, args []string) int {
	if len(args) < 2 || args[0] != "output" && args[0] != "input" {
		return e.usageError("want output or input, then the definition")
	}
	if args[0] == "output" && len(args) < 5 {
		return e.usageError("output wants DEFINITION INPUT ANSWER FEEDBACK_DIR, got %d arguments", len(args)-1)
	}
	d, err := problems.LoadDefinition(args[1], "")
	if err != nil {
		return e.fail(err)
	}
	if args[0] == "input" {
		return e.validateInput(d)
	}
	return e.validateOutput(d, args[2], args[3], args[4])
}

func (e *env) validateInput(d *problems.Definition) int {
	in, err := e.readFile("-")
	if err != nil {
		return e.fail(err)
	}
	if err := d.Validator.Validate(in); err != nil {
		fmt.Fprintln(e.stdout, err)
		return exitInvalid
	}
	return exitValid
}

func (e *env) validateOutput(d *problems.Definition, input, answer, feedback string) int {
	var f checkers.Files
	var err error
	if f.Input, err = e.readFile(input); err != nil {
		return e.fail(err)
	}
	if f.Answer, err = e.readFile(answer); err != nil {
		return e.fail(err)
	}
	if f.Output, err = e.readFile("-"); err != nil {
		return e.fail(err)
	}
	res, err := d.Checker.Check(context.Background(), f)
	if err != nil {
		return e.fail(err)
	}
	// BAPCtools names the directory without the format's trailing slash
	msg := strings.TrimSpace(res.Message) + "\n"
	if err := os.WriteFile(filepath.Join(feedback, "judgemessage.txt"), []byte(msg), 0o644); err != nil {
		return e.fail(err)
	}
	if res.Finding != nil {
		// the facts the message is rendered from, for a grader that
		// reads them (checkers.ReadFeedback); others ignore the file
		b, err := json.Marshal(res.Finding)
		if err != nil {
			return e.fail(err)
		}
		if err := os.WriteFile(filepath.Join(feedback, checkers.FindingFile), b, 0o644); err != nil {
			return e.fail(err)
		}
	}
	if res.Verdict == verdict.AC {
		return exitValid
	}
	return exitInvalid
}
