package puzzle

import (
	"slices"
	"strings"
	"testing"
	"testing/fstest"
)

// twsParse reads a puzzle.yaml naming t.tws, both given as text.
func twsParse(yaml, tws string) (*Definition, error) {
	fsys := fstest.MapFS{"d/puzzle.yaml": {Data: []byte(yaml)}, "d/t.tws": {Data: []byte(tws)}}
	d, err := ParseFS(fsys, "d/puzzle.yaml", "d/puzzle.yaml")
	if err != nil {
		return nil, err
	}
	return d, d.Validate()
}

// twsSmall is a puzzle of two sets: a 3-cycle with twists and a swap.
const twsSmall = `# comment
Name small
Set A 3 3
Set B 2 1
Solved
A
1 2 3
End
Move X
A
2 3 1
1 0 2
End
Move Y
B
2 1
End
MoveSequence Z X Y
`

func TestTwsRead(t *testing.T) {
	d, err := twsParse("tws: {file: t.tws}\n", twsSmall)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, m := range d.Moves {
		names = append(names, m.Name)
	}
	// X has order 3 with its twists (1+0+2 = 3), Y order 2, Z = X Y order 6.
	if want := []string{"X", "X'", "Y", "Z", "Z2", "Z3", "Z2'", "Z'"}; !slices.Equal(names, want) {
		t.Errorf("moves %v, want %v", names, want)
	}
	if want := []string{"A.1", "A.2", "A.3", "B.1", "B.2"}; !slices.Equal(d.cellNames(), want) {
		t.Errorf("cells %v, want %v", d.cellNames(), want)
	}
	// The content of A.2 lands in A.1 (pull form), so A.1 goes to A.3.
	// ksolve gives a move's twists per piece: piece 1's (1) travels with
	// it to A.3, piece 2's (0) to A.1, piece 3's (2) to A.2.
	x := d.Moves[0]
	if !slices.Equal(x.Cycles[0], []string{"A.1", "A.3", "A.2"}) || x.Twist["A.1"] != 0 || x.Twist["A.3"] != 1 || x.Twist["A.2"] != 2 {
		t.Errorf("X: %v %v", x.Cycles, x.Twist)
	}
	d, err = twsParse("tws: {file: t.tws, moves: [Y, X]}\n", twsSmall)
	if err != nil || len(d.Moves) != 2 || d.Moves[0].Name != "Y" {
		t.Errorf("moves [Y, X]: %v", err)
	}
}

func TestTwsErrors(t *testing.T) {
	head := "Set A 3 3\nSolved\nA\n1 2 3\nEnd\n"
	tests := []struct{ yaml, tws, want string }{
		{"tws: {file: t.tws}\n", head + "Move X\nA\n1 1 2\nEnd\n", "d/t.tws:8: set A: not a permutation (1 twice)"},
		{"tws: {file: t.tws}\n", head + "Move X\nC\n1 2 3\nEnd\n", `d/t.tws:7: "C": want the name of a set, or End`},
		{"tws: {file: t.tws}\n", head + "Move X\nA\n2 3 1\n", "d/t.tws:8: no End"},
		{"tws: {file: t.tws}\n", head + "Move X\nA\n2 3 1\n0 0 3\nEnd\n", `d/t.tws:9: set A: "3": want a number from 0 to 2`},
		{"tws: {file: t.tws}\n", head + "MoveAlias X Y\n", "d/t.tws:6: MoveAlias: not supported"},
		{"tws: {file: t.tws}\n", "Set A 3 3\nSolved\nA\n1 ? 3\nEnd\n", "d/t.tws:4: wildcards (?) are not supported"},
		{"tws: {file: t.tws}\n", "Set A 2 3\nSolved\nA\n1 2\n1 0\nEnd\nMove X\nA\n2 1\nEnd\n", "d/t.tws:2: Solved: set A has an orientation other than 0: not supported"},
		{"tws: {file: t.tws}\n", head + "Move X\nA\n1 2 3\nEnd\n", "d/t.tws:6: move X does nothing"},
		{"tws: {file: t.tws}\n", head + "MoveSequence X Y\n", "d/t.tws:6: MoveSequence X: names a move that is not defined"},
		{"tws: {file: t.tws, moves: [Q]}\n", head + "Move X\nA\n2 3 1\nEnd\n", `d/puzzle.yaml:1: tws.moves: "Q" is not a move of d/t.tws (X X')`},
		{"cells: [a]\ntws: {file: t.tws}\n", head, "d/puzzle.yaml:1: cells: not with tws: the twsearch file gives the puzzle"},
		{"tws: {file: ../t.tws}\n", head, `d/puzzle.yaml:1: tws.file: "../t.tws": want the name of a file beside puzzle.yaml`},
	}
	for _, tt := range tests {
		_, err := twsParse(tt.yaml, tt.tws)
		if err == nil || err.Error() != tt.want {
			t.Errorf("%q: got %v, want %s", tt.tws, err, tt.want)
		}
	}
	// Parse alone cannot read the file beside.
	d, err := Parse(strings.NewReader("tws: {file: t.tws}\n"), "puzzle.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Validate(); err == nil {
		t.Error("a tws definition validated without its file")
	}
}
