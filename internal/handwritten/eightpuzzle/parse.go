package eightpuzzle

import (
	"bytes"
	"fmt"

	"github.com/optjudge/optjudge/reference/lex"
)

// ParseInput reads a whole input file: one board per line, until the end of
// the file. A line holds nine tiles, the digits 1-8 and x for the blank, each
// exactly once, read row by row. Tiles are separated by one or more spaces;
// spaces may also stand before the first tile and after the last. Nothing else
// is allowed: no tabs, no carriage returns, no blank lines, no tenth token.
// Every line, the last included, ends with "\n", and the file holds at least
// one line.
//
// A malformed input gives a *lex.Error naming the line and column.
func ParseInput(input []byte) ([]Board, error) {
	if len(input) == 0 {
		return nil, lex.Errorf(1, 0, "empty input: want at least one line of nine tiles")
	}
	var boards []Board
	for n := 1; len(input) > 0; n++ {
		line, rest, found := bytes.Cut(input, []byte{'\n'})
		b, err := parseLine(line, n)
		if err != nil {
			return nil, err
		}
		if !found {
			return nil, lex.Errorf(n, len(line)+1, "missing final newline")
		}
		boards = append(boards, b)
		input = rest
	}
	return boards, nil
}

// Validate checks that input is a well-formed input file (see ParseInput).
func Validate(input []byte) error {
	_, err := ParseInput(input)
	return err
}

// parseLine reads the nine tiles of line n (without its newline).
func parseLine(line []byte, n int) (Board, error) {
	var b Board
	var col [9]int // col[t] is the 1-based column of tile t, 0 if not seen
	count := 0
	for i := 0; i < len(line); {
		if line[i] == ' ' {
			i++
			continue
		}
		j := i
		for j < len(line) && line[j] != ' ' {
			j++
		}
		if count == 9 {
			return b, lex.Errorf(n, i+1, "unexpected %s after the nine tiles", Quote(line[i:j]))
		}
		t, err := parseTile(line[i:j], n, i+1)
		if err != nil {
			return b, err
		}
		if col[t] != 0 {
			return b, lex.Errorf(n, i+1, "tile %c appears twice (also at column %d)", tileChar(t), col[t])
		}
		col[t] = i + 1
		b[count] = t
		count++
		i = j
	}
	switch {
	case count == 0:
		return b, lex.Errorf(n, 0, "blank line: want nine tiles 1-8 and x")
	case count < 9:
		return b, lex.Errorf(n, len(line)+1, "only %d tiles, want 9 (%s missing)", count, missing(col))
	}
	return b, nil
}

// parseTile reads one space-free token starting at column c of line n.
func parseTile(tok []byte, n, c int) (byte, error) {
	if k := bytes.IndexByte(tok, '\t'); k >= 0 {
		return 0, lex.Errorf(n, c+k, "tab character: separate the tiles with spaces")
	}
	if k := bytes.IndexByte(tok, '\r'); k >= 0 {
		return 0, lex.Errorf(n, c+k, "carriage return: lines must end with a bare newline")
	}
	if len(tok) == 1 {
		switch ch := tok[0]; {
		case ch >= '1' && ch <= '8':
			return ch - '0', nil
		case ch == 'x':
			return 0, nil
		}
	}
	return 0, lex.Errorf(n, c, "%s is not a tile (want 1-8 or x)", Quote(tok))
}

// missing lists the tiles not seen, as in "4, 7, x".
func missing(col [9]int) string {
	var s []byte
	for _, t := range []byte{1, 2, 3, 4, 5, 6, 7, 8, 0} {
		if col[t] == 0 {
			if len(s) > 0 {
				s = append(s, ", "...)
			}
			s = append(s, tileChar(t))
		}
	}
	return string(s)
}

// Format writes boards as an input file, one line each, tiles separated by
// single spaces.
func Format(boards []Board) []byte {
	out := make([]byte, 0, 18*len(boards))
	for _, b := range boards {
		out = append(out, b.Line()...)
		out = append(out, '\n')
	}
	return out
}

// Quote shows bytes from an input or output file in double quotes with Go
// escapes, cut to about 40 characters, so that binary garbage stays readable.
func Quote(s []byte) string {
	const max = 40
	if len(s) > max {
		return fmt.Sprintf("%q...", s[:max])
	}
	return fmt.Sprintf("%q", s)
}
