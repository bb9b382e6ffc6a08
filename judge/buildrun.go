package judge

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/optjudge/optjudge/judge/internal/nofollow"
	"github.com/optjudge/optjudge/judge/lang"
	"github.com/optjudge/optjudge/problems"
)

// BuildRunLanguage is the language of a program that builds itself: a
// directory with a build script, a run script, or both (the Kattis
// format's 2025-09 programs; BAPCtools takes submissions so too). The
// build script runs in (a copy of) the directory, under the default
// compile limits; the run script it leaves, or that was there, is the
// program.
const BuildRunLanguage = "build/run"

// IsBuildRun says whether path is a directory with a build or a run
// script.
func IsBuildRun(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.IsDir() && buildRunIn(os.DirFS(path), ".")
}

func buildRunIn(fsys fs.FS, dir string) bool {
	for _, s := range []string{"build", "run"} {
		if st, err := fs.Stat(fsys, strings.TrimPrefix(dir+"/"+s, "./")); err == nil && st.Mode().IsRegular() {
			return true
		}
	}
	return false
}

// buildRunLang is the language entry the build path runs a build script
// with: its command is the script, found in the build directory.
var buildRunLang = &lang.Language{Name: BuildRunLanguage, File: "build", Compile: []string{"./build"}, Run: []string{"./run"}}

// runBuildScript runs dir's build script, if there is one, as a build of
// the language table's languages is run (trusted: in the programs' sandbox),
// and checks that it left an executable run script.
func (j *Judge) runBuildScript(ctx context.Context, dir string, trusted bool) (CompileResult, error) {
	res := CompileResult{OK: true}
	if st, err := os.Lstat(filepath.Join(dir, "build")); err == nil && st.Mode().IsRegular() {
		tc := &lang.Toolchain{Compiler: filepath.Join(dir, "build")}
		var err error
		if res, err = j.compile(ctx, &build{lang: buildRunLang, dir: dir, trusted: trusted}, tc); err != nil || !res.OK {
			return res, err
		}
	}
	st, err := os.Lstat(filepath.Join(dir, "run"))
	switch {
	case err != nil:
		res.OK, res.Message = false, "no run script: the build left no file called run"
	case !st.Mode().IsRegular() || st.Mode().Perm()&0o100 == 0:
		res.OK, res.Message = false, "run is not an executable file"
	}
	return res, nil
}

// buildRunTool builds a problem's program of build and run scripts: in a
// copy of its directory, in the programs' sandbox; run is then the
// program, run where it was built.
func (j *Judge) buildRunTool(ctx context.Context, p *problems.Problem, name, dir string) (*tool, error) {
	if err := copyTree(p, name, dir, nil); err != nil {
		return nil, fmt.Errorf("building %s: %w", name, err)
	}
	res, err := j.runBuildScript(ctx, dir, true)
	switch {
	case err != nil && ctx.Err() != nil:
		return nil, ctx.Err()
	case err != nil:
		return nil, fmt.Errorf("building %s: %w", name, err)
	case !res.OK:
		return nil, fmt.Errorf("building %s (%s): %s", name, BuildRunLanguage, firstLines(res.Message, 20))
	}
	env := []string{"PATH=" + j.cfg.Path}
	return &tool{path: name, argv: []string{filepath.Join(dir, "run")}, dir: dir, env: env, readOnly: []string{dir}}, nil
}

// prepareBuildRun builds a submission of build and run scripts: its build
// script runs in the sandbox, as a compiler does, in a copy of the
// directory; every file the build leaves is placed in each test's working
// directory, where ./run is the program.
func (j *Judge) prepareBuildRun(ctx context.Context, pp *Prepared, o BuildOptions) error {
	pp.Language = BuildRunLanguage
	where, prefix := j.tmp, "build-"
	if o.Keep {
		where, prefix = j.cfg.TempDir, "optjudge-build-"
	}
	dir, err := os.MkdirTemp(where, prefix)
	if err != nil {
		return fmt.Errorf("creating a build directory: %w", err)
	}
	if o.Keep {
		pp.buildDir = dir
	} else {
		defer removeAll(dir)
	}
	links := ""
	if o.Problem != nil && o.Example {
		links = o.Problem.Dir
	}
	// as a directory of sources: no link but within the package, within
	// the bounds of a submission
	files, err := listDir(pp.Submission.Path, links)
	if err != nil {
		return fmt.Errorf("submission %s: %w", pp.Submission.Path, err)
	}
	src := &sourceSet{path: pp.Submission.Path, dir: true, files: files, links: links}
	if err := src.copyInto(dir, 0o777); err != nil {
		return fmt.Errorf("copying the submission: %w", err)
	}
	for _, f := range files {
		if st, err := src.open(f); err == nil {
			// a script keeps its execute bits
			if fi, err := st.Stat(); err == nil && (fi.Mode().Perm()&0o111 != 0 || f == "build" || f == "run") {
				os.Chmod(filepath.Join(dir, filepath.FromSlash(f)), 0o755)
			}
			st.Close()
		}
	}
	if pp.Compile, err = j.runBuildScript(ctx, dir, false); err != nil || !pp.Compile.OK {
		return err
	}
	prog, err := os.MkdirTemp(j.tmp, "prog-")
	if err != nil {
		return fmt.Errorf("creating a build directory: %w", err)
	}
	built, err := collectTree(dir, prog)
	if err != nil {
		removeAll(prog)
		return err
	}
	pp.prog = &program{lang: BuildRunLanguage, dir: prog, files: built, run: []string{"./run"}}
	return nil
}

// collectTree copies every regular file a contestant's build left below
// buildDir into dst, as collect copies a named few (never through a link;
// an executable keeps mode 0755), and returns their paths relative to it.
func collectTree(buildDir, dst string) ([]string, error) {
	var files []string
	err := filepath.WalkDir(buildDir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(buildDir, p)
		switch {
		case rel == ".":
			return nil
		case d.IsDir():
			return os.Mkdir(filepath.Join(dst, rel), 0o755)
		case !d.Type().IsRegular():
			return nil // a link or a device the build made: not carried over
		}
		in, err := nofollow.Open(p)
		if err != nil {
			return err
		}
		defer in.Close()
		mode := os.FileMode(0o644)
		if st, err := in.Stat(); err == nil && st.Mode().Perm()&0o100 != 0 {
			mode = 0o755
		}
		files = append(files, rel)
		return copyTo(in, filepath.Join(dst, rel), mode)
	})
	if err != nil {
		return nil, fmt.Errorf("collecting the build: %w", err)
	}
	return files, nil
}
