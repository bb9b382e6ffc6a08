package explain

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/optjudge/optjudge/reference/puzzle/judging"
)

const (
	rotationInput = "1 1 1 1 3 2 3 2 3 1 3 2 2 3 1 2 2 2 3 1 2 1 3 3\n" +
		"1 1 1 1 1 1 1 1 2 2 2 2 2 2 2 2 3 3 3 3 3 3 3 3\n0\n"
	clocksInput = "3 3 0\n2 2 2\n2 1 2\n"
	eightInput  = "2  3  4  1  5  x  7  6  8\n1 2 3 4 5 6 7 8 x\n"
)

// dedent drops the tab that starts every line of a golden picture, so the
// goldens can be indented like the code around them.
func dedent(s string) string {
	return strings.ReplaceAll(s, "\n\t", "\n")[1:]
}

func TestPictures(t *testing.T) {
	tests := []struct {
		name, got, want string
	}{
		{"rotation", firstCase(t, "rotation-game", rotationInput).Text(), `
	         A     B
	         1     1
	         1     1
	H  3  2 [3][2][3] 1  3  C
	        [2]   [2]
	G  3  1 [2][2][2] 3  1  D
	         2     1
	         3     3
	         F     E
	`},
		{"clocks", firstCase(t, "clocks", clocksInput).Text(), `
	+-------+-------+-------+
	| A   9 | B   9 | C  12 |
	|       |       |   |   |
	| --o   | --o   |   o   |
	|       |       |       |
	+-------+-------+-------+
	| D   6 | E   6 | F   6 |
	|       |       |       |
	|   o   |   o   |   o   |
	|   |   |   |   |   |   |
	+-------+-------+-------+
	| G   6 | H   3 | I   6 |
	|       |       |       |
	|   o   |   o-- |   o   |
	|   |   |       |   |   |
	+-------+-------+-------+
	`},
		{"eight-puzzle", firstCase(t, "eight-puzzle", eightInput).Text(), `
	+---+---+---+
	| 2 | 3 | 4 |
	+---+---+---+
	| 1 | 5 |   |
	+---+---+---+
	| 7 | 6 | 8 |
	+---+---+---+
	`},
	}
	fifteen := byName(t, "fifteen-puzzle")
	cases, err := fifteen.Cases([]byte("1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15\n"))
	if err != nil {
		t.Fatal(err)
	}
	tests = append(tests, struct{ name, got, want string }{"fifteen-puzzle", positionOf(fifteen, cases[0].Position).Text(), `
	+----+----+----+----+
	|  1 |  2 |  3 |  4 |
	+----+----+----+----+
	|  5 |  6 |  7 |  8 |
	+----+----+----+----+
	|  9 | 10 | 11 | 12 |
	+----+----+----+----+
	| 13 | 14 |    | 15 |
	+----+----+----+----+
	`})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if want := dedent(tt.want); tt.got != want {
				t.Errorf("got\n%s\nwant\n%s", tt.got, want)
			}
		})
	}
}

