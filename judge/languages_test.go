package judge

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/optjudge/optjudge/bytesize"
	"github.com/optjudge/optjudge/judge/lang"
	"github.com/optjudge/optjudge/problems"
	"github.com/optjudge/optjudge/problems/kattis"
	"github.com/optjudge/optjudge/verdict"
)

// clocks is the embedded clocks problem and the small test set of
// testdata/clocks (three tests: the sample, the deepest position, no move).
func clocks(t testing.TB) (*problems.Problem, []kattis.Test) {
	t.Helper()
	p, err := problems.Find("clocks", nil)
	if err != nil {
		t.Fatal(err)
	}
	tests, err := problems.TestsIn("testdata/clocks")
	if err != nil || len(tests) == 0 {
		t.Fatalf("testdata/clocks: %d tests, %v", len(tests), err)
	}
	return p, tests
}

// generous are limits that hold on a machine three times slower than
// this one and under the load of the other tests: a JVM's start-up takes a
// third of a second of CPU here, and kotlinc's build seconds.
func generous(lang string, tests []kattis.Test) GradeOptions {
	o := GradeOptions{Tests: tests, TimeLimit: 5 * time.Second, WallLimit: 30 * time.Second, MemoryLimit: 256 * bytesize.MiB}
	switch lang {
	case "java", "kotlin", "scala":
		o.TimeLimit, o.WallLimit = 10*time.Second, 60*time.Second
	}
	return o
}

// installed skips the test when the language name's compiler or interpreter is not on
// the PATH, saying which.
func installed(t *testing.T, j *Judge, name string) {
	t.Helper()
	l, err := j.Languages().ByName(name)
	if err != nil {
		t.Fatal(err)
	}
	var ni *lang.NotInstalledError
	if _, err := j.finder.Find(l, true); errors.As(err, &ni) {
		t.Skipf("%v", err)
	} else if err != nil {
		t.Fatal(err)
	}
}

// TestLanguages grades an accepted, a wrong, a broken and a crashing
// clocks program in every language of the table whose compiler is
// installed (testdata/langs/LANG/{ac,wa,ce,re}.*); CPython 3 takes Python
// 3's (PyPy).
// Each file's language comes from its name (and Python 2's from its #!
// line), as a contestant's would.
func TestLanguages(t *testing.T) {
	t.Parallel()
	j := newJudge(t)
	// the languages side by side: each grading leaves no build behind,
	// checked once they have all returned
	t.Cleanup(func() { leftBuilds(t, j) })
	p, tests := clocks(t)
	for _, lang := range lang.Default().Names() {
		t.Run(lang, func(t *testing.T) {
			t.Parallel()
			if testing.Short() && lang == "kotlin" {
				t.Skip("-short: kotlinc takes half a minute; java runs on the same JVM")
			}
			installed(t, j, lang)
			dir, force := filepath.Join("testdata/langs", lang), ""
			if lang == "cpython3" {
				dir, force = "testdata/langs/python3", lang
			}
			for _, c := range []struct {
				prefix string
				want   verdict.Verdict
			}{{"ac", verdict.AC}, {"wa", verdict.WA}, {"ce", verdict.CE}, {"re", verdict.RE}} {
				files, _ := filepath.Glob(filepath.Join(dir, c.prefix+".*"))
				if len(files) != 1 {
					t.Fatalf("%s/%s.*: %d files, want 1", dir, c.prefix, len(files))
				}
				r, err := j.Grade(context.Background(), p, Submission{Path: files[0]}, BuildOptions{Lang: force}, generous(lang, tests))
				switch {
				case err != nil:
					t.Errorf("%s: %v", files[0], err)
				case r.Language != lang:
					t.Errorf("%s: built as %s, want %s", files[0], r.Language, lang)
				case r.Verdict != c.want:
					t.Errorf("%s: got %s, want %s: %s", files[0], r.Verdict, c.want, describe(r))
				}
			}
		})
	}
}

// TestJavaHeap: the JVM's heap and stack come from the memory limit, as
// Kattis gives them: a 96 MiB array under a 256 MiB limit is accepted
// (the JVM's own default heap, a quarter of the machine's memory or of a
// container's limit, would not hold it everywhere), and 300 MiB is not.
func TestJavaHeap(t *testing.T) {
	t.Parallel()
	j := newJudge(t)
	installed(t, j, "java")
	p, tests := clocks(t)
	heap := func(mib int) string {
		return `import java.util.Scanner;
public class Heap {
    public static void main(String[] args) {
        byte[] b = new byte[` + strconv.Itoa(mib) + ` << 20];
        for (int i = 0; i < b.length; i += 4096) b[i] = 1;
        Scanner in = new Scanner(System.in);
        int[] d = new int[9];
        for (int i = 0; i < 9; i++) d[i] = in.nextInt();
        System.out.println(b[4096] == 1 && d[0] == 3 ? "4 5 8 9" : "");
    }
}
`
	}
	for _, c := range []struct {
		mib  int
		want []verdict.Verdict
	}{{96, []verdict.Verdict{verdict.AC}}, {300, []verdict.Verdict{verdict.RE, verdict.MLE}}} {
		src := writeSource(t, "Heap.java", heap(c.mib))
		o := generous("java", tests[:1])
		r, err := j.Grade(context.Background(), p, Submission{Path: src}, BuildOptions{}, o)
		if err != nil {
			t.Fatal(err)
		}
		if !contains(c.want, r.Verdict) {
			t.Errorf("%d MiB under 256 MiB: got %s, want %v: %s", c.mib, r.Verdict, c.want, describe(r))
		}
	}
}

