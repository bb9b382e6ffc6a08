package rotation

import (
	"bytes"
	"math/rand/v2"
)

// SplitCases cuts a valid input file into one input file per case, each
// holding its case's line exactly as written and the final 0.
func SplitCases(input []byte) ([][]byte, error) {
	boards, err := Parse(input)
	if err != nil {
		return nil, err
	}
	lines := bytes.SplitAfter(input, []byte{'\n'})
	cases := make([][]byte, len(boards))
	for i := range boards {
		cases[i] = append(append([]byte(nil), lines[i]...), "0\n"...)
	}
	return cases, nil
}

// JoinCases is the inverse of SplitCases: the cases' lines in order, then
// the final 0.
func JoinCases(cases [][]byte) []byte {
	var b bytes.Buffer
	for _, c := range cases {
		b.Write(bytes.TrimSuffix(c, []byte("0\n")))
	}
	b.WriteString("0\n")
	return b.Bytes()
}

// PathToGoal returns the boards along b's optimal solution, one move at a
// time: the first is one move closer than b, the last has its center
// equal. Each is exactly one move closer than the one before.
func PathToGoal(b Board) []Board {
	var path []Board
	for _, m := range Optimal(b).Moves {
		b = b.Apply(m)
		path = append(path, b)
	}
	return path
}

// RandomCases returns n uniformly random boards.
func RandomCases(r *rand.Rand, n int) []Board {
	bs := make([]Board, n)
	for i := range bs {
		bs[i] = Random(r)
	}
	return bs
}