func TestFailure(t *testing.T) {
	tests := []struct {
		name, checker, input, output, message string
		want                                  string
	}{
		{"rotation case from the message", "rotation-game", rotationInput, "AC\n2\nDDHH\n1\n", "case 2: line 2 says 1, the center shows 2", `
	case 2 of 2: 1 1 1 1 1 1 1 1 2 2 2 2 2 2 2 2 3 3 3 3 3 3 3 3
	start                        after 4 moves: DDHH
	         A     B                      A     B
	         1     1                      1     1
	         1     1                      1     1
	H  1  1 [1][1][2] 2  2  C    H  1  1 [2][2][2] 1  1  C
	        [2]   [2]                    [2]   [2]
	G  2  2 [2][3][3] 3  3  D    G  3  3 [2][2][2] 3  3  D
	         3     3                      3     3
	         3     3                      3     3
	         F     E                      F     E
	`},
		{"rotation case by replay, a bad move", "rotation-game", rotationInput, "AC\n2\nDQ\n2\n", "", `
	case 2 of 2: 1 1 1 1 1 1 1 1 2 2 2 2 2 2 2 2 3 3 3 3 3 3 3 3
	start                        after the first 1 move: D
	         A     B                      A     B
	         1     1                      1     1
	         1     1                      1     1
	H  1  1 [1][1][2] 2  2  C    H  1  1 [1][1][2] 2  2  C
	        [2]   [2]                    [2]   [2]
	G  2  2 [2][3][3] 3  3  D    G  3  2 [2][2][3] 3  3  D
	         3     3                      3     3
	         3     3                      3     3
	         F     E                      F     E
	stopped at move 2: 'Q' is not a move (A-H)
	`},
		{"rotation missing case", "rotation-game", rotationInput, "AC\n2\n", "missing case 2 of 2", `
	case 2 of 2: 1 1 1 1 1 1 1 1 2 2 2 2 2 2 2 2 3 3 3 3 3 3 3 3
	start                        after no moves
	         A     B                      A     B
	         1     1                      1     1
	         1     1                      1     1
	H  1  1 [1][1][2] 2  2  C    H  1  1 [1][1][2] 2  2  C
	        [2]   [2]                    [2]   [2]
	G  2  2 [2][3][3] 3  3  D    G  2  2 [2][3][3] 3  3  D
	         3     3                      3     3
	         3     3                      3     3
	         F     E                      F     E
	no output for this case
	`},
		{"clocks", "clocks", clocksInput, "9 8 5\n", "after 3 moves the dials are ", `
	dials: 3 3 0 / 2 2 2 / 2 1 2
	start                        after 3 moves: 9 8 5
	+-------+-------+-------+    +-------+-------+-------+
	| A   9 | B   9 | C  12 |    | A   9 | B  12 | C  12 |
	|       |       |   |   |    |       |   |   |   |   |
	| --o   | --o   |   o   |    | --o   |   o   |   o   |
	|       |       |       |    |       |       |       |
	+-------+-------+-------+    +-------+-------+-------+
	| D   6 | E   6 | F   6 |    | D   9 | E  12 | F  12 |
	|       |       |       |    |       |   |   |   |   |
	|   o   |   o   |   o   |    | --o   |   o   |   o   |
	|   |   |   |   |   |   |    |       |       |       |
	+-------+-------+-------+    +-------+-------+-------+
	| G   6 | H   3 | I   6 |    | G   9 | H  12 | I  12 |
	|       |       |       |    |       |   |   |   |   |
	|   o   |   o-- |   o   |    | --o   |   o   |   o   |
	|   |   |       |   |   |    |       |       |       |
	+-------+-------+-------+    +-------+-------+-------+
	the moves stop 1 move short of the goal
	`},
		{"clocks garbage", "clocks", clocksInput, "4 five\n", "move 2: \"five\" is not a move (1-9)", `
	dials: 3 3 0 / 2 2 2 / 2 1 2
	start                        after the first 1 move: 4
	+-------+-------+-------+    +-------+-------+-------+
	| A   9 | B   9 | C  12 |    | A  12 | B   9 | C  12 |
	|       |       |   |   |    |   |   |       |   |   |
	| --o   | --o   |   o   |    |   o   | --o   |   o   |
	|       |       |       |    |       |       |       |
	+-------+-------+-------+    +-------+-------+-------+
	| D   6 | E   6 | F   6 |    | D   9 | E   6 | F   6 |
	|       |       |       |    |       |       |       |
	|   o   |   o   |   o   |    | --o   |   o   |   o   |
	|   |   |   |   |   |   |    |       |   |   |   |   |
	+-------+-------+-------+    +-------+-------+-------+
	| G   6 | H   3 | I   6 |    | G   9 | H   3 | I   6 |
	|       |       |       |    |       |       |       |
	|   o   |   o-- |   o   |    | --o   |   o-- |   o   |
	|   |   |       |   |   |    |       |       |   |   |
	+-------+-------+-------+    +-------+-------+-------+
	stopped at move 2: "five" is not a move (1-9)
	`},
		{"eight-puzzle off the board", "eight-puzzle", eightInput, "rr\n\n", "case 1, move 1: r moves the blank off the board", `
	case 1 of 2: 2 3 4 / 1 5 x / 7 6 8
	start            after no moves
	+---+---+---+    +---+---+---+
	| 2 | 3 | 4 |    | 2 | 3 | 4 |
	+---+---+---+    +---+---+---+
	| 1 | 5 |   |    | 1 | 5 |   |
	+---+---+---+    +---+---+---+
	| 7 | 6 | 8 |    | 7 | 6 | 8 |
	+---+---+---+    +---+---+---+
	stopped at move 1: r moves the blank off the board
	`},
		{"eight-puzzle case by replay", "eight-puzzle", eightInput, "dlur\n", "", `
	case 1 of 2: 2 3 4 / 1 5 x / 7 6 8
	start            after 4 moves: dlur
	+---+---+---+    +---+---+---+
	| 2 | 3 | 4 |    | 2 | 3 | 4 |
	+---+---+---+    +---+---+---+
	| 1 | 5 |   |    | 1 | 8 |   |
	+---+---+---+    +---+---+---+
	| 7 | 6 | 8 |    | 7 | 5 | 6 |
	+---+---+---+    +---+---+---+
	the moves stop 15 moves short of the goal
	`},
		{"eight-puzzle wrongly unsolvable", "eight-puzzle", eightInput, "unsolvable\n", "", `
	case 1 of 2: 2 3 4 / 1 5 x / 7 6 8
	start            after no moves
	+---+---+---+    +---+---+---+
	| 2 | 3 | 4 |    | 2 | 3 | 4 |
	+---+---+---+    +---+---+---+
	| 1 | 5 |   |    | 1 | 5 |   |
	+---+---+---+    +---+---+---+
	| 7 | 6 | 8 |    | 7 | 6 | 8 |
	+---+---+---+    +---+---+---+
	the output says unsolvable, but this board can be solved
	`},
		{"not a puzzle", "tokens", "1 2\n", "3\n", "", ""},
		{"unreadable input", "rotation-game", "1 2 3\n0\n", "A\n1\n", "case 1: ...", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := byName(t, tt.checker)
			got := Failure(checkerOf(t, p), []byte(tt.input), []byte(tt.output), findingOf(t, p, tt.input, tt.output, tt.message))
			want := ""
			if tt.want != "" {
				want = dedent(tt.want)
			}
			if got != want {
				t.Errorf("got\n%s\nwant\n%s", got, want)
			}
		})
	}
}

