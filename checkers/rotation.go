package checkers

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/optjudge/optjudge/reference/rotation"
)

func init() {
	register("rotation-game",
		"the rotation game (UVa 1343): per case the smallest shortest move sequence (or 'No moves needed') and the center digit",
		func(opts Options) (Checker, error) {
			if err := noOptions(opts); err != nil {
				return nil, err
			}
			return Rotation{}, nil
		})
}

// Rotation checks the rotation game. Per case the output holds two lines:
// the moves as letters A-H without spaces, or exactly "No moves needed" when
// the center is already equal; then the center's digit. The moves must make
// the center equal, be as few as possible and, among the shortest sequences,
// be the lexicographically smallest. The optimum is recomputed with package
// rotation; the answer file is ignored.
type Rotation struct{}

// Check judges one test file.
func (Rotation) Check(ctx context.Context, f Files) (Result, error) {
	boards, err := rotation.Parse(f.Input)
	if err != nil {
		return Result{}, fmt.Errorf("reading the input: %w", err)
	}
	lines := rotationLines(f.Output)
	moves := 0
	for i, b := range boards {
		if err := ctx.Err(); err != nil {
			return Result{}, fmt.Errorf("checking case %d: %w", i+1, err)
		}
		if 2*i >= len(lines) {
			return wrong("missing case %d of %d", i+1, len(boards)), nil
		}
		// An absent last line counts as an empty one.
		var line2 string
		if 2*i+1 < len(lines) {
			line2 = lines[2*i+1]
		}
		n, msg, err := checkRotationCase(i+1, b, rotation.Optimal(b), lines[2*i], line2)
		if err != nil || msg != "" {
			return wrong("%s", msg), err
		}
		moves += n
	}
	if len(lines) > 2*len(boards) {
		return wrong("unexpected output after the last case"), nil
	}
	return accepted(fmt.Sprintf("%d %s, %d %s", len(boards), rotationPlural(len(boards), "case"), moves, rotationPlural(moves, "move"))), nil
}

