package main

import (
	"errors"
	"flag"
	"io"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestParseArgs: flags before, between and after the positional arguments,
// and "--" as the end of the flags or as a flag's value.
func TestParseArgs(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args  string
		pos   string // the positional arguments, joined by |
		flags string // json, tests and j after the parse
		err   string // a substring of the error
	}{
		{"", "", "false  1", ""},
		{"clocks sol.py", "clocks|sol.py", "false  1", ""},
		{"--json --tests t clocks sol.py", "clocks|sol.py", "true t 1", ""},
		{"clocks --json sol.py -j 2", "clocks|sol.py", "true  2", ""},
		{"clocks sol.py --tests=t --json", "clocks|sol.py", "true t 1", ""},
		{"clocks -- -sol.py", "clocks|-sol.py", "false  1", ""},
		{"clocks -- -sol.py --json", "clocks|-sol.py|--json", "false  1", ""},
		{"--json -- clocks sol.py", "clocks|sol.py", "true  1", ""},
		{"clocks sol.py --", "clocks|sol.py", "false  1", ""},
		{"clocks -- a -- b", "clocks|a|--|b", "false  1", ""},
		{"--tests -- clocks sol.py", "clocks|sol.py", "false -- 1", ""},
		{"clocks --tests -- --json sol.py", "clocks|sol.py", "true -- 1", ""},
		{"--tests --json -- --json", "--json", "false --json 1", ""},
		{"check clocks in - ans", "check|clocks|in|-|ans", "false  1", ""},
		{"clocks sol.py --frobnicate", "", "", "flag provided but not defined: -frobnicate"},
		{"clocks sol.py -j", "", "", "flag needs an argument: -j"},
		{"clocks sol.py -j x", "", "", "invalid value \"x\" for flag -j"},
	}
	for _, tt := range tests {
		t.Run(tt.args, func(t *testing.T) {
			fs := flag.NewFlagSet("run", flag.ContinueOnError)
			fs.SetOutput(io.Discard)
			asJSON := fs.Bool("json", false, "")
			tests := fs.String("tests", "", "")
			j := fs.Int("j", 1, "")
			pos, err := parseArgs(fs, strings.Fields(tt.args))
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("got error %v, want one containing %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Join(pos, "|"); got != tt.pos {
				t.Errorf("got positional %q, want %q", got, tt.pos)
			}
			if got := strings.Join([]string{strconv.FormatBool(*asJSON), *tests, strconv.Itoa(*j)}, " "); got != tt.flags {
				t.Errorf("got flags %q, want %q", got, tt.flags)
			}
		})
	}
}

// TestParseArgsHelp: -h anywhere asks for the usage.
func TestParseArgsHelp(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{{"-h"}, {"clocks", "-h"}, {"clocks", "sol.py", "--help"}} {
		fs := flag.NewFlagSet("run", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		if _, err := parseArgs(fs, args); !errors.Is(err, flag.ErrHelp) {
			t.Errorf("%v: got %v, want flag.ErrHelp", args, err)
		}
	}
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	if pos, err := parseArgs(fs, []string{"--", "-h"}); err != nil || !slices.Equal(pos, []string{"-h"}) {
		t.Errorf("-- -h: got %v, %v, want the argument -h", pos, err)
	}
}
