package main

import (
	"archive/zip"
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/optjudge/optjudge/checkers"
)

// exportedCases are outputs of every kind for a shipped problem's sample:
// right, and wrong in each way its checker tells apart.
var exportedCases = map[string]struct {
	input    string
	outputs  []string
	accepted int      // how many of outputs are right
	inputs   []string // inputs for the input validator, valid and not
}{
	"rotation-game": {
		input: "data/sample/01-sample.in",
		outputs: []string{
			"AC\n2\nDDHH\n2\n",              // right
			"AC\n2\nHHDD\n2\n",              // shortest, not the smallest
			"AC\n2\nDDHHAF\n2\n",            // valid, too long
			"AC\n2\nDQHH\n2\n",              // not a move
			"AC\n2\nDD\n2\n",                // does not reach the goal
			"AC\n3\nDDHH\n2\n",              // a wrong centre digit
			"AC\n2\nDDHH\n",                 // a line missing
			"",                              // nothing
			"AC 2\nDDHH\n2\n",               // two lines in one
			"No moves needed\n2\nDDHH\n2\n", // the wrong words
		},
		accepted: 1,
		inputs:   []string{"1 1 1 1 3 2 3 2 3 1 3 2 2 3 1 2 2 2 3 1 2 1 3 3\n0\n", "1 1 1\n0\n", "1 1 1 1 3 2 3 2 3 1 3 2 2 3 1 2 2 2 3 1 2 1 3 3\n"},
	},
	"eight-puzzle": {
		input:    "data/sample/01-sample.in",
		outputs:  []string{"dlurullddrurdllurdr\n", "dlurullddrurdllurdrlr\n", "unsolvable\n", "dlu\n", "dlurullddrurdllurdx\n", "\n"},
		accepted: 2, // mode any: a longer solution too
		inputs:   []string{"2  3  4  1  5  x  7  6  8\n", "2 3 4 1 5 x 7 6 6\n", "2 3 4 1 5 x 7 6\n"},
	},
	"clocks": {
		input:    "data/sample/01-sample.in",
		outputs:  []string{"4 5 8 9\n", "4 5 9 8\n", "4 5 8\n", "4 5 8 9 9 9 9 9\n", "0\n", "4 5 8 10\n"},
		accepted: 1,
		inputs:   []string{"3 3 0\n2 2 2\n2 1 2\n", "3 3 0\n2 9 2\n2 1 2\n"},
	},
	"pancakes": {
		input:    "data/sample/01-sample.in",
		outputs:  []string{"3 2\n\n2 3 4 2 6 3\n", "3 2\n\n3 2 4 2 6 3\n", "2 3\n\n2 3 4 2 6 3\n", "3 2 2 2\n\n2 3 4 2 6 3\n", "3 2\n"},
		accepted: 1,
		inputs:   []string{"3\n1 2 3\n", "3\n1 2 2\n"},
	},
}

// TestExportedValidators exports shipped problems for BAPCtools and runs
// their exported validators as the format calls them (the run script,
// sh, the judge binary behind it: this test binary as judge): each
// output's verdict and message are judge check's, and each input's
// verdict judge validate's. The feedback directory comes without its
// trailing slash and with BAPCtools' extra arguments, as bt calls it.
func TestExportedValidators(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh here")
	}
	dir := t.TempDir()
	for name, c := range exportedCases {
		t.Run(name, func(t *testing.T) {
			out := filepath.Join(dir, "exported-"+name)
			if code, msg := judgeIn(t, dir, "export", "--to", "bapctools", name, out); code != exitOK {
				t.Fatalf("export: exit %d\n%s", code, msg)
			}
			in := filepath.Join(out, c.input)
			ans := strings.TrimSuffix(in, ".in") + ".ans"
			seen := map[int]int{}
			for i, output := range c.outputs {
				outFile := filepath.Join(dir, name+"-out")
				os.WriteFile(outFile, []byte(output), 0o644)
				var chkOut bytes.Buffer
				e := &env{stdin: strings.NewReader(""), stdout: &chkOut, stderr: &chkOut}
				chkCode := e.main([]string{"check", name, in, outFile})
				fb := filepath.Join(dir, "feedback")
				os.RemoveAll(fb)
				os.Mkdir(fb, 0o755)
				code, stderr := runExported(t, filepath.Join(out, "output_validator", "run"), output, in, ans, fb, "case_sensitive", "space_change_sensitive")
				msg, _ := os.ReadFile(filepath.Join(fb, "judgemessage.txt"))
				want := map[int]int{exitOK: exitValid, exitRejected: exitInvalid}[chkCode]
				if want == 0 || code != want {
					t.Errorf("output %d %q: the exported validator exits %d (%s), judge check %d (%s)", i, output, code, stderr, chkCode, chkOut.String())
					continue
				}
				verdict, message, _ := strings.Cut(strings.TrimSpace(chkOut.String()), ": ")
				if strings.TrimSpace(string(msg)) != message {
					t.Errorf("output %d %q: the exported validator says %q, judge check %s: %q", i, output, msg, verdict, message)
				}
				// the finding comes back through the feedback
				// directory, as a grader reads it: a rejection's
				// facts, none for an acceptance
				res, err := checkers.KattisResult("exported", code, fb, nil)
				if err != nil {
					t.Fatalf("output %d %q: reading the feedback: %v", i, output, err)
				}
				if (res.Finding != nil) != (code == exitInvalid) || res.Finding != nil && res.Finding.Kind == "" {
					t.Errorf("output %d %q: exit %d with finding %+v", i, output, code, res.Finding)
				}
				seen[code]++
			}
			if seen[exitValid] != c.accepted || seen[exitInvalid] != len(c.outputs)-c.accepted {
				t.Errorf("verdicts %v: want %d accepted, the others rejected", seen, c.accepted)
			}
			for i, input := range c.inputs {
				var valOut bytes.Buffer
				inFile := filepath.Join(dir, name+"-in")
				os.WriteFile(inFile, []byte(input), 0o644)
				e := &env{stdin: strings.NewReader(""), stdout: &valOut, stderr: &valOut}
				valCode := e.main([]string{"validate", name, inFile})
				code, stderr := runExported(t, filepath.Join(out, "input_validators", "puzzle", "run"), input, "--some-flag")
				want := map[int]int{exitOK: exitValid, exitRejected: exitInvalid}[valCode]
				if code != want {
					t.Errorf("input %d %q: the exported validator exits %d (%s), judge validate %d (%s)", i, input, code, stderr, valCode, valOut.String())
				}
			}
		})
	}
}