func contains(vs []verdict.Verdict, v verdict.Verdict) bool {
	for _, w := range vs {
		if w == v {
			return true
		}
	}
	return false
}

// writeTree writes files (slash-separated names) under a new directory
// named name, and returns it.
func writeTree(t *testing.T, name string, files map[string]string) string {
	t.Helper()
	root := filepath.Join(t.TempDir(), name)
	for f, content := range files {
		p := filepath.Join(root, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// TestDirectorySubmissions: a directory is one submission: C++ compiles
// every source together (a header beside them), Java compiles every file
// and finds the class holding main (Main, with another in a package),
// Python starts from the Kattis entry file (__main__.py, not helper.py) and
// imports its package (testdata/dirs); hidden files and editors' backups
// are no part of it, nor is a file of no language; the class holding main
// need not be in the entry file problemtools would name.
func TestDirectorySubmissions(t *testing.T) {
	t.Parallel()
	j := newJudge(t)
	p, tests := clocks(t)
	withExtras := writeTree(t, "java", map[string]string{
		"Main.java":           mustRead(t, "testdata/dirs/java/Main.java"),
		"clocks/Solve.java":   mustRead(t, "testdata/dirs/java/clocks/Solve.java"),
		"notes.txt":           "not a source",
		".hidden/Broken.java": "this is not Java",
		"Backup.java~":        "nor this",
	})
	elsewhere := writeTree(t, "elsewhere", map[string]string{
		"Aardvark.java": "class Aardvark { static int twice(int x) { return 2 * x; } }\n",
		"Zebra.java":    mustRead(t, "testdata/langs/java/ac.java"),
	})
	// BAPCtools' hello: main.sh sources a file beside its own path ($0),
	// as the peers run it (with a path, not a bare name)
	sourced := writeTree(t, "bash", map[string]string{
		"main.sh":  ". ${0%/*}/solve.sh\n",
		"solve.sh": mustRead(t, "testdata/langs/bash/ac.sh"),
	})
	for _, c := range []struct{ name, lang, dir string }{
		{"cpp", "cpp", "testdata/dirs/cpp"},
		{"bash sourcing its neighbour", "bash", sourced},
		{"java", "java", "testdata/dirs/java"},
		{"python", "python3", "testdata/dirs/python"},
		{"java with extras", "java", withExtras},
		{"java main elsewhere", "java", elsewhere},
	} {
		t.Run(c.name, func(t *testing.T) {
			installed(t, j, c.lang)
			r, err := j.Grade(context.Background(), p, Submission{Path: c.dir}, BuildOptions{}, generous(c.lang, tests))
			switch {
			case err != nil:
				t.Fatal(err)
			case r.Language != c.lang:
				t.Errorf("built as %s, want %s", r.Language, c.lang)
			case r.Verdict != verdict.AC:
				t.Errorf("got %s, want AC: %s", r.Verdict, describe(r))
			}
		})
	}
	leftBuilds(t, j)
}

// TestEntrypoint: BuildOptions.Entry (submissions.yaml's entrypoint)
// names a directory submission's entry file, or a JVM language's main
// class, where the files alone would pick another or none.
func TestEntrypoint(t *testing.T) {
	t.Parallel()
	j := newJudge(t)
	p, tests := clocks(t)
	py := writeTree(t, "py", map[string]string{
		"main.py":  "print('not the entry')\n",
		"solve.py": mustRead(t, "testdata/langs/python3/ac.py"),
	})
	java := writeTree(t, "java", map[string]string{
		"Other.java":  "class Other { public static void main(String[] a) { System.out.println(\"no\"); } }\n",
		"Clocks.java": mustRead(t, "testdata/langs/java/ac.java"),
	})
	for _, c := range []struct {
		name, lang, dir, entry string
		want                   verdict.Verdict
	}{
		{"python default", "python3", py, "", verdict.WA},
		{"python entry", "python3", py, "solve.py", verdict.AC},
		{"java entry", "java", java, "Clocks", verdict.AC},
		{"java entry without main", "java", java, "Missing", verdict.CE},
	} {
		t.Run(c.name, func(t *testing.T) {
			installed(t, j, c.lang)
			r, err := j.Grade(context.Background(), p, Submission{Path: c.dir}, BuildOptions{Entry: c.entry}, generous(c.lang, tests))
			if err != nil {
				t.Fatal(err)
			}
			if r.Verdict != c.want {
				t.Errorf("got %s, want %s: %s", r.Verdict, c.want, describe(r))
			}
		})
	}
	if _, err := j.Prepare(context.Background(), Submission{Path: py}, BuildOptions{Entry: "nope.py"}); err == nil || !strings.Contains(err.Error(), "entrypoint nope.py is not one of its") {
		t.Errorf("got %v, want the entrypoint refused", err)
	}
}
