package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// cliDoc renders the help of judge and of every command as Markdown: the
// CLI reference, docs/cli.md, made from the command table as go help's
// pages are, so that the two never drift.
func cliDoc() string {
	var b strings.Builder
	b.WriteString("# CLI reference\n\n")
	b.WriteString("<!-- Made from the judge's command table by `go test ./cmd/judge -run TestDocsCLI -update`:\n")
	b.WriteString("     change the help texts in cmd/judge, not this file. -->\n\n")
	b.WriteString("Each command's `judge help COMMAND`, as the judge prints it.\n\n")
	for _, c := range commands {
		fmt.Fprintf(&b, "- [`judge %s`](#judge-%s): %s\n", c.Name, c.Name, c.Short)
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
	return b.String()
}

// TestDocsCLI: docs/cli.md is the help of every command as it is
// (regenerate with -update).
func TestDocsCLI(t *testing.T) {
	t.Parallel()
	path := filepath.Join("..", "..", "docs", "cli.md")
	want := cliDoc()
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
// lines. The page runs in a fresh directory, block after block, its
// outputs masked as the CLI's goldens are.
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

var fileInfoRE = regexp.MustCompile(`\bfile=(\S+)`)
var exitRE = regexp.MustCompile(`\s+# exit (\d+)$`)

// TestDocsExamples runs every example of the docs pages.
func TestDocsExamples(t *testing.T) {
	pages, err := filepath.Glob(filepath.Join("..", "..", "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, page := range pages {
		b, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		blocks := docBlocks(string(b))
		runs := false
		for _, bl := range blocks {
			runs = runs || bl.info == "console"
		}
		if !runs || filepath.Base(page) == "cli.md" {
			continue
		}
		t.Run(filepath.Base(page), func(t *testing.T) {
			dir := t.TempDir()
			for _, bl := range blocks {
				if m := fileInfoRE.FindStringSubmatch(bl.info); m != nil {
					writeFilesIn(t, dir, map[string]string{m[1]: bl.body})
					continue
				}
				if bl.info == "console" {
					runConsole(t, dir, filepath.Base(page), bl)
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
		got, out := judgeIn(t, dir, args[1:]...)
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

// matchLines matches got against want, where a want line "..." stands
// for any lines.
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
	return len(got) > 0 && got[0] == want[0] && matchLines(got[1:], want[1:])
}
