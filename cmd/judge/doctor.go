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
	j, err := newJudge(nil)
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
	return exitOK
}
