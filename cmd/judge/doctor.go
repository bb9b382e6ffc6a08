package main

import (
	"flag"
	"fmt"
	"text/tabwriter"

	"github.com/optjudge/optjudge/judge/sandbox"
)

var cmdDoctor = &command{
	Name:      "doctor",
	UsageLine: "doctor",
	Short:     "show which sandbox layers this machine allows",
	Long: `
Doctor starts the sandbox as run would and lists each containment layer as
active or missing, with the reason, then the isolation level every report
names: none, namespaces or namespaces+cgroup.

Exit codes: 0 the sandbox starts; 2 it cannot start.
`,
	Run: runDoctor,
}

func runDoctor(e *env, _ *flag.FlagSet, args []string) int {
	if len(args) != 0 {
		return e.usageError("doctor takes no arguments")
	}
	sb, err := sandbox.New(sandbox.Options{})
	if err != nil {
		return e.fail(fmt.Errorf("starting the sandbox: %w", err))
	}
	defer sb.Close()
	tw := tabwriter.NewWriter(e.stdout, 2, 8, 2, ' ', 0)
	for _, l := range sb.Layers() {
		state := "active"
		if !l.Active {
			state = "missing"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\n", state, l.Name, l.Why)
	}
	tw.Flush()
	fmt.Fprintf(e.stdout, "isolation: %s\n", sb.Isolation())
	if w := sb.Warning(); w != "" {
		fmt.Fprintf(e.stdout, "warning: %s\n", w)
	}
	return exitOK
}
