package checkers

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/optjudge/optjudge/internal/handwritten/eightpuzzle"
	"github.com/optjudge/optjudge/reference/puzzle"
	"github.com/optjudge/optjudge/verdict"
)

const (
	epSample      = "2  3  4  1  5  x  7  6  8\n" // 19 moves
	epSampleBest  = "dlurullddrurdllurdr"         // the smallest of them
	epSampleOther = "ullddrurdllurdruldr"         // the original judges' sample output
	epGoal        = "1 2 3 4 5 6 7 8 x\n"
	epOdd         = "1 2 3 4 5 6 8 7 x\n" // unsolvable
	epOneMove     = "1 2 3 4 5 6 7 x 8\n" // solved by r
	// epLonger is the message for lr before the smallest path of epSample.
	epLonger = "case 1: 21 moves, the optimum is 19; move 2 (r): it leads away from the goal (18 moves from it before, 19 after); " +
		"distances to the goal after each move: 18 19 18 17 16 15 14 13 12 11 10 9 8 7 6 5 4 3 2 1 0"
)

func TestPuzzleMode(t *testing.T) {
	tests := []struct {
		name    string
		opts    Options
		want    puzzle.Mode
		wantErr string // the OptionError's key, "" for none
	}{
		{"default", nil, "", ""},
		{"any", Options{"mode": "any"}, puzzle.ModeAny, ""},
		{"shortest", Options{"mode": "shortest"}, puzzle.ModeShortest, ""},
		{"smallest", Options{"mode": "smallest"}, puzzle.ModeSmallest, ""},
		{"bad mode", Options{"mode": "fastest"}, "", "mode"},
		{"mode in capitals", Options{"mode": "Shortest"}, "", "mode"},
		{"unknown option", Options{"strict": "yes"}, "", "strict"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := PuzzleMode(tt.opts)
			if tt.wantErr != "" {
				var oe *OptionError
				if !errors.As(err, &oe) || oe.Key != tt.wantErr {
					t.Fatalf("PuzzleMode(%v) error = %v, want an *OptionError for %q", tt.opts, err, tt.wantErr)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Errorf("PuzzleMode(%v) = %q, %v, want %q", tt.opts, got, err, tt.want)
			}
		})
	}
}

