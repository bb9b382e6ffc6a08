package main

import (
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/google/go-cmdtest"
)

var update = flag.Bool("update", false, "rewrite the .ct golden files with the current output")

// TestCLI runs the golden scenarios in testdata/*.ct. Each starts in a fresh
// directory holding a copy of testdata/files; problem names resolve to the
// problems embedded in the binary. Regenerate with: go test ./cmd/judge -run TestCLI -update
func TestCLI(t *testing.T) {
	ts, err := cmdtest.Read("testdata")
	if err != nil {
		t.Fatal(err)
	}
	files, err := filepath.Abs("testdata/files")
	if err != nil {
		t.Fatal(err)
	}
	ts.Setup = func(root string) error { return os.CopyFS(root, os.DirFS(files)) }
	judge := cmdtest.InProcessProgram("judge", run)
	ts.Commands["judge"] = func(args []string, input string) ([]byte, error) {
		out, err := judge(args, input)
		return maskTimes(out), err
	}
	ts.Run(t, *update)
}

var (
	measureRE = regexp.MustCompile(`\b\d+(\.\d+)?(ns|µs|ms|s|KiB|MiB)\b`)
	jsonRE    = regexp.MustCompile(`"(time_ms|wall_ms|memory_kib)": \d+`)
	tmpRE     = regexp.MustCompile(`/tmp/\S+`)
	spacesRE  = regexp.MustCompile(`(\S)  +`)
	isolRE    = regexp.MustCompile(`isolation: [a-z+]+`)
	isolJSON  = regexp.MustCompile(`"isolation": "[^"]*"`)
	warningRE = regexp.MustCompile(`(?m)^warning: .*\n|^  "warning": .*\n`)
	extremeRE = regexp.MustCompile(`(?m)^(slowest|memory):( +)\S+`)
	ncpuRE    = regexp.MustCompile(`in parallel \(default \d+\)`)
)

// maskTimes replaces what differs from run to run and machine to machine
// (durations, memory figures, temporary paths, the isolation level) with
// fixed marks, and collapses the table padding that depends on them.
func maskTimes(b []byte) []byte {
	b = measureRE.ReplaceAll(b, []byte("<M>"))
	b = jsonRE.ReplaceAll(b, []byte(`"$1": <M>`))
	b = tmpRE.ReplaceAll(b, []byte("<TMP>"))
	b = isolRE.ReplaceAll(b, []byte("isolation: <ISOLATION>"))
	b = isolJSON.ReplaceAll(b, []byte(`"isolation": "<ISOLATION>"`))
	b = warningRE.ReplaceAll(b, nil)
	b = extremeRE.ReplaceAll(b, []byte("$1:$2<TEST>")) // which test is slowest varies
	b = ncpuRE.ReplaceAll(b, []byte("in parallel (default <NCPU>)"))
	return spacesRE.ReplaceAll(b, []byte("$1 "))
}
