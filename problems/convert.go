package problems

import (
	"bytes"
	"crypto/rand"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/optjudge/optjudge/checkers"
	"github.com/optjudge/optjudge/problems/kattis"
	"github.com/optjudge/optjudge/reference/puzzle"
)

// Conversion is what Convert did, or would do.
type Conversion struct {
	// Already: the directory was a package, and nothing was done.
	Already bool
	// Steps say what was moved, written and rewritten, one a line, for
	// people: "testdata/ -> data/".
	Steps []string
}

// Convert rewrites the problem of the legacy native layout in dir as a
// Kattis/ICPC package of format 2025-09, in dir itself when out is "" or
// dir, else in the new directory out (which must not exist, or be
// empty). The tests move (or are copied) byte for byte: testdata/ becomes
// data/; statement.md becomes statement/problem.en.md; the checker becomes
// the output validator (a built-in one the default output validator with
// its flags, a puzzle's puzzle.yaml beside problem.yaml, a program
// output_validator/, a testlib checker with the scripts that call it by
// the format's protocol); the input validators go to input_validators/,
// a Kattis interactor to output_validator/ with type interactive, the
// reference in contestant form (solution/) to submissions/accepted/.
// problem.yaml is written anew, with a fresh uuid and the comments of its
// limits. A directory that is already a package is left alone (Already).
// Nothing is overwritten: a file the package would have that is there
// already is an error, before anything changes.
func Convert(dir, out string) (*Conversion, error) {
	t, err := checkTree(dir, maxTreeEntries)
	if err != nil {
		return nil, err
	}
	data, err := os.ReadFile(filepath.Join(dir, "problem.yaml"))
	if err != nil {
		return nil, fmt.Errorf("%s: not a problem directory (%v)", dir, unwrapPath(err))
	}
	fsys := os.DirFS(dir)
	layout, err := layoutOf(fsys, data, dir)
	if err != nil {
		return nil, err
	}
	if layout != kattis.LayoutNative {
		return &Conversion{Already: true}, nil
	}
	if _, err := LoadDir(dir); err != nil {
		return nil, err
	}
	s, err := parseNative(bytes.NewReader(data), filepath.Join(dir, "problem.yaml"))
	if err != nil {
		return nil, err
	}
	s.tree = t
	s.applyPuzzle(fsys)
	c := &converter{dir: dir, fsys: fsys, s: s, files: map[string][]byte{}}
	if err := c.plan(data); err != nil {
		return nil, err
	}
	inPlace := out == "" || filepath.Clean(out) == filepath.Clean(dir)
	if inPlace {
		out = dir
	}
	if err := c.check(out, inPlace); err != nil {
		return nil, err
	}
	if err := c.apply(out, inPlace); err != nil {
		return nil, err
	}
	if _, err := LoadDir(out); err != nil {
		return nil, fmt.Errorf("the converted package does not load (a bug of judge convert): %w", err)
	}
	return &Conversion{Steps: c.steps}, nil
}

// converter plans a conversion: moves of files and directories of the
// native problem (relative, slash-separated paths), and files to write.
type converter struct {
	dir   string
	fsys  fs.FS
	s     *nativeSpec
	moves []move
	files map[string][]byte // path -> content; problem.yaml among them
	steps []string
	// args are the default output validator's flags, written in the
	// sample and secret groups' test_group.yaml
	args        []string
	interactive bool
}

type move struct{ from, to string }

func (c *converter) move(from, to string) {
	c.moves = append(c.moves, move{from, to})
	c.steps = append(c.steps, fmt.Sprintf("%s -> %s", from, to))
}

func (c *converter) write(name string, data []byte, why string) {
	c.files[name] = data
	c.steps = append(c.steps, fmt.Sprintf("%s: %s", name, why))
}

