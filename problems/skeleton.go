package problems

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"unicode"
)

// Skeleton is what NewPackage wrote: the files, and what the setter
// fills in next, each a line.
type Skeleton struct {
	Files []string
	Todo  []string
}

// skeletonNameRE is a package's directory name: the format's lower-case
// letters and digits, and the judge's dashes (a warning in verify).
var skeletonNameRE = regexp.MustCompile(`^[a-z0-9][a-z0-9-]*$`)

// NewPackage writes the skeleton of a Kattis/ICPC package (2025-09) into
// the new directory dir, as BAPCtools' new_problem does: problem.yaml,
// the statement, data/sample and data/secret, an input validator, the
// submission folders. With a puzzle, a starter definition (puzzle.yaml: a
// 2x3 sliding puzzle, every key commented) takes the input validator's
// place; the caller generates its tests. The skeleton loads; judge
// verify says what it still lacks.
func NewPackage(dir string, puzzle bool) (*Skeleton, error) {
	name := filepath.Base(filepath.Clean(dir))
	if !skeletonNameRE.MatchString(name) {
		return nil, fmt.Errorf("%s: a package's directory name is lower-case letters and digits (and, for this judge, dashes)", name)
	}
	if _, err := os.Lstat(dir); err == nil {
		return nil, fmt.Errorf("%s: already exists", dir)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	uuid, err := newUUID()
	if err != nil {
		return nil, err
	}
	title := titleOf(name)
	files := map[string]string{
		"problem.yaml":            fmt.Sprintf(skeletonYAML, name, yamlString(title), uuid),
		"statement/problem.en.md": fmt.Sprintf(skeletonStatement, title),
	}
	dirs := []string{"data/sample", "data/secret", "submissions/accepted", "submissions/wrong_answer", "submissions/time_limit_exceeded"}
	s := &Skeleton{Todo: []string{
		"problem.yaml: the name, source and credits; limits.time_limit once you know your solutions' times",
		"statement/problem.en.md: the statement, with its input and output formats",
	}}
	if puzzle {
		files["puzzle.yaml"] = skeletonPuzzle
		files["statement/problem.en.md"] = fmt.Sprintf(skeletonPuzzleStatement, title)
		s.Todo = append(s.Todo,
			"puzzle.yaml: the puzzle (judge help puzzle: every key); the checker, input validator, reference and generators are its",
			"data/: made by judge gen from the definition; judge gen again after changing it")
	} else {
		files["input_validators/validate.py"] = skeletonValidator
		s.Todo = append(s.Todo,
			"data/sample, data/secret: the tests, each NAME.in with NAME.ans (or generators/generators.yaml and judge generate)",
			"input_validators/validate.py: the input format's checks (exit 42 for a valid input)")
	}
	s.Todo = append(s.Todo,
		"submissions/accepted/: a correct solution; wrong_answer/, time_limit_exceeded/: wrong ones",
		"then: judge verify "+dir)
	for _, d := range dirs {
		if err := os.MkdirAll(filepath.Join(dir, filepath.FromSlash(d)), 0o755); err != nil {
			return nil, err
		}
		s.Files = append(s.Files, d+"/")
	}
	for f, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return nil, err
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			return nil, err
		}
		s.Files = append(s.Files, f)
	}
	sort.Strings(s.Files)
	if _, err := LoadDir(dir); err != nil {
		return nil, fmt.Errorf("the skeleton does not load (a bug of judge new): %w", err)
	}
	return s, nil
}

// titleOf makes a title of a directory name: my-puzzle is My Puzzle.
func titleOf(name string) string {
	words := strings.FieldsFunc(name, func(r rune) bool { return r == '-' })
	for i, w := range words {
		r := []rune(w)
		r[0] = unicode.ToUpper(r[0])
		words[i] = string(r)
	}
	return strings.Join(words, " ")
}

const skeletonYAML = `# %s: a Kattis/ICPC problem package, format 2025-09
# (https://www.kattis.com/problem-package-format/spec/2025-09).
problem_format_version: 2025-09
name: %s
uuid: %s
# source: My Contest 2026
# credits: Your Name <you@example.com>
# license: cc by-sa
limits:
  # seconds of CPU a test file: at least twice your slowest accepted
  # solution (judge verify --suggest-time-limit says what it takes)
  time_limit: 1
`

const skeletonStatement = `# %s

The story, and the task.

## Input

The input's format, with its bounds.

## Output

The output's format.
`

const skeletonValidator = `# The input validator: reads one test's input on standard input and exits
# 42 when it is valid, 43 when it is not (the format's rule). Check every
# line's format and every bound the statement gives.
import sys

data = sys.stdin.read()
lines = data.split("\n")
ok = data.endswith("\n") and "\r" not in data
# each line without spaces at its ends
ok = ok and all(line == line.strip() for line in lines)
sys.exit(42 if ok else 43)
`

const skeletonPuzzle = `# The puzzle, as data: the judge derives its checker, input validator,
# exact reference, generators and drawings from it (judge help puzzle:
# every key, its type, default and an example).
# A 2x3 sliding puzzle to start from: tiles 1 to 5 and a blank, 0.
name: slide
grid: {rows: 2, cols: 3}          # cells 1 to 6, row by row
symbols: [1, 2, 3, 4, 5, "0"]     # what a cell holds, as the input writes it
blank: "0"                        # the symbol that slides
moves:                            # their order is the order of answers
  - {name: D, slide: down}        # the blank moves down
  - {name: L, slide: left}
  - {name: R, slide: right}
  - {name: U, slide: up}
goal:
  state: [1, 2, 3, 4, 5, "0"]
mode: smallest                    # any | shortest | smallest (the fewest moves, then the first in the moves' order)
input:
  cases: until_eof                # one case a line, to the end of the input
output:
  separator: ""                   # the moves written without spaces: RDL
  unsolvable: unsolvable          # the answer of a board no moves solve
layout:
  show: tile                      # drawn as numbered tiles
`

const skeletonPuzzleStatement = `# %s

Six cells in two rows of three hold the tiles 1 to 5 and a blank, 0. A move
slides the blank down (D), left (L), right (R) or up (U): the tile there
takes its place.

Find the fewest moves that make the board 1 2 3 / 4 5 0; among those, the
one that comes first in the order D < L < R < U, move by move.

## Input

Boards, one a line, to the end of the input: six numbers separated by single
spaces, the cells row by row.

## Output

For each board, its moves on a line of their own, without spaces (an empty
line when it is solved already), or unsolvable when no moves solve it.
`
