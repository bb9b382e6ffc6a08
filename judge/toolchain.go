package judge

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/optjudge/optjudge/internal/proc"
	"github.com/optjudge/optjudge/judge/sandbox"
)

// toolchain is where a language's programs were found on the PATH, and
// what the boxes of its build and runs must see.
type toolchain struct {
	compiler string   // the compile command's program; "" without one
	interp   string   // the run command's program when it is looked up ("" for {exe})
	bin      string   // the directory of the compiler, else of the interpreter
	readOnly []string // the toolchain paths that exist, links resolved
	env      []string // Language.Env with {home} and {bin} in place; {dir} is left
}

// envFor is the language's environment for a build or a run in dir.
func (tc *toolchain) envFor(dir string) []string { return withDir(tc.env, dir) }

// toolchain finds the language's programs on Config.Path. A candidate that
// the boxes could not see (outside the system directories and the
// language's toolchain paths, such as a pyenv shim) is passed over, so the
// build and the runs find the same program inside the box as here.
func (j *Judge) toolchain(lang *Language) (*toolchain, error) { return j.findToolchain(lang, true) }

// installed is the language a program in lang is built in here, with its
// toolchain: lang, or its fallback (in langs) when lang's programs are not
// installed and the fallback's are. When neither is, the error is lang's:
// it names what to install.
func (j *Judge) installed(langs *Languages, lang *Language, boxed bool) (*Language, *toolchain, error) {
	tc, err := j.findToolchain(lang, boxed)
	var ni *NotInstalledError
	if err == nil || lang.Fallback == "" || !errors.As(err, &ni) {
		return lang, tc, err
	}
	fb, ferr := j.table(langs).ByName(lang.Fallback)
	if ferr != nil {
		return lang, nil, err
	}
	ftc, ferr := j.findToolchain(fb, boxed)
	if ferr != nil {
		return lang, nil, err
	}
	return fb, ftc, nil
}

