package watch

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/optjudge/optjudge/checkers/explain"
	"github.com/optjudge/optjudge/judge"
	"github.com/optjudge/optjudge/problems"
	"github.com/optjudge/optjudge/reference/puzzle/judging"
	"github.com/optjudge/optjudge/verdict"
)

var noon = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// embeddedChecker is the puzzle checker of the embedded problem name.
func embeddedChecker(name string) *judging.Checker {
	p, err := problems.LoadEmbedded(name)
	if err != nil {
		panic(err)
	}
	return p.PuzzleChecker()
}

// failingGrade is the events of one grade of clocks whose second test fails.
func failingGrade() []Event {
	input := []byte("3 3 0\n2 2 2\n2 1 2\n")
	output := []byte("9 8 5 4\n")
	p := embeddedChecker("clocks")
	checked, err := p.Check(context.Background(), input, output)
	if err != nil {
		panic(err)
	}
	msg := "move 2 (8) comes after 9: the moves must be in ascending order"
	if checked.Message != msg {
		panic("the checker says " + checked.Message)
	}
	t1 := judge.TestResult{Name: "sample/1", Verdict: verdict.AC, TimeMS: 12, Message: "4 moves"}
	t2 := judge.TestResult{Name: "secret/2", Verdict: verdict.WA, TimeMS: 7, Message: msg, Finding: checked.Finding, Stderr: "debug: 9 8 5 4\n"}
	report := &judge.Report{
		Verdict: verdict.WA,
		Compile: judge.CompileResult{OK: true},
		Tests:   []judge.TestResult{t1, t2},
		Summary: judge.Summary{Verdict: verdict.WA, Tests: 2, Run: 2, Counts: map[string]int{"AC": 1, "WA": 1}},
	}
	failure := &Failure{Test: t2, Input: input, Output: output, Answer: []byte("4 5 8 9\n"),
		Picture: explain.Failure(p, input, output, t2.Finding)}
	return []Event{
		{Kind: Started, N: 3, Why: "main.py changed", At: noon},
		{Kind: TestDone, N: 3, Test: &t1, At: noon.Add(time.Second)},
		{Kind: TestDone, N: 3, Test: &t2, At: noon.Add(time.Second)},
		{Kind: Finished, N: 3, At: noon.Add(1500 * time.Millisecond), Outcome: &Outcome{Report: report, Failure: failure}},
	}
}

