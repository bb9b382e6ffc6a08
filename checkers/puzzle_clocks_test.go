package checkers

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/optjudge/optjudge/internal/handwritten/clocks"
	"github.com/optjudge/optjudge/verdict"
)

const (
	clocksSample  = "3 3 0\n2 2 2\n2 1 2\n" // answer 4 5 8 9
	clocksAt12    = "0 0 0\n0 0 0\n0 0 0\n"
	clocksMove5   = "0 3 0\n3 3 3\n0 3 0\n" // answer 5
	clocksDeepest = "3 0 3\n0 1 0\n3 0 3\n" // every move three times
)

func TestClocks(t *testing.T) {
	deepest := "1 1 1 2 2 2 3 3 3 4 4 4 5 5 5 6 6 6 7 7 7 8 8 8 9 9 9\n"
	tests := []struct {
		name, in, out string
		want          verdict.Verdict
		msg           string
	}{
		{"sample", clocksSample, "4 5 8 9\n", verdict.AC, "4 moves"},
		{"trailing space", clocksSample, "4 5 8 9 \n", verdict.AC, "4 moves"},
		{"crlf", clocksSample, "4 5 8 9\r\n", verdict.AC, "4 moves"},
		{"no final newline", clocksSample, "4 5 8 9", verdict.AC, "4 moves"},
		{"blanks", clocksSample, "  4\t5  8 9\t \r\n", verdict.AC, "4 moves"},
		{"blank lines after", clocksSample, "4 5 8 9\n\n \t\n\r\n", verdict.AC, "4 moves"},
		{"one move", clocksMove5, "5\n", verdict.AC, "1 move"},
		{"deepest", clocksDeepest, deepest, verdict.AC, "27 moves"},
		{"at 12, empty line", clocksAt12, "\n", verdict.AC, "0 moves: every dial is already at 12"},
		{"at 12, no output", clocksAt12, "", verdict.AC, "0 moves: every dial is already at 12"},
		{"at 12, blanks", clocksAt12, "  \r\n\n", verdict.AC, "0 moves: every dial is already at 12"},
		{"answer ignored", clocksSample, "4 5 8 9\n", verdict.AC, "4 moves"},

		{"not solved", clocksSample, "4 5 8 8\n", verdict.WA, "after 4 moves the dials are 0 0 0 / 0 3 3 / 1 0 0"},
		{"one move short", clocksSample, "4 5 8\n", verdict.WA, "after 3 moves the dials are 0 0 0 / 0 3 3 / 0 3 3"},
		{"after one move", clocksSample, "4\n", verdict.WA, "after 1 move the dials are 0 3 0 / 3 2 2 / 3 1 2"},
		{"empty line", clocksSample, "\n", verdict.WA, "no moves, but the dials are 3 3 0 / 2 2 2 / 2 1 2 (the optimum is 4 moves)"},
		{"no output", clocksSample, "", verdict.WA, "no moves, but the dials are 3 3 0 / 2 2 2 / 2 1 2 (the optimum is 4 moves)"},
		{"too long", clocksSample, "1 1 1 1 4 5 8 9\n", verdict.WA, "8 moves, the optimum is 4; " +
			"move 1 (1): it leads away from the goal (4 moves from it before, 7 after); distances to the goal after each move: 7 6 5 4 3 2 1 0"},
		{"too long at 12", clocksAt12, "7 7 7 7\n", verdict.WA, "4 moves, the optimum is 0; " +
			"move 1 (7): the goal was already reached, and it leads 3 moves away from it; distances to the goal after each move: 3 2 1 0"},
		{"too long and unordered", clocksSample, "4 5 8 9 1 1 1 1\n", verdict.WA, "8 moves, the optimum is 4; " +
			"move 5 (1): the goal was already reached, and it leads 3 moves away from it; distances to the goal after each move: 3 2 1 0 3 2 1 0"},
		{"unordered", clocksSample, "4 8 5 9\n", verdict.WA, "move 3 (5) comes after 8: the moves must be in ascending order"},
		{"descending", clocksSample, "9 8 5 4\n", verdict.WA, "move 2 (8) comes after 9: the moves must be in ascending order"},
		{"unordered repeats", clocksDeepest, "9 9 9 " + deepest[:len(deepest)-7], verdict.WA,
			"move 4 (1) comes after 9: the moves must be in ascending order"},

		{"letter", clocksSample, "4 5 x 9\n", verdict.WA, `move 3: "x" is not a move (1-9)`},
		{"zero", clocksAt12, "0\n", verdict.WA, `move 1: "0" is not a move (1-9)`},
		{"ten", clocksSample, "4 5 8 9 10\n", verdict.WA, `move 5: "10" is not a move (1-9)`},
		{"leading zero", clocksSample, "04 5 8 9\n", verdict.WA, `move 1: "04" is not a move (1-9)`},
		{"plus", clocksSample, "+4 5 8 9\n", verdict.WA, `move 1: "+4" is not a move (1-9)`},
		{"commas", clocksSample, "4,5,8,9\n", verdict.WA, `move 1: "4,5,8,9" is not a move (1-9)`},
		{"inner cr", clocksSample, "4\r5 8 9\n", verdict.WA, `move 1: "4\r5" is not a move (1-9)`},
		{"binary", clocksSample, "4 \x00\xff\n", verdict.WA, `move 2: "\x00\xff" is not a move (1-9)`},
		{"long garbage", clocksSample, strings.Repeat("z", 100), verdict.WA,
			`move 1: "` + strings.Repeat("z", 40) + `"... is not a move (1-9)`},
		{"bad token after good line", clocksSample, "4 5 8 9 A\n", verdict.WA, `move 5: "A" is not a move (1-9)`},

		{"answer twice", clocksSample, "4 5 8 9\n4 5 8 9\n", verdict.WA, `unexpected output after the answer (line 2: "4 5 8 9")`},
		{"one move a line", clocksSample, "4\n5\n8\n9\n", verdict.WA, `unexpected output after the answer (line 2: "5")`},
		{"late garbage", clocksSample, "4 5 8 9\n\n  \nx\n", verdict.WA, `unexpected output after the answer (line 4: "x")`},
		{"blank line first", clocksSample, "\n4 5 8 9\n", verdict.WA, `unexpected output after the answer (line 2: "4 5 8 9")`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := Files{Input: []byte(tt.in), Output: []byte(tt.out), Answer: []byte("1 2 3\n")}
			r, err := shippedChecker(t, "clocks", "").Check(context.Background(), f)
			if err != nil {
				t.Fatalf("got error %v, want %v %q", err, tt.want, tt.msg)
			}
			if r.Verdict != tt.want || r.Message != tt.msg {
				t.Errorf("got %v %q, want %v %q", r.Verdict, r.Message, tt.want, tt.msg)
			}
		})
	}
}

