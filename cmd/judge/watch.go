package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/optjudge/optjudge/judge"
	"github.com/optjudge/optjudge/judge/watch"
)

var cmdWatch = &command{
	Name:      "watch",
	UsageLine: "watch [flags] PROBLEM SOURCE",
	Short:     "re-grade a source file every time it is saved",
	Long: `
Watch grades SOURCE as run does, then again every time SOURCE is saved or a
test changes (a .in or .ans file of the problem's testdata, or of --tests
DIR): it rebuilds SOURCE and runs the sample tests first, then the rest.
SOURCE may be a directory, a submission of several files: a save of any of
its files (but hidden ones and editors' backups, ending in ~) grades it
again.

Every way editors save works: writing the file in place, writing a temporary
file and renaming it over SOURCE, or renaming SOURCE to a backup first. The
events of one save, and saves less than 100ms apart, give one grade. A save
during a grade cancels it, killing its processes, and starts over. When
SOURCE is deleted, watch says so and grades it again once it is back.

On a terminal the screen is redrawn for each grade: a line per test as it
finishes, then the first failing test: its input (cut to fit), the expected
against the received output as a diff, the checker's message and, for a
puzzle problem (one with a puzzle definition), a drawing of the failing case
at the start and after the program's moves; then the totals and the time. When
standard output is not a terminal, watch appends plain lines, for a log.

Press q (or Ctrl-C) to stop; no process is left behind. When standard input
is not a terminal, a line holding q stops the watch too.

Examples:

	judge watch clocks sol.py
	judge watch rotation-game sol.cpp --tests mytests -j 1 --time-limit 2s

Exit codes: 0 stopped by q or a signal; 2 usage error, or the watch could
not start.
`,
	Flags: func(fs *flag.FlagSet) {
		gradeFlags(fs)
		fs.Bool("no-color", false, "no colours, even on a terminal")
	},
	Run: runWatch,
}

func runWatch(e *env, fs *flag.FlagSet, args []string) int {
	if len(args) != 2 {
		return e.usageError("want PROBLEM and SOURCE, got %d arguments", len(args))
	}
	src := args[1]
	p, err := e.problem(args[0])
	if err != nil {
		return e.fail(err)
	}
	bo, opts, err := e.gradeOptions(fs, p)
	if err != nil {
		return e.usageError("%v", err)
	}
	opts.Tests = nil // listed afresh by each grade
	if st, err := os.Stat(src); err != nil {
		return e.fail(fmt.Errorf("%s: no such file", src))
	} else if !st.Mode().IsRegular() && !st.IsDir() {
		return e.fail(fmt.Errorf("%s: not a regular file or a directory", src))
	}
	lang, err := judge.ResolveLanguage(bo.Languages, src, bo.Lang)
	if p.Package.Type.SubmitAnswer {
		lang, err = nil, nil // files of answers
	}
	if err != nil {
		return e.fail(withHint(err))
	}
	langName := "executable"
	if lang != nil {
		langName = lang.Name
	}
	j, err := newJudge(bo.Languages)
	if err != nil {
		return e.fail(err)
	}
	defer j.Close()
	if lang != nil {
		if err := j.Installed(lang); err != nil {
			return e.fail(err)
		}
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	if err := e.timeLimit(ctx, j, p, bo, opts); err != nil {
		return e.fail(err)
	}
	testsDir := flagValue(fs, "tests").(string)
	changes, err := watch.Files(ctx, src, watch.TestDirs(p, testsDir))
	if err != nil {
		return e.fail(err)
	}
	restore := keyInput(e.stdin)
	defer restore()
	quit := watch.Quit(e.stdin)
	go func() {
		select {
		case <-quit:
			cancel()
		case <-ctx.Done():
		}
	}()

	screen := isTerminal(e.stdout)
	title := fmt.Sprintf("%s: %s (%s), isolation: %s; q quits", p.Name, src, langName, j.Isolation())
	d := &watch.Display{W: e.stdout, Screen: screen, Color: screen && !flagValue(fs, "no-color").(bool),
		Size: terminalSize(e.stdout), Title: title}
	if !screen {
		fmt.Fprintln(e.stdout, "watching "+title)
	}
	bo.Example = p.IsExample(src) // Judge.Grade gives the build the problem it grades on
	check := bo
	check.Problem = p
	if err := j.Check(judge.Submission{Path: src}, check); err != nil {
		return e.fail(err)
	}
	g := &watch.Grader{Judge: j, Problem: p, Source: src, TestsDir: testsDir, Build: bo, Options: *opts}
	loop := &watch.Loop{Source: src, Grade: g.Grade, Show: d.Show}
	loop.Run(ctx, changes)
	fmt.Fprintln(e.stdout, "watch stopped")
	return exitOK
}

// terminalFD returns the descriptor of the terminal behind f, or false.
func terminalFD(f any) (int, bool) {
	file, ok := f.(*os.File)
	if !ok {
		return 0, false
	}
	st, err := file.Stat()
	if err != nil || st.Mode()&os.ModeCharDevice == 0 {
		return 0, false
	}
	return int(file.Fd()), true
}

// terminalSize returns a function that asks the terminal behind w for its
// size, or nil when w is no terminal.
func terminalSize(w io.Writer) func() (rows, cols int) {
	fd, ok := terminalFD(w)
	if !ok {
		return nil
	}
	return func() (int, int) { return windowSize(fd) }
}

// keyInput puts the terminal behind r, if any, in a mode where each key
// reaches the watch at once, without echo, and returns what restores it.
func keyInput(r io.Reader) (restore func()) {
	fd, ok := terminalFD(r)
	if !ok {
		return func() {}
	}
	return keysMode(fd)
}