// rotationLines splits an output into lines, trimming spaces and tabs at both
// ends and a CR before the newline, and drops the blank lines at the end.
func rotationLines(out []byte) []string {
	lines := strings.Split(string(out), "\n")
	for i, l := range lines {
		lines[i] = strings.Trim(l, " \t\r")
	}
	for len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// checkRotationCase judges case k, board b, whose answer is want: it returns
// the number of moves, or a message saying what is wrong, or an error when
// the output beats the reference's optimum.
func checkRotationCase(k int, b rotation.Board, want rotation.Solution, line1, line2 string) (int, string, error) {
	seq, msg := parseRotationMoves(k, line1)
	if msg != "" {
		return 0, msg, nil
	}
	end := b.ApplyAll(seq)
	digit, ok := end.Solved()
	if !ok {
		c := end.Center()
		holds := strings.Trim(fmt.Sprint(c[:]), "[]")
		if len(seq) == 0 {
			return 0, fmt.Sprintf("case %d: %q, but the center holds %s", k, rotation.NoMoves, holds), nil
		}
		return 0, fmt.Sprintf("case %d: after %d %s the center holds %s", k, len(seq), rotationPlural(len(seq), "move"), holds), nil
	}
	if msg := checkRotationDigit(k, digit, line2); msg != "" {
		return 0, msg, nil
	}
	switch {
	case len(seq) < len(want.Moves):
		return 0, "", fmt.Errorf("case %d: the output %s makes the center equal in %d moves, fewer than the reference's optimum %d: the reference is wrong",
			k, seq, len(seq), len(want.Moves))
	case len(seq) > len(want.Moves) && len(want.Moves) == 0:
		return 0, fmt.Sprintf("case %d: %d %s, the optimum is 0 (%q)", k, len(seq), rotationPlural(len(seq), "move"), rotation.NoMoves), nil
	case len(seq) > len(want.Moves):
		return 0, fmt.Sprintf("case %d: %d moves, the optimum is %d", k, len(seq), len(want.Moves)), nil
	}
	for i := range seq {
		if seq[i] != want.Moves[i] {
			return 0, fmt.Sprintf("case %d: shortest, but not the smallest: yours %s, smallest %s (first difference at move %d)",
				k, seq, want.Moves, i+1), nil
		}
	}
	return len(seq), "", nil
}

// parseRotationMoves reads line 1 of case k: letters A-H, or "No moves
// needed". It returns the moves, or a message saying what is wrong.
func parseRotationMoves(k int, line string) (rotation.Sequence, string) {
	switch {
	case line == rotation.NoMoves:
		return nil, ""
	case line == "":
		return nil, fmt.Sprintf("case %d: line 1 is empty: write the moves, or %q when no move is needed", k, rotation.NoMoves)
	case strings.EqualFold(line, rotation.NoMoves):
		return nil, fmt.Sprintf("case %d: write %q exactly (letters are case-sensitive), got %s", k, rotation.NoMoves, rotationQuote(line))
	}
	if msg := rotationSpaces(k, line); msg != "" {
		return nil, msg
	}
	seq := make(rotation.Sequence, 0, len(line))
	for i := range line {
		m, ok := rotation.MoveOf(line[i])
		if !ok {
			return nil, fmt.Sprintf("case %d, move %d: %s is not a move (A-H)", k, len(seq)+1, rotationQuoteRune(line[i:]))
		}
		seq = append(seq, m)
	}
	return seq, ""
}

// rotationSpaces explains two common mistakes on line 1: the moves and the
// digit on one line, and moves separated by spaces.
func rotationSpaces(k int, line string) string {
	fields := strings.Fields(line)
	if len(fields) < 2 {
		return ""
	}
	last := fields[len(fields)-1]
	first := strings.Join(fields[:len(fields)-1], " ")
	if (last == "1" || last == "2" || last == "3") && (first == rotation.NoMoves || rotationAllMoves(first)) {
		return fmt.Sprintf("case %d: the moves and the center digit are on one line; write the digit on line 2", k)
	}
	if rotationAllMoves(line) {
		return fmt.Sprintf("case %d: line 1 has spaces between the moves; write the letters without spaces, e.g. %s",
			k, strings.Join(fields, ""))
	}
	return ""
}

// rotationAllMoves reports whether s holds only letters A-H, spaces and tabs, and at
// least one letter.
func rotationAllMoves(s string) bool {
	letters := 0
	for i := range len(s) {
		switch c := s[i]; {
		case c >= 'A' && c <= 'H':
			letters++
		case c != ' ' && c != '\t':
			return false
		}
	}
	return letters > 0
}

// checkRotationDigit checks line 2 of case k against the center's digit.
func checkRotationDigit(k int, digit uint8, line string) string {
	switch line {
	case "":
		return fmt.Sprintf("case %d: line 2 is empty, want the center digit", k)
	case "1", "2", "3":
		if line[0]-'0' != digit {
			return fmt.Sprintf("case %d: line 2 says %s, the center shows %d", k, line, digit)
		}
		return ""
	}
	return fmt.Sprintf("case %d: line 2 should be the center digit (1, 2 or 3), got %s", k, rotationQuote(line))
}

// rotationQuoteRune quotes the first character of s like 'Q', escaping anything
// unprintable and showing a byte of invalid UTF-8 as '\xff'.
func rotationQuoteRune(s string) string {
	r, size := utf8.DecodeRuneInString(s)
	if r == utf8.RuneError && size <= 1 {
		return fmt.Sprintf(`'\x%02x'`, s[0])
	}
	return strconv.QuoteRune(r)
}

// rotationQuote quotes a contestant's token, cut to about 40 bytes.
func rotationQuote(s string) string {
	if len(s) > 40 {
		return strconv.Quote(s[:40]) + "..."
	}
	return strconv.Quote(s)
}

// rotationPlural returns word, with an s unless n is 1.
func rotationPlural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}
