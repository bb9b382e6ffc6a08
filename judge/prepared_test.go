package judge

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/optjudge/optjudge/problems"
	"github.com/optjudge/optjudge/verdict"
)

// TestPrepared builds once and grades twice, on different tests.
func TestPrepared(t *testing.T) {
	t.Parallel()
	p := sumProblem(t)
	j := newJudge(t)
	opts := parallel()
	src := writeSource(t, "sum.cpp", "#include <iostream>\nint main(){long a,b;std::cin>>a>>b;std::cout<<a+b<<\"\\n\";}\n")
	pp, err := j.Prepare(context.Background(), Submission{Path: src}, BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer pp.Close()
	if !pp.Compile.OK || pp.Language != "cpp" {
		t.Fatalf("got %+v, want a C++ build", pp)
	}
	r, err := pp.Grade(context.Background(), p, opts)
	if err != nil || r.Verdict != verdict.AC || len(r.Tests) != 2 {
		t.Fatalf("got %+v, %v, want AC on 2 tests", r, err)
	}
	testDir := t.TempDir()
	os.WriteFile(filepath.Join(testDir, "x.in"), []byte("2 2\n"), 0o644)
	os.WriteFile(filepath.Join(testDir, "x.ans"), []byte("5\n"), 0o644)
	tests, err := problems.TestsIn(testDir)
	if err != nil {
		t.Fatal(err)
	}
	opts.Tests = tests
	r, err = pp.Grade(context.Background(), p, opts)
	if err != nil || r.Verdict != verdict.WA || r.Tests[0].Name != filepath.Base(testDir)+"/x" {
		t.Errorf("got %+v, %v, want WA on %s/x", r, err, filepath.Base(testDir))
	}
	if _, err := os.Stat(pp.prog.dir); err != nil {
		t.Errorf("the build is gone before Close: %v", err)
	}
	dir := pp.prog.dir
	if err := pp.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); err == nil {
		t.Errorf("Close left the build %s", dir)
	}
}

func TestPreparedCompileError(t *testing.T) {
	t.Parallel()
	j := newJudge(t)
	pp, err := j.Prepare(context.Background(), Submission{Path: writeSource(t, "ce.cpp", "int main() { return nope; }\n")}, BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer pp.Close()
	r, err := pp.Grade(context.Background(), sumProblem(t), parallel())
	if err != nil || r.Verdict != verdict.CE || r.Compile.Message == "" {
		t.Errorf("got %+v, %v, want CE with the compiler's message", r, err)
	}
}
