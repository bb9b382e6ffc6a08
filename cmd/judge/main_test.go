package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmdtest"

	"github.com/optjudge/optjudge/judge"
)

var update = flag.Bool("update", false, "rewrite the .ct golden files with the current output")

// TestMain warms the Go build cache that the judge's Go builds share. On a
// fresh machine the first Go build compiles the standard library (11 s
// here). The judge does that itself before a Go build, outside its compile
// limit, so a golden would pass anyway; doing it once here keeps the first
// golden that builds Go from paying for it under the other packages' load.
func TestMain(m *testing.M) {
	if os.Getenv("JUDGE_TEST_AS_JUDGE") == "1" {
		os.Exit(run()) // the test binary as judge serve or worker (service_test.go)
	}
	if os.Getenv(cliFileEnv) != "" {
		os.Exit(m.Run()) // a child of TestCLI: its parent warmed the cache
	}
	if err := warmGoCache(); err != nil {
		fmt.Fprintf(os.Stderr, "warming the Go build cache: %v\n", err)
		os.Exit(1)
	}
	// The tests' commands (and TestCLI's children) keep their builds in
	// one cache, as a user's runs with $JUDGE_BUILD_CACHE do: the same
	// example submissions are graded by many tests.
	made := ""
	if os.Getenv(buildCacheEnv) == "" {
		dir, err := os.MkdirTemp("", "optjudge-test-builds-")
		if err != nil {
			fmt.Fprintf(os.Stderr, "making the build cache: %v\n", err)
			os.Exit(1)
		}
		os.Setenv(buildCacheEnv, dir)
		made = dir
	}
	code := m.Run()
	if made != "" {
		os.RemoveAll(made)
	}
	os.Exit(code)
}

// warmSource imports what the Go example submissions import.
const warmSource = `package main

import (
	"bufio"
	"container/heap"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"
)

var _ = []any{bufio.NewReader, heap.Init, io.ReadAll, sort.Ints, strconv.Itoa, strings.Fields}

func main() { fmt.Fprintln(os.Stdout) }
`

// warmGoCache builds warmSource as the CLI builds a Go submission, with
// the judge's caches.
func warmGoCache() error {
	dir, err := os.MkdirTemp("", "optjudge-warm-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	src := filepath.Join(dir, "warm.go")
	if err := os.WriteFile(src, []byte(warmSource), 0o644); err != nil {
		return err
	}
	j, err := newJudge(nil)
	if err != nil {
		return err
	}
	defer j.Close()
	pp, err := j.Prepare(context.Background(), judge.Submission{Path: src}, judge.BuildOptions{})
	if err != nil {
		return err
	}
	defer pp.Close()
	if !pp.Compile.OK {
		return errors.New(pp.Compile.Message)
	}
	return nil
}

// TestCLI runs the golden scenarios in testdata/*.ct. Each starts in a fresh
// directory holding a copy of testdata/files; problem names resolve to the
// problems embedded in the binary. Regenerate with: go test ./cmd/judge -run TestCLI -update
// (one file: JUDGE_TEST_CT_FILE=run.ct go test ./cmd/judge -run '^TestCLI$' -update)
//
// go-cmdtest runs a file in-process with the working directory, os.Stdout
// and PATH of the process, which the package's parallel tests share: each
// file runs in a child, the test binary itself (cliFileEnv names the file).
// The children run one after the other, and TestCLI alone, as the files
// did: beside other gradings, the goldens' programs graded under the
// shipped limits (clocks' 1 s) went TLE on a machine at a load of 25.
// With -update every file runs here, one after the other.
func TestCLI(t *testing.T) {
	if one := os.Getenv(cliFileEnv); one != "" || *update {
		runGoldens(t, one)
		return
	}
	// not beside the other tests: the goldens grade under the shipped
	// limits (clocks' 1 s), and on a machine at a load of 25 a Python
	// answer beside another test's gradings went TLE
	files, err := filepath.Glob("testdata/*.ct")
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden files in testdata: %v", err)
	}
	for _, file := range files {
		name := filepath.Base(file)
		t.Run(strings.TrimSuffix(name, ".ct"), func(t *testing.T) {
			if why, ok := shortSkips[name]; ok && testing.Short() {
				t.Skip("-short: " + why)
			}
			args := []string{"-test.run=^TestCLI$", "-test.count=1"}
			if testing.Short() {
				args = append(args, "-test.short")
			}
			cmd := exec.Command(os.Args[0], args...)
			cmd.Env = append(os.Environ(), cliFileEnv+"="+name)
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Errorf("%s: %v\n%s", file, err, out)
			}
		})
	}
}

