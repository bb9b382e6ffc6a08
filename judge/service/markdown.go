package service

import (
	"html"
	"html/template"
	"regexp"
	"strings"
)

// markdown renders the Markdown of a problem statement as HTML, the part
// of Markdown statements use: ATX headings, paragraphs, fenced code
// blocks, pipe tables, lists, block quotes, and inline code, emphasis and
// links. Everything else is text. Every piece of the source is escaped;
// the only markup in the result is what this function writes, and a link
// goes only to http, https or a path of the same site (no javascript:).
// Raw HTML in the source is shown as text, and so is an image
// (![alt](file)): see markdownWithImages.
func markdown(src string) template.HTML { return md{}.render(src) }

// markdownWithImages is markdown with images: image says where the
// picture a statement names (![alt](figure.png)) is served, "" for none
// (then its alt text is shown).
func markdownWithImages(src string, image func(name string) string) template.HTML {
	return md{image: image}.render(src)
}

// md renders Markdown; image, when set, resolves an image's file.
type md struct{ image func(string) string }

func (x md) render(src string) template.HTML {
	lines := strings.Split(strings.ReplaceAll(src, "\r\n", "\n"), "\n")
	var b strings.Builder
	for i := 0; i < len(lines); {
		line := lines[i]
		trimmed := strings.TrimSpace(line)
		switch {
		case trimmed == "":
			i++
		case strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~"):
			i = mdFence(&b, lines, i)
		case headingRE.MatchString(line):
			m := headingRE.FindStringSubmatch(line)
			n := string(rune('0' + len(m[1])))
			b.WriteString("<h" + n + ">" + x.inline(strings.TrimRight(m[2], " #")) + "</h" + n + ">\n")
			i++
		case isTableAt(lines, i):
			i = x.table(&b, lines, i)
		case listRE.MatchString(line):
			i = x.list(&b, lines, i)
		case strings.HasPrefix(trimmed, ">"):
			j := i
			var quoted []string
			for ; j < len(lines) && strings.HasPrefix(strings.TrimSpace(lines[j]), ">"); j++ {
				quoted = append(quoted, strings.TrimPrefix(strings.TrimPrefix(strings.TrimSpace(lines[j]), ">"), " "))
			}
			b.WriteString("<blockquote>\n" + string(x.render(strings.Join(quoted, "\n"))) + "</blockquote>\n")
			i = j
		default:
			i = x.paragraph(&b, lines, i)
		}
	}
	return template.HTML(b.String())
}

var (
	headingRE = regexp.MustCompile(`^(#{1,6})\s+(.*)$`)
	listRE    = regexp.MustCompile(`^\s{0,3}([-*+]|\d{1,9}[.)])\s+(.*)$`)
	tableSep  = regexp.MustCompile(`^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$`)
)

// mdFence writes the fenced code block at lines[i] and returns the line
// after it.
func mdFence(b *strings.Builder, lines []string, i int) int {
	fence := strings.TrimSpace(lines[i])[:3]
	var code []string
	j := i + 1
	for ; j < len(lines) && !strings.HasPrefix(strings.TrimSpace(lines[j]), fence); j++ {
		code = append(code, lines[j])
	}
	b.WriteString("<pre><code>" + html.EscapeString(strings.Join(code, "\n")) + "</code></pre>\n")
	return j + 1
}

func isTableAt(lines []string, i int) bool {
	return strings.Contains(lines[i], "|") && i+1 < len(lines) && tableSep.MatchString(lines[i+1])
}

// table writes the pipe table at lines[i].
func (x md) table(b *strings.Builder, lines []string, i int) int {
	b.WriteString("<div class=\"table\"><table>\n<thead><tr>")
	for _, c := range tableCells(lines[i]) {
		b.WriteString("<th>" + x.inline(c) + "</th>")
	}
	b.WriteString("</tr></thead>\n<tbody>\n")
	j := i + 2
	for ; j < len(lines) && strings.Contains(lines[j], "|") && strings.TrimSpace(lines[j]) != ""; j++ {
		b.WriteString("<tr>")
		for _, c := range tableCells(lines[j]) {
			b.WriteString("<td>" + x.inline(c) + "</td>")
		}
		b.WriteString("</tr>\n")
	}
	b.WriteString("</tbody></table></div>\n")
	return j
}

func tableCells(line string) []string {
	line = strings.TrimSpace(line)
	line = strings.TrimSuffix(strings.TrimPrefix(line, "|"), "|")
	cells := strings.Split(line, "|")
	for i := range cells {
		cells[i] = strings.TrimSpace(cells[i])
	}
	return cells
}