// plan lays out the package: every part of the native problem in its
// place.
func (c *converter) plan(spec []byte) error {
	c.move("testdata", "data")
	if isFileFS(c.fsys, "statement.md") {
		c.move("statement.md", "statement/problem.en.md")
	}
	if isDirFS(c.fsys, "solution") {
		c.move("solution", "submissions/accepted/solution")
	}
	if err := c.planPuzzle(); err != nil {
		return err
	}
	if err := c.planChecker(); err != nil {
		return err
	}
	for _, v := range c.s.InputValidators {
		c.move(v, "input_validators/"+path.Base(v))
	}
	if len(c.args) > 0 {
		group := []byte("# judge convert: the native checker's options\noutput_validator_args: " + flowList(c.args) + "\n")
		for _, g := range []string{"sample", "secret"} {
			if isDirFS(c.fsys, "testdata/"+g) {
				c.write("data/"+g+"/test_group.yaml", group, "the default output validator's flags")
			}
		}
	}
	seen := map[string]bool{}
	for _, m := range c.moves {
		if seen[m.to] {
			return fmt.Errorf("%s: two parts of the problem would both be %s in the package; rename one", c.s.file, m.to)
		}
		seen[m.to] = true
	}
	y, err := c.problemYAML(spec)
	if err != nil {
		return err
	}
	c.write("problem.yaml", y, "rewritten in format 2025-09")
	return nil
}

// planPuzzle puts the problem's definition beside problem.yaml, in the
// mode its checker asks: its own, or a shipped one it names.
func (c *converter) planPuzzle() error {
	s, chk := c.s, c.s.Checker
	named := map[string]bool{}
	if chk.Program == "" && isPuzzleName(chk.Name) {
		named[chk.Name] = true
	}
	for _, n := range []string{s.Reference, s.Validator} {
		if n != "" {
			named[n] = true // Validate saw to it that it names a puzzle
		}
	}
	var name string
	for n := range named {
		name = n
	}
	switch {
	case len(named) == 0:
		return nil
	case len(named) > 1:
		return fmt.Errorf("%s: names several puzzles (checker %s, reference %q, validator %q): a package has one definition", s.file, c.checkerName(), s.Reference, s.Validator)
	case s.Reference == "" || s.Validator == "" || chk.Program == "" && !isPuzzleName(chk.Name):
		return fmt.Errorf("%s: a package's puzzle.yaml is its reference, its input validator and (unless it has an output validator of its own) its checker; this problem takes only part of it (checker %s, reference %q, validator %q)", s.file, c.checkerName(), s.Reference, s.Validator)
	}
	var def []byte
	var err error
	if name == Own {
		def, err = fs.ReadFile(c.fsys, s.Puzzle)
	} else {
		def, err = fs.ReadFile(embedded, path.Join(name, puzzle.FileName))
	}
	if err != nil {
		return err
	}
	mode := chk.Options["mode"]
	switch {
	case name != Own:
		c.write(puzzle.FileName, withMode(def, mode), "the definition of the shipped puzzle "+name)
	default:
		if s.Puzzle != puzzle.FileName {
			c.move(s.Puzzle, puzzle.FileName)
		}
		if mode != "" {
			c.write(puzzle.FileName, withMode(def, mode), "in mode "+mode+" (checker.options.mode)")
		}
	}
	return nil
}

func (c *converter) checkerName() string {
	if c.s.Checker.Program != "" {
		return c.s.Checker.Program
	}
	return c.s.Checker.Name
}

var modeLineRE = regexp.MustCompile(`(?m)^mode:.*$`)

// withMode is the definition def in mode ("": as it is).
func withMode(def []byte, mode string) []byte {
	if mode == "" {
		return def
	}
	line := []byte("mode: " + mode + " # judge convert: the native checker.options.mode")
	if modeLineRE.Match(def) {
		return modeLineRE.ReplaceAllLiteral(def, line)
	}
	if len(def) > 0 && def[len(def)-1] != '\n' {
		def = append(def, '\n')
	}
	return append(append(def, line...), '\n')
}

