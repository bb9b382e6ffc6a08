package judging

import (
	"context"
	"fmt"
	"strconv"
	"strings"
)

// Departure is where a sequence of moves left the optimum: the exact
// distance to the goal after each move, and the first move that did not
// bring the goal closer.
type Departure struct {
	// Start is the distance from the start.
	Start int
	// Distances are the distances after each move, from the first; -1
	// where a move leads where the goal cannot be reached. At most
	// maxDistances of them.
	Distances []int
	// Move is the first move, from 1, that did not bring the goal closer
	// (its distance after is not less than before); 0 when every move
	// measured did.
	Move          int
	Before, After int // the distances before and after Move
	// Cost says the distances are costs, some move costing other than 1.
	Cost bool
}

// maxDistances bounds the distances a Departure measures: an answer far
// longer than any optimum left it long before.
const maxDistances = 10000

// maxSearched bounds them where each needs a search, not a table.
const maxSearched = 200

// Departure measures the distance to the goal after each of moves (indices
// at start's size), made from start, all of which can be made.
func (p *Puzzle) Departure(ctx context.Context, start Position, moves []int) (Departure, error) {
	d0, err := p.Distance(ctx, start)
	if err != nil {
		return Departure{}, err
	}
	dep := Departure{Start: d0, Cost: !p.unitCost()}
	limit := maxDistances
	s := p.at(start.Size)
	if !p.cheap(start.Size) {
		limit = maxSearched
	}
	pos, before := start, d0
	for i, m := range moves {
		if i >= limit {
			break
		}
		if i%64 == 0 && ctx.Err() != nil {
			return Departure{}, ctx.Err()
		}
		var ok bool
		if pos, ok = p.Apply(pos, m); !ok {
			break
		}
		var after int
		if p.cheap(start.Size) || !s.stepping || before < 0 || p.distance != nil {
			after, err = p.Distance(ctx, pos)
		} else {
			after, err = p.near(ctx, pos, before)
		}
		if err != nil {
			return Departure{}, err
		}
		dep.Distances = append(dep.Distances, after)
		if dep.Move == 0 && before >= 0 && (after < 0 || after >= before) {
			dep.Move, dep.Before, dep.After = i+1, before, after
		}
		before = after
	}
	return dep, nil
}

// near is the distance of pos, one move from a position at distance d,
// where every move costs 1 and has an inverse: d-1, d or d+1, told apart
// by bounded searches, far cheaper than an unbounded one.
func (p *Puzzle) near(ctx context.Context, pos Position, d int) (int, error) {
	solver := p.at(pos.Size).solver
	for _, c := range []int{d - 1, d} {
		ok, err := solver.AtMost(ctx, pos.State, c)
		if err != nil || ok {
			return c, err
		}
	}
	return d + 1, nil
}

// Why says how Move left the optimum: "it leads away from the goal (10
// moves from it before, 11 after)".
func (d Departure) Why() string {
	far := func(n int) string {
		if d.Cost {
			return fmt.Sprintf("a cost of %d", n)
		}
		return plural(n, "move")
	}
	switch {
	case d.After < 0:
		return fmt.Sprintf("it leads where the goal cannot be reached (%s from it before)", far(d.Before))
	case d.Before == 0 && d.After == 0:
		return "the goal was already reached, and it is a move too many (the goal is still reached after it)"
	case d.Before == 0:
		return "the goal was already reached, and it leads " + far(d.After) + " away from it"
	case d.After == d.Before:
		return "it brings the goal no closer (" + far(d.Before) + " from it before and after)"
	}
	return fmt.Sprintf("it leads away from the goal (%s from it before, %d after)", far(d.Before), d.After)
}

// List writes the first n distances, and how many moves of total follow.
func (d Departure) List(n, total int) string {
	var parts []string
	for i, v := range d.Distances {
		if i == n {
			break
		}
		parts = append(parts, strconv.Itoa(v))
	}
	s := strings.Join(parts, " ")
	if rest := total - len(parts); rest > 0 {
		s += fmt.Sprintf(" ... (%s more)", plural(rest, "move"))
	}
	return s
}