func TestEightPuzzleCheck(t *testing.T) {
	tests := []struct {
		name, mode, input, output string
		want                      verdict.Verdict
		msg                       string
	}{
		{"smallest", "smallest", epSample, epSampleBest + "\n", verdict.AC, "1 case, 19 moves"},
		{"other shortest, any", "any", epSample, epSampleOther + "\n", verdict.AC, "1 case, 19 moves"},
		{"other shortest, shortest", "shortest", epSample, epSampleOther + "\n", verdict.AC, "1 case, 19 moves"},
		{"other shortest, smallest", "smallest", epSample, epSampleOther + "\n", verdict.WA,
			"case 1: shortest, but not the smallest: yours ullddrurdllurdruldr, smallest dlurullddrurdllurdr (first difference at move 1)"},
		{"longer, any, off the board", "any", epSample, "rl" + epSampleBest + "\n", verdict.WA,
			"case 1, move 1: r moves the blank off the board (blank at row 2, column 3)"},
		{"longer, any", "any", epSample, "lr" + epSampleBest + "\n", verdict.AC, "1 case, 21 moves"},
		{"longer, shortest", "shortest", epSample, "lr" + epSampleBest + "\n", verdict.WA, epLonger},
		{"longer, smallest", "smallest", epSample, "lr" + epSampleBest + "\n", verdict.WA, epLonger},
		{"not a move", "any", epSample, "dluQ\n", verdict.WA, "case 1, move 4: 'Q' is not a move (d, l, r, u)"},
		{"capital letters", "any", epSample, strings.ToUpper(epSampleBest) + "\n", verdict.WA,
			"case 1, move 1: 'D' is not a move (d, l, r, u)"},
		{"binary", "any", epSample, "dl\xff\x00\n", verdict.WA, `case 1, move 3: '\xff' is not a move (d, l, r, u)`},
		{"NUL", "any", epSample, "\x00\n", verdict.WA, `case 1, move 1: '\x00' is not a move (d, l, r, u)`},
		{"inner space", "any", epSample, "dlu rull\n", verdict.WA,
			"case 1: the line has spaces between the moves; write the letters without spaces, e.g. dlurull"},
		{"inner space and garbage", "any", epSample, "dlu rulQ\n", verdict.WA, "case 1, move 4: ' ' is not a move (d, l, r, u)"},
		{"off the top", "any", "1 x 2 3 4 5 6 7 8\n", "u\n", verdict.WA,
			"case 1, move 1: u moves the blank off the board (blank at row 1, column 2)"},
		{"off after moves", "any", epGoal, "luuu\n", verdict.WA,
			"case 1, move 4: u moves the blank off the board (blank at row 1, column 2)"},
		{"does not reach the goal", "any", epGoal, "l\n", verdict.WA,
			"case 1: after 1 move the board is 1 2 3 / 4 5 6 / 7 x 8"},
		{"stops short", "any", epSample, epSampleBest[:12] + "\n", verdict.WA,
			"case 1: after 12 moves the board is 1 2 3 / 7 4 x / 5 8 6"},
		{"empty line", "any", epSample + epOneMove, "\nr\n", verdict.WA,
			"case 1: empty line, but the board 2 3 4 / 1 5 x / 7 6 8 is not solved"},
		{"solved, empty line", "smallest", epGoal, "\n", verdict.AC, "1 case, 0 moves"},
		{"solved, no output", "smallest", epGoal, "", verdict.AC, "1 case, 0 moves"},
		{"solved, moves there and back", "any", epGoal, "lr\n", verdict.AC, "1 case, 2 moves"},
		{"solved, moves there and back, shortest", "shortest", epGoal, "lr\n", verdict.WA, "case 1: 2 moves, the optimum is 0; " +
			"move 1 (l): the goal was already reached, and it leads 1 move away from it; distances to the goal after each move: 1 0"},
		{"solved last, absent", "any", epSample + epGoal, epSampleBest, verdict.AC, "2 cases, 19 moves"},
		{"two solved last, absent", "any", epOneMove + epGoal + epGoal, "r\n", verdict.AC, "3 cases, 1 move"},
		{"solved in the middle", "any", epOneMove + epGoal + epOneMove, "r\n\nr\n", verdict.AC, "3 cases, 2 moves"},
		{"unsolvable", "any", epOdd, "unsolvable\n", verdict.AC, "1 case, 0 moves, 1 unsolvable"},
		{"says unsolvable", "any", epSample, "unsolvable\n", verdict.WA,
			"case 1: says unsolvable, but the board 2 3 4 / 1 5 x / 7 6 8 can be solved in 19 moves"},
		{"says Unsolvable for a solvable board", "any", epSample, "Unsolvable\n", verdict.WA,
			"case 1: says unsolvable, but the board 2 3 4 / 1 5 x / 7 6 8 can be solved in 19 moves"},
		{"UNSOLVABLE", "any", epOdd, "UNSOLVABLE\n", verdict.WA, `case 1: "UNSOLVABLE" is not "unsolvable" (lower case)`},
		{"moves for an unsolvable board", "any", epOdd, "lu\n", verdict.WA,
			`case 1: the board 1 2 3 / 4 5 6 / 8 7 x cannot be solved (its tiles 1-8 are an odd permutation), want "unsolvable", got "lu"`},
		{"empty for an unsolvable board", "any", epOdd + epOneMove, "\nr\n", verdict.WA,
			`case 1: the board 1 2 3 / 4 5 6 / 8 7 x cannot be solved (its tiles 1-8 are an odd permutation), want "unsolvable", got ""`},
		{"long garbage for an unsolvable board", "any", epOdd, strings.Repeat("ab", 30) + "\n", verdict.WA,
			`case 1: the board 1 2 3 / 4 5 6 / 8 7 x cannot be solved (its tiles 1-8 are an odd permutation), want "unsolvable", got "` +
				strings.Repeat("ab", 20) + `"...`},
		{"missing case", "any", epSample + epOdd + epGoal, epSampleBest + "\n", verdict.WA, "missing case 2 of 3"},
		{"missing solvable last case", "any", epGoal + epOneMove, "\n", verdict.WA, "missing case 2 of 2"},
		{"empty output", "any", epSample, "", verdict.WA, "missing case 1 of 1"},
		{"extra output", "any", epOneMove, "r\nr\n", verdict.WA, "unexpected output after the last case"},
		{"extra output after blank lines", "any", epOneMove, "r\n\n\nunsolvable\n", verdict.WA,
			"unexpected output after the last case"},
		{"trailing blank lines", "any", epOneMove + epOdd, "r\nunsolvable\n\n \n\t\n", verdict.AC,
			"2 cases, 1 move, 1 unsolvable"},
		{"CRLF", "smallest", epOneMove + epOdd + epGoal, "r\r\nunsolvable\r\n\r\n", verdict.AC,
			"3 cases, 1 move, 1 unsolvable"},
		{"spaces and tabs around", "smallest", epOneMove + epOdd, "  r \t\n\tunsolvable  \n", verdict.AC,
			"2 cases, 1 move, 1 unsolvable"},
		{"no final newline", "any", epOneMove + epOdd, "r\nunsolvable", verdict.AC, "2 cases, 1 move, 1 unsolvable"},
		{"third case wrong", "any", epOneMove + epOdd + epSample, "r\nunsolvable\nrrr\n", verdict.WA,
			"case 3, move 1: r moves the blank off the board (blank at row 2, column 3)"},
		{"counts", "any", epSample + epOdd + epOneMove + epGoal, epSampleOther + "\nunsolvable\nr\n\n", verdict.AC,
			"4 cases, 20 moves, 1 unsolvable"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := shippedChecker(t, "eight-puzzle", puzzle.Mode(tt.mode))
			// The answer file is ignored, so a wrong one must not matter.
			f := Files{Input: []byte(tt.input), Output: []byte(tt.output), Answer: []byte("stale\n")}
			got, err := c.Check(context.Background(), f)
			if err != nil {
				t.Fatalf("Check: %v", err)
			}
			if got.Verdict != tt.want || got.Message != tt.msg {
				t.Errorf("got %v %q, want %v %q", got.Verdict, got.Message, tt.want, tt.msg)
			}
		})
	}
}

