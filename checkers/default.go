package checkers

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
)

func init() {
	register("default",
		"the Kattis default output validator: tokens equal up to ASCII case, any whitespace between them; "+
			"options case_sensitive, space_change_sensitive, float_tolerance, float_absolute_tolerance, float_relative_tolerance",
		func(opts Options) (Checker, error) { return NewDefault(opts) })
}

// Default is the default output validator of the Kattis problem package
// format, with the semantics of problemtools' default_validator.cc:
//
//   - The output and the answer are split into tokens at runs of the six
//     ASCII whitespace bytes (space, \t, \n, \v, \f, \r), and the tokens are
//     compared in order; there must be as many in the output as in the answer.
//   - Tokens are equal when they are equal up to ASCII case (A-Z against
//     a-z, every other byte exactly), or byte for byte with CaseSensitive.
//   - With SpaceChangeSensitive, every run of whitespace in the output,
//     leading and trailing ones included, must equal the answer's byte for
//     byte.
//   - With a float tolerance (Absolute or Relative not nil), an answer token
//     that is a float (see parseFloat: decimal or C99 hexadecimal, never inf
//     or nan; integers too) is compared as a number: the output's token must
//     be a float a with |got-a| <= Absolute or |got-a| <= Relative*|a|
//     (either one suffices). Other answer tokens are compared as strings.
//
// The zero value is the validator without flags.
type Default struct {
	CaseSensitive        bool
	SpaceChangeSensitive bool
	Absolute             *float64 // float_absolute_tolerance; nil when not set
	Relative             *float64 // float_relative_tolerance; nil when not set
}

// Option names of the default checker, as the Kattis flags are spelled.
const (
	optCase     = "case_sensitive"
	optSpace    = "space_change_sensitive"
	optFloat    = "float_tolerance"
	optAbsolute = "float_absolute_tolerance"
	optRelative = "float_relative_tolerance"
)

// NewDefault returns the default checker for the options of problem.yaml:
// case_sensitive and space_change_sensitive ("true", "" or "false"),
// float_absolute_tolerance and float_relative_tolerance (a number >= 0), and
// float_tolerance, which sets both and so goes alone.
func NewDefault(opts Options) (Default, error) {
	var d Default
	keys := make([]string, 0, len(opts))
	for k := range opts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if err := d.set(k, opts[k]); err != nil {
			return Default{}, err
		}
	}
	if _, ok := opts[optFloat]; ok {
		_, abs := opts[optAbsolute]
		_, rel := opts[optRelative]
		if abs || rel {
			return Default{}, &OptionError{Key: optFloat,
				Msg: "sets both tolerances: give it alone, or float_absolute_tolerance and float_relative_tolerance"}
		}
	}
	return d, nil
}

func (d *Default) set(k, v string) error {
	var err error
	switch k {
	case optCase:
		d.CaseSensitive, err = optionBool(k, v)
	case optSpace:
		d.SpaceChangeSensitive, err = optionBool(k, v)
	case optFloat, optAbsolute, optRelative:
		var t float64
		if t, err = tolerance(v); err != nil {
			return &OptionError{Key: k, Msg: fmt.Sprintf("%q: %v", v, err)}
		}
		if k != optRelative {
			d.Absolute = &t
		}
		if k != optAbsolute {
			d.Relative = &t
		}
	default:
		err = &OptionError{Key: k, Msg: "unknown option (this checker takes " +
			strings.Join([]string{optCase, optSpace, optFloat, optAbsolute, optRelative}, ", ") + ")"}
	}
	return err
}

func optionBool(k, v string) (bool, error) {
	switch v {
	case "", "true":
		return true, nil
	case "false":
		return false, nil
	}
	return false, &OptionError{Key: k, Msg: fmt.Sprintf("%q: want true or false", v)}
}

// tolerance parses a tolerance as problemtools does (a float token), and
// refuses what it would take silently: a negative number, which turns the
// tolerance off there.
func tolerance(s string) (float64, error) {
	t, ok := parseFloat([]byte(s))
	if !ok {
		return 0, errors.New("not a number")
	}
	if t < 0 {
		return 0, errors.New("a tolerance is at least 0")
	}
	return t, nil
}

// UsesAnswer is true: the answer file is what Default compares with.
func (Default) UsesAnswer() bool { return true }

func (d Default) floats() bool { return d.Absolute != nil || d.Relative != nil }

