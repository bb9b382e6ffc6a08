package eightpuzzle

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/optjudge/optjudge/reference/lex"
)

func TestParseInput(t *testing.T) {
	tests := []struct {
		name  string
		input string
		want  []Board
	}{
		{"one line", "1 2 3 4 5 6 7 8 x\n", []Board{Goal()}},
		{"many spaces", "2  3  4  1  5  x  7  6  8\n", []Board{{2, 3, 4, 1, 5, 0, 7, 6, 8}}},
		{"leading and trailing spaces", "  x 8 7 6 5 4 3 2 1   \n", []Board{{0, 8, 7, 6, 5, 4, 3, 2, 1}}},
		{"two lines", "1 2 3 4 5 6 7 8 x\n1 2 3 4 5 6 8 7 x\n",
			[]Board{Goal(), {1, 2, 3, 4, 5, 6, 8, 7, 0}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseInput([]byte(tt.input))
			if err != nil {
				t.Fatalf("ParseInput(%q): %v", tt.input, err)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("ParseInput(%q) = %v, want %v", tt.input, got, tt.want)
			}
		})
	}
}

func TestValidateErrors(t *testing.T) {
	tests := []struct {
		name  string
		input string
		want  string
	}{
		{"empty", "", "1: empty input: want at least one line of nine tiles"},
		{"no final newline", "1 2 3 4 5 6 7 8 x", "1:18: missing final newline"},
		{"no final newline on line 2", "1 2 3 4 5 6 7 8 x\n1 2 3 4 5 6 7 8 x  ", "2:20: missing final newline"},
		{"blank line", "1 2 3 4 5 6 7 8 x\n\n1 2 3 4 5 6 7 8 x\n", "2: blank line: want nine tiles 1-8 and x"},
		{"spaces only", "   \n", "1: blank line: want nine tiles 1-8 and x"},
		{"final blank line", "1 2 3 4 5 6 7 8 x\n\n", "2: blank line: want nine tiles 1-8 and x"},
		{"too few", "1 2 3 4 5 6 7 8\n", "1:16: only 8 tiles, want 9 (x missing)"},
		{"too few, several missing", "1 2 x 5 6\n", "1:10: only 5 tiles, want 9 (3, 4, 7, 8 missing)"},
		{"too many", "1 2 3 4 5 6 7 8 x 9\n", "1:19: unexpected \"9\" after the nine tiles"},
		{"trailing garbage", "1 2 3 4 5 6 7 8 x garbage\n", "1:19: unexpected \"garbage\" after the nine tiles"},
		{"glued tiles", "12 3 4 5 6 7 8 x\n", "1:1: \"12\" is not a tile (want 1-8 or x)"},
		{"zero", "0 2 3 4 5 6 7 8 x\n", "1:1: \"0\" is not a tile (want 1-8 or x)"},
		{"nine", "1 2 3 4 5 6 7 9 x\n", "1:15: \"9\" is not a tile (want 1-8 or x)"},
		{"capital X", "1 2 3 4 5 6 7 8 X\n", "1:17: \"X\" is not a tile (want 1-8 or x)"},
		{"duplicate", "1 2 3 4 5 6 7 1 x\n", "1:15: tile 1 appears twice (also at column 1)"},
		{"two blanks", "x 2 3 4 5 6 7 8 x\n", "1:17: tile x appears twice (also at column 1)"},
		{"tab", "1\t2 3 4 5 6 7 8 x\n", "1:2: tab character: separate the tiles with spaces"},
		{"CRLF", "1 2 3 4 5 6 7 8 x\r\n", "1:18: carriage return: lines must end with a bare newline"},
		{"binary", "\x00\xff 2 3 4 5 6 7 8 x\n", "1:1: \"\\x00\\xff\" is not a tile (want 1-8 or x)"},
		{"long garbage", "1 2 3 4 5 6 7 8 x " + string(make([]byte, 50)) + "\n",
			"1:19: unexpected \"" + strings.Repeat(`\x00`, 40) + "\"... after the nine tiles"},
		{"error on line 3", "1 2 3 4 5 6 7 8 x\n1 2 3 4 5 6 7 8 x\n1 2 3 4 5 6 7 8 8\n",
			"3:17: tile 8 appears twice (also at column 15)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := Validate([]byte(tt.input))
			var le *lex.Error
			if !errors.As(err, &le) {
				t.Fatalf("Validate(%q) = %v, want a *lex.Error", tt.input, err)
			}
			if got := err.Error(); got != tt.want {
				t.Errorf("Validate(%q) = %q, want %q", tt.input, got, tt.want)
			}
		})
	}
}

func TestFormatRoundTrip(t *testing.T) {
	boards := []Board{Goal(), {2, 3, 4, 1, 5, 0, 7, 6, 8}, {1, 2, 3, 4, 5, 6, 8, 7, 0}}
	text := Format(boards)
	if want := "1 2 3 4 5 6 7 8 x\n2 3 4 1 5 x 7 6 8\n1 2 3 4 5 6 8 7 x\n"; string(text) != want {
		t.Errorf("Format = %q, want %q", text, want)
	}
	got, err := ParseInput(text)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, boards) {
		t.Errorf("ParseInput(Format(boards)) = %v, want %v", got, boards)
	}
}
