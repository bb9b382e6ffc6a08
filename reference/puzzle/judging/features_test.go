package judging

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/optjudge/optjudge/reference/lex"
	"github.com/optjudge/optjudge/reference/puzzle"
)

// The definitions of the puzzles of issue 20 (reference/puzzle/testdata)
// use every input, output and layout feature: stickers (the pocket cube),
// a family of sizes (pancakes), cases of several lines separated by empty
// lines and commuting moves listed ascending (Lights Out), a board of
// two-digit tiles (the fifteen-puzzle). These tests take each through the
// judging side; the fifteen-puzzle's pattern databases take long to build,
// so it is read and written here but not solved.

var (
	defsMu sync.Mutex
	defs   = map[string]*Puzzle{}
)

// defined returns the puzzle of reference/puzzle/testdata/name.yaml.
func defined(tb testing.TB, name string) *Puzzle {
	tb.Helper()
	defsMu.Lock()
	defer defsMu.Unlock()
	if p, ok := defs[name]; ok {
		return p
	}
	path := filepath.Join("..", "testdata", name+".yaml")
	f, err := os.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	d, err := puzzle.Parse(f, path)
	if err == nil {
		err = d.Validate()
	}
	if err != nil {
		tb.Fatal(err)
	}
	p, err := New(d, Options{})
	if err != nil {
		tb.Fatal(err)
	}
	defs[name] = p
	return p
}

// roundTrip formats positions as an input and reads them back.
func roundTrip(t *testing.T, p *Puzzle, ps []Position) []byte {
	t.Helper()
	in := p.format(ps)
	cases, err := p.Cases(in)
	if err != nil {
		t.Fatalf("%s: the input written %q does not read: %v", p.Name(), in, err)
	}
	if len(cases) != len(ps) {
		t.Fatalf("%s: wrote %d cases, read %d", p.Name(), len(ps), len(cases))
	}
	for i, c := range cases {
		if c.Size != ps[i].Size || !c.State.Equal(ps[i].State) {
			t.Fatalf("%s: case %d reads as %v, want %v", p.Name(), i+1, c.Position, ps[i])
		}
	}
	files, err := p.Split(in)
	if err != nil {
		t.Fatal(err)
	}
	if joined, err := p.joinCases(files); err != nil || !bytes.Equal(joined, in) {
		t.Fatalf("%s: Join(Split(x)) = %q, %v, want %q", p.Name(), joined, err, in)
	}
	return in
}

// acceptsReference checks that the reference's output for in is accepted.
func acceptsReference(t *testing.T, p *Puzzle, in []byte) {
	t.Helper()
	out, err := p.Solve(in)
	if err != nil {
		t.Fatalf("%s: solving %q: %v", p.Name(), in, err)
	}
	r, err := checker(t, p, "").Check(context.Background(), in, out)
	if err != nil || !r.Accepted {
		t.Fatalf("%s: the reference's output %q for %q: got %+v, %v", p.Name(), out, in, r, err)
	}
}

// goalOf is the first goal state of p at size n.
func goalOf(p *Puzzle, n int) Position {
	g := p.Instance(n).Spec.Goal.States[0]
	pos := Position{Size: n}
	pos.State.Cells = append([]uint8(nil), g...)
	return p.full(pos)
}

// after makes the moves called names from pos.
func after(t *testing.T, p *Puzzle, pos Position, names ...string) Position {
	t.Helper()
	for _, name := range names {
		m, ok := p.Instance(pos.Size).Move(name)
		if !ok {
			t.Fatalf("no move %q", name)
		}
		if pos, ok = p.Apply(pos, m); !ok {
			t.Fatalf("move %q cannot be made", name)
		}
	}
	return pos
}

// checks judges outputs for an input: each gives its message, "" for AC.
func checks(t *testing.T, p *Puzzle, in string, outs map[string]string) {
	t.Helper()
	for out, want := range outs {
		r, err := checker(t, p, "").Check(context.Background(), []byte(in), []byte(out))
		if err != nil {
			t.Errorf("%s %q: %v", p.Name(), out, err)
			continue
		}
		if got := map[bool]string{true: ""}[r.Accepted]; !r.Accepted {
			got = r.Message
			if got != want {
				t.Errorf("%s %q: got %q, want %q", p.Name(), out, got, want)
			}
			checkFinding(t, p, r)
		} else if want != "" {
			t.Errorf("%s %q: accepted (%s), want %q", p.Name(), out, r.Message, want)
		}
	}
}

