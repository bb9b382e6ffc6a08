package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/optjudge/optjudge/judge/service"
	"github.com/optjudge/optjudge/problems"
)

// TestVerifyUpload: an uploaded package is verified (tests, the built-in
// validator, answers) before it is accepted; nothing of the package runs:
// not its validators, not its example submissions.
func TestVerifyUpload(t *testing.T) {
	marker := filepath.Join(t.TempDir(), "ran")
	load := func(t *testing.T, breakIt bool) *service.Problem {
		t.Helper()
		p, err := problems.LoadEmbedded("clocks")
		if err != nil {
			t.Fatal(err)
		}
		dir := filepath.Join(t.TempDir(), "clocks")
		if err := os.CopyFS(dir, p.FS); err != nil {
			t.Fatal(err)
		}
		// a validator that would leave a mark and reject every input
		validator := filepath.Join(dir, "validators", "check.py")
		os.MkdirAll(filepath.Dir(validator), 0o755)
		if err := os.WriteFile(validator, []byte("open("+strconv.Quote(marker)+", 'w').write('ran')\nraise SystemExit(43)\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		spec := filepath.Join(dir, "problem.yaml")
		b, _ := os.ReadFile(spec)
		os.Chmod(spec, 0o644)
		if err := os.WriteFile(spec, append(b, "input_validators: [validators/check.py]\n"...), 0o644); err != nil {
			t.Fatal(err)
		}
		if breakIt {
			ans := filepath.Join(dir, "testdata", "secret", "10-random-01.ans")
			os.Chmod(ans, 0o644)
			if err := os.WriteFile(ans, []byte("1 2 3\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		q, err := problems.LoadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		return &service.Problem{Problem: q}
	}
	if err := verifyUpload(t.Context(), load(t, false)); err != nil {
		t.Errorf("the clocks package: got %v, want it verified", err)
	}
	err := verifyUpload(t.Context(), load(t, true))
	if err == nil || !strings.Contains(err.Error(), "10-random-01.ans") {
		t.Errorf("a wrong answer file: got %v, want an error naming it", err)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("the package's validator ran")
	}
}
