package service

import (
	"bytes"
	"encoding/json"
	"image"
	"image/color"
	"image/png"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/optjudge/optjudge/problems"
	"github.com/optjudge/optjudge/problems/kattis"
)

// Secrets of the contest's packages: no page or answer a contestant gets
// may hold them.
const (
	secretIn  = "SECRET-INPUT-4242"
	secretAns = "SECRET-ANSWER-4343"
)

// contestDir writes a contest of Kattis packages, as BAPCtools lays one
// out: hello (Markdown statements in English and Dutch, a PDF, pictures,
// attachments, a sample interaction, python3 only, a code limit of 1 KiB),
// texonly (a legacy LaTeX statement and no PDF) and problems.yaml's
// labels and colours, one entry of a problem that is not there.
func contestDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"contest.yaml": "id: tc26\nname: Test Contest 2026\nstart_time: 2026-12-03T10:00:00Z\nduration: '5:00:00'\n",
		"problems.yaml": "- id: hello\n  label: A\n  name: Hello\n  color: Orange\n  rgb: '#FF7109'\n" +
			"- id: texonly\n  label: B\n  rgb: '#008100'\n- id: later\n  label: C\n",
		"hello/problem.yaml": "name: {en: Hello, nl: Hallo}\nlanguages: python3\nlimits:\n  code: 1\n",
		"hello/statement/problem.en.md": "# Task\n\nSay **hello**.<script>alert(1)</script> [run](javascript:alert(2))\n\n" +
			"<img src=x onerror=alert(3)>\n\n![A figure](figure.png) ![the answer](../data/secret/1.ans) ![far](https://example.com/x.png)\n",
		"hello/statement/problem.nl.md":         "Zeg **hallo**.\n",
		"hello/statement/problem.en.pdf":        "%PDF-1.4 not really\n",
		"hello/statement/solution.en.tex":       "the jury's solution: print hello\n",
		"hello/statement/figure.png":            onePixelPNG(),
		"hello/attachments/testing_tool.py":     "print('a tool')\n",
		"hello/attachments/lib/x.h":             "int x;\n",
		"hello/data/sample/1.in":                "1\n",
		"hello/data/sample/1.ans":               "hello\n",
		"hello/data/sample/2.interaction":       ">ping\n<pong\n",
		"hello/data/secret/1.in":                secretIn + "\n",
		"hello/data/secret/1.ans":               secretAns + "\n",
		"texonly/problem.yaml":                  "name: TeX Only\n",
		"texonly/problem_statement/problem.tex": "\\problemname{TeX Only}\nPrint $x < y$ & <b>bold</b>.\n",
		"texonly/data/sample/1.in":              "2\n",
		"texonly/data/sample/1.ans":             "2\n",
		"texonly/data/secret/1.in":              secretIn + "\n",
		"texonly/data/secret/1.ans":             secretAns + "\n",
	}
	for name, content := range files {
		writeProblemFile(t, dir, name, content)
	}
	// a link of attachments/ to a secret answer is no attachment
	if err := os.Symlink("../data/secret/1.ans", filepath.Join(dir, "hello", "attachments", "leak.txt")); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestContestLibrary(t *testing.T) {
	t.Parallel()
	lib, err := NewLibrary(nil, contestDir(t), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer lib.Close()
	c := lib.Contest()
	if c == nil || c.Name != "Test Contest 2026" || len(c.Problems) != 3 {
		t.Fatalf("got contest %+v, want Test Contest 2026 of 3 problems", c)
	}
	if len(c.Warnings) != 1 || !strings.Contains(c.Warnings[0].String(), `problems.yaml:9: problem "later" is not in`) {
		t.Errorf("warnings: got %v, want one for later at line 9", c.Warnings)
	}
	if _, err := NewLibrary(nil, writeBadContest(t), t.TempDir()); err == nil || !strings.Contains(err.Error(), "problems.yaml:1: [0].label: required") {
		t.Errorf("a problems.yaml without a label: got %v, want its line and field", err)
	}
}

func writeBadContest(t *testing.T) string {
	dir := t.TempDir()
	writeProblemFile(t, dir, "problems.yaml", "- id: x\n")
	return dir
}

// onePixelPNG is a picture of one pixel.
func onePixelPNG() string {
	var buf bytes.Buffer
	img := image.NewRGBA(image.Rect(0, 0, 1, 1))
	img.Set(0, 0, color.RGBA{255, 113, 9, 255})
	png.Encode(&buf, img)
	return buf.String()
}

// contestEnv is the service on contestDir, with users.
func contestEnv(t *testing.T) *env {
	return newEnv(t, envOpts{tokens: pageTokens, problems: contestDir(t)})
}

func TestProblemSetOrder(t *testing.T) {
	t.Parallel()
	e := contestEnv(t)
	e.token = pageTokens[0].Token // a contestant
	var list struct {
		Contest  *ContestView     `json:"contest"`
		Problems []ProblemSummary `json:"problems"`
	}
	if code := e.do("GET", "/api/v1/problems", nil, nil, &list); code != http.StatusOK {
		t.Fatalf("GET /api/v1/problems: %d", code)
	}
	if list.Contest == nil || list.Contest.Name != "Test Contest 2026" || list.Contest.ID != "tc26" {
		t.Errorf("contest: got %+v", list.Contest)
	}
	var names []string
	for _, p := range list.Problems {
		names = append(names, p.Name+":"+p.Label+":"+p.RGB)
	}
	// The contest's problems in its order, then the other problems
	// (the embedded ones) by name, unlabelled.
	want := "hello:A:#ff7109 texonly:B:#008100"
	for _, name := range problems.Embedded() {
		want += " " + name + "::"
	}
	if got := strings.Join(names, " "); got != want {
		t.Errorf("the problems: got %s, want %s", got, want)
	}
	if list.Problems[0].Color != "Orange" || list.Problems[0].Limits.CodeKiB != 1 {
		t.Errorf("hello: got %+v, want colour Orange and a code limit of 1 KiB", list.Problems[0])
	}

	c := e.client(t)
	c.login(pageTokens[0].Token)
	code, body := c.get("/problems")
	if code != http.StatusOK {
		t.Fatalf("/problems: %d", code)
	}
	for _, want := range []string{"<h1>Test Contest 2026</h1>", `<span class="label label-hello" title="Orange">A</span>`, `id="other-problems"`} {
		if !strings.Contains(body, want) {
			t.Errorf("/problems: no %q in\n%s", want, body)
		}
	}
	if i, j, k := strings.Index(body, `data-name="hello"`), strings.Index(body, `data-name="texonly"`), strings.Index(body, `data-name="clocks"`); !(i >= 0 && i < j && j < k) {
		t.Errorf("/problems: want hello, texonly, then clocks, got them at %d, %d, %d", i, j, k)
	}
	_, css := c.get("/contest.css")
	if !strings.Contains(css, ".label-hello { background: #ff7109; color: #000;") || !strings.Contains(css, ".label-texonly { background: #008100; color: #fff;") {
		t.Errorf("/contest.css: got\n%s", css)
	}
	// the submit page and the list's filter in the contest's order, labelled
	_, body = c.get("/submit")
	if !strings.Contains(body, `<optgroup label="Test Contest 2026">`) || !strings.Contains(body, `<option value="hello" selected>A: Hello (hello)</option>`) {
		t.Errorf("/submit: the problems are not the contest's, in order:\n%s", body)
	}
	_, body = c.get("/")
	if !strings.Contains(body, `<option value="texonly">B: texonly</option>`) {
		t.Errorf("/: the filter has no labels:\n%s", body)
	}
}

func TestProblemPage(t *testing.T) {
	t.Parallel()
	e := contestEnv(t)
	c := e.client(t)
	c.login(pageTokens[0].Token) // a contestant
	code, body := c.get("/problems/hello")
	if code != http.StatusOK {
		t.Fatalf("/problems/hello: %d\n%s", code, body)
	}
	for _, want := range []string{
		// goldmark's, raw HTML off: the script and the picture's tag left out
		"<h1>Task</h1>", "Say <strong>hello</strong>.<!-- raw HTML omitted -->alert(1)<!-- raw HTML omitted --> <a href=\"\">run</a>",
		`href="/problems/hello/files/statement/problem.en.pdf"`, `<a href="/problems/hello?lang=nl" hreflang="nl">nl</a>`,
		`<a href="/problems/hello/files/attachments/testing_tool.py" download>testing_tool.py</a>`,
		`<a href="/problems/hello/files/attachments/lib/x.h" download>lib/x.h</a>`,
		`<div class="int-line int-out" role="row"><pre role="cell">ping`, `<div class="int-line int-in" role="row"><pre role="cell">pong`,
		`<a class="button" href="/submit?problem=hello"`, "source code 1 KiB",
		`<img src="/problems/hello/files/statement/figure.png" alt="A figure"> the answer far`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("/problems/hello: no %q in\n%s", want, body)
		}
	}
	for _, bad := range []string{"<script>alert", "javascript:", "<img src=x", "leak.txt", "solution.en.tex", secretIn, secretAns} {
		if strings.Contains(body, bad) {
			t.Errorf("/problems/hello has %q", bad)
		}
	}
	for _, tc := range []struct{ path, accept, want string }{
		{"/problems/hello?lang=nl", "", "Zeg <strong>hallo</strong>"},
		{"/problems/hello", "nl-BE,nl;q=0.9,en;q=0.5", "Zeg <strong>hallo</strong>"},
		{"/problems/hello", "fr-FR, de;q=0.8", "Say <strong>hello</strong>"},
		{"/problems/hello?lang=xx", "nl", "Zeg <strong>hallo</strong>"},
		{"/problems/hello?lang=nl", "", "<a href=\"/problems/hello?lang=nl\">Hallo</a>"}, // the title in Dutch
	} {
		_, _, body := c.do("GET", tc.path, nil, map[string]string{"Accept-Language": tc.accept})
		if !strings.Contains(body, tc.want) {
			t.Errorf("%s with Accept-Language %q: no %q", tc.path, tc.accept, tc.want)
		}
	}
	// a LaTeX statement: rendered as problemtools does, its math for KaTeX
	_, body = c.get("/problems/texonly")
	if !strings.Contains(body, `<p>Print <span class="math inline">\(x &lt; y\)</span> &amp; &lt;b&gt;bold&lt;/b&gt;.</p>`) {
		t.Errorf("/problems/texonly: got\n%s", body)
	}
	// the submit page's fragment, with the languages the problem takes
	_, body = c.get("/problems/hello/statement")
	if !strings.Contains(body, `data-languages="[&#34;python3&#34;,&#34;cpython3&#34;]"`) {
		t.Errorf("/problems/hello/statement: no languages in\n%s", body)
	}
	if code, _ := c.get("/problems/nope"); code != http.StatusNotFound {
		t.Errorf("/problems/nope: got %d, want 404", code)
	}
}

