package watch

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/optjudge/optjudge/judge"
	"github.com/optjudge/optjudge/verdict"
)

// Display shows a Loop's events. Without Screen it appends plain lines,
// for logs and tests. With Screen it clears the terminal as each grade
// starts, so the screen holds one grade: a line per test as it finishes,
// then the first failing test explained (its input cut to fit, the expected
// against the received output as a diff, the checker's message, a drawing
// of the boards for the puzzle problems), then the totals and the time.
// When all that would not fit, the screen is drawn again at the end with
// only the tests that failed.
type Display struct {
	W      io.Writer
	Screen bool
	Color  bool
	Title  string // on a screen, the first line of each grade
	// Size returns the terminal's rows and columns, asked at each grade
	// so a resized window is followed; nil or zeros: 24 x 80. Plain
	// output ignores it and uses fixed caps.
	Size func() (rows, cols int)

	started time.Time          // when the current grade started
	head    string             // its first lines
	tests   []judge.TestResult // its tests so far
}

// limits are how much of a failure the display shows.
type limits struct {
	input, diff, stderr int // lines
	width               int // bytes per line
}

func (d *Display) limits() limits {
	if !d.Screen {
		return limits{input: 10, diff: 16, stderr: 5, width: 120}
	}
	rows, cols := 24, 80
	if d.Size != nil {
		if r, c := d.Size(); r > 0 && c > 0 {
			rows, cols = r, c
		}
	}
	return limits{input: max(3, rows/4), diff: max(4, rows/3), stderr: max(2, rows/8), width: max(20, cols-6)}
}

// Show prints one event; it is a Loop's Show.
func (d *Display) Show(e Event) {
	switch e.Kind {
	case Started:
		d.started, d.tests = e.At, nil
		d.head = fmt.Sprintf("grade %d at %s (%s)\n", e.N, clock(e.At), e.Why)
		if d.Screen && d.Title != "" {
			d.head = d.Title + "\n" + d.head
		}
		d.clear()
		fmt.Fprint(d.W, d.head)
	case TestDone:
		d.tests = append(d.tests, *e.Test)
		fmt.Fprint(d.W, d.testLine(*e.Test))
	case Finished:
		var b strings.Builder
		d.finished(&b, e)
		if e.Outcome != nil && e.Outcome.Report != nil {
			d.tests = e.Outcome.Report.Tests // in test order, for the redraw
		}
		d.compact(strings.Count(b.String(), "\n"))
		fmt.Fprint(d.W, b.String())
	case Cancelled:
		fmt.Fprintf(d.W, "grade %d cancelled\n", e.N)
	case Failed:
		fmt.Fprintf(d.W, "grade %d: judge error: %v\n", e.N, e.Err)
	case Missing:
		fmt.Fprintf(d.W, "%s is missing; waiting for it to be saved again\n", e.Path)
	case WatchFailed:
		fmt.Fprintf(d.W, "watch error: %v\n", e.Err)
	}
}

// clear starts a screen afresh: home, clear the screen and the scrollback.
func (d *Display) clear() {
	if d.Screen {
		fmt.Fprint(d.W, "\033[H\033[2J\033[3J")
	}
}

func (d *Display) testLine(t judge.TestResult) string {
	return fmt.Sprintf("%-24s %s %6dms  %s\n", t.Name, d.paint(t.Verdict, 3), t.TimeMS,
		printable(oneLine(t.Message), max(10, d.limits().width-39)))
}

// compact redraws a screen that the tests' lines and the n lines about to
// follow would overflow, listing only the tests that are not AC, in test
// order, as many as fit.
func (d *Display) compact(n int) {
	rows := 24
	if d.Size != nil {
		if r, _ := d.Size(); r > 0 {
			rows = r
		}
	}
	head := strings.Count(d.head, "\n")
	if !d.Screen || head+len(d.tests)+n < rows {
		return
	}
	d.clear()
	fmt.Fprint(d.W, d.head)
	room := max(1, rows-head-n-2)
	accepted, unlisted := 0, 0
	for _, t := range d.tests {
		switch {
		case t.Verdict == verdict.AC:
			accepted++
		case room > 0:
			fmt.Fprint(d.W, d.testLine(t))
			room--
		default:
			unlisted++
		}
	}
	var left []string
	if accepted > 0 {
		left = append(left, plural(accepted, "test")+" AC")
	}
	if unlisted > 0 {
		left = append(left, fmt.Sprintf("%d more not AC", unlisted))
	}
	if len(left) > 0 {
		fmt.Fprintf(d.W, "(not listed: %s)\n", strings.Join(left, ", "))
	}
}

