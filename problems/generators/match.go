package generators

import (
	"fmt"
	"regexp"
	"strings"
)

// A Pattern is a match: pattern compiled. BAPCtools compiles them with
// Python's re (MULTILINE, DOTALL); Go's regexp has no look-around, so a
// pattern that starts with look-aheads at the start of the text,
// \A(?!X)Y or \A(?=X)Y (as setters write "no line is ..."), is matched as
// its parts (and \Z as Go's \z): Y from the start, and X from the start must (?=) or must not
// (?!) match too.
type Pattern struct {
	rest     *regexp.Regexp
	ahead    []*regexp.Regexp
	negative []bool
}

// maxPatternLength bounds a match: pattern. Go's regexp takes time in
// proportion to the pattern's length times the text's: a pattern of 100 KB
// took 7 s on an input of 2 MB, for each test of the entry. A pattern
// that checks a file's shape is a line or two.
const maxPatternLength = 1024

// CompilePattern compiles a match: pattern; the error says what Go's
// regexp cannot do.
func CompilePattern(pat string) (*Pattern, error) {
	p := &Pattern{}
	s := pythonEscapes(pat)
	for {
		anchor, body, ok := lookAhead(s)
		if !ok {
			break
		}
		x := body[3:]
		end := closing(x)
		if end < 0 {
			break
		}
		re, err := regexp.Compile(`(?ms)\A(?:` + x[:end] + `)`)
		if err != nil {
			return nil, err
		}
		p.ahead = append(p.ahead, re)
		p.negative = append(p.negative, body[2] == '!')
		s = anchor + x[end+1:]
	}
	re, err := regexp.Compile("(?ms)" + s)
	if err != nil {
		if len(p.ahead) > 0 {
			return nil, err
		}
		if strings.Contains(pat, "(?") {
			return nil, fmt.Errorf("%v (Go's regexp has no look-around or back-references; a look-ahead is read only at the start, \\A(?!...) or \\A(?=...))", err)
		}
		return nil, err
	}
	p.rest = re
	return p, nil
}

// pythonEscapes writes Python's \Z (the end of the text) as Go's \z.
func pythonEscapes(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			if s[i+1] == 'Z' {
				b.WriteString(`\z`)
			} else {
				b.WriteString(s[i : i+2])
			}
			i++
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// lookAhead splits s = \A(?!... or \A(?=... into the anchor and the rest.
func lookAhead(s string) (anchor, rest string, ok bool) {
	if !strings.HasPrefix(s, `\A`) {
		return "", "", false
	}
	rest = s[2:]
	if !strings.HasPrefix(rest, "(?!") && !strings.HasPrefix(rest, "(?=") {
		return "", "", false
	}
	return `\A`, rest, true
}

// closing is the index of the parenthesis closing the group whose body s
// starts, escapes and character classes skipped; -1 if none.
func closing(s string) int {
	depth, class := 0, false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\\':
			i++
		case class:
			class = c != ']'
		case c == '[':
			class = true
			if i+1 < len(s) && s[i+1] == ']' {
				i++
			}
		case c == '(':
			depth++
		case c == ')':
			if depth == 0 {
				return i
			}
			depth--
		}
	}
	return -1
}

// Match says whether b matches the pattern (anywhere, as re.search).
func (p *Pattern) Match(b []byte) bool {
	for i, re := range p.ahead {
		if re.Match(b) == p.negative[i] {
			return false
		}
	}
	return p.rest.Match(b)
}
