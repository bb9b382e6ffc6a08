package puzzle

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/optjudge/optjudge/reference/puzzle/engine"
	"github.com/optjudge/optjudge/reference/puzzle/rules"
)

// RulePart is a part of the state of a puzzle given by rules, as the
// judging side reads cases: its cells First to First+Cells-1 hold the
// symbols Allowed marks, which Describe names. A part of Pieces has two
// cells a piece, its row and column (symbols "1" to Rows and "1" to
// Cols); Share says two may stand on one square.
type RulePart struct {
	Name         string
	First, Cells int
	Allowed      []bool
	Describe     string
	Pieces       []string
	Rows, Cols   int
	Share        bool
}

// loadedRules are the rules run, by their whole configuration (%#v of
// the rules.Config: the file and line, the code, the size, the parts):
// each is run once a process, also when the same file is read again (a
// service's library loads the embedded problems for each worker; every
// test loads them anew), and the result is the same.
var loadedRules sync.Map // string -> *rules.Rules

// ruleParts are the parts of the state at a size: the definition's parts,
// or its cells (or grid) and symbols as one part called board.
func (d *Definition) ruleParts(size int) []rules.Part {
	if d.Parts == nil {
		p := rules.Part{Name: "board", Symbols: d.Symbols, Len: len(d.cellNames())}
		if d.Grid != nil {
			p.Rows, p.Cols = d.Grid.Rows, d.Grid.Cols
		}
		return []rules.Part{p}
	}
	var out []rules.Part
	for _, p := range d.Parts {
		rp := rules.Part{Name: p.Name, Len: p.Length, Symbols: p.Symbols, Pieces: p.Pieces, Share: p.Share}
		if p.Length == 0 && p.Grid == nil {
			rp.Len = size
		}
		if p.Grid != nil {
			rp.Rows, rp.Cols = p.Grid.Rows, p.Grid.Cols
		}
		if len(p.Range) == 2 {
			rp.Ints, rp.Min, rp.Max = true, p.Range[0], p.Range[1]
		}
		out = append(out, rp)
	}
	return out
}

// ruleSymbols are the symbols of every part, each once, in order.
func ruleSymbols(parts []rules.Part) []string {
	var syms []string
	seen := map[string]bool{}
	for _, p := range parts {
		for _, v := range p.Values() {
			if !seen[v] {
				seen[v] = true
				syms = append(syms, v)
			}
		}
	}
	return syms
}

// ruleCellNames name the cells of parts: a list's "pegs.1", a grid's
// "board.1.2" (from 1), a piece's "robots.R.row" and "robots.R.col", and
// the grid's own cells as for any puzzle.
func (d *Definition) ruleCellNames(parts []rules.Part) []string {
	if d.Parts == nil {
		return d.cellNames()
	}
	var names []string
	for _, p := range parts {
		if p.Pieces != nil {
			for _, piece := range p.Pieces {
				names = append(names, p.Name+"."+piece+".row", p.Name+"."+piece+".col")
			}
			continue
		}
		if p.Rows == 0 {
			for i := range p.Len {
				names = append(names, fmt.Sprintf("%s.%d", p.Name, i+1))
			}
			continue
		}
		for r := range p.Rows {
			for c := range p.Cols {
				names = append(names, fmt.Sprintf("%s.%d.%d", p.Name, r+1, c+1))
			}
		}
	}
	return names
}

// codeLine is the line of the file the rules' code starts on: the line
// after "code: |" for a block, the key's own for a one-line string.
func (d *Definition) codeLine() int {
	line := d.Line("rules.code")
	if strings.Contains(d.Rules.Code, "\n") {
		line++
	}
	return line
}

// loadRules runs the rules at a size, once.
func (d *Definition) loadRules(size int, parts []rules.Part, syms []string) (*rules.Rules, error) {
	c := rules.Config{File: d.file, Line: d.codeLine(), Code: d.Rules.Code, Size: size, Parts: parts, Symbols: syms,
		Relabel: d.Rules.Relabel, Reversible: d.Rules.Reversible, MaxSteps: uint64(d.Rules.MaxSteps)}
	k := fmt.Sprintf("%#v", c)
	if r, ok := loadedRules.Load(k); ok {
		return r.(*rules.Rules), nil
	}
	r, err := rules.Load(c)
	if err != nil {
		var re *rules.Error
		if errors.As(err, &re) {
			return nil, &Error{File: re.File, Line: re.Line, Field: "rules.code", Msg: re.Msg}
		}
		return nil, d.errorf("rules.code", "%v", err)
	}
	actual, _ := loadedRules.LoadOrStore(k, r)
	return actual.(*rules.Rules), nil
}

// rulesInstance is Instance for a puzzle given by rules.
func (d *Definition) rulesInstance(size int) (*Instance, error) {
	parts := d.ruleParts(size)
	syms := ruleSymbols(parts)
	r, err := d.loadRules(size, parts, syms)
	if err != nil {
		return nil, err
	}
	cells := d.ruleCellNames(parts)
	in := &Instance{Def: d, Size: size, Cells: cells, Symbols: syms, Moves: r.Names, Order: identity(len(cells)),
		cell: index(cells), symbol: index(syms), move: index(r.Names)}
	first := 0
	for _, p := range parts {
		rp := RulePart{Name: p.Name, First: first, Cells: p.Cells(), Allowed: make([]bool, len(syms)),
			Pieces: p.Pieces, Rows: p.Rows, Cols: p.Cols, Share: p.Share}
		for _, v := range p.Values() {
			rp.Allowed[in.symbol[v]] = true
		}
		rp.Describe = describeValues(p)
		in.Parts = append(in.Parts, rp)
		first += p.Cells()
	}
	m, _ := engine.ParseMethod(d.Search.Method)
	sp := &engine.Spec{Cells: len(cells), Symbols: len(syms), Blank: -1, Rules: r.Rules, Method: m,
		Budget: engine.Budget{States: d.Rules.MaxStates, Time: time.Duration(d.Rules.MaxSeconds) * time.Second}}
	for i, name := range r.Names {
		sp.Moves = append(sp.Moves, engine.Move{Name: name, Cost: r.Costs[i]})
	}
	if err := sp.Check(); err != nil {
		return nil, d.errorf("rules.code", "%v", err)
	}
	in.Spec = sp
	return in, nil
}

// describeValues says what a part holds: "1 to 3", "., A, B".
func describeValues(p rules.Part) string {
	if p.Pieces != nil {
		return fmt.Sprintf("rows 1 to %d and columns 1 to %d", p.Rows, p.Cols)
	}
	if p.Ints {
		return fmt.Sprintf("%d to %d", p.Min, p.Max)
	}
	return strings.Join(p.Symbols, ", ")
}