// finished writes a finished grade's explanation and totals to w.
func (d *Display) finished(w io.Writer, e Event) {
	if e.Outcome == nil || e.Outcome.Report == nil {
		fmt.Fprintf(w, "grade %d finished without a report\n", e.N)
		return
	}
	r := e.Outcome.Report
	lim := d.limits()
	if !r.Compile.OK {
		fmt.Fprintf(w, "\n%s compilation error (%s):\n", d.paint(verdict.CE, 0), r.Language)
		d.block(w, strings.Split(r.Compile.Message, "\n"), lim.input+lim.diff, lim.width, "    ")
	}
	if f := e.Outcome.Failure; f != nil {
		d.failure(w, f, lim)
	}
	for _, s := range e.Outcome.Interactions {
		fmt.Fprintf(w, "%s: an interaction of the statement, not run\n", s.Name)
	}
	s := r.Summary
	var counts []string
	for _, v := range verdict.All {
		if n := s.Counts[v.String()]; n > 0 {
			counts = append(counts, fmt.Sprintf("%d %s", n, v))
		}
	}
	took := e.At.Sub(d.started).Round(time.Millisecond)
	fmt.Fprintf(w, "\n%s (%s): %d of %d tests run: %s; graded at %s in %v\n",
		d.paint(r.Verdict, 0), r.Verdict.Long(), s.Run, s.Tests, strings.Join(counts, ", "), clock(e.At), took)
}

// failure explains the first failing test.
func (d *Display) failure(w io.Writer, f *Failure, lim limits) {
	t := f.Test
	fmt.Fprintf(w, "\nfirst failure: %s %s (%s)\n", t.Name, d.paint(t.Verdict, 0), t.Verdict.Long())
	if t.Message != "" {
		fmt.Fprintf(w, "message: %s\n", printable(oneLine(t.Message), lim.width))
	}
	in := splitLines(f.Input)
	fmt.Fprintf(w, "input (%s):\n", plural(len(in), "line"))
	d.block(w, in, lim.input, lim.width, "    ")
	if f.Interactive {
		d.interaction(w, f, lim)
	} else {
		d.outputDiff(w, f, lim)
	}
	if t.Stderr != "" {
		fmt.Fprintln(w, "stderr:")
		d.block(w, strings.Split(strings.TrimRight(t.Stderr, "\n"), "\n"), lim.stderr, lim.width, "    ")
	}
	if f.Picture != "" {
		fmt.Fprintln(w)
		for _, l := range strings.Split(strings.TrimRight(f.Picture, "\n"), "\n") {
			fmt.Fprintln(w, strings.TrimRight("    "+printable(l, lim.width), " "))
		}
	}
}

// outputDiff compares the output with the expected one.
func (d *Display) outputDiff(w io.Writer, f *Failure, lim limits) {
	switch lines := diff(f.Answer, f.Output, lim.diff); {
	case f.Answer == nil:
		fmt.Fprintln(w, "expected output: none to compare with (no answer file, no reference)")
	case lines == nil:
		fmt.Fprintln(w, "output: the same as the expected output")
	default:
		fmt.Fprintln(w, "output, expected (-) against received (+):")
		for _, l := range lines {
			text := fmt.Sprintf("  %c %s", l.Op, printable(l.Text, lim.width))
			fmt.Fprintln(w, d.colorDiff(l.Op, strings.TrimRight(text, " ")))
		}
	}
}

// interaction stands for the output of an interactive test: the program
// talked with the validator, which has the last word (the message); a
// sample shows the statement's interaction.
func (d *Display) interaction(w io.Writer, f *Failure, lim limits) {
	if f.Interaction == nil {
		fmt.Fprintln(w, "output: it went to the validator, which read the input above")
		return
	}
	lines := splitLines(f.Interaction)
	fmt.Fprintf(w, "the statement's interaction (> the program, < the validator):\n")
	d.block(w, lines, lim.diff, lim.width, "    ")
}

// block prints at most n of lines, indented, and says how many it left out.
func (d *Display) block(w io.Writer, lines []string, n, width int, indent string) {
	for i, l := range lines {
		if i == n {
			fmt.Fprintf(w, "%s... %s more\n", indent, plural(len(lines)-n, "line"))
			return
		}
		fmt.Fprintln(w, strings.TrimRight(indent+printable(l, width), " "))
	}
}

var colours = map[verdict.Verdict]string{
	verdict.AC: "\033[32m", verdict.WA: "\033[31m", verdict.TLE: "\033[33m", verdict.MLE: "\033[33m",
	verdict.OLE: "\033[33m", verdict.RE: "\033[35m", verdict.CE: "\033[36m", verdict.JE: "\033[1;31m",
}

// paint shows a verdict, padded to width, in its colour when Color is set.
func (d *Display) paint(v verdict.Verdict, width int) string {
	s := fmt.Sprintf("%-*s", width, v)
	if !d.Color {
		return s
	}
	return colours[v] + s + "\033[0m"
}

func (d *Display) colorDiff(op byte, s string) string {
	switch {
	case !d.Color:
		return s
	case op == '-':
		return "\033[31m" + s + "\033[0m"
	case op == '+':
		return "\033[32m" + s + "\033[0m"
	}
	return s
}

func clock(t time.Time) string { return t.Format("15:04:05") }

func oneLine(s string) string { return strings.ReplaceAll(strings.TrimSpace(s), "\n", " | ") }

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}