func TestProblemFiles(t *testing.T) {
	t.Parallel()
	e := contestEnv(t)
	c := e.client(t)
	c.login(pageTokens[0].Token)
	for _, tc := range []struct {
		path, ctype, disposition, body string
	}{
		{"/problems/hello/files/attachments/testing_tool.py", "application/octet-stream", `attachment; filename="testing_tool.py"`, "print('a tool')\n"},
		{"/problems/hello/files/attachments/lib/x.h", "application/octet-stream", `attachment; filename="x.h"`, "int x;\n"},
		{"/problems/hello/files/statement/problem.en.pdf", "application/pdf", "", "%PDF-1.4 not really\n"},
		{"/problems/hello/files/statement/figure.png", "image/png", "", onePixelPNG()},
		{"/problems/hello/files/data/sample/2.interaction", "application/octet-stream", `attachment; filename="2.interaction"`, ">ping\n<pong\n"},
		{"/api/v1/problems/hello/files/attachments/testing_tool.py", "application/octet-stream", `attachment; filename="testing_tool.py"`, "print('a tool')\n"},
	} {
		hdr := map[string]string{}
		if strings.HasPrefix(tc.path, "/api/") {
			hdr["Authorization"] = "Bearer " + pageTokens[0].Token
		}
		code, h, body := c.do("GET", tc.path, nil, hdr)
		if code != http.StatusOK || h.Get("Content-Type") != tc.ctype || h.Get("Content-Disposition") != tc.disposition || body != tc.body ||
			h.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("%s: got %d %q %q %q, want 200 %q %q %q", tc.path, code, h.Get("Content-Type"), h.Get("Content-Disposition"), body,
				tc.ctype, tc.disposition, tc.body)
		}
		if tc.ctype != "application/pdf" && !strings.Contains(h.Get("Content-Security-Policy"), "sandbox") {
			t.Errorf("%s: not sandboxed: %q", tc.path, h.Get("Content-Security-Policy"))
		}
	}
	// nothing else of the package, however the path is put
	for _, p := range []string{
		"data/secret/1.ans", "data/secret/1.in", "statement/solution.en.tex", "problem.yaml", "attachments/leak.txt",
		"attachments%2F..%2Fdata%2Fsecret%2F1.ans", "attachments/..%2f..%2fproblem.yaml", "%2Fetc%2Fpasswd", "attachments/",
		"attachments/nope.py", "statement/../data/secret/1.ans", "..%2F..%2Fcontest.yaml",
	} {
		for _, base := range []string{"/problems/hello/files/", "/api/v1/problems/hello/files/"} {
			code, h, body := c.do("GET", base+p, nil, map[string]string{"Authorization": "Bearer " + pageTokens[0].Token})
			if code/100 == 3 { // the mux's clean path, then
				code, _, body = c.do("GET", h.Get("Location"), nil, map[string]string{"Authorization": "Bearer " + pageTokens[0].Token})
			}
			if code/100 != 4 || strings.Contains(body, "SECRET") || strings.Contains(body, "jury") {
				t.Errorf("%s%s: got %d %q, want a 4xx", base, p, code, body)
			}
			if strings.HasPrefix(base, "/api/") && !json.Valid([]byte(body)) {
				t.Errorf("%s%s: not a JSON error: %q", base, p, body)
			}
		}
	}
	// nobody gets nothing: a login, or 401
	anon := e.client(t)
	if code, h, _ := anon.do("GET", "/problems/hello/files/attachments/testing_tool.py", nil, nil); code != http.StatusSeeOther || !strings.HasPrefix(h.Get("Location"), "/login") {
		t.Errorf("anonymous download: got %d %s, want 303 to /login", code, h.Get("Location"))
	}
	if code, _, _ := anon.do("GET", "/api/v1/problems/hello/files/attachments/testing_tool.py", nil, nil); code != http.StatusUnauthorized {
		t.Errorf("anonymous API download: got %d, want 401", code)
	}
}