// invalid checks the validator's message for each input.
func invalid(t *testing.T, p *Puzzle, inputs map[string]string) {
	t.Helper()
	for in, want := range inputs {
		if err := p.Validate([]byte(in)); err == nil || err.Error() != want {
			t.Errorf("%s %q: got %v, want %s", p.Name(), in, err, want)
		}
	}
}

func TestPocketCube(t *testing.T) {
	p := defined(t, "pocket-cube")
	r := rand.New(rand.NewPCG(2, 2))
	var ps []Position
	for range 20 {
		st, err := p.at(0).solver.Random(r)
		if err != nil {
			t.Fatal(err)
		}
		ps = append(ps, Position{State: st})
	}
	acceptsReference(t, p, roundTrip(t, p, ps))

	// The solved cube turned by R reads back, and R' solves it.
	in := string(p.format([]Position{after(t, p, goalOf(p, 0), "R")}))
	if want := "UFUFRRRRFDFDDBDBLLLLUBUB\n"; in != want {
		t.Errorf("the cube after R: got %q, want %q", in, want)
	}
	if out, err := p.Solve([]byte(in)); err != nil || string(out) != "R'\n" {
		t.Errorf("solve: got %q, %v, want R'", out, err)
	}
	checks(t, p, in, map[string]string{
		"R'\n":      "",
		"R' R R'\n": "case 1: 3 moves, the optimum is 1; move 2 (R): the goal was already reached, and it leads 1 move away from it; distances to the goal after each move: 0 1 0",
		"L\n":       `case 1, move 1: "L" is not a move (U, U2, U', R, R2, R', F, F2, F')`,
		"U\n":       "case 1: after 1 move the puzzle is UUFFUBRRRRFDDBDBFDLLLLUB",
	})
	// Positions no cube has, by their stickers.
	cells := func(name string) int { c, _ := p.Instance(0).Cell(name); return c }
	swapped := goalOf(p, 0)
	swapped.State.Cells[cells("DBL")], swapped.State.Cells[cells("DLF")] = swapped.State.Cells[cells("DLF")], swapped.State.Cells[cells("DBL")]
	twisted, turned := goalOf(p, 0), goalOf(p, 0)
	twisted.State.Orient[cells("DBL")], turned.State.Orient[cells("URF")] = 1, 1
	mirror := []byte("UUUURRRRFFFFDDDDLLLLBBBB\n")
	mirror[0] = 'D'
	invalid(t, p, map[string]string{
		"UUUURRRRFFFFDDDDLLLLBBBX\n":          `1:24: "X" is not a colour (want U, R, F, D, L or B)`,
		"UUUURRRRFFFFDDDDLLLLBBB\n":           "1:24: only 23 stickers, want 24",
		string(mirror):                        "1:1: place ULB reads D L B: no piece has these colours",
		string(p.format([]Position{swapped})): "1:15: place DBL holds DLF, but no move changes it: want DBL",
		string(p.format([]Position{twisted})): "1:15: place DBL is twisted, but no move turns it",
		string(p.format([]Position{turned})):  "1: the puzzle cannot be solved: no sequence of moves reaches the goal",
		"UUUURRRRFFFFDDDDLLLLBBBB":            "1:25: missing final newline",
	})
}

func TestPancakes(t *testing.T) {
	p := defined(t, "pancakes")
	r := rand.New(rand.NewPCG(3, 3))
	var ps []Position
	for range 30 {
		n := 2 + r.IntN(7)
		st, err := p.at(n).solver.Random(r)
		if err != nil {
			t.Fatal(err)
		}
		ps = append(ps, Position{Size: n, State: st})
	}
	acceptsReference(t, p, roundTrip(t, p, ps))
	checks(t, p, "3 3 1 2\n2 2 1\n3 1 2 3\n", map[string]string{
		"3 2\n2\n":     "",
		"2 3\n2\n":     "case 1: after 2 moves the stack is 2 3 1",
		"3 2\n\n1 2\n": "case 2: empty line, but the stack 2 1 is not solved",
		"3 2\n":        "missing case 2 of 3",
		"3 2\n4\n":     `case 2, move 1: "4" is not a move (2)`,
		"3 3 3 2\n2\n": "case 1: 4 moves, the optimum is 2; move 2 (3): it leads away from the goal (1 move from it before, 2 after); distances to the goal after each move: 1 2 1 0",
	})
	invalid(t, p, map[string]string{
		"17 1 2\n":  `1:1: want the size first, a number 2 to 16, got "17"`,
		"3 1 2 2\n": "1:7: bar 2 appears twice (also at column 5)",
		"3 1 2\n":   "1:6: only 2 bars, want 3 after the size 3 (3 missing)",
		"3 1 2 4\n": `1:7: "4" is out of range 1-3`,
		"2 2 1 1\n": `1:7: unexpected "1" after the 2 bars of size 2`,
	})
}

