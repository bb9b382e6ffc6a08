package judge

import (
	"context"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/optjudge/optjudge/bytesize"
	"github.com/optjudge/optjudge/judge/internal/jvm"
	"github.com/optjudge/optjudge/judge/internal/nofollow"
	"github.com/optjudge/optjudge/judge/lang"
	"github.com/optjudge/optjudge/judge/sandbox"
	"github.com/optjudge/optjudge/problems"
)

// CompileResult is the outcome of building a submission.
type CompileResult struct {
	OK      bool          `json:"ok"`
	Message string        `json:"message"` // the compiler's first lines when it failed
	Time    time.Duration `json:"-"`
	TimeMS  int64         `json:"time_ms"`
}

// Summary is a failed build's message in one line: the compiler's first
// line that reports an error (else its first line), then why the build
// failed: "ce.cpp:3:48: error: 'ssize' is not a member of 'std' (g++
// failed: exit status 1)". "" for a build that worked.
func (c CompileResult) Summary() string {
	if c.OK {
		return ""
	}
	why, rest, _ := strings.Cut(strings.TrimSpace(c.Message), "\n")
	var first, errLine string
	for _, l := range strings.Split(rest, "\n") {
		l = strings.TrimSpace(l)
		if l == "" {
			continue
		}
		if first == "" {
			first = l
		}
		if lower := strings.ToLower(l); strings.Contains(lower, "error") || strings.Contains(lower, "exception") {
			errLine = l
			break
		}
	}
	line := firstOf(errLine, first)
	switch {
	case line == "":
		return why
	case len(line) > 200:
		line = line[:200] + "..."
	}
	return line + " (" + why + ")"
}

func firstOf(s ...string) string {
	for _, x := range s {
		if x != "" {
			return x
		}
	}
	return ""
}

// exeName is the executable a build makes ({exe}), and the name an
// executable submission gets.
const exeName = "main.exe"

// program is a build ready to run: a contestant's, whose files are placed
// in each test's working directory, or a problem's own, run where it is.
type program struct {
	lang     string            // the language's name, or "executable"
	dir      string            // its files
	files    []string          // the files a run needs, slash-separated paths relative to dir
	run      []string          // the run command: relative to the working directory, or (a problem's) absolute
	vars     map[string]string // its placeholders' values, but {memlimit}'s
	env      []string          // extra environment of its runs, {dir} still in it
	readOnly []string          // the toolchain its runs see
	// src is the submission as it was built (its files, the included
	// ones), for a static validator; nil for an executable, a build of
	// build and run scripts, an imported build
	src *sourceSet
	// code is its language's Kattis code ("" but for a language of the
	// table)
	code string
	// answers: a submit-answer problem's submission, whose files are the
	// answers to the tests, nothing to run
	answers bool
}

// argv is the run command under a grading's memory limit.
func (p *program) argv(mem bytesize.Size) []string {
	vars := maps.Clone(p.vars)
	if vars == nil {
		vars = map[string]string{}
	}
	vars["memlimit"] = memLimitMiB(mem)
	return lang.Expand(p.run, vars, nil)
}

// memLimitMiB is {memlimit}: the memory limit in whole MiB, 1024 without
// one (as problemtools has it).
func memLimitMiB(mem bytesize.Size) string {
	if mem <= 0 {
		return "1024"
	}
	return strconv.FormatInt(max(int64(mem/bytesize.MiB), 1), 10)
}

// build is one build, through the one path for every program: the
// sources are in dir; the compile command, if any, runs there, in the
// sandbox (a contestant's program) or in the programs' sandbox (trusted:
// a problem's).
type build struct {
	lang    *lang.Language
	dir     string
	trusted bool
	entry   string   // {src}
	sources []string // {files}
	// limits are the build's; zero: the language's (CompileLimits)
	limits sandbox.Limits
}

// compileLimits are the limits of a build of a submission in lang for p:
// the language's, raised to what the problem guarantees a build
// (limits.compilation_time and compilation_memory of a Kattis package).
func compileLimits(lang *lang.Language, p *problems.Problem) sandbox.Limits {
	lim := compileBox(lang.CompileLimits)
	if p == nil {
		return lim
	}
	if t := p.Package.Submit.CompilationTime; t > lim.CPU {
		lim.CPU, lim.Wall = t, 2*t+time.Second
	}
	if m := p.Package.Submit.CompilationMemory; m > lim.Memory {
		lim.Memory = m
	}
	return lim
}

// buildLimits are b's limits: its own, else its language's.
func (b *build) buildLimits() sandbox.Limits {
	if b.limits.CPU > 0 {
		return b.limits
	}
	return compileBox(b.lang.CompileLimits)
}

