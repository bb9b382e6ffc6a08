package clocks

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"

	"github.com/optjudge/optjudge/reference/lex"
)

// Parse reads an input file strictly: exactly three lines, each of three
// dials 0..3 separated by single spaces, the last line ending in a newline.
// Dials are read row by row, A B C on line 1 to G H I on line 3. A malformed
// input gives a *lex.Error naming the line and column of the first problem.
func Parse(input []byte) (Position, error) {
	var p Position
	if len(input) == 0 {
		return p, lex.Errorf(1, 0, "empty input, want 3 lines of 3 dials")
	}
	rest := input
	for row := range 3 {
		line := row + 1
		if len(rest) == 0 {
			return p, lex.Errorf(line, 0, "missing line %d of 3 (dials %s)", line, rowDials(row))
		}
		text, after, found := bytes.Cut(rest, []byte{'\n'})
		if err := parseRow(text, row, p[3*row:3*row+3]); err != nil {
			return p, err
		}
		if !found {
			if row < 2 {
				return p, lex.Errorf(line, len(text)+1, "input ends after line %d, want 3 lines of 3 dials", line)
			}
			return p, lex.Errorf(line, len(text)+1, "missing final newline")
		}
		rest = after
	}
	if len(rest) > 0 {
		extra, _, _ := bytes.Cut(rest, []byte{'\n'})
		return p, lex.Errorf(4, 1, "unexpected line %s after the 3 lines of dials", quote(extra))
	}
	return p, nil
}

// Validate reports the first problem of a malformed input file as a
// *lex.Error, or nil for a valid one.
func Validate(input []byte) error {
	_, err := Parse(input)
	return err
}

// parseRow reads one line of dials (without its newline) into dst.
func parseRow(text []byte, row int, dst []uint8) error {
	line := row + 1
	if len(text) == 0 {
		return lex.Errorf(line, 0, "empty line, want the 3 dials %s", rowDials(row))
	}
	if text[len(text)-1] == '\r' {
		return lex.Errorf(line, len(text), "carriage return at the end of the line (CRLF), want \\n line ends")
	}
	col, n := 1, 0
	for tok := range bytes.SplitSeq(text, []byte{' '}) {
		switch {
		case len(tok) == 0 && col == 1:
			return lex.Errorf(line, 1, "leading space")
		case len(tok) == 0 && col > len(text):
			return lex.Errorf(line, len(text), "trailing space")
		case len(tok) == 0:
			return lex.Errorf(line, col, "two spaces in a row, want one")
		case n == 3:
			return lex.Errorf(line, col, "extra number %s after dial %c, want 3 dials per line", quote(tok), 'A'+rune(3*row+2))
		}
		d, err := parseDial(tok, 3*row+n)
		if err != nil {
			return lex.Errorf(line, col, "%s", err)
		}
		dst[n] = d
		col += len(tok) + 1
		n++
	}
	if n < 3 {
		return lex.Errorf(line, len(text)+1, "only %d dials on line %d, want 3 (%s)", n, line, rowDials(row))
	}
	return nil
}

// parseDial reads the dial at index i (0 for A) from its token.
func parseDial(tok []byte, i int) (uint8, error) {
	name := 'A' + rune(i)
	if len(tok) == 1 && tok[0] >= '0' && tok[0] <= '3' {
		return tok[0] - '0', nil
	}
	v, err := strconv.Atoi(string(tok))
	switch {
	case err == nil && v >= 0 && v <= 3:
		return 0, fmt.Errorf("dial %c: got %s, want a single digit 0-3", name, quote(tok))
	case err == nil, errors.Is(err, strconv.ErrRange):
		return 0, fmt.Errorf("dial %c: %s is out of range 0-3", name, quote(tok))
	}
	return 0, fmt.Errorf("dial %c: got %s, want a number 0-3", name, quote(tok))
}

// rowDials names the dials of a row: "A B C" for row 0.
func rowDials(row int) string {
	b := []byte("A B C")
	for i := 0; i < len(b); i += 2 {
		b[i] += byte(3 * row)
	}
	return string(b)
}

// quote shows input bytes readably: escaped and cut to 40 bytes.
func quote(b []byte) string {
	const max = 40
	if len(b) > max {
		return strconv.Quote(string(b[:max])) + "..."
	}
	return strconv.Quote(string(b))
}
