package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"unicode"

	"github.com/optjudge/optjudge/judge"
	"github.com/optjudge/optjudge/judge/lang"
	"github.com/optjudge/optjudge/problems"
)

// cliTitle is the title of docs/cli.md.
const cliTitle = "CLI reference"

// cliDoc renders the help of judge and of every command as Markdown: the
// CLI reference, docs/cli.md, made from the command table as go help's
// pages are, so that the two never drift.
func cliDoc(t *testing.T) string {
	var b strings.Builder
	b.WriteString("# " + cliTitle + "\n\n")
	b.WriteString("<!-- Made from the judge's command table by `go test ./cmd/judge -run TestDocsCLI -update`:\n")
	b.WriteString("     change the help texts in cmd/judge, not this file. -->\n\n")
	b.WriteString("Each command's `judge help COMMAND`, as the judge prints it.\n\n")
	for _, c := range commands {
		fmt.Fprintf(&b, "- [`judge %s`](#judge-%s): %s\n", c.Name, c.Name, c.Short)
	}
	b.WriteString("\nThe topics, pages of these docs that `judge help TOPIC` prints:\n\n")
	for _, tp := range topics {
		link := tp.Page
		if tp.Section != "" {
			link += "#" + slug(tp.Section)
		}
		fmt.Fprintf(&b, "- [`judge help %s`](%s): %s\n", tp.Name, link, tp.Short)
	}
	var top bytes.Buffer
	usage(&top)
	fmt.Fprintf(&b, "\n## judge\n\n```\n%s```\n", top.String())
	for _, c := range commands {
		fs := flag.NewFlagSet(c.Name, flag.ContinueOnError)
		fs.String("problems", "", "look up problem names in `DIR` (default ./problems, then the embedded problems)")
		if c.Flags != nil {
			c.Flags(fs)
		}
		var h bytes.Buffer
		commandUsage(&h, c, fs)
		fmt.Fprintf(&b, "\n## judge %s\n\n```\n%s```\n", c.Name, h.String())
	}
	b.WriteString(navFooter(t, "cli.md"))
	return b.String()
}

// TestDocsCLI: docs/cli.md is the help of every command as it is
// (regenerate with -update).
func TestDocsCLI(t *testing.T) {
	t.Parallel()
	path := filepath.Join("..", "..", "docs", "cli.md")
	want := cliDoc(t)
	if *update {
		if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Errorf("docs/cli.md differs from the commands' help: go test ./cmd/judge -run TestDocsCLI -update")
	}
}

// A docs page's examples: each ```console block holds commands ("$ judge
// ...", optionally ending in "# exit N") each followed by its output; a
// block whose info string names a file (```yaml file=slide/puzzle.yaml)
// is written to that file first. A line "..." in an output stands for any
// lines, a line ending in "..." for any line that begins with the rest. The
// page runs in a fresh directory, block after block, its outputs masked as
// the CLI's goldens are. A ```sh block is read, not run: each judge
// command in it must name a command and flags of the judge, each go
// command packages of the module (see checkShell).
type docBlock struct {
	info, body string
	line       int
}

var fenceRE = regexp.MustCompile("(?m)^```([^\\n]*)\\n")

// docBlocks lists the fenced blocks of a Markdown page.
func docBlocks(page string) []docBlock {
	var out []docBlock
	for rest, off := page, 0; ; {
		m := fenceRE.FindStringSubmatchIndex(rest)
		if m == nil {
			return out
		}
		info := rest[m[2]:m[3]]
		body := rest[m[1]:]
		end := strings.Index(body, "\n```")
		if end < 0 {
			return out
		}
		line := strings.Count(page[:off+m[0]], "\n") + 1
		out = append(out, docBlock{info: strings.TrimSpace(info), body: body[:end+1], line: line})
		adv := m[1] + end + 4
		off += adv
		rest = rest[adv:]
	}
}

var exitRE = regexp.MustCompile(`\s+# exit (\d+)$`)