func TestClocksErrors(t *testing.T) {
	tests := []struct {
		name    string
		in, out string
		want    string
	}{
		{"invalid input", "3 3 0\n2 2 2\n2 1 2", "4 5 8 9\n", "clocks: reading the input: 3:6: missing final newline"},
		{"empty input", "", "\n", "clocks: reading the input: 1: empty input, want 3 lines of 3 dials"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := shippedChecker(t, "clocks", "").Check(context.Background(), Files{Input: []byte(tt.in), Output: []byte(tt.out)})
			if err == nil {
				t.Fatalf("got %v %q and no error, want error %q", r.Verdict, r.Message, tt.want)
			}
			if err.Error() != tt.want {
				t.Errorf("got error %q, want %q", err, tt.want)
			}
		})
	}
}

// TestClocksAcceptsReference checks the reference's output for every
// position, and that a permutation out of ascending order is refused.
func TestClocksAcceptsReference(t *testing.T) {
	for p := range clocks.All() {
		in := p.Input()
		out, err := clocks.Solve(in)
		if err != nil {
			t.Fatal(err)
		}
		r, err := shippedChecker(t, "clocks", "").Check(context.Background(), Files{Input: in, Output: out})
		if err != nil || r.Verdict != verdict.AC {
			t.Fatalf("%v: output %q got %v %q, %v, want AC", p, out, r.Verdict, r.Message, err)
		}
		moves := clocks.Optimal(p).Moves()
		if len(moves) == 0 || moves[0] == moves[len(moves)-1] {
			continue
		}
		slices.Reverse(moves)
		r, err = shippedChecker(t, "clocks", "").Check(context.Background(), Files{Input: in, Output: clocksLine(moves)})
		if err != nil || r.Verdict != verdict.WA || !strings.Contains(r.Message, "ascending") {
			t.Fatalf("%v: reversed %v got %v %q, %v, want WA about the order", p, moves, r.Verdict, r.Message, err)
		}
	}
}