func TestProblemDetailStatements(t *testing.T) {
	t.Parallel()
	e := contestEnv(t)
	e.token = pageTokens[0].Token
	var d ProblemDetail
	if code := e.do("GET", "/api/v1/problems/hello", nil, map[string]string{"Accept-Language": "nl"}, &d); code != http.StatusOK {
		t.Fatalf("GET hello: %d", code)
	}
	if d.StatementLanguage != "nl" || d.StatementFormat != "md" || d.Statement != "Zeg **hallo**.\n" || d.Label != "A" {
		t.Errorf("hello in Dutch: got %q %q %q label %q", d.StatementLanguage, d.StatementFormat, d.Statement, d.Label)
	}
	if strings.Join(d.Languages, " ") != "python3 cpython3" {
		t.Errorf("languages: got %v, want those of code python3", d.Languages)
	}
	if len(d.Statements) != 3 || d.Statements[1].URL != "/api/v1/problems/hello/files/statement/problem.en.pdf" {
		t.Errorf("statements: got %+v", d.Statements)
	}
	if len(d.Attachments) != 2 || d.Attachments[0].Name != "lib/x.h" || d.Attachments[1].URL != "/api/v1/problems/hello/files/attachments/testing_tool.py" {
		t.Errorf("attachments: got %+v", d.Attachments)
	}
	if len(d.Samples) != 2 || d.Samples[1].Interaction != ">ping\n<pong\n" {
		t.Errorf("samples: got %+v", d.Samples)
	}
	raw := getRaw(t, e, "/api/v1/problems/hello")
	for _, bad := range []string{secretIn, secretAns, "leak.txt", "solution"} {
		if strings.Contains(raw, bad) {
			t.Errorf("the problem's detail has %q", bad)
		}
	}
	if code := e.do("GET", "/api/v1/problems/texonly", nil, nil, &d); code != http.StatusOK || d.StatementFormat != "tex" || !strings.Contains(d.Statement, `\problemname{TeX Only}`) {
		t.Errorf("texonly: got %d %q %q", code, d.StatementFormat, d.Statement)
	}
	// a native problem: its statement.md
	if code := e.do("GET", "/api/v1/problems/clocks", nil, nil, &d); code != http.StatusOK || d.StatementFormat != "md" || !strings.Contains(d.Statement, "clock") {
		t.Errorf("clocks: got %d %q %.40q", code, d.StatementFormat, d.Statement)
	}
}