// planChecker makes the checker and the interactor the package's output
// validator.
func (c *converter) planChecker() error {
	s, chk := c.s, c.s.Checker
	if it := s.Interactor; it != nil {
		if it.protocol() != checkers.Kattis {
			return fmt.Errorf("%s:%d: interactor.protocol: a testlib interactor has no place in the package format (its output validator talks with the submission and decides, exit 42 or 43): rewrite it to the kattis protocol first", s.file, s.lineOf("interactor"))
		}
		c.interactive = true
		return c.planValidator(it.Program, it.Args)
	}
	switch {
	case chk.Program != "" && chk.Protocol == checkers.Kattis.String():
		return c.planValidator(chk.Program, chk.Args)
	case chk.Program != "":
		return c.planTestlib(chk.Program, chk.Args)
	case isPuzzleName(chk.Name):
		return nil // planPuzzle's
	case chk.Name == "tokens":
		c.args = []string{"case_sensitive"}
	case chk.Name == "default":
		args, err := checkers.DefaultArgs(chk.Options)
		if err != nil {
			return fmt.Errorf("%s: checker.options: %w", s.file, err)
		}
		c.args = args
	default:
		return fmt.Errorf("%s:%d: checker.name: the built-in checker %s has no equal in the package format", s.file, s.lineOf("checker.name"), chk.Name)
	}
	return nil
}

// planValidator makes the program p (a file or a directory) the output
// validator, called with args.
func (c *converter) planValidator(p string, args []string) error {
	if isDirFS(c.fsys, p) {
		c.move(p, "output_validator")
	} else {
		c.move(p, "output_validator/"+path.Base(p))
	}
	c.args = args
	return nil
}

// testlibRun calls a testlib checker by the format's protocol.
const testlibRun = `#!/bin/sh
# judge convert: the format's output validator protocol around the native
# problem's testlib checker:
#   run input_file answer_file feedback_dir [args] < output
# calls
#   CHECKER input_file output_file answer_file [args]
# 0 accepts (exit 42); 1 (wrong answer) and 2 (presentation error) reject
# (exit 43); anything else is a judge error. Its messages go to
# judgemessage.txt.
dir=$(dirname "$0")
in=$1 ans=$2 fb=$3
shift 3
out=$(mktemp) || exit 1
trap 'rm -f "$out"' EXIT
cat > "$out"
%s "$in" "$out" "$ans" "$@" > "${fb}judgemessage.txt" 2>&1
case $? in
0) exit 42 ;;
1|2) exit 43 ;;
*) exit 1 ;;
esac
`

// testlibBuild compiles a C or C++ testlib checker.
const testlibBuild = `#!/bin/sh
# judge convert: builds the native problem's testlib checker for run.
set -e
%s
`

// planTestlib makes the testlib checker p the output validator, inside
// build and run scripts that speak the format's protocol: C, C++ (built
// with cc or c++, which the format's hosts have) and Python 3.
func (c *converter) planTestlib(p string, args []string) error {
	dir, files := "output_validator", []string{p}
	if isDirFS(c.fsys, p) {
		ents, err := fs.ReadDir(c.fsys, p)
		if err != nil {
			return err
		}
		files = nil
		for _, e := range ents {
			if !e.IsDir() {
				files = append(files, path.Join(p, e.Name()))
			}
		}
		c.move(p, dir)
	} else {
		c.move(p, dir+"/"+path.Base(p))
	}
	var call, build string
	for _, f := range files {
		switch base := path.Base(f); strings.ToLower(path.Ext(f)) {
		case ".cpp", ".cc", ".cxx", ".c++":
			build, call = "c++ -O2 -std=gnu++17 -o checker *"+path.Ext(base), `"$dir/checker"`
		case ".c":
			build, call = "cc -O2 -o checker *.c -lm", `"$dir/checker"`
		case ".py", ".py3":
			call = `python3 "$dir/` + base + `"`
		}
	}
	if call == "" {
		return fmt.Errorf("%s:%d: checker.program: %s: judge convert calls a testlib checker in C, C++ or Python 3 through scripts (what the format's hosts run); rewrite it to the kattis protocol first", c.s.file, c.s.lineOf("checker.program"), p)
	}
	for _, a := range args {
		call += " " + shellQuote(a)
	}
	c.write(dir+"/run", fmt.Appendf(nil, testlibRun, call), "the format's protocol around the testlib checker")
	if build != "" {
		c.write(dir+"/build", fmt.Appendf(nil, testlibBuild, build), "builds the testlib checker")
	}
	return nil
}

