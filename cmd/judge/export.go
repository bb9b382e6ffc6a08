package main

import (
	"debug/elf"
	"flag"
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/optjudge/optjudge/problems/export"
)

var cmdExport = &command{
	Name:      "export",
	UsageLine: "export --to kattis|bapctools|domjudge [--binary FILE] PROBLEM OUT",
	Short:     "write a problem as Kattis, BAPCtools or DOMjudge take it, with its puzzle checker",
	Long: `
Export writes PROBLEM as the judges contests run on take it, into OUT (a new
directory, or a zip file when OUT ends in .zip):

	--to kattis     the legacy package format, which Kattis installs and
	                problemtools' verifyproblem checks (it knows no 2025-09):
	                problem_statement/problem.en.tex, output_validators/,
	                the time limit in .timelimit
	--to bapctools  the format as written, 2025-09, which BAPCtools runs
	                (statement/problem.en.tex beside the Markdown)
	--to domjudge   the zip DOMjudge's problem import reads: problem.yaml
	                with its limits, .timelimit, problem.html (or .pdf),
	                data/, output_validators/, submissions/ (OUT must end
	                in .zip; its name is the problem's id there)

A puzzle problem's definition becomes programs those tools build and run
themselves, as the format has validators: output_validator/ (or
output_validators/puzzle/) and input_validators/puzzle/, each a directory
with build and run scripts around a judge binary (this one, or --binary) and
puzzle.yaml; run calls "judge validator" (see judge help validator). The
host needs nothing else: a Linux x86-64 machine. Every answer file is the
reference's. What a target cannot hold (a submission folder it does not
know, a key of another format version) is left out, and said. A problem of
the native layout is exported as judge convert makes it a package.

Examples:

	judge export --to kattis rotation-game rotationgame
	judge export --to domjudge rotation-game rotationgame.zip

Exit codes: 0 written; 2 usage error, OUT exists, or a problem the target
cannot take.
`,
	Flags: func(fs *flag.FlagSet) {
		fs.String("to", "", "the target: `kattis`, bapctools or domjudge")
		fs.String("binary", "", "ship `FILE` as the judge binary of the exported validators (default: this judge)")
	},
	Run: runExport,
}

func runExport(e *env, fs *flag.FlagSet, args []string) int {
	if len(args) != 2 {
		return e.usageError("want PROBLEM and OUT, got %d arguments", len(args))
	}
	to := fs.Lookup("to").Value.String()
	target, ok := export.Targets[to]
	if !ok {
		names := make([]string, 0, len(export.Targets))
		for n := range export.Targets {
			names = append(names, n)
		}
		sort.Strings(names)
		return e.usageError("--to %q: want one of %s", to, strings.Join(names, ", "))
	}
	binary := fs.Lookup("binary").Value.String()
	if binary == "" {
		exe, err := os.Executable()
		if err != nil {
			return e.fail(fmt.Errorf("finding this judge's binary to ship: %w (give --binary)", err))
		}
		binary = exe
	}
	p, err := e.problem(args[0])
	if err != nil {
		return e.fail(err)
	}
	res, err := export.Export(p, args[1], export.Options{Target: target, Validator: binary})
	if err != nil {
		return e.fail(err)
	}
	for _, n := range res.Notes {
		fmt.Fprintf(e.stdout, "  %s\n", n)
	}
	if p.Validator != nil && dynamic(binary) {
		fmt.Fprintf(e.stdout, "  the validators' judge binary is linked dynamically (the host needs glibc); a judge built with CGO_ENABLED=0 is static\n")
	}
	fmt.Fprintf(e.stdout, "exported %s for %s: %s, %d files\n", p.Name, to, args[1], res.Files)
	return exitOK
}

// dynamic says whether the ELF file name asks for a dynamic loader.
func dynamic(name string) bool {
	f, err := elf.Open(name)
	if err != nil {
		return false
	}
	defer f.Close()
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			return true
		}
	}
	return false
}
