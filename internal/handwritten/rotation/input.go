package rotation

import (
	"bytes"
	"strconv"

	"github.com/optjudge/optjudge/reference/lex"
)

// Parse reads an input file: one case per line, 24 digits (1, 2 or 3, eight
// of each) separated by single spaces, then a line holding a single 0. Every
// line ends with a newline; nothing may follow the 0. A malformed input gives
// a *lex.Error.
func Parse(input []byte) ([]Board, error) {
	var boards []Board
	rest := input
	for line := 1; ; line++ {
		if len(rest) == 0 {
			if len(input) == 0 {
				return nil, lex.Errorf(1, 0, "empty input, want the cases and a final line holding 0")
			}
			return nil, lex.Errorf(line, 0, "missing the final line holding 0")
		}
		text, after, newline := bytes.Cut(rest, []byte{'\n'})
		if string(text) == "0" {
			if !newline {
				return nil, lex.Errorf(line, 2, "missing newline at the end of the file")
			}
			if len(after) > 0 {
				return nil, lex.Errorf(line+1, 1, "unexpected data after the final 0")
			}
			return boards, nil
		}
		b, err := parseLine(text, line)
		if err != nil {
			return nil, err
		}
		if !newline {
			return nil, lex.Errorf(line, len(text)+1, "missing newline at the end of the file")
		}
		boards = append(boards, b)
		rest = after
	}
}

// parseLine reads one case line (without its newline).
func parseLine(text []byte, line int) (Board, error) {
	var b Board
	if len(text) == 0 {
		return b, lex.Errorf(line, 1, "empty line, want 24 digits or the final 0")
	}
	if text[0] == ' ' {
		return b, lex.Errorf(line, 1, "leading space")
	}
	n, col := 0, 1
	for {
		end := bytes.IndexByte(text[col-1:], ' ')
		if end < 0 {
			end = len(text) - col + 1
		}
		tok := text[col-1 : col-1+end]
		if err := checkToken(tok, line, col); err != nil {
			return b, err
		}
		if n == Cells {
			return b, lex.Errorf(line, col, "more than 24 numbers on the line")
		}
		b[n] = tok[0] - '0'
		n++
		col += end + 1
		if col > len(text) {
			break
		}
	}
	if text[len(text)-1] == ' ' {
		return b, lex.Errorf(line, len(text), "trailing space")
	}
	if n < Cells {
		return b, lex.Errorf(line, len(text)+1, "want 24 numbers, got %d", n)
	}
	return b, countDigits(b, line)
}

// checkToken checks that one space-separated token is a digit 1, 2 or 3.
func checkToken(tok []byte, line, col int) error {
	switch {
	case len(tok) == 0:
		return lex.Errorf(line, col, "want a single space between numbers")
	case len(tok) == 1 && tok[0] >= '1' && tok[0] <= '3':
		return nil
	case tok[0] == '\r' || tok[len(tok)-1] == '\r':
		return lex.Errorf(line, col+bytes.IndexByte(tok, '\r'), "carriage return (lines must end with a plain newline)")
	}
	if v, err := strconv.Atoi(string(tok)); err == nil && strconv.Itoa(v) == string(tok) {
		return lex.Errorf(line, col, "%d is out of range, want 1, 2 or 3", v)
	}
	return lex.Errorf(line, col, "want a digit 1, 2 or 3, got %s", quote(tok))
}

// countDigits checks that the board holds eight of each digit.
func countDigits(b Board, line int) error {
	var n [4]int
	for _, d := range b {
		n[d]++
	}
	for d := 1; d <= 3; d++ {
		if n[d] != 8 {
			return lex.Errorf(line, 0, "%d cells hold %d, want eight of each digit", n[d], d)
		}
	}
	return nil
}

// quote quotes a token for a message, cut to about 40 bytes.
func quote(tok []byte) string {
	if len(tok) > 40 {
		return strconv.Quote(string(tok[:40])) + "..."
	}
	return strconv.Quote(string(tok))
}

// Validate checks an input file strictly; a bad input gives a *lex.Error.
func Validate(input []byte) error {
	_, err := Parse(input)
	return err
}

// Solve returns the reference output for a whole input file: per case the
// smallest shortest sequence (or "No moves needed") and the center's digit.
func Solve(input []byte) ([]byte, error) {
	boards, err := Parse(input)
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	for _, b := range boards {
		out.WriteString(Optimal(b).String())
	}
	return out.Bytes(), nil
}

// FormatInput writes boards as an input file, with the final 0.
func FormatInput(boards []Board) []byte {
	var out bytes.Buffer
	for _, b := range boards {
		out.WriteString(b.String())
		out.WriteByte('\n')
	}
	out.WriteString("0\n")
	return out.Bytes()
}
