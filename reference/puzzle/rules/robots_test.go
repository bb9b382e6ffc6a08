package rules_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/optjudge/optjudge/reference/puzzle"
	"github.com/optjudge/optjudge/reference/puzzle/engine"
	"github.com/optjudge/optjudge/reference/puzzle/judging"
)

// Robots in the manner of Ricochet Robots: three robots R, G and B on a
// 4x4 board with three walled squares; a move sends one robot in one
// direction until the edge, a wall or another robot stops it, and must
// move it. R must reach the bottom right corner. The state is a part of
// pieces; the rules are written twice, as moves() compiled into guards (a
// robot's way is free where no other robot is on it: conditions on two
// pieces' rows and columns together) and as successors(state).
const (
	robotsRows, robotsCols = 4, 4
	robotsWalls            = "(0, 2), (2, 1), (3, 0)" // row, column from 0
)

const robotsHead = `name: robots
parts:
  - {name: robots, pieces: [R, G, B], grid: {rows: 4, cols: 4}}
rules:
  code: |
    ROWS, COLS = 4, 4
    WALLS = [` + robotsWalls + `]
    ROBOTS = ["R", "G", "B"]
    DIRS = [("D", 1, 0), ("L", 0, -1), ("R", 0, 1), ("U", -1, 0)]

    def free(r, c):
        return r >= 0 and r < ROWS and c >= 0 and c < COLS and (r, c) not in WALLS

    def goal():
        return {cells.robots["R"]: (3, 3)}

    def valid(s):
        for x in ROBOTS:
            if s.robots[x] in WALLS:
                return "robot %s is on a wall" % x
        return True
`

// robotsCompiled are the moves as guards: robot x at (r, c) going (dr,
// dc) stops at the k-th square when the squares up to it are free and no
// other robot is on them, and the next is off the board or a wall, or
// holds another robot (one variant for each).
const robotsCompiled = `
    def moves():
        out = []
        for x in ROBOTS:
            others = [y for y in ROBOTS if y != x]
            for d, dr, dc in DIRS:
                for r in range(ROWS):
                    for c in range(COLS):
                        if not free(r, c):
                            continue
                        way = []
                        k = 1
                        while free(r + k * dr, c + k * dc):
                            way.append((r + k * dr, c + k * dc))
                            nr, nc = way[-1][0] + dr, way[-1][1] + dc
                            when = {cells.robots[x]: (r, c)}
                            unless = {cells.robots[y]: list(way) for y in others}
                            then = {cells.robots[x]: way[-1]}
                            if free(nr, nc):
                                for y in others:
                                    w = dict(when)
                                    w[cells.robots[y]] = (nr, nc)
                                    out.append(move(x + d, when = w, unless = unless, then = then))
                            else:
                                out.append(move(x + d, when = when, unless = unless, then = then))
                            k += 1
        return out
`

// robotsScript are the same moves in the general form.
const robotsScript = `
    MOVES = [x + d for x in ROBOTS for d, _, _ in DIRS]

    def successors(s):
        out = []
        at = {s.robots[y]: y for y in ROBOTS}
        for x in ROBOTS:
            r, c = s.robots[x]
            for d, dr, dc in DIRS:
                k = 0
                while free(r + (k + 1) * dr, c + (k + 1) * dc) and (r + (k + 1) * dr, c + (k + 1) * dc) not in at:
                    k += 1
                if k > 0:
                    to = dict(s.robots)
                    to[x] = (r + k * dr, c + k * dc)
                    out.append((x + d, s.replace(robots = to)))
        return out
`

const robotsTail = `input: {cases: until_eof}
output: {separator: " ", unsolvable: impossible}
`

func robotsDefinition(tb testing.TB, moves string) *puzzle.Definition {
	tb.Helper()
	d, err := parse(tb, "robots.yaml", robotsHead+moves+robotsTail)
	if err != nil {
		tb.Fatal(err)
	}
	return d
}

// robot is a square, row and column from 0.
type robot [2]int

var robotDirs = []struct {
	name   string
	dr, dc int
}{{"D", 1, 0}, {"L", 0, -1}, {"R", 0, 1}, {"U", -1, 0}}

func robotFree(p robot) bool {
	walls := map[robot]bool{{0, 2}: true, {2, 1}: true, {3, 0}: true}
	return p[0] >= 0 && p[0] < robotsRows && p[1] >= 0 && p[1] < robotsCols && !walls[p]
}

// robotMoves are the moves of an independent simulator, in the order
// R G B, then D L R U: their names and the places they lead to.
func robotMoves(s [3]robot) (names []string, next [][3]robot) {
	for x := range 3 {
		for _, d := range robotDirs {
			p := s[x]
			for {
				q := robot{p[0] + d.dr, p[1] + d.dc}
				if !robotFree(q) || slices.Contains(s[:], q) {
					break
				}
				p = q
			}
			if p != s[x] {
				t := s
				t[x] = p
				names, next = append(names, "RGB"[x:x+1]+d.name), append(next, t)
			}
		}
	}
	return names, next
}

