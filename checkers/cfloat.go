package checkers

import (
	"math"
	"strconv"
)

// parseFloat reports whether tok is a float token for the Kattis default
// output validator, and its value. problemtools decides with
// sscanf(tok, "%lf%10s", ...) == 1 followed by a finiteness check, so a token
// is a float when glibc's scanf reads all of it as a double:
//
//   - decimal with an optional exponent: 1, -2.5, .5, 5., 1e5, 1.5E+3;
//   - hexadecimal, as C99 allows: 0x1p-3, 0x1.8, 0XAB.CP2;
//   - a dangling exponent is read and ignored: 1e and 1e+ are 1, 0x1p is 1;
//   - never inf, infinity or nan, and never a value out of range (1e400):
//     those read as infinite or not a number, which the validator rejects.
//
// The 2025-09 format's grammar allows only the decimal forms; every one of
// them is a float here too.
func parseFloat(tok []byte) (float64, bool) {
	n, hex, ok := scanfFloat(tok)
	if !ok || n != len(tok) {
		return 0, false // scanf failed, or left characters for %10s
	}
	s, ok := strtodPrefix(tok, hex)
	if !ok {
		return 0, false
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(v, 0) { // out of range: strtod's inf
		return 0, false
	}
	return v, true
}

// scanfFloat returns how many bytes of b glibc's scanf %lf collects before it
// hands them to strtod, whether they are hexadecimal, and false when the
// conversion fails outright (nothing collected, or only "0x"). A token that
// starts with n or i after the sign is nan or inf, or fails: never a float,
// so it is reported as a failure.
func scanfFloat(b []byte) (n int, hex bool, ok bool) {
	i := 0
	if i < len(b) && (b[i] == '+' || b[i] == '-') {
		i++
	}
	sign := i
	if i < len(b) && (lower(b[i]) == 'n' || lower(b[i]) == 'i') {
		return 0, false, false
	}
	digit, gotE, gotDot := false, false, false
	exp := byte('e')
	if i < len(b) && b[i] == '0' {
		i++
		digit = true
		if i < len(b) && lower(b[i]) == 'x' {
			i++
			hex, digit, exp = true, false, 'p'
		}
	}
	for ; i < len(b); i++ {
		c := b[i]
		switch {
		case '0' <= c && c <= '9':
			digit = true
		case !gotE && hex && isHexLetter(c):
			digit = true
		case gotE && lower(b[i-1]) == exp && (c == '+' || c == '-'):
		case digit && !gotE && lower(c) == exp:
			gotE, gotDot = true, true
		case !gotDot && c == '.':
			gotDot = true
		default:
			return i, hex, i > sign && !(hex && i == sign+2)
		}
	}
	return i, hex, i > sign && !(hex && i == sign+2)
}

// strtodPrefix returns the longest prefix of b that C's strtod converts,
// rewritten for strconv.ParseFloat (which wants a p exponent on hexadecimal
// numbers), and false when strtod converts nothing.
func strtodPrefix(b []byte, hex bool) (string, bool) {
	i := 0
	if i < len(b) && (b[i] == '+' || b[i] == '-') {
		i++
	}
	sign := string(b[:i])
	if hex {
		i += 2 // "0x", which scanfFloat saw
	}
	isDigit := func(c byte) bool { return '0' <= c && c <= '9' || hex && isHexLetter(c) }
	start, digits := i, 0
	for ; i < len(b) && isDigit(b[i]); i++ {
		digits++
	}
	if i < len(b) && b[i] == '.' {
		for i++; i < len(b) && isDigit(b[i]); i++ {
			digits++
		}
	}
	if digits == 0 {
		if hex {
			return sign + "0", true // strtod reads the "0" of "0x"
		}
		return "", false
	}
	mant := string(b[start:i])
	exp := "p0"
	if hex {
		mant = "0x" + mant
	} else {
		exp = ""
	}
	if e := exponent(b[i:], hex); e != "" {
		exp = e
	}
	return sign + mant + exp, true
}

// exponent returns the exponent that starts b ("e-5", "p3"), or "" when b
// does not start with a complete one.
func exponent(b []byte, hex bool) string {
	want := byte('e')
	if hex {
		want = 'p'
	}
	if len(b) == 0 || lower(b[0]) != want {
		return ""
	}
	i := 1
	if i < len(b) && (b[i] == '+' || b[i] == '-') {
		i++
	}
	j := i
	for j < len(b) && '0' <= b[j] && b[j] <= '9' {
		j++
	}
	if j == i {
		return ""
	}
	return string(b[:j])
}

func lower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

func isHexLetter(c byte) bool { return 'a' <= lower(c) && lower(c) <= 'f' }