// list writes the list at lines[i]; a line that does not start an item
// continues the item before it.
func (x md) list(b *strings.Builder, lines []string, i int) int {
	tag := "ul"
	if m := listRE.FindStringSubmatch(lines[i]); m[1][0] >= '0' && m[1][0] <= '9' {
		tag = "ol"
	}
	b.WriteString("<" + tag + ">\n")
	var item []string
	flush := func() {
		if item != nil {
			b.WriteString("<li>" + x.inline(strings.Join(item, " ")) + "</li>\n")
		}
		item = nil
	}
	j := i
	for ; j < len(lines) && strings.TrimSpace(lines[j]) != ""; j++ {
		if m := listRE.FindStringSubmatch(lines[j]); m != nil {
			flush()
			item = []string{m[2]}
			continue
		}
		item = append(item, strings.TrimSpace(lines[j]))
	}
	flush()
	b.WriteString("</" + tag + ">\n")
	return j
}

// paragraph writes the lines up to a blank line or another block.
func (x md) paragraph(b *strings.Builder, lines []string, i int) int {
	var para []string
	j := i
	for ; j < len(lines); j++ {
		t := strings.TrimSpace(lines[j])
		if t == "" || (j > i && (strings.HasPrefix(t, "```") || headingRE.MatchString(lines[j]) || listRE.MatchString(lines[j]) || isTableAt(lines, j))) {
			break
		}
		para = append(para, t)
	}
	b.WriteString("<p>" + x.inline(strings.Join(para, "\n")) + "</p>\n")
	return j
}

// inline renders a span of text: `code`, **strong**, *em* or _em_,
// [text](url); everything else escaped.
func (x md) inline(s string) string {
	var b strings.Builder
	for len(s) > 0 {
		i := strings.IndexAny(s, "`*_[!")
		if i < 0 {
			b.WriteString(html.EscapeString(s))
			break
		}
		b.WriteString(html.EscapeString(s[:i]))
		inWord := s[i] == '_' && i > 0 && isWordByte(s[i-1])
		s = s[i:]
		if out, rest, ok := x.span(s); ok && !inWord {
			b.WriteString(out)
			s = rest
			continue
		}
		b.WriteString(html.EscapeString(s[:1]))
		s = s[1:]
	}
	return b.String()
}

var (
	linkRE  = regexp.MustCompile(`^\[([^\]]*)\]\(([^)\s]*)\)`)
	imageRE = regexp.MustCompile(`^!\[([^\]]*)\]\(([^)\s]*)(?:\s+"[^"]*")?\)`)
)

// span renders the inline element at the start of s, if one is there.
func (x md) span(s string) (out, rest string, ok bool) {
	switch {
	case s[0] == '`':
		if j := strings.IndexByte(s[1:], '`'); j >= 0 {
			return "<code>" + html.EscapeString(s[1:1+j]) + "</code>", s[2+j:], true
		}
	case strings.HasPrefix(s, "**"):
		if j := strings.Index(s[2:], "**"); j > 0 {
			return "<strong>" + x.inline(s[2:2+j]) + "</strong>", s[4+j:], true
		}
	case s[0] == '*' || s[0] == '_':
		if j := strings.IndexByte(s[1:], s[0]); j > 0 && s[1] != ' ' {
			return "<em>" + x.inline(s[1:1+j]) + "</em>", s[2+j:], true
		}
	case strings.HasPrefix(s, "!["):
		if m := imageRE.FindStringSubmatch(s); m != nil {
			src := ""
			if x.image != nil {
				src = x.image(m[2])
			}
			if src == "" {
				return html.EscapeString(m[1]), s[len(m[0]):], true
			}
			return `<img src="` + html.EscapeString(src) + `" alt="` + html.EscapeString(m[1]) + `">`, s[len(m[0]):], true
		}
	case s[0] == '[':
		if m := linkRE.FindStringSubmatch(s); m != nil {
			if !safeURL(m[2]) {
				return x.inline(m[1]), s[len(m[0]):], true
			}
			return `<a href="` + html.EscapeString(m[2]) + `">` + x.inline(m[1]) + "</a>", s[len(m[0]):], true
		}
	}
	return "", s, false
}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// safeURL allows http, https and paths on the same site.
func safeURL(u string) bool {
	l := strings.ToLower(u)
	return strings.HasPrefix(l, "https://") || strings.HasPrefix(l, "http://") ||
		(strings.HasPrefix(u, "/") && !strings.HasPrefix(u, "//")) || strings.HasPrefix(u, "#")
}