func TestEightPuzzleSmallestDifference(t *testing.T) {
	// Find a board with two shortest paths that share their first moves,
	// so that the message must name a later move.
	r := rand.New(rand.NewPCG(9, 9))
	c := shippedChecker(t, "eight-puzzle", puzzle.ModeSmallest)
	found := false
	for range 2000 {
		b := eightpuzzle.Random(r)
		best, _ := eightpuzzle.Smallest(b)
		other, ok := epOtherShortest(b, best)
		if !ok {
			continue
		}
		j := 0
		for best[j] == other[j] {
			j++
		}
		if j == 0 {
			continue
		}
		found = true
		in := eightpuzzle.Format([]eightpuzzle.Board{b})
		got, err := c.Check(context.Background(), Files{Input: in, Output: []byte(other + "\n")})
		want := fmt.Sprintf("case 1: shortest, but not the smallest: yours %s, smallest %s (first difference at move %d)",
			other, best, j+1)
		if err != nil || got.Verdict != verdict.WA || got.Message != want {
			t.Errorf("got %v %q, %v; want WA %q", got.Verdict, got.Message, err, want)
		}
		break
	}
	if !found {
		t.Fatal("found no board with two shortest paths that share a first move")
	}
}

// epOtherShortest returns a shortest path of b other than best, found by
// changing the last move of best's prefix where another move also keeps
// to a shortest path, if there is one.
func epOtherShortest(b eightpuzzle.Board, best string) (string, bool) {
	d := len(best)
	for i := d - 1; i >= 0; i-- {
		cur := b
		for _, ch := range []byte(best[:i]) {
			cur, _ = cur.Apply(eightpuzzle.Move(ch))
		}
		for _, m := range eightpuzzle.Moves() {
			if byte(m) <= best[i] {
				continue
			}
			next, ok := cur.Apply(m)
			if !ok || eightpuzzle.Distance(next) != d-i-1 {
				continue
			}
			rest, _ := eightpuzzle.Smallest(next)
			return best[:i] + string(rune(m)) + rest, true
		}
	}
	return "", false
}

