package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/optjudge/optjudge/judge"
	"github.com/optjudge/optjudge/judge/lang"
	"github.com/optjudge/optjudge/judge/maintain"
	"github.com/optjudge/optjudge/problems"
	"github.com/optjudge/optjudge/specfile"
	"github.com/optjudge/optjudge/verdict"
)

var cmdVerify = &command{
	Name:      "verify",
	UsageLine: "verify [flags] PROBLEM...",
	Short:     "check a problem's spec, tests, answers and example submissions",
	Long: `
Verify checks each PROBLEM as Kattis's verifyproblem does, a native problem
directory or a Kattis/ICPC package alike:

  - problem.yaml is valid;
  - there are sample and secret tests, and every .in has its .ans;
  - every input passes the input validator (built-in, or the validator
    programs: exit code 42 means valid);
  - every .ans is accepted by the checker, and equals the reference's output
    where the answer is unique;
  - every program under submissions/<verdict>/ gets that verdict: accepted
    ones on every test, the others at the first test they fail;
  - the time limit keeps the ICPC margins: the slowest accepted run times 2
    fits in the limit, and every time_limit_exceeded submission exceeds the
    limit times 1.5 (a Kattis package may set other factors). A margin that
    a run 25% slower would break is a warning.

Each accepted submission's line says how thin its margin is: its slowest
test and the share of the time limit that test takes (under 25%, the 2x
rule still holds on a machine twice as slow).

A submission is a file or a directory of files (one program). One that
cannot be built on this machine, in no language of the table or with its
compiler not installed, is skipped with a warning and counted in the
summary; --strict makes that an error. Nothing of an unknown language is
ever run.

Every finding names its file. Warnings do not fail the verification.
--suggest-time-limit prints the limit the rules imply: the slowest accepted
run times 2, rounded up to 0.1s (or the package's time_resolution).

Examples:

	judge verify clocks
	judge verify --suggest-time-limit path/to/package

Exit codes: 0 every problem verifies (warnings allowed); 1 an error was found;
2 usage error or the judge itself failed.
`,
	Flags: func(fs *flag.FlagSet) {
		fs.Bool("suggest-time-limit", false, "print the time limit the rules imply")
		fs.Int("j", runtime.NumCPU(), "run `N` tests in parallel")
		fs.String("languages", "", "read the language table from `FILE`")
		fs.Bool("strict", false, "a submission that cannot be built here (no language, compiler not installed) is an error, not a warning")
	},
	Run: runVerify,
}

func runVerify(e *env, fs *flag.FlagSet, args []string) int {
	if len(args) == 0 {
		return e.usageError("want at least one PROBLEM")
	}
	parallel := flagValue(fs, "j").(int)
	if parallel < 1 {
		return e.usageError("-j %d: want at least 1", parallel)
	}
	var langs *lang.Table
	if file := flagValue(fs, "languages").(string); file != "" {
		var err error
		if langs, err = lang.Load(file); err != nil {
			return e.fail(err)
		}
	}
	j, err := newJudge(langs)
	if err != nil {
		return e.fail(err)
	}
	defer j.Close()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	code := exitOK
	for _, ref := range args {
		c := e.verifyOne(ctx, fs, ref, j, parallel)
		code = max(code, c)
		if c == exitError {
			break
		}
	}
	return code
}

func (e *env) verifyOne(ctx context.Context, fs *flag.FlagSet, ref string, j *judge.Judge, parallel int) int {
	p, err := e.problem(ref)
	if err != nil {
		var se *specfile.Error
		var ses specfile.Errors
		if errors.As(err, &ses) || errors.As(err, &se) {
			fmt.Fprintf(e.stdout, "verify %s: the spec does not load\n", ref)
			n := 0
			for _, l := range splitLines(err.Error()) {
				file, msg, _ := strings.Cut(l, ": ")
				fmt.Fprintf(e.stdout, "%s: error: %s\n", file, msg)
				n++
			}
			fmt.Fprintf(e.stdout, "%s: does not verify: %s\n", ref, plural(n, "error"))
			return exitRejected
		}
		return e.fail(err)
	}
	langs, err := languages(flagValue(fs, "languages").(string), p)
	if err != nil {
		return e.fail(err)
	}
	fmt.Fprintf(e.stdout, "verify %s (%s, %s layout), isolation: %s\n", p.Name, p.Package.Origin, p.Package.Layout, j.Isolation())
	if maintain.HasGenerators(p) && p.Dir != "" {
		if st, err := os.Stat(filepath.Join(p.Dir, "data")); err != nil || !st.IsDir() {
			var code int
			if p, code = e.generateFirst(ctx, p, j, langs, parallel); p == nil {
				return code
			}
		}
	}
	prog := newProgressLine(e.stdout)
	rep, err := maintain.Verify(ctx, p, maintain.VerifyOptions{
		Judge:    j,
		Build:    judge.BuildOptions{Languages: langs},
		Grade:    judge.GradeOptions{Parallel: parallel, Outputs: judge.OutputsNone},
		Strict:   flagValue(fs, "strict").(bool),
		Progress: prog.show,
		Graded: func(s maintain.SubmissionResult) {
			prog.clear()
			fmt.Fprintln(e.stdout, submissionLine(s))
		},
	})
	prog.clear()
	if err != nil {
		return e.fail(err)
	}
	if d := rep.Derived; d != nil {
		fmt.Fprintf(e.stdout, "time limit: %s, derived: %s, %s on %s by %s, times %g, rounded up to %s; time-limit-exceeded runs must exceed %s\n",
			seconds(d.Limit), d.Run(), seconds(d.Slowest), d.Test, d.Submission, d.Multipliers.ACToTimeLimit, seconds(d.Multipliers.Resolution), seconds(d.TLE))
	}
	if len(rep.Attachments) > 0 {
		fmt.Fprintf(e.stdout, "attachments: %s\n", strings.Join(rep.Attachments, ", "))
	}
	for _, f := range rep.Sorted() {
		fmt.Fprintln(e.stdout, f)
	}
	if flagValue(fs, "suggest-time-limit").(bool) {
		printSuggestion(e, rep)
	}
	status := "verified"
	if rep.Errors() > 0 {
		status = "does not verify"
	}
	subs := plural(len(rep.Submissions), "submission")
	if rep.Skipped > 0 {
		subs += fmt.Sprintf(", %d skipped", rep.Skipped)
	}
	fmt.Fprintf(e.stdout, "%s: %s: %s, %s, %s, %s\n", p.Name, status, plural(rep.Tests, "test"),
		subs, plural(rep.Errors(), "error"), plural(rep.Warnings(), "warning"))
	if rep.Errors() > 0 {
		return exitRejected
	}
	return exitOK
}

