package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
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
