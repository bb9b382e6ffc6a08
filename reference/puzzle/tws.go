package puzzle

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// A twsearch (ksolve) definition, as cubing/twsearch's C++ tool reads it
// (src/cpp/readksolve.cpp, docs/ksolveformat.txt):
//
//	Name skewb                   # optional, first
//	Set CORNER 4 3               # a set: its name, pieces, orientations
//	Set CENTER 6 1
//	Solved                       # the goal, set by set
//	CORNER
//	1 2 3 4                      # the piece in each cell, from 1; repeated values are identical pieces
//	0 0 0 0                      # their orientations (optional)
//	End
//	Move DFR                     # a move: per set, the cell whose content lands in each cell
//	CORNER
//	1 2 3 4
//	0 0 1 0                      # the twist, given per piece as ksolve does
//	End
//	MoveSequence X DFR ULB       # a move made of others
//
// A set left out of Solved is solved as 1, 2, ..., n, and out of a move
// is left alone. Each move stands for all its powers, as twsearch expands
// them: a move of order 4 called U gives U, U2 and U'; of order 5, U, U2,
// U2' and U'. Comment lines start with '#'.
//
// Not read (an error naming the feature and its line): Illegal,
// MoveAlias, StartState, MoveTransformation, wildcards ("?"), rotations
// (x, y, z and names ending in v), and solved orientations other than 0.

// twsSet is a set of a twsearch definition.
type twsSet struct {
	name   string
	n, mod int
}

// twsPos is a position or move: per set, the pull permutation (from 0)
// and the orientations, in the state form (per cell).
type twsPos struct {
	perm [][]int
	ori  [][]int
}

// twsMove is a named move of the expanded list.
type twsMove struct {
	name string
	pos  twsPos
}

// twsDef is a twsearch definition as read.
type twsDef struct {
	file   string
	sets   []twsSet
	solved [][]int // per set, the piece in each cell, from 1
	moves  []twsMove
}

// twsError is an error at a line of a twsearch file.
type twsError struct {
	file string
	line int
	msg  string
}

func (e *twsError) Error() string { return fmt.Sprintf("%s:%d: %s", e.file, e.line, e.msg) }

// twsLine is a line of tokens and its number.
type twsLine struct {
	toks []string
	n    int
}

// readTws reads a twsearch definition from data; file names it in errors.
func readTws(data []byte, file string) (*twsDef, error) {
	var lines []twsLine
	for i, l := range strings.Split(string(data), "\n") {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		lines = append(lines, twsLine{strings.Fields(l), i + 1})
	}
	d := &twsDef{file: file}
	bad := func(l twsLine, format string, args ...any) error {
		return &twsError{file, l.n, fmt.Sprintf(format, args...)}
	}
	type seq struct {
		name  string
		moves []string
		line  twsLine
	}
	var seqs []seq
	state := 0 // 0 before Set, 1 in sets, 2 after Solved
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		switch l.toks[0] {
		case "Name":
			if state != 0 || len(l.toks) != 2 {
				return nil, bad(l, "Name: want one name, before the sets")
			}
		case "Set":
			if state > 1 || len(l.toks) != 4 {
				return nil, bad(l, "Set: want Set NAME PIECES ORIENTATIONS, before Solved")
			}
			state = 1
			n, err1 := strconv.Atoi(l.toks[2])
			k, err2 := strconv.Atoi(l.toks[3])
			if err1 != nil || err2 != nil || n < 1 || n > 255 || k < 1 || k > 127 {
				return nil, bad(l, "Set %s: want 1 to 255 pieces and 1 to 127 orientations", l.toks[1])
			}
			for _, s := range d.sets {
				if s.name == l.toks[1] {
					return nil, bad(l, "Set %s: given twice", s.name)
				}
			}
			d.sets = append(d.sets, twsSet{l.toks[1], n, k})
		case "Solved":
			if state != 1 {
				return nil, bad(l, "Solved: want it once, after the sets")
			}
			state = 2
			pos, next, err := d.block(lines, i+1, true)
			if err != nil {
				return nil, err
			}
			i = next
			d.solved = pos.perm
			for s, o := range pos.ori {
				for _, v := range o {
					if v != 0 {
						return nil, bad(l, "Solved: set %s has an orientation other than 0: not supported", d.sets[s].name)
					}
				}
			}
		case "Move":
			if state != 2 || len(l.toks) != 2 {
				return nil, bad(l, "Move: want Move NAME, after Solved")
			}
			if twsRotation(l.toks[1]) {
				return nil, bad(l, "Move %s: rotations (x, y, z, names ending in v) are not supported", l.toks[1])
			}
			pos, next, err := d.block(lines, i+1, false)
			if err != nil {
				return nil, err
			}
			i = next
			if err := d.addMove(l.toks[1], pos, l); err != nil {
				return nil, err
			}
		case "MoveSequence":
			if state != 2 || len(l.toks) < 3 {
				return nil, bad(l, "MoveSequence: want MoveSequence NAME MOVES..., after Solved")
			}
			seqs = append(seqs, seq{l.toks[1], l.toks[2:], l})
		case "Illegal", "MoveAlias", "StartState", "MoveTransformation":
			return nil, bad(l, "%s: not supported", l.toks[0])
		default:
			return nil, bad(l, "%q: not a twsearch command (Name, Set, Solved, Move, MoveSequence)", l.toks[0])
		}
	}
	if d.solved == nil {
		return nil, &twsError{file, 0, "no Solved"}
	}
	// Move sequences name moves of the expanded list, perhaps of other
	// sequences: add those whose moves are all known, until none is left,
	// as twsearch does.
	for len(seqs) > 0 {
		var rest []seq
		for _, s := range seqs {
			pos, ok := d.compose(s.moves)
			if !ok {
				rest = append(rest, s)
				continue
			}
			if err := d.addMove(s.name, pos, s.line); err != nil {
				return nil, err
			}
		}
		if len(rest) == len(seqs) {
			return nil, bad(rest[0].line, "MoveSequence %s: names a move that is not defined", rest[0].name)
		}
		seqs = rest
	}
	if len(d.moves) == 0 {
		return nil, &twsError{file, 0, "no Move"}
	}
	return d, nil
}

