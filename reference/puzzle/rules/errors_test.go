package rules_test

import (
	"strings"
	"testing"

	"github.com/optjudge/optjudge/reference/puzzle/engine"
)

// counter is a definition whose rules the cases below replace: a number
// 0 to 9, moves that add or take one, solved at 0.
const counter = `name: counter
parts:
  - {name: n, length: 1, range: [0, 9]}
rules:
  max_steps: 10000
SETTINGS  code: |
CODE
input: {cases: until_eof}
`

const perState = `    MOVES = ["down", "up"]
    def successors(s):
        out = []
        if s.n[0] > 0:
            out.append(("down", s.replace(n = [s.n[0] - 1])))
        if s.n[0] < 9:
            out.append(("up", s.replace(n = [s.n[0] + 1])))
        return out
    def goal(s):
        return s.n[0] == 0
`

// TestBadRules gives definitions whose rules fail and checks that solving
// from 5 says so, at the file's line and the state where it happened.
func TestBadRules(t *testing.T) {
	tests := []struct {
		name     string
		settings string
		code     string
		want     []string // parts of the error
	}{
		{"raises", "", strings.Replace(perState, "        out = []\n", "        out = []\n        if s.n[0] == 3:\n            fail(\"boom\")\n", 1),
			[]string{"bad.yaml:11: successors(): fail: boom (at 3)"}},
		{"loops", "", strings.Replace(perState, "        out = []\n", "        out = []\n        while s.n[0] == 4:\n            pass\n", 1),
			[]string{"bad.yaml:", "successors(): more than 10000 steps (rules.max_steps): a rule that never ends? (at 4)"}},
		{"a move twice", "", strings.Replace(perState, "        return out\n", "        return out + out[:1]\n", 1),
			[]string{"bad.yaml:8: successors(): yields the move \"down\" twice (at 5)"}},
		{"a move twice, compiled", "", `    def moves():
        return [move("down", when = {cells.n[0]: v}, then = {cells.n[0]: v - 1}) for v in range(1, 10)] + [
                move("down", when = {cells.n[0]: 5}, then = {cells.n[0]: 0})]
    def goal():
        return {cells.n[0]: 0}
`, []string{`bad.yaml:9: move "down" can be made two ways (also bad.yaml:8) from 5`}},
		{"an invalid state", "", perState + "    def valid(s):\n        return s.n[0] != 4 or \"no fours\"\n",
			[]string{`move "down" from 5 leads to 4, which is not valid: no fours`}},
		{"irreversible for a table", "  reversible: true\n", `    def moves():
        return [move("down", when = {cells.n[0]: v}, then = {cells.n[0]: v - 1}) for v in range(1, 10)] + [
                move("jump", when = {cells.n[0]: 0}, then = {cells.n[0]: 9})]
    def goal():
        return {cells.n[0]: 0}
    def target():
        return {cells.n[0]: 0}
`, []string{`move "jump" from 0 leads to 9, from which no move of cost 1 leads back: a table from the goal needs moves that can be undone`}},
		{"past the budget", "  max_states: 4\n", perState, []string{"past the search's budget: more than 4 states (rules.max_states)"}},
		{"an inadmissible heuristic", "", perState + "    def heuristic(s):\n        return 3 if s.n[0] > 0 else 0\n",
			[]string{"the heuristic is not admissible: it says 3 at 2, which is 2 from the goal"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text := strings.Replace(strings.Replace(counter, "CODE\n", tt.code, 1), "SETTINGS", tt.settings, 1)
			d, err := parse(t, "bad.yaml", text)
			if err != nil {
				t.Fatal(err)
			}
			in, err := d.Instance(0)
			if err != nil {
				t.Fatal(err)
			}
			s, err := engine.New(in.Spec, engine.Options{})
			if err == nil {
				_, err = s.Solve(ctx, engine.State{Cells: cellsOf(in, "5")})
			}
			if err == nil {
				t.Fatal("solved, want an error")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("got %v, want it to hold %q", err, w)
				}
			}
		})
	}
}

// TestBadRulesAtLoading: what the rules get wrong before any search is
// the definition's error, at its line.
func TestBadRulesAtLoading(t *testing.T) {
	tests := []struct {
		name, code, want string
	}{
		{"syntax", "    def moves(:\n", "bad.yaml:7:"},
		{"no moves", "    def goal(s):\n        return True\n", "bad.yaml:7: rules.code: the rules give no moves"},
		{"no goal", "    MOVES = [\"a\"]\n    def successors(s):\n        return []\n", "the rules give no goal"},
		{"a bad value", "    def moves():\n        return [move(\"x\", when = {cells.n[0]: 12})]\n    def goal():\n        return {}\n",
			"bad.yaml:8: rules.code: cells.n[0]: 12 is not a value of part n (the integers 0 to 9)"},
		{"an endless loading", "    def moves():\n        while True:\n            pass\n", "bad.yaml:7: rules.code: moves(): more than 134217728 steps"},
		{"I/O", "    load(\"os\", \"open\")\n", "bad.yaml:7:"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text := strings.Replace(strings.Replace(counter, "CODE\n", tt.code, 1), "SETTINGS", "", 1)
			_, err := parse(t, "bad.yaml", text)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v, want it to hold %q", err, tt.want)
			}
		})
	}
}

// TestBidirectionalDefinition: search.method bidirectional answers from
// both ends where the rules give a target and moves that can be undone,
// and is the definition's error where they give no target.
func TestBidirectionalDefinition(t *testing.T) {
	code := `    def moves():
        return [move("down", when = {cells.n[0]: v}, then = {cells.n[0]: v - 1}) for v in range(1, 10)] + [
                move("up", when = {cells.n[0]: v}, then = {cells.n[0]: v + 1}) for v in range(9)]
    def goal():
        return {cells.n[0]: 0}
TARGET`
	target := "    def target():\n        return {cells.n[0]: 0}\n"
	text := func(target string) string {
		return strings.Replace(strings.Replace(counter, "CODE\n", strings.Replace(code, "TARGET", target, 1), 1), "SETTINGS", "  reversible: true\n", 1) +
			"search: {method: bidirectional}\n"
	}
	d, err := parse(t, "both.yaml", text(target))
	if err != nil {
		t.Fatal(err)
	}
	in, err := d.Instance(0)
	if err != nil {
		t.Fatal(err)
	}
	moves, err := solverOf(t, in).Solve(ctx, engine.State{Cells: cellsOf(in, "5")})
	if err != nil || names(in, moves) != "down down down down down" {
		t.Errorf("from 5: got %q, %v; want five downs", names(in, moves), err)
	}
	want := "both.yaml:14: search.method: a search from both ends needs the case's one goal state"
	if _, err := parse(t, "both.yaml", text("")); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("without a target: got %v, want %q", err, want)
	}
}
