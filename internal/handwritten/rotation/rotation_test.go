package rotation

import (
	"math/bits"
	"math/rand/v2"
	"testing"
)

func TestMoveString(t *testing.T) {
	tests := []struct {
		m    Move
		want string
	}{{A, "A"}, {H, "H"}, {Move(8), "Move(8)"}}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			if got := tt.m.String(); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
	if got, want := (Sequence{A, C, H}).String(), "ACH"; got != want {
		t.Errorf("Sequence: got %q, want %q", got, want)
	}
}

func TestMoveOf(t *testing.T) {
	for c := range 256 {
		m, ok := MoveOf(byte(c))
		want := c >= 'A' && c <= 'H'
		if ok != want || ok && m.String() != string(rune(c)) {
			t.Errorf("MoveOf(%q): got %v, %v, want ok %v", rune(c), m, ok, want)
		}
	}
}

// numbered is a board whose cells hold their own numbers, to follow cells;
// it is not a valid board, which Apply does not mind.
func numbered() Board {
	var b Board
	for i := range b {
		b[i] = uint8(i)
	}
	return b
}

func TestApply(t *testing.T) {
	tests := []struct {
		m    Move
		want Board
	}{
		// A shifts the left column up: cell 0 gets cell 2, cell 22 gets cell 0.
		{A, Board{2, 1, 6, 3, 4, 5, 11, 7, 8, 9, 10, 15, 12, 13, 14, 20, 16, 17, 18, 19, 22, 21, 0, 23}},
		// C shifts the upper row right: cell 10 gets cell 9, cell 4 gets cell 10.
		{C, Board{0, 1, 2, 3, 10, 4, 5, 6, 7, 8, 9, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23}},
		// H undoes C.
		{H, Board{0, 1, 2, 3, 5, 6, 7, 8, 9, 10, 4, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23}},
	}
	for _, tt := range tests {
		t.Run(tt.m.String(), func(t *testing.T) {
			if got := numbered().Apply(tt.m); got != tt.want {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

func TestInverse(t *testing.T) {
	b := numbered()
	for m := range Move(NumMoves) {
		if got := b.Apply(m).Apply(m.Inverse()); got != b {
			t.Errorf("%v then %v: got %v, want %v", m, m.Inverse(), got, b)
		}
		if m.Inverse().Inverse() != m {
			t.Errorf("%v: inverse of inverse is %v", m, m.Inverse().Inverse())
		}
		// Seven moves along a line of seven cells come back.
		c := b
		for range 7 {
			c = c.Apply(m)
		}
		if c != b {
			t.Errorf("%v seven times: got %v, want %v", m, c, b)
		}
	}
}

func TestBoardValid(t *testing.T) {
	good := Random(rand.New(rand.NewPCG(1, 1)))
	bad := good
	bad[0], bad[23] = 0, 4
	uneven := good
	uneven[0] = uneven[0]%3 + 1
	tests := []struct {
		name string
		b    Board
		ok   bool
	}{{"random", good, true}, {"digits out of range", bad, false},
		{"nine of one digit", uneven, false}, {"numbered", numbered(), false}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := tt.b.Valid(); (err == nil) != tt.ok {
				t.Errorf("got %v, want ok %v", err, tt.ok)
			}
		})
	}
}

func TestSolved(t *testing.T) {
	b := Board{1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3}
	if d, ok := b.Solved(); ok {
		t.Errorf("got solved with %d, want not solved", d)
	}
	b = b.ApplyAll(Sequence{D, D, H, H})
	if d, ok := b.Solved(); !ok || d != 2 {
		t.Errorf("after DDHH: got %d, %v, want 2, true; center %v", d, ok, b.Center())
	}
}

func TestSolutionString(t *testing.T) {
	tests := []struct {
		s    Solution
		want string
	}{
		{Solution{Moves: Sequence{A, C}, Digit: 2}, "AC\n2\n"},
		{Solution{Digit: 3}, "No moves needed\n3\n"},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			if got := tt.s.String(); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

// TestTableLayers pins the number of sets at every distance: all C(24,8)
// sets are reached, and the farthest set of one digit is 14 moves away.
func TestTableLayers(t *testing.T) {
	want := []int{1, 8, 44, 208, 876, 3220, 10498, 30236, 73982, 146466, 208170, 178588, 72941, 10045, 188}
	buckets := distBuckets()
	if len(buckets) != len(want) {
		t.Fatalf("got %d distances, want %d", len(buckets), len(want))
	}
	total := 0
	for d, n := range want {
		if got := len(buckets[d]); got != n {
			t.Errorf("distance %d: got %d sets, want %d", d, got, n)
		}
		total += len(buckets[d])
	}
	if total != NumSets {
		t.Errorf("got %d sets, want %d", total, NumSets)
	}
}

// TestTableConsistent checks the table without trusting the search: the
// ranking is a bijection from the sets of 8 cells onto 0..NumSets-1, only
// the center is at distance 0, and every other set is one more than its
// nearest neighbour. Those equations have one solution, the true distances.
func TestTableConsistent(t *testing.T) {
	tb := build()
	seen := make([]bool, NumSets)
	for s := uint32(0); s < 1<<Cells; s++ {
		if bits.OnesCount32(s) != 8 {
			continue
		}
		r := tb.rankOf(s)
		if r >= NumSets || seen[r] {
			t.Fatalf("set %#x: rank %d out of range or taken twice", s, r)
		}
		seen[r] = true
		d := tb.distOf(s)
		if (d == 0) != (s == centerMask) {
			t.Fatalf("set %#x: distance %d", s, d)
		}
		best := unseen
		for m := range Move(NumMoves) {
			best = min(best, tb.distOf(tb.apply(m, s)))
		}
		if d > 0 && d != best+1 {
			t.Fatalf("set %#x: distance %d, nearest neighbour %d", s, d, best)
		}
	}
}

// TestMaskMoves checks the byte-table moves against Board.Apply.
func TestMaskMoves(t *testing.T) {
	tb := get()
	r := rand.New(rand.NewPCG(3, 4))
	for range 1000 {
		b := Random(r)
		for m := range Move(NumMoves) {
			ms, after := b.masks(), b.Apply(m).masks()
			for d := range ms {
				if got := tb.apply(m, ms[d]); got != after[d] {
					t.Fatalf("board %v, move %v, digit %d: got %#x, want %#x", b, m, d+1, got, after[d])
				}
			}
		}
	}
}

// TestNoBoardNeeds14 checks MaxOptimum: no three disjoint sets of the 188 at
// distance 14 cover the board.
func TestNoBoardNeeds14(t *testing.T) {
	tb := get()
	far := setsAt(MaxOptimum + 1)
	for i, s1 := range far {
		for _, s2 := range far[i+1:] {
			if s1&s2 == 0 && tb.distOf(allCells&^(s1|s2)) > MaxOptimum {
				t.Fatalf("sets %#x and %#x and the rest all need %d+ moves", s1, s2, MaxOptimum+1)
			}
		}
	}
}

func TestBuildTime(t *testing.T) {
	if got := BuildTime(); got <= 0 {
		t.Errorf("got %v, want > 0", got)
	}
	if a, b := BuildTime(), BuildTime(); a != b {
		t.Errorf("got %v then %v, want the same (built once)", a, b)
	}
}

func TestConcurrentUse(t *testing.T) {
	b := Board{1, 1, 1, 1, 3, 2, 3, 2, 3, 1, 3, 2, 2, 3, 1, 2, 2, 2, 3, 1, 2, 1, 3, 3}
	results := make(chan string, 4)
	for range 4 {
		go func() { results <- Optimal(b).String() }()
	}
	for range 4 {
		if got := <-results; got != "AC\n2\n" {
			t.Errorf("got %q, want %q", got, "AC\n2\n")
		}
	}
}
