package eightpuzzle

import "testing"

func TestApply(t *testing.T) {
	// 1 2 3 / 4 x 5 / 6 7 8: the blank in the middle can go anywhere.
	mid := Board{1, 2, 3, 4, 0, 5, 6, 7, 8}
	corner := Goal() // blank at the bottom right
	tests := []struct {
		name string
		b    Board
		m    Move
		want Board
		ok   bool
	}{
		{"middle up", mid, Up, Board{1, 0, 3, 4, 2, 5, 6, 7, 8}, true},
		{"middle down", mid, Down, Board{1, 2, 3, 4, 7, 5, 6, 0, 8}, true},
		{"middle left", mid, Left, Board{1, 2, 3, 0, 4, 5, 6, 7, 8}, true},
		{"middle right", mid, Right, Board{1, 2, 3, 4, 5, 0, 6, 7, 8}, true},
		{"corner up", corner, Up, Board{1, 2, 3, 4, 5, 0, 7, 8, 6}, true},
		{"corner left", corner, Left, Board{1, 2, 3, 4, 5, 6, 7, 0, 8}, true},
		{"corner down", corner, Down, corner, false},
		{"corner right", corner, Right, corner, false},
		{"top left up", Board{0, 1, 2, 3, 4, 5, 6, 7, 8}, Up, Board{0, 1, 2, 3, 4, 5, 6, 7, 8}, false},
		{"top left left", Board{0, 1, 2, 3, 4, 5, 6, 7, 8}, Left, Board{0, 1, 2, 3, 4, 5, 6, 7, 8}, false},
		{"right edge right", Board{1, 2, 0, 3, 4, 5, 6, 7, 8}, Right, Board{1, 2, 0, 3, 4, 5, 6, 7, 8}, false},
		{"left edge left", Board{1, 2, 3, 0, 4, 5, 6, 7, 8}, Left, Board{1, 2, 3, 0, 4, 5, 6, 7, 8}, false},
		{"not a move", mid, Move('x'), mid, false},
		{"no blank", Board{1, 1, 1, 1, 1, 1, 1, 1, 1}, Up, Board{1, 1, 1, 1, 1, 1, 1, 1, 1}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := tt.b.Apply(tt.m)
			if got != tt.want || ok != tt.ok {
				t.Errorf("%v.Apply(%c) = %v, %v; want %v, %v", tt.b, tt.m, got, ok, tt.want, tt.ok)
			}
		})
	}
}

func TestSolvable(t *testing.T) {
	tests := []struct {
		name string
		b    Board
		want bool
	}{
		{"goal", Goal(), true},
		{"sample", Board{2, 3, 4, 1, 5, 0, 7, 6, 8}, true},
		{"8 and 7 swapped", Board{1, 2, 3, 4, 5, 6, 8, 7, 0}, false},
		{"blank first", Board{0, 1, 2, 3, 4, 5, 6, 7, 8}, true},
		{"deepest 1", Board{8, 6, 7, 2, 5, 4, 3, 0, 1}, true},
		{"deepest 2", Board{6, 4, 7, 8, 5, 0, 3, 2, 1}, true},
		{"reversed", Board{8, 7, 6, 5, 4, 3, 2, 1, 0}, true}, // 28 inversions
		{"reversed, 2 and 1 kept", Board{8, 7, 6, 5, 4, 3, 1, 2, 0}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.b.Solvable(); got != tt.want {
				t.Errorf("%v.Solvable() = %v, want %v", tt.b, got, tt.want)
			}
		})
	}
}

func TestStringAndLine(t *testing.T) {
	b := Board{2, 3, 4, 1, 5, 0, 7, 6, 8}
	if got, want := b.String(), "2 3 4 / 1 5 x / 7 6 8"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
	if got, want := b.Line(), "2 3 4 1 5 x 7 6 8"; got != want {
		t.Errorf("Line() = %q, want %q", got, want)
	}
	if got, want := (Board{9, 1, 2, 3, 4, 5, 6, 7, 8}).String(), "? 1 2 / 3 4 5 / 6 7 8"; got != want {
		t.Errorf("String() of an invalid board = %q, want %q", got, want)
	}
}

func TestValid(t *testing.T) {
	tests := []struct {
		b    Board
		want bool
	}{
		{Goal(), true},
		{Board{}, false},
		{Board{1, 2, 3, 4, 5, 6, 7, 8, 9}, false},
		{Board{1, 2, 3, 4, 5, 6, 7, 8, 8}, false},
		{Board{0, 1, 2, 3, 4, 5, 6, 7, 255}, false},
	}
	for _, tt := range tests {
		if got := tt.b.Valid(); got != tt.want {
			t.Errorf("%v.Valid() = %v, want %v", tt.b, got, tt.want)
		}
	}
}

func TestRank(t *testing.T) {
	if got := rank(Board{0, 1, 2, 3, 4, 5, 6, 7, 8}); got != 0 {
		t.Errorf("rank of the identity = %d, want 0", got)
	}
	if got := rank(Board{8, 7, 6, 5, 4, 3, 2, 1, 0}); got != numBoards-1 {
		t.Errorf("rank of the reversal = %d, want %d", got, numBoards-1)
	}
	prev := Board{}
	for r := range numBoards {
		b := unrank(r)
		if !b.Valid() {
			t.Fatalf("unrank(%d) = %v, not a valid board", r, b)
		}
		if got := rank(b); got != r {
			t.Fatalf("rank(unrank(%d)) = %d", r, got)
		}
		if r > 0 && string(prev[:]) >= string(b[:]) {
			t.Fatalf("unrank(%d) = %v is not after unrank(%d) = %v", r, b, r-1, prev)
		}
		prev = b
	}
}

func TestMoves(t *testing.T) {
	// slowSmallest and Smallest both rely on this order being byte order.
	if got, want := Moves(), [4]Move{'d', 'l', 'r', 'u'}; got != want {
		t.Errorf("Moves() = %q, want %q", got, want)
	}
}
