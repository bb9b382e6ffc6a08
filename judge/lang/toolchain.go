package lang

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/optjudge/optjudge/internal/proc"
	"github.com/optjudge/optjudge/judge/sandbox"
)

// Toolchain is where a language's programs were found on the PATH, and
// what the boxes of its build and runs must see.
type Toolchain struct {
	Compiler string   // the compile command's program; "" without one
	Interp   string   // the run command's program when it is looked up ("" for {exe})
	Bin      string   // the directory of the compiler, else of the interpreter
	ReadOnly []string // the toolchain paths that exist, links resolved
	Env      []string // Language.Env with {home} and {bin} in place; {dir} is left
}

// EnvFor is the language's environment for a build or a run in dir.
func (tc *Toolchain) EnvFor(dir string) []string { return WithDir(tc.Env, dir) }

// WithDir puts the build or working directory for {dir} in env.
func WithDir(env []string, dir string) []string {
	return proc.Expand(env, map[string]string{"dir": dir})
}

// Finder finds languages' toolchains on a PATH, as the boxes will see
// them.
type Finder struct {
	Path string // the PATH compilers are found on
	Home string // for {home} in the table; "": none
	// Reachable says why a box's uid could not reach a directory, or nil
	// (sandbox.Sandbox.Reachable); nil: every directory is reachable.
	Reachable func(dir string) error
}

// Find finds the language's programs on the Path. A candidate that the
// boxes could not see (outside the system directories and the language's
// toolchain paths, such as a pyenv shim) is passed over, so the build and
// the runs find the same program inside the box as here; boxed, one that
// a box's uid cannot reach (Reachable) too.
func (f *Finder) Find(lang *Language, boxed bool) (*Toolchain, error) {
	tc := &Toolchain{}
	lookedUp := func(name string) bool { return !strings.Contains(name, "{") }
	first := ""
	switch {
	case len(lang.Compile) > 0:
		first = lang.Compile[0]
	case lookedUp(lang.Run[0]):
		first = lang.Run[0]
	}
	if first != "" {
		p, err := f.lookUp(lang, first, boxed, func(cand string) []string { return f.Paths(lang, filepath.Dir(cand)) })
		if err != nil {
			return nil, err
		}
		tc.Bin = filepath.Dir(p)
		if len(lang.Compile) > 0 {
			tc.Compiler = p
		} else {
			tc.Interp = p
		}
	}
	tc.ReadOnly = f.Paths(lang, tc.Bin)
	if len(lang.Compile) > 0 && lookedUp(lang.Run[0]) {
		p, err := f.lookUp(lang, lang.Run[0], boxed, func(string) []string { return tc.ReadOnly })
		if err != nil {
			return nil, err
		}
		tc.Interp = p
	}
	for _, kv := range lang.Env {
		if v, ok := f.expandPath(kv, tc.Bin); ok {
			tc.Env = append(tc.Env, v)
		}
	}
	return tc, nil
}

// Installed is the language a program in lang is built in here, with its
// toolchain: lang, or its fallback (in t) when lang's programs are not
// installed and the fallback's are. When neither is, the error is lang's:
// it names what to install.
func (f *Finder) Installed(t *Table, lang *Language, boxed bool) (*Language, *Toolchain, error) {
	tc, err := f.Find(lang, boxed)
	var ni *NotInstalledError
	if err == nil || lang.Fallback == "" || !errors.As(err, &ni) {
		return lang, tc, err
	}
	fb, ferr := t.ByName(lang.Fallback)
	if ferr != nil {
		return lang, nil, err
	}
	ftc, ferr := f.Find(fb, boxed)
	if ferr != nil {
		return lang, nil, err
	}
	return fb, ftc, nil
}

// NotInstalledError says that a language's compiler or interpreter is not
// on the judge's PATH, or not where the boxes can see it: the submission
// cannot be built on this machine, through no fault of its own.
type NotInstalledError struct {
	Language   string   // the language's name
	Title      string   // and its title
	Program    string   // the command not found, e.g. "kotlinc"
	Debian     string   // the Debian package that provides it, or ""
	PassedOver []string // where it was found but the boxes cannot see it (a pyenv shim)
	// Unreachable says, for each place it was found, why a root judge's
	// box uid cannot reach it at isolation none (a directory of mode 0700
	// on the way)
	Unreachable []string
}

func (e *NotInstalledError) Error() string { return e.Title + ": " + e.Detail() }