// Check compares f.Output with f.Answer token by token.
func (d Default) Check(_ context.Context, f Files) (Result, error) {
	if f.Answer == nil {
		return Result{}, errors.New("default: no answer file")
	}
	out, ans := cursor{b: f.Output, line: 1}, cursor{b: f.Answer, line: 1}
	n := 1
	for ; ; n++ {
		line := out.line
		gotSpace, wantSpace := out.space(), ans.space()
		want := ans.token()
		if d.SpaceChangeSensitive && !bytes.Equal(gotSpace, wantSpace) {
			return spaceChange(n, line, len(want) == 0, gotSpace, wantSpace), nil
		}
		if len(want) == 0 {
			break
		}
		line = out.line
		got := out.token()
		if len(got) == 0 {
			return short(f.Output, n, want, ans), nil
		}
		if msg, ok := d.compare(got, want); !ok {
			return wrong("token %d (line %d): %s", n, line, msg), nil
		}
	}
	if line, extra := out.line, out.token(); len(extra) > 0 {
		return wrong("unexpected output after the last expected token: %s (token %d, line %d)", quote(extra), n, line), nil
	}
	return accepted(fmt.Sprintf("%d tokens", n-1)), nil
}

// short explains an output that ends before the answer's n-th token, want.
func short(out []byte, n int, want []byte, rest cursor) Result {
	total := n
	for rest.space(); len(rest.token()) > 0; rest.space() {
		total++
	}
	switch {
	case n > 1:
		return wrong("output ends after %d tokens; expected %d (next: %s)", n-1, total, quote(want))
	case len(out) == 0:
		return wrong("output is empty; expected %d tokens (first: %s)", total, quote(want))
	}
	return wrong("output has only whitespace; expected %d tokens (first: %s)", total, quote(want))
}

func spaceChange(n, line int, end bool, got, want []byte) Result {
	where := fmt.Sprintf("before token %d", n)
	if end && n > 1 {
		where = "after the last token"
	} else if end {
		where = "of an answer without tokens"
	}
	return wrong("whitespace %s (line %d): got %s, want %s (space_change_sensitive)", where, line, quote(got), quote(want))
}

// compare compares one token of the output with the answer's, and explains
// a difference.
func (d Default) compare(got, want []byte) (string, bool) {
	if d.floats() {
		if a, ok := parseFloat(want); ok {
			return d.compareFloat(got, want, a)
		}
	}
	if bytes.Equal(got, want) || !d.CaseSensitive && equalASCIIFold(got, want) {
		return "", true
	}
	msg := fmt.Sprintf("got %s, want %s", quote(got), quote(want))
	if equalASCIIFold(got, want) {
		msg += " (the case differs, and case_sensitive is set)"
	}
	return msg, false
}

func (d Default) compareFloat(got, want []byte, a float64) (string, bool) {
	g, ok := parseFloat(got)
	if !ok {
		hint := ""
		if t := bytes.ToLower(bytes.TrimLeft(got, "+-")); bytes.HasPrefix(t, []byte("inf")) || bytes.HasPrefix(t, []byte("nan")) {
			hint = "; inf and nan are not numbers here"
		}
		return fmt.Sprintf("got %s, want a number (the answer is %s%s)", quote(got), clip(want), hint), false
	}
	diff := math.Abs(a - g)
	if d.Absolute != nil && diff <= *d.Absolute || d.Relative != nil && diff <= *d.Relative*math.Abs(a) {
		return "", true
	}
	return fmt.Sprintf("got %s, want %s: %s", clip(got), clip(want), d.excess(diff, a)), false
}

// excess says by how much a number misses the tolerances.
func (d Default) excess(diff, a float64) string {
	abs := "absolute error " + num(diff)
	switch {
	case d.Relative == nil:
		return abs + " over the " + num(*d.Absolute) + " tolerance"
	case a == 0 && d.Absolute == nil:
		return abs + "; with only a relative tolerance, an answer of 0 takes exactly 0"
	case a == 0:
		return abs + " over the " + num(*d.Absolute) + " absolute tolerance (relative error is undefined for an answer of 0)"
	}
	rel := "relative error " + num(diff/math.Abs(a))
	switch {
	case d.Absolute == nil:
		return rel + " over the " + num(*d.Relative) + " tolerance"
	case *d.Absolute == *d.Relative:
		return abs + " and " + rel + ", both over the " + num(*d.Absolute) + " tolerance"
	}
	return abs + " over the " + num(*d.Absolute) + " absolute tolerance and " +
		rel + " over the " + num(*d.Relative) + " relative tolerance"
}