func TestEightPuzzleJudgeErrors(t *testing.T) {
	tests := []struct {
		name    string
		input   string
		output  string
		wantErr string
	}{
		{"invalid input", "1 2 3\n", "\n",
			"eight-puzzle: reading the input: 1:6: only 3 tiles, want 9 (4, 5, 6, 7, 8, x missing)"},
		{"input without final newline", "1 2 3 4 5 6 7 8 x", "\n",
			"eight-puzzle: reading the input: 1:18: missing final newline"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := shippedChecker(t, "eight-puzzle", "")
			res, err := c.Check(context.Background(), Files{Input: []byte(tt.input), Output: []byte(tt.output)})
			if err == nil || err.Error() != tt.wantErr {
				t.Errorf("got %v %q, %v; want the error %q", res.Verdict, res.Message, err, tt.wantErr)
			}
		})
	}
}

func TestEightPuzzleCanceled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	c := shippedChecker(t, "eight-puzzle", "")
	_, err := c.Check(ctx, Files{Input: []byte(epGoal), Output: []byte("\n")})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("got %v, want context.Canceled", err)
	}
}

// epRandomInput is n boards, about a fifth of them unsolvable.
func epRandomInput(r *rand.Rand, n int) []byte {
	bs := make([]eightpuzzle.Board, n)
	for i := range bs {
		if r.IntN(5) == 0 {
			bs[i] = eightpuzzle.RandomUnsolvable(r)
		} else {
			bs[i] = eightpuzzle.Random(r)
		}
	}
	return eightpuzzle.Format(bs)
}

func TestEightPuzzleAcceptsReference(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1077))
	inputs := [][]byte{[]byte(epSample), []byte(epGoal), epRandomInput(r, 300),
		eightpuzzle.Format(eightpuzzle.Deepest())}
	for _, mode := range []string{"any", "shortest", "smallest"} {
		c := shippedChecker(t, "eight-puzzle", puzzle.Mode(mode))
		for _, in := range inputs {
			out, err := eightpuzzle.Solve(in)
			if err != nil {
				t.Fatal(err)
			}
			res, err := c.Check(context.Background(), Files{Input: in, Output: out})
			if err != nil || res.Verdict != verdict.AC {
				t.Errorf("mode %s: the reference's output for %q got %v %q, %v; want AC",
					mode, in[:min(len(in), 40)], res.Verdict, res.Message, err)
			}
		}
	}
}

// epNaiveReaches replays path on a 3x3 grid, tracking the blank's row and
// column, independently of eightpuzzle.Board.Apply, and says whether every
// move stays on the board and the grid ends as the goal.
func epNaiveReaches(b eightpuzzle.Board, path []byte) bool {
	step := map[byte][2]int{'u': {-1, 0}, 'd': {1, 0}, 'l': {0, -1}, 'r': {0, 1}}
	var grid [3][3]byte
	row, col := 0, 0
	for i, t := range b {
		grid[i/3][i%3] = t
		if t == 0 {
			row, col = i/3, i%3
		}
	}
	for _, ch := range path {
		s, ok := step[ch]
		nr, nc := row+s[0], col+s[1]
		if !ok || nr < 0 || nr > 2 || nc < 0 || nc > 2 {
			return false
		}
		grid[row][col], grid[nr][nc] = grid[nr][nc], 0
		row, col = nr, nc
	}
	return grid == [3][3]byte{{1, 2, 3}, {4, 5, 6}, {7, 8, 0}}
}

