// Package generators reads BAPCtools' generators/generators.yaml, the file
// with which BAPC, NWERC and GCPC setters describe a package's test data:
// which generator program, with which arguments and seed, makes each test,
// which solution answers it, which tests are written inline or copied from
// files, and the test_group.yaml of each directory.
//
// The format is BAPCtools' (its doc/generators.yaml and bin/generate.py):
//
//	solution: /submissions/accepted/sol.py   # answers every .in without an .ans
//	random_salt: abc                         # prepended to each command when seeding
//	retries: 1                               # a crashing generator is run again with seed+1
//	generators:                              # programs of several files
//	  tree: [tree.py, lib.py]                # generators/tree.py is the entry point
//	data:
//	  sample:
//	    data:
//	      "1": tree --n 12                   # a command: program (in generators/) and arguments
//	      "2": {in: "1 2", ans: "3"}         # inline files
//	      "3": {copy: manual/three}          # generators/manual/three.{in,ans,...}
//	  secret:
//	    test_group.yaml: {output_validator_args: [case_sensitive]}
//	    include: ["1"]                       # tests (or groups) listed earlier, by key
//	    data:
//	      - small: gen {seed} 10             # numbered: 01-small (numbers across the file)
//	      - large:
//	          generate: gen {seed:2} {count}
//	          count: 3                       # 02-large-1 ... 04-large-3
//	      - group:                           # a numbered directory: 1-group
//	          data: {...}
//
// Parse turns the file into a tree of Dirs and Cases, every name, seed and
// command resolved, every file to write known but the programs' output;
// running the programs is the judge's (judge/maintain.GenerateData). The
// seed of a command is BAPCtools' own (see Seed), so the same file gives
// the same seeds as `bt generate`.
package generators

import (
	"fmt"
	"io/fs"
	"sort"
	"strings"

	"github.com/optjudge/optjudge/problems/kattis"
)

// File is where generators.yaml lives in a package.
const File = "generators/generators.yaml"

// Config is a parsed generators.yaml.
type Config struct {
	// Generators are the programs of several files (the generators: key),
	// by their name in commands: each a list of files relative to the
	// package root, the first the entry point.
	Generators map[string][]string
	// Root is data/: its children are the root directories, sample,
	// secret, invalid_input ... in BAPCtools' order.
	Root *Dir
	// Warnings are what the file gets odd but can be read: unknown keys,
	// deprecated ones, values of the wrong type that fall back to the
	// inherited one (as BAPCtools skips them).
	Warnings []kattis.Warning
}

// Dir is a directory of data/ that generators.yaml describes.
type Dir struct {
	Path string // relative to data/: "" for data/ itself, "secret", "secret/1-group"
	Line int
	// GroupFile is the name of the group file the directory gets,
	// "test_group.yaml" (or the legacy "testdata.yaml"); "" when
	// generators.yaml gives none. GroupYAML is its content, as
	// generators.yaml writes it; RemoveGroupFile: the key is given
	// empty, so an existing file is removed.
	GroupFile       string
	GroupYAML       []byte
	RemoveGroupFile bool
	// Items are the directory's tests and directories, in the order
	// BAPCtools generates them.
	Items []Item
	// Includes are tests of other directories copied into this one under
	// their own names (the include: key).
	Includes []*Case
}

// Item is one entry of a directory: a test or a directory.
type Item struct {
	Case *Case
	Dir  *Dir
}