// num shows an error or a tolerance to three digits: 1e-7, 2.5e-5, 0.125.
func num(x float64) string {
	s := strconv.FormatFloat(x, 'g', 3, 64)
	mant, exp, ok := strings.Cut(s, "e")
	if !ok {
		return s
	}
	sign := ""
	if exp[0] == '-' {
		sign = "-"
	}
	return mant + "e" + sign + strings.TrimLeft(exp[1:], "0")
}

// clip shows a number token as it was written, cut to 40 bytes.
func clip(b []byte) string {
	if len(b) > 40 {
		return string(b[:40]) + "..."
	}
	return string(b)
}

func equalASCIIFold(a, b []byte) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if lower(a[i]) != lower(b[i]) {
			return false
		}
	}
	return true
}

// cursor walks a file as the default validator reads it: runs of ASCII
// whitespace and the tokens between them, counting lines.
type cursor struct {
	b    []byte
	i    int
	line int
}

func (c *cursor) space() []byte {
	start := c.i
	for c.i < len(c.b) && isSpace(c.b[c.i]) {
		if c.b[c.i] == '\n' {
			c.line++
		}
		c.i++
	}
	return c.b[start:c.i]
}

// token returns the token at the cursor, empty at the end or on whitespace.
func (c *cursor) token() []byte {
	start := c.i
	for c.i < len(c.b) && !isSpace(c.b[c.i]) {
		c.i++
	}
	return c.b[start:c.i]
}

// isSpace is C's isspace in the C locale.
func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
}

// ArgError is a bad argument for the default output validator, the Index-th
// (from 0) of the list given to ParseDefaultArgs.
type ArgError struct {
	Index int
	Arg   string
	Msg   string
}

func (e *ArgError) Error() string { return fmt.Sprintf("%q: %s", e.Arg, e.Msg) }

// ParseDefaultArgs turns the arguments of the Kattis default output
// validator into the default checker's Options: the words of a legacy
// problem.yaml's validator_flags ("float_tolerance 1e-6 case_sensitive") or
// of a testdata.yaml's output_validator_flags, or the 2025-09 list
// output_validator_args ([float_tolerance, "1E-6"]).
//
// As in problemtools, the arguments apply in order: float_tolerance E sets
// both tolerances, and a later tolerance replaces an earlier one, so lists
// from several places can be joined. The Options name the two tolerances
// separately (float_absolute_tolerance, float_relative_tolerance), never
// float_tolerance. An unknown flag, a missing number or one that is not a
// number >= 0 is an *ArgError.
func ParseDefaultArgs(args []string) (Options, error) {
	opts := Options{}
	for i := 0; i < len(args); i++ {
		switch a := args[i]; a {
		case optCase, optSpace:
			opts[a] = "true"
		case optFloat, optAbsolute, optRelative:
			if i+1 == len(args) {
				return nil, &ArgError{Index: i, Arg: a, Msg: "wants a number after it"}
			}
			i++
			if _, err := tolerance(args[i]); err != nil {
				return nil, &ArgError{Index: i, Arg: args[i], Msg: fmt.Sprintf("%v (the value of %s)", err, a)}
			}
			if a != optRelative {
				opts[optAbsolute] = args[i]
			}
			if a != optAbsolute {
				opts[optRelative] = args[i]
			}
		default:
			return nil, &ArgError{Index: i, Arg: a, Msg: "unknown flag (the default output validator takes case_sensitive, " +
				"space_change_sensitive, float_tolerance E, float_absolute_tolerance E, float_relative_tolerance E)"}
		}
	}
	return opts, nil
}

// DefaultArgs are the default output validator's flags that give it the
// options opts, as a package's output_validator_args spell them: what
// ParseDefaultArgs reads back to opts.
func DefaultArgs(opts Options) ([]string, error) {
	if _, err := New("default", opts); err != nil {
		return nil, err
	}
	var args []string
	for _, k := range []string{optCase, optSpace} {
		if v, ok := opts[k]; ok {
			if on, _ := optionBool(k, v); on {
				args = append(args, k)
			}
		}
	}
	abs, hasAbs := opts[optAbsolute]
	rel, hasRel := opts[optRelative]
	if v, ok := opts[optFloat]; ok || hasAbs && hasRel && abs == rel {
		if !ok {
			v = abs
		}
		return append(args, optFloat, v), nil
	}
	if hasAbs {
		args = append(args, optAbsolute, abs)
	}
	if hasRel {
		args = append(args, optRelative, rel)
	}
	return args, nil
}