func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// flowList writes strings as a YAML flow sequence.
func flowList(list []string) string {
	q := make([]string, len(list))
	for i, s := range list {
		q[i] = strconv.Quote(s)
	}
	return "[" + strings.Join(q, ", ") + "]"
}

// problemYAML is the package's problem.yaml, with the comments of the
// native one's limits.
func (c *converter) problemYAML(spec []byte) ([]byte, error) {
	s := c.s
	var root yaml.Node
	if err := yaml.Unmarshal(spec, &root); err != nil {
		return nil, err
	}
	comments := limitComments(&root)
	uuid, err := newUUID()
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "# judge convert: from the judge's native layout\nproblem_format_version: 2025-09\n")
	if c.interactive {
		b.WriteString("type: interactive\n")
	}
	fmt.Fprintf(&b, "name: %s\nuuid: %s\n", yamlString(s.Title), uuid)
	switch len(s.Sources) {
	case 0:
	case 1:
		fmt.Fprintf(&b, "source: %s\n", yamlString(s.Sources[0]))
	default:
		b.WriteString("source:\n")
		for _, src := range s.Sources {
			fmt.Fprintf(&b, "  - %s\n", yamlString(src))
		}
	}
	b.WriteString("limits:\n")
	for _, l := range []struct {
		key string
		v   float64
	}{{"time_limit", s.Limits.TimeLimit}, {"memory", s.Limits.Memory}, {"output", s.Limits.Output}} {
		for _, line := range comments[l.key] {
			fmt.Fprintf(&b, "  %s\n", line)
		}
		fmt.Fprintf(&b, "  %s: %s\n", l.key, strconv.FormatFloat(l.v, 'g', -1, 64))
		if l.key == "time_limit" {
			if r := resolution(l.v); r != 1 {
				fmt.Fprintf(&b, "  time_resolution: %s\n", strconv.FormatFloat(r, 'g', -1, 64))
			}
		}
	}
	return b.Bytes(), nil
}

// limitComments are the comment lines above each key of limits.
func limitComments(root *yaml.Node) map[string][]string {
	out := map[string][]string{}
	if len(root.Content) == 0 || root.Content[0].Kind != yaml.MappingNode {
		return out
	}
	doc := root.Content[0]
	for i := 0; i+1 < len(doc.Content); i += 2 {
		if doc.Content[i].Value != "limits" || doc.Content[i+1].Kind != yaml.MappingNode {
			continue
		}
		lim := doc.Content[i+1]
		for j := 0; j+1 < len(lim.Content); j += 2 {
			if hc := lim.Content[j].HeadComment; hc != "" {
				out[lim.Content[j].Value] = strings.Split(hc, "\n")
			}
		}
	}
	return out
}

// resolution is the largest of 1, 0.1, 0.01 and 0.001 s that the time
// limit tl is a multiple of (2025-09 wants one).
func resolution(tl float64) float64 {
	for _, r := range []float64{1, 0.1, 0.01} {
		if q := tl / r; math.Abs(q-math.Round(q)) < 1e-9 {
			return r
		}
	}
	return 0.001
}

// yamlString writes s as a YAML scalar that reads back as the string s.
func yamlString(s string) string {
	b, err := yaml.Marshal(s)
	if err != nil {
		return strconv.Quote(s)
	}
	return strings.TrimSuffix(string(b), "\n")
}

