// Command judge grades contestant programs and checks outputs against exact
// references for search-puzzle problems.
//
// Run "judge help" for the commands.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"strings"

	"github.com/optjudge/optjudge/judge"
	"github.com/optjudge/optjudge/judge/lang"
	"github.com/optjudge/optjudge/problems"
)

// Exit codes, decided here and nowhere else.
const (
	exitOK       = 0 // accepted, valid, done
	exitRejected = 1 // a verdict other than AC, an invalid file
	exitError    = 2 // usage error or the judge itself failed
)

// command is one subcommand, in the style of cmd/go's base.Command.
type command struct {
	Name      string
	UsageLine string // "solve PROBLEM [INPUT]"
	Short     string // one line for "judge help"
	Long      string // the rest of "judge help CMD": details, examples, exit codes
	// Run executes the command with its flags already parsed into fs.
	Run   func(e *env, fs *flag.FlagSet, args []string) int
	Flags func(fs *flag.FlagSet) // registers the command's flags
}

// env is what a command may touch: its streams, nothing global.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	problemsDir    string   // --problems
	cmd            *command // the command running
}

var commands []*command

func init() {
	commands = []*command{cmdRun, cmdWatch, cmdSolve, cmdCheck, cmdValidate, cmdGen, cmdGenerate, cmdVerify, cmdStress, cmdConvert, cmdExport, cmdNew, cmdDraw, cmdValidator, cmdDoctor, cmdServe, cmdWorker, cmdSubmit, cmdHelp}
}

func main() { os.Exit(run()) }

func run() int {
	log.SetOutput(os.Stderr)
	log.SetFlags(0)
	e := &env{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr}
	return e.main(os.Args[1:])
}

func (e *env) main(args []string) int {
	if len(args) == 0 {
		usage(e.stderr)
		return exitError
	}
	name := args[0]
	if name == "-h" || name == "--help" || name == "-help" {
		usage(e.stdout)
		return exitOK
	}
	c := lookup(name)
	if c == nil {
		fmt.Fprintf(e.stderr, "judge: unknown command %q", name)
		if t := lookupTopic(name); t != nil {
			fmt.Fprintf(e.stderr, "; %s is a help topic: judge help %s", name, name)
		} else if near := didYouMean(name); near != "" && lookup(near) != nil {
			fmt.Fprintf(e.stderr, "; did you mean %q?", near)
		}
		fmt.Fprintln(e.stderr, "\nRun 'judge help' for usage.")
		return exitError
	}
	fs := flag.NewFlagSet(c.Name, flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	fs.StringVar(&e.problemsDir, "problems", "", "look up problem names in `DIR` (default ./problems, then the embedded problems)")
	if c.Flags != nil {
		c.Flags(fs)
	}
	fs.Usage = func() {} // the flag package has printed the error; we add the usage line
	pos, err := parseArgs(fs, args[1:])
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			commandUsage(e.stdout, c, fs)
			return exitOK
		}
		fmt.Fprintf(e.stderr, "usage: judge %s\nRun 'judge help %s' for details.\n", c.UsageLine, c.Name)
		return exitError
	}
	e.cmd = c
	return c.Run(e, fs, pos)
}

// parseArgs parses the flags of fs wherever they stand in args: before,
// between or after the positional arguments, as argparse and cobra allow.
// A "--" ends the flags; everything after it is positional. It returns the
// positional arguments in order.
func parseArgs(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if n := len(args) - len(rest); n > 0 && args[n-1] == "--" && endsFlags(fs, args[:n-1]) {
			return append(pos, rest...), nil
		}
		if len(rest) == 0 {
			return pos, nil
		}
		pos, args = append(pos, rest[0]), rest[1:]
	}
}

// endsFlags reports whether the "--" that follows flags was the end of the
// flags, which the flag package consumes, rather than the value of the last
// flag (--tests --): only then do the flags before it parse on their own.
// It parses them again into a copy of fs, so that fs keeps its values.
func endsFlags(fs *flag.FlagSet, flags []string) bool {
	shadow := flag.NewFlagSet(fs.Name(), flag.ContinueOnError)
	shadow.SetOutput(io.Discard)
	fs.VisitAll(func(f *flag.Flag) {
		if b, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() {
			shadow.Bool(f.Name, false, "")
		} else {
			shadow.String(f.Name, "", "")
		}
	})
	return shadow.Parse(flags) == nil && len(shadow.Args()) == 0
}

func lookup(name string) *command {
	for _, c := range commands {
		if c.Name == name {
			return c
		}
	}
	return nil
}

