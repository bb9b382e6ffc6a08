package kattis

import (
	"fmt"
	"path"
	"strings"
	"unicode/utf8"
)

// maxExpansions bounds how many patterns a brace expansion may make, so a
// hostile submissions.yaml cannot exhaust memory.
const maxExpansions = 1024

// maxGlobLength bounds a glob's length: expanding its braces scans the
// rest of the glob at each brace (n² steps for n braces), and a glob is
// expanded again for each test and submission it is matched against. A
// glob of 100000 braces took 26 s, or more than a minute as a group's
// rule; a glob names paths of a few hundred bytes at most.
const maxGlobLength = 1024

// globProblem says what is wrong with a glob: "" when nothing is.
func globProblem(glob string) string {
	if len(glob) > maxGlobLength {
		return fmt.Sprintf("the pattern is longer than %d bytes", maxGlobLength)
	}
	if _, ok := expandBraces(glob); !ok {
		return fmt.Sprintf("the pattern expands to more than %d", maxExpansions)
	}
	return ""
}

// abbreviate shortens a long glob for a message: its first 60 bytes
// (whole characters) and "...".
func abbreviate(glob string) string {
	if len(glob) <= 64 {
		return glob
	}
	cut := 60
	for cut > 0 && !utf8.RuneStart(glob[cut]) {
		cut--
	}
	return glob[:cut] + "..."
}

// expandBraces expands the brace alternatives of a glob, as
// submissions.yaml allows: "{a,b}.py" is "a.py" and "b.py", nested braces
// too; spaces around an alternative are dropped ("{ a, b }"). A brace
// without its match is literal. ok is false when the
// expansion would pass maxExpansions, or the pattern maxGlobLength.
func expandBraces(pattern string) (out []string, ok bool) {
	if len(pattern) > maxGlobLength {
		return nil, false
	}
	open := strings.IndexByte(pattern, '{')
	if open < 0 {
		return []string{pattern}, true
	}
	depth, closing := 0, -1
	var commas []int
	for i := open; i < len(pattern) && closing < 0; i++ {
		switch pattern[i] {
		case '{':
			depth++
		case '}':
			if depth--; depth == 0 {
				closing = i
			}
		case ',':
			if depth == 1 {
				commas = append(commas, i)
			}
		}
	}
	if closing < 0 {
		// An unmatched brace is literal; expand what follows it.
		rest, ok := expandBraces(pattern[open+1:])
		for i := range rest {
			rest[i] = pattern[:open+1] + rest[i]
		}
		return rest, ok
	}
	prefix, suffix := pattern[:open], pattern[closing+1:]
	bounds := append(append([]int{open}, commas...), closing)
	tails, ok := expandBraces(suffix)
	if !ok {
		return nil, false
	}
	for i := 0; i+1 < len(bounds); i++ {
		// an alternative's surrounding spaces are no part of it, as
		// BAPCtools reads a glob: "{ 4 }" is "4"
		alts, ok := expandBraces(strings.TrimSpace(pattern[bounds[i]+1 : bounds[i+1]]))
		if !ok {
			return nil, false
		}
		for _, a := range alts {
			for _, t := range tails {
				if len(out) >= maxExpansions {
					return nil, false
				}
				out = append(out, prefix+a+t)
			}
		}
	}
	return out, true
}

// globMatch says whether name, or one of the directories it is in, matches
// the glob: '*' matches within one path element, braces give
// alternatives. A pattern path.Match rejects matches nothing.
func globMatch(glob, name string) bool {
	pats, ok := expandBraces(strings.TrimSuffix(glob, "/"))
	if !ok {
		return false
	}
	for p := name; p != "." && p != "" && p != "/"; p = path.Dir(p) {
		for _, pat := range pats {
			if m, err := path.Match(pat, p); err == nil && m {
				return true
			}
		}
	}
	return false
}