// clocksLine prints moves as an output line.
func clocksLine(moves []int) []byte {
	var b []byte
	for i, m := range moves {
		if i > 0 {
			b = append(b, ' ')
		}
		b = strconv.AppendInt(b, int64(m), 10)
	}
	return append(b, '\n')
}

// clocksNaive judges out the slow way, for the fuzz test: it reports
// whether out is an accepted answer for p.
func clocksNaive(p clocks.Position, out string) bool {
	lines := strings.Split(out, "\n")
	for _, l := range lines[1:] {
		if strings.Trim(l, " \t\r") != "" {
			return false
		}
	}
	var moves []int
	for _, f := range strings.FieldsFunc(strings.TrimRight(lines[0], " \t\r"), func(r rune) bool { return r == ' ' || r == '\t' }) {
		m, err := strconv.Atoi(f)
		if err != nil || m < 1 || m > 9 || f != strconv.Itoa(m) {
			return false
		}
		moves = append(moves, m)
	}
	end := p
	for _, m := range moves {
		end = end.Apply(m)
	}
	return end.Solved() && len(moves) == clocks.Optimal(p).Total() && slices.IsSorted(moves)
}

func FuzzCheckClocks(f *testing.F) {
	f.Add(uint32(0b11_00_11_00_01_00_11_00_11), []byte("1 1 1 2 2 2 3 3 3 4 4 4 5 5 5 6 6 6 7 7 7 8 8 8 9 9 9\n"))
	f.Add(uint32(0), []byte(""))
	f.Add(uint32(12345), []byte("4 5 8 9 \r\n\n"))
	f.Add(uint32(99), []byte("\x00\xff 1\n2"))
	f.Add(uint32(7), []byte("9 8 7 6 5 4 3 2 1"))
	f.Fuzz(func(t *testing.T, code uint32, out []byte) {
		var p clocks.Position
		for i := range p {
			p[i] = uint8(code>>(2*i)) & 3
		}
		in := p.Input()
		ref, err := clocks.Solve(in)
		if err != nil {
			t.Fatal(err)
		}
		r, err := shippedChecker(t, "clocks", "").Check(context.Background(), Files{Input: in, Output: ref})
		if err != nil || r.Verdict != verdict.AC {
			t.Fatalf("%v: reference output %q got %v %q, %v, want AC", p, ref, r.Verdict, r.Message, err)
		}
		r, err = shippedChecker(t, "clocks", "").Check(context.Background(), Files{Input: in, Output: out})
		if err != nil {
			t.Fatalf("%v: output %q: got error %v, want a verdict", p, out, err)
		}
		if r.Verdict != verdict.AC && r.Verdict != verdict.WA {
			t.Fatalf("%v: output %q: got verdict %v, want AC or WA", p, out, r.Verdict)
		}
		if naive := clocksNaive(p, string(out)); naive != (r.Verdict == verdict.AC) {
			t.Errorf("%v: output %q: got %v %q, naive checker accepts: %v", p, out, r.Verdict, r.Message, naive)
		}
	})
}

func BenchmarkClocksCheck(b *testing.B) {
	f := Files{Input: []byte(clocksDeepest), Output: []byte("1 1 1 2 2 2 3 3 3 4 4 4 5 5 5 6 6 6 7 7 7 8 8 8 9 9 9\n")}
	c := shippedChecker(b, "clocks", "")
	for b.Loop() {
		if r, err := c.Check(context.Background(), f); err != nil || r.Verdict != verdict.AC {
			b.Fatalf("got %v %q, %v, want AC", r.Verdict, r.Message, err)
		}
	}
}