func (j *Judge) findToolchain(lang *Language, boxed bool) (*toolchain, error) {
	tc := &toolchain{}
	lookedUp := func(name string) bool { return !strings.Contains(name, "{") }
	first := ""
	switch {
	case len(lang.Compile) > 0:
		first = lang.Compile[0]
	case lookedUp(lang.Run[0]):
		first = lang.Run[0]
	}
	if first != "" {
		p, err := j.lookUp(lang, first, boxed, func(cand string) []string { return j.toolchainPaths(lang, filepath.Dir(cand)) })
		if err != nil {
			return nil, err
		}
		tc.bin = filepath.Dir(p)
		if len(lang.Compile) > 0 {
			tc.compiler = p
		} else {
			tc.interp = p
		}
	}
	tc.readOnly = j.toolchainPaths(lang, tc.bin)
	if len(lang.Compile) > 0 && lookedUp(lang.Run[0]) {
		p, err := j.lookUp(lang, lang.Run[0], boxed, func(string) []string { return tc.readOnly })
		if err != nil {
			return nil, err
		}
		tc.interp = p
	}
	for _, kv := range lang.Env {
		if v, ok := j.expandPath(kv, tc.bin); ok {
			tc.env = append(tc.env, v)
		}
	}
	return tc, nil
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

// lookUp finds one of lang's programs on Config.Path, passing over the
// candidates the boxes cannot see (below the system directories or
// roots(candidate)); a program not found is a *NotInstalledError.
func (j *Judge) lookUp(lang *Language, name string, boxed bool, roots func(cand string) []string) (string, error) {
	var passed, unreachable []string
	ok := func(cand string) bool {
		if !visible(cand, roots(cand)) {
			passed = append(passed, cand)
			return false
		}
		if err := j.reachable(cand, roots(cand)); boxed && err != nil {
			unreachable = append(unreachable, err.Error())
			return false
		}
		return true
	}
	p, err := proc.LookPath(name, j.cfg.Path, ok)
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
func (j *Judge) reachable(p string, roots []string) error {
	dirs := append([]string{filepath.Dir(p)}, roots...)
	if real, err := filepath.EvalSymlinks(p); err == nil {
		dirs = append(dirs, filepath.Dir(real)) // a link's target is executed
	}
	for _, d := range dirs {
		if err := j.sb.Reachable(d); err != nil {
			return err
		}
	}
	return nil
}

// toolchainPaths are the language's toolchain paths with {bin} standing
// for bin: those that exist, every match of a pattern, links resolved.
func (j *Judge) toolchainPaths(lang *Language, bin string) []string {
	var out []string
	for _, t := range lang.Toolchain {
		p, ok := j.expandPath(t, bin)
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

// expandPath puts Config.Home and bin for {home} and {bin}; ok is false
// when s needs one that is unknown.
func (j *Judge) expandPath(s, bin string) (string, bool) {
	if (strings.Contains(s, "{home}") && j.cfg.Home == "") || (strings.Contains(s, "{bin}") && bin == "") {
		return "", false
	}
	return proc.Expand([]string{s}, map[string]string{"home": j.cfg.Home, "bin": bin})[0], true
}

// visible reports whether a box sees the program p, and the file it links
// to, below the system directories or the toolchain paths roots.
func visible(p string, roots []string) bool {
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

// warmGoCache builds into the boxes' Go cache the standard packages that
// the Go sources of b import, those not built by this Judge yet.
//
// A Go build compiles every standard package the program imports unless
// the cache has it: a second or more each. The cache cannot be shared and
// writable by the contestants' builds: one could plant a compiled package
// that every later build links (the cache trusts its entries). Nor copied
// per build: it holds hundreds of megabytes. Nor overlaid: an overlay's
// upper layer is a per-build copy of what it writes, and a box has no
// overlay to mount at the namespace levels a spare reuses. So the
// contestants' builds read the Judge's cache read-only, a bind in the box
// (Go builds from a cache it cannot write: what it would add, the
// contestant's own package, it does not keep), and only the judge writes
// it: before each Go build, the judge itself builds into it, outside the
// sandbox, the standard packages the source imports (read by the parser,
// nothing run), once per Judge and package. The problems' own Go
// programs, trusted, build with another cache (CacheDir/go-build), so that
// nothing of theirs is ever in a box's view.
func (j *Judge) warmGoCache(ctx context.Context, b *build, tc *toolchain) error {
	if goRoot(tc.compiler) == "" {
		return nil
	}
	std, err := j.goStd(ctx, tc)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return nil // nothing warmed: the build is slower, or fails for itself
	}
	j.mu.Lock()
	var need []string
	for _, p := range goImports(b.dir) {
		// only what `go list std` names: an import of "cmd" or "std",
		// patterns to the go command, must not build the toolchain here
		if !j.goWarm[p] && std[p] {
			need = append(need, p)
		}
	}
	j.mu.Unlock()
	if len(need) == 0 {
		return nil
	}
	dir, err := os.MkdirTemp(j.tmp, "go-warm-")
	if err != nil {
		return fmt.Errorf("warming the Go build cache: %w", err)
	}
	defer removeAll(dir)
	env := append(j.trustedEnv(dir, tc), "GOCACHE="+j.boxGoCache)
	r, err := proc.Run(ctx, &proc.Cmd{Argv: append([]string{tc.compiler, "build"}, need...), Dir: dir, Env: env, Timeout: 10 * time.Minute})
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return fmt.Errorf("warming the Go build cache: %w", err)
	}
	if r.ExitCode == 0 && !r.TimedOut {
		j.mu.Lock()
		for _, p := range need {
			j.goWarm[p] = true
		}
		j.mu.Unlock()
	}
	return nil // a failure shows in the build itself
}

// goStd is the set of standard packages of the go command tc.compiler, as
// `go list std` prints them, listed once per Judge and go command.
func (j *Judge) goStd(ctx context.Context, tc *toolchain) (map[string]bool, error) {
	j.mu.Lock()
	std, ok := j.goStdPkgs[tc.compiler]
	j.mu.Unlock()
	if ok {
		return std, nil
	}
	// kept in the cache directory too, by the go command's file version:
	// a command-line judge is a new Judge per submission, and the list
	// costs 0.2 s
	cached := ""
	if real, err := filepath.EvalSymlinks(tc.compiler); err == nil {
		if fi, err := os.Stat(real); err == nil {
			sum := sha256.Sum256(fmt.Appendf(nil, "%s %d %d", real, fi.Size(), fi.ModTime().UnixNano()))
			cached = filepath.Join(j.cfg.CacheDir, "go-std", hex.EncodeToString(sum[:16]))
		}
	}
	list, err := os.ReadFile(cached)
	if cached == "" || err != nil {
		if list, err = j.listStd(ctx, tc); err != nil {
			return nil, err
		}
		if cached != "" {
			keepCached(cached, list)
		}
	}
	std = map[string]bool{}
	for _, p := range strings.Fields(string(list)) {
		std[p] = true
	}
	j.mu.Lock()
	j.goStdPkgs[tc.compiler] = std
	j.mu.Unlock()
	return std, nil
}

// keepCached writes a cache file whole or not at all (a concurrent reader
// never sees half of it); a failure only costs the next Judge the work.
func keepCached(p string, b []byte) {
	if os.MkdirAll(filepath.Dir(p), 0o755) != nil {
		return
	}
	f, err := os.CreateTemp(filepath.Dir(p), "tmp-")
	if err != nil {
		return
	}
	_, err = f.Write(b)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), p)
	}
	if err != nil {
		os.Remove(f.Name())
	}
}

// listStd runs `go list std`.
func (j *Judge) listStd(ctx context.Context, tc *toolchain) ([]byte, error) {
	dir, err := os.MkdirTemp(j.tmp, "go-list-")
	if err != nil {
		return nil, fmt.Errorf("listing Go's standard packages: %w", err)
	}
	defer removeAll(dir)
	env := append(j.trustedEnv(dir, tc), "GOCACHE="+j.toolGoCache)
	r, err := proc.Run(ctx, &proc.Cmd{Argv: []string{tc.compiler, "list", "std"}, Dir: dir, Env: env, Timeout: time.Minute, Cap: 1 << 20})
	if err == nil && (r.ExitCode != 0 || r.TimedOut || r.Signal != 0) {
		err = fmt.Errorf("%s list std failed: %s", tc.compiler, firstLines(string(r.Stderr), 5))
	}
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("listing Go's standard packages: %w", err)
	}
	return r.Stdout, nil
}

// goImports lists what the Go files of dir import, as the parser reads
// their import blocks (nothing is run); a file that does not parse adds
// nothing.
func goImports(dir string) []string {
	ents, _ := os.ReadDir(dir)
	var out []string
	fset := token.NewFileSet()
	for _, e := range ents {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, e.Name()), nil, parser.ImportsOnly)
		if err != nil {
			continue
		}
		for _, imp := range f.Imports {
			if p := strings.Trim(imp.Path.Value, "\"`"); !slices.Contains(out, p) {
				out = append(out, p)
			}
		}
	}
	return out
}

// goRoot is the Go tree of the go command at path: GOROOT/bin/go, links
// resolved; "" when it does not look like one.
func goRoot(path string) string {
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return ""
	}
	root := filepath.Dir(filepath.Dir(real))
	if !isDir(filepath.Join(root, "src", "runtime")) {
		return ""
	}
	return root
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}
