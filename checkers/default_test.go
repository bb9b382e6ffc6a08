package checkers

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/optjudge/optjudge/verdict"
)

func TestDefault(t *testing.T) {
	const (
		AC = verdict.AC
		WA = verdict.WA
	)
	tests := []struct {
		name string
		args string // Kattis flags, split into words
		out  string
		ans  string
		want verdict.Verdict
		msg  string
	}{
		// Tokens, case and whitespace.
		{"equal", "", "1 2 3\n", "1 2 3\n", AC, "3 tokens"},
		{"other whitespace", "", "\v1\n2\t\t3\r\n\n\f", "1 2 3", AC, "3 tokens"},
		{"no trailing newline", "", "1 2 3", "1 2 3\n", AC, "3 tokens"},
		{"empty both", "", "", "\n", AC, "0 tokens"},
		{"case ignored", "", "Yes\nPOSSIBLE\n", "yes\npossible\n", AC, "2 tokens"},
		{"case ignored only for ASCII", "", "\xc9T\xc9\n", "\xe9t\xe9\n", WA, `token 1 (line 1): got "\xc9T\xc9", want "\xe9t\xe9"`},
		{"case sensitive", "case_sensitive", "abc\nYES\n", "abc\nyes\n", WA,
			`token 2 (line 2): got "YES", want "yes" (the case differs, and case_sensitive is set)`},
		{"case sensitive equal", "case_sensitive", "abc YES", "abc YES", AC, "2 tokens"},
		{"differs", "", "1 2 4\n", "1 2 3\n", WA, `token 3 (line 1): got "4", want "3"`},
		{"line of the output", "", "1\n\n2\n4\n", "1 2 3\n", WA, `token 3 (line 4): got "4", want "3"`},
		{"unicode space is not space", "", "1\u00a02\n", "1 2\n", WA, `token 1 (line 1): got "1\u00a02", want "1"`},
		{"short", "", "1 2\n", "1 2 3\n4\n", WA, `output ends after 2 tokens; expected 4 (next: "3")`},
		{"empty", "", "", "1 2\n", WA, `output is empty; expected 2 tokens (first: "1")`},
		{"only whitespace", "", " \n", "1\n", WA, `output has only whitespace; expected 1 tokens (first: "1")`},
		{"long", "", "1 2 3\n4\n", "1 2 3\n", WA, `unexpected output after the last expected token: "4" (token 4, line 2)`},
		{"long token cut", "", strings.Repeat("🚀", 15), "x", WA,
			`token 1 (line 1): got "` + strings.Repeat("🚀", 10) + `"..., want "x"`},

		// space_change_sensitive: every run of whitespace as in the answer.
		{"space same", "space_change_sensitive", "1 2\n3\n", "1 2\n3\n", AC, "3 tokens"},
		{"space other run", "space_change_sensitive", "1\t2\n", "1 2\n", WA,
			`whitespace before token 2 (line 1): got "\t", want " " (space_change_sensitive)`},
		{"space leading", "space_change_sensitive", " 1\n", "1\n", WA,
			`whitespace before token 1 (line 1): got " ", want "" (space_change_sensitive)`},
		{"space longer run", "space_change_sensitive", "hello\n world\n", "hello\nworld\n", WA,
			`whitespace before token 2 (line 1): got "\n ", want "\n" (space_change_sensitive)`},
		{"space no final newline", "space_change_sensitive", "1 2", "1 2\n", WA,
			`whitespace after the last token (line 1): got "", want "\n" (space_change_sensitive)`},
		{"space extra final newline", "space_change_sensitive", "1 2\n\n", "1 2\n", WA,
			`whitespace after the last token (line 1): got "\n\n", want "\n" (space_change_sensitive)`},
		{"space crlf", "space_change_sensitive", "1\r\n", "1\n", WA,
			`whitespace after the last token (line 1): got "\r\n", want "\n" (space_change_sensitive)`},
		{"space empty answer", "space_change_sensitive", "\n", "", WA,
			`whitespace of an answer without tokens (line 1): got "\n", want "" (space_change_sensitive)`},
		{"space and case", "space_change_sensitive", "A b\n", "a B\n", AC, "2 tokens"},
		{"space short", "space_change_sensitive", "1 ", "1 2", WA, `output ends after 1 tokens; expected 2 (next: "2")`},
		{"space long", "space_change_sensitive", "1 2", "1 ", WA,
			`unexpected output after the last expected token: "2" (token 2, line 1)`},

		// Without a tolerance numbers are strings.
		{"no tolerance", "", "1.0\n", "1\n", WA, `token 1 (line 1): got "1.0", want "1"`},
		{"no tolerance 1e5", "", "1e5", "100000", WA, `token 1 (line 1): got "1e5", want "100000"`},
		{"no tolerance case of E", "", "1E5", "1e5", AC, "1 tokens"},

		// Absolute tolerance: |got-want| <= E.
		{"abs inside", "float_absolute_tolerance 1e-6", "1.0000009", "1.0", AC, "1 tokens"},
		{"abs edge", "float_absolute_tolerance 0.5", "1.5", "1", AC, "1 tokens"},
		{"abs outside", "float_absolute_tolerance 1e-9", "1.0000001", "1.0", WA,
			"token 1 (line 1): got 1.0000001, want 1.0: absolute error 1e-7 over the 1e-9 tolerance"},
		{"abs large numbers", "float_absolute_tolerance 1e-6", "1000000.001", "1000000", WA,
			"token 1 (line 1): got 1000000.001, want 1000000: absolute error 0.001 over the 1e-6 tolerance"},
		{"abs integers too", "float_absolute_tolerance 0.5", "3", "2", WA,
			"token 1 (line 1): got 3, want 2: absolute error 1 over the 0.5 tolerance"},

		// Relative tolerance: |got-want| <= E*|want|.
		{"rel inside", "float_relative_tolerance 1e-6", "1000000.9", "1000000", AC, "1 tokens"},
		{"rel outside", "float_relative_tolerance 1e-6", "1000001.1", "1000000", WA,
			"token 1 (line 1): got 1000001.1, want 1000000: relative error 1.1e-6 over the 1e-6 tolerance"},
		{"rel small numbers", "float_relative_tolerance 1e-3", "0.0000011", "0.000001", WA,
			"token 1 (line 1): got 0.0000011, want 0.000001: relative error 0.1 over the 0.001 tolerance"},
		{"rel zero answer", "float_relative_tolerance 0.01", "1", "0", WA,
			"token 1 (line 1): got 1, want 0: absolute error 1; with only a relative tolerance, an answer of 0 takes exactly 0"},
		{"rel zero answer exact", "float_relative_tolerance 0.01", "-0.0", "0", AC, "1 tokens"},

		// Both: either one suffices.
		{"both abs suffices", "float_tolerance 1e-6", "0.0000005", "0", AC, "1 tokens"},
		{"both rel suffices", "float_tolerance 1e-6", "1000000.5", "1000000", AC, "1 tokens"},
		{"both outside", "float_tolerance 1e-6", "1.000002", "1", WA,
			"token 1 (line 1): got 1.000002, want 1: absolute error 2e-6 and relative error 2e-6, both over the 1e-6 tolerance"},
		{"both outside zero", "float_tolerance 1e-6", "0.00001", "0", WA,
			"token 1 (line 1): got 0.00001, want 0: absolute error 1e-5 over the 1e-6 absolute tolerance (relative error is undefined for an answer of 0)"},
		{"both differ", "float_absolute_tolerance 1e-9 float_relative_tolerance 1e-6", "2.00001", "2", WA,
			"token 1 (line 1): got 2.00001, want 2: absolute error 1e-5 over the 1e-9 absolute tolerance and relative error 5e-6 over the 1e-6 relative tolerance"},
		{"tolerance 0 compares values", "float_tolerance 0", "1e5 0.5", "100000 .5", AC, "2 tokens"},

		// Which tokens are floats, as problemtools' sscanf reads them.
		{"any formatting", "float_tolerance 1e-9", "3.14000000e-2 +2 1E0", "0.0314 2.0 1", AC, "3 tokens"},
		{"hex", "float_tolerance 1e-9", "0x1p-2 16", "0.25 0x10", AC, "2 tokens"},
		{"dangling exponent", "float_tolerance 1e-9", "1e 5e+", "1 5", AC, "2 tokens"},
		{"not a number", "float_tolerance 1e-6", "x", "1.5", WA, `token 1 (line 1): got "x", want a number (the answer is 1.5)`},
		{"trailing garbage", "float_tolerance 1e-6", "1.5x", "1.5", WA, `token 1 (line 1): got "1.5x", want a number (the answer is 1.5)`},
		{"comma", "float_tolerance 1e-6", "1,5", "1.5", WA, `token 1 (line 1): got "1,5", want a number (the answer is 1.5)`},
		{"inf output", "float_tolerance 1e-6", "inf", "1e300", WA,
			`token 1 (line 1): got "inf", want a number (the answer is 1e300; inf and nan are not numbers here)`},
		{"nan output", "float_tolerance 1e-6", "-NaN", "0", WA,
			`token 1 (line 1): got "-NaN", want a number (the answer is 0; inf and nan are not numbers here)`},
		{"overflow output", "float_tolerance 1e-6", "1e400", "1", WA, `token 1 (line 1): got "1e400", want a number (the answer is 1)`},
		{"inf answer is a string", "float_tolerance 0.5", "INF", "inf", AC, "1 tokens"},
		{"inf answer is a string wa", "float_tolerance 0.5", "0", "inf", WA, `token 1 (line 1): got "0", want "inf"`},
		{"nan answer is a string", "float_tolerance 0.5 case_sensitive", "NaN", "nan", WA,
			`token 1 (line 1): got "NaN", want "nan" (the case differs, and case_sensitive is set)`},
		{"overflow answer is a string", "float_tolerance 0.5", "1e400", "1e400", AC, "1 tokens"},
		{"word answers beside numbers", "float_tolerance 1e-6", "YES 0.3333333", "yes 0.333333333", AC, "2 tokens"},
		{"huge difference", "float_tolerance 1e-6", "-1.7e308", "1.7e308", WA,
			"token 1 (line 1): got -1.7e308, want 1.7e308: absolute error +Inf and relative error +Inf, both over the 1e-6 tolerance"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newDefaultFromArgs(t, tt.args)
			r, err := c.Check(context.Background(), Files{Output: []byte(tt.out), Answer: []byte(tt.ans)})
			if err != nil {
				t.Fatal(err)
			}
			if r.Verdict != tt.want || r.Message != tt.msg {
				t.Errorf("got %v %q\nwant %v %q", r.Verdict, r.Message, tt.want, tt.msg)
			}
		})
	}
}