// robotsBFS is every placement's distance to the goal (R in the bottom
// right corner), by a plain breadth-first search backwards over the
// graph of every placement, -1 where the goal cannot be reached.
func robotsBFS() (all [][3]robot, dist map[[3]robot]int) {
	var squares []robot
	for r := range robotsRows {
		for c := range robotsCols {
			if robotFree(robot{r, c}) {
				squares = append(squares, robot{r, c})
			}
		}
	}
	for _, a := range squares {
		for _, b := range squares {
			for _, c := range squares {
				if a != b && b != c && a != c {
					all = append(all, [3]robot{a, b, c})
				}
			}
		}
	}
	into := map[[3]robot][][3]robot{}
	dist = map[[3]robot]int{}
	var queue [][3]robot
	for _, s := range all {
		_, next := robotMoves(s)
		for _, t := range next {
			into[t] = append(into[t], s)
		}
		if s[0] == (robot{3, 3}) {
			dist[s] = 0
			queue = append(queue, s)
		}
	}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		for _, p := range into[s] {
			if _, ok := dist[p]; !ok {
				dist[p] = dist[s] + 1
				queue = append(queue, p)
			}
		}
	}
	return all, dist
}

// robotsAnswer is the smallest shortest answer from s by the distances:
// from each placement, the first move that brings the goal closer.
func robotsAnswer(s [3]robot, dist map[[3]robot]int) string {
	d, ok := dist[s]
	if !ok {
		return "impossible"
	}
	var out []string
	for ; d > 0; d-- {
		names, next := robotMoves(s)
		for i, t := range next {
			if e, ok := dist[t]; ok && e == d-1 {
				out, s = append(out, names[i]), t
				break
			}
		}
	}
	return strings.Join(out, " ")
}

func robotsCase(s [3]robot) string {
	var toks []string
	for _, p := range s {
		toks = append(toks, fmt.Sprint(p[0]+1), fmt.Sprint(p[1]+1))
	}
	return strings.Join(toks, " ")
}

// TestRobotsEveryState answers every placement of the three robots (1,716
// of them) through the judging side, the rules in both forms, and
// compares each answer with the independent search's.
func TestRobotsEveryState(t *testing.T) {
	all, dist := robotsBFS()
	if len(all) != 13*12*11 {
		t.Fatalf("got %d placements, want %d", len(all), 13*12*11)
	}
	var input strings.Builder
	var want []string
	for _, s := range all {
		input.WriteString(robotsCase(s) + "\n")
		want = append(want, robotsAnswer(s, dist))
	}
	for _, form := range []struct{ name, code string }{{"compiled", robotsCompiled}, {"successors", robotsScript}} {
		t.Run(form.name, func(t *testing.T) {
			p, err := judging.New(robotsDefinition(t, form.code), judging.Options{})
			if err != nil {
				t.Fatal(err)
			}
			out, err := p.Solve([]byte(input.String()))
			if err != nil {
				t.Fatal(err)
			}
			got := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
			if len(got) != len(want) {
				t.Fatalf("got %d answers, want %d", len(got), len(want))
			}
			for i := range want {
				if got[i] != want[i] {
					t.Fatalf("%s: got %q, want %q", robotsCase(all[i]), got[i], want[i])
				}
			}
		})
	}
}

