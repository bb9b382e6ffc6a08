package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestKattisPackage runs and verifies the Kattis package beside the
// embedded problems, as it is: judge run PACKAGE SOLUTION and judge verify
// PACKAGE.
func TestKattisPackage(t *testing.T) {
	// not parallel: it grades under the package's own limits
	const pkg = "../../problems/sum-kattis"
	tests := []struct {
		args []string
		code int
		want []string
	}{
		{[]string{"run", pkg, pkg + "/submissions/accepted/digits.cpp"}, exitOK,
			[]string{"sum-kattis: " + pkg + "/submissions/accepted/digits.cpp (cpp), 6 tests", "secret/big/02-random-fours AC", "verdict: AC"}},
		{[]string{"run", "--lazy", pkg, pkg + "/submissions/wrong_answer/zero_and_n.py"}, exitRejected,
			[]string{"sample/1 WA", "case 1: B = 4 contains the digit 4"}},
		{[]string{"verify", pkg}, exitOK,
			[]string{"verify sum-kattis (" + pkg + ", kattis layout)", "ok TLE (want TLE) " + pkg + "/submissions/time_limit_exceeded/count_up.cpp",
				"sum-kattis: verified: 6 tests, 4 submissions, 0 errors, 1 warning"}},
	}
	dir := t.TempDir()
	wrong, bad := filepath.Join(dir, "wrong.out"), filepath.Join(dir, "bad.in")
	os.WriteFile(wrong, []byte("0 4\n10 930\n0 17\n"), 0o644)
	os.WriteFile(bad, []byte("2\n5\n"), 0o644)
	tests = append(tests, []struct {
		args []string
		code int
		want []string
	}{
		// check and validate build the package's output validator and input
		// validator with the language table.
		{[]string{"check", pkg, pkg + "/data/sample/1.in", pkg + "/data/sample/1.ans"}, exitOK, []string{"AC"}},
		{[]string{"check", pkg, pkg + "/data/sample/1.in", wrong}, exitRejected, []string{"WA: case 1: B = 4 contains the digit 4"}},
		{[]string{"validate", pkg}, exitOK, []string{"6 of 6 files valid"}},
		{[]string{"validate", pkg, bad}, exitRejected, []string{bad + ": ", "0 of 1 files valid"}},
	}...)
	for _, tt := range tests {
		t.Run(strings.Join(tt.args[:len(tt.args)-1], " "), func(t *testing.T) {
			if testing.Short() && tt.args[0] == "verify" {
				t.Skip("-short: verifies the package, its time-limit-exceeded submission to the raised limit; maintain's TestVerifyKattisPackage verifies it")
			}
			var out, errs bytes.Buffer
			e := &env{stdin: strings.NewReader(""), stdout: &out, stderr: &errs}
			code := e.main(tt.args)
			got := spacesRE.ReplaceAllString(out.String(), "$1 ")
			if code != tt.code {
				t.Fatalf("judge %s: exit %d, want %d\n%s%s", strings.Join(tt.args, " "), code, tt.code, got, errs.String())
			}
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("judge %s: output\n%s\nwant it to contain %q", strings.Join(tt.args, " "), got, w)
				}
			}
		})
	}
}

// TestRunDerivedTimeLimit: judge run on a package that gives no time limit
// derives it from the accepted submissions once, says so on stderr, and
// takes it from the cache the next time; --time-limit overrides it.
func TestRunDerivedTimeLimit(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	pkg := filepath.Join(t.TempDir(), "kattis-echo")
	if err := os.CopyFS(pkg, os.DirFS("testdata/files/kattis-echo")); err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(pkg, "submissions/accepted/echo.py")
	for _, tt := range []struct {
		args   []string
		stderr []string // in order; nil: nothing
	}{
		{[]string{"run", "--json", pkg, sub}, []string{"gives no time limit: deriving it", "judge: time limit 1s: the slowest accepted run", "times 5, rounded up to 1s (computed now and cached in "}},
		{[]string{"run", "--json", pkg, sub}, []string{"judge: time limit 1s: the slowest accepted run", "(cached in "}},
		{[]string{"run", "--json", "--time-limit", "3s", pkg, sub}, nil},
	} {
		var out, errs bytes.Buffer
		e := &env{stdin: strings.NewReader(""), stdout: &out, stderr: &errs}
		if code := e.main(tt.args); code != exitOK {
			t.Fatalf("judge %s: exit %d\n%s%s", strings.Join(tt.args, " "), code, out.String(), errs.String())
		}
		got := errs.String()
		rest := got
		for _, w := range tt.stderr {
			i := strings.Index(rest, w)
			if i < 0 {
				t.Errorf("judge %s: stderr\n%s\nwant %q (in order)", strings.Join(tt.args, " "), got, w)
				break
			}
			rest = rest[i+len(w):]
		}
		if tt.stderr == nil && got != "" {
			t.Errorf("judge %s: stderr %q, want none", strings.Join(tt.args, " "), got)
		}
		if len(tt.stderr) == 2 && strings.Contains(got, "deriving") {
			t.Errorf("judge %s: derived the limit again:\n%s", strings.Join(tt.args, " "), got)
		}
		want := map[bool]string{true: `"time_ms": 3000`, false: `"time_ms": 1000`}[tt.stderr == nil]
		if !strings.Contains(out.String(), want) {
			t.Errorf("judge %s: report\n%s\nwant limits with %s", strings.Join(tt.args, " "), out.String(), want)
		}
	}
}