func getRaw(t *testing.T, e *env, path string) string {
	t.Helper()
	code, body := e.send("GET", path, nil, map[string]string{"Authorization": "Bearer " + e.token})
	if code != http.StatusOK {
		t.Fatalf("GET %s: %d", path, code)
	}
	return body
}

// TestSubmitProblemRules: the problem's languages and limits.code, through
// the API and the pages.
func TestSubmitProblemRules(t *testing.T) {
	t.Parallel()
	e := contestEnv(t)
	e.token = pageTokens[0].Token
	var out map[string]string
	code := e.do("POST", "/api/v1/submissions", jsonBody(SubmitRequest{Problem: "hello", Filename: "a.cpp", Source: "int main() {}\n"}), nil, &out)
	if code != http.StatusBadRequest || !strings.Contains(out["error"], "not a language of problem hello (python3)") {
		t.Errorf("C++ to hello: got %d %q, want 400 naming its languages", code, out["error"])
	}
	big := "print('hello')\n" + strings.Repeat("#", 1100) + "\n"
	code = e.do("POST", "/api/v1/submissions", jsonBody(SubmitRequest{Problem: "hello", Filename: "a.py", Source: big}), nil, &out)
	if code != http.StatusRequestEntityTooLarge || !strings.Contains(out["error"], "over problem hello's code limit of 1KiB") {
		t.Errorf("a large source: got %d %q, want 413 naming the limit", code, out["error"])
	}

	c := e.client(t)
	c.login(pageTokens[0].Token)
	_, body := c.get("/submit?problem=hello")
	if !regexp.MustCompile(`<option value="cpp"[^>]* hidden disabled>`).MatchString(body) || regexp.MustCompile(`<option value="python3"[^>]* hidden`).MatchString(body) {
		t.Errorf("/submit?problem=hello: want C++ hidden and Python 3 offered:\n%s", body)
	}
	code, _, body = c.submitForm(map[string]string{"csrf": c.csrf(), "problem": "hello", "key": newKey()}, "a.py", big)
	if code != http.StatusRequestEntityTooLarge || !strings.Contains(body, "over problem hello&#39;s code limit of 1KiB") {
		t.Errorf("the form with a large source: got %d\n%s", code, body)
	}
	code, _, body = c.submitForm(map[string]string{"csrf": c.csrf(), "problem": "hello", "key": newKey()}, "a.cpp", "int main() {}\n")
	if code != http.StatusBadRequest || !strings.Contains(body, "not a language of problem hello") {
		t.Errorf("the form with C++: got %d\n%s", code, body)
	}
}

