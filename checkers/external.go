package checkers

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/optjudge/optjudge/bytesize"
	"github.com/optjudge/optjudge/internal/proc"
	"github.com/optjudge/optjudge/reference/puzzle/judging"
	"github.com/optjudge/optjudge/verdict"
)

// Protocol says how an external checker program is called and how its exit
// code reads.
type Protocol int

const (
	// NoProtocol is the zero value: not an external checker.
	NoProtocol Protocol = iota
	// Testlib runs "checker input output answer"; exit 0 is AC, 1 WA, 2 a
	// presentation error (reported as WA), 3 the checker failed (JE), and
	// anything else JE. The message is what it wrote to stderr.
	Testlib
	// Kattis runs "validator input answer feedback_dir/ [args] < output";
	// exit 42 is AC, 43 WA, anything else JE. The message is
	// feedback_dir/judgemessage.txt.
	Kattis
)

var protocolNames = map[Protocol]string{NoProtocol: "none", Testlib: "testlib", Kattis: "kattis"}

func (p Protocol) String() string {
	if n, ok := protocolNames[p]; ok {
		return n
	}
	return fmt.Sprintf("Protocol(%d)", int(p))
}

// ParseProtocol reads a protocol's name as problem.yaml writes it: testlib or
// kattis.
func ParseProtocol(s string) (Protocol, error) {
	switch s {
	case "testlib":
		return Testlib, nil
	case "kattis":
		return Kattis, nil
	}
	return NoProtocol, fmt.Errorf("%q: want testlib or kattis", s)
}

// DefaultProgramTimeout bounds one run of a checker or validator program, as
// Kattis's validation_time does.
const DefaultProgramTimeout = 60 * time.Second

// messageCap bounds the message taken from a program's files and streams.
const messageCap = 2 << 10

// Command is a trusted program of a problem (an output or input validator),
// already built. Its Runner runs it, the judge's box for problem
// programs; without one it runs outside any sandbox with proc.Run: in its
// own process group, under a timeout, its output capped.
type Command struct {
	Name    string        // for messages, e.g. "output_validators/check"
	Argv    []string      // the program and its fixed arguments; Argv[0] is a path
	Dir     string        // working directory; "" the judge's
	Env     []string      // the environment; nil: PATH=/usr/local/bin:/usr/bin:/bin
	Timeout time.Duration // 0: DefaultProgramTimeout
	// Memory is the program's address-space limit (Kattis
	// validation_memory), for programs that can take one
	// (proc.AddressSpaceSafe); 0: none.
	Memory bytesize.Size
	// Output bounds what the program writes: its standard output and
	// error together, and a Kattis validator's feedback directory too
	// (validation_output); past it, the check is an error (JE). 0: none
	// (the streams are kept up to proc.DefaultCap each).
	Output bytesize.Size
	// Runner runs the program; nil: proc.Run, as the judge's own user
	// with the machine in view.
	Runner Runner
}

// Runner runs a Command's program for one check: the judge gives each
// problem program a box of its own, where it sees the files of Run.Read
// and may write only in Run.Dir and Run.Writable, under the Command's
// Timeout, Memory and Output.
type Runner interface {
	Run(ctx context.Context, c *Command, r *Run) (*Ran, error)
}

// Run is one run of a Command's program.
type Run struct {
	Args  []string // after Command.Argv
	Stdin []byte
	Read  []string // files it reads (a test's input and answer), read-only
	// Dir is its working directory, which it may write (a Kattis
	// validator's feedback directory); "": a scratch directory of the
	// Runner's.
	Dir      string
	Writable []string // other directories it may write
}

// Ran is how a run that ended by itself ended. A run that did not (a
// limit broke, a signal killed it) is the Runner's error, which names
// the limit.
type Ran struct {
	ExitCode       int
	Stdout, Stderr []byte
}

