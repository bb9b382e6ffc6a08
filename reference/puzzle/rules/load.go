package rules

import (
	"errors"
	"fmt"
	"strings"
	"sync"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"
)

// loaded is the code run once at a size: its frozen globals, and what
// converts states between the engine's cells and Starlark values.
type loaded struct {
	c       Config
	globals starlark.StringDict
	steps   uint64
	threads sync.Pool // *starlark.Thread

	symbol  map[string]uint8 // token -> value
	offsets []int            // each part's first cell
	cells   int
	// vals[p][v] is how part p shows value v to the rules; nil where v is
	// not one of the part's values.
	vals [][]starlark.Value
}

// fileOptions are the Starlark dialect of rules: while loops, sets and
// recursion, as a setter writing a search's rules expects of Python.
var fileOptions = &syntax.FileOptions{Set: true, While: true, Recursion: true, TopLevelControl: true, GlobalReassign: true}

func newLoaded(c Config) (*loaded, error) {
	l := &loaded{c: c, steps: c.MaxSteps, symbol: map[string]uint8{}}
	if l.steps == 0 {
		l.steps = DefaultMaxSteps
	}
	for i, s := range c.Symbols {
		l.symbol[s] = uint8(i)
	}
	for _, p := range c.Parts {
		l.offsets = append(l.offsets, l.cells)
		l.cells += p.Cells()
		l.vals = append(l.vals, l.partValues(p))
	}
	l.threads.New = func() any { return &starlark.Thread{Name: "rules", Print: func(*starlark.Thread, string) {}} }
	// Starlark's lines are the file's: the code is put on its own lines.
	src := strings.Repeat("\n", max(c.Line-1, 0)) + c.Code
	th := l.thread()
	th.SetMaxExecutionSteps(compileSteps)
	globals, err := starlark.ExecFileOptions(fileOptions, th, c.File, src, l.predeclared())
	if err != nil {
		return nil, l.errorOf(err, th, "running the code", nil)
	}
	globals.Freeze()
	l.globals = globals
	return l, nil
}

// partValues are part p's values as the rules see them, by cell value.
func (l *loaded) partValues(p Part) []starlark.Value {
	vals := make([]starlark.Value, len(l.c.Symbols))
	for _, tok := range p.Values() {
		v, ok := l.symbol[tok]
		if !ok {
			continue
		}
		if p.Ints || p.Pieces != nil {
			var n int
			fmt.Sscan(tok, &n)
			if p.Pieces != nil {
				n-- // rows and columns from 0, as the rules index grids
			}
			vals[v] = starlark.MakeInt(n)
		} else {
			vals[v] = starlark.String(tok)
		}
	}
	return vals
}

func (l *loaded) predeclared() starlark.StringDict {
	return starlark.StringDict{
		"SIZE":  starlark.MakeInt(l.c.Size),
		"state": starlark.NewBuiltin("state", l.newState),
		"cells": l.cellsValue(),
		"move":  starlark.NewBuiltin("move", newMove),
	}
}

// thread returns a thread with a fresh step count.
func (l *loaded) thread() *starlark.Thread {
	th := l.threads.Get().(*starlark.Thread)
	th.Uncancel()
	th.Steps = 0
	th.SetMaxExecutionSteps(l.steps)
	return th
}

// fn is the global function called name, nil if none.
func (l *loaded) fn(name string) *starlark.Function {
	f, _ := l.globals[name].(*starlark.Function)
	return f
}

// compileSteps bounds the calls that run once, when the rules are loaded
// (the code's top level, moves(), goal(), target()): Rush Hour's moves()
// takes about ten million steps.
const compileSteps = 1 << 27

// call calls the global function called name with args; st, if not nil,
// is the state the call is about, for messages. A call with no argument
// runs once, at loading, under compileSteps.
func (l *loaded) call(name string, st []uint8, args ...starlark.Value) (starlark.Value, error) {
	f := l.fn(name)
	th := l.thread()
	if len(args) == 0 {
		th.SetMaxExecutionSteps(compileSteps)
	}
	v, err := starlark.Call(th, f, args, nil)
	if err != nil {
		return nil, l.errorOf(err, th, name+"()", st)
	}
	l.threads.Put(th)
	return v, nil
}

// errorOf turns a Starlark error into an Error at the line of the code
// where it happened, saying what was being done and at which state.
func (l *loaded) errorOf(err error, th *starlark.Thread, doing string, st []uint8) error {
	msg, line := err.Error(), 0
	var ee *starlark.EvalError
	var se syntax.Error
	switch {
	case errors.As(err, &ee):
		for i := len(ee.CallStack) - 1; i >= 0; i-- {
			if pos := ee.CallStack[i].Pos; pos.Filename() == l.c.File {
				line = int(pos.Line)
				break
			}
		}
	case errors.As(err, &se):
		line = int(se.Pos.Line)
	}
	if strings.Contains(msg, "too many steps") {
		limit := l.steps
		if th.Steps >= compileSteps {
			limit = compileSteps
		}
		msg = fmt.Sprintf("more than %d steps (rules.max_steps): a rule that never ends?", limit)
	}
	msg = doing + ": " + msg
	if st != nil {
		msg += " (at " + l.describe(st) + ")"
	}
	return &Error{File: l.c.File, Line: line, Msg: msg}
}

// errorf is an error about the code's function called fn.
func (l *loaded) errorf(fn string, st []uint8, format string, args ...any) error {
	line := 0
	if f := l.fn(fn); f != nil {
		line = int(f.Position().Line)
	}
	msg := fn + "(): " + fmt.Sprintf(format, args...)
	if st != nil {
		msg += " (at " + l.describe(st) + ")"
	}
	return &Error{File: l.c.File, Line: line, Msg: msg}
}

// arity is the number of parameters of the global function called name,
// -1 when there is none.
func (l *loaded) arity(name string) int {
	if f := l.fn(name); f != nil {
		return f.NumParams()
	}
	return -1
}
