package statement

import (
	"os"
	"strings"
	"testing"
)

// TestLaTeXOddecho renders problemtools' own example statement: its
// title, its sections, its math for KaTeX and its table.
func TestLaTeXOddecho(t *testing.T) {
	src, err := os.ReadFile("testdata/oddecho.en.tex")
	if err != nil {
		t.Fatal(err)
	}
	out := string(LaTeX(string(src), nil))
	for _, want := range []string{
		"<h1>Odd Echo</h1>", "<h2>Input</h2>", "<h2>Output</h2>", "<h2>Scoring</h2>",
		`<span class="math inline">\(1 \le N \le 10\)</span>`,
		"<p>ECHO! Echo! Ech...</p>",
		`<table class="tabular">`, "<td>Group</td><td>Points</td><td>Constraints</td>",
		`<td><span class="math inline">\(N\)</span> is always <span class="math inline">\(5\)</span></td>`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
	if strings.Contains(out, `\section`) || strings.Contains(out, `\hline`) || strings.Contains(out, "noindent") {
		t.Errorf("LaTeX left in the HTML:\n%s", out)
	}
}

func TestLaTeX(t *testing.T) {
	pics := func(name string) string {
		if name == "cave.jpg" {
			return "/problems/p/files/statement/cave.jpg"
		}
		return ""
	}
	for _, tc := range []struct{ in, want string }{
		{`\problemname{A \& B}`, "<h1>A &amp; B</h1>\n"},
		{"one\n\ntwo", "<p>one</p>\n<p>two</p>\n"},
		{`\textbf{bold} \emph{it} \texttt{x<y}`, "<p><b>bold</b> <em>it</em> <code>x&lt;y</code></p>\n"},
		{"\\begin{itemize}\n\\item a\n\\item b\n\\end{itemize}", "<ul>\n<li>a</li>\n<li>b</li>\n</ul>\n"},
		{`\illustration{0.3}{cave.jpg}{A cave}`, `<figure class="illustration"><img src="/problems/p/files/statement/cave.jpg" alt="A cave"><figcaption>A cave</figcaption></figure>` + "\n"},
		{`\[ \sum_i x_i \]`, `<p><span class="math display">\[\sum_i x_i\]</span></p>` + "\n"},
		{"costs 5\\% % a comment\nmore", "<p>costs 5% \nmore</p>\n"},
		{`\url{https://icpc.global} \href{javascript:alert(1)}{x}`, `<p><a href="https://icpc.global">https://icpc.global</a> x</p>` + "\n"},
		{`<script>alert(1)</script> \includegraphics{../secret.ans}`, "<p>&lt;script&gt;alert(1)&lt;/script&gt; </p>\n"},
		{`$</span><img src=x onerror=1>$`, `<p><span class="math inline">\(&lt;/span&gt;&lt;img src=x onerror=1&gt;\)</span></p>` + "\n"},
	} {
		if got := string(LaTeX(tc.in, pics)); got != tc.want {
			t.Errorf("%q:\ngot  %q\nwant %q", tc.in, got, tc.want)
		}
	}
}

func FuzzLaTeX(f *testing.F) {
	f.Add(`\problemname{x} $a$ \begin{tabular}{l}a & b\\\end{tabular} \href{javascript:x}{y}`)
	f.Fuzz(func(t *testing.T, s string) {
		if out := string(LaTeX(s, nil)); hostile.MatchString(out) {
			t.Errorf("%q renders markup: %s", s, out)
		}
	})
}
