package eightpuzzle

import (
	"bytes"
	"math/rand/v2"
)

// SplitCases cuts a valid input file into one input file per board, each
// line kept exactly as written.
func SplitCases(input []byte) ([][]byte, error) {
	if _, err := ParseInput(input); err != nil {
		return nil, err
	}
	lines := bytes.SplitAfter(input, []byte{'\n'})
	if len(lines[len(lines)-1]) == 0 {
		lines = lines[:len(lines)-1]
	}
	cases := make([][]byte, len(lines))
	for i, l := range lines {
		cases[i] = append([]byte(nil), l...)
	}
	return cases, nil
}

// JoinCases is the inverse of SplitCases.
func JoinCases(cases [][]byte) []byte { return bytes.Join(cases, nil) }

// PathToGoal returns the boards along the smallest shortest path from b to
// the goal: the first is one move closer than b, the last is the goal. It
// is empty for the goal and nil for a board that cannot be solved.
func PathToGoal(b Board) []Board {
	moves, ok := Smallest(b)
	if !ok {
		return nil
	}
	path := []Board{}
	for i := range len(moves) {
		b, _ = b.Apply(Move(moves[i]))
		path = append(path, b)
	}
	return path
}

// RandomAny returns a board drawn uniformly from all 362,880 boards, half of
// which cannot be solved.
func RandomAny(r *rand.Rand) Board {
	var b Board
	for i, t := range r.Perm(9) {
		b[i] = byte(t)
	}
	return b
}