func newDefaultFromArgs(tb testing.TB, args string) Checker {
	tb.Helper()
	opts, err := ParseDefaultArgs(strings.Fields(args))
	if err != nil {
		tb.Fatal(err)
	}
	c, err := New("default", opts)
	if err != nil {
		tb.Fatal(err)
	}
	return c
}

func TestDefaultNeedsAnswer(t *testing.T) {
	if _, err := (Default{}).Check(context.Background(), Files{Output: []byte("1")}); err == nil {
		t.Error("got nil error without an answer file, want one")
	}
	if !UsesAnswer(Default{}) {
		t.Error("UsesAnswer(Default{}) = false, want true")
	}
}

func TestParseFloat(t *testing.T) {
	// What glibc's sscanf(tok, "%lf%10s") reads, and problemtools keeps.
	tests := []struct {
		tok string
		ok  bool
		v   float64
	}{
		{"1", true, 1}, {"-2.5", true, -2.5}, {"+.5", true, 0.5}, {"5.", true, 5}, {".5e-3", true, 0.0005},
		{"1e5", true, 100000}, {"1.5E+3", true, 1500}, {"0009", true, 9}, {"-0", true, 0},
		{"1e", true, 1}, {"1e+", true, 1}, {"1.e", true, 1}, {"0e", true, 0},
		{"0x1p3", true, 8}, {"0X1P-2", true, 0.25}, {"0x.8", true, 0.5}, {"0x1e", true, 30}, {"0x1p", true, 1},
		{"0x.", true, 0}, {"0x.e", true, 0.875}, {"0xAbCdEf.8P-3", true, 1407421.9375},
		{"1e-400", true, 0}, {"1.7976931348623157e308", true, math.MaxFloat64},
		{"inf", false, 0}, {"-Infinity", false, 0}, {"nan", false, 0}, {"nan(1)", false, 0},
		{"1e400", false, 0}, {"0x1p99999", false, 0}, {"1.7976931348623159e308", false, 0},
		{".", false, 0}, {"-", false, 0}, {".e5", false, 0}, {"e5", false, 0}, {"0x", false, 0}, {"0xp1", false, 0},
		{"1.2.3", false, 0}, {"1,5", false, 0}, {"1e5x", false, 0}, {"1_000", false, 0}, {"1e+-5", false, 0},
		{"00x1", false, 0}, {"1ee5", false, 0}, {"1.0f", false, 0}, {"0x1p1.5", false, 0}, {"0x.p1", false, 0},
		{"", false, 0},
	}
	for _, tt := range tests {
		v, ok := parseFloat([]byte(tt.tok))
		if ok != tt.ok || v != tt.v {
			t.Errorf("parseFloat(%q) = %v, %v; want %v, %v", tt.tok, v, ok, tt.v, tt.ok)
		}
	}
}

