package eightpuzzle

import (
	"errors"
	"testing"

	"github.com/optjudge/optjudge/reference/lex"
)

func TestSolve(t *testing.T) {
	tests := []struct {
		name, input, want string
	}{
		{"sample", "2  3  4  1  5  x  7  6  8\n", "dlurullddrurdllurdr\n"},
		{"solved", "1 2 3 4 5 6 7 8 x\n", "\n"},
		{"unsolvable", "1 2 3 4 5 6 8 7 x\n", "unsolvable\n"},
		{"one move", "1 2 3 4 5 6 7 x 8\n", "r\n"},
		// Both l (to 1 2 3 / x 4 6 / 7 5 8) and d (to 1 2 3 / 4 5 6 / 7 x 8)
		// lead two moves to the goal here; d is the smaller letter.
		{"tie", "1 2 3 4 x 6 7 5 8\n", "dr\n"},
		{"deepest", "8 6 7 2 5 4 3 x 1\n6 4 7 8 5 x 3 2 1\n",
			"lurdrulurdlldrrululddruulddrurd\n" + "dllurrdllururddluulddruurdlldrr\n"},
		{"mixed", "1 2 3 4 5 6 7 8 x\n1 2 3 4 5 6 8 7 x\n1 2 3 4 5 6 7 x 8\n1 2 3 4 5 6 7 8 x\n",
			"\nunsolvable\nr\n\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Solve([]byte(tt.input))
			if err != nil {
				t.Fatalf("Solve(%q): %v", tt.input, err)
			}
			if string(got) != tt.want {
				t.Errorf("Solve(%q) = %q, want %q", tt.input, got, tt.want)
			}
		})
	}
}

func TestSolveInvalid(t *testing.T) {
	_, err := Solve([]byte("1 2 3 4 5 6 7 8 x\n1 2 3\n"))
	var le *lex.Error
	if !errors.As(err, &le) || le.Line != 2 {
		t.Errorf("Solve of a bad line 2 gave %v, want a *lex.Error on line 2", err)
	}
}
