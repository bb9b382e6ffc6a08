package judge

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/optjudge/optjudge/internal/proc"
	"github.com/optjudge/optjudge/judge/lang"
)

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
func (j *Judge) warmGoCache(ctx context.Context, b *build, tc *lang.Toolchain) error {
	if goRoot(tc.Compiler) == "" {
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
	r, err := proc.Run(ctx, &proc.Cmd{Argv: append([]string{tc.Compiler, "build"}, need...), Dir: dir, Env: env, Timeout: 10 * time.Minute})
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

// goStd is the set of standard packages of the go command tc.Compiler, as
// `go list std` prints them, listed once per Judge and go command.
func (j *Judge) goStd(ctx context.Context, tc *lang.Toolchain) (map[string]bool, error) {
	j.mu.Lock()
	std, ok := j.goStdPkgs[tc.Compiler]
	j.mu.Unlock()
	if ok {
		return std, nil
	}
	// kept in the cache directory too, by the go command's file version:
	// a command-line judge is a new Judge per submission, and the list
	// costs 0.2 s
	cached := ""
	if real, err := filepath.EvalSymlinks(tc.Compiler); err == nil {
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
	j.goStdPkgs[tc.Compiler] = std
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
func (j *Judge) listStd(ctx context.Context, tc *lang.Toolchain) ([]byte, error) {
	dir, err := os.MkdirTemp(j.tmp, "go-list-")
	if err != nil {
		return nil, fmt.Errorf("listing Go's standard packages: %w", err)
	}
	defer removeAll(dir)
	env := append(j.trustedEnv(dir, tc), "GOCACHE="+j.toolGoCache)
	r, err := proc.Run(ctx, &proc.Cmd{Argv: []string{tc.Compiler, "list", "std"}, Dir: dir, Env: env, Timeout: time.Minute, Cap: 1 << 20})
	if err == nil && (r.ExitCode != 0 || r.TimedOut || r.Signal != 0) {
		err = fmt.Errorf("%s list std failed: %s", tc.Compiler, firstLines(string(r.Stderr), 5))
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