// runExported runs an exported validator's run script on stdin with args,
// the judge binary behind it being this test binary, and returns its exit
// code and standard error.
func runExported(t *testing.T, run, stdin string, args ...string) (int, string) {
	t.Helper()
	cmd := exec.Command("sh", append([]string{run}, args...)...)
	cmd.Env = append(os.Environ(), "JUDGE_TEST_AS_JUDGE=1")
	cmd.Stdin = strings.NewReader(stdin)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		return exit.ExitCode(), stderr.String()
	case err != nil:
		t.Fatal(err)
	}
	return 0, stderr.String()
}

// TestExportedDOMjudgeBuild builds and runs a DOMjudge export's output
// validator as DOMjudge's judgehost does: its files flattened into a
// directory, build and run alone executable, the build run by a user who
// owns none of them. (Root to change users; skipped elsewhere.)
func TestExportedDOMjudgeBuild(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("not root: the build runs as another user")
	}
	// a directory the other user can reach (t.TempDir's parent is 0700)
	dir, err := os.MkdirTemp("", "optjudge-domjudge-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	os.Chmod(dir, 0o755)
	zipFile := filepath.Join(dir, "clocks.zip")
	if code, msg := judgeIn(t, dir, "export", "--to", "domjudge", "clocks", zipFile); code != exitOK {
		t.Fatalf("export: exit %d\n%s", code, msg)
	}
	zr, err := zip.OpenReader(zipFile)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	build := filepath.Join(dir, "build")
	os.Mkdir(build, 0o777)
	os.Chmod(build, 0o777)
	for _, f := range zr.File {
		if !strings.HasPrefix(f.Name, "output_validators/") || f.FileInfo().IsDir() {
			continue
		}
		r, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(r)
		r.Close()
		if err != nil {
			t.Fatal(err)
		}
		mode := os.FileMode(0o644)
		if base := path.Base(f.Name); base == "build" || base == "run" {
			mode = 0o755
		}
		os.WriteFile(filepath.Join(build, path.Base(f.Name)), b, mode)
	}
	nobody := &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	cmd := exec.Command("./build")
	cmd.Dir, cmd.SysProcAttr = build, nobody
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("build as nobody: %v\n%s", err, out)
	}
	in := filepath.Join(dir, "in")
	os.WriteFile(in, []byte("3 3 0\n2 2 2\n2 1 2\n"), 0o644)
	for output, want := range map[string]int{"4 5 8 9\n": exitValid, "4 5 8\n": exitInvalid} {
		fb := filepath.Join(dir, "feedback")
		os.RemoveAll(fb)
		os.Mkdir(fb, 0o777)
		os.Chmod(fb, 0o777)
		cmd := exec.Command(filepath.Join(build, "run"), in, in, fb+"/")
		cmd.Stdin, cmd.SysProcAttr = strings.NewReader(output), nobody
		cmd.Env = []string{"JUDGE_TEST_AS_JUDGE=1", "PATH=/usr/bin:/bin", "HOME=/nonexistent"}
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		cmd.Run()
		if got := cmd.ProcessState.ExitCode(); got != want {
			t.Errorf("run %q as nobody: exit %d, want %d\n%s", output, got, want, stderr.String())
		}
	}
}

// TestDrawSVG: judge draw --svg writes one case as an SVG document.
func TestDrawSVG(t *testing.T) {
	code, out := judgeIn(t, "testdata/files", "draw", "--svg", "eight-puzzle", "eight.in")
	if code != exitOK || !strings.HasPrefix(out, "<svg ") || !strings.Contains(out, "<title>case 1 of 1: 2 3 4 / 1 5 x / 7 6 8</title>") || !strings.HasSuffix(strings.TrimSpace(out), "</svg>") {
		t.Errorf("got exit %d:\n%s", code, out)
	}
}
