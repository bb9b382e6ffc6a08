package judging

import (
	"context"
	"strings"
	"testing"

	"github.com/optjudge/optjudge/reference/puzzle"
)

// fake returns the checker, in mode, of a shipped problem's puzzle with
// the engine's distance or smallest answer replaced, to test what the
// checker does when the reference is wrong.
func fake(t *testing.T, name string, mode puzzle.Mode, distance func(Position) (int, error), smallest func(Position) ([]int, error)) *Checker {
	t.Helper()
	c := *shipped(t, name)
	c.distance, c.smallest = distance, smallest
	return checker(t, &c, mode)
}

// TestReferenceBeaten: a valid answer shorter than the reference's optimum,
// or a reference whose smallest answer is not optimal, is the judge's
// failure, never a verdict.
func TestReferenceBeaten(t *testing.T) {
	plusOne := func(p *Puzzle) func(Position) (int, error) {
		return func(pos Position) (int, error) {
			d, err := p.at(pos.Size).solver.Distance(context.Background(), pos.State)
			return d + 4, err
		}
	}
	clocks, eight, rotation := shipped(t, "clocks"), shipped(t, "eight-puzzle"), shipped(t, "rotation-game")
	tests := []struct {
		name          string
		p             *Checker
		input, output string
		want          string
	}{
		{"clocks", fake(t, "clocks", "", plusOne(clocks), nil), "3 3 0\n2 2 2\n2 1 2\n", "4 5 8 9\n",
			"clocks: a valid answer of 4 moves solves 3 3 0 / 2 2 2 / 2 1 2, but the reference's optimum is 8: the reference is wrong"},
		{"eight-puzzle", fake(t, "eight-puzzle", puzzle.ModeSmallest, plusOne(eight), nil), "2 3 4 1 5 x 7 6 8\n", "dlurullddrurdllurdr\n",
			"eight-puzzle: case 1: a valid answer of 19 moves solves 2 3 4 / 1 5 x / 7 6 8, but the reference's optimum is 23: the reference is wrong"},
		{"rotation-game", fake(t, "rotation-game", "", plusOne(rotation), nil), "1 1 1 1 3 2 3 2 3 1 3 2 2 3 1 2 2 2 3 1 2 1 3 3\n0\n", "AC\n2\n",
			"rotation-game: case 1: a valid answer of 2 moves solves 1 1 1 1 3 2 3 2 3 1 3 2 2 3 1 2 2 2 3 1 2 1 3 3, but the reference's optimum is 6: the reference is wrong"},
		{"smallest too short", fake(t, "eight-puzzle", puzzle.ModeSmallest, nil, func(Position) ([]int, error) { return []int{0, 0}, nil }),
			"2 3 4 1 5 x 7 6 8\n", "dlurullddrurdllurdr\n",
			`eight-puzzle: case 1: the reference's smallest answer "dd" for 2 3 4 / 1 5 x / 7 6 8 does not have the optimal cost 19`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := tt.p.Check(context.Background(), []byte(tt.input), []byte(tt.output))
			if err == nil || err.Error() != tt.want {
				t.Errorf("got %+v, %v; want the error %q", r, err, tt.want)
			}
		})
	}
}

