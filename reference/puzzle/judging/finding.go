package judging

import "fmt"

// Kind is what a Finding found wrong with an output.
type Kind string

// The kinds of findings.
const (
	// Illegal: a token of the moves is not a move, or the move cannot be
	// made where it is made (Move, Token).
	Illegal Kind = "illegal_move"
	// NotSolved: the moves can all be made but do not reach the goal
	// (Moves; Optimum where the answer made no move and the case holds
	// one).
	NotSolved Kind = "not_solved"
	// TooLong: the moves reach the goal at more than the optimum (Moves,
	// Cost, Optimum; Move, Before and After where a move left the
	// optimum; Distances).
	TooLong Kind = "too_long"
	// OverBound: in mode at_most, the moves reach the goal at a cost
	// above the definition's max_moves (Moves, Cost, Bound).
	OverBound Kind = "over_bound"
	// NotSmallest: the moves are shortest, but not the smallest of the
	// shortest answers (Move is the first difference, Yours, Smallest).
	NotSmallest Kind = "not_smallest"
	// Unordered: the moves are shortest, but not listed in ascending
	// order (Move, Token, Prev).
	Unordered Kind = "unordered"
	// WrongValue: a line giving a goal value of the final state is wrong
	// (Line, Name, Got, Want).
	WrongValue Kind = "wrong_value"
	// Unsolvable: the answer says the case cannot be solved when it can
	// (Optimum), or the case cannot be and the answer does not say so in
	// the words asked for (Got, Want).
	Unsolvable Kind = "unsolvable"
	// Format: the output's layout is wrong: a case missing, output after
	// the last case or the answer, an empty line, the moves and a value
	// on one line, spaces between moves of one character.
	Format Kind = "format"
)

// Finding is what the checker found wrong with an output, as facts: the
// case, the move and what is wrong with it. The message is rendered from
// it (Puzzle.Message); whoever shows the finding in another form (a
// drawing, a page) reads the facts, never the message.
type Finding struct {
	Kind Kind `json:"kind"`
	// Case is the case, from 1: the case of an input of one case is
	// case 1. 0 when the finding is of the output as a whole (output
	// after the last case).
	Case int `json:"case,omitempty"`
	// Move is the move, from 1, the finding is about: the move that is
	// illegal, that left the optimum (TooLong), the first that differs
	// from the smallest answer (NotSmallest), the one out of order
	// (Unordered); 0 for none. Token is that move as written; Prev,
	// for Unordered, the move before it.
	Move  int    `json:"move,omitempty"`
	Token string `json:"token,omitempty"`
	Prev  string `json:"prev,omitempty"`

	// Moves is how many moves the answer made, and Cost their cost.
	Moves int `json:"moves,omitempty"`
	Cost  int `json:"cost,omitempty"`
	// Optimum is the least cost of the case, where the checker measured
	// it: TooLong, NotSmallest, Unordered; NotSolved without moves; an
	// Unsolvable that can be solved.
	Optimum int `json:"optimum,omitempty"`
	// Bound is the most an answer may cost, for OverBound.
	Bound int `json:"bound,omitempty"`
	// Before and After are the distances to the goal before and after
	// Move, for TooLong (After -1: the goal cannot be reached from
	// there); Distances the distance after each move from the first, as
	// far as measured (see Departure).
	Before    int   `json:"before,omitempty"`
	After     int   `json:"after,omitempty"`
	Distances []int `json:"distances,omitempty"`
	// Yours and Smallest are the answer's moves and the smallest answer's,
	// as the output writes moves, for NotSmallest; Want is then the
	// smallest answer's move where the answer's differs.
	Yours    string `json:"yours,omitempty"`
	Smallest string `json:"smallest,omitempty"`

	// Line is the answer's line, from 1, of a WrongValue; Name the value
	// it gives ("center"). Got is what the output says, Want what it
	// should say (a WrongValue, an Unsolvable, a Format of the empty
	// answer's text).
	Line int    `json:"line,omitempty"`
	Name string `json:"name,omitempty"`
	Got  string `json:"got,omitempty"`
	Want string `json:"want,omitempty"`

	// why is what the message says after the case's (or the move's)
	// number, for the kinds whose words are not rendered from the facts
	// alone: an illegal move's reason, the layout's mistakes.
	why string
	// bare: the message does not start with the case's number (it names
	// the case itself: "missing case 3 of 5")
	bare bool
}

// Message renders f for people, in the puzzle's terms: "case 3, move 5:
// 'Q' is not a move (A-H)". The words of an illegal move's reason and of
// the layout's mistakes are the checker's own, kept unexported: a finding
// read back from JSON renders without them (a report keeps the message
// beside its finding).
func (p *Puzzle) Message(f Finding) string {
	at := ""
	if f.Case > 0 && !f.bare {
		at = p.w.caseAt(f.Case)
	}
	switch f.Kind {
	case Illegal:
		return p.w.moveAt(f.Case, f.Move) + f.why
	case TooLong:
		msg := fmt.Sprintf("%s%s, the optimum is %d", at, p.countOf(f.Moves, f.Cost), f.Optimum)
		if f.Optimum == 0 && p.def.Output.Empty != "" {
			msg += fmt.Sprintf(" (%s)", quote(p.def.Output.Empty))
		}
		dep := p.Departed(f)
		if f.Move > 0 {
			msg += fmt.Sprintf("; move %d (%s): %s", f.Move, f.Token, dep.Why())
		}
		if len(f.Distances) > 0 {
			msg += "; distances to the goal after each move: " + dep.List(40, f.Moves)
		}
		return msg
	case OverBound:
		return fmt.Sprintf("%s%s, more than the %d allowed", at, p.countOf(f.Moves, f.Cost), f.Bound)
	case NotSmallest:
		return fmt.Sprintf("%sshortest, but not the smallest: yours %s, smallest %s (first difference at move %d)",
			at, f.Yours, f.Smallest, f.Move)
	case Unordered:
		return fmt.Sprintf("%smove %d (%s) comes after %s: the moves must be in ascending order", at, f.Move, f.Token, f.Prev)
	}
	return at + f.why
}

// countOf says how many moves an answer makes, and their cost where moves
// cost other than 1.
func (p *Puzzle) countOf(n, cost int) string {
	if p.unitCost() {
		return plural(n, "move")
	}
	return fmt.Sprintf("%s of cost %d", plural(n, "move"), cost)
}

// finding is a finding of kind in case k whose words after the case's
// number are why.
func finding(kind Kind, k int, format string, args ...any) *Finding {
	return &Finding{Kind: kind, Case: k, why: fmt.Sprintf(format, args...)}
}

// Departed is where the answer of a TooLong finding left the optimum, as
// the checker measured it (see Departure).
func (p *Puzzle) Departed(f Finding) Departure {
	return Departure{Start: f.Optimum, Distances: f.Distances, Move: f.Move, Before: f.Before, After: f.After, Cost: !p.unitCost()}
}