// Proc is one run of the program with extra arguments, as proc runs it:
// the timeout (0: DefaultProgramTimeout) and memory limit applied.
func (c *Command) Proc(args []string) *proc.Cmd {
	timeout := c.Timeout
	if timeout <= 0 {
		timeout = DefaultProgramTimeout
	}
	pc := &proc.Cmd{Argv: append(append([]string(nil), c.Argv...), args...), Dir: c.Dir, Env: c.Env, Timeout: timeout}
	if proc.AddressSpaceSafe(c.Argv) {
		pc.Memory = c.Memory
	}
	return pc
}

// runResult is what one run of a Command left.
type runResult struct {
	code           int // the exit code
	stdout, stderr []byte
}

// run runs c with extra arguments and stdin. An error means it could not run
// to its end: it did not start, a signal killed it, it timed out or ctx was
// cancelled.
func (c *Command) run(ctx context.Context, r *Run) (*runResult, error) {
	if len(c.Argv) == 0 {
		return nil, fmt.Errorf("%s: no program", c.Name)
	}
	if c.Runner != nil {
		ran, err := c.Runner.Run(ctx, c, r)
		switch {
		case err != nil && ctx.Err() != nil:
			return nil, ctx.Err()
		case err != nil:
			return nil, fmt.Errorf("%s: %w", c.Name, err)
		case c.Output > 0 && len(ran.Stdout)+len(ran.Stderr) > int(c.Output):
			return nil, fmt.Errorf("%s: wrote more than its output limit of %s (validation_output)", c.Name, c.Output)
		}
		return &runResult{code: ran.ExitCode, stdout: ran.Stdout, stderr: ran.Stderr}, nil
	}
	pc := c.Proc(r.Args)
	pc.Stdin = r.Stdin
	if c.Output > 0 {
		pc.Cap = int(min(c.Output+1, 1<<30))
	}
	timeout := pc.Timeout
	res, err := proc.Run(ctx, pc)
	switch {
	case err != nil && ctx.Err() != nil:
		return nil, ctx.Err()
	case err != nil:
		return nil, fmt.Errorf("%s: %w", c.Name, err)
	case res.TimedOut:
		return nil, fmt.Errorf("%s: no verdict within %v", c.Name, timeout)
	case res.Signal != 0:
		return nil, fmt.Errorf("%s: killed by %v%s", c.Name, res.Signal, hint(res.Stderr))
	case c.Output > 0 && len(res.Stdout)+len(res.Stderr) > int(c.Output):
		return nil, fmt.Errorf("%s: wrote more than its output limit of %s (validation_output)", c.Name, c.Output)
	}
	return &runResult{code: res.ExitCode, stdout: res.Stdout, stderr: res.Stderr}, nil
}

// feedbackSize is the size of the files a validator left in its feedback
// directory.
func feedbackSize(dir string) int64 {
	var n int64
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if fi, err := d.Info(); err == nil {
				n += fi.Size()
			}
		}
		return nil
	})
	return n
}

// External is a checker program of the problem, called by one of the two
// protocols. A verdict it cannot give (a crash, an unknown exit code, a
// timeout, testlib's "fail") is an error, so the test is JE, never AC.
type External struct {
	Command
	Protocol Protocol
	Args     []string // after the protocol's arguments (Kattis validator_flags)
	TempDir  string   // where each check's files go; "": the system's
}

// Check writes the input, output and answer to files and runs the program on
// them. A missing answer is an empty file, as Kattis allows.
func (x *External) Check(ctx context.Context, f Files) (Result, error) {
	return x.check(ctx, f, "")
}

// Pass checks one pass of a multi-pass problem's test with a Kattis
// validator: as Check, the input being the pass's, in the feedback
// directory feedback, which exists and lasts from pass to pass (the
// validator writes the next pass's input there, nextpass.in).
func (x *External) Pass(ctx context.Context, f Files, feedback string) (Result, error) {
	if x.Protocol != Kattis {
		return Result{}, fmt.Errorf("%s: a multi-pass problem's validator follows the Kattis protocol, not %v", x.Name, x.Protocol)
	}
	return x.check(ctx, f, feedback)
}

