package service

import (
	"html/template"

	"github.com/optjudge/optjudge/judge/statement"
)

// markdown renders a Markdown statement without pictures (see
// judge/statement: goldmark with GitHub's tables, raw HTML off, math for
// KaTeX).
func markdown(src string) template.HTML { return statement.Markdown(src, nil) }

// markdownWithImages is markdown with the pictures image resolves ("":
// none, its alt text shown).
func markdownWithImages(src string, image func(name string) string) template.HTML {
	return statement.Markdown(src, image)
}
