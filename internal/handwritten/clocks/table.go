package clocks

import (
	"sync"
	"time"
)

// table is what the solver computes once per process.
type table struct {
	// inv is the inverse mod 4 of the move matrix M, where M[d][k] is 1
	// when move k+1 turns dial d: the counts c with M c = v are inv v.
	inv [NumMoves][9]uint8
	// cols[d][v] is column d of inv times -v mod 4, the nine counts packed
	// in 5-bit fields (field k holds move k+1), so that the product
	// inv * -p is a sum of nine words: no field can pass 9*3 = 27 < 32.
	cols     [9][4]uint64
	maxMoves int        // the longest optimal answer over all positions
	deepest  []Position // every position whose answer has maxMoves moves
	took     time.Duration
}

var (
	once   sync.Once
	tables *table
)

// get returns the tables, building them on first use.
func get() *table {
	once.Do(func() { tables = build() })
	return tables
}

// BuildTime builds the tables if needed and returns how long the build
// took.
func BuildTime() time.Duration { return get().took }

// build computes a fresh table: the inverse matrix, then a census of every
// position to find the longest answers.
func build() *table {
	start := time.Now()
	t := &table{inv: inverse(moveMatrix())}
	for d := range t.cols {
		for v := range t.cols[d] {
			for k := range NumMoves {
				t.cols[d][v] |= uint64(t.inv[k][d]*uint8(4-v)&3) << (5 * k)
			}
		}
	}
	for i := range NumPositions {
		p := positionAt(i)
		switch n := t.optimal(p).Total(); {
		case n > t.maxMoves:
			t.maxMoves, t.deepest = n, []Position{p}
		case n == t.maxMoves:
			t.deepest = append(t.deepest, p)
		}
	}
	t.took = time.Since(start)
	return t
}

// moveMatrix returns M: M[d][k] is 1 when move k+1 turns dial d.
func moveMatrix() [9][NumMoves]uint8 {
	var m [9][NumMoves]uint8
	for k, ds := range moveDials {
		for _, d := range ds {
			m[d-'A'][k] = 1
		}
	}
	return m
}

// inverse inverts m mod 4 by Gauss-Jordan elimination. Only odd numbers are
// units mod 4, so each pivot must be odd; one exists in every column because
// m is invertible mod 2 (its determinant is odd), which the tests check.
func inverse(m [9][NumMoves]uint8) [NumMoves][9]uint8 {
	var inv [NumMoves][9]uint8
	for i := range inv {
		inv[i][i] = 1
	}
	for col := range NumMoves {
		piv := col
		for piv < 9 && m[piv][col]&1 == 0 {
			piv++
		}
		if piv == 9 {
			panic("clocks: the move matrix is singular mod 2")
		}
		m[col], m[piv] = m[piv], m[col]
		inv[col], inv[piv] = inv[piv], inv[col]
		// An odd number is its own inverse mod 4: 1*1 = 1, 3*3 = 9 = 1.
		scaleRow(&m[col], &inv[col], m[col][col])
		for r := range 9 {
			if f := m[r][col]; r != col && f != 0 {
				subRow(&m[r], &inv[r], &m[col], &inv[col], f)
			}
		}
	}
	return inv
}

// scaleRow multiplies a row of the augmented matrix by f mod 4.
func scaleRow(a, b *[9]uint8, f uint8) {
	for j := range a {
		a[j] = a[j] * f & 3
		b[j] = b[j] * f & 3
	}
}

// subRow subtracts f times row (c, d) from row (a, b) mod 4. uint8
// arithmetic wraps mod 256, a multiple of 4, so the low bits stay right.
func subRow(a, b, c, d *[9]uint8, f uint8) {
	for j := range a {
		a[j] = (a[j] - f*c[j]) & 3
		b[j] = (b[j] - f*d[j]) & 3
	}
}

// optimal returns the counts that bring p to 12: M c = -p (mod 4).
func (t *table) optimal(p Position) Counts {
	var s uint64
	for d, v := range p {
		s += t.cols[d][v&3]
	}
	var c Counts
	for k := range c {
		c[k] = uint8(s>>(5*k)) & 3
	}
	return c
}

// Optimal returns the unique shortest solution of p as move counts, each
// 0..3; its Moves are the answer in ascending order.
func Optimal(p Position) Counts { return get().optimal(p) }

// MaxMoves returns the length of the longest optimal answer over all
// positions.
func MaxMoves() int { return get().maxMoves }

// positionAt returns the position with index i in 0..NumPositions-1: the
// dials A..I are the base-4 digits of i, A the most significant.
func positionAt(i int) Position {
	var p Position
	for d := 8; d >= 0; d-- {
		p[d] = uint8(i & 3)
		i >>= 2
	}
	return p
}