// check runs the program on f; a Kattis validator's feedback directory is
// feedback, or a fresh one when "".
func (x *External) check(ctx context.Context, f Files, feedback string) (Result, error) {
	dir, err := os.MkdirTemp(x.TempDir, "optjudge-check-")
	if err != nil {
		return Result{}, fmt.Errorf("%s: %w", x.Name, err)
	}
	defer os.RemoveAll(dir)
	// a Runner's box may run as a uid of its own, which reads the files
	// (and, where it sees the machine, passes the directory)
	if err := os.Chmod(dir, 0o711); err != nil {
		return Result{}, fmt.Errorf("%s: %w", x.Name, err)
	}
	in, out, ans := filepath.Join(dir, "input"), filepath.Join(dir, "output"), filepath.Join(dir, "answer")
	for name, data := range map[string][]byte{in: f.Input, out: f.Output, ans: f.Answer} {
		if err := os.WriteFile(name, data, 0o644); err != nil {
			return Result{}, fmt.Errorf("%s: %w", x.Name, err)
		}
	}
	switch x.Protocol {
	case Testlib:
		return x.testlib(ctx, in, out, ans)
	case Kattis:
		if feedback == "" {
			feedback = filepath.Join(dir, "feedback")
			if err := os.Mkdir(feedback, 0o755); err != nil {
				return Result{}, fmt.Errorf("%s: %w", x.Name, err)
			}
		}
		return x.kattis(ctx, in, ans, strings.TrimSuffix(feedback, "/")+"/", f.Output)
	}
	return Result{}, fmt.Errorf("%s: unknown protocol %v", x.Name, x.Protocol)
}

func (x *External) testlib(ctx context.Context, in, out, ans string) (Result, error) {
	r, err := x.run(ctx, &Run{Args: append([]string{in, out, ans}, x.Args...), Read: []string{in, out, ans}})
	if err != nil {
		return Result{}, err
	}
	stderr := r.stderr
	if message(stderr) == "" {
		stderr = r.stdout
	}
	return TestlibResult(x.Name, r.code, stderr)
}

// TestlibResult reads a testlib checker's or interactor's verdict from its
// exit code: 0 AC, 1 WA, 2 a presentation error (WA); 3 (it failed) or any
// other code is an error (JE). The message is what it wrote to stderr.
func TestlibResult(name string, code int, stderr []byte) (Result, error) {
	msg := message(stderr)
	switch code {
	case 0:
		return Result{Verdict: verdict.AC, Message: msg}, nil
	case 1:
		return Result{Verdict: verdict.WA, Message: msg}, nil
	case 2:
		return Result{Verdict: verdict.WA, Message: "presentation error: " + msg}, nil
	case 3:
		return Result{}, fmt.Errorf("%s failed: %s", name, orNothing(msg))
	}
	return Result{}, fmt.Errorf("%s: exit code %d is not a testlib verdict: %s", name, code, orNothing(msg))
}

func (x *External) kattis(ctx context.Context, in, ans, feedback string, output []byte) (Result, error) {
	r, err := x.run(ctx, &Run{Args: append([]string{in, ans, feedback}, x.Args...), Stdin: output, Read: []string{in, ans}, Dir: feedback})
	if err != nil {
		return Result{}, err
	}
	if x.Output > 0 && int64(len(r.stdout)+len(r.stderr))+feedbackSize(feedback) > int64(x.Output) {
		return Result{}, fmt.Errorf("%s: wrote more than its output limit of %s (validation_output), its feedback directory included", x.Name, x.Output)
	}
	return KattisResult(x.Name, r.code, feedback, r.stderr)
}

// Static runs a 2025-09 static validator, in c's directory (which holds
// the submission's files): "validator language entry_point feedback_dir
// [args]". Its verdict is read as a Kattis output validator's (see
// KattisResult); feedback is the feedback directory, which exists.
func (x *External) Static(ctx context.Context, language, entry, feedback string, args []string) (Result, error) {
	r, err := x.run(ctx, &Run{Args: append([]string{language, entry, feedback}, args...), Dir: x.Dir, Writable: []string{feedback}})
	if err != nil {
		return Result{}, err
	}
	if x.Output > 0 && int64(len(r.stdout)+len(r.stderr))+feedbackSize(feedback) > int64(x.Output) {
		return Result{}, fmt.Errorf("%s: wrote more than its output limit of %s (validation_output), its feedback directory included", x.Name, x.Output)
	}
	return KattisResult(x.Name, r.code, feedback, r.stderr)
}