// twsRotation reports whether twsearch takes a move's name for a rotation of
// the whole puzzle (parsemoves.cpp's isrotation).
func twsRotation(name string) bool {
	if name[0] == 'x' || name[0] == 'y' || name[0] == 'z' {
		if len(name) == 1 || len(name) == 2 && (name[1] == '2' || name[1] == '\'') {
			return true
		}
	}
	i := 0
	for i < len(name) && (name[i] == '_' || 'A' <= name[i] && name[i] <= 'Z') {
		i++
	}
	return i > 0 && i < len(name) && name[i] == 'v'
}

// block reads the sets of a Solved or Move block from lines[i] to its
// End; it returns the position and the index of the End line. A move's
// orientations are converted from ksolve's per-piece form to the state's
// per-cell form (docs/ksolveformat.txt: s.o[i] = m.o[p[i]]).
func (d *twsDef) block(lines []twsLine, i int, solved bool) (twsPos, int, error) {
	pos := twsPos{perm: make([][]int, len(d.sets)), ori: make([][]int, len(d.sets))}
	bad := func(l twsLine, format string, args ...any) error {
		return &twsError{d.file, l.n, fmt.Sprintf(format, args...)}
	}
	for ; i < len(lines); i++ {
		l := lines[i]
		if l.toks[0] == "End" {
			break
		}
		s := slices.IndexFunc(d.sets, func(s twsSet) bool { return s.name == l.toks[0] })
		if s < 0 || len(l.toks) != 1 {
			return pos, i, bad(l, "%q: want the name of a set, or End", strings.Join(l.toks, " "))
		}
		if pos.perm[s] != nil {
			return pos, i, bad(l, "set %s given twice", l.toks[0])
		}
		n := d.sets[s].n
		nums := func(l twsLine, lo, hi int) ([]int, error) {
			if len(l.toks) != n {
				return nil, bad(l, "set %s: %d values, want %d", d.sets[s].name, len(l.toks), n)
			}
			out := make([]int, n)
			for j, t := range l.toks {
				if t == "?" {
					return nil, bad(l, "wildcards (?) are not supported")
				}
				v, err := strconv.Atoi(t)
				if err != nil || v < lo || v > hi {
					return nil, bad(l, "set %s: %q: want a number from %d to %d", d.sets[s].name, t, lo, hi)
				}
				out[j] = v
			}
			return out, nil
		}
		if i+1 >= len(lines) {
			return pos, i, bad(l, "set %s: no values", l.toks[0])
		}
		i++
		p, err := nums(lines[i], 1, n)
		if err != nil {
			return pos, i, err
		}
		if !solved {
			seen := make([]bool, n)
			for j := range p {
				p[j]--
				if seen[p[j]] {
					return pos, i, bad(lines[i], "set %s: not a permutation (%d twice)", d.sets[s].name, p[j]+1)
				}
				seen[p[j]] = true
			}
		}
		o := make([]int, n)
		if i+1 < len(lines) && lines[i+1].toks[0] != "End" && slices.IndexFunc(d.sets, func(s twsSet) bool { return s.name == lines[i+1].toks[0] }) < 0 {
			i++
			if o, err = nums(lines[i], 0, d.sets[s].mod-1); err != nil {
				return pos, i, err
			}
		}
		if !solved {
			so := make([]int, n)
			for j := range so {
				so[j] = o[p[j]]
			}
			o = so
		}
		pos.perm[s], pos.ori[s] = p, o
	}
	if i >= len(lines) {
		return pos, i, &twsError{d.file, lines[len(lines)-1].n, "no End"}
	}
	for s, set := range d.sets {
		if pos.perm[s] != nil {
			continue
		}
		pos.perm[s], pos.ori[s] = make([]int, set.n), make([]int, set.n)
		for j := range set.n {
			pos.perm[s][j] = j
			if solved {
				pos.perm[s][j] = j + 1
			}
		}
	}
	return pos, i, nil
}

