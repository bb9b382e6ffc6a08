package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"text/tabwriter"

	"github.com/optjudge/optjudge/judge"
	"github.com/optjudge/optjudge/judge/lang"
	"github.com/optjudge/optjudge/judge/sandbox"
)

var cmdDoctor = &command{
	Name:      "doctor",
	UsageLine: "doctor [flags]",
	Short:     "show which sandbox layers and compilers this machine has",
	Long: `
Doctor starts the sandbox as run would and lists each containment layer as
active or missing, with the reason, then the isolation level every report
names: none, namespaces or namespaces+cgroup.

Then it lists every language of the table (--languages FILE, else the
embedded one) with its compiler's version, as found on the PATH where the
sandbox's boxes can see it, or "not installed" and the Debian package that
provides it.

Exit codes: 0 the sandbox starts (a missing compiler is no failure); 2 it
cannot start.
`,
	Flags: func(fs *flag.FlagSet) {
		fs.String("languages", "", "read the language table from `FILE`")
	},
	Run: runDoctor,
}

func runDoctor(e *env, fs *flag.FlagSet, args []string) int {
	if len(args) != 0 {
		return e.usageError("doctor takes no arguments")
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
	tw := tabwriter.NewWriter(e.stdout, 2, 8, 2, ' ', 0)
	for _, l := range j.Layers() {
		state := "active"
		if !l.Active {
			state = "missing"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\n", state, l.Name, l.Why)
	}
	tw.Flush()
	fmt.Fprintf(e.stdout, "isolation: %s\n", j.Isolation())
	if j.Isolation() != sandbox.IsolationNone {
		fmt.Fprintln(e.stdout, "compilation: inside the sandbox, as the programs run (a box of its own, nothing of /etc but the linker's files)")
	}
	if w := j.Warning(); w != "" {
		fmt.Fprintf(e.stdout, "warning: %s\n", w)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	printLanguages(e, j.LanguageStatus(ctx, nil))
	return exitOK
}

// printLanguages lists the languages: name, title, then the version or
// why the language cannot be built.
func printLanguages(e *env, list []judge.LanguageStatus) {
	fmt.Fprintln(e.stdout, "languages (compilers on PATH, where the sandbox sees them):")
	tw := tabwriter.NewWriter(e.stdout, 2, 8, 2, ' ', 0)
	for _, l := range list {
		status := l.Version
		var ni *lang.NotInstalledError
		switch {
		case errors.As(l.Err, &ni) && l.FallsBack != "":
			status = "not installed: " + ni.Detail() + "; built as " + l.FallsBack
		case errors.As(l.Err, &ni):
			status = "not installed: " + ni.Detail()
		case l.Err != nil:
			status = "broken: " + l.Err.Error()
		case status == "":
			status = "installed: " + l.Path
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\n", l.Name, l.Title, status)
	}
	tw.Flush()
}
