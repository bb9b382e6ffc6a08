package checkers

import (
	"bytes"
	"context"
	"fmt"

	"github.com/optjudge/optjudge/reference/clocks"
)

func init() {
	register("clocks", "The Clocks (IOI 1994): one line of moves 1-9, the shortest sequence that sets every dial to 12, in ascending order",
		func(opts Options) (Checker, error) {
			if err := noOptions(opts); err != nil {
				return nil, err
			}
			return Clocks{}, nil
		})
}

// Clocks judges The Clocks: the output is one line of moves 1-9 separated
// by spaces or tabs. Replayed on the input's dials, they must set every
// dial to 12, be as few as the reference's optimum, and come in ascending
// order (which makes the answer unique). An empty or absent line is right
// exactly when every dial already points at 12. Leading and trailing blanks,
// a CRLF line end and blank lines after the answer are accepted.
//
// The optimum is recomputed with package clocks; the answer file is ignored.
type Clocks struct {
	// optimal replaces clocks.Optimal when set, so tests can fake a
	// wrong reference.
	optimal func(clocks.Position) clocks.Counts
}

// Check judges f.Output against the position in f.Input. An invalid input,
// or a valid sequence shorter than the reference's optimum, is an error.
func (c Clocks) Check(_ context.Context, f Files) (Result, error) {
	start, err := clocks.Parse(f.Input)
	if err != nil {
		return Result{}, fmt.Errorf("clocks: test input: %w", err)
	}
	line, rest, _ := bytes.Cut(f.Output, []byte{'\n'})
	r, ok := replayClocks(start, line)
	if !ok {
		return r.wrong, nil
	}
	if extra, n := clocksExtraLine(rest); extra != nil {
		return wrong("unexpected output after the answer (line %d: %s)", n, quote(extra)), nil
	}
	optimal := clocks.Optimal
	if c.optimal != nil {
		optimal = c.optimal
	}
	best := optimal(start).Total()
	switch {
	case !r.end.Solved() && r.n == 0:
		return wrong("no moves, but the dials are %v (the optimum is %s)", start, clocksMoves(best)), nil
	case !r.end.Solved():
		return wrong("after %s the dials are %v", clocksMoves(r.n), r.end), nil
	case r.n < best:
		return Result{}, fmt.Errorf("clocks: a valid answer of %s solves %v, but the reference's optimum is %d: the reference is wrong",
			clocksMoves(r.n), start, best)
	case r.n > best:
		return wrong("%s, the optimum is %d", clocksMoves(r.n), best), nil
	case r.unordered > 0:
		return wrong("move %d (%d) comes after %d: the moves must be in ascending order",
			r.unordered, r.move, r.prev), nil
	}
	if r.n == 0 {
		return accepted("0 moves: every dial is already at 12"), nil
	}
	return accepted(clocksMoves(r.n)), nil
}

// clocksReplay is what replaying an answer line found.
type clocksReplay struct {
	end       clocks.Position // the dials after every move
	n         int             // the number of moves
	unordered int             // 1-based index of the first move below its predecessor, or 0
	move      int             // that move
	prev      int             // the move before it
	wrong     Result          // set when a token is not a move
}

// replayClocks makes the moves of line on start, one token at a time, so an
// enormous output needs no memory. ok is false when a token is not a move.
func replayClocks(start clocks.Position, line []byte) (r clocksReplay, ok bool) {
	r.end = start
	last := 0
	blank := func(c rune) bool { return c == ' ' || c == '\t' }
	for tok := range bytes.FieldsFuncSeq(bytes.TrimRight(line, " \t\r"), blank) {
		if len(tok) != 1 || tok[0] < '1' || tok[0] > '9' {
			return clocksReplay{wrong: wrong("move %d: %s is not a move (1-9)", r.n+1, quote(tok))}, false
		}
		m := int(tok[0] - '0')
		r.n++
		if m < last && r.unordered == 0 {
			r.unordered, r.move, r.prev = r.n, m, last
		}
		last = m
		r.end = r.end.Apply(m)
	}
	return r, true
}

// clocksExtraLine returns the first line of rest, the output after the
// answer line, that holds more than blanks, and its line number in the
// output; nil when there is none.
func clocksExtraLine(rest []byte) ([]byte, int) {
	for n := 2; len(rest) > 0; n++ {
		line, after, _ := bytes.Cut(rest, []byte{'\n'})
		if len(bytes.Trim(line, " \t\r")) > 0 {
			return line, n
		}
		rest = after
	}
	return nil, 0
}

// clocksMoves says "1 move" or "n moves".
func clocksMoves(n int) string {
	if n == 1 {
		return "1 move"
	}
	return fmt.Sprintf("%d moves", n)
}