func usage(w io.Writer) {
	fmt.Fprint(w, `judge grades programs and checks outputs for search-puzzle problems.

Usage:

	judge <command> [flags] [arguments]

Flags may come before, between or after the arguments; "--" ends them, so
that an argument after it is never a flag: judge run clocks -- -sol.py

Commands:

`)
	for _, c := range commands {
		fmt.Fprintf(w, "\t%-10s %s\n", c.Name, c.Short)
	}
	fmt.Fprintf(w, `
PROBLEM is a problem directory, or a name looked up in --problems DIR, else
./problems, else the problems embedded in the judge (%s).

Builds: with JUDGE_BUILD_CACHE=DIR, every build that compiles is kept in DIR
by its sources, language entry and compiler, and the next run of any command
takes it from there instead of compiling again (nothing in DIR is removed).

Exit codes: 0 accepted or valid, 1 rejected or invalid, 2 usage or judge error.

Run 'judge help <command>' or 'judge <command> -h' for details.

Topics (pages of the docs, as 'judge help <topic>' prints them):

`, strings.Join(problems.Embedded(), ", "))
	listTopics(w)
}

func commandUsage(w io.Writer, c *command, fs *flag.FlagSet) {
	fmt.Fprintf(w, "usage: judge %s\n\n%s\n", c.UsageLine, strings.TrimSpace(c.Long))
	fmt.Fprintf(w, "\nFlags (before, between or after the arguments; \"--\" ends them):\n")
	out := fs.Output()
	fs.SetOutput(w)
	fs.PrintDefaults()
	fs.SetOutput(out)
}

// usageError reports a wrong invocation of the running command.
func (e *env) usageError(format string, args ...any) int {
	c := e.cmd
	fmt.Fprintf(e.stderr, "judge %s: %s\nusage: judge %s\nRun 'judge help %s' for details.\n",
		c.Name, fmt.Sprintf(format, args...), c.UsageLine, c.Name)
	return exitError
}

// fail reports that the judge could not do its job.
func (e *env) fail(err error) int {
	fmt.Fprintf(e.stderr, "judge %s: %v\n", e.cmd.Name, err)
	return exitError
}

// problem resolves PROBLEM as described in the usage text.
func (e *env) problem(ref string) (*problems.Problem, error) {
	var dirs []string
	switch {
	case e.problemsDir != "":
		if st, err := os.Stat(e.problemsDir); err != nil || !st.IsDir() {
			return nil, fmt.Errorf("--problems %s: no such directory", e.problemsDir)
		}
		dirs = []string{e.problemsDir}
	default:
		if st, err := os.Stat("problems"); err == nil && st.IsDir() {
			dirs = []string{"problems"}
		}
	}
	p, err := problems.Find(ref, dirs)
	if err == nil && p.Notice() != "" && (e.cmd == nil || e.cmd.Name != "verify") {
		// verify lists it among its warnings
		fmt.Fprintf(e.stderr, "judge: %s: %s\n", ref, p.Notice())
	}
	return p, err
}

var cmdHelp = &command{
	Name:      "help",
	UsageLine: "help [command|topic]",
	Short:     "show help for judge, one of its commands, or a topic",
	Long: `Help prints the usage of judge, or of the named command, or a topic: a page
of the docs (or a section of one), as the judge carries it.

Examples:

	judge help run
	judge help puzzle      # every field of puzzle.yaml
	judge help layout      # how a puzzle is drawn, the colour names

Exit codes: 0; 2 an unknown command or topic (with the nearest name).`,
	Run: func(e *env, _ *flag.FlagSet, args []string) int {
		switch len(args) {
		case 0:
			usage(e.stdout)
			return exitOK
		case 1:
			if t := lookupTopic(args[0]); t != nil {
				text, err := topicText(t)
				if err != nil {
					return e.fail(err)
				}
				fmt.Fprint(e.stdout, text)
				return exitOK
			}
			c := lookup(args[0])
			if c == nil {
				fmt.Fprintf(e.stderr, "judge help: unknown command or topic %q", args[0])
				if near := didYouMean(args[0]); near != "" {
					fmt.Fprintf(e.stderr, "; did you mean %q?", near)
				}
				fmt.Fprintln(e.stderr, "\nRun 'judge help' for the commands and topics.")
				return exitError
			}
			fs := flag.NewFlagSet(c.Name, flag.ContinueOnError)
			fs.String("problems", "", "look up problem names in `DIR` (default ./problems, then the embedded problems)")
			if c.Flags != nil {
				c.Flags(fs)
			}
			commandUsage(e.stdout, c, fs)
			return exitOK
		}
		fmt.Fprintln(e.stderr, "usage: judge help [command|topic]")
		return exitError
	},
}

// buildCacheEnv names the directory where builds that compiled are kept
// from one run of the judge to the next (judge.Config.BuildCache).
const buildCacheEnv = "JUDGE_BUILD_CACHE"

// newJudge makes the command's one Judge: the language table (nil: the
// embedded one), compilers found on the user's PATH, {home} their home,
// the builds kept in $JUDGE_BUILD_CACHE if it is set.
func newJudge(langs *lang.Table) (*judge.Judge, error) {
	j, err := judge.New(judge.Config{Languages: langs, Path: os.Getenv("PATH"), Home: home(), BuildCache: os.Getenv(buildCacheEnv)})
	if err != nil {
		return nil, err
	}
	return j, nil
}

// home is the user's home directory, for {home} in the language table;
// "" when there is none.
func home() string {
	h, _ := os.UserHomeDir()
	return h
}