// docPages are the pages whose examples run: the README and docs/*.md
// but the CLI reference, which is the commands' help.
func docPages(t *testing.T) []string {
	t.Helper()
	pages, err := filepath.Glob(filepath.Join("..", "..", "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	pages = slices.DeleteFunc(pages, func(p string) bool { return filepath.Base(p) == "cli.md" })
	return append([]string{filepath.Join("..", "..", "README.md")}, pages...)
}

// pageName names a page in messages: README.md, docs/NAME.md.
func pageName(page string) string {
	if filepath.Base(page) == "README.md" && filepath.Base(filepath.Dir(page)) != "docs" {
		return "README.md"
	}
	return "docs/" + filepath.Base(page)
}

// TestDocsExamples runs every example of the docs pages.
func TestDocsExamples(t *testing.T) {
	for _, page := range docPages(t) {
		b, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		name := pageName(page)
		blocks := docBlocks(string(b))
		for _, bl := range blocks {
			if bl.info == "sh" {
				checkShell(t, name, bl)
			}
		}
		if !slices.ContainsFunc(blocks, func(bl docBlock) bool { return bl.info == "console" }) {
			continue
		}
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			for _, bl := range blocks {
				if m := fileInfoRE.FindStringSubmatch(bl.info); m != nil {
					writeFilesIn(t, dir, map[string]string{m[1]: bl.body})
					continue
				}
				if bl.info == "console" {
					runConsole(t, dir, name, bl)
				}
			}
		})
	}
}

// runConsole runs the commands of a console block in dir and compares
// their outputs.
func runConsole(t *testing.T, dir, page string, bl docBlock) {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(bl.body, "\n"), "\n")
	for i := 0; i < len(lines); {
		cmd, ok := strings.CutPrefix(lines[i], "$ ")
		if !ok {
			t.Fatalf("%s:%d: want a command ($ judge ...), got %q", page, bl.line+1+i, lines[i])
		}
		at := bl.line + 1 + i
		want, code := 0, cmd
		if m := exitRE.FindStringSubmatch(cmd); m != nil {
			want, _ = strconv.Atoi(m[1])
			code = strings.TrimSuffix(cmd, m[0])
		}
		var expect []string
		for i++; i < len(lines) && !strings.HasPrefix(lines[i], "$ "); i++ {
			expect = append(expect, lines[i])
		}
		args := strings.Fields(code)
		if len(args) == 0 || args[0] != "judge" {
			t.Fatalf("%s:%d: only judge runs here: %q", page, at, cmd)
		}
		var got int
		var out string
		if len(args) > 1 && args[1] == "watch" {
			got, out = judgeWatchIn(t, dir, args[1:]...)
		} else {
			got, out = judgeIn(t, dir, args[1:]...)
		}
		if got != want {
			t.Errorf("%s:%d: %s: exit %d, want %d\n%s", page, at, cmd, got, want, out)
			continue
		}
		// both sides masked: the goldens' mask also folds runs of spaces
		expect = strings.Split(string(maskTimes([]byte(strings.Join(expect, "\n")))), "\n")
		if !matchLines(strings.Split(strings.TrimSuffix(string(maskTimes([]byte(out))), "\n"), "\n"), expect) {
			t.Errorf("%s:%d: %s: got\n%s\nwant\n%s", page, at, cmd, maskTimes([]byte(out)), strings.Join(expect, "\n"))
		}
	}
}

// judgeWatchIn runs judge watch in dir and presses q once it has graded:
// its standard input gives "q" when the output says "graded at".
func judgeWatchIn(t *testing.T, dir string, args ...string) (int, string) {
	t.Helper()
	t.Chdir(dir)
	out := &watchOutput{graded: make(chan struct{})}
	in := &keyAfter{ready: out.graded, key: "q\n"}
	e := &env{stdin: in, stdout: out, stderr: out}
	code := e.main(args)
	return code, out.String()
}

