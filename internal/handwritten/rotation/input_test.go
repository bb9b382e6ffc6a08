package rotation

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/optjudge/optjudge/reference/lex"
)

const (
	sample1 = "1 1 1 1 3 2 3 2 3 1 3 2 2 3 1 2 2 2 3 1 2 1 3 3"
	sample2 = "1 1 1 1 1 1 1 1 2 2 2 2 2 2 2 2 3 3 3 3 3 3 3 3"
)

func TestParse(t *testing.T) {
	boards, err := Parse([]byte(sample1 + "\n" + sample2 + "\n0\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(boards) != 2 || boards[0].String() != sample1 || boards[1].String() != sample2 {
		t.Errorf("got %v, want the two samples", boards)
	}
	boards, err = Parse([]byte("0\n"))
	if err != nil || len(boards) != 0 {
		t.Errorf("no cases: got %v, %v, want none and no error", boards, err)
	}
}

func TestValidateErrors(t *testing.T) {
	// swap changes one cell of sample1 to v.
	swap := func(i int, v string) string { return sample1[:2*i] + v + sample1[2*i+1:] }
	tests := []struct {
		name, in, want string
	}{
		{"empty", "", "1: empty input, want the cases and a final line holding 0"},
		{"no terminator", sample1 + "\n", "2: missing the final line holding 0"},
		{"terminator without newline", sample1 + "\n0", "2:2: missing newline at the end of the file"},
		{"case without newline", sample1, "1:48: missing newline at the end of the file"},
		{"data after terminator", "0\n" + sample1 + "\n", "2:1: unexpected data after the final 0"},
		{"blank line after terminator", "0\n\n", "2:1: unexpected data after the final 0"},
		{"empty line", "\n0\n", "1:1: empty line, want 24 digits or the final 0"},
		{"too few", sample1[:45] + "\n0\n", "1:46: want 24 numbers, got 23"},
		{"too many", sample1 + " 1\n0\n", "1:49: more than 24 numbers on the line"},
		{"zero", swap(3, "0") + "\n0\n", "1:7: 0 is out of range, want 1, 2 or 3"},
		{"four", swap(0, "4") + "\n0\n", "1:1: 4 is out of range, want 1, 2 or 3"},
		{"letter", swap(5, "x") + "\n0\n", `1:11: want a digit 1, 2 or 3, got "x"`},
		{"leading zero", "01" + sample1[1:] + "\n0\n", `1:1: want a digit 1, 2 or 3, got "01"`},
		{"negative", "-1" + sample1[1:] + "\n0\n", "1:1: -1 is out of range, want 1, 2 or 3"},
		{"double space", "1  " + sample1[2:] + "\n0\n", "1:3: want a single space between numbers"},
		{"leading space", " " + sample1 + "\n0\n", "1:1: leading space"},
		{"trailing space", sample1 + " \n0\n", "1:48: trailing space"},
		{"tab", strings.Replace(sample1, " ", "\t", 1) + "\n0\n", `1:1: want a digit 1, 2 or 3, got "1\t1"`},
		{"crlf", sample1 + "\r\n0\r\n", "1:48: carriage return (lines must end with a plain newline)"},
		{"crlf terminator", sample1 + "\n0\r\n", "2:2: carriage return (lines must end with a plain newline)"},
		{"uneven", swap(0, "2") + "\n0\n", "1: 7 cells hold 1, want eight of each digit"},
		{"second line", sample1 + "\n" + swap(23, "1") + "\n0\n", "2: 9 cells hold 1, want eight of each digit"},
		{"terminator 00", sample1 + "\n00\n", `2:1: want a digit 1, 2 or 3, got "00"`},
		{"garbage", "\xff\x00\n0\n", `1:1: want a digit 1, 2 or 3, got "\xff\x00"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := Validate([]byte(tt.in))
			var le *lex.Error
			if !errors.As(err, &le) {
				t.Fatalf("got %v, want a *lex.Error", err)
			}
			if got := err.Error(); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestFormatInput(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	boards := []Board{Random(r), Random(r), Deep(r)}
	in := FormatInput(boards)
	got, err := Parse(in)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(boards) {
		t.Fatalf("got %d boards, want %d", len(got), len(boards))
	}
	for i := range got {
		if got[i] != boards[i] {
			t.Errorf("board %d: got %v, want %v", i, got[i], boards[i])
		}
	}
}

func FuzzValidate(f *testing.F) {
	for _, s := range []string{
		"0\n", sample1 + "\n" + sample2 + "\n0\n", sample1 + "\n0", sample1 + " \n0\n",
		"1 2 3\n0\n", "\n", "", "0\n0\n", sample1 + "\r\n0\r\n", "\xff 1 2\n0\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		boards, err := Parse(in)
		if err != nil {
			var le *lex.Error
			if !errors.As(err, &le) {
				t.Fatalf("got %T %v, want a *lex.Error", err, err)
			}
			return
		}
		// A valid input is canonical: it prints back byte for byte.
		if out := FormatInput(boards); !bytes.Equal(out, in) {
			t.Fatalf("round trip: got %q, want %q", out, in)
		}
		for _, b := range boards {
			if err := b.Valid(); err != nil {
				t.Fatalf("parsed board %v: %v", b, err)
			}
		}
		if _, err := Solve(in); err != nil {
			t.Fatalf("Solve: %v", err)
		}
	})
}
