package export

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"
)

// markdown is the Markdown the statements are written in: CommonMark with
// GitHub's tables and strikethrough, raw HTML left out of every rendering.
var markdown = goldmark.New(goldmark.WithExtensions(extension.Table, extension.Strikethrough))

// LaTeX renders a Markdown statement as the body of a LaTeX statement in
// problemtools' problem.sty: \problemname{title}, then the text, its
// sections \section*{...}. The statement's first level-1 heading is the
// title, and is left out. Raw HTML is left out; everything else keeps its
// meaning (code as \texttt and verbatim, tables as tabular).
func LaTeX(md []byte, title string) []byte {
	doc := markdown.Parser().Parse(text.NewReader(md))
	r := &latexRenderer{src: md}
	fmt.Fprintf(&r.b, "\\problemname{%s}\n\n", escapeTeX(title))
	r.blocks(doc, true)
	return bytes.TrimRight(r.b.Bytes(), "\n")
}

type latexRenderer struct {
	src []byte
	b   bytes.Buffer
}

// blocks renders the block children of n; top says n is the document,
// whose first level-1 heading is the title.
func (r *latexRenderer) blocks(n ast.Node, top bool) {
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		if h, ok := c.(*ast.Heading); ok && top && h.Level == 1 && c == n.FirstChild() {
			continue
		}
		r.block(c)
	}
}

func (r *latexRenderer) block(n ast.Node) {
	switch n := n.(type) {
	case *ast.Heading:
		cmd := map[int]string{1: "section*", 2: "section*", 3: "subsection*"}[n.Level]
		if cmd == "" {
			cmd = "paragraph*"
		}
		fmt.Fprintf(&r.b, "\\%s{%s}\n\n", cmd, r.inlines(n))
	case *ast.Paragraph, *ast.TextBlock:
		r.b.WriteString(r.inlines(n) + "\n\n")
	case *ast.FencedCodeBlock, *ast.CodeBlock:
		r.b.WriteString("\\begin{verbatim}\n")
		lines := n.Lines()
		for i := 0; i < lines.Len(); i++ {
			seg := lines.At(i)
			r.b.Write(bytes.ReplaceAll(seg.Value(r.src), []byte(`\end{verbatim}`), []byte(`\end {verbatim}`)))
		}
		r.b.WriteString("\\end{verbatim}\n\n")
	case *ast.List:
		env := "itemize"
		if n.IsOrdered() {
			env = "enumerate"
		}
		fmt.Fprintf(&r.b, "\\begin{%s}\n", env)
		for it := n.FirstChild(); it != nil; it = it.NextSibling() {
			r.b.WriteString("\\item ")
			r.blocks(it, false)
		}
		fmt.Fprintf(&r.b, "\\end{%s}\n\n", env)
	case *ast.Blockquote:
		r.b.WriteString("\\begin{quote}\n")
		r.blocks(n, false)
		r.b.WriteString("\\end{quote}\n\n")
	case *ast.ThematicBreak:
		r.b.WriteString("\\medskip\\hrule\\medskip\n\n")
	case *east.Table:
		r.table(n)
	case *ast.HTMLBlock:
		// raw HTML has no LaTeX meaning
	default:
		r.blocks(n, false)
	}
}

// table renders a GFM table as a tabular with its columns' alignments.
func (r *latexRenderer) table(t *east.Table) {
	cols := ""
	for _, a := range t.Alignments {
		cols += map[east.Alignment]string{east.AlignRight: "r", east.AlignCenter: "c"}[a]
		if a != east.AlignRight && a != east.AlignCenter {
			cols += "l"
		}
	}
	fmt.Fprintf(&r.b, "\\begin{center}\n\\begin{tabular}{|%s|}\n\\hline\n", strings.Join(strings.Split(cols, ""), "|"))
	for row := t.FirstChild(); row != nil; row = row.NextSibling() {
		var cells []string
		for c := row.FirstChild(); c != nil; c = c.NextSibling() {
			cell := r.inlines(c)
			if _, head := row.(*east.TableHeader); head {
				cell = "\\textbf{" + cell + "}"
			}
			cells = append(cells, cell)
		}
		r.b.WriteString(strings.Join(cells, " & ") + " \\\\\n\\hline\n")
	}
	r.b.WriteString("\\end{tabular}\n\\end{center}\n\n")
}

// inlines renders the inline children of n.
func (r *latexRenderer) inlines(n ast.Node) string {
	var b strings.Builder
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		b.WriteString(r.inline(c))
	}
	return strings.TrimSpace(b.String())
}

func (r *latexRenderer) inline(n ast.Node) string {
	switch n := n.(type) {
	case *ast.Text:
		s := escapeTeX(string(n.Value(r.src)))
		switch {
		case n.HardLineBreak():
			s += "\\\\\n"
		case n.SoftLineBreak():
			s += "\n"
		}
		return s
	case *ast.String:
		return escapeTeX(string(n.Value))
	case *ast.CodeSpan:
		var b strings.Builder
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			if t, ok := c.(*ast.Text); ok {
				b.Write(t.Value(r.src))
			}
		}
		return "\\texttt{" + escapeTeX(b.String()) + "}"
	case *ast.Emphasis:
		if n.Level >= 2 {
			return "\\textbf{" + r.inlines(n) + "}"
		}
		return "\\emph{" + r.inlines(n) + "}"
	case *east.Strikethrough:
		return r.inlines(n)
	case *ast.Link:
		return r.inlines(n) + "\\footnote{\\texttt{" + escapeTeX(string(n.Destination)) + "}}"
	case *ast.AutoLink:
		return "\\texttt{" + escapeTeX(string(n.URL(r.src))) + "}"
	case *ast.Image:
		return "\\includegraphics{" + escapeTeX(string(n.Destination)) + "}"
	case *ast.RawHTML:
		return ""
	}
	return r.inlines(n)
}

// texEscapes are LaTeX's special characters, written so that they print
// as themselves.
var texEscapes = strings.NewReplacer(
	`\`, `\textbackslash{}`, `{`, `\{`, `}`, `\}`, `$`, `\$`, `&`, `\&`, `#`, `\#`,
	`%`, `\%`, `_`, `\_`, `^`, `\textasciicircum{}`, `~`, `\textasciitilde{}`,
	`<`, `\textless{}`, `>`, `\textgreater{}`, `|`, `\textbar{}`, `"`, `\textquotedbl{}`,
)

func escapeTeX(s string) string { return texEscapes.Replace(s) }
