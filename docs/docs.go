// Package docs holds the judge's documentation pages, Markdown files a
// person reads in order (README.md lists them), embedded so that `judge
// help TOPIC` prints the pages themselves: the help and the docs are one
// text and cannot drift.
package docs

import "embed"

// Pages are the Markdown pages of this directory.
//
//go:embed *.md
var Pages embed.FS
