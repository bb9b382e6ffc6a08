package checkers

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strconv"
	"unicode/utf8"
)

func init() {
	register("tokens", "the output's tokens equal the answer's, any whitespace between them, case-sensitive",
		func(opts Options) (Checker, error) {
			if err := noOptions(opts); err != nil {
				return nil, err
			}
			return Tokens{}, nil
		})
}

// Tokens accepts an output whose whitespace-separated tokens equal the answer
// file's, case-sensitively. It is the default checker, as in Kattis and
// DOMjudge, without their float tolerance.
type Tokens struct{}

// UsesAnswer is true: the answer file is what Tokens compares with.
func (Tokens) UsesAnswer() bool { return true }

// Check compares f.Output with f.Answer token by token.
func (Tokens) Check(_ context.Context, f Files) (Result, error) {
	if f.Answer == nil {
		return Result{}, errors.New("tokens: no answer file")
	}
	want := bytes.Fields(f.Answer)
	got := bytes.Fields(f.Output)
	for i := range want {
		if i >= len(got) {
			return wrong("output ends after %d tokens; expected %d (next: %s)", len(got), len(want), quote(want[i])), nil
		}
		if !bytes.Equal(got[i], want[i]) {
			return wrong("token %d%s: got %s, want %s", i+1, position(f.Output, i), quote(got[i]), quote(want[i])), nil
		}
	}
	if len(got) > len(want) {
		return wrong("unexpected output after the last expected token: %s", quote(got[len(want)])), nil
	}
	return accepted(fmt.Sprintf("%d tokens", len(want))), nil
}

// position returns " (line L)" for the i-th token of out.
func position(out []byte, i int) string {
	line, n, in := 1, 0, false
	for _, c := range out {
		space := c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
		if !space && !in {
			if n == i {
				return fmt.Sprintf(" (line %d)", line)
			}
			n++
		}
		in = !space
		if c == '\n' {
			line++
		}
	}
	return ""
}

// quote shows a contestant's token readably: escaped and cut to about 40
// bytes, not inside a UTF-8 character.
func quote(b []byte) string {
	const max = 40
	if len(b) <= max {
		return strconv.Quote(string(b))
	}
	cut := max
	for cut > max-3 && !utf8.RuneStart(b[cut]) {
		cut--
	}
	return strconv.Quote(string(b[:cut])) + "..."
}
