package eightpuzzle

// Unsolvable is the output line for a board that cannot reach the goal.
const Unsolvable = "unsolvable"

// Solve returns the reference output for a whole input file: for each board,
// in input order, one line holding the lexicographically smallest shortest
// path of the blank (letters u, d, l, r) to the goal, or the word
// "unsolvable". A board already solved gives an empty line. Every line ends
// with "\n". An invalid input gives the validator's *lex.Error.
func Solve(input []byte) ([]byte, error) {
	boards, err := ParseInput(input)
	if err != nil {
		return nil, err
	}
	out := make([]byte, 0, 24*len(boards))
	for _, b := range boards {
		if path, ok := Smallest(b); ok {
			out = append(out, path...)
		} else {
			out = append(out, Unsolvable...)
		}
		out = append(out, '\n')
	}
	return out, nil
}