// Detail is the message without the language: "kotlinc not found (Debian:
// apt-get install kotlin)".
func (e *NotInstalledError) Detail() string {
	msg := e.Program + " not found"
	if len(e.PassedOver) > 0 {
		msg += fmt.Sprintf(" where the sandbox can see it (passed over %s: outside the system directories and the language's toolchain paths)",
			strings.Join(e.PassedOver, ", "))
	}
	if len(e.Unreachable) > 0 {
		msg += fmt.Sprintf(" where the boxes' uids can reach it (%s)", strings.Join(e.Unreachable, "; "))
	}
	if e.Debian != "" {
		return msg + " (Debian: apt-get install " + e.Debian + ")"
	}
	return msg + " (no Debian package: install it on the PATH)"
}

// lookUp finds one of lang's programs on the Path, passing over the
// candidates the boxes cannot see (below the system directories or
// roots(candidate)); a program not found is a *NotInstalledError.
func (f *Finder) lookUp(lang *Language, name string, boxed bool, roots func(cand string) []string) (string, error) {
	var passed, unreachable []string
	ok := func(cand string) bool {
		if !Visible(cand, roots(cand)) {
			passed = append(passed, cand)
			return false
		}
		if err := f.reachable(cand, roots(cand)); boxed && err != nil {
			unreachable = append(unreachable, err.Error())
			return false
		}
		return true
	}
	p, err := proc.LookPath(name, f.Path, ok)
	if err == nil && strings.Contains(name, "/") && (!isExecutable(p) || !ok(p)) {
		err = fmt.Errorf("%s: not an executable the boxes see", name)
	}
	if err != nil {
		return "", &NotInstalledError{Language: lang.Name, Title: lang.DisplayName(), Program: name, Debian: lang.Debian,
			PassedOver: passed, Unreachable: unreachable}
	}
	return p, nil
}

// reachable reports why a box uid could not reach the program p or one of
// its toolchain paths, or nil. Only at level none, where a root judge's box
// uid sees the judge's own file system: a toolchain below a home of mode
// 0700 (rustup's in /root/.cargo) is out of its reach.
func (f *Finder) reachable(p string, roots []string) error {
	dirs := append([]string{filepath.Dir(p)}, roots...)
	if real, err := filepath.EvalSymlinks(p); err == nil {
		dirs = append(dirs, filepath.Dir(real)) // a link's target is executed
	}
	if f.Reachable == nil {
		return nil
	}
	for _, d := range dirs {
		if err := f.Reachable(d); err != nil {
			return err
		}
	}
	return nil
}

// Paths are the language's toolchain paths with {bin} standing
// for bin: those that exist, every match of a pattern, links resolved.
func (f *Finder) Paths(lang *Language, bin string) []string {
	var out []string
	for _, t := range lang.Toolchain {
		p, ok := f.expandPath(t, bin)
		if !ok {
			continue
		}
		matches, err := filepath.Glob(filepath.Clean(p))
		if err != nil {
			continue
		}
		for _, m := range matches {
			if real, err := filepath.EvalSymlinks(m); err == nil && !slices.Contains(out, real) {
				out = append(out, real)
			}
		}
	}
	return out
}

// expandPath puts Home and bin for {home} and {bin}; ok is false
// when s needs one that is unknown.
func (f *Finder) expandPath(s, bin string) (string, bool) {
	if (strings.Contains(s, "{home}") && f.Home == "") || (strings.Contains(s, "{bin}") && bin == "") {
		return "", false
	}
	return proc.Expand([]string{s}, map[string]string{"home": f.Home, "bin": bin})[0], true
}

// LookUp finds another of lang's programs (its version command's) where
// the boxes of its toolchain tc see it; one not found is a
// *NotInstalledError.
func (f *Finder) LookUp(lang *Language, name string, tc *Toolchain) (string, error) {
	return f.lookUp(lang, name, true, func(string) []string { return tc.ReadOnly })
}

// Visible reports whether a box sees the program p, and the file it links
// to, below the system directories or the toolchain paths roots.
func Visible(p string, roots []string) bool {
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		return false
	}
	sys := sandbox.SystemDirs()
	var sysReal []string
	for _, d := range sys {
		if r, err := filepath.EvalSymlinks(d); err == nil {
			sysReal = append(sysReal, r)
		}
	}
	return (under(p, sys) || under(p, roots)) && (under(real, sysReal) || under(real, roots))
}

func under(p string, dirs []string) bool {
	for _, d := range dirs {
		if p == d || strings.HasPrefix(p, strings.TrimSuffix(d, "/")+"/") {
			return true
		}
	}
	return false
}

func isExecutable(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular() && st.Mode()&0o111 != 0
}
