package explain

import (
	"strings"
	"testing"

	"github.com/optjudge/optjudge/reference/puzzle"
	"github.com/optjudge/optjudge/reference/puzzle/judging"
)

// walledRobots is a puzzle with a grid part (the walls) and a part of
// pieces on a board of the same size, one line a case: the walls row by
// row, then each robot's row and column. Its rules are the least there
// can be: nothing moves.
const walledRobots = `name: walled-robots
parts:
  - {name: walls, grid: {rows: 3, cols: 3}, symbols: [".", "#"]}
  - {name: robots, pieces: [R, G], grid: {rows: 3, cols: 3}}
rules:
  code: |
    MOVES = ["x"]
    def successors(s):
        return []
    def goal(s):
        return s.robots["R"] == (2, 2)
input: {cases: until_eof}
output: {unsolvable: impossible}
layout:
  colors: {R: "#d9342b"}
`

func walledPuzzle(t *testing.T, text string) *judging.Puzzle {
	t.Helper()
	d, err := puzzle.Parse(strings.NewReader(text), "walled.yaml")
	if err == nil {
		err = d.Validate()
	}
	if err != nil {
		t.Fatal(err)
	}
	p, err := judging.New(d, judging.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestPiecesDrawn draws robots on their board: over the walls' grid
// where there is one of the board's size, on empty squares where not, and
// in SVG as discs of their colours.
func TestPiecesDrawn(t *testing.T) {
	tests := []struct {
		name, text, input, want string
	}{
		{"over the walls", walledRobots, ". . # . # . . . . 1 1 3 2\n", `
	 R  .  #
	 .  #  .
	 .  G  .
	`},
		{"no walls", strings.Replace(strings.Replace(walledRobots, "  - {name: walls, grid: {rows: 3, cols: 3}, symbols: [\".\", \"#\"]}\n", "", 1), "grid: {rows: 3, cols: 3}}", "grid: {rows: 2, cols: 4}}", 1), "2 4 1 1\n", `
	 G  .  .  .
	 .  .  .  R
	`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := walledPuzzle(t, tt.text)
			cases, err := p.Cases([]byte(tt.input))
			if err != nil {
				t.Fatal(err)
			}
			pos := positionOf(p, cases[0].Position)
			if got := pos.Text(); got != dedent(tt.want) {
				t.Errorf("got\n%s\nwant\n%s", got, dedent(tt.want))
			}
			svg := Cases(p, []byte(tt.input))[0].SVG()
			for _, want := range []string{`fill="#d9342b" stroke="#111"/>`, `font-size="13">R</text>`, `font-size="13">G</text>`} {
				if !strings.Contains(svg, want) {
					t.Errorf("the SVG lacks %s:\n%s", want, svg)
				}
			}
		})
	}
}
