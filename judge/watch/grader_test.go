package watch

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/optjudge/optjudge/judge"
	"github.com/optjudge/optjudge/problems"
	"github.com/optjudge/optjudge/problems/kattis"
	"github.com/optjudge/optjudge/verdict"
)

func TestSamplesFirst(t *testing.T) {
	ts := []kattis.Test{
		{Name: "secret/01-random", Group: "secret"},
		{Name: "mytests/02-sample", Group: "mytests"},
		{Name: "secret/03-deep", Group: "secret"},
		{Name: "sample/1", Group: "sample"},
		{Name: "mytests/samples/04", Group: "mytests"},
	}
	var got []string
	for _, tt := range SamplesFirst(ts) {
		got = append(got, tt.Name)
	}
	want := []string{"mytests/02-sample", "sample/1", "secret/01-random", "secret/03-deep", "mytests/samples/04"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	if ts[0].Name != "secret/01-random" {
		t.Error("SamplesFirst reordered its argument")
	}
}

func TestTestDirs(t *testing.T) {
	embedded, err := problems.LoadEmbedded("clocks")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, f := range []string{"problem.yaml", "testdata/secret/1.in"} {
		p := filepath.Join(dir, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	yaml := "name: sum\ntitle: Sum\nlimits:\n  time_limit: 1\n  memory: 256\n  output: 1\n"
	if err := os.WriteFile(filepath.Join(dir, "problem.yaml"), []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	onDisk, err := problems.LoadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	kattis, err := problems.LoadDir("../../problems/sum-kattis")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		p        *problems.Problem
		testsDir string
		want     []string
	}{
		{"embedded", embedded, "", nil},
		{"embedded with --tests", embedded, "mytests", []string{"mytests"}},
		{"on disk, no sample directory", onDisk, "", []string{filepath.Join(dir, "testdata"), filepath.Join(dir, "testdata/secret")}},
		{"kattis, nested groups", kattis, "", []string{"../../problems/sum-kattis/data", "../../problems/sum-kattis/data/sample",
			"../../problems/sum-kattis/data/secret", "../../problems/sum-kattis/data/secret/big"}},
	}
	for _, tt := range tests {
		if got := TestDirs(tt.p, tt.testsDir); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: got %v, want %v", tt.name, got, tt.want)
		}
	}
}

// Without an answer file, the expected output of the failing test is the
// reference's; the program's output is read back from the grade.
func TestGraderExplainsWithReference(t *testing.T) {
	w := &watched{t: t}
	needPython(t)
	p, err := problems.LoadEmbedded("clocks")
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	testsDir, tmp := filepath.Join(root, "tests"), filepath.Join(root, "tmp")
	for _, d := range []string{testsDir, tmp} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	src := filepath.Join(root, "main.py")
	w.write(filepath.Join(testsDir, "1.in"), clocksTests[0])
	w.write(src, "print('4 5 8')\n")
	j := newJudge(t, tmp)
	g := &Grader{Judge: j, Problem: p, Source: src, TestsDir: testsDir, Options: judge.GradeOptions{TimeLimit: 10 * time.Second, WallLimit: time.Minute}}
	o, err := g.Grade(context.Background(), func(judge.TestResult) {})
	if err != nil {
		t.Fatal(err)
	}
	f := o.Failure
	if o.Report.Verdict != verdict.WA || f == nil {
		t.Fatalf("got %v, failure %+v, want WA with a failure", o.Report.Verdict, f)
	}
	if string(f.Answer) != "4 5 8 9\n" || string(f.Output) != "4 5 8\n" || !strings.Contains(f.Picture, "after 3 moves: 4 5 8") {
		t.Errorf("got answer %q, output %q, picture\n%s\nwant answer \"4 5 8 9\\n\", output \"4 5 8\\n\", the dials after 3 moves",
			f.Answer, f.Output, f.Picture)
	}
	if o.Report.KeptIn != "" || o.Report.Tests[0].Dir != "" {
		t.Errorf("the report names deleted directories: %q, %q", o.Report.KeptIn, o.Report.Tests[0].Dir)
	}
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	if left, _ := os.ReadDir(tmp); len(left) > 0 {
		t.Errorf("the grade left %d files behind", len(left))
	}
}

// newJudge makes a Judge whose directory is under tmp; the caller closes
// it (a second Close, at the test's end, does nothing).
func newJudge(t testing.TB, tmp string) *judge.Judge {
	t.Helper()
	j, err := judge.New(judge.Config{TempDir: tmp, Path: os.Getenv("PATH")})
	if err != nil {
		t.Skipf("no judge here: %v", err)
	}
	t.Cleanup(func() { j.Close() })
	return j
}

// TestGraderInteractive: a failure of an interactive problem is explained
// by the validator's message and the statement's interaction, and the
// samples that are only an interaction are shown, not run.
func TestGraderInteractive(t *testing.T) {
	needPython(t)
	p, err := problems.LoadDir("../../problems/testdata/guess-interactive")
	if err != nil {
		t.Fatal(err)
	}
	j := newJudge(t, t.TempDir())
	g := &Grader{Judge: j, Problem: p, Source: "../../problems/testdata/guess-interactive/submissions/wrong_answer/linear.py",
		Options: judge.GradeOptions{TimeLimit: 10 * time.Second, WallLimit: time.Minute}}
	o, err := g.Grade(context.Background(), func(judge.TestResult) {})
	if err != nil {
		t.Fatal(err)
	}
	f := o.Failure
	if o.Report.Verdict != verdict.WA || f == nil || f.Test.Name != "sample/1" || !f.Interactive || !strings.HasPrefix(string(f.Interaction), ">? 500") {
		t.Fatalf("got %v, failure %+v, want WA on sample/1 with its interaction", o.Report.Verdict, f)
	}
	if len(o.Interactions) != 1 || o.Interactions[0].Name != "sample/2" {
		t.Errorf("got interactions %+v, want sample/2", o.Interactions)
	}
	var b strings.Builder
	d := &Display{W: &b}
	d.Show(Event{Kind: Finished, Outcome: o})
	for _, want := range []string{"message: more than 10 questions", "the statement's interaction (> the program, < the validator):\n    >? 500",
		"sample/2: an interaction of the statement, not run"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("got\n%s\nwant it to contain %q", b.String(), want)
		}
	}
}