func FuzzCheckEightPuzzle(f *testing.F) {
	f.Add(uint8(0), []byte(epSample), []byte(epSampleBest+"\n"))
	f.Add(uint8(1), []byte(epSample), []byte(epSampleOther+"\n"))
	f.Add(uint8(2), []byte(epSample+epOdd+epGoal), []byte(epSampleBest+"\nunsolvable\n\n"))
	f.Add(uint8(0), []byte(epOneMove), []byte("rlr"))
	f.Add(uint8(0), []byte(epOneMove), []byte("rlr\r\n"))
	f.Add(uint8(0), []byte(epGoal), []byte("lurdlurdlurd"))
	f.Add(uint8(2), []byte(epGoal), []byte{})
	f.Add(uint8(1), []byte(epOdd), []byte("Unsolvable\xff"))
	f.Add(uint8(0), []byte("garbage"), []byte("u"))
	f.Fuzz(func(t *testing.T, mode uint8, input, output []byte) {
		c := shippedChecker(t, "eight-puzzle", []puzzle.Mode{puzzle.ModeAny, puzzle.ModeShortest, puzzle.ModeSmallest}[mode%3])
		boards, perr := eightpuzzle.ParseInput(input)
		res, err := c.Check(context.Background(), Files{Input: input, Output: output})
		if perr != nil {
			if err == nil {
				t.Fatalf("invalid input %q gave %v %q, want an error", input, res.Verdict, res.Message)
			}
			return
		}
		if err != nil {
			t.Fatalf("valid input %q, output %q: %v", input, output, err)
		}
		want, _ := eightpuzzle.Solve(input)
		ref, err := c.Check(context.Background(), Files{Input: input, Output: want})
		if err != nil || ref.Verdict != verdict.AC {
			t.Fatalf("the reference's output %q for %q got %v %q, %v", want, input, ref.Verdict, ref.Message, err)
		}
		// For one solvable board and one line of letters, mode any accepts
		// exactly what the naive replay says reaches the goal.
		if len(boards) == 1 && boards[0].Solvable() && c.C.Mode() == puzzle.ModeAny &&
			!strings.ContainsAny(string(output), "\n\r \t") {
			if naive := epNaiveReaches(boards[0], output); naive != (res.Verdict == verdict.AC) {
				t.Fatalf("output %q for %v: checker says %v %q, naive replay reaches the goal: %v",
					output, boards[0], res.Verdict, res.Message, naive)
			}
		}
	})
}

func BenchmarkEightPuzzleCheck(b *testing.B) {
	all := eightpuzzle.All()
	r := rand.New(rand.NewPCG(2, 2))
	for range 1000 {
		all = append(all, eightpuzzle.RandomUnsolvable(r))
	}
	in := eightpuzzle.Format(all)
	out, err := eightpuzzle.Solve(in)
	if err != nil {
		b.Fatal(err)
	}
	for _, mode := range []string{"any", "smallest"} {
		b.Run(mode, func(b *testing.B) {
			c := shippedChecker(b, "eight-puzzle", puzzle.Mode(mode))
			b.SetBytes(int64(len(out)))
			for b.Loop() {
				res, err := c.Check(context.Background(), Files{Input: in, Output: out})
				if err != nil || res.Verdict != verdict.AC {
					b.Fatalf("got %v %q, %v", res.Verdict, res.Message, err)
				}
			}
		})
	}
}
