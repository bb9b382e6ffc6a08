package main

import (
	"fmt"
	"io"
	"io/fs"
	"regexp"
	"strings"

	"github.com/optjudge/optjudge/docs"
	"github.com/optjudge/optjudge/specfile"
)

// topic is a `judge help TOPIC`: a page of docs/, or one section of it,
// printed from the copy embedded in the binary, so that the help and the
// docs are the same text.
type topic struct {
	Name    string
	Short   string
	Page    string // the file in docs/
	Section string // the heading of the section printed; "" for the whole page
}

var topics = []topic{
	{"puzzle", "puzzle.yaml: every field, its type, default and an example", "puzzle-format.md", ""},
	{"layout", "puzzle.yaml's layout: how a puzzle is drawn, the colour names", "puzzle-format.md", "layout: the drawing"},
	{"rules", "puzzles given by rules in Starlark: the functions, the parts, the budgets", "rules-format.md", ""},
	{"package", "the problem package: Kattis/ICPC as the judge reads it, the native layout", "problem-format.md", ""},
	{"report", "the shape of judge run --json", "report-json.md", ""},
	{"languages", "the language table: names, endings, build and run commands", "languages.md", ""},
	{"verdicts", "how a test's verdict is decided", "grading.md", "Verdicts"},
}

func lookupTopic(name string) *topic {
	for i := range topics {
		if topics[i].Name == name {
			return &topics[i]
		}
	}
	return nil
}

// topicText is a topic's text for a terminal.
func topicText(t *topic) (string, error) {
	b, err := fs.ReadFile(docs.Pages, t.Page)
	if err != nil {
		return "", fmt.Errorf("help %s: %w", t.Name, err)
	}
	page := string(b)
	if t.Section != "" {
		s, ok := section(page, t.Section)
		if !ok {
			return "", fmt.Errorf("help %s: docs/%s has no section %q", t.Name, t.Page, t.Section)
		}
		page = s
	}
	return plainText(page), nil
}

var headingRE = regexp.MustCompile(`^(#+) (.*)$`)

// section is the part of a Markdown page from the heading whose text is
// title to the next heading of the same level or above.
func section(page, title string) (string, bool) {
	lines := strings.Split(page, "\n")
	start, level := -1, 0
	fence := false
	for i, l := range lines {
		if strings.HasPrefix(l, "```") {
			fence = !fence
		}
		m := headingRE.FindStringSubmatch(l)
		if fence || m == nil {
			continue
		}
		if start < 0 {
			if strings.ReplaceAll(m[2], "`", "") == title {
				start, level = i, len(m[1])
			}
			continue
		}
		if len(m[1]) <= level {
			return strings.Join(lines[start:i], "\n"), true
		}
	}
	if start < 0 {
		return "", false
	}
	return strings.Join(lines[start:], "\n"), true
}

var (
	commentRE = regexp.MustCompile(`(?s)<!--.*?-->\n*`)
	imageRE   = regexp.MustCompile(`!\[([^\]]*)\]\([^)]*\)`)
	linkRE    = regexp.MustCompile(`\[([^\]]+)\]\(([^)]+)\)`)
)

// plainText turns a docs page into text for a terminal: the comments
// left out, a link as its text with where it leads (another page as the
// `judge help` topic that prints it, if one does), a picture as its
// caption, a fenced block indented, without its fences.
func plainText(md string) string {
	md = commentRE.ReplaceAllString(md, "")
	md = imageRE.ReplaceAllString(md, "(picture: $1)")
	md = linkRE.ReplaceAllStringFunc(md, func(s string) string {
		m := linkRE.FindStringSubmatch(s)
		if to := linkTarget(m[2]); to != "" {
			return m[1] + " (" + to + ")"
		}
		return m[1]
	})
	var b strings.Builder
	fence := false
	for l := range strings.Lines(md) {
		if strings.HasPrefix(l, "```") {
			fence = !fence
			if fence {
				if m := fileInfoRE.FindStringSubmatch(l); m != nil {
					b.WriteString("    # " + m[1] + "\n")
				}
			}
			continue
		}
		if fence && l != "\n" {
			b.WriteString("    ")
		}
		b.WriteString(l)
	}
	return strings.TrimSpace(b.String()) + "\n"
}

// linkTarget says where a link of a docs page leads, for a terminal.
func linkTarget(url string) string {
	if strings.Contains(url, "://") {
		return url
	}
	page, anchor, _ := strings.Cut(url, "#")
	page = strings.TrimPrefix(page, "docs/")
	if page == "" {
		return "" // a section of the same page
	}
	for _, t := range topics {
		if t.Page == page && t.Section == "" {
			return "judge help " + t.Name
		}
	}
	if anchor != "" {
		return "docs/" + page + "#" + anchor
	}
	return "docs/" + page
}

var fileInfoRE = regexp.MustCompile(`\bfile=(\S+)`)

// listTopics writes the topics for judge help.
func listTopics(w io.Writer) {
	for _, t := range topics {
		fmt.Fprintf(w, "\t%-10s %s\n", t.Name, t.Short)
	}
}

// didYouMean is the command or topic that name most likely misspells;
// "" when none is near.
func didYouMean(name string) string {
	var names []string
	for _, c := range commands {
		names = append(names, c.Name)
	}
	for _, t := range topics {
		names = append(names, t.Name)
	}
	return specfile.Nearest(name, names)
}