// newUUID is a random (version 4) UUID, as the format wants one per
// problem.
func newUUID() (string, error) {
	var u [16]byte
	if _, err := rand.Read(u[:]); err != nil {
		return "", err
	}
	u[6] = u[6]&0x0f | 0x40
	u[8] = u[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", u[0:4], u[4:6], u[6:8], u[8:10], u[10:16]), nil
}

// check refuses a conversion that would overwrite anything: in place, a
// destination that exists (but the files it rewrites); else an out that
// holds anything.
func (c *converter) check(out string, inPlace bool) error {
	if !inPlace {
		ents, err := os.ReadDir(out)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return nil
		case err != nil:
			return err
		case len(ents) > 0:
			return fmt.Errorf("%s: not empty: judge convert writes a new package only into an empty or new directory", out)
		}
		return nil
	}
	var there []string
	for _, m := range c.moves {
		if _, err := os.Lstat(filepath.Join(out, filepath.FromSlash(m.to))); err == nil {
			there = append(there, m.to)
		}
	}
	for name := range c.files {
		if name == "problem.yaml" || name == puzzle.FileName {
			continue // rewritten
		}
		if _, err := os.Lstat(filepath.Join(out, filepath.FromSlash(name))); err == nil {
			there = append(there, name)
		}
	}
	if len(there) > 0 {
		sort.Strings(there)
		return fmt.Errorf("%s: judge convert would overwrite %s; move it out of the way first", out, strings.Join(there, ", "))
	}
	return nil
}

// apply carries the plan out: in place by renames, else by copying the
// whole directory with each moved part at its new place.
func (c *converter) apply(out string, inPlace bool) error {
	if !inPlace {
		if err := c.copyRest(out); err != nil {
			return err
		}
	}
	for _, m := range c.moves {
		from, to := filepath.Join(c.dir, filepath.FromSlash(m.from)), filepath.Join(out, filepath.FromSlash(m.to))
		if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
			return err
		}
		var err error
		if inPlace {
			err = os.Rename(from, to)
			os.Remove(filepath.Dir(from)) // the folder it leaves, if that is empty now
		} else {
			err = copyTree(from, to, nil)
		}
		if err != nil {
			return err
		}
	}
	names := make([]string, 0, len(c.files))
	for name := range c.files {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		dst := filepath.Join(out, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		mode := fs.FileMode(0o644)
		if base := path.Base(name); base == "run" || base == "build" {
			mode = 0o755
		}
		if err := writeFileAtomic(dst, c.files[name], mode); err != nil {
			return err
		}
	}
	return nil
}

// copyRest copies into out what the plan neither moves nor rewrites.
func (c *converter) copyRest(out string) error {
	skip := map[string]bool{}
	for _, m := range c.moves {
		skip[m.from] = true
	}
	for name := range c.files {
		skip[name] = true
	}
	return copyTree(c.dir, out, skip)
}

// copyTree copies the directory (or file) from to to, following links
// (checkTree let only those within the problem through), each file with
// its permissions, but for the paths of skip (relative, slash-separated),
// and the names a package ignores.
func copyTree(from, to string, skip map[string]bool) error {
	var walk func(rel string) error
	walk = func(rel string) error {
		src, dst := filepath.Join(from, filepath.FromSlash(rel)), filepath.Join(to, filepath.FromSlash(rel))
		st, err := os.Stat(src)
		if err != nil {
			return err
		}
		if !st.IsDir() {
			b, err := os.ReadFile(src)
			if err != nil {
				return err
			}
			// directories are made for their files: one whose every file
			// moved elsewhere is not left behind empty
			if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
				return err
			}
			return os.WriteFile(dst, b, st.Mode().Perm())
		}
		ents, err := os.ReadDir(src)
		if err != nil {
			return err
		}
		for _, e := range ents {
			name := path.Join(rel, e.Name())
			if rel == "." {
				name = e.Name()
			}
			if skip[name] || ignoredName(e.Name()) && e.Name() != timeLimitFile {
				continue
			}
			if err := walk(name); err != nil {
				return err
			}
		}
		return nil
	}
	return walk(".")
}

// writeFileAtomic writes name by a rename, so that a reader sees the old
// content or the new, never a part.
func writeFileAtomic(name string, data []byte, mode fs.FileMode) error {
	f, err := os.CreateTemp(filepath.Dir(name), ".convert-*")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Chmod(mode); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), name)
}