func TestParseDefaultArgs(t *testing.T) {
	tests := []struct {
		args []string
		want Options
	}{
		{nil, Options{}},
		{[]string{"case_sensitive", "space_change_sensitive"}, Options{"case_sensitive": "true", "space_change_sensitive": "true"}},
		{[]string{"float_tolerance", "1E-6"}, Options{"float_absolute_tolerance": "1E-6", "float_relative_tolerance": "1E-6"}},
		{[]string{"float_relative_tolerance", "1e-4", "float_absolute_tolerance", "0"},
			Options{"float_absolute_tolerance": "0", "float_relative_tolerance": "1e-4"}},
		// Later arguments win, as in problemtools (flags joined from problem.yaml and testdata.yaml).
		{[]string{"float_tolerance", "1e-6", "float_absolute_tolerance", "1e-9"},
			Options{"float_absolute_tolerance": "1e-9", "float_relative_tolerance": "1e-6"}},
	}
	for _, tt := range tests {
		got, err := ParseDefaultArgs(tt.args)
		if err != nil {
			t.Errorf("ParseDefaultArgs(%q): %v", tt.args, err)
			continue
		}
		if !equalOptions(got, tt.want) {
			t.Errorf("ParseDefaultArgs(%q) = %v, want %v", tt.args, got, tt.want)
		}
		if _, err := NewDefault(got); err != nil {
			t.Errorf("NewDefault(%v): %v", got, err)
		}
	}
}