func TestLightsOut(t *testing.T) {
	p := defined(t, "lights-out")
	r := rand.New(rand.NewPCG(4, 4))
	var ps []Position
	for range 40 {
		pos, _ := p.arrangement(0, r) // lit at random: solvable or not
		ps = append(ps, pos)
	}
	in := roundTrip(t, p, ps)
	if !bytes.Contains(in, []byte("\n\n")) {
		t.Errorf("cases are not separated by empty lines: %q", in)
	}
	acceptsReference(t, p, in)
	one := "00000\n00000\n00000\n00000\n00000\n\n01000\n11100\n01000\n00000\n00000\n"
	checks(t, p, one, map[string]string{
		"\n7\n":           "",
		"\n7 7 7\n":       "case 2: 3 moves, the optimum is 1; move 2 (7): the goal was already reached, and it leads 1 move away from it; distances to the goal after each move: 0 1 0",
		"\n":              "missing case 2 of 2",
		"\n26\n":          `case 2, move 1: "26" is not a move (1-25)`,
		"\n7\nunsolvable": "unexpected output after the last case",
	})
	// A board lit by presses 1 and 7: the answer lists them ascending.
	lit := string(p.format([]Position{after(t, p, goalOf(p, 0), "1", "7")}))
	checks(t, p, lit, map[string]string{
		"1 7\n": "",
		"7 1\n": "case 1: move 2 (1) comes after 7: the moves must be in ascending order",
	})
	invalid(t, p, map[string]string{
		"00000\n00000\n00000\n00000\n00000\n00000\n": "6:1: want an empty line between two cases, got \"00000\"",
		"00000\n00000\n00000\n00000\n00000\n\n":      "6: an empty line after the last case: empty lines go between cases",
		"00000\n00000\n00200\n00000\n00000\n":        `3:3: "2" is out of range 0-1`,
		"00000\n00000\n0000\n00000\n00000\n":         "3:5: only 4 lights, want 5",
		"00000\n00000\n":                             "3: case 1 ends after 2 lines, want 5 lines",
	})
}

func TestFifteenReadWrite(t *testing.T) {
	p := defined(t, "fifteen-puzzle")
	r := rand.New(rand.NewPCG(5, 5))
	var ps []Position
	for range 50 {
		pos, _ := p.arrangement(0, r)
		ps = append(ps, pos)
	}
	roundTrip(t, p, ps)
	invalid(t, p, map[string]string{
		"1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 15\n": "1:37: tile 15 appears twice (also at column 34)",
		"1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16\n": `1:37: "16" is not one of the tiles (want 1-15 or 0)`,
	})
	if got := p.String(goalOf(p, 0)); got != "1 2 3 4 / 5 6 7 8 / 9 10 11 12 / 13 14 15 0" {
		t.Errorf("got %q", got)
	}
	odd := goalOf(p, 0)
	odd.State.Cells[0], odd.State.Cells[1] = odd.State.Cells[1], odd.State.Cells[0]
	if why := p.WhyUnsolvable(odd, false); !strings.Contains(why, "parity") {
		t.Errorf("got %q, want the parity of the tiles and the blank's row", why)
	}
}

