package judge

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/optjudge/optjudge/internal/proc"
	"github.com/optjudge/optjudge/judge/lang"
	"github.com/optjudge/optjudge/judge/sandbox"
	"github.com/optjudge/optjudge/problems"
	"github.com/optjudge/optjudge/verdict"
)

// fakeToolchain writes a compiler outside the system directories, as
// rustup's lives in ~/.cargo: bin/fakecc, which needs share/prelude from its
// own tree and writes an executable that prints the prelude, the source and
// the build's FAKE_BIN.
func fakeToolchain(t *testing.T) (root string) {
	t.Helper()
	root = t.TempDir()
	files := map[string]string{
		"bin/fakecc": "#!/bin/sh\nset -e\nprelude=$(cat \"$(dirname \"$0\")/../share/prelude\")\n" +
			"printf '#!/bin/sh\\necho %s %s %s\\n' \"$prelude\" \"$(cat \"$1\")\" \"$FAKE_BIN\" > main.exe\nchmod 755 main.exe\n",
		"share/prelude": "hello",
	}
	for name, content := range files {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// TestToolchainPaths: a compiler found on the PATH outside the system
// directories is used only when the language's toolchain shows the boxes
// its tree, and then builds and runs in the sandbox with {bin} and {home}
// in its environment.
func TestToolchainPaths(t *testing.T) {
	t.Parallel()
	root := fakeToolchain(t)
	table := func(toolchain string) *lang.Table {
		langs, err := lang.Parse(strings.NewReader(`languages:
  - name: fake
    extensions: [.fake]
    file: main.fake
    compile: [fakecc, "{src}"]
    run: ["{exe}"]
    env: ["FAKE_BIN={bin}", "FAKE_HOME={home}/x"]
`+toolchain), "fake.yaml")
		if err != nil {
			t.Fatal(err)
		}
		return langs
	}
	p := sumProblem(t)
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "1.in"), nil, 0o644)
	os.WriteFile(filepath.Join(dir, "1.ans"), []byte("hello world "+filepath.Join(root, "bin")+"\n"), 0o644)
	j := newJudgeConfig(t, Config{Home: "/nowhere", Path: filepath.Join(root, "bin") + ":" + proc.DefaultPath})
	src := writeSource(t, "x.fake", "world")
	if _, err := j.Prepare(context.Background(), Submission{Path: src}, BuildOptions{Languages: table("")}); err == nil ||
		!strings.Contains(err.Error(), "fakecc not found where the sandbox can see it (passed over "+filepath.Join(root, "bin", "fakecc")) {
		t.Errorf("without a toolchain entry: got %v, want the compiler passed over", err)
	}
	langs := table(`    toolchain: ["{bin}/.."]` + "\n")
	tc, err := j.finder.Find(&langs.List[0], true)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"FAKE_BIN=" + filepath.Join(root, "bin"), "FAKE_HOME=/nowhere/x"}; strings.Join(tc.Env, " ") != strings.Join(want, " ") {
		t.Errorf("got environment %q, want %q", tc.Env, want)
	}
	tests, err := problems.TestsIn(dir)
	if err != nil {
		t.Fatal(err)
	}
	r, err := j.Grade(context.Background(), p, Submission{Path: src}, BuildOptions{Languages: langs}, GradeOptions{Tests: tests, TimeLimit: ample().TimeLimit})
	if err != nil {
		t.Fatal(err)
	}
	if r.Verdict != verdict.AC {
		t.Errorf("with the toolchain: got %s, want AC: %s", r.Verdict, describe(r))
	}
}

