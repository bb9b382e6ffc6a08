package problems

import (
	"slices"
	"testing"
	"testing/fstest"

	"github.com/optjudge/optjudge/problems/kattis"
)

func TestStatements(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files []string
		want  []StatementFile
		langs []string
	}{
		{"native", []string{"statement.md"}, []StatementFile{{"en", "md", "statement.md"}}, []string{"en"}},
		{"2025-09", []string{"statement/problem.nl.md", "statement/problem.en.md", "statement/problem.en.pdf", "statement/solution.en.tex", "statement/figure.png"},
			[]StatementFile{{"en", "md", "statement/problem.en.md"}, {"en", "pdf", "statement/problem.en.pdf"}, {"nl", "md", "statement/problem.nl.md"}}, []string{"en", "nl"}},
		{"legacy", []string{"problem_statement/problem.tex", "problem_statement/problem.pdf"},
			[]StatementFile{{"en", "tex", "problem_statement/problem.tex"}, {"en", "pdf", "problem_statement/problem.pdf"}}, []string{"en"}},
		{"both names of English", []string{"statement/problem.md", "statement/problem.en.md"},
			[]StatementFile{{"en", "md", "statement/problem.en.md"}}, []string{"en"}},
		{"regional", []string{"statement/problem.pt-BR.md"}, []StatementFile{{"pt-BR", "md", "statement/problem.pt-BR.md"}}, []string{"pt-BR"}},
		{"none", []string{"data/sample/1.in"}, nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fsys := fstest.MapFS{}
			for _, f := range tc.files {
				fsys[f] = &fstest.MapFile{Data: []byte("x")}
			}
			p := &Problem{Package: kattis.Package{FS: fsys}}
			if got := p.Statements(); !slices.Equal(got, tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
			if got := p.StatementLanguages(); !slices.Equal(got, tc.langs) {
				t.Errorf("languages: got %v, want %v", got, tc.langs)
			}
		})
	}
}

func TestStatementPath(t *testing.T) {
	fsys := fstest.MapFS{}
	for _, f := range []string{"statement/problem.en.md", "statement/problem.en.pdf", "statement/solution.en.tex", "statement/fig.png",
		"statement/img/deep.png", "data/secret/1.ans", "attachments/x.py"} {
		fsys[f] = &fstest.MapFile{Data: []byte("x")}
	}
	p := &Problem{Package: kattis.Package{FS: fsys}}
	for name, want := range map[string]bool{
		"statement/problem.en.md": true, "statement/problem.en.pdf": true, "statement/fig.png": true,
		"statement/solution.en.tex": false, "statement/img/deep.png": false, "data/secret/1.ans": false,
		"attachments/x.py": false, "statement/../data/secret/1.ans": false, "fig.png": false,
	} {
		if got := p.StatementPath(name); got != want {
			t.Errorf("%s: got %v, want %v", name, got, want)
		}
	}
}

func TestReadStatementConstants(t *testing.T) {
	fsys := fstest.MapFS{
		"statement/problem.en.md":  {Data: []byte("at most {{max_n}}\n")},
		"statement/problem.de.tex": {Data: []byte(`h\"ochstens \constant{max_n}`)},
	}
	p := &Problem{Package: kattis.Package{FS: fsys}}
	p.Package.Constants = kattis.Constants{"max_n": "1000"}
	sts := p.Statements()
	for i, want := range []string{`h\"ochstens 1000`, "at most 1000\n"} {
		b, err := p.ReadStatement(sts[i])
		if err != nil || string(b) != want {
			t.Errorf("%s: got %q, %v, want %q", sts[i].Path, b, err, want)
		}
	}
}
