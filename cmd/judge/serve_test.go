package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/optjudge/optjudge/judge/sandbox"
	"github.com/optjudge/optjudge/judge/service"
	"github.com/optjudge/optjudge/problems"
)

// TestVerifyUpload: an uploaded package is verified as judge verify
// checks it before it is accepted: its input validators (run in their
// boxes) on its inputs, its answers against the checker and the
// reference. A validator that rejects the inputs, or an answer file that
// is wrong, is refused naming it; a validator cannot leave a file on the
// machine. Its example submissions are not graded.
func TestVerifyUpload(t *testing.T) {
	// not parallel: it grades under the package's own limits
	dir := t.TempDir()
	if err := os.Chmod(dir, 0o777); err != nil { // only the box stands in the validator's way
		t.Fatal(err)
	}
	marker := filepath.Join(dir, "ran")
	// validator is an input validator that tries to leave a mark, then
	// exits with code
	validator := func(code int) string {
		return fmt.Sprintf("import sys\nsys.stdin.read()\ntry:\n    open(%q, 'w').write('ran')\nexcept OSError:\n    pass\nraise SystemExit(%d)\n", marker, code)
	}
	load := func(t *testing.T, check string, breakAnswer bool) *service.Problem {
		t.Helper()
		p, err := problems.LoadEmbedded("clocks")
		if err != nil {
			t.Fatal(err)
		}
		dir := filepath.Join(t.TempDir(), "clocks")
		if err := os.CopyFS(dir, p.Package.FS); err != nil {
			t.Fatal(err)
		}
		// an input validator beside the definition's
		path := filepath.Join(dir, "input_validators", "check.py")
		os.MkdirAll(filepath.Dir(path), 0o755)
		if err := os.WriteFile(path, []byte(check), 0o644); err != nil {
			t.Fatal(err)
		}
		if breakAnswer {
			ans := filepath.Join(dir, "data", "secret", "10-random-01.ans")
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
	if err := verifyUpload(t.Context(), load(t, validator(42), false)); err != nil {
		t.Errorf("the clocks package: got %v, want it verified", err)
	}
	if err := verifyUpload(t.Context(), load(t, validator(43), false)); err == nil || !strings.Contains(err.Error(), "check.py") {
		t.Errorf("a validator that rejects every input: got %v, want an error naming it", err)
	}
	if err := verifyUpload(t.Context(), load(t, validator(42), true)); err == nil || !strings.Contains(err.Error(), "10-random-01.ans") {
		t.Errorf("a wrong answer file: got %v, want an error naming it", err)
	}
	j, err := newJudge(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	if j.Isolation() == sandbox.IsolationNone {
		t.Skip("isolation none: the package's validators are not contained here")
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("the package's validator left its file on the machine")
	}
}