// compile runs the language's compile command, if any. A compiler that
// fails, or breaks a limit, is a CompileResult with OK false and a nil
// error; an error means the judge could not try.
func (j *Judge) compile(ctx context.Context, b *build, tc *lang.Toolchain) (CompileResult, error) {
	res := CompileResult{OK: true}
	if len(b.lang.Compile) == 0 {
		return res, nil
	}
	argv := lang.Expand(b.lang.Compile, map[string]string{
		"src": b.entry, "exe": exeName, "jar": jvm.JarName, "classes": jvm.ClassesDir, "dir": b.dir,
	}, b.sources)
	argv[0] = tc.Compiler
	if slices.Contains(b.lang.Compile, "{classes}") {
		// scalac writes only into a directory that exists; the compiler,
		// as the box's user, must be able to write it
		d := filepath.Join(b.dir, jvm.ClassesDir)
		err := os.Mkdir(d, 0o755)
		if err == nil {
			err = os.Chmod(d, 0o777)
		}
		if err != nil {
			return res, fmt.Errorf("making the class directory: %w", err)
		}
	}
	if b.lang.GoCache {
		if err := j.warmGoCache(ctx, b, tc); err != nil {
			return res, err
		}
	}
	start := time.Now()
	var (
		failed, out string
		err         error
	)
	failed, out, err = j.compileBoxed(ctx, b, tc, argv)
	res.Time = time.Since(start)
	res.TimeMS = res.Time.Milliseconds()
	if err != nil {
		return res, err
	}
	if failed != "" {
		res.OK = false
		res.Message = firstLines(failed+"\n"+out, 30)
	}
	return res, nil
}

// compileBoxed builds a program in the sandbox: its own box (at level
// none, as a root judge's box uid or a non-root judge's own user, with
// the machine's files in view: Warning says so), the build directory
// writable, the toolchain read-only, the language's limits. A
// contestant's build sees next to nothing of /etc; a problem's (trusted)
// builds in the programs' sandbox, with the judge's PATH.
func (j *Judge) compileBoxed(ctx context.Context, b *build, tc *lang.Toolchain, argv []string) (failed, out string, err error) {
	env := append([]string{"TMPDIR=" + b.dir}, tc.EnvFor(b.dir)...)
	readOnly := tc.ReadOnly
	if b.lang.GoCache {
		env = append(env, "GOCACHE="+j.boxGoCache)
		readOnly = append(slices.Clone(readOnly), j.boxGoCache)
	}
	lim := b.buildLimits()
	c := &sandbox.Cmd{
		Path: argv[0], Args: argv[1:], Dir: b.dir, Env: env, ReadOnly: readOnly,
		MinimalEtc: !b.trusted, Limits: lim,
	}
	var res *sandbox.Result
	if b.trusted {
		c.Env = append(c.Env, "PATH="+j.cfg.Path)
		var sb *sandbox.Sandbox
		if sb, err = j.programSandbox(); err == nil {
			res, err = sb.Run(ctx, c)
		}
	} else {
		res, err = j.run(ctx, c)
	}
	if err != nil {
		if ctx.Err() != nil {
			return "", "", ctx.Err()
		}
		if errno, ok := execFailure(err, strings.HasPrefix(argv[0], b.dir+string(filepath.Separator))); ok {
			// the submission's own build script: its #! names no program
			return fmt.Sprintf("%s cannot be executed: %v", filepath.Base(argv[0]), errno), "", nil
		}
		return "", "", fmt.Errorf("building in the sandbox: %w", err)
	}
	out = string(res.Stdout) + string(res.Stderr)
	name := filepath.Base(argv[0])
	switch res.Status {
	case sandbox.OK:
		return "", out, nil
	case sandbox.TimeLimit:
		failed = fmt.Sprintf("compilation exceeded the %s CPU time limit", seconds(lim.CPU))
	case sandbox.WallTimeLimit:
		failed = fmt.Sprintf("compilation exceeded the %s wall-clock limit", seconds(lim.Wall))
	case sandbox.MemoryLimit:
		failed = fmt.Sprintf("compilation exceeded the %s memory limit", lim.Memory)
	case sandbox.OutputLimit:
		failed = fmt.Sprintf("compilation wrote more than its limit (a file over %s, or %s of messages)", lim.FileSize, lim.Output)
	case sandbox.Signaled:
		failed = fmt.Sprintf("%s was killed by %s", name, signalName(res.Signal))
	default:
		failed = fmt.Sprintf("%s failed: exit status %d", name, res.ExitCode)
	}
	return failed, out, nil
}

// trustedEnv is the environment of the judge's own runs of a toolchain
// (its version, its Go cache): the judge's PATH, a private HOME and
// temporary directory.
//
// A toolchain's own configuration goes to the Judge's cache directory
// (XDG_CONFIG_HOME), not into dir: the go command's telemetry writes its
// counters there from a child that outlives the run, and would make dir
// again after the judge removed it.
func (j *Judge) trustedEnv(dir string, tc *lang.Toolchain) []string {
	env := []string{"PATH=" + j.cfg.Path, "HOME=" + dir, "TMPDIR=" + dir, "LANG=C.UTF-8",
		"XDG_CONFIG_HOME=" + filepath.Join(j.cfg.CacheDir, "config")}
	return append(env, tc.EnvFor(dir)...)
}

