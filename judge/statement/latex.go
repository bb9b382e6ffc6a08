package statement

import (
	"html"
	"html/template"
	"strings"
)

// LaTeX renders a statement written with problemtools' problem.sty as
// problemtools' problem2html does: \problemname as the title, \section
// and \subsection, paragraphs, itemize and enumerate, tabular, verbatim,
// center, \illustration and \includegraphics (through pics), \textbf,
// \emph, \texttt, \url and \href, and math ($...$, \(...\), $$...$$,
// \[...\], equation and align) for KaTeX. A command it does not know
// shows its arguments' text; the source's characters are escaped.
func LaTeX(src string, pics Pictures) template.HTML {
	c := &texConv{pics: pics}
	c.blocks(stripComments(src))
	return template.HTML(c.out.String())
}

type texConv struct {
	pics Pictures
	out  strings.Builder
	para strings.Builder // the paragraph being read (LaTeX source)
}

// stripComments drops % comments (not \%).
func stripComments(s string) string {
	var b strings.Builder
	for _, line := range strings.SplitAfter(s, "\n") {
		for i := 0; i < len(line); i++ {
			if line[i] == '\\' {
				i++
				continue
			}
			if line[i] == '%' {
				line = line[:i]
				if !strings.HasSuffix(line, "\n") {
					line += "\n"
				}
				break
			}
		}
		b.WriteString(line)
	}
	return b.String()
}

// blockEnvs are the environments that stand as blocks of their own.
var blockEnvs = map[string]bool{"itemize": true, "enumerate": true, "tabular": true, "verbatim": true, "center": true,
	"equation": true, "equation*": true, "align": true, "align*": true, "displaymath": true, "figure": true, "table": true,
	"quote": true, "Interaction": true}

func (c *texConv) flush() {
	p := strings.TrimSpace(c.para.String())
	c.para.Reset()
	if p != "" {
		c.out.WriteString("<p>" + inline(p, c.pics) + "</p>\n")
	}
}

func (c *texConv) blocks(s string) {
	for i := 0; i < len(s); {
		switch {
		case strings.HasPrefix(s[i:], "\n\n") || strings.HasPrefix(s[i:], "\n \n"):
			c.flush()
			i++
		case strings.HasPrefix(s[i:], `\problemname`), strings.HasPrefix(s[i:], `\section`), strings.HasPrefix(s[i:], `\subsection`):
			c.flush()
			name, rest := command(s[i:])
			rest = strings.TrimPrefix(rest, "*")
			arg, after := group(rest)
			tag := map[string]string{"problemname": "h1", "section": "h2", "subsection": "h3"}[name]
			c.out.WriteString("<" + tag + ">" + inline(arg, c.pics) + "</" + tag + ">\n")
			i = len(s) - len(after)
		case strings.HasPrefix(s[i:], `\begin{`):
			env, _ := group(s[i+len(`\begin`):])
			if !blockEnvs[env] {
				c.para.WriteByte(s[i])
				i++
				continue
			}
			c.flush()
			body, after := environment(s[i:], env)
			c.env(env, body)
			i = len(s) - len(after)
		case strings.HasPrefix(s[i:], `\illustration`):
			c.flush()
			_, rest := command(s[i:])
			_, rest = group(rest)
			file, rest := group(rest)
			caption, rest := group(rest)
			c.out.WriteString(`<figure class="illustration">` + c.picture(file, caption) + "<figcaption>" + inline(caption, c.pics) + "</figcaption></figure>\n")
			i = len(s) - len(rest)
		default:
			c.para.WriteByte(s[i])
			i++
		}
	}
	c.flush()
}

