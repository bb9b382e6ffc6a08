package eightpuzzle

import (
	"bytes"
	"errors"
	"slices"
	"testing"

	"github.com/optjudge/optjudge/reference/lex"
)

func FuzzValidate(f *testing.F) {
	for _, s := range []string{
		"2  3  4  1  5  x  7  6  8\n",
		"1 2 3 4 5 6 7 8 x\n1 2 3 4 5 6 8 7 x\n",
		"  x 8 7 6 5 4 3 2 1  \n",
		"1 2 3 4 5 6 7 8 x",
		"1 2 3 4 5 6 7 8\n",
		"1 2 3 4 5 6 7 8 x 9\n",
		"1\t2 3 4 5 6 7 8 x\r\n",
		"\n",
		"",
		"\x00\xff",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, input []byte) {
		err := Validate(input)
		boards, perr := ParseInput(input)
		if (err == nil) != (perr == nil) {
			t.Fatalf("Validate = %v but ParseInput = %v", err, perr)
		}
		if err != nil {
			var le *lex.Error
			if !errors.As(err, &le) || le.Line < 1 {
				t.Fatalf("Validate(%q) = %v, want a *lex.Error with a line", input, err)
			}
			if _, serr := Solve(input); serr == nil || serr.Error() != err.Error() {
				t.Fatalf("Solve of an invalid input gave %v, want the validator's %v", serr, err)
			}
			return
		}
		if len(boards) != bytes.Count(input, []byte{'\n'}) {
			t.Fatalf("%d boards from %d lines", len(boards), bytes.Count(input, []byte{'\n'}))
		}
		for _, b := range boards {
			if !b.Valid() {
				t.Fatalf("ParseInput(%q) gave the invalid board %v", input, b)
			}
		}
	})
}

func FuzzParseInput(f *testing.F) {
	f.Add([]byte("2  3  4  1  5  x  7  6  8\n"))
	f.Add([]byte(" 1 2 3 4 5 6 7 8 x \n8 7 6 5 4 3 2 1 x\n"))
	f.Add([]byte("1 2 3 4 5 6 7 8 x\n\n"))
	f.Fuzz(func(t *testing.T, input []byte) {
		boards, err := ParseInput(input)
		if err != nil {
			return
		}
		// A valid input round-trips through Format, spacing aside.
		text := Format(boards)
		again, err := ParseInput(text)
		if err != nil {
			t.Fatalf("ParseInput(Format(%v)): %v", boards, err)
		}
		if !slices.Equal(again, boards) {
			t.Fatalf("round trip gave %v, want %v", again, boards)
		}
		if !bytes.Equal(bytes.Join(bytes.Fields(input), nil), bytes.Join(bytes.Fields(text), nil)) {
			t.Fatalf("Format(ParseInput(%q)) = %q has other tiles", input, text)
		}
	})
}
