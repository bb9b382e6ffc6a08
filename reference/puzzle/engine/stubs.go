package engine

import (
	"errors"
	"math/big"
)

func newSearch(s *Solver, k kind, size *big.Int) (backend, string, error) {
	return nil, "", errors.New("todo")
}