func TestDisplayPlain(t *testing.T) {
	var out strings.Builder
	d := &Display{W: &out, Title: "ignored without a screen"}
	events := append(failingGrade(),
		Event{Kind: Started, N: 4, Why: "main.py changed", At: noon.Add(time.Minute)},
		Event{Kind: Cancelled, N: 4, At: noon.Add(time.Minute)},
		Event{Kind: Missing, Path: "/src/main.py"},
		Event{Kind: Failed, N: 5, Err: errors.New("listing the tests: tests: no such directory")},
		Event{Kind: WatchFailed, Err: errors.New("fsnotify: queue or buffer overflow")},
	)
	for _, e := range events {
		d.Show(e)
	}
	want := `
	grade 3 at 12:00:00 (main.py changed)
	sample/1                 AC      12ms  4 moves
	secret/2                 WA       7ms  move 2 (8) comes after 9: the moves must be in ascending order

	first failure: secret/2 WA (wrong answer)
	message: move 2 (8) comes after 9: the moves must be in ascending order
	input (3 lines):
	    3 3 0
	    2 2 2
	    2 1 2
	output, expected (-) against received (+):
	  - 4 5 8 9
	  + 9 8 5 4
	stderr:
	    debug: 9 8 5 4

	    dials: 3 3 0 / 2 2 2 / 2 1 2
	    start                        after 4 moves: 9 8 5 4
	    +-------+-------+-------+    +-------+-------+-------+
	    | A   9 | B   9 | C  12 |    | A  12 | B  12 | C  12 |
	    |       |       |   |   |    |   |   |   |   |   |   |
	    | --o   | --o   |   o   |    |   o   |   o   |   o   |
	    |       |       |       |    |       |       |       |
	    +-------+-------+-------+    +-------+-------+-------+
	    | D   6 | E   6 | F   6 |    | D  12 | E  12 | F  12 |
	    |       |       |       |    |   |   |   |   |   |   |
	    |   o   |   o   |   o   |    |   o   |   o   |   o   |
	    |   |   |   |   |   |   |    |       |       |       |
	    +-------+-------+-------+    +-------+-------+-------+
	    | G   6 | H   3 | I   6 |    | G  12 | H  12 | I  12 |
	    |       |       |       |    |   |   |   |   |   |   |
	    |   o   |   o-- |   o   |    |   o   |   o   |   o   |
	    |   |   |       |   |   |    |       |       |       |
	    +-------+-------+-------+    +-------+-------+-------+
	    went wrong at move 2 (8): it comes after 9, and the moves go in ascending order
	    yours   (4 moves): 9 8 5 4
	    optimal (4 moves): 4 5 8 9

	WA (wrong answer): 2 of 2 tests run: 1 AC, 1 WA; graded at 12:00:01 in 1.5s
	grade 4 at 12:01:00 (main.py changed)
	grade 4 cancelled
	/src/main.py is missing; waiting for it to be saved again
	grade 5: judge error: listing the tests: tests: no such directory
	watch error: fsnotify: queue or buffer overflow
	`
	want = strings.ReplaceAll(want, "\n\t", "\n")[1:]
	if got := out.String(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestDisplayCompileError(t *testing.T) {
	var out strings.Builder
	d := &Display{W: &out}
	report := &judge.Report{
		Verdict:  verdict.CE,
		Language: "python",
		Compile:  judge.CompileResult{Message: "python3 failed: exit status 1\n  File \"main.py\", line 1\n    def f(:\n          ^"},
		Summary:  judge.Summary{Verdict: verdict.CE, Tests: 2, Counts: map[string]int{"CE": 1}},
	}
	d.Show(Event{Kind: Started, N: 1, Why: "start", At: noon})
	d.Show(Event{Kind: Finished, N: 1, At: noon.Add(40 * time.Millisecond), Outcome: &Outcome{Report: report}})
	want := `grade 1 at 12:00:00 (start)

CE compilation error (python):
    python3 failed: exit status 1
      File "main.py", line 1
        def f(:
              ^

CE (compilation error): 0 of 2 tests run: 1 CE; graded at 12:00:00 in 40ms
`
	if got := out.String(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// On a screen each grade starts on a cleared screen under the title, the
// verdicts are coloured and a long input is cut to fit the terminal; a
// grade that would overflow the screen is drawn again without its AC tests.
func TestDisplayScreen(t *testing.T) {
	var out strings.Builder
	d := &Display{W: &out, Screen: true, Color: true, Title: "clocks: main.py (python)", Size: func() (int, int) { return 12, 60 }}
	events := failingGrade()
	events[3].Outcome.Failure.Input = []byte(strings.Repeat("1 2 3\n", 10))
	for _, e := range events {
		d.Show(e)
	}
	got := out.String()
	for _, want := range []string{
		"\033[H\033[2J\033[3Jclocks: main.py (python)\ngrade 3 at 12:00:00 (main.py changed)\n",
		"secret/2                 \033[31mWA \033[0m      7ms  move 2 (8) come...\n",
		"\033[H\033[2J\033[3Jclocks: main.py (python)\ngrade 3 at 12:00:00 (main.py changed)\n" +
			"secret/2                 \033[31mWA \033[0m      7ms  move 2 (8) come...\n(not listed: 1 test AC)\n\nfirst failure:",
		"input (10 lines):\n    1 2 3\n    1 2 3\n    1 2 3\n    ... 7 lines more\n",
		"\033[31m  - 4 5 8 9\033[0m\n\033[32m  + 9 8 5 4\033[0m\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("got\n%q\nwant it to hold\n%q", got, want)
		}
	}
}

// A grade that fits is not drawn again.
func TestDisplayScreenFits(t *testing.T) {
	var out strings.Builder
	d := &Display{W: &out, Screen: true, Size: func() (int, int) { return 100, 100 }}
	for _, e := range failingGrade() {
		d.Show(e)
	}
	if n := strings.Count(out.String(), "\033[2J"); n != 1 {
		t.Errorf("got %d clears, want 1", n)
	}
}

func TestDiff(t *testing.T) {
	tests := []struct {
		name, want, got string
		max             int
		diff            string // the lines, Op then Text, joined by newlines
	}{
		{"equal", "a\nb\n", "a\nb\n", 10, ""},
		{"missing final newline is equal", "a\nb\n", "a\nb", 10, ""},
		{"one line changed", "a\nb\nc\nd\n", "a\nb\nX\nd\n", 10, " a\n b\n-c\n+X\n d"},
		{"context is two lines", "1\n2\n3\n4\n5\n", "1\n2\n3\n4\nX\n", 10, " 3\n 4\n-5\n+X"},
		{"output ends early", "a\nb\nc\n", "a\n", 10, " a\n-b\n-c"},
		{"empty output", "a\n", "", 10, "-a"},
		{"extra output", "a\n", "a\nb\nc\n", 10, " a\n+b\n+c"},
		{"an inserted line", "a\nb\nc\n", "a\nX\nb\nc\n", 10, " a\n+X\n b\n c"},
		{"cut to max", "1\n2\n3\n4\n5\n", "6\n7\n8\n9\n0\n", 3, "-1\n-2\n-3"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var lines []string
			for _, l := range diff([]byte(tt.want), []byte(tt.got), tt.max) {
				lines = append(lines, string(l.Op)+l.Text)
			}
			if got := strings.Join(lines, "\n"); got != tt.diff {
				t.Errorf("got\n%s\nwant\n%s", got, tt.diff)
			}
		})
	}
}

// A diff of huge outputs looks only at a window after the first difference.
func TestDiffLargeOutputs(t *testing.T) {
	want := strings.Repeat("same\n", 100000) + strings.Repeat("want\n", 100000)
	got := strings.Repeat("same\n", 100000) + strings.Repeat("got\n", 100000)
	lines := diff([]byte(want), []byte(got), 6)
	var ops []string
	for _, l := range lines {
		ops = append(ops, string(l.Op)+l.Text)
	}
	if s := strings.Join(ops, ","); s != " same, same,-want,-want,-want,-want" {
		t.Errorf("got %s", s)
	}
}

func TestPrintable(t *testing.T) {
	tests := []struct {
		in    string
		width int
		want  string
	}{
		{"4 5 8 9", 80, "4 5 8 9"},
		{"4 5\t8 9", 80, `4 5\t8 9`},
		{"4 5 8 9  ", 80, "4 5 8 9␣␣"},
		{"AC\r", 80, `AC\r`},
		{"\x1b[2J\x00", 80, `\x1b[2J\x00`},
		{"\xff\xfeA", 80, `\xff\xfeA`},
		{"héllo wörld", 80, "héllo wörld"},
		{strings.Repeat("ab", 100), 10, "ababababab..."},
		{strings.Repeat("é", 10), 5, "éé..."},
	}
	for _, tt := range tests {
		if got := printable(tt.in, tt.width); got != tt.want {
			t.Errorf("printable(%q, %d): got %q, want %q", tt.in, tt.width, got, tt.want)
		}
	}
}
