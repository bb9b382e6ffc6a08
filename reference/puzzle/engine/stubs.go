package engine

import (
	"errors"
	"math/big"
)

func newLinear(s *Solver) (backend, error) { return nil, errors.New("todo") }
func newSearch(s *Solver, k kind, size *big.Int) (backend, string, error) {
	return nil, "", errors.New("todo")
}
