package problems

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/optjudge/optjudge/problems/kattis"
)

// CheckDir refuses what LoadDir refuses in the tree of dir before loading
// it (see checkTree): for a caller that loads dir through a file system of
// its own. What it only warns about is left out.
func CheckDir(dir string) error {
	_, err := checkTree(dir, maxTreeEntries)
	return err
}

// maxTreeEntries bounds a package's files and directories, counted as the
// loaders walk them, through its links: links within the package may
// share a directory, so a few dozen links can make a tree of 2^30
// entries (and the loaders walk every one).
const maxTreeEntries = 1 << 20

// readParts are the names, in a problem directory, of the files and
// directories some part of judging reads: the format's (problem.yaml,
// data/, the validators, the statement, ...), the puzzle definition and
// the native layout's. A native problem.yaml may name a program anywhere
// else too: loadNative checks those (see tree.refused).
var readParts = []string{
	"problem.yaml", timeLimitFile, "puzzle.yaml", "data", "testdata", "statement.md",
	"statement", "problem_statement", "attachments", "submissions", "include", "generators",
	"input_validators", "input_format_validators", "output_validator", "output_validators",
	"answer_validators", "graders", "static_validator",
}

// tree is what checkTree found: warnings about files that no part of
// judging reads, and those files' paths, slash-separated within the
// directory.
type tree struct {
	warnings []kattis.Warning
	passed   []string
}

// refused says which of passed holds name, a file of the problem that a
// read follows after all (a native problem.yaml's program); "" when none.
func (t *tree) refused(name string) string {
	if t == nil {
		return ""
	}
	for _, p := range t.passed {
		if name == p || strings.HasPrefix(name, p+"/") {
			return p
		}
	}
	return ""
}

// checkTree refuses, below dir, what the loaders must not meet as they
// walk the package (following its links): a symbolic link whose target is
// outside dir or does not exist; a link to a directory the link is in,
// whose tree never ends; a file that is not a regular file, whose reading
// blocks (a named pipe) or never ends (/dev/zero, were it in the package);
// and more than max entries. It passes over the names a package ignores,
// but for timeLimitFile. Outside readParts, a dangling link, a link out
// of the package or an odd file is a warning, as problemtools and
// BAPCtools treat files they never read (DOMjudge's examples link
// problem.pdf to a build product).
func checkTree(dir string, max int) (*tree, error) {
	root, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return &tree{}, nil // load says what is wrong with dir
	}
	w := treeWalk{dir: dir, root: root, max: max, tree: &tree{}}
	if err := w.walk(dir, root, nil, true); err != nil {
		return nil, err
	}
	return w.tree, nil
}

// timeLimitFile is the one file with an ignored name that the loaders
// read: the legacy time limit, in the package's root.
const timeLimitFile = ".timelimit"

type treeWalk struct {
	dir, root string // as given, and as the links' targets name it
	entries   int
	max       int
	tree      *tree
}

// walk checks the directory p, at real (its path with no links);
// holders are the real paths of the directories it is in. read says
// whether judging reads what p holds: the root does, for its readParts.
func (w *treeWalk) walk(p, real string, holders []string, read bool) error {
	entries, err := os.ReadDir(real) // not p: its links would be resolved again, all of them
	if err != nil {
		return nil // the loaders say what is wrong with it, if they read it
	}
	top := len(holders) == 0
	holders = append(holders, real)
	for _, e := range entries {
		if ignoredName(e.Name()) && !(top && e.Name() == timeLimitFile) {
			continue
		}
		if w.entries++; w.entries > w.max {
			return fmt.Errorf("%s: more than %d files and directories (its links followed)", w.dir, w.max)
		}
		// A twsearch definition beside puzzle.yaml is read when it names it.
		read := read && (!top || slices.Contains(readParts, e.Name()) || strings.HasSuffix(e.Name(), ".tws"))
		if err := w.entry(e, filepath.Join(p, e.Name()), filepath.Join(real, e.Name()), holders, read); err != nil {
			if !read && w.entries <= w.max {
				w.pass(p, e.Name(), err)
				continue
			}
			return err
		}
	}
	return nil
}

// entry checks the entry e of a directory, q on the way the loaders go,
// at real.
func (w *treeWalk) entry(e fs.DirEntry, q, real string, holders []string, read bool) error {
	target, mode := real, e.Type()
	if mode&fs.ModeSymlink != 0 {
		var err error
		if target, err = w.link(q, real); err != nil {
			return err
		}
		st, err := os.Stat(target)
		if err != nil {
			return fmt.Errorf("%s: %v", q, unwrapPath(err))
		}
		mode = st.Mode().Type()
		if mode.IsDir() && slices.Contains(holders, target) {
			link, _ := os.Readlink(q)
			return fmt.Errorf("%s: a symbolic link to a directory that holds it (to %s): its tree would never end", q, link)
		}
	}
	switch {
	case mode.IsDir():
		return w.walk(q, target, holders, read)
	case !mode.IsRegular():
		return fmt.Errorf("%s: %s, not a file: a package holds files, directories and links to them", q, modeName(mode))
	}
	return nil
}

// pass records a fault of the entry name of p, in a part of the problem
// that judging never reads, as a warning.
func (w *treeWalk) pass(p, name string, err error) {
	rel, _ := filepath.Rel(w.dir, filepath.Join(p, name))
	rel = filepath.ToSlash(rel)
	w.tree.passed = append(w.tree.passed, rel)
	top, _, _ := strings.Cut(rel, "/")
	q := filepath.Join(p, name)
	w.tree.warnings = append(w.tree.warnings, kattis.Warning{File: q,
		Msg: fmt.Sprintf("%s; passed over: judging never reads %s", strings.TrimPrefix(err.Error(), q+": "), top)})
}

// link is the target of the link q, at real, with no links in it, which
// must be within the package.
func (w *treeWalk) link(q, real string) (string, error) {
	target, err := filepath.EvalSymlinks(real)
	if err != nil {
		return "", fmt.Errorf("%s: a symbolic link to nothing (%v)", q, unwrapPath(err))
	}
	if rel, err := filepath.Rel(w.root, target); err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		link, _ := os.Readlink(q)
		return "", fmt.Errorf("%s: a symbolic link out of the package (to %s): the format allows links within it only", q, link)
	}
	return target, nil
}

// modeName names a kind of file that is neither a regular file nor a
// directory.
func modeName(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return "a special file"
}