// env writes a block environment.
func (c *texConv) env(env, body string) {
	switch env {
	case "itemize", "enumerate":
		tag := map[string]string{"itemize": "ul", "enumerate": "ol"}[env]
		c.out.WriteString("<" + tag + ">\n")
		for _, item := range strings.Split(body, `\item`)[1:] {
			c.out.WriteString("<li>" + inline(strings.TrimSpace(item), c.pics) + "</li>\n")
		}
		c.out.WriteString("</" + tag + ">\n")
	case "tabular":
		_, body = group(body) // the column spec
		c.out.WriteString(`<table class="tabular">` + "\n")
		for _, row := range strings.Split(body, `\\`) {
			row = strings.TrimSpace(strings.ReplaceAll(row, `\hline`, ""))
			if row == "" {
				continue
			}
			c.out.WriteString("<tr>")
			for _, cell := range splitCells(row) {
				c.out.WriteString("<td>" + inline(strings.TrimSpace(cell), c.pics) + "</td>")
			}
			c.out.WriteString("</tr>\n")
		}
		c.out.WriteString("</table>\n")
	case "verbatim":
		c.out.WriteString("<pre>" + html.EscapeString(strings.Trim(body, "\n")) + "</pre>\n")
	case "equation", "equation*", "align", "align*", "displaymath":
		tex := strings.TrimSpace(body)
		if strings.HasPrefix(env, "align") {
			tex = `\begin{aligned}` + tex + `\end{aligned}`
		}
		c.out.WriteString("<p>" + MathHTML(tex, true) + "</p>\n")
	default: // center, figure, table, quote
		c.out.WriteString(`<div class="` + html.EscapeString(env) + `">` + "\n")
		sub := &texConv{pics: c.pics}
		sub.blocks(body)
		c.out.WriteString(sub.out.String() + "</div>\n")
	}
}

// splitCells splits a tabular row at & (not \&).
func splitCells(row string) []string {
	var out []string
	start := 0
	for i := 0; i < len(row); i++ {
		switch row[i] {
		case '\\':
			i++
		case '&':
			out = append(out, row[start:i])
			start = i + 1
		}
	}
	return append(out, row[start:])
}

func (c *texConv) picture(file, alt string) string {
	src := ""
	if c.pics != nil {
		src = c.pics(strings.TrimSpace(file))
		if src == "" && !strings.Contains(file, ".") {
			for _, ext := range []string{".png", ".jpg", ".jpeg", ".svg"} {
				if src = c.pics(strings.TrimSpace(file) + ext); src != "" {
					break
				}
			}
		}
	}
	if src == "" {
		return ""
	}
	return `<img src="` + html.EscapeString(src) + `" alt="` + html.EscapeString(plain(alt)) + `">`
}

// command reads \name at the start of s.
func command(s string) (name, rest string) {
	i := 1
	for i < len(s) && (s[i] >= 'a' && s[i] <= 'z' || s[i] >= 'A' && s[i] <= 'Z') {
		i++
	}
	if i == 1 && len(s) > 1 {
		i = 2 // a one-character command: \\, \%, \$
	}
	return s[1:i], s[i:]
}

// group reads {...} (after spaces), or [..] options skipped first; a
// missing group is "".
func group(s string) (arg, rest string) {
	t := strings.TrimLeft(s, " \t\n")
	if strings.HasPrefix(t, "[") {
		if j := strings.IndexByte(t, ']'); j >= 0 {
			t = strings.TrimLeft(t[j+1:], " \t\n")
		}
	}
	if !strings.HasPrefix(t, "{") {
		return "", s
	}
	depth := 0
	for i := 0; i < len(t); i++ {
		switch t[i] {
		case '\\':
			i++
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				return t[1:i], t[i+1:]
			}
		}
	}
	return t[1:], ""
}

// environment reads \begin{env}...\end{env} (nested ones of the same
// name included) at the start of s.
func environment(s, env string) (body, rest string) {
	open, close := `\begin{`+env+`}`, `\end{`+env+`}`
	s = s[strings.IndexByte(s, '}')+1:] // \begin {env}: spaces allowed
	depth := 1
	for i := 0; i < len(s); i++ {
		switch {
		case strings.HasPrefix(s[i:], open):
			depth++
		case strings.HasPrefix(s[i:], close):
			depth--
			if depth == 0 {
				return s[:i], s[i+len(close):]
			}
		}
	}
	return s, ""
}