// TestFailingCase: the case is the finding's, where it is one of the
// input's; else the first one not solved, else the first.
func TestFailingCase(t *testing.T) {
	solved := func(k int) bool { return k != 2 }
	tests := []struct {
		f    *judging.Finding
		want int
	}{
		{&judging.Finding{Kind: judging.Illegal, Case: 3, Move: 5}, 3},
		{&judging.Finding{Kind: judging.Format, Case: 4}, 4},
		{&judging.Finding{Kind: judging.NotSolved, Case: 9}, 2}, // out of range: replay decides
		{&judging.Finding{Kind: judging.Format}, 2},             // the output as a whole
		{nil, 2},
	}
	for _, tt := range tests {
		if got := failingCase(tt.f, 4, solved); got != tt.want {
			t.Errorf("failingCase(%+v): got %d, want %d", tt.f, got, tt.want)
		}
	}
	if got := failingCase(nil, 4, func(int) bool { return true }); got != 1 {
		t.Errorf("every case solved: got %d, want 1", got)
	}
}

func TestExplain(t *testing.T) {
	tests := []struct {
		name, checker, input, output, message string
		want                                  string // the explanation, summed up by summary
	}{
		{"not a move", "rotation-game", rotationInput, "AC\n2\nDQ\n2\n", "",
			"case 2/2 moves D; stopped at 2 Q: 'Q' is not a move (A-H); goal 1 1 1 1 1 1 2 2 2 1 1 2 2 3 3 2 2 2 3 3 3 3 3 3"},
		{"away from the goal", "rotation-game", rotation13, "ABBAFBCDABCGGGA\n2\n", "",
			"case 1/1 moves ABBAFBCDABCGGGA; wrong at 4 A: it leads away from the goal (10 moves from it before, 11 after); optimal ABBBCDABCGGGA"},
		{"no closer", "rotation-game", "2 2 1 1 1 2 2 3 3 2 2 3 3 1 2 2 3 1 3 3 3 1 1 1\n0\n", "EGAAGF\n3\n", "case 1: after 6 moves",
			"case 1/1 moves EGAAGF; wrong at 1 E: it brings the goal no closer (5 moves from it before and after)"},
		{"not the smallest", "rotation-game", rotation3, "AGB\n1\n", "case 1: shortest, but not the smallest",
			"case 1/1 moves AGB; wrong at 2 G: the smallest of the shortest answers has B here; optimal ABG"},
		{"right but for the digit", "rotation-game", rotationInput, "AC\n2\nDDHH\n1\n", "case 2: line 2 says 1, the center shows 2",
			"case 2/2 moves DDHH"},
		{"no moves needed, but needed", "rotation-game", rotation3, "No moves needed\n1\n", "case 1",
			"case 1/1 moves ; note the goal is 3 moves away"},
		{"stops short", "clocks", clocksInput, "9 8 5\n", "",
			"case 1/1 moves 9 8 5; note the moves stop 1 move short of the goal"},
		{"unordered", "clocks", clocksInput, "9 8 5 4\n", "",
			"case 1/1 moves 9 8 5 4; wrong at 2 8: it comes after 9, and the moves go in ascending order; optimal 4 5 8 9"},
		{"past the goal", "clocks", clocksInput, "4 5 8 9 9 9 9 9", "",
			"case 1/1 moves 4 5 8 9 9 9 9 9; wrong at 5 9: the goal was already reached, and it leads 3 moves away from it; optimal 4 5 8 9"},
		{"clocks garbage", "clocks", clocksInput, "4 five\n", "",
			`case 1/1 moves 4; stopped at 2 five: "five" is not a move (1-9)`},
		{"off the board", "eight-puzzle", eightInput, "rr\n", "case 1, move 1",
			"case 1/2 moves ; stopped at 1 r: r moves the blank off the board; goal 1 2 3 / 4 5 6 / 7 8 x"},
		{"too long", "eight-puzzle", eight6, "lldudrdr\n", "case 1: 8 moves, the optimum is 6",
			"case 1/1 moves lldudrdr; wrong at 4 u: it leads away from the goal (3 moves from it before, 4 after); optimal lldrdr"},
		{"unsolvable board", "eight-puzzle", "2 1 3 4 5 6 7 8 x\n", "lr\n", "case 1",
			"case 1/1 moves ; note this board cannot be solved (its tiles are an odd permutation); no goal"},
		{"unsolvable in capitals", "eight-puzzle", "2 1 3 4 5 6 7 8 x\n", "UNSOLVABLE\n", "",
			`case 1/1 moves ; note write "unsolvable" in lower case; no goal`},
		{"long output", "clocks", clocksInput, "4 5 8 9 " + strings.Repeat("9 ", 20000), "",
			"case 1/1 moves (10000 moves); wrong at 5 9: the goal was already reached, and it leads 3 moves away from it" +
				"; note the output has more moves; the drawing replays the first 10000; optimal 4 5 8 9"},
		{"case by replay", "eight-puzzle", "1 2 3 4 5 6 7 8 x\n" + eight6, "\nlld\n", "",
			"case 2/2 moves lld; note the moves stop 3 moves short of the goal"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := byName(t, tt.checker)
			e := Explain(checkerOf(t, p), []byte(tt.input), []byte(tt.output), findingOf(t, p, tt.input, tt.output, tt.message))
			if e == nil {
				t.Fatal("got nil")
			}
			if got := summary(e); got != tt.want && !strings.HasPrefix(tt.want, got+"; goal") {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}

// summary sums up an explanation in one line; the goal is left out when it
// is the usual one (see TestExplain's prefix match).
func summary(e *Explanation) string {
	s := fmt.Sprintf("case %d/%d moves %s", e.Case, e.Cases, e.join(e.Moves))
	if len(e.Moves) > 100 {
		s = fmt.Sprintf("case %d/%d moves (%d moves)", e.Case, e.Cases, len(e.Moves))
	}
	if len(e.Path) != len(e.Moves) {
		s += fmt.Sprintf("; %d positions for %d moves", len(e.Path), len(e.Moves))
	}
	if w := e.Wrong; w != nil {
		what := "wrong"
		if w.After == nil {
			what = "stopped"
		}
		s += fmt.Sprintf("; %s at %d %s: %s", what, w.N, w.Move, w.Why)
	}
	if e.Note != "" {
		s += "; note " + e.Note
	}
	if e.Optimal != nil {
		s += "; optimal " + e.join(e.Optimal)
		if len(e.OptimalPath) != len(e.Optimal) {
			s += fmt.Sprintf(" (%d positions)", len(e.OptimalPath))
		}
	}
	if e.Goal == nil {
		s += "; no goal"
	} else if e.Puzzle == "rotation-game" && e.Wrong != nil && e.Wrong.After == nil || e.Puzzle == "eight-puzzle" && e.Wrong != nil && e.Wrong.After == nil {
		s += "; goal " + e.Goal.String()
	}
	return s
}

func TestCases(t *testing.T) {
	tests := []struct {
		checker, input string
		want           []string
	}{
		{"rotation-game", rotationInput, []string{"case 1/2 moves ; optimal AC", "case 2/2 moves ; optimal DDHH"}},
		{"clocks", clocksInput, []string{"case 1/1 moves ; optimal 4 5 8 9"}},
		{"eight-puzzle", eightInput + "2 1 3 4 5 6 7 8 x\n", []string{
			"case 1/3 moves ; optimal dlurullddrurdllurdr", "case 2/3 moves ; optimal ", // the goal: no moves
			"case 3/3 moves ; note this board cannot be solved (its tiles are an odd permutation); no goal"}},
		{"tokens", "1\n", nil},
		{"clocks", "1 2\n", nil},
	}
	for _, tt := range tests {
		es := Cases(byName(t, tt.checker), []byte(tt.input))
		var got []string
		for _, e := range es {
			if e.Replayed {
				t.Errorf("%s: case %d is marked replayed", tt.checker, e.Case)
			}
			got = append(got, summary(e))
		}
		if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
			t.Errorf("Cases(%s, %q):\ngot  %q\nwant %q", tt.checker, tt.input, got, tt.want)
		}
	}
}

// FuzzFailure feeds any output and any finding to every puzzle (a stored
// report's finding may say anything): the drawing must never panic, and a
// readable input always gets one.
func FuzzFailure(f *testing.F) {
	f.Add(0, []byte("AC\n2\nDDHH\n2\n"), 5, 2, 0, "")
	f.Add(1, []byte("9 8 5 4\n"), -1, 0, 0, "")
	f.Add(2, []byte("dlur\nunsolvable\n"), 1, 7, 0, "")
	f.Add(2, []byte("\xff\x00r\r\n\n\n"), 0, 1, 1, "r")
	f.Add(1, []byte("4 5 8 9 9\n"), 2, 1, 5, "9")
	f.Add(0, []byte("AGB\n1\n"), 3, 1, -2, "G")
	puzzles := []struct{ checker, input string }{
		{"rotation-game", rotationInput}, {"clocks", clocksInput}, {"eight-puzzle", eightInput},
	}
	kinds := []judging.Kind{judging.Illegal, judging.NotSolved, judging.TooLong, judging.NotSmallest,
		judging.Unordered, judging.WrongValue, judging.Unsolvable, judging.Format}
	f.Fuzz(func(t *testing.T, which int, output []byte, kind, k, move int, token string) {
		p := puzzles[uint(which)%uint(len(puzzles))]
		var found *judging.Finding
		if kind >= 0 {
			found = &judging.Finding{Kind: kinds[kind%len(kinds)], Case: k, Move: move, Token: token,
				Distances: []int{move, k, -1}, Before: k, After: move, Want: token, Prev: token}
		}
		message := fmt.Sprintf("%+v", found)
		e := Explain(checkerOf(t, byName(t, p.checker)), []byte(p.input), output, found)
		if e == nil {
			t.Fatalf("%s: no explanation for output %q, message %q", p.checker, output, message)
		}
		if got := e.Text(); !strings.Contains(got, "start") {
			t.Errorf("%s: no drawing for output %q, message %q: %q", p.checker, output, message, got)
		}
		if err := wellFormed(e.SVG()); err != nil {
			t.Errorf("%s: output %q, message %q: the SVG is not well-formed: %v", p.checker, output, message, err)
		}
	})
}

// TestExplainFromFinding: where the checker's finding says where an answer
// that reaches the goal went wrong (too long, not the smallest, out of
// order), the drawing takes it from the finding, also after the finding's
// trip through a report's JSON, and shows what judging the replay here
// finds; the checker's message is not read at all.
func TestExplainFromFinding(t *testing.T) {
	tests := []struct {
		name, checker, input, output string
		kind                         judging.Kind
	}{
		{"too long", "rotation-game", rotation13, "ABBAFBCDABCGGGA\n3\n", judging.TooLong},
		{"past the goal", "clocks", clocksInput, "4 5 8 9 9 9 9 9\n", judging.TooLong},
		{"not the smallest", "rotation-game", rotation3, "AGB\n1\n", judging.NotSmallest},
		{"unordered", "clocks", clocksInput, "9 8 5 4\n", judging.Unordered},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := byName(t, tt.checker)
			r, err := checkerOf(t, p).Check(context.Background(), []byte(tt.input), []byte(tt.output))
			if err != nil || r.Finding == nil {
				t.Fatalf("got %+v, %v, want a finding", r, err)
			}
			if r.Finding.Kind != tt.kind {
				t.Fatalf("got a finding of kind %s, want %s", r.Finding.Kind, tt.kind)
			}
			b, err := json.Marshal(r.Finding)
			if err != nil {
				t.Fatal(err)
			}
			var stored judging.Finding
			if err := json.Unmarshal(b, &stored); err != nil {
				t.Fatal(err)
			}
			replayed := summary(Explain(checkerOf(t, p), []byte(tt.input), []byte(tt.output), nil))
			for _, f := range []*judging.Finding{r.Finding, &stored} {
				e := Explain(checkerOf(t, p), []byte(tt.input), []byte(tt.output), f)
				if got := summary(e); got != replayed {
					t.Errorf("from the finding %s:\ngot  %s\nwant %s", b, got, replayed)
				}
				if e.Wrong == nil || e.Wrong.N != f.Move {
					t.Errorf("wrong step %+v, want move %d", e.Wrong, f.Move)
				}
			}
		})
	}
}
