package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/optjudge/optjudge/judge/service"
	"github.com/optjudge/optjudge/problems"
)

// TestVerifyUpload: an uploaded package is verified (tests, validators,
// answers) before it is accepted; its example submissions are not graded.
func TestVerifyUpload(t *testing.T) {
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
}