// watchOutput is judge watch's output, written from its goroutines; graded
// is closed once a grading has ended.
type watchOutput struct {
	mu     sync.Mutex
	b      bytes.Buffer
	graded chan struct{}
	closed bool
}

func (w *watchOutput) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.b.Write(p)
	if !w.closed && bytes.Contains(w.b.Bytes(), []byte("graded at")) {
		w.closed = true
		close(w.graded)
	}
	return len(p), nil
}

func (w *watchOutput) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.String()
}

// keyAfter is a keyboard that types key once ready is closed, then
// nothing more.
type keyAfter struct {
	ready <-chan struct{}
	key   string
}

func (k *keyAfter) Read(p []byte) (int, error) {
	<-k.ready
	if k.key == "" {
		return 0, io.EOF
	}
	n := copy(p, k.key)
	k.key = k.key[n:]
	return n, nil
}

// matchLines matches got against want, where a want line "..." stands
// for any lines and a want line ending in "..." for a line that begins
// with the rest.
func matchLines(got, want []string) bool {
	if len(want) == 0 {
		return len(got) == 0 || len(got) == 1 && got[0] == ""
	}
	if want[0] == "..." {
		for k := 0; k <= len(got); k++ {
			if matchLines(got[k:], want[1:]) {
				return true
			}
		}
		return false
	}
	if len(got) == 0 {
		return false
	}
	if prefix, ok := strings.CutSuffix(want[0], "..."); ok && strings.HasPrefix(got[0], prefix) {
		return matchLines(got[1:], want[1:])
	}
	return got[0] == want[0] && matchLines(got[1:], want[1:])
}

// checkShell reads the commands of a ```sh block, whose examples need a
// server, a network or minutes: each "judge CMD ..." (or "go run
// ./cmd/judge CMD ...") must name a command of the judge with flags it
// takes, each "go test" and "go run" packages of the module. Comments,
// lines of other programs and continuations are passed over.
func checkShell(t *testing.T, page string, bl docBlock) {
	t.Helper()
	for i, l := range strings.Split(strings.TrimSuffix(bl.body, "\n"), "\n") {
		at := bl.line + 1 + i
		l, _, _ = strings.Cut(l, " #")
		for _, cmd := range strings.Split(l, "&&") {
			args := strings.Fields(strings.TrimSpace(cmd))
			for len(args) > 0 && strings.Contains(args[0], "=") { // VAR=value judge ...
				args = args[1:]
			}
			if len(args) >= 3 && args[0] == "go" && args[1] == "run" && args[2] == "./cmd/judge" {
				args = append([]string{"judge"}, args[3:]...)
			}
			switch {
			case len(args) > 0 && args[0] == "judge":
				if err := dryRun(args[1:]); err != nil {
					t.Errorf("%s:%d: %s: %v", page, at, strings.TrimSpace(cmd), err)
				}
			case len(args) > 1 && args[0] == "go":
				for _, a := range args[2:] {
					if strings.HasPrefix(a, "./") {
						dir := filepath.Join("..", "..", strings.TrimSuffix(a, "/..."))
						if st, err := os.Stat(dir); err != nil || !st.IsDir() {
							t.Errorf("%s:%d: %s: no package %s", page, at, strings.TrimSpace(cmd), a)
						}
					}
				}
			}
		}
	}
}