// programEnv is the environment of a problem's program's runs, over its
// box's: the judge's PATH and the language's variables.
func programEnv(path, dir string, tc *lang.Toolchain) []string {
	return append([]string{"PATH=" + path}, tc.EnvFor(dir)...)
}

// runCommand is the language's run command for a program built in a
// directory of its own, its placeholders still in it: relative to the
// working directory (where the program's files are placed), its
// interpreter found on the PATH.
func runCommand(lang *lang.Language, tc *lang.Toolchain) []string {
	argv := slices.Clone(lang.Run)
	if tc.Interp != "" {
		argv[0] = tc.Interp
	}
	return argv
}

// runVars are the run command's placeholders for a program whose files
// are in the working directory.
func runVars(entry, main string) map[string]string {
	return map[string]string{"src": entry, "exe": "./" + exeName, "jar": jvm.JarName, "dir": ".", "mainclass": main}
}

// builtFiles are the files a build leaves for its runs: the jar of a JVM
// language, the executable, or (an interpreted language) nil: the
// submission's own files.
func builtFiles(lang *lang.Language) []string {
	switch {
	case lang.MainClass:
		return []string{jvm.JarName}
	case len(lang.Compile) > 0 && slices.ContainsFunc(lang.Run, func(a string) bool { return strings.Contains(a, "{exe}") }):
		return []string{exeName}
	}
	return nil
}

// packJVM finds the main class of a JVM build in dir (its jar, or its
// class files) and leaves the jar in dst. failed says why it cannot run:
// the compilation error.
func packJVM(lang *lang.Language, dir, dst, entry, want string) (main, failed string, err error) {
	writesJar := slices.ContainsFunc(lang.Compile, func(a string) bool { return strings.Contains(a, "{jar}") })
	var classes []jvm.Class
	if writesJar {
		classes, err = jvm.ReadJar(filepath.Join(dir, jvm.JarName))
	} else {
		classes, err = jvm.ReadDir(filepath.Join(dir, jvm.ClassesDir))
	}
	if err != nil {
		return "", fmt.Sprintf("reading the classes built: %v", err), nil
	}
	if want != "" {
		main, failed = jvm.NamedMain(classes, want)
	} else {
		main, failed = jvm.MainClass(classes, entry)
	}
	if failed != "" {
		return "", failed, nil
	}
	switch {
	case !writesJar:
		err = jvm.WriteJar(filepath.Join(dst, jvm.JarName), classes, main)
	case dst != dir:
		err = collect(dir, dst, []string{jvm.JarName})
	}
	if err != nil {
		return "", "", fmt.Errorf("packing the jar: %w", err)
	}
	return main, "", nil
}

// collect copies the files a contestant's build left in its directory into
// dst, which the judge owns: a regular file only, never through a link
// (the build ran the contestant's code, maybe, and may have left a link to
// a file of the judge's in their place), an executable with mode 0755 and
// anything else 0644.
func collect(buildDir, dst string, names []string) error {
	for _, name := range names {
		if strings.ContainsRune(name, '/') {
			return fmt.Errorf("collecting the build: %s is not a plain name", name)
		}
		in, err := nofollow.Open(filepath.Join(buildDir, name))
		if err != nil {
			return fmt.Errorf("collecting the build: %w", err)
		}
		mode := os.FileMode(0o644)
		if name == exeName {
			mode = 0o755
		}
		err = copyTo(in, filepath.Join(dst, name), mode)
		in.Close()
		if err != nil {
			return fmt.Errorf("collecting the build: %w", err)
		}
	}
	return nil
}

func copyTo(in io.Reader, dst string, mode os.FileMode) error {
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

func copyFile(src, dst string, mode os.FileMode) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	return copyTo(in, dst, mode)
}

func firstLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = append(lines[:n], fmt.Sprintf("... (%d more lines)", len(lines)-n))
	}
	return strings.Join(lines, "\n")
}

// compileOutputCap bounds what is kept of the compiler's own output (each
// of stdout and stderr); a CE message shows its first lines.
const compileOutputCap = 64 * bytesize.KiB

// compileBox is the limits of a build in the sandbox's terms, the
// defaults filled in.
func compileBox(l lang.CompileLimits) sandbox.Limits {
	lim := sandbox.Limits{
		CPU: lang.DefaultCompileTime, Memory: lang.DefaultCompileMemory, Processes: lang.DefaultCompileProcesses,
		FileSize: lang.DefaultCompileOutput, Output: compileOutputCap, Stderr: compileOutputCap,
	}
	if l.Time > 0 {
		lim.CPU = time.Duration(l.Time * float64(time.Second))
	}
	if l.Memory > 0 {
		lim.Memory = bytesize.Size(l.Memory * float64(bytesize.MiB))
	}
	if l.Processes > 0 {
		lim.Processes = l.Processes
	}
	if l.Output > 0 {
		lim.FileSize = bytesize.Size(l.Output * float64(bytesize.MiB))
	}
	lim.Wall = 2*lim.CPU + time.Second
	return lim
}