// Case is one test that generators.yaml makes.
type Case struct {
	Path string // relative to data/, without an extension: "secret/03-random"
	Key  string // its key in the yaml file (the name before numbering)
	Line int    // of its entry
	// Root is the top directory the test is in: sample, secret,
	// invalid_input, ... (what is run for it depends on it).
	Root string

	// Generate is the command that makes the .in (and possibly more
	// files); nil when the test is copied or written inline.
	Generate *Command
	// Seed is BAPCtools' seed of the command: substituted for {seed}.
	Seed uint32
	// Retries is how often a failing generator runs, seed+1 each time.
	Retries int
	// Copy is the path, relative to the package root and without an
	// extension, whose files (.in, .ans, ...) are copied; "" for none.
	Copy string
	// Inline are the files written from the yaml itself, by extension
	// (".in", ".ans", ".yaml", ".hint" ...), each ending in a newline as
	// BAPCtools writes them.
	Inline map[string][]byte
	// Links are files that are copies of another file of the test, by
	// extension: ".in.download" -> ".in.statement".
	Links map[string]string
	// Solution is the program that writes the .ans, relative to the
	// package root ("submissions/accepted/sol.py"); "" for the default
	// one (the package's model solution), unless NoSolution.
	Solution   string
	NoSolution bool
	// Match are regular expressions (Python's re, MULTILINE and DOTALL)
	// the .in and .ans should match, by extension: a warning when not.
	Match map[string][]string
	// Count is the value of {count}; CountGiven says the entry has a
	// count: key (its tests are numbered name-1, name-2, ...).
	Count      int
	CountGiven bool
}

// Command is a generator invocation: a program and its arguments.
type Command struct {
	// Text is the command as written (after {count}), as BAPCtools hashes
	// it for the seed.
	Text string
	// Program is the generator: a file or directory below generators/,
	// relative to the package root, or the name of a Config.Generators
	// entry ("generators/tree").
	Program string
	// Args are the arguments with {seed}, {seed:N} and {name} still in
	// them (see Argv).
	Args []string
	// UsesSeed says whether {seed} or {seed:N} is among the arguments.
	UsesSeed bool
}

// Argv is the arguments the program runs with: {name} becomes "testcase"
// (the generator's files are testcase.in, testcase.ans ...) and {seed} or
// {seed:N} the seed.
func (c *Command) Argv(seed uint32) []string {
	out := make([]string, len(c.Args))
	for i, a := range c.Args {
		a = strings.ReplaceAll(a, "{name}", "testcase")
		if c.UsesSeed {
			a = seedRE.ReplaceAllLiteralString(a, fmt.Sprint(seed))
		}
		out[i] = a
	}
	return out
}

// Cases lists every test of the tree in generation order: each directory's
// items in order, the included tests of a directory after its own.
func (c *Config) Cases() []*Case {
	var out []*Case
	var walk func(d *Dir)
	walk = func(d *Dir) {
		for _, it := range d.Items {
			if it.Case != nil {
				out = append(out, it.Case)
			} else {
				walk(it.Dir)
			}
		}
	}
	walk(c.Root)
	return out
}

// Dirs lists every directory of the tree, parents first.
func (c *Config) Dirs() []*Dir {
	var out []*Dir
	var walk func(d *Dir)
	walk = func(d *Dir) {
		out = append(out, d)
		for _, it := range d.Items {
			if it.Dir != nil {
				walk(it.Dir)
			}
		}
	}
	walk(c.Root)
	return out
}

// Programs lists the generator programs the commands name, sorted.
func (c *Config) Programs() []string {
	seen := map[string]bool{}
	for _, t := range c.Cases() {
		if t.Generate != nil {
			seen[t.Generate.Program] = true
		}
	}
	out := make([]string, 0, len(seen))
	for p := range seen {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// Options say what of the package the file is read against.
type Options struct {
	// Interactive: an interactive or multi-pass problem, whose tests may
	// have an .interaction and need no answer.
	Interactive bool
	// Constants are problem.yaml's constants, substituted for {{name}} in
	// the commands before they are seeded, as BAPCtools does.
	Constants map[string]string
}

// Load reads generators/generators.yaml of the package in fsys; origin
// names the package in messages. It returns fs.ErrNotExist (wrapped) when
// the package has none.
func Load(fsys fs.FS, origin string, o Options) (*Config, error) {
	data, err := fs.ReadFile(fsys, File)
	if err != nil {
		return nil, err
	}
	name := File
	if origin != "" {
		name = origin + "/" + File
	}
	return Parse(data, name, o)
}