// TestLookPathPassesOver: a program on the PATH that the boxes could not
// see (a pyenv shim) is passed over for the next one.
func TestLookPathPassesOver(t *testing.T) {
	t.Parallel()
	if _, err := os.Stat("/usr/bin/python3"); err != nil {
		t.Skip("no /usr/bin/python3")
	}
	shims := t.TempDir()
	if err := os.WriteFile(filepath.Join(shims, "python3"), []byte("#!/bin/sh\nexec pyenv exec python3 \"$@\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	j := newJudgeConfig(t, Config{Path: shims + ":/usr/bin"})
	lang, err := j.Languages().ByName("cpython3")
	if err != nil {
		t.Fatal(err)
	}
	tc, err := j.finder.Find(lang, true)
	if err != nil {
		t.Fatal(err)
	}
	if tc.Compiler != "/usr/bin/python3" || tc.Interp != "/usr/bin/python3" {
		t.Errorf("got compiler %q and interpreter %q, want /usr/bin/python3 for both", tc.Compiler, tc.Interp)
	}
}

// TestToolchainUnreachableAtNone: at isolation none a root judge's box uid
// builds and runs the program, so a toolchain below a directory of mode
// 0700 (rustup's in /root/.cargo) is not installed as far as the boxes go,
// and the message names the directory; with the directory open it builds.
func TestToolchainUnreachableAtNone(t *testing.T) {
	t.Parallel()
	if os.Geteuid() != 0 {
		t.Skip("box uids are a root judge's")
	}
	tmp := t.TempDir()
	if err := os.Chmod(filepath.Dir(tmp), 0o711); err != nil {
		t.Fatal(err)
	}
	home := filepath.Join(tmp, "home")
	if err := os.Mkdir(home, 0o700); err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(home, "toolchain")
	if err := os.Rename(fakeToolchain(t), root); err != nil {
		t.Fatal(err)
	}
	j := newJudgeConfig(t, Config{Sandbox: sandbox.Options{Isolation: sandbox.IsolationNone}, TempDir: tmp,
		Path: filepath.Join(root, "bin") + ":" + proc.DefaultPath})
	langs, err := lang.Parse(strings.NewReader(`languages:
  - name: fake
    extensions: [.fake]
    file: main.fake
    compile: [fakecc, "{src}"]
    run: ["{exe}"]
    toolchain: ["{bin}/.."]
`), "fake.yaml")
	if err != nil {
		t.Fatal(err)
	}
	src := writeSource(t, "x.fake", "world")
	pp, err := j.Prepare(context.Background(), Submission{Path: src}, BuildOptions{Languages: langs})
	if pp != nil {
		t.Errorf("Prepare returned a build with its error %v", err)
	}
	var ni *lang.NotInstalledError
	if !errors.As(err, &ni) || !strings.Contains(err.Error(), "keeps out the boxes' uids") || !strings.Contains(err.Error(), home+" (mode") {
		t.Fatalf("got %v, want fakecc not installed where the boxes' uids can reach it", err)
	}
	// a problem's own program builds and runs in the programs' boxes,
	// which at level none run as box uids too: its toolchain counts as
	// not installed here, and the grading says it cannot be built on
	// this machine (a service's worker hands the job to another)
	both, err := lang.Parse(strings.NewReader(`languages:
  - name: fake
    extensions: [.fake]
    file: main.fake
    compile: [fakecc, "{src}"]
    run: ["{exe}"]
    toolchain: ["{bin}/.."]
  - name: python3
    extensions: [.py]
    run: [python3, "{src}"]
`), "both.yaml")
	if err != nil {
		t.Fatal(err)
	}
	cp := checkerProblem(t, map[string]string{
		"problem.yaml": "name: sum\ntitle: Sum\nchecker:\n  program: check.fake\n",
		"check.fake":   "world",
	})
	_, err = j.Grade(context.Background(), cp, Submission{Path: writeSource(t, "s.py", "print(3)\n")}, BuildOptions{Languages: both}, ample())
	var cb *CannotBuildError
	if !errors.As(err, &cb) || !strings.Contains(err.Error(), "keeps out the boxes' uids") {
		t.Errorf("a checker below the 0700 home: got %v, want it not buildable here, the directory named", err)
	}
	if err := os.Chmod(home, 0o755); err != nil {
		t.Fatal(err)
	}
	pp, err = j.Prepare(context.Background(), Submission{Path: src}, BuildOptions{Languages: langs})
	if err != nil {
		t.Fatalf("with the directories open: %v", err)
	}
	defer pp.Close()
	if !pp.Compile.OK {
		t.Errorf("with the directories open: %s", pp.Compile.Message)
	}
}

// TestGoWarmStdOnly: the judge warms the boxes' Go cache, outside the
// sandbox, with the standard packages a submission imports and nothing
// else: an import of "cmd" or "std" (patterns to the go command: the
// whole toolchain) or of a directory below GOROOT/src that is no package
// warms nothing.
func TestGoWarmStdOnly(t *testing.T) {
	t.Parallel()
	j := newJudge(t)
	lang, err := j.Languages().ByName("go")
	if err != nil {
		t.Fatal(err)
	}
	tc, err := j.finder.Find(lang, true)
	if err != nil {
		t.Skip(err)
	}
	dir := t.TempDir()
	src := "package main\n\nimport (\n\t_ \"cmd\"\n\t_ \"std\"\n\t_ \"cmd/go\"\n\t_ \"builtin\"\n\t_ \"container/ring\"\n)\n\nfunc main() {}\n"
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := j.warmGoCache(context.Background(), &build{lang: lang, dir: dir}, tc); err != nil {
		t.Fatal(err)
	}
	var warmed []string
	for p := range j.goWarm {
		warmed = append(warmed, p)
	}
	slices.Sort(warmed)
	if want := []string{"container/ring"}; !slices.Equal(warmed, want) {
		t.Errorf("warmed %q, want %q", warmed, want)
	}
}