// dryRun parses a judge command line as judge would, without running it.
func dryRun(args []string) error {
	if len(args) == 0 {
		return fmt.Errorf("no command")
	}
	c := lookup(args[0])
	if c == nil {
		return fmt.Errorf("no command %q", args[0])
	}
	fs := flag.NewFlagSet(c.Name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.String("problems", "", "")
	if c.Flags != nil {
		c.Flags(fs)
	}
	_, err := parseArgs(fs, args[1:])
	return err
}

// pendingPages are pages that other branches add (the twisty
// puzzles' page): a link to one is not followed while
// it is missing, and they are not held to the reading order's links until
// docs/README.md lists them and they end as the others do.
var pendingPages = map[string]bool{}

var (
	mdLinkRE    = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	mdHeadingRE = regexp.MustCompile(`^#+ (.*)$`)
)

// anchors are the ids GitHub gives a page's headings: lower case, letters,
// digits, '-' and '_' kept, spaces made '-', the rest dropped; a heading
// seen before gets -1, -2, ...
func anchors(page string) map[string]bool {
	out := map[string]bool{}
	fence := false
	for _, l := range strings.Split(page, "\n") {
		if strings.HasPrefix(l, "```") {
			fence = !fence
		}
		m := mdHeadingRE.FindStringSubmatch(l)
		if fence || m == nil {
			continue
		}
		id := slug(m[1])
		for n := 1; out[id]; n++ {
			id = fmt.Sprintf("%s-%d", slug(m[1]), n)
		}
		out[id] = true
	}
	return out
}

// slug is the id GitHub gives a heading.
func slug(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(heading) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// TestDocsLinks follows every relative link of the README and the docs
// pages: the file exists, and so does the heading an anchor names.
func TestDocsLinks(t *testing.T) {
	pages := append(docPages(t), filepath.Join("..", "..", "docs", "cli.md"))
	for _, page := range pages {
		b, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		text := string(b)
		for _, bl := range docBlocks(text) { // links inside code are code
			text = strings.Replace(text, bl.body, "", 1)
		}
		for _, m := range mdLinkRE.FindAllStringSubmatch(text, -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			file, anchor, _ := strings.Cut(target, "#")
			path := page
			if file != "" {
				path = filepath.Join(filepath.Dir(page), file)
			}
			data, err := os.ReadFile(path)
			if err != nil {
				if st, serr := os.Stat(path); serr == nil && st.IsDir() {
					continue
				}
				if !pendingPages[filepath.Base(path)] {
					t.Errorf("%s: link to %s: %v", pageName(page), target, err)
				}
				continue
			}
			if anchor != "" && !anchors(string(data))[anchor] {
				t.Errorf("%s: link to %s: %s has no heading #%s", pageName(page), target, file, anchor)
			}
		}
	}
}

// docsOrder is the reading order of docs/README.md's list, but the pages
// another branch adds.
func docsOrder(t *testing.T) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "docs", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	var order []string
	for _, m := range mdLinkRE.FindAllStringSubmatch(string(b), -1) {
		if p := m[1]; strings.HasSuffix(p, ".md") && !strings.Contains(p, "/") && !pendingPages[p] {
			order = append(order, p)
		}
	}
	return order
}

// navFooter is the line that ends a docs page: the pages before and after
// it in the reading order, by their titles, and the list of all.
func navFooter(t *testing.T, page string) string {
	t.Helper()
	order := docsOrder(t)
	i := slices.Index(order, page)
	if i < 0 {
		t.Fatalf("docs/README.md does not list %s", page)
	}
	title := func(p string) string {
		if p == "cli.md" {
			return cliTitle
		}
		b, err := os.ReadFile(filepath.Join("..", "..", "docs", p))
		if err != nil {
			t.Fatal(err)
		}
		first, _, _ := strings.Cut(string(b), "\n")
		return strings.TrimPrefix(first, "# ")
	}
	var parts []string
	if i > 0 {
		parts = append(parts, fmt.Sprintf("Previous: [%s](%s)", title(order[i-1]), order[i-1]))
	}
	if i+1 < len(order) {
		parts = append(parts, fmt.Sprintf("Next: [%s](%s)", title(order[i+1]), order[i+1]))
	}
	parts = append(parts, "[All pages](README.md)")
	return "\n---\n\n" + strings.Join(parts, " · ") + "\n"
}

// TestDocsOrder: docs/README.md lists every page, and each page ends with
// the way to the one before and after it in that order.
func TestDocsOrder(t *testing.T) {
	order := docsOrder(t)
	pages, err := filepath.Glob(filepath.Join("..", "..", "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pages {
		name := filepath.Base(p)
		if name == "README.md" || pendingPages[name] {
			continue
		}
		if !slices.Contains(order, name) {
			t.Errorf("docs/README.md does not list %s", name)
			continue
		}
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if want := navFooter(t, name); !strings.HasSuffix(string(b), want) {
			t.Errorf("docs/%s does not end with\n%s", name, want)
		}
	}
}

// TestHelpTopics: every topic's page (and section) is in the binary and
// prints as text: no Markdown link or fence left, and not empty.
func TestHelpTopics(t *testing.T) {
	for _, tp := range topics {
		text, err := topicText(&tp)
		if err != nil {
			t.Errorf("judge help %s: %v", tp.Name, err)
			continue
		}
		if strings.Count(text, "\n") < 5 {
			t.Errorf("judge help %s: %d lines, want the page:\n%s", tp.Name, strings.Count(text, "\n"), text)
		}
		if strings.Contains(text, "](") || strings.Contains(text, "\n```") {
			t.Errorf("judge help %s: Markdown left in the text:\n%s", tp.Name, text)
		}
		if lookup(tp.Name) != nil {
			t.Errorf("judge help %s: a topic named as a command", tp.Name)
		}
	}
}

// TestDocsReport: docs/report-json.md names every key of the JSON report,
// and its example holds no key the report does not have.
func TestDocsReport(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "docs", "report-json.md"))
	if err != nil {
		t.Fatal(err)
	}
	page := string(b)
	keys := map[string]bool{}
	seen := map[reflect.Type]bool{}
	var walk func(typ reflect.Type)
	walk = func(typ reflect.Type) {
		for typ.Kind() == reflect.Pointer || typ.Kind() == reflect.Slice || typ.Kind() == reflect.Map {
			typ = typ.Elem()
		}
		if typ.Kind() != reflect.Struct || seen[typ] {
			return
		}
		seen[typ] = true
		for f := range typ.Fields() {
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if name == "" || name == "-" || !f.IsExported() {
				continue
			}
			keys[name] = true
			walk(f.Type)
		}
	}
	walk(reflect.TypeFor[judge.Report]())
	for k := range keys {
		if !strings.Contains(page, `"`+k+`"`) {
			t.Errorf("docs/report-json.md does not name the report's key %q", k)
		}
	}
	example, _, _ := strings.Cut(page[strings.Index(page, "\n    {"):], "\n\n")
	for _, m := range regexp.MustCompile(`"([a-z_]+)":`).FindAllStringSubmatch(example, -1) {
		if !keys[m[1]] && m[1] != "AC" {
			t.Errorf("docs/report-json.md's example has a key %q the report does not have", m[1])
		}
	}
}

// TestDocsLanguages: docs/languages.md's table has a row for every
// language of the embedded table, and no other.
func TestDocsLanguages(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "docs", "languages.md"))
	if err != nil {
		t.Fatal(err)
	}
	var rows []string
	for _, m := range regexp.MustCompile("(?m)^\\| `([a-z0-9]+)`").FindAllStringSubmatch(string(b), -1) {
		rows = append(rows, m[1])
	}
	want := lang.Default().Names()
	slices.Sort(rows)
	slices.Sort(want)
	if !slices.Equal(rows, want) {
		t.Errorf("docs/languages.md's table lists %q, the embedded table %q", rows, want)
	}
}

// TestDocsReadmeProblems: the README's table of problems is the problems
// embedded in the binary.
func TestDocsReadmeProblems(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	var rows []string
	for _, m := range regexp.MustCompile("(?m)^\\| `([a-z0-9-]+)` \\|").FindAllStringSubmatch(string(b), -1) {
		rows = append(rows, m[1])
	}
	want := slices.Clone(problems.Embedded())
	slices.Sort(rows)
	slices.Sort(want)
	if !slices.Equal(rows, want) {
		t.Errorf("the README's table lists %q, the binary embeds %q", rows, want)
	}
}