// then is a followed by b.
func (d *twsDef) then(a, b twsPos) twsPos {
	out := twsPos{perm: make([][]int, len(d.sets)), ori: make([][]int, len(d.sets))}
	for s, set := range d.sets {
		out.perm[s], out.ori[s] = make([]int, set.n), make([]int, set.n)
		for i := range set.n {
			out.perm[s][i] = a.perm[s][b.perm[s][i]]
			out.ori[s][i] = (a.ori[s][b.perm[s][i]] + b.ori[s][i]) % set.mod
		}
	}
	return out
}

func (d *twsDef) identity(p twsPos) bool {
	for s := range d.sets {
		for i, j := range p.perm[s] {
			if i != j || p.ori[s][i] != 0 {
				return false
			}
		}
	}
	return true
}

// addMove adds a move and its powers, named as twsearch names them.
func (d *twsDef) addMove(name string, m twsPos, l twsLine) error {
	if d.identity(m) {
		return &twsError{d.file, l.n, fmt.Sprintf("move %s does nothing", name)}
	}
	for _, x := range d.moves {
		if x.name == name {
			return &twsError{d.file, l.n, fmt.Sprintf("move %s is defined twice", name)}
		}
	}
	powers := []twsPos{m}
	for p := m; ; {
		p = d.then(p, m)
		if d.identity(p) {
			break
		}
		if len(powers) >= 1000 {
			return &twsError{d.file, l.n, fmt.Sprintf("move %s: its order is above 1000", name)}
		}
		powers = append(powers, p)
	}
	order := len(powers) + 1
	for j, p := range powers {
		tw := j + 1
		if order-tw < tw {
			tw -= order
		}
		n := name
		if tw != 1 && tw != -1 {
			n += strconv.Itoa(max(tw, -tw))
		}
		if tw < 0 {
			n += "'"
		}
		d.moves = append(d.moves, twsMove{n, p})
	}
	return nil
}

// compose is the moves of names one after the other; false if one is not
// (yet) a move.
func (d *twsDef) compose(names []string) (twsPos, bool) {
	var acc twsPos
	for k, name := range names {
		i := slices.IndexFunc(d.moves, func(m twsMove) bool { return m.name == name })
		if i < 0 {
			return acc, false
		}
		if k == 0 {
			acc = d.moves[i].pos
		} else {
			acc = d.then(acc, d.moves[i].pos)
		}
	}
	return acc, true
}

// cellName and symbolName name the cells and pieces of a set: CORNER.1
// is the first cell of set CORNER, and the piece solved there.
func cellName(set string, i int) string { return fmt.Sprintf("%s.%d", set, i+1) }

func symbolName(set string, v int) string { return fmt.Sprintf("%s.%d", set, v) }

// apply fills a definition's sets, symbols, moves and goal from the
// twsearch definition; only lists the moves (by their expanded names) to
// keep, in the order answers compare them (nil: all, in twsearch's order).
func (t *twsDef) apply(d *Definition, only []string) error {
	d.Sets, d.Symbols, d.Moves = nil, nil, nil
	d.Goal.State = nil
	seen := map[string]bool{}
	for s, set := range t.sets {
		ds := Set{Name: set.name, Orientation: set.mod}
		if set.mod == 1 {
			ds.Orientation = 0
		}
		for i := range set.n {
			ds.Cells = append(ds.Cells, cellName(set.name, i))
			sym := symbolName(set.name, t.solved[s][i])
			d.Goal.State = append(d.Goal.State, sym)
			if !seen[sym] {
				seen[sym] = true
				d.Symbols = append(d.Symbols, sym)
			}
		}
		d.Sets = append(d.Sets, ds)
	}
	moves := t.moves
	if only != nil {
		moves = nil
		for _, name := range only {
			i := slices.IndexFunc(t.moves, func(m twsMove) bool { return m.name == name })
			if i < 0 {
				var all []string
				for _, m := range t.moves {
					all = append(all, m.name)
				}
				return fmt.Errorf("%q is not a move of %s (%s)", name, t.file, strings.Join(all, " "))
			}
			moves = append(moves, t.moves[i])
		}
	}
	for _, m := range moves {
		d.Moves = append(d.Moves, t.move(m))
	}
	return nil
}

// move is a twsearch move as cycles and twists of the definition's cells.
func (t *twsDef) move(m twsMove) Move {
	mv := Move{Name: m.name, Cycles: [][]string{}}
	for s, set := range t.sets {
		p := m.pos.perm[s]
		// The content of p[i] lands in i: follow where each content goes.
		dest := make([]int, set.n)
		for i, j := range p {
			dest[j] = i
		}
		done := make([]bool, set.n)
		for i := range set.n {
			if done[i] || dest[i] == i {
				continue
			}
			var cyc []string
			for j := i; !done[j]; j = dest[j] {
				done[j] = true
				cyc = append(cyc, cellName(set.name, j))
			}
			mv.Cycles = append(mv.Cycles, cyc)
		}
		for i, o := range m.pos.ori[s] {
			if o != 0 {
				if mv.Twist == nil {
					mv.Twist = map[string]int{}
				}
				mv.Twist[cellName(set.name, i)] = o
			}
		}
	}
	return mv
}
