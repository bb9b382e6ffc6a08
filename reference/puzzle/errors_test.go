package puzzle

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// check parses and validates src as puzzle.yaml and returns the messages.
func check(src string) string {
	d, err := Parse(strings.NewReader(src), "puzzle.yaml")
	if err == nil {
		err = d.Validate()
	}
	if err == nil {
		return ""
	}
	return err.Error()
}

// swap2 is a small valid definition: two cells, a swap.
const swap2 = `symbols: [a, b]
cells: [x, y]
moves:
  - {name: s, cycles: [[x, y]]}
goal: {state: [a, b]}
`

func TestValid(t *testing.T) {
	if msg := check(swap2); msg != "" {
		t.Fatalf("got %s, want no error", msg)
	}
}

// TestBadDefinitions gives each kind of bad definition and the exact
// message it gets: file, line, field and what is wrong.
func TestBadDefinitions(t *testing.T) {
	tests := []struct{ name, src, want string }{
		{"not a permutation", `symbols: [a, b, c]
cells: [x, y, z]
moves:
  - {name: s, cycles: [[x, y], [y, z]]}
goal: {state: [a, b, c]}
`, `puzzle.yaml:4: moves[0].cycles[1][0]: cell "y" is in moves[0].cycles[0][1] already: a move must be a permutation, moving each cell at most once`},
		{"a colour misspelt", `symbols: [a, b]
cells: [x, y]
moves:
  - {name: s, cycles: [[x, y]]}
goal: {state: [a, b]}
layout: {colors: {a: blu, b: reddish}}
`, `puzzle.yaml:6: layout.colors.a: "blu" is not a colour: did you mean blue? (#rgb, #rrggbb or a CSS colour's name)
puzzle.yaml:6: layout.colors.b: "reddish": want #rgb, #rrggbb or a CSS colour's name (red, orange, gold, forestgreen, royalblue, ...)`},
		{"separator none", `symbols: [a, b]
cells: [x, y]
moves:
  - {name: s, cycles: [[x, y]]}
goal: {state: [a, b]}
output: {separator: none}
`, `puzzle.yaml:6: output.separator: "none" would be written between the moves, word for word: for moves written with nothing between them, write separator: ""`},
		{"a key misspelt", `symbols: [a, b]
cells: [x, y]
moves:
  - {name: s, cycle: [[x, y]]}
goal: {state: [a, b]}
`, `puzzle.yaml:4: moves[0].cycle: unknown key (did you mean cycles?)`},
		{"cycle names a missing cell", `symbols: [a, b]
cells: [x, y]
moves:
  - {name: s, cycles: [[x, w]]}
goal: {state: [a, b]}
`, `puzzle.yaml:4: moves[0].cycles[0][1]: "w" is not a cell`},
		{"goal outside the alphabet", `symbols: [a, b]
cells: [x, y]
moves:
  - {name: s, cycles: [[x, y]]}
goal: {state: [a, c]}
`, `puzzle.yaml:5: goal.state[1]: "c" is not a symbol (a b)`},
		{"unreachable goal: counts", `symbols: [a, b]
cells: [x, y, z]
counts: {a: 2, b: 1}
moves:
  - {name: s, cycles: [[x, y, z]]}
goal: {state: [a, b, b]}
`, `puzzle.yaml:6: goal.state: 1 cell holds "a" where 2 do: moves never change how many cells hold a symbol, so this goal cannot be reached`},
		{"unreachable goal: states of other counts", `symbols: [a, b]
cells: [x, y]
moves:
  - {name: s, cycles: [[x, y]]}
goal:
  states:
    - [a, b]
    - [a, a]
`, `puzzle.yaml:8: goal.states[1]: 2 cells hold "a" where 1 do: moves never change how many cells hold a symbol, so this goal cannot be reached`},
		{"unreachable goal: too few of any symbol", `symbols: [a, b]
cells: [w, x, y, z]
counts: {a: 2, b: 2}
moves:
  - {name: s, cycles: [[w, x, y, z]]}
goal: {same: [w, x, y]}
`, `puzzle.yaml:6: goal.same: 3 cells to fill with one symbol, but no symbol is in more than 2 cells: the goal cannot be reached`},
		{"unreachable goal: cells never move", `symbols: [a, b]
cells: [w, x, y, z]
counts: {a: 2, b: 2}
moves:
  - {name: s, cycles: [[w, x]]}
goal: {same: [y, z]}
`, `puzzle.yaml:6: goal.same: no move moves any of these cells: only a case already solved could be`},
		{"layout misses cells", `symbols: [a, b, c]
cells: [x, y, z]
moves:
  - {name: s, cycles: [[x, y, z]]}
goal: {state: [a, b, c]}
layout:
  grid: ["x .", ". z"]
`, `puzzle.yaml:7: layout.grid: misses 1 cell: y`},
		{"layout names an unknown cell", `symbols: [a, b]
cells: [x, y]
moves:
  - {name: s, cycles: [[x, y]]}
goal: {state: [a, b]}
layout:
  circle: [x, y, q]
`, `puzzle.yaml:7: layout.circle[2]: "q" is not a cell`},
		{"move of two kinds", `symbols: [a, b]
cells: [x, y]
moves:
  - {name: s, cycles: [[x, y]], add: [x]}
goal: {state: [a, b]}
`, `puzzle.yaml:4: moves[0]: give exactly one of cycles, reverse, add, slide, sequence and inverse`},
		{"move does nothing", `symbols: [a, b]
cells: [x, y]
moves:
  - {name: s, cycles: [[x, y]]}
  - {name: t, sequence: [s, s]}
goal: {state: [a, b]}
`, `puzzle.yaml:5: moves[1]: "t" does nothing`},
		{"slide without its opposite", `grid: {rows: 2, cols: 2}
symbols: [a, b, c, _]
blank: _
moves:
  - {name: u, slide: up}
goal: {state: [a, b, c, _]}
`, `puzzle.yaml:5: moves[0].slide: up without a move that slides down: every slide needs its opposite`},
		{"two blanks", `grid: {rows: 1, cols: 3}
symbols: [a, _]
blank: _
moves:
  - {name: l, slide: left}
  - {name: r, slide: right}
goal: {state: [a, _, _]}
`, `puzzle.yaml:3: blank: 2 cells hold the blank "_", want one`},
		{"ascending but not commuting", `symbols: [a, b, c]
cells: [x, y, z]
moves:
  - {name: s, cycles: [[x, y]]}
  - {name: t, cycles: [[y, z]]}
goal: {state: [a, b, c]}
output: {order: ascending}
`, `puzzle.yaml:7: output.order: ascending, but moves "s" and "t" do not commute`},
		{"same without counts", `symbols: [a, b]
cells: [x, y]
moves:
  - {name: s, cycles: [[x, y]]}
goal: {same: [x, y]}
`, `puzzle.yaml: counts: required with goal.same: how many cells hold each symbol`},
		{"several errors at once", `name: Bad Name
symbols: [a, a]
cells: [x, y]
moves:
  - {name: s, cycles: [[x, y]]}
  - {name: s, sequence: [nope]}
goal: {state: [a, b]}
mode: fastest
`, `puzzle.yaml:1: name: "Bad Name": use lower-case letters, digits and '-'
puzzle.yaml:2: symbols[1]: "a" is symbol 0 already
puzzle.yaml:6: moves[1].name: "s" is move 0 already
puzzle.yaml:6: moves[1].sequence[0]: "nope" is not a move declared before this one
puzzle.yaml:7: goal.state[1]: "b" is not a symbol (a a)
puzzle.yaml:8: mode: "fastest" is not a mode (any, shortest, smallest, at_most)`},
		{"separator and long names", `symbols: [a, b]
cells: [x, y]
moves:
  - {name: swap, cycles: [[x, y]]}
goal: {state: [a, b]}
output: {separator: ""}
`, `puzzle.yaml:4: moves[0].name: "swap": with output.separator "" every move's name is one character`},
		{"unsolvable reads as moves", `symbols: [a, b]
cells: [x, y]
moves:
  - {name: s, cycles: [[x, y]]}
goal: {state: [a, b]}
output: {unsolvable: "s s"}
`, `puzzle.yaml:6: output.unsolvable: "s s" reads as moves`},
		{"input lines do not share the tokens", `symbols: [a, b, c]
cells: [x, y, z]
moves:
  - {name: s, cycles: [[x, y, z]]}
goal: {state: [a, b, c]}
input: {lines: 2}
`, `puzzle.yaml:6: input.lines: 2: want a number of lines that shares the 3 tokens of a case equally`},
		{"terminator missing", `symbols: [a, b]
cells: [x, y]
moves:
  - {name: s, cycles: [[x, y]]}
goal: {state: [a, b]}
input: {cases: terminated}
`, `puzzle.yaml:6: input.terminator: required with cases: terminated: the text of the last line`},
		{"twist without orientation", `symbols: [a, b]
cells: [x, y]
moves:
  - {name: s, cycles: [[x, y]], twist: {x: 1}}
goal: {state: [a, b]}
`, `puzzle.yaml:4: moves[0].twist: a twist needs orientation of at least 2`},
		{"cycle across sets", `symbols: [a, b, c]
sets:
  - {name: one, cells: [x, y], orientation: 3}
  - {name: two, cells: [z]}
moves:
  - {name: s, cycles: [[x, z]]}
goal: {state: [a, b, c]}
`, `puzzle.yaml:6: moves[0].cycles[0][1]: "z" is a cell of set two, "x" of set one: a cycle stays within a set`},
		{"twist of a set without orientation", `symbols: [a, b, c, d]
sets:
  - {name: one, cells: [x, y], orientation: 3}
  - {name: two, cells: [z, w]}
moves:
  - {name: s, cycles: [[z, w]], twist: {z: 1}}
goal: {state: [a, b, c, d]}
`, `puzzle.yaml:6: moves[0].twist.z: cell "z" is of set two, whose pieces have no orientation`},
		{"cells beside sets", `symbols: [a, b]
cells: [x, y]
sets:
  - {name: one, cells: [x, y], orientation: 3}
moves:
  - {name: s, cycles: [[x, y]]}
goal: {state: [a, b]}
`, `puzzle.yaml:2: cells: not with sets: the sets give the cells and their orientations`},
		{"value not in the output", `symbols: [a, b]
cells: [x, y]
moves:
  - {name: s, cycles: [[x, y]]}
goal:
  state: [a, b]
  values: [{name: first, cell: x}]
`, `puzzle.yaml:7: goal.values[0]: "first" is not in output.lines`},
		{"sticker pieces ambiguous", `symbols: [p, q]
cells: [x, y]
orientation: 2
moves:
  - {name: s, cycles: [[x, y]], twist: {x: 1}}
goal: {state: [p, q]}
input:
  stickers:
    cells: {x: [1, 2], y: [3, 4]}
    pieces: {p: [R, G], q: [G, R]}
`, `puzzle.yaml:10: input.stickers.pieces.q: reads G R like p twisted 1: every piece and twist of a set must show other colours`},
		{"state space too large", `symbols: [a, b]
cells: [` + cellList(40) + `]
counts: {a: 20, b: 20}
moves:
  - {name: r, cycles: [[` + cellList(40) + `]]}
  - {name: s, cycles: [[c1, c2]]}
goal: {same: [c1, c2, c3]}
input: {separator: ""}
`, `puzzle.yaml:4: moves: the sets of 20 cells out of 40 are 137,846,528,820, more than the 134,217,728 a table may hold, and no pattern database applies to a goal of cells holding one symbol, whichever`},
		{"no table and no pattern database", `symbols: [a, b, c]
cells: [` + cellList(30) + `]
moves:
  - {name: r, cycles: [[` + cellList(30) + `]]}
  - {name: s, add: [c1, c2]}
goal: {state: [` + strings.Repeat("a, ", 29) + `a]}
`, `puzzle.yaml:3: moves: the puzzle has 205,891,132,094,649 states, more than the 134,217,728 a table may hold, and no pattern database applies: its moves add (the engine searches puzzles whose moves move symbols around)`},
		{"family too short", `size: {min: 2, max: 4}
cells: [1, 2, 3]
symbols: [1, 2, 3]
moves:
  - {name: "2", reverse: [1, 2]}
goal: {state: [1, 2, 3]}
`, `puzzle.yaml:1: size.max: 4, but there are 3 cells: a family is written for its largest size`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := check(tt.src); got != tt.want {
				t.Errorf("got\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

// cellList is "c1, c2, ..., cn".
func cellList(n int) string {
	var s []string
	for i := 1; i <= n; i++ {
		s = append(s, fmt.Sprintf("c%d", i))
	}
	return strings.Join(s, ", ")
}

// TestDecodeErrors covers what Parse refuses before Validate.
func TestDecodeErrors(t *testing.T) {
	tests := []struct{ name, src, want string }{
		{"unknown key", swap2 + "colour: red\n", `puzzle.yaml:6: colour: unknown key`},
		{"unknown nested key", strings.Replace(swap2, "{name: s,", "{name: s, kind: swap,", 1), `puzzle.yaml:4: moves[0].kind: unknown key`},
		{"wrong type", strings.Replace(swap2, "symbols: [a, b]", "symbols: ab", 1), `puzzle.yaml:1: symbols: got the string "ab", want a list`},
		{"wrong number", swap2 + "orientation: three\n", `puzzle.yaml:6: orientation: got the string "three", want a whole number`},
		{"key twice", swap2 + "symbols: [c]\n", `puzzle.yaml:6: symbols: given twice (first on line 1)`},
		{"null", swap2 + "orientation: !!null [1]\n", `puzzle.yaml:6: orientation[0]: got nothing, want a whole number`},
		{"wrong type on the first line", strings.Replace(swap2, "symbols: [a, b]", "symbols: {a: b}", 1), `puzzle.yaml:1: symbols: got a mapping, want a list`},
		{"empty key twice", swap2 + "layout: {colors: {\"\": red, \"\": blue}}\n", `puzzle.yaml:6: layout.colors.: given twice (first on line 6)`},
		{"empty key, wrong type", swap2 + "layout:\n  colors:\n    \"\": [1]\n", `puzzle.yaml:8: layout.colors.: got a list, want a string`},
		{"syntax", "symbols: [a\n", `puzzle.yaml:1: did not find expected ',' or ']'`},
		{"empty", "", `puzzle.yaml: empty file`},
		{"not a mapping", "- a\n", `puzzle.yaml:1: want a mapping of keys to values`},
		{"two documents", swap2 + "---\nname: x\n", `puzzle.yaml:6: more than one YAML document`},
		{"too large", "name: x\n" + strings.Repeat("#", MaxFileSize), `puzzle.yaml: larger than 1048576 bytes`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse(strings.NewReader(tt.src), "puzzle.yaml")
			var es Errors
			if !errors.As(err, &es) {
				t.Fatalf("got %v (%T), want Errors", err, err)
			}
			if err.Error() != tt.want {
				t.Errorf("got\n%s\nwant\n%s", err, tt.want)
			}
		})
	}
}

// TestCostGiven checks that a cost written as 0 is refused, not taken as
// the default.
func TestCostGiven(t *testing.T) {
	src := strings.Replace(swap2, "{name: s,", "{name: s, cost: 0,", 1)
	if got, want := check(src), `puzzle.yaml:4: moves[0].cost: 0: want 1 to 1000`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}