// KattisResult reads a Kattis validator's verdict from its exit code and
// its feedback directory: 42 AC, 43 WA, each with its message and score
// files; any other exit code, or a score file that holds no number, is an
// error (JE). stderr is the message when the feedback has none. A WA
// carries the finding the validator wrote (FindingFile), where it wrote one.
func KattisResult(name string, code int, feedback string, stderr []byte) (Result, error) {
	fb, err := ReadFeedback(feedback)
	if fb.Message == "" {
		fb.Message = message(stderr)
	}
	if err != nil {
		return Result{}, fmt.Errorf("%s: %w", name, err)
	}
	switch code {
	case 42:
		return Result{Verdict: verdict.AC, Message: fb.Message, Score: fb.Score, Multiplier: fb.Multiplier}, nil
	case 43:
		return Result{Verdict: verdict.WA, Message: fb.Message, Score: fb.Score, Multiplier: fb.Multiplier, Finding: fb.Finding}, nil
	}
	return Result{}, fmt.Errorf("%s: exit code %d is not a Kattis verdict (42 or 43): %s", name, code, orNothing(fb.Message))
}

// Feedback is what a Kattis validator left in its feedback directory.
type Feedback struct {
	Message           string   // judgemessage.txt, else teammessage.txt; "" when neither says anything
	Score, Multiplier *float64 // score.txt and score_multiplier.txt; nil when absent
	// Finding is what FindingFile says, the facts of a rejection by a
	// puzzle's checker (judge validator output writes it beside
	// judgemessage.txt); nil when absent. The message of a validator
	// that writes none stays text, never read for facts.
	Finding *judging.Finding
}

// FindingFile is the file of a feedback directory in which a puzzle's
// checker, run as a Kattis output validator, writes its finding as JSON,
// beside the message it renders from it in judgemessage.txt.
const FindingFile = "finding.json"

// ReadFeedback reads the feedback directory dir. A score file that does
// not hold one number is an error (problemtools: "failed to parse
// validator score"); the message is read all the same.
func ReadFeedback(dir string) (Feedback, error) {
	var fb Feedback
	for _, name := range []string{"judgemessage.txt", "teammessage.txt"} {
		if b, err := os.ReadFile(filepath.Join(dir, name)); err == nil {
			if m := message(b); m != "" {
				fb.Message = m
				break
			}
		}
	}
	var first error
	for _, f := range []struct {
		name string
		dst  **float64
	}{{"score.txt", &fb.Score}, {"score_multiplier.txt", &fb.Multiplier}} {
		b, err := os.ReadFile(filepath.Join(dir, f.name))
		if err != nil {
			continue
		}
		x, err := strconv.ParseFloat(strings.TrimSpace(string(b)), 64)
		if err != nil && first == nil {
			first = fmt.Errorf("%s holds %q, not a number", f.name, message(b))
			continue
		}
		*f.dst = &x
	}
	if b, err := os.ReadFile(filepath.Join(dir, FindingFile)); err == nil {
		var f judging.Finding
		if err := json.Unmarshal(b, &f); err != nil {
			if first == nil {
				first = fmt.Errorf("%s: %v", FindingFile, err)
			}
		} else {
			fb.Finding = &f
		}
	}
	return fb, first
}

// InputValidator is a Kattis input validator: the input on stdin, exit code
// 42 means valid and any other exit code invalid. A checktestdata or viva
// script is one too, run by its tool: exit code 0 means valid, and viva
// takes the input as a file. An error means it could not run to its end.
type InputValidator struct {
	Command
	Args    []string // Kattis input_validator_flags or input_validator_args
	Program string   // its name in the package, by which per-validator arguments are given
	// ExitZeroValid: exit code 0, not 42, means valid (checktestdata, viva).
	ExitZeroValid bool
	// FileArg: the input is the last argument, a file in TempDir, not
	// stdin (viva).
	FileArg bool
	TempDir string
}

