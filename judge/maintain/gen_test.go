package maintain

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/optjudge/optjudge/problems"
	"github.com/optjudge/optjudge/reference"
)

// TestGenerateDeterministic: file N of a seed does not depend on the count,
// and every answer is the reference's output.
func TestGenerateDeterministic(t *testing.T) {
	t.Parallel()
	p := embedded(t, "rotation-game")
	dirA, dirB := t.TempDir(), t.TempDir()
	a, err := Generate(p, GenerateOptions{Kind: reference.Deep, Count: 1, Cases: 3, Seed: 5, Dir: dirA})
	if err != nil {
		t.Fatal(err)
	}
	b, err := Generate(p, GenerateOptions{Kind: reference.Deep, Count: 3, Cases: 3, Seed: 5, Dir: dirB})
	if err != nil {
		t.Fatal(err)
	}
	if len(a) != 1 || len(b) != 3 || filepath.Base(b[2].In) != "deep-5-003.in" {
		t.Fatalf("got %v and %v, want 1 and 3 files named deep-5-NNN", a, b)
	}
	inA, _ := os.ReadFile(a[0].In)
	inB, _ := os.ReadFile(b[0].In)
	if !bytes.Equal(inA, inB) {
		t.Errorf("file 1 differs between --count 1 and --count 3:\n%s\n%s", inA, inB)
	}
	for _, g := range b {
		in, _ := os.ReadFile(g.In)
		ans, _ := os.ReadFile(g.Ans)
		want, err := p.Reference.Solve(in)
		if err != nil || !bytes.Equal(ans, want) {
			t.Errorf("%s: got answer %q, want the reference's %q (%v)", g.Ans, ans, want, err)
		}
		if strings.Count(string(in), "\n") != 4 {
			t.Errorf("%s: got %q, want 3 cases and the final 0", g.In, in)
		}
	}
}

func TestGenerateAll(t *testing.T) {
	t.Parallel()
	p := embedded(t, "eight-puzzle")
	gen, err := Generate(p, GenerateOptions{Kind: All, Seed: 1, Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	in, _ := os.ReadFile(gen[0].In)
	ans, _ := os.ReadFile(gen[0].Ans)
	if len(gen) != 1 || filepath.Base(gen[0].In) != "all.in" || bytes.Count(in, []byte("\n")) != 182440 ||
		bytes.Count(ans, []byte("unsolvable\n")) != 1000 {
		t.Errorf("got %d files, %d lines, want all.in with 181,440 solvable and 1,000 unsolvable boards", len(gen), bytes.Count(in, []byte("\n")))
	}
}

func TestGenerateErrors(t *testing.T) {
	t.Parallel()
	kattis, err := problems.LoadDir("../../problems/sum-kattis")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		p    *problems.Problem
		o    GenerateOptions
		want string
	}{
		{embedded(t, "rotation-game"), GenerateOptions{Kind: All}, "the state space is too large to enumerate"},
		{embedded(t, "clocks"), GenerateOptions{Kind: "shallow", Count: 1}, `unknown kind "shallow"`},
		{embedded(t, "clocks"), GenerateOptions{Kind: reference.Random}, "count 0: want at least 1"},
		{kattis, GenerateOptions{Kind: reference.Random, Count: 1}, "the problem names no reference solver"},
	}
	for _, tt := range tests {
		tt.o.Dir = t.TempDir()
		if _, err := Generate(tt.p, tt.o); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s %+v: got %v, want an error containing %q", tt.p.Name, tt.o, err, tt.want)
		}
	}
}

func TestSave(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "clocks")
	if err := os.CopyFS(dir, os.DirFS("../../problems/clocks")); err != nil {
		t.Fatal(err)
	}
	p, err := problems.LoadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	in := []byte("3 3 0\n2 2 2\n2 1 2\n")
	g, err := Save(p, "stress-1-4", in)
	if err != nil {
		t.Fatal(err)
	}
	if g.In != filepath.Join(dir, "data/secret/stress-1-4.in") {
		t.Errorf("saved as %s, want it in data/secret", g.In)
	}
	if ans, _ := os.ReadFile(g.Ans); string(ans) != "4 5 8 9\n" {
		t.Errorf("got answer %q, want the reference's", ans)
	}
	if _, err := Save(p, "stress-1-4", in); err == nil || !strings.Contains(err.Error(), "already exists") {
		t.Errorf("got %v, want an error: the test exists", err)
	}
	if _, err := Save(embedded(t, "clocks"), "x", in); err == nil || !strings.Contains(err.Error(), "only a problem on disk") {
		t.Errorf("got %v, want an error for an embedded problem", err)
	}
}