func equalOptions(a, b Options) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

func TestParseDefaultArgsErrors(t *testing.T) {
	tests := []struct {
		args  []string
		index int
		msg   string
	}{
		{[]string{"case_sensitive", "case_insensitive"}, 1,
			`"case_insensitive": unknown flag (the default output validator takes case_sensitive, space_change_sensitive, ` +
				`float_tolerance E, float_absolute_tolerance E, float_relative_tolerance E)`},
		{[]string{"float_tolerance"}, 0, `"float_tolerance": wants a number after it`},
		{[]string{"float_tolerance", "1e-6x"}, 1, `"1e-6x": not a number (the value of float_tolerance)`},
		{[]string{"float_absolute_tolerance", "inf"}, 1, `"inf": not a number (the value of float_absolute_tolerance)`},
		{[]string{"float_relative_tolerance", "-1"}, 1, `"-1": a tolerance is at least 0 (the value of float_relative_tolerance)`},
		{[]string{"float_tolerance", "case_sensitive"}, 1, `"case_sensitive": not a number (the value of float_tolerance)`},
	}
	for _, tt := range tests {
		_, err := ParseDefaultArgs(tt.args)
		var ae *ArgError
		if !errors.As(err, &ae) {
			t.Errorf("ParseDefaultArgs(%q): got %v, want an *ArgError", tt.args, err)
			continue
		}
		if ae.Index != tt.index || err.Error() != tt.msg {
			t.Errorf("ParseDefaultArgs(%q): got %d %q, want %d %q", tt.args, ae.Index, err, tt.index, tt.msg)
		}
	}
}