func TestChooseLang(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		have          []string
		query, accept string
		want          string
	}{
		{[]string{"en", "nl"}, "", "", "en"},
		{[]string{"en", "nl"}, "nl", "", "nl"},
		{[]string{"en", "nl"}, "NL", "", "nl"},
		{[]string{"en", "nl"}, "de", "nl", "nl"},
		{[]string{"en", "nl"}, "", "de-AT, nl-BE;q=0.5", "nl"},
		{[]string{"en", "nl"}, "", "nl;q=0, en;q=0.2", "en"},
		{[]string{"en", "pt-BR"}, "", "pt", "pt-BR"},
		{[]string{"de", "fr"}, "", "*", "de"},
		{[]string{"de", "fr"}, "", "fr;q=oops", "fr"},
		{nil, "en", "en", ""},
	} {
		if got := chooseLang(tc.have, tc.query, tc.accept); got != tc.want {
			t.Errorf("chooseLang(%v, %q, %q): got %q, want %q", tc.have, tc.query, tc.accept, got, tc.want)
		}
	}
}

// TestHugeStatement: a statement past maxStatement is offered, not shown.
func TestHugeStatement(t *testing.T) {
	t.Parallel()
	huge := strings.Repeat("word ", maxStatement/5+10)
	p := &Problem{Problem: &problems.Problem{Package: kattis.Package{FS: fstest.MapFS{"statement/problem.en.md": {Data: []byte(huge)}}}}}
	var d statementData
	if err := d.text(p, chooseStatement(p, "", "")); err != nil {
		t.Fatal(err)
	}
	if d.HTML != "" || !strings.Contains(d.Note, "too large to show") {
		t.Errorf("got %d bytes of HTML and note %q, want none and a note", len(d.HTML), d.Note)
	}
}

// TestStatementKinds: a LaTeX statement with a PDF offers the PDF, a PDF
// alone says so, no statement says so.
func TestStatementKinds(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name        string
		files       []string
		note, html  string
		pdfExpected bool
	}{
		{"tex and pdf", []string{"statement/problem.en.tex", "statement/problem.en.pdf"}, "", "<p>text</p>", true},
		{"pdf", []string{"problem_statement/problem.pdf"}, "is a PDF", "", true},
		{"none", nil, "", "has no statement", false},
		{"md and pdf", []string{"statement/problem.en.md", "statement/problem.en.pdf"}, "", "<p>text</p>", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fsys := fstest.MapFS{}
			for _, f := range tc.files {
				fsys[f] = &fstest.MapFile{Data: []byte("text\n")}
			}
			p := &Problem{Problem: &problems.Problem{Package: kattis.Package{FS: fsys}}}
			st := chooseStatement(p, "", "")
			var d statementData
			if st.PDF != nil {
				d.PDF = "pdf"
			}
			if err := d.text(p, st); err != nil {
				t.Fatal(err)
			}
			if (st.PDF != nil) != tc.pdfExpected || !strings.Contains(d.Note, tc.note) || !strings.Contains(string(d.HTML), tc.html) {
				t.Errorf("got PDF %v, note %q, HTML %q", st.PDF != nil, d.Note, d.HTML)
			}
		})
	}
}