// inline renders LaTeX text: math, the formatting commands, escapes.
func inline(s string, pics Pictures) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		rest := s[i:]
		switch {
		case strings.HasPrefix(rest, "$$"), strings.HasPrefix(rest, `\[`):
			closer := map[bool]string{true: "$$", false: `\]`}[rest[0] == '$']
			j := strings.Index(rest[2:], closer)
			if j < 0 {
				b.WriteString(html.EscapeString(rest))
				return b.String()
			}
			b.WriteString(MathHTML(strings.TrimSpace(rest[2:2+j]), true))
			i += 2 + j + 2
		case rest[0] == '$', strings.HasPrefix(rest, `\(`):
			open, closer := 1, "$"
			if rest[0] == '\\' {
				open, closer = 2, `\)`
			}
			j := mathEnd(rest[open:], closer)
			if j < 0 {
				b.WriteString(html.EscapeString(rest))
				return b.String()
			}
			b.WriteString(MathHTML(rest[open:open+j], false))
			i += open + j + len(closer)
		case rest[0] == '\\':
			out, n := inlineCommand(rest, pics)
			b.WriteString(out)
			i += n
		case rest[0] == '{' || rest[0] == '}':
			i++
		case rest[0] == '~':
			b.WriteString("&nbsp;")
			i++
		case strings.HasPrefix(rest, "``"):
			b.WriteString("“")
			i += 2
		case strings.HasPrefix(rest, "''"):
			b.WriteString("”")
			i += 2
		case strings.HasPrefix(rest, "---"):
			b.WriteString("—")
			i += 3
		case strings.HasPrefix(rest, "--"):
			b.WriteString("–")
			i += 2
		default:
			b.WriteString(html.EscapeString(rest[:1]))
			i++
		}
	}
	return b.String()
}

// mathEnd is where closer ends the math of s (skipping \-escapes); -1 for
// nowhere.
func mathEnd(s, closer string) int {
	for i := 0; i < len(s); i++ {
		if strings.HasPrefix(s[i:], closer) {
			return i
		}
		if s[i] == '\\' {
			i++
		}
	}
	return -1
}

// inlineCommand renders the command at the start of s and says how much
// of s it took.
func inlineCommand(s string, pics Pictures) (string, int) {
	name, rest := command(s)
	took := func(r string) int { return len(s) - len(r) }
	wrap := func(tag string) (string, int) {
		arg, r := group(rest)
		return "<" + tag + ">" + inline(arg, pics) + "</" + tag + ">", took(r)
	}
	switch name {
	case "textbf", "bf":
		return wrap("b")
	case "emph", "textit", "it":
		return wrap("em")
	case "texttt", "tt", "verb":
		return wrap("code")
	case "underline":
		return wrap("u")
	case "\\", "newline":
		return "<br>", took(rest)
	case "%", "$", "&", "#", "_", "{", "}":
		return html.EscapeString(name), took(rest)
	case " ", ",", ";", "quad", "qquad":
		return " ", took(rest)
	case "ldots", "dots":
		return "…", took(rest)
	case "url":
		arg, r := group(rest)
		return link(arg, html.EscapeString(arg)), took(r)
	case "href":
		u, r := group(rest)
		text, r := group(r)
		return link(u, inline(text, pics)), took(r)
	case "includegraphics":
		file, r := group(rest)
		c := &texConv{pics: pics}
		return c.picture(file, ""), took(r)
	case "noindent", "hline", "medskip", "bigskip", "smallskip", "clearpage", "newpage", "centering", "par", "label", "vspace", "hspace":
		_, r := group(rest)
		if name == "noindent" || name == "hline" || name == "par" || name == "centering" || name == "clearpage" || name == "newpage" {
			r = rest
		}
		return "", took(r)
	}
	// unknown: its arguments' text
	var b strings.Builder
	r := rest
	for {
		arg, r2 := group(r)
		if r2 == r {
			break
		}
		b.WriteString(inline(arg, pics))
		r = r2
	}
	return b.String(), took(r)
}

// link is an <a> to an http, https or mailto address; else its text.
func link(u, text string) string {
	u = strings.TrimSpace(u)
	l := strings.ToLower(u)
	if strings.HasPrefix(l, "http://") || strings.HasPrefix(l, "https://") || strings.HasPrefix(l, "mailto:") {
		return `<a href="` + html.EscapeString(u) + `">` + text + `</a>`
	}
	return text
}

// plain is LaTeX text without its markup, for an alt text.
func plain(s string) string {
	out := inline(s, nil)
	var b strings.Builder
	in := false
	for _, r := range out {
		switch {
		case r == '<':
			in = true
		case r == '>':
			in = false
		case !in:
			b.WriteRune(r)
		}
	}
	return html.UnescapeString(b.String())
}
