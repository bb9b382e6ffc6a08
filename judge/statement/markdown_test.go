package statement

import (
	"regexp"
	"strings"
	"testing"
)

// markdownCases are what the service's own renderer got wrong or left
// out (issue 32): each renders as goldmark with GitHub's tables does.
var markdownCases = []string{
	"# The Clocks\n\nNine *clock* dials, named `A` to **I**.\n",
	"| left | centre | right |\n|:-----|:------:|------:|\n| 1 | 2 | 3 |\n",
	"| a | b |\n|---|---|\n| `x|y` | \\| |\n",
	"- one\n  - nested\n    - deeper\n- two\n",
	"1. first\n2. second\n   - a point\n3. third\n",
	"***strong and emphasis*** and *a **nested** one*\n",
	"_under_ and __double__ and snake_case_name\n",
	"[a link](https://en.wikipedia.org/wiki/Function_(mathematics)) after it\n",
	"[ref][1] and [another]\n\n[1]: https://icpc.global \"ICPC\"\n[another]: https://kattis.com\n",
	"<https://example.org/a?b=c> and <mail@example.org>\n",
	"&copy; &amp; &#65; &#x42; &notanentity;\n",
	"\\*not emphasis\\* and \\`not code\\` and \\\\\n",
	"a line  \nbroken and a line\\\nbroken too\n",
	"    indented code\n    <b>\n",
	"```python\nprint('<b>')\n```\n",
	"~~~\ntildes\n~~~\n",
	"> a quote\n> > nested\n",
	"Setext\n======\n\nSub\n---\n",
	"***\n\n- - -\n",
	"~~struck~~ through\n",
	"`` code with ` backtick ``\n",
	"1) parens\n2) list\n",
	"- [ ] not a task here\n",
	"* loose\n\n* list\n",
	"text <span>inline html</span> text\n",
	"<div>\nblock html\n</div>\n",
	"[x](javascript:alert(1)) and [y](data:text/html,hi)\n",
	"line one\nline two\n\n\n\nafter blank lines\n",
}

// TestMarkdownAsGoldmark: the statements render as goldmark renders them.
func TestMarkdownAsGoldmark(t *testing.T) {
	if len(markdownCases) != 28 {
		t.Fatalf("%d cases, want the issue's 28", len(markdownCases))
	}
	for _, src := range markdownCases {
		if got, want := string(Markdown(src, nil)), GoldmarkGFM(src); got != want {
			t.Errorf("%q:\ngot  %q\nwant %q", src, got, want)
		}
	}
}

func TestMarkdownMath(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"Let $1 \\le N \\le 10^5$ be given.", `<p>Let <span class="math inline">\(1 \le N \le 10^5\)</span> be given.</p>` + "\n"},
		{"$a_1 * b_2 < c$", `<p><span class="math inline">\(a_1 * b_2 &lt; c\)</span></p>` + "\n"},
		{"$$\\sum_{i=1}^n x_i$$", `<p><span class="math display">\[\sum_{i=1}^n x_i\]</span></p>` + "\n"},
		{"costs $5 and $6", "<p>costs $5 and $6</p>\n"},
		{"a \\$ sign", "<p>a $ sign</p>\n"},
		{"$</span><script>x</script>$", `<p><span class="math inline">\(&lt;/span&gt;&lt;script&gt;x&lt;/script&gt;\)</span></p>` + "\n"},
	} {
		if got := string(Markdown(tc.in, nil)); got != tc.want {
			t.Errorf("%q: got %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestMarkdownPictures(t *testing.T) {
	pics := func(name string) string {
		if name == "fig.png" {
			return `/problems/p/files/statement/fig.png?a="b"`
		}
		return ""
	}
	for _, tc := range []struct{ in, want string }{
		{"![A figure](fig.png)", `<p><img src="/problems/p/files/statement/fig.png?a=&#34;b&#34;" alt="A figure"></p>` + "\n"},
		{`![x"><script>](fig.png "title")`, `<p><img src="/problems/p/files/statement/fig.png?a=&#34;b&#34;" alt="x&#34;&gt;"></p>` + "\n"}, // raw HTML left out
		{"![gone](other.png) and !bang", "<p>gone and !bang</p>\n"},
		{"![*b*](javascript:alert(1))", "<p>b</p>\n"},
	} {
		if got := string(Markdown(tc.in, pics)); got != tc.want {
			t.Errorf("%q: got %q, want %q", tc.in, got, tc.want)
		}
	}
}

// hostile finds markup a statement must never bring.
var hostile = regexp.MustCompile(`(?i)<(script|img|iframe|style|svg|object|embed|form|input|link|meta|base)|\son\w+=|(href|src)="\s*(javascript|data|vbscript):`)

func TestMarkdownHostile(t *testing.T) {
	for _, src := range []string{
		"<script>alert(1)</script>", "<img src=x onerror=alert(1)>", "[a](javascript:alert(1))", "[a](JaVaScRiPt:alert(1))",
		"[a]( javascript:alert(1))", "<iframe src=//x>", "![x](javascript:alert(1))", "<a href=\"x\" onclick=\"y\">z</a>",
		"[a](data:text/html;base64,PHNjcmlwdD4=)", "<svg onload=alert(1)>", "$<script>$", "<style>*{}</style>",
	} {
		if out := string(Markdown(src, nil)); hostile.MatchString(out) {
			t.Errorf("%q renders markup: %s", src, out)
		}
	}
}

func FuzzMarkdown(f *testing.F) {
	for _, c := range markdownCases {
		f.Add(c)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if out := string(Markdown(s, nil)); hostile.MatchString(out) && !strings.Contains(s, "\x00") {
			t.Errorf("%q renders markup: %s", s, out)
		}
	})
}
