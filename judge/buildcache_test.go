package judge

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/optjudge/optjudge/verdict"
)

// TestBuildCache: a build that compiled is kept in Config.BuildCache under
// its key, and a Prepare of another Judge takes it from there without
// compiling (the cache's archive under a wrong source's key grades as the
// build it holds); a compile error, a kept build and an archive that does
// not import are compiled as without a cache.
func TestBuildCache(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	p := sumProblem(t)
	cache := t.TempDir()
	a := newJudgeConfig(t, Config{BuildCache: cache})
	b := newJudgeConfig(t, Config{BuildCache: cache})
	const sum = "#include <iostream>\nint main(){long a,b;std::cin>>a>>b;std::cout<<a+b<<\"\\n\";}\n"
	const diff = "#include <iostream>\nint main(){long a,b;std::cin>>a>>b;std::cout<<a-b<<\"\\n\";}\n"
	grade := func(j *Judge, path string, o BuildOptions) verdict.Verdict {
		t.Helper()
		pp, err := j.Prepare(ctx, Submission{Path: path}, o)
		if err != nil {
			t.Fatal(err)
		}
		defer pp.Close()
		if pp.Submission.Path != path {
			t.Errorf("the prepared submission is %s, want %s", pp.Submission.Path, path)
		}
		r, err := pp.Grade(ctx, p, ample())
		if err != nil {
			t.Fatal(err)
		}
		return r.Verdict
	}
	kept := func() []string {
		t.Helper()
		names, err := filepath.Glob(filepath.Join(cache, "*"))
		if err != nil {
			t.Fatal(err)
		}
		return names
	}
	key := func(path string) string {
		t.Helper()
		k, err := a.BuildKey(Submission{Path: path}, BuildOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return filepath.Join(cache, k+".tar")
	}

	src := writeSource(t, "sum.cpp", sum)
	if v := grade(a, src, BuildOptions{}); v != verdict.AC {
		t.Fatalf("sum.cpp: got %s, want AC", v)
	}
	if got := kept(); len(got) != 1 || got[0] != key(src) {
		t.Fatalf("the cache holds %q, want the build of sum.cpp, %s", got, key(src))
	}
	if v := grade(a, writeSource(t, "ce.cpp", "int main() { return nope; }\n"), BuildOptions{}); v != verdict.CE {
		t.Errorf("ce.cpp: got %s, want CE", v)
	}
	if v := grade(a, writeSource(t, "kept.cpp", diff), BuildOptions{Keep: true}); v != verdict.WA {
		t.Errorf("kept.cpp: got %s, want WA", v)
	}
	if got := kept(); len(got) != 1 {
		t.Errorf("after a compile error and a kept build the cache holds %q, want the one build", got)
	}

	// The build of sum.cpp under the key of a source that prints a-b: a
	// Prepare that takes it from the cache grades AC, one that compiles WA.
	archive, err := os.ReadFile(key(src))
	if err != nil {
		t.Fatal(err)
	}
	wrong := writeSource(t, "diff.cpp", diff)
	if err := os.WriteFile(key(wrong), archive, 0o644); err != nil {
		t.Fatal(err)
	}
	if v := grade(b, wrong, BuildOptions{}); v != verdict.AC {
		t.Errorf("diff.cpp with sum.cpp's build under its key: got %s, want AC (taken from the cache)", v)
	}
	broken := writeSource(t, "broken.cpp", diff+"// broken\n")
	if err := os.WriteFile(key(broken), []byte("not an archive"), 0o644); err != nil {
		t.Fatal(err)
	}
	if v := grade(b, broken, BuildOptions{}); v != verdict.WA {
		t.Errorf("broken.cpp under an archive that does not import: got %s, want WA (compiled)", v)
	}
	if got, _ := os.ReadFile(key(broken)); string(got) == "not an archive" {
		t.Errorf("broken.cpp: the archive that did not import is still in the cache")
	}
}