func TestNewDefaultOptions(t *testing.T) {
	good := []struct {
		opts Options
		want string // the checker, printed
	}{
		{Options{"case_sensitive": ""}, "case space=false abs=- rel=-"},
		{Options{"case_sensitive": "false", "space_change_sensitive": "true"}, "nocase space=true abs=- rel=-"},
		{Options{"float_tolerance": "1e-6"}, "nocase space=false abs=1e-6 rel=1e-6"},
		{Options{"float_absolute_tolerance": "0.5"}, "nocase space=false abs=0.5 rel=-"},
		{Options{"float_relative_tolerance": "0.5", "float_absolute_tolerance": "0.25"}, "nocase space=false abs=0.25 rel=0.5"},
	}
	for _, tt := range good {
		d, err := NewDefault(tt.opts)
		if err != nil {
			t.Errorf("NewDefault(%v): %v", tt.opts, err)
			continue
		}
		if got := describe(d); got != tt.want {
			t.Errorf("NewDefault(%v) = %s, want %s", tt.opts, got, tt.want)
		}
	}
	bad := []struct {
		opts     Options
		key, msg string
	}{
		{Options{"mode": "x"}, "mode", "unknown option (this checker takes case_sensitive, space_change_sensitive, " +
			"float_tolerance, float_absolute_tolerance, float_relative_tolerance)"},
		{Options{"case_sensitive": "yes"}, "case_sensitive", `"yes": want true or false`},
		{Options{"float_tolerance": "abc"}, "float_tolerance", `"abc": not a number`},
		{Options{"float_absolute_tolerance": "-1e-6"}, "float_absolute_tolerance", `"-1e-6": a tolerance is at least 0`},
		{Options{"float_tolerance": "1e-6", "float_relative_tolerance": "1e-6"}, "float_tolerance",
			"sets both tolerances: give it alone, or float_absolute_tolerance and float_relative_tolerance"},
	}
	for _, tt := range bad {
		_, err := New("default", tt.opts)
		var oe *OptionError
		if !errors.As(err, &oe) || oe.Key != tt.key || oe.Msg != tt.msg {
			t.Errorf("New(default, %v): got %v, want an *OptionError for %s: %s", tt.opts, err, tt.key, tt.msg)
		}
	}
}

func describe(d Default) string {
	s := "nocase"
	if d.CaseSensitive {
		s = "case"
	}
	tol := func(p *float64) string {
		if p == nil {
			return "-"
		}
		return num(*p)
	}
	sp := "false"
	if d.SpaceChangeSensitive {
		sp = "true"
	}
	return s + " space=" + sp + " abs=" + tol(d.Absolute) + " rel=" + tol(d.Relative)
}

func FuzzDefault(f *testing.F) {
	f.Add([]byte("1 2.5 yes\n"), []byte("1 2.50001 YES"), uint8(0))
	f.Add([]byte("0x1p3 inf nan 1e 1e400\n"), []byte(" \v8\f"), uint8(0xff))
	f.Add([]byte(""), []byte("\x00\xff"), uint8(3))
	configs := func(bits uint8) Default {
		d := Default{CaseSensitive: bits&1 != 0, SpaceChangeSensitive: bits&2 != 0}
		tols := []float64{0, 1e-9, 1e-6, 0.5}
		if bits&4 != 0 {
			d.Absolute = &tols[bits>>4&3]
		}
		if bits&8 != 0 {
			d.Relative = &tols[bits>>6&3]
		}
		return d
	}
	f.Fuzz(func(t *testing.T, out, ans []byte, bits uint8) {
		d := configs(bits)
		// No output, however odd, makes the checker fail or panic.
		r, err := d.Check(context.Background(), Files{Output: out, Answer: ans})
		if err != nil {
			t.Fatal(err)
		}
		if r.Verdict != verdict.AC && r.Verdict != verdict.WA || r.Message == "" {
			t.Fatalf("got %v %q", r.Verdict, r.Message)
		}
		// Identical output is always accepted.
		for _, b := range [][]byte{ans, out} {
			if r, _ := d.Check(context.Background(), Files{Output: b, Answer: b}); r.Verdict != verdict.AC {
				t.Fatalf("%+v: %q is not accepted for itself: %s", d, b, r.Message)
			}
		}
	})
}