// FuzzJudging feeds any input and output to every definition: reading,
// solving small cases and checking never panic; a bad input is a
// *lex.Error; a good one reads back as it was written.
func FuzzJudging(f *testing.F) {
	names := []string{"rotation-game", "clocks", "eight-puzzle", "pocket-cube", "pancakes", "lights-out", "fifteen-puzzle"}
	f.Add(0, []byte("1 1 1 1 3 2 3 2 3 1 3 2 2 3 1 2 2 2 3 1 2 1 3 3\n0\n"), []byte("AC\n2\n"))
	f.Add(1, []byte("3 3 0\n2 2 2\n2 1 2\n"), []byte("4 5 8 9\n"))
	f.Add(2, []byte("1 2 3 4 5 6 7 x 8\n"), []byte("r\n"))
	f.Add(3, []byte("UFUFRRRRFDFDDBDBLLLLUBUB\n"), []byte("R'\n"))
	f.Add(4, []byte("3 3 1 2\n"), []byte("3 2\n"))
	f.Add(5, []byte("10000\n11000\n10000\n00000\n00000\n\n00000\n00000\n00000\n00000\n00000\n"), []byte("6\n\n"))
	f.Add(6, []byte("1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 15\n"), []byte("unsolvable\n"))
	f.Fuzz(func(t *testing.T, which int, input, output []byte) {
		name := names[uint(which)%uint(len(names))]
		var p *Puzzle
		switch name {
		case "rotation-game", "clocks", "eight-puzzle":
			p = shipped(t, name)
		default:
			p = defined(t, name)
		}
		cases, err := p.Cases(input)
		if err != nil {
			var le *lex.Error
			if !errors.As(err, &le) {
				t.Fatalf("%s %q: got %T %v, want a *lex.Error", name, input, err, err)
			}
			return
		}
		var ps []Position
		for _, c := range cases {
			ps = append(ps, c.Position)
		}
		if again, err := p.Cases(p.format(ps)); err != nil || len(again) != len(cases) {
			t.Fatalf("%s %q: written again it reads %d cases, %v", name, input, len(again), err)
		}
		if name == "fifteen-puzzle" || len(cases) > 3 {
			return // searches, or too many
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if _, err := checker(t, p, "").Check(ctx, input, output); err != nil && ctx.Err() == nil {
			t.Fatalf("%s %q, output %q: %v", name, input, output, err)
		}
	})
}

// ringDef is a puzzle of the features the shipped ones leave out: cells
// given in another order by the input, several goal states, a move that
// costs more than one, a drawing around a circle.
const ringDef = `name: ring
cells: [a, b, c, d, e, f]
symbols: [1, 2, 3, 4, 5, 6]
moves:
  - {name: L, cycles: [[a, b, c, d, e, f]]}
  - {name: S, cycles: [[a, b]]}
  - {name: T, sequence: [L, L, L], cost: 2}
goal:
  states: [[1, 2, 3, 4, 5, 6], [6, 5, 4, 3, 2, 1]]
input:
  cases: until_eof
  order: [f, e, d, c, b, a]
output:
  separator: " "
layout:
  circle: [a, b, c, d, e, f]
`

func TestRing(t *testing.T) {
	d, err := puzzle.Parse(strings.NewReader(ringDef), "ring.yaml")
	if err == nil {
		err = d.Validate()
	}
	if err != nil {
		t.Fatal(err)
	}
	p, err := New(d, Options{})
	if err != nil {
		t.Fatal(err)
	}
	// The input lists f first: "6 5 4 3 2 1" is the first goal, cell a
	// holding 1.
	cases, err := p.Cases([]byte("6 5 4 3 2 1\n1 2 3 4 5 6\n5 4 3 2 1 6\n"))
	if err != nil {
		t.Fatal(err)
	}
	if !p.Solved(cases[0].Position) || !p.Solved(cases[1].Position) || p.Solved(cases[2].Position) {
		t.Errorf("got solved %v %v %v, want the first two", p.Solved(cases[0].Position), p.Solved(cases[1].Position), p.Solved(cases[2].Position))
	}
	in := "5 4 3 2 1 6\n"
	out, err := p.Solve([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	acceptsReference(t, p, []byte(in))
	r := rand.New(rand.NewPCG(6, 6))
	var ps []Position
	for range 30 {
		st, err := p.at(0).solver.Random(r)
		if err != nil {
			t.Fatal(err)
		}
		ps = append(ps, Position{State: st})
	}
	acceptsReference(t, p, roundTrip(t, p, ps))
	// Costs: T is three L for 2.
	checks(t, p, in, map[string]string{
		string(out):   "",
		"L L L L L\n": "case 1: 5 moves of cost 5, the optimum is 4; move 3 (L): it brings the goal no closer (a cost of 2 from it before and after); distances to the goal after each move: 3 2 2 1 0",
		"L L L L\n":   "case 1: after 4 moves the position is 1 6 5 4 3 2",
	})
	if string(out) != "L L T\n" {
		t.Errorf("got %q, want L L T (cost 4, not L L L L L)", out)
	}
}

// TestWalker: making moves in place gives the engine's states, and refuses
// the moves the engine refuses.
func TestWalker(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	for _, name := range []string{"rotation-game", "clocks", "eight-puzzle", "pocket-cube", "pancakes", "lights-out", "fifteen-puzzle", "two-by-three"} {
		var p *Puzzle
		switch name {
		case "rotation-game", "clocks", "eight-puzzle":
			p = shipped(t, name)
		default:
			p = defined(t, name)
		}
		for n := p.lo; n <= p.hi(); n++ {
			sp := p.Instance(n).Spec
			var pos Position
			if len(sp.Goal.States) > 0 {
				pos = goalOf(p, n)
			} else {
				cases, err := p.Cases([]byte("1 1 1 1 3 2 3 2 3 1 3 2 2 3 1 2 2 2 3 1 2 1 3 3\n0\n"))
				if err != nil {
					t.Fatal(err)
				}
				pos = cases[0].Position
			}
			w := newWalker(sp, pos.State)
			for range 300 {
				m := r.IntN(len(sp.Moves))
				next, ok := p.Apply(pos, m)
				if got := w.move(m); got != ok {
					t.Fatalf("%s size %d, move %s: walker %v, engine %v", name, n, sp.Moves[m].Name, got, ok)
				}
				pos = p.full(next)
				if !w.cur.Equal(pos.State) {
					t.Fatalf("%s size %d, move %s: walker %v, engine %v", name, n, sp.Moves[m].Name, w.cur, pos.State)
				}
			}
		}
	}
}

// checkFinding checks a rejection's finding: the message is its
// rendering, the case and the move it names are the finding's, and they
// survive JSON.
func checkFinding(t *testing.T, p *Puzzle, r Result) {
	t.Helper()
	f := r.Finding
	if f == nil || f.Kind == "" {
		t.Errorf("%s: %q has no finding", p.Name(), r.Message)
		return
	}
	if got := p.Message(*f); got != r.Message {
		t.Errorf("%s: the finding %+v renders %q, the message is %q", p.Name(), *f, got, r.Message)
	}
	// the prefix a test may read: "case 3, move 5:", "move 5:", "case 3:"
	var k, j int
	if n, _ := fmt.Sscanf(r.Message, "case %d, move %d:", &k, &j); n < 2 {
		k, j = 0, 0
		if n, _ := fmt.Sscanf(r.Message, "move %d:", &j); n == 1 {
			k = 1
		} else {
			j = 0
			fmt.Sscanf(r.Message, "case %d:", &k)
		}
	}
	if k > 0 && f.Case != k || j > 0 && (f.Move != j || f.Kind != Illegal) {
		t.Errorf("%s: %q has the finding %+v", p.Name(), r.Message, *f)
	}
	b, err := json.Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	var back Finding
	if err := json.Unmarshal(b, &back); err != nil || back.Kind != f.Kind || back.Case != f.Case || back.Move != f.Move || back.Token != f.Token {
		t.Errorf("%s: the finding %s comes back from JSON as %+v, %v", p.Name(), b, back, err)
	}
}

// TestOrbitStickers reads and writes the stickers of a puzzle of three
// sets (three facelets a corner, two an edge, one the centre; identical
// edges), and answers from them.
func TestOrbitStickers(t *testing.T) {
	p := defined(t, "orbits")
	r := rand.New(rand.NewPCG(3, 3))
	var ps []Position
	for range 20 {
		st, err := p.at(0).solver.Random(r)
		if err != nil {
			t.Fatal(err)
		}
		ps = append(ps, Position{State: st})
	}
	acceptsReference(t, p, roundTrip(t, p, ps))

	in := string(p.format([]Position{after(t, p, goalOf(p, 0), "a")}))
	if want := "b g y r g b r b y r g g r b y b y w\n"; in != want {
		t.Errorf("the puzzle after a: got %q, want %q", in, want)
	}
	if out, err := p.Solve([]byte(in)); err != nil || string(out) != "a'\n" {
		t.Errorf("solve: got %q, %v, want a'", out, err)
	}
	invalid(t, p, map[string]string{
		// The centre shows an edge's colour; an edge shows a corner's.
		"b g y r g b r b y r g g r b y b y r\n": "1:35: cell m reads r: no letter has these colours",
		"b g y r g b r b y r g g r b y g y w\n": "1:31: cell e4 reads g y: no letter has these colours",
		// A third E edge.
		"b g y r g b r b y r g g r r g b y w\n": "1:27: letter E appears 3 times, want 2 (first at column 19)",
	})
}
