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

	"github.com/optjudge/optjudge/judge/bytesize"
	"github.com/optjudge/optjudge/judge/verdict"
	"github.com/optjudge/optjudge/problems"
)

// clocks is the embedded clocks problem and the small test set of
// testdata/clocks (three tests: the sample, the deepest position, no move).
func clocks(t testing.TB) (*problems.Problem, []problems.Test) {
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
func generous(lang string, tests []problems.Test) GradeOptions {
	o := GradeOptions{Tests: tests, TimeLimit: 5 * time.Second, WallLimit: 30 * time.Second, MemoryLimit: 256 * bytesize.MiB}
	switch lang {
	case "java", "kotlin", "scala":
		o.TimeLimit, o.WallLimit = 10*time.Second, 60*time.Second
	}
	return o
}

// installed skips the test when lang's compiler or interpreter is not on
// the PATH, saying which.
func installed(t *testing.T, j *Judge, lang string) {
	t.Helper()
	l, err := j.Languages().ByName(lang)
	if err != nil {
		t.Fatal(err)
	}
	var ni *NotInstalledError
	if _, err := j.toolchain(l); errors.As(err, &ni) {
		t.Skipf("%v", err)
	} else if err != nil {
		t.Fatal(err)
	}
}

// TestLanguages grades an accepted, a wrong, a broken and a crashing
// clocks program in every language of the table whose compiler is
// installed (testdata/langs/LANG/{ac,wa,ce,re}.*); PyPy takes Python 3's.
// Each file's language comes from its name (and Python 2's from its #!
// line), as a contestant's would.
func TestLanguages(t *testing.T) {
	j := newJudge(t)
	p, tests := clocks(t)
	for _, lang := range DefaultLanguages().Names() {
		t.Run(lang, func(t *testing.T) {
			installed(t, j, lang)
			dir, force := filepath.Join("testdata/langs", lang), ""
			if lang == "pypy3" {
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
	leftBuilds(t, j)
}

// TestJavaHeap: the JVM's heap and stack come from the memory limit, as
// Kattis gives them: a 96 MiB array under a 256 MiB limit is accepted
// (the JVM's own default heap, a quarter of the machine's memory or of a
// container's limit, would not hold it everywhere), and 300 MiB is not.
func TestJavaHeap(t *testing.T) {
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
// and finds the class holding main (in a package), Python starts from the
// Kattis entry file and imports its package.
func TestDirectorySubmissions(t *testing.T) {
	j := newJudge(t)
	p, tests := clocks(t)
	cases := []struct {
		name, lang string
		files      map[string]string
	}{
		{"cpp", "cpp", map[string]string{
			"solve.h":   "#include <string>\nstd::string solve(const int dial[9]);\n",
			"solve.cpp": cppSolve,
			"main.cpp":  "#include <iostream>\n#include \"solve.h\"\nint main() { int d[9]; for (int &x : d) std::cin >> x; std::cout << solve(d) << \"\\n\"; }\n",
		}},
		{"java", "java", map[string]string{
			"Main.java":           "import clocks.Solver;\npublic class Main {\n    public static void main(String[] args) { Solver.main(args); }\n}\n",
			"clocks/Solver.java":  "package clocks;\n" + strings.Replace(mustRead(t, "testdata/langs/java/ac.java"), "class Clocks {", "public class Solver {", 1),
			"notes.txt":           "not a source",
			"clocks/README.md":    "# what it does",
			".hidden/Broken.java": "this is not Java", // hidden: not part of the submission
			"Backup.java~":        "nor this",
		}},
		{"java-main-elsewhere", "java", map[string]string{
			"Aardvark.java": "class Aardvark { static int twice(int x) { return 2 * x; } }\n",
			"Clocks.java":   mustRead(t, "testdata/langs/java/ac.java"),
		}},
		{"python", "python3", map[string]string{
			"helper.py":          "raise SystemExit('the entry is __main__.py, not this')\n",
			"__main__.py":        "from clocks import solve\nsolve.main()\n",
			"clocks/__init__.py": "",
			"clocks/solve.py":    strings.Replace(mustRead(t, "testdata/langs/python3/ac.py"), "\nmain()\n", "\n", 1),
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			installed(t, j, c.lang)
			dir := writeTree(t, c.name, c.files)
			r, err := j.Grade(context.Background(), p, Submission{Path: dir}, BuildOptions{}, generous(c.lang, tests))
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

// cppSolve is the clocks solver of testdata/langs/cpp/ac.cpp as a
// function of its own file.
const cppSolve = `#include <array>
#include <string>
#include "solve.h"

std::string solve(const int dial[9]) {
	const std::array<std::string, 9> cover{"110110000", "111000000", "011011000", "100100100", "010111010",
	                                       "001001001", "000110110", "000000111", "000011011"};
	const int forced[6][2] = {{3, 0}, {4, 1}, {5, 2}, {6, 3}, {8, 5}, {7, 6}};
	std::array<int, 9> best{};
	int bestn = -1;
	for (int k = 0; k < 64; k++) {
		std::array<int, 9> cnt{k % 4, k / 4 % 4, k / 16};
		for (auto &f : forced) {
			int t = dial[f[1]];
			for (int m = 0; m < 9; m++)
				if (m != f[0] && cover[m][f[1]] == '1')
					t += cnt[m];
			cnt[f[0]] = (4 - t % 4) % 4;
		}
		bool ok = true;
		int n = 0;
		for (int d = 0; d < 9; d++) {
			int t = dial[d];
			for (int m = 0; m < 9; m++)
				if (cover[m][d] == '1')
					t += cnt[m];
			ok = ok && t % 4 == 0;
			n += cnt[d];
		}
		if (ok && (bestn < 0 || n < bestn))
			bestn = n, best = cnt;
	}
	std::string out;
	for (int m = 0; m < 9; m++)
		for (int r = 0; r < best[m]; r++)
			out += (out.empty() ? "" : " ") + std::to_string(m + 1);
	return out;
}
`