// TestRobotsRules checks how the rules see a part of pieces: the state's
// dict of pairs from 0, a state built from a dict or from the pairs, and
// the cells' names and the description in messages from 1.
func TestRobotsRules(t *testing.T) {
	in, err := robotsDefinition(t, robotsScript).Instance(0)
	if err != nil {
		t.Fatal(err)
	}
	if want := "robots.R.row robots.R.col robots.G.row robots.G.col robots.B.row robots.B.col"; strings.Join(in.Cells, " ") != want {
		t.Errorf("cells: got %v, want %s", in.Cells, want)
	}
	st := engine.State{Cells: cellsOf(in, "112344")}
	if got, want := in.Spec.Rules.Describe(st.Cells), "R at 1,1 G at 2,3 B at 4,4"; got != want {
		t.Errorf("describe: got %q, want %q", got, want)
	}
	var got []string
	err = in.Spec.Rules.Successors(st.Cells, func(m int, next []uint8) {
		got = append(got, in.Moves[m]+": "+in.Spec.Rules.Describe(next))
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"RD: R at 3,1 G at 2,3 B at 4,4", "RR: R at 1,2 G at 2,3 B at 4,4",
		"GD: R at 1,1 G at 4,3 B at 4,4", "GL: R at 1,1 G at 2,1 B at 4,4", "GR: R at 1,1 G at 2,4 B at 4,4",
		"BL: R at 1,1 G at 2,3 B at 4,2", "BU: R at 1,1 G at 2,3 B at 1,4",
	}
	if !slices.Equal(got, want) {
		t.Errorf("successors of %s:\ngot  %q\nwant %q", in.Spec.Rules.Describe(st.Cells), got, want)
	}
}

// TestRobotsBadInput checks the input validator's words for pieces off
// the board, on one square, and on a wall (the rules' valid).
func TestRobotsBadInput(t *testing.T) {
	p, err := judging.New(robotsDefinition(t, robotsCompiled), judging.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ input, want string }{
		{"1 1 2 2 4 4\n", ""},
		{"1 1 5 2 4 4\n", "1:5: robots: G's row 5 is off the 4x4 board (rows 1 to 4)"},
		{"1 1 2 0 4 4\n", "1:7: robots: G's column 0 is off the 4x4 board (columns 1 to 4)"},
		{"1 1 2 x 4 4\n", "1:7: robots: G's column \"x\" is not a number (columns 1 to 4)"},
		{"1 01 2 2 4 4\n", "1:3: robots: R's column \"01\" is not a number (columns 1 to 4)"},
		{"1 1 2 2 2 2\n", "1:9: robots: G and B are both at row 2, column 2"},
		{"1 3 2 2 4 4\n", "robot R is on a wall"},
		{"1 1 2 2 4\n", "only 5"},
	} {
		err := p.Validate([]byte(c.input))
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%q: got %v, want no error", c.input, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%q: got %v, want an error with %q", c.input, err, c.want)
		}
	}
}

// TestRobotsBadRules checks the rules' errors about pieces: a state
// built with a piece off the board, two on one square or one missing (as
// the rules run), and a place off the board, a piece that does not exist
// or a place that is not a pair in moves() (as they load).
func TestRobotsBadRules(t *testing.T) {
	script := func(robots string) string {
		return "    MOVES = [\"RD\"]\n    def successors(s):\n        return [(\"RD\", s.replace(robots = " + robots + "))]\n"
	}
	compiled := func(when string) string {
		return "    def moves():\n        return [move(\"RD\", when = " + when + ")]\n"
	}
	tests := []struct {
		name, code, want string
		loading          bool
	}{
		{"off the board", script(`{"R": (4, 0), "G": (1, 1), "B": (2, 2)}`), `robots.yaml:24: successors(): replace: robots: R at (4, 0) is off the 4x4 board (at R at 1,1 G at 2,3 B at 4,4)`, false},
		{"on one square", script(`[(0, 0), (0, 0), (1, 1)]`), `replace: robots: R and G are both at 1,1`, false},
		{"a piece missing", script(`{"R": (0, 0)}`), `replace: robots: no place for piece G`, false},
		{"not a pair", script(`{"R": 3, "G": (1, 1), "B": (2, 2)}`), `robots["R"] is a int, want a list: want (row, column)`, false},
		{"off the board, compiled", compiled(`{cells.robots["R"]: (0, 4)}`), `robots.yaml:23: rules.code: cells.robots["R"].col: 4 is off the 4x4 board of robots (0 to 3)`, true},
		{"no such piece", compiled(`{cells.robots["X"]: (0, 0)}`), `robots.yaml:23: rules.code: moves(): cells.robots has no piece "X" (R, G, B)`, true},
		{"not a place", compiled(`{cells.robots["R"]: 3}`), `cells.robots["R"]: 3 is not a place: want (row, column) or another piece`, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := parse(t, "robots.yaml", robotsHead+tt.code+robotsTail)
			if tt.loading {
				if err == nil || !strings.Contains(err.Error(), tt.want) {
					t.Fatalf("got %v, want it to hold %q", err, tt.want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			p, err := judging.New(d, judging.Options{})
			if err != nil {
				t.Fatal(err)
			}
			_, err = p.Solve([]byte("1 1 2 3 4 4\n"))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v, want it to hold %q", err, tt.want)
			}
		})
	}
}

// TestRobotsShare: pieces of a part that says share may stand on one
// square; the input validator takes it, and the rules build such states.
func TestRobotsShare(t *testing.T) {
	text := strings.Replace(robotsHead+robotsScript+robotsTail, "grid: {rows: 4, cols: 4}}", "grid: {rows: 4, cols: 4}, share: true}", 1)
	text = strings.Replace(text, "and (r + (k + 1) * dr, c + (k + 1) * dc) not in at", "", 1)
	d, err := parse(t, "robots.yaml", text)
	if err != nil {
		t.Fatal(err)
	}
	p, err := judging.New(d, judging.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Validate([]byte("1 1 1 1 4 4\n")); err != nil {
		t.Fatalf("two robots on one square: got %v, want no error", err)
	}
	out, err := p.Solve([]byte("1 1 1 1 1 1\n"))
	if want := "RR RD RR RD\n"; err != nil || string(out) != want {
		t.Errorf("got %q, %v; want %q", out, err, want)
	}
}
