package watch

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// diffLine is one line of a diff: Op is ' ' for a line both sides share,
// '-' for an expected line the output lacks, '+' for an output line not
// expected.
type diffLine struct {
	Op   byte
	Text string
}

// diffContext is how many equal lines a diff shows before the first
// difference.
const diffContext = 2

// diff compares the expected and the received output line by line around
// their first difference: a few equal lines before it, then a longest
// common subsequence diff of the next lines of each side, at most max lines
// in all. It returns nil when the two are equal.
func diff(want, got []byte, max int) []diffLine {
	w, g := splitLines(want), splitLines(got)
	first := 0
	for first < len(w) && first < len(g) && w[first] == g[first] {
		first++
	}
	if first == len(w) && first == len(g) {
		return nil
	}
	start := first - min(first, diffContext)
	// Lines far past the first difference would be cut anyway; the window
	// keeps the quadratic LCS small whatever the outputs' size.
	window := max + diffContext
	w, g = w[start:min(len(w), start+window)], g[start:min(len(g), start+window)]
	lines := lcsDiff(w, g)
	if len(lines) > max {
		lines = lines[:max]
	}
	return lines
}

// splitLines splits b into lines; a final newline ends the last line and
// does not start another.
func splitLines(b []byte) []string {
	if len(b) == 0 {
		return nil
	}
	s := strings.TrimSuffix(string(b), "\n")
	return strings.Split(s, "\n")
}

// lcsDiff is the textbook diff by a longest common subsequence table.
func lcsDiff(a, b []string) []diffLine {
	n, m := len(a), len(b)
	// l[i][j] is the LCS length of a[i:] and b[j:].
	l := make([][]int, n+1)
	for i := range l {
		l[i] = make([]int, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if a[i] == b[j] {
				l[i][j] = l[i+1][j+1] + 1
			} else {
				l[i][j] = max(l[i+1][j], l[i][j+1])
			}
		}
	}
	var out []diffLine
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && a[i] == b[j]:
			out = append(out, diffLine{' ', a[i]})
			i++
			j++
		case j == m || (i < n && l[i+1][j] >= l[i][j+1]):
			out = append(out, diffLine{'-', a[i]})
			i++
		default:
			out = append(out, diffLine{'+', b[j]})
			j++
		}
	}
	return out
}

// printable shows a line of a file readably in at most width bytes: control
// characters, invalid UTF-8 and trailing blanks escaped, so garbage cannot
// upset the terminal and invisible differences become visible.
func printable(s string, width int) string {
	trimmed := strings.TrimRight(s, " \t")
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			b.WriteString(`\x` + strconv.FormatUint(uint64(s[i])|0x100, 16)[1:])
		case i >= len(trimmed) && r == ' ':
			b.WriteString("␣")
		case r == '\t':
			b.WriteString(`\t`)
		case !unicode.IsPrint(r) && r != ' ':
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteRune(r)
		}
		i += size
		if b.Len() > width {
			break
		}
	}
	out := b.String()
	if len(out) > width {
		out = out[:width]
		for !utf8.ValidString(out) {
			out = out[:len(out)-1]
		}
		out += "..."
	}
	return out
}