// shortSkips are the golden files -short leaves out, the slowest, each
// with what runs instead.
var shortSkips = map[string]string{
	"stress_shrink.ct":      "shrinks two failures in 150 runs (stress_accepted.ct stresses)",
	"kattis_interactive.ct": "runs, verifies and stresses an interactive package (TestInteractive* in judge)",
	"kattis_multipass.ct":   "runs, verifies and stresses a multi-pass package (TestMultiPass* in judge)",
	"verify_clocks.ct":      "verifies every clocks submission (verify_generated.ct verifies)",
	"generate.ct":           "generates a package's data in every way (gen.ct generates)",
}

// cliFileEnv names the one golden file a child of TestCLI runs.
const cliFileEnv = "JUDGE_TEST_CT_FILE"

// runGoldens runs the golden file named one in testdata ("": all of them)
// in this process.
func runGoldens(t *testing.T, one string) {
	dir := "testdata"
	if one != "" {
		// go-cmdtest reads a directory: one holding that file alone
		dir = t.TempDir()
		b, err := os.ReadFile(filepath.Join("testdata", one))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, one), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ts, err := cmdtest.Read(dir)
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
		if len(args) > 0 && args[0] == "doctor" {
			out = maskDoctor(out, false)
		}
		return maskTimes(out), err
	}
	// judge-bare is judge with no compiler on its PATH (restored after)
	ts.Commands["judge-bare"] = func(args []string, input string) ([]byte, error) {
		path := os.Getenv("PATH")
		os.Setenv("PATH", filepath.Join(os.Getenv("ROOTDIR"), "no-such-bin"))
		defer os.Setenv("PATH", path)
		out, err := judge(args, input)
		return maskTimes(maskDoctor(out, true)), err
	}
	// each command's output goes into its file's diff on failure; logging
	// every command of every file would bury that diff (go test cuts long
	// output short)
	ts.DisableLogging = true
	ts.Run(t, *update)
	if one != "" && *update {
		// the file was updated in its temporary directory
		b, err := os.ReadFile(filepath.Join(dir, one))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join("testdata", one), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// languagesRE is judge doctor's heading of its list of languages.
var languagesRE = regexp.MustCompile(`(?m)^languages \(.*\n`)

// maskDoctor replaces judge doctor's sandbox layers, which are the
// machine's, with one mark, and each language's status (its compiler's
// version, or why it is not installed: machines have different compilers)
// with another; with keepMissing, why a language is not installed stays.
func maskDoctor(b []byte, keepMissing bool) []byte {
	loc := languagesRE.FindIndex(b)
	if loc == nil {
		return b
	}
	var out bytes.Buffer
	out.WriteString("<SANDBOX LAYERS>\n")
	out.Write(b[loc[0]:loc[1]])
	for _, line := range strings.SplitAfter(string(b[loc[1]:]), "\n") {
		cols := regexp.MustCompile(`  +`).Split(strings.TrimSpace(line), 3)
		if len(cols) != 3 || !strings.HasPrefix(line, "  ") {
			out.WriteString(line)
			continue
		}
		status := "<STATUS>"
		if keepMissing && strings.HasPrefix(cols[2], "not installed:") {
			status = cols[2]
		}
		fmt.Fprintf(&out, "  %s  %s  %s\n", cols[0], cols[1], status)
	}
	return out.Bytes()
}

var (
	measureRE = regexp.MustCompile(`\b\d+(\.\d+)?(ns|µs|ms|s|KiB|MiB)\b`)
	jsonRE    = regexp.MustCompile(`"(time_ms|wall_ms|memory_kib)": \d+`)
	tmpRE     = regexp.MustCompile(`/tmp/\S+`)
	spacesRE  = regexp.MustCompile(`(\S)  +`)
	isolRE    = regexp.MustCompile(`isolation: [a-z+]+`)
	isolJSON  = regexp.MustCompile(`"isolation": "[^"]*"`)
	extremeRE = regexp.MustCompile(`(?m)^(slowest|memory):( +)\S+`)
	ncpuRE    = regexp.MustCompile(`in parallel \(default \d+\)`)
	shareRE   = regexp.MustCompile(`slowest <M> on \S+, \d+(\.\d+)?% of`)
	// which run is slowest varies, and so does its kind where runs of
	// several kinds bound the limit (2025-09)
	derivedRE = regexp.MustCompile(`the slowest (accepted run|run that bounds it from below \([A-Z]+\)), <M> on \S+ by \S+,`)
	refJSON   = regexp.MustCompile(`"(slowest|largest_memory)": \{\n(\s*)"name": "[^"]*"`)
)

// maskTimes replaces what differs from run to run and machine to machine
// (durations, memory figures, temporary paths, the isolation level) with
// fixed marks, and collapses the table padding that depends on them.
// trashRE is where judge generate --clean moved a file, a directory of its
// cache named by the time.
var trashRE = regexp.MustCompile(`moved to \S+/trash/[0-9.-]+`)

// sandboxWarning is what the judge warns of the sandbox on this machine
// ("" where it contains everything): a run's report and doctor print it,
// and the goldens leave out exactly that line, no other warning.
var sandboxWarning = sync.OnceValue(func() string {
	j, err := newJudge(nil)
	if err != nil {
		return ""
	}
	defer j.Close()
	return j.Warning()
})

// maskSandboxWarning removes the sandbox's warning line of this machine,
// as text and as a JSON report's field.
func maskSandboxWarning(b []byte) []byte {
	w := sandboxWarning()
	if w == "" {
		return b
	}
	js, _ := json.Marshal(w)
	b = bytes.ReplaceAll(b, []byte("warning: "+w+"\n"), nil)
	return bytes.ReplaceAll(b, []byte(`  "warning": `+string(js)+",\n"), nil)
}

func maskTimes(b []byte) []byte {
	b = measureRE.ReplaceAll(b, []byte("<M>"))
	b = jsonRE.ReplaceAll(b, []byte(`"$1": <M>`))
	b = tmpRE.ReplaceAll(b, []byte("<TMP>"))
	b = trashRE.ReplaceAll(b, []byte("moved to <TRASH>")) // judge generate --clean's, in the cache
	b = isolRE.ReplaceAll(b, []byte("isolation: <ISOLATION>"))
	b = isolJSON.ReplaceAll(b, []byte(`"isolation": "<ISOLATION>"`))
	b = maskSandboxWarning(b)
	b = extremeRE.ReplaceAll(b, []byte("$1:$2<TEST>")) // which test is slowest varies
	b = ncpuRE.ReplaceAll(b, []byte("in parallel (default <NCPU>)"))
	b = shareRE.ReplaceAll(b, []byte("slowest <M> on <TEST>, <P>% of")) // after measureRE
	b = derivedRE.ReplaceAll(b, []byte("the slowest <RUN>, <M> on <TEST> by <SUB>,"))
	b = refJSON.ReplaceAll(b, []byte(`"$1": {`+"\n"+`$2"name": "<TEST>"`))
	return spacesRE.ReplaceAll(b, []byte("$1 "))
}
