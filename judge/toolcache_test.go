package judge

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/optjudge/optjudge/problems"
)

// toolDirs are the build directories of problem programs in dir.
func toolDirs(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), "tool-") {
			out = append(out, filepath.Join(dir, e.Name()))
		}
	}
	return out
}

// TestToolCacheBounded: a long-lived Judge that sees a new version of a
// problem again and again (a re-uploaded package) keeps the programs of
// MaxToolVersions versions only, in memory and on disk; a version a
// grading holds stays built.
func TestToolCacheBounded(t *testing.T) {
	t.Parallel()
	const bound = 3
	j := newJudgeConfig(t, Config{MaxToolVersions: bound})
	version := func(i int) *problems.Problem {
		p := checkerProblem(t, map[string]string{
			"problem.yaml": "name: sum\ntitle: Sum\nchecker:\n  program: check\n",
			"check/build":  fmt.Sprintf("#!/bin/sh\n# version %d\nexit 0\n", i),
			"check/run":    "#!/bin/sh\nexit 0\n",
		})
		for _, f := range []string{"build", "run"} {
			os.Chmod(filepath.Join(p.Dir, "check", f), 0o755)
		}
		return p
	}
	first := version(0)
	release := j.holdTools(first) // a grading on it, all along
	if _, err := j.Checker(t.Context(), first, nil); err != nil {
		t.Fatal(err)
	}
	held := toolDirs(t, j.tmp)
	if len(held) != 1 {
		t.Fatalf("one version built: got build directories %v", held)
	}
	for i := 1; i <= 4*bound; i++ {
		if _, err := j.Checker(t.Context(), version(i), nil); err != nil {
			t.Fatal(err)
		}
		j.mu.Lock()
		tools, versions := len(j.tools), len(j.versions)
		j.mu.Unlock()
		if dirs := toolDirs(t, j.tmp); tools > bound || versions > bound || len(dirs) > bound {
			t.Fatalf("after %d versions: %d programs of %d versions, %d build directories; want at most %d", i+1, tools, versions, len(dirs), bound)
		}
	}
	if _, err := os.Stat(held[0]); err != nil {
		t.Errorf("the held version's program: %v", err)
	}
	release()
	if _, err := j.Checker(t.Context(), version(100), nil); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(held[0]); !os.IsNotExist(err) {
		t.Errorf("the version released, then %d others: its program is still there (%v)", bound, err)
	}
}
