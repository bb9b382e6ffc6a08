// Package statement renders problem statements as HTML, as the judges
// contests run on render them: Markdown through goldmark with GitHub's
// tables (raw HTML off, as problemtools and Kattis have it), and LaTeX
// statements written with problemtools' problem.sty as problemtools'
// problem2html does (LaTeX). Math is left for KaTeX to typeset in the
// browser, written between \( \) and \[ \] and escaped as text. Whatever
// the source, the result holds no markup of its own: no raw HTML, no
// script, no link but to http, https, mailto or this site, no picture but
// the ones the caller resolves.
package statement

import (
	"bytes"
	"html"
	"html/template"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// Pictures resolves a picture a statement shows (figure.png) to its URL;
// "" for none, and then its alt text is shown.
type Pictures func(name string) string

// Markdown renders a Markdown statement: CommonMark and GitHub's tables
// and strikethrough, $math$ and $$display math$$ for KaTeX; raw HTML is
// left out, a dangerous link (javascript:, data:) leads nowhere, a
// picture shows only through pics (nil: none).
func Markdown(src string, pics Pictures) template.HTML {
	md := goldmark.New(
		goldmark.WithExtensions(table, extension.Strikethrough, mathExtension{}),
		goldmark.WithRendererOptions(renderer.WithNodeRenderers(util.Prioritized(&imageRenderer{pics: pics}, 100))),
	)
	var buf bytes.Buffer
	if err := md.Convert([]byte(src), &buf); err != nil {
		return template.HTML("<pre>" + html.EscapeString(src) + "</pre>")
	}
	return template.HTML(buf.String())
}

// table is GitHub's tables with a column's alignment as an align
// attribute: the pages' policy refuses style attributes.
var table = extension.NewTable(extension.WithTableCellAlignMethod(extension.TableCellAlignAttribute))

// GoldmarkGFM is goldmark with the same extensions and no more: what a
// statement without math or pictures renders as (the tests compare).
func GoldmarkGFM(src string) string {
	var buf bytes.Buffer
	goldmark.New(goldmark.WithExtensions(table, extension.Strikethrough)).Convert([]byte(src), &buf)
	return buf.String()
}

// imageRenderer shows a picture only through pics.
type imageRenderer struct{ pics Pictures }

func (r *imageRenderer) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(ast.KindImage, r.image)
}

func (r *imageRenderer) image(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	n := node.(*ast.Image)
	alt := altText(n, source)
	src := ""
	if r.pics != nil {
		src = r.pics(string(n.Destination))
	}
	if src == "" {
		w.WriteString(html.EscapeString(alt))
		return ast.WalkSkipChildren, nil
	}
	w.WriteString(`<img src="` + html.EscapeString(src) + `" alt="` + html.EscapeString(alt) + `">`)
	return ast.WalkSkipChildren, nil
}

// altText is an image's description as plain text.
func altText(n ast.Node, source []byte) string {
	var b bytes.Buffer
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		switch t := c.(type) {
		case *ast.Text:
			b.Write(t.Segment.Value(source))
		case *ast.String:
			b.Write(t.Value)
		default:
			b.WriteString(altText(c, source))
		}
	}
	return b.String()
}

// Math: $...$ inline and $$...$$ displayed, as pandoc and problemtools
// read them: an opening $ is followed by a non-space, a closing $ follows
// a non-space and is not followed by a digit; \$ is a dollar.

var kindMath = ast.NewNodeKind("Math")

type mathNode struct {
	ast.BaseInline
	tex     []byte
	display bool
}

func (n *mathNode) Kind() ast.NodeKind { return kindMath }
func (n *mathNode) Dump(src []byte, level int) {
	ast.DumpHelper(n, src, level, map[string]string{"tex": string(n.tex)}, nil)
}

type mathParser struct{}

func (mathParser) Trigger() []byte { return []byte{'$'} }

func (mathParser) Parse(parent ast.Node, block text.Reader, pc parser.Context) ast.Node {
	line, _ := block.PeekLine()
	display := len(line) > 1 && line[1] == '$'
	open := 1
	if display {
		open = 2
	}
	rest := line[open:]
	if len(rest) == 0 || (!display && (rest[0] == ' ' || rest[0] == '\t' || rest[0] == '\n')) {
		return nil
	}
	for i := 0; i < len(rest); i++ {
		switch {
		case rest[i] == '\\':
			i++
		case rest[i] == '$' && display && i+1 < len(rest) && rest[i+1] == '$' && i > 0:
			block.Advance(open + i + 2)
			return &mathNode{tex: append([]byte(nil), rest[:i]...), display: true}
		case rest[i] == '$' && !display:
			if i == 0 || rest[i-1] == ' ' || rest[i-1] == '\t' || (i+1 < len(rest) && rest[i+1] >= '0' && rest[i+1] <= '9') {
				continue
			}
			block.Advance(open + i + 1)
			return &mathNode{tex: append([]byte(nil), rest[:i]...)}
		}
	}
	return nil
}

type mathRenderer struct{}

func (mathRenderer) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(kindMath, func(w util.BufWriter, _ []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
		if entering {
			w.WriteString(MathHTML(string(node.(*mathNode).tex), node.(*mathNode).display))
		}
		return ast.WalkSkipChildren, nil
	})
}

// MathHTML is TeX math as the pages hand it to KaTeX: escaped, between
// \( \) (inline) or \[ \] (displayed), in a span KaTeX's auto-render
// looks into.
func MathHTML(tex string, display bool) string {
	if display {
		return `<span class="math display">\[` + html.EscapeString(tex) + `\]</span>`
	}
	return `<span class="math inline">\(` + html.EscapeString(tex) + `\)</span>`
}

type mathExtension struct{}

func (mathExtension) Extend(m goldmark.Markdown) {
	m.Parser().AddOptions(parser.WithInlineParsers(util.Prioritized(mathParser{}, 150)))
	m.Renderer().AddOptions(renderer.WithNodeRenderers(util.Prioritized(mathRenderer{}, 150)))
}
