// Package lex holds the position-carrying error that input validators and
// parsers of the puzzles report, so that every message about a malformed input
// has the form "line:col: what is wrong".
package lex

import "fmt"

// Error is a problem found at a 1-based line and column of an input file.
// Col is 0 when the problem concerns the whole line (a missing line, say).
type Error struct {
	Line, Col int
	Msg       string
}

func (e *Error) Error() string {
	if e.Col > 0 {
		return fmt.Sprintf("%d:%d: %s", e.Line, e.Col, e.Msg)
	}
	return fmt.Sprintf("%d: %s", e.Line, e.Msg)
}

// Errorf builds an *Error.
func Errorf(line, col int, format string, args ...any) *Error {
	return &Error{Line: line, Col: col, Msg: fmt.Sprintf(format, args...)}
}