// Validate runs the validator on input and returns "" for a valid input, or
// why it is not: the validator's message, or its exit code.
func (v *InputValidator) Validate(ctx context.Context, input []byte) (string, error) {
	return v.validate(ctx, v.Args, input)
}

// validate runs the validator with args on data (stdin, or a file for
// FileArg).
func (v *InputValidator) validate(ctx context.Context, args []string, data []byte, read ...string) (string, error) {
	stdin := data
	if v.FileArg {
		f, err := os.CreateTemp(v.TempDir, "optjudge-validate-")
		if err != nil {
			return "", fmt.Errorf("%s: %w", v.Name, err)
		}
		defer os.Remove(f.Name())
		_, err = f.Write(data)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err == nil {
			err = os.Chmod(f.Name(), 0o644) // for a Runner's box uid
		}
		if err != nil {
			return "", fmt.Errorf("%s: %w", v.Name, err)
		}
		args, stdin = append(append([]string(nil), args...), f.Name()), nil
		read = append(read, f.Name())
	}
	r, err := v.run(ctx, &Run{Args: args, Stdin: stdin, Read: read})
	if err != nil {
		return "", err
	}
	valid := 42
	if v.ExitZeroValid {
		valid = 0
	}
	if r.code == valid {
		return "", nil
	}
	msg := message(r.stderr)
	if msg == "" {
		msg = message(r.stdout)
	}
	return fmt.Sprintf("%s: exit code %d, want %d: %s", v.Name, r.code, valid, orNothing(msg)), nil
}

// AnswerValidator checks an answer file as BAPCtools runs the programs of
// answer_validators/: `validator input_file [args] < answer`, exit code 42
// valid (a checktestdata or viva script checks the answer alone, as an
// input).
type AnswerValidator struct {
	InputValidator
}

// Validate runs the validator on an answer with the test's input and
// returns "" for a valid answer, or why it is not.
func (v *AnswerValidator) Validate(ctx context.Context, input, answer []byte, args []string) (string, error) {
	if v.ExitZeroValid {
		return v.validate(ctx, nil, answer)
	}
	f, err := os.CreateTemp(v.TempDir, "optjudge-input-")
	if err != nil {
		return "", fmt.Errorf("%s: %w", v.Name, err)
	}
	defer os.Remove(f.Name())
	_, err = f.Write(input)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(f.Name(), 0o644) // for a Runner's box uid
	}
	if err != nil {
		return "", fmt.Errorf("%s: %w", v.Name, err)
	}
	return v.validate(ctx, append([]string{f.Name()}, args...), answer, f.Name())
}

// message tidies a program's message: trimmed, lines joined by " | ", cut to
// messageCap bytes.
func message(b []byte) string {
	s := strings.TrimSpace(string(b))
	if len(s) > messageCap {
		s = s[:messageCap] + "..."
	}
	lines := strings.Split(s, "\n")
	for i := range lines {
		lines[i] = strings.TrimSpace(lines[i])
	}
	return strings.Join(lines, " | ")
}

func orNothing(msg string) string {
	if msg == "" {
		return "no message"
	}
	return msg
}

func hint(stderr []byte) string {
	if m := message(stderr); m != "" {
		return ": " + m
	}
	return ""
}

// Unbuilt stands for a checker program not built yet: judge builds it with
// its language table before grading. Every Check fails, so a caller that
// skips the build gets JE, never a verdict.
type Unbuilt struct {
	Path string // the program in the problem directory
}

// Check always fails.
func (u Unbuilt) Check(context.Context, Files) (Result, error) {
	return Result{}, fmt.Errorf("the checker %s is a program that must be built first (judge.Judge.Checker)", u.Path)
}

// UsesAnswer is true: both protocols hand the program the answer file.
func (x *External) UsesAnswer() bool { return true }