// TestValidatorMessages pins the validator's messages on the shipped
// puzzles: each names the line and column and says what is wrong in the
// puzzle's terms.
func TestValidatorMessages(t *testing.T) {
	const rot = "1 1 1 1 3 2 3 2 3 1 3 2 2 3 1 2 2 2 3 1 2 1 3 3"
	tests := []struct{ puzzle, input, want string }{
		{"clocks", "3 3 0\n2 9 2\n2 1 2\n", `2:3: dial E: "9" is out of range 0-3`},
		{"clocks", "3 3 0\n2 a 2\n2 1 2\n", `2:3: dial E: got "a", want a number 0-3`},
		{"clocks", "3 3 0\n2 2 2\n", "3: missing line 3 of 3 (dials G H I)"},
		{"clocks", "", "1: empty input, want 3 lines of 3 dials"},
		{"clocks", "3 3 0\n2 2 2\n2 1 2", "3:6: missing final newline"},
		{"clocks", "3 3 0\n2  2 2\n2 1 2\n", "2:3: two spaces in a row, want one"},
		{"clocks", " 3 3 0\n2 2 2\n2 1 2\n", "1:1: leading space"},
		{"clocks", "3 3 0 \n2 2 2\n2 1 2\n", "1:6: trailing space"},
		{"clocks", "3 3 0\r\n2 2 2\n2 1 2\n", `1:6: carriage return at the end of the line (CRLF), want \n line ends`},
		{"clocks", "3 3\n2 2 2\n2 1 2\n", "1:4: only 2 dials, want 3 (A B C)"},
		{"clocks", "3 3 0 1\n2 2 2\n2 1 2\n", `1:7: unexpected "1" after the 3 dials`},
		{"clocks", "3 3 0\n2 2 2\n2 1 2\nx\n", `4:1: unexpected line "x" after the 3 lines of 3 dials`},
		{"rotation-game", "1 1 1 1 1 1 1 1 1 2 2 2 2 2 2 2 3 3 3 3 3 3 3 3\n0\n", "1: 9 cells hold 1, want eight of each digit"},
		{"rotation-game", rot + "\n", "2: missing the final line holding 0"},
		{"rotation-game", "", "1: empty input, want the cases and a final line holding 0"},
		{"rotation-game", rot + "\n0\n1\n", "3:1: unexpected data after the final 0"},
		{"rotation-game", rot + "\n0", "2:2: missing final newline"},
		{"rotation-game", "\n0\n", "1: empty line, want 24 digits or the final 0"},
		{"rotation-game", "1 1 4 1 3 2 3 2 3 1 3 2 2 3 1 2 2 2 3 1 2 1 3 3\n0\n", `1:5: cell 2: "4" is out of range 1-3`},
		{"rotation-game", "1 1 1\n0\n", "1:6: only 3 digits, want 24"},
		{"eight-puzzle", "2 3 4 1 5 x 7 6 8\n1 2 3 4 5 6 7 8 8\n", "2:17: tile 8 appears twice (also at column 15)"},
		{"eight-puzzle", "1 2 3\n", "1:6: only 3 tiles, want 9 (4, 5, 6, 7, 8, x missing)"},
		{"eight-puzzle", "1 2 3 4 5 6 7 8 9\n", `1:17: "9" is not one of the tiles (want 1-8 or x)`},
		{"eight-puzzle", "1 2 3 4 5 6 7 8 x", "1:18: missing final newline"},
		{"eight-puzzle", "1 2 3 4\t5 6 7 8 x\n", "1:8: tab character: separate the tiles with spaces"},
		{"eight-puzzle", "1 2 3 4 5 6 7 8 x\r\n", "1:18: carriage return: lines must end with a bare newline"},
		{"eight-puzzle", "1 2 3 4 5 6 7 8 x\n\n", "2: empty line, want 9 tiles"},
		{"eight-puzzle", "", "1: empty input, want at least one case: 9 tiles"},
		{"eight-puzzle", "1 2 3 4 5 6 7 8 x 1\n", `1:19: unexpected "1" after the 9 tiles`},
	}
	for _, tt := range tests {
		err := shipped(t, tt.puzzle).Validate([]byte(tt.input))
		if err == nil || err.Error() != tt.want {
			t.Errorf("%s %q: got %v, want %s", tt.puzzle, tt.input, err, tt.want)
		}
	}
}

// TestLinesOfValues: the rotation game's answer gives the center's digit;
// its checks speak of it.
func TestLinesOfValues(t *testing.T) {
	p := shipped(t, "rotation-game")
	in := []byte("1 1 1 1 3 2 3 2 3 1 3 2 2 3 1 2 2 2 3 1 2 1 3 3\n0\n")
	for _, tt := range []struct{ out, want string }{
		{"AC\n3\n", "case 1: line 2 says 3, the center shows 2"},
		{"AC\n\n", "case 1: line 2 is empty, want the center digit"},
		{"AC\nx\n", `case 1: line 2 should be the center digit (1, 2 or 3), got "x"`},
		{"AC 2\n", "case 1: the moves and the center digit are on one line; write the digit on line 2"},
	} {
		r, err := checker(t, p, "").Check(context.Background(), in, []byte(tt.out))
		if err != nil || r.Accepted || r.Message != tt.want {
			t.Errorf("%q: got %+v, %v, want %q", tt.out, r, err, tt.want)
		}
	}
	if r, err := checker(t, p, "").Check(context.Background(), in, []byte("AC\n2\n")); err != nil || !r.Accepted || !strings.HasPrefix(r.Message, "1 case") {
		t.Errorf("the answer: got %+v, %v", r, err)
	}
}

func TestDepartureWhy(t *testing.T) {
	for _, tt := range []struct {
		d    Departure
		want string
	}{
		{Departure{Before: 0, After: 0}, "the goal was already reached, and it is a move too many (the goal is still reached after it)"},
		{Departure{Before: 0, After: 1}, "the goal was already reached, and it leads 1 move away from it"},
		{Departure{Before: 3, After: 3}, "it brings the goal no closer (3 moves from it before and after)"},
		{Departure{Before: 3, After: 4}, "it leads away from the goal (3 moves from it before, 4 after)"},
		{Departure{Before: 3, After: -1}, "it leads where the goal cannot be reached (3 moves from it before)"},
		{Departure{Before: 2, After: 5, Cost: true}, "it leads away from the goal (a cost of 2 from it before, 5 after)"},
	} {
		if got := tt.d.Why(); got != tt.want {
			t.Errorf("%+v: got %q, want %q", tt.d, got, tt.want)
		}
	}
}
