package clocks

import (
	"errors"
	"strings"
	"testing"

	"github.com/optjudge/optjudge/reference/lex"
)

var sample = Position{3, 3, 0, 2, 2, 2, 2, 1, 2}

func TestParse(t *testing.T) {
	tests := []struct {
		name, in string
		want     Position
	}{
		{"sample", "3 3 0\n2 2 2\n2 1 2\n", sample},
		{"at 12", "0 0 0\n0 0 0\n0 0 0\n", Position{}},
		{"all 3", "3 3 3\n3 3 3\n3 3 3\n", Position{3, 3, 3, 3, 3, 3, 3, 3, 3}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Parse([]byte(tt.in))
			if err != nil {
				t.Fatalf("got error %v, want none", err)
			}
			if got != tt.want {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"empty", "", "1: empty input, want 3 lines of 3 dials"},
		{"blank line", "\n", "1: empty line, want the 3 dials A B C"},
		{"empty second line", "3 3 0\n\n2 1 2\n", "2: empty line, want the 3 dials D E F"},
		{"two lines", "3 3 0\n2 2 2\n", "3: missing line 3 of 3 (dials G H I)"},
		{"ends mid line", "3 3 0\n2 2 2", "2:6: input ends after line 2, want 3 lines of 3 dials"},
		{"no final newline", "3 3 0\n2 2 2\n2 1 2", "3:6: missing final newline"},
		{"extra blank line", "3 3 0\n2 2 2\n2 1 2\n\n", `4:1: unexpected line "" after the 3 lines of dials`},
		{"extra line", "3 3 0\n2 2 2\n2 1 2\n0 0 0\n", `4:1: unexpected line "0 0 0" after the 3 lines of dials`},
		{"crlf", "3 3 0\r\n2 2 2\r\n2 1 2\r\n", `1:6: carriage return at the end of the line (CRLF), want \n line ends`},
		{"too few", "3 3 0\n2 2\n2 1 2\n", "2:4: only 2 dials on line 2, want 3 (D E F)"},
		{"too many", "3 3 0\n2 2 2 2\n2 1 2\n", `2:7: extra number "2" after dial F, want 3 dials per line`},
		{"all on one line", "3 3 0 2 2 2 2 1 2\n", `1:7: extra number "2" after dial C, want 3 dials per line`},
		{"leading space", " 3 3 0\n2 2 2\n2 1 2\n", "1:1: leading space"},
		{"trailing space", "3 3 0 \n2 2 2\n2 1 2\n", "1:6: trailing space"},
		{"only a space", " \n2 2 2\n2 1 2\n", "1:1: leading space"},
		{"double space", "3  3 0\n2 2 2\n2 1 2\n", "1:3: two spaces in a row, want one"},
		{"tab", "3\t3 0\n2 2 2\n2 1 2\n", `1:1: dial A: got "3\t3", want a number 0-3`},
		{"out of range", "3 3 0\n2 2 2\n2 1 4\n", `3:5: dial I: "4" is out of range 0-3`},
		{"negative", "3 3 0\n2 -1 2\n2 1 2\n", `2:3: dial E: "-1" is out of range 0-3`},
		{"huge", "3 3 0\n2 2 2\n99999999999999999999 1 2\n", `3:1: dial G: "99999999999999999999" is out of range 0-3`},
		{"leading zero", "03 3 0\n2 2 2\n2 1 2\n", `1:1: dial A: got "03", want a single digit 0-3`},
		{"plus sign", "3 3 0\n2 +2 2\n2 1 2\n", `2:3: dial E: got "+2", want a single digit 0-3`},
		{"letter", "3 3 x\n2 2 2\n2 1 2\n", `1:5: dial C: got "x", want a number 0-3`},
		{"binary", "3 3 0\n\x00\xff 2 2\n2 1 2\n", `2:1: dial D: got "\x00\xff", want a number 0-3`},
		{"long garbage", "3 3 0\n2 2 2\n2 1 " + string(make([]byte, 50)) + "\n",
			`3:5: dial I: got "` + strings.Repeat(`\x00`, 40) + `"..., want a number 0-3`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse([]byte(tt.in))
			var le *lex.Error
			if !errors.As(err, &le) {
				t.Fatalf("got error %v (%T), want a *lex.Error", err, err)
			}
			if err.Error() != tt.want {
				t.Errorf("got %q, want %q", err, tt.want)
			}
			if Validate([]byte(tt.in)) == nil {
				t.Errorf("Validate: got nil, want %q", tt.want)
			}
			if _, err := Solve([]byte(tt.in)); err == nil || err.Error() != tt.want {
				t.Errorf("Solve: got error %v, want %q", err, tt.want)
			}
		})
	}
}

func TestInputRoundTrip(t *testing.T) {
	for p := range All() {
		in := p.Input()
		got, err := Parse(in)
		if err != nil || got != p {
			t.Fatalf("Parse(%q): got %v, %v, want %v", in, got, err, p)
		}
	}
}

func TestString(t *testing.T) {
	if got, want := sample.String(), "3 3 0 / 2 2 2 / 2 1 2"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if got, want := string(sample.Input()), "3 3 0\n2 2 2\n2 1 2\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func FuzzValidate(f *testing.F) {
	f.Add([]byte("3 3 0\n2 2 2\n2 1 2\n"))
	f.Add([]byte("0 0 0\n0 0 0\n0 0 0\n"))
	f.Add([]byte("3 3 0\n2 2 2\n2 1 2"))
	f.Add([]byte("3 3 0\r\n2 2 2\r\n2 1 2\r\n"))
	f.Add([]byte("3  3 0\n2 2 2\n2 1 2 \n\n"))
	f.Add([]byte("-1 03 +2\n\x00\xff 9 99999999999999999999\n"))
	f.Add([]byte(""))
	f.Fuzz(func(t *testing.T, in []byte) {
		p, err := Parse(in)
		if err != nil {
			var le *lex.Error
			if !errors.As(err, &le) {
				t.Fatalf("got error %v (%T), want a *lex.Error", err, err)
			}
			if le.Line < 1 || le.Col < 0 {
				t.Errorf("got position %d:%d, want line >= 1 and col >= 0", le.Line, le.Col)
			}
			return
		}
		// The format is strict, so a valid input is exactly its position's
		// canonical form.
		if got := p.Input(); string(got) != string(in) {
			t.Errorf("round trip: got %q, want %q", got, in)
		}
		out, err := Solve(in)
		if err != nil {
			t.Fatalf("Solve: got error %v for a valid input", err)
		}
		if want := Optimal(p).String() + "\n"; string(out) != want {
			t.Errorf("Solve: got %q, want %q", out, want)
		}
	})
}