// generateFirst writes the data/ of a package that has generators.yaml
// and no data/ yet, as bt run does before it judges, and loads the
// package again; nil and the exit code when generators.yaml is broken.
func (e *env) generateFirst(ctx context.Context, p *problems.Problem, j *judge.Judge, langs *lang.Table, parallel int) (*problems.Problem, int) {
	fmt.Fprintf(e.stdout, "%s has no data/: generating it from generators/generators.yaml first (judge generate)\n", p.Package.Origin)
	res, code := e.runGenerateData(ctx, p, maintain.GenerateDataOptions{Judge: j, Build: judge.BuildOptions{Languages: langs}, Parallel: parallel})
	if res == nil {
		return nil, code
	}
	for _, f := range res.Failures {
		fmt.Fprintf(e.stdout, "FAILED    %s\n", f)
	}
	fmt.Fprintf(e.stdout, "generated %s, %s\n", plural(res.Tests, "test"), plural(res.Count(maintain.New), "file"))
	q, err := problems.LoadDir(p.Dir)
	if err != nil {
		return nil, e.fail(err)
	}
	q.Package.Origin = p.Package.Origin
	return q, exitOK
}

// submissionLine shows one example submission's result.
func submissionLine(s maintain.SubmissionResult) string {
	mark := "ok "
	if !s.OK {
		mark = "BAD"
	}
	got := s.Got.String()
	if s.Scored && s.Got != verdict.CE {
		got += " " + formatScore(s.Score)
	}
	want := s.Expect
	if want == "" {
		want = s.Want.String()
	}
	detail := ""
	switch {
	case s.Got == verdict.AC && (s.Want == verdict.AC || s.Want == verdict.Unknown) && s.TimeLimit > 0:
		detail = fmt.Sprintf(", slowest %s on %s, %s of the %s limit",
			ms(s.Slowest.Milliseconds()), s.Test, percent(s.Slowest, s.TimeLimit), seconds(s.TimeLimit))
	case s.Got == verdict.AC: // under a raised limit: the finding compares
		detail = fmt.Sprintf(", slowest %s on %s", ms(s.Slowest.Milliseconds()), s.Test)
	case s.Test != "":
		detail = fmt.Sprintf(" on %s: %s", s.Test, oneLine(s.Message, 80))
	case s.Message != "":
		detail = ": " + oneLine(s.Message, 80)
	}
	return fmt.Sprintf("%s %s (want %s) %s%s", mark, got, want, s.Path, detail)
}

// percent shows part as a share of whole: "16%", or "4.4%" below 10%.
func percent(part, whole time.Duration) string {
	if whole <= 0 {
		return "?%"
	}
	f := 100 * float64(part) / float64(whole)
	if f < 10 {
		return fmt.Sprintf("%.1f%%", f)
	}
	return fmt.Sprintf("%.0f%%", f)
}

// seconds shows a duration in seconds: "15s", "1.5s".
func seconds(d time.Duration) string {
	return strings.TrimSuffix(strings.TrimRight(fmt.Sprintf("%.3f", d.Seconds()), "0"), ".") + "s"
}

func printSuggestion(e *env, rep *maintain.VerifyReport) {
	if rep.SlowestAC == nil {
		fmt.Fprintln(e.stdout, "suggested time limit: none, no accepted submission was accepted")
		return
	}
	s := rep.SlowestAC
	fmt.Fprintf(e.stdout, "suggested time limit: %s, the slowest accepted run times %g, rounded up to %s (the problem has %s)\n",
		rep.Suggested, rep.Rules.AC, rep.Resolution, rep.TimeLimit)
	fmt.Fprintf(e.stdout, "slowest: %s %s by %s\n", s.Test, s.Slowest.Round(time.Millisecond), s.Path)
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

func splitLines(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if l != "" {
			out = append(out, l)
		}
	}
	return out
}

// progressLine shows what a long command is doing, on a terminal only.
type progressLine struct {
	w     io.Writer
	tty   bool
	shown bool
}

func newProgressLine(w io.Writer) *progressLine { return &progressLine{w: w, tty: isTerminal(w)} }

func (p *progressLine) show(s string) {
	if p.tty {
		fmt.Fprintf(p.w, "\r\033[K%s...", s)
		p.shown = true
	}
}

func (p *progressLine) clear() {
	if p.shown {
		fmt.Fprint(p.w, "\r\033[K")
		p.shown = false
	}
}
