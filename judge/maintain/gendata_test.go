package maintain

import (
	"context"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/optjudge/optjudge/judge"
	"github.com/optjudge/optjudge/problems"
	"github.com/optjudge/optjudge/problems/generators"
	"github.com/optjudge/optjudge/verdict"
)

// genSumFiles is a package made for these tests: A+B, its data/ made by
// generators.yaml with a one-file generator (count, {seed}), a generator
// of two files in a directory, one of two files by the generators: key, one
// that writes testcase.in and testcase.ans itself ({name}), a copied test,
// inline files, and a group whose validator flags are stricter.
func genSumFiles() map[string]string {
	return map[string]string{
		"problem.yaml": "problem_format_version: legacy\nname: Gen Sum\n",
		".timelimit":   "2\n",
		"input_validators/validate.py": `import sys
args = sys.argv[1:]
most = int(args[args.index("--max") + 1]) if "--max" in args else 10**6
s = sys.stdin.read()
try:
    a, b = map(int, s.split())
    ok = s == "%d %d\n" % (a, b) and 0 <= a <= most and 0 <= b <= most
except ValueError:
    ok = False
sys.exit(42 if ok else 43)
`,
		"submissions/accepted/sum.py": "a, b = map(int, input().split())\nprint(a + b)\n",
		"generators/gen.py": `import random, sys
random.seed(int(sys.argv[1]))
n = int(sys.argv[2])
print(random.randint(0, n), random.randint(0, n))
`,
		"generators/multi/main.py":  "import sys\nfrom lib import pair\nprint(*pair(int(sys.argv[1])))\n",
		"generators/multi/lib.py":   "def pair(seed):\n    return seed % 1000, seed // 1000 % 1000\n",
		"generators/tree.py":        "import sys\nfrom common import twice\nprint(twice(int(sys.argv[1])), 0)\n",
		"generators/common.py":      "def twice(x):\n    return 2 * x\n",
		"generators/both.py":        "import sys\nopen(sys.argv[1] + '.in', 'w').write('2 2\\n')\nopen(sys.argv[1] + '.ans', 'w').write('4\\n')\n",
		"generators/manual/hand.in": "7 8\n",
		"generators/generators.yaml": `solution: /submissions/accepted/sum.py
generators:
  twice: [tree.py, common.py]
data:
  sample:
    data:
      "1":
        in: "1 2"
        ans: "3"
        hint: "add them"
  secret:
    data:
      - random:
          generate: gen.py {seed} 100
          count: 3
      - multi: multi {seed:1}
      - both: both.py {name}
      - lib: twice 7
      - hand:
          copy: manual/hand
      - small:
          testdata.yaml:
            input_validator_flags: --max 10
          data:
            tiny: gen.py {seed:2} 10
`,
	}
}

// generateOptions are the options of the tests' GenerateData: a cache of
// their own.
func generateOptions(t *testing.T) GenerateDataOptions {
	return GenerateDataOptions{Judge: testJudge(t), Parallel: 2, Cache: t.TempDir(), Timeout: 20 * time.Second}
}

func mustGenerate(t *testing.T, p *problems.Problem, o GenerateDataOptions) *GenerateDataResult {
	t.Helper()
	res, err := GenerateData(context.Background(), p, o)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Failures) > 0 {
		t.Fatalf("got failures %v, want none", res.Failures)
	}
	return res
}

// readTree reads every file below dir by its slash path.
func readTree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		out[filepath.ToSlash(rel)] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func changes(res *GenerateDataResult) map[string]Change {
	out := map[string]Change{}
	for _, f := range res.Files {
		out[f.Path] = f.Change
	}
	return out
}

func TestGenerateData(t *testing.T) {
	t.Parallel() // beside the other generate tests: they wait on their programs more than they use the CPUs
	p := writeProblem(t, "gensum", genSumFiles())
	o := generateOptions(t)
	res := mustGenerate(t, p, o)
	data := readTree(t, filepath.Join(p.Dir, "data"))
	var names []string
	for n := range data {
		names = append(names, n)
	}
	sort.Strings(names)
	want := []string{
		"sample/1.ans", "sample/1.hint", "sample/1.in",
		"secret/1-small/testdata.yaml", "secret/1-small/tiny.ans", "secret/1-small/tiny.in",
		"secret/1-random-1.ans", "secret/1-random-1.in", "secret/2-random-2.ans", "secret/2-random-2.in",
		"secret/3-random-3.ans", "secret/3-random-3.in", "secret/4-multi.ans", "secret/4-multi.in",
		"secret/5-both.ans", "secret/5-both.in", "secret/6-lib.ans", "secret/6-lib.in", "secret/7-hand.ans", "secret/7-hand.in",
	}
	sort.Strings(want)
	if !reflect.DeepEqual(names, want) {
		t.Fatalf("got data/\n%q\nwant\n%q", names, want)
	}
	for _, n := range names {
		if !strings.HasSuffix(n, ".in") {
			continue
		}
		var a, b int
		in := data[n]
		if f := strings.Fields(in); len(f) == 2 {
			a, _ = strconv.Atoi(f[0])
			b, _ = strconv.Atoi(f[1])
		}
		if ans := data[strings.TrimSuffix(n, ".in")+".ans"]; ans != strconv.Itoa(a+b)+"\n" {
			t.Errorf("%s: got .ans %q for .in %q, want the sum", n, ans, in)
		}
	}
	seed := generators.Seed("", 1, "multi {seed:1}")
	if got, want := data["secret/4-multi.in"], strconv.Itoa(int(seed%1000))+" "+strconv.Itoa(int(seed/1000%1000))+"\n"; got != want {
		t.Errorf("secret/4-multi.in: got %q, want %q (the multi-file generator with BAPCtools' seed %d)", got, want, seed)
	}
	for n, want := range map[string]string{"sample/1.in": "1 2\n", "sample/1.hint": "add them\n", "secret/5-both.in": "2 2\n",
		"secret/6-lib.in": "14 0\n", "secret/7-hand.in": "7 8\n", "secret/1-small/testdata.yaml": "input_validator_flags: --max 10\n"} {
		if data[n] != want {
			t.Errorf("%s: got %q, want %q", n, data[n], want)
		}
	}
	if n := res.Count(New); n != len(want) || res.Tests != 9 {
		t.Errorf("got %d new files of %d tests, want %d of 9", n, res.Tests, len(want))
	}

	// again: nothing changes, no program runs
	again := mustGenerate(t, p, o)
	if again.Count(Unchanged) != len(want) || again.Runs != 0 {
		t.Errorf("again: got %v and %d runs, want every file unchanged and no program run", changes(again), again.Runs)
	}

	// a changed generator runs again, its tests only; a changed copy is rewritten
	writeFile(t, p.Dir, "generators/gen.py", genSumFiles()["generators/gen.py"]+"# changed\n")
	writeFile(t, p.Dir, "generators/manual/hand.in", "8 8\n")
	third := mustGenerate(t, p, o)
	if third.Runs != 4+1 { // gen.py for 4 tests, the solution for hand
		t.Errorf("after an edit of gen.py: got %d runs, want 5 (gen.py's four tests, the solution on the changed copy)", third.Runs)
	}
	if c := changes(third); c["data/secret/7-hand.in"] != Changed || c["data/secret/7-hand.ans"] != Changed || c["data/secret/1-random-1.in"] != Unchanged {
		t.Errorf("after the edits: got %v, want hand changed, the rest unchanged", c)
	}
}

func writeFile(t *testing.T, dir, name, content string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestGenerateDataDeterministic: the same generators.yaml gives the same
// bytes, in another directory and with another cache.
func TestGenerateDataDeterministic(t *testing.T) {
	t.Parallel() // beside the other generate tests: they wait on their programs more than they use the CPUs
	p1 := writeProblem(t, "gensum", genSumFiles())
	p2 := writeProblem(t, "gensum", genSumFiles())
	mustGenerate(t, p1, generateOptions(t))
	mustGenerate(t, p2, generateOptions(t))
	d1, d2 := readTree(t, filepath.Join(p1.Dir, "data")), readTree(t, filepath.Join(p2.Dir, "data"))
	if !reflect.DeepEqual(d1, d2) {
		t.Errorf("two generations differ:\n%v\n%v", d1, d2)
	}
}

// TestGenerateDataConstants: problem.yaml's constants are substituted in
// a generate: command first, so the generator gets their values and the
// seed is that of the command they make, and in the generators' sources
// (a file, and an entry of generators:), as BAPCtools has it: the tests
// are those the package with the values written out makes.
func TestGenerateDataConstants(t *testing.T) {
	t.Parallel() // beside the other generate tests: they wait on their programs more than they use the CPUs
	files := func(n string) map[string]string {
		f := genSumFiles()
		f["problem.yaml"] = "problem_format_version: 2023-07\nname: Gen Sum\nuuid: 3f0b9a52-6c1e-4d7a-8e25-b4c9d0a1f7e3\nlicense: cc0\n" +
			"source: optjudge tests\nconstants:\n  max_n: 10\n"
		f["generators/cap.py"] = "print(" + n + ", 0)\n"
		f["generators/common.py"] = "def twice(x):\n    return " + n + " + x\n"
		f["generators/generators.yaml"] = "solution: /submissions/accepted/sum.py\ngenerators:\n  twice: [tree.py, common.py]\n" +
			"data:\n  sample:\n    data:\n      \"1\":\n        in: \"1 2\"\n" +
			"        ans: \"3\"\n  secret:\n    data:\n      - c: gen.py {seed} " + n + "\n      - k: cap.py\n      - e: twice 1\n"
		return f
	}
	named := writeProblem(t, "gensum", files("{{max_n}}"))
	written := writeProblem(t, "gensum", files("10"))
	mustGenerate(t, named, generateOptions(t))
	mustGenerate(t, written, generateOptions(t))
	got, want := readTree(t, filepath.Join(named.Dir, "data")), readTree(t, filepath.Join(written.Dir, "data"))
	if !reflect.DeepEqual(got, want) {
		t.Errorf("with {{max_n}}: %q; with 10: %q", got, want)
	}
	in := got["secret/1-c.in"]
	if f := strings.Fields(in); len(f) != 2 {
		t.Errorf("secret/1-c.in = %q, want two numbers up to max_n, 10 (files: %v)", in, slices.Sorted(maps.Keys(got)))
	}
	for _, n := range strings.Fields(in) {
		if v, err := strconv.Atoi(n); err != nil || v > 10 {
			t.Errorf("secret/1-c.in = %q, want two numbers up to max_n, 10", in)
		}
	}
	if got["secret/2-k.in"] != "10 0\n" || got["secret/3-e.in"] != "11 0\n" {
		t.Errorf("secret/2-k.in = %q, secret/3-e.in = %q; want \"10 0\" and \"11 0\"", got["secret/2-k.in"], got["secret/3-e.in"])
	}
}

// TestGenerateDataClean: a test generators.yaml no longer makes is stale;
// --clean deletes the files an earlier run wrote, and moves away those it
// did not, saying where.
func TestGenerateDataClean(t *testing.T) {
	t.Parallel() // beside the other generate tests: they wait on their programs more than they use the CPUs
	p := writeProblem(t, "gensum", genSumFiles())
	o := generateOptions(t)
	mustGenerate(t, p, o)
	writeFile(t, p.Dir, "data/secret/by-hand.in", "1 1\n")
	yaml := strings.Replace(genSumFiles()["generators/generators.yaml"], "      - both: both.py {name}\n", "", 1)
	yaml = strings.Replace(yaml, "      - lib: twice 7\n", "      - both: twice 7\n", 1) // keep the numbering
	writeFile(t, p.Dir, "generators/generators.yaml", yaml)
	// the test 5-both is now made by twice; 6-lib is gone
	res := mustGenerate(t, p, o)
	c := changes(res)
	if c["data/secret/6-lib.in"] != Stale || c["data/secret/by-hand.in"] != Stale || c["data/secret/5-both.in"] != Changed {
		t.Fatalf("got %v, want 6-lib and by-hand stale, 5-both changed", c)
	}
	if _, err := os.Stat(filepath.Join(p.Dir, "data/secret/6-lib.in")); err != nil {
		t.Errorf("a stale file was removed without --clean: %v", err)
	}
	o.Clean = true
	res = mustGenerate(t, p, o)
	c = changes(res)
	if c["data/secret/6-lib.in"] != Removed || c["data/secret/by-hand.in"] != Trashed || res.Trash == "" {
		t.Fatalf("with --clean: got %v (trash %q), want 6-lib removed, by-hand moved to the trash", c, res.Trash)
	}
	if b, err := os.ReadFile(filepath.Join(res.Trash, "data/secret/by-hand.in")); err != nil || string(b) != "1 1\n" {
		t.Errorf("the trash holds %q, %v, want by-hand.in", b, err)
	}
	for _, f := range []string{"data/secret/6-lib.in", "data/secret/6-lib.ans", "data/secret/by-hand.in"} {
		if _, err := os.Stat(filepath.Join(p.Dir, f)); err == nil {
			t.Errorf("%s is still there after --clean", f)
		}
	}
}

// TestGenerateDataFailures: a generator that crashes, writes nothing or
// never ends, and an input the validators refuse, each fail their test,
// naming it and the command; the other tests are made.
func TestGenerateDataFailures(t *testing.T) {
	t.Parallel() // beside the other generate tests: they wait on their programs more than they use the CPUs
	files := genSumFiles()
	files["generators/crash.py"] = "import sys\nsys.exit('no luck')\n"
	files["generators/silent.py"] = "pass\n"
	files["generators/forever.py"] = "while True:\n    pass\n"
	files["generators/generators.yaml"] = `solution: /submissions/accepted/sum.py
data:
  sample:
    data:
      "1": {in: "1 2"}
  secret:
    data:
      crash: crash.py 1
      silent: silent.py
      forever: forever.py
      huge: gen.py 5 100000000
      nope: nothere.py
      fine: gen.py 5 100
      strict:
        testdata.yaml:
          input_validator_flags: --max 1
        data:
          big: gen.py 5 100
`
	p := writeProblem(t, "broken", files)
	o := generateOptions(t)
	// forever burns this much CPU; the others need a fraction of a
	// second of CPU, and get twice this of wall clock on a busy machine
	o.Timeout = 2 * time.Second
	writeFile(t, p.Dir, "data/secret/crash.in", "1 1\n") // an earlier version: left alone
	res, err := GenerateData(context.Background(), p, o)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, f := range res.Failures {
		got[f.Test] = f.String()
	}
	want := map[string]string{
		"secret/crash":   "secret/crash: `crash.py 1`: failed (RE)",
		"secret/silent":  "secret/silent: `silent.py`: wrote no testcase.in and nothing to standard output",
		"secret/forever": "secret/forever: `forever.py`: ran out of time (2s of CPU)",
		"secret/huge":    "secret/huge: `gen.py 5 100000000`: the input is invalid",
		"secret/nope":    "secret/nope: `nothere.py`: generators/nothere.py: no such generator",
		// fine's input, refused under its group's flags
		"secret/strict/big": "secret/strict/big: `gen.py 5 100`: the input is invalid",
	}
	for test, w := range want {
		if !strings.HasPrefix(got[test], w) {
			t.Errorf("got failure %q, want %q...", got[test], w)
		}
	}
	if len(got) != len(want) {
		t.Errorf("got failures %v, want %d", got, len(want))
	}
	if !strings.Contains(got["secret/crash"], "no luck") {
		t.Errorf("got %q, want the generator's message", got["secret/crash"])
	}
	data := readTree(t, filepath.Join(p.Dir, "data"))
	if data["secret/crash.in"] != "1 1\n" || data["secret/fine.ans"] == "" || data["sample/1.ans"] != "3\n" {
		t.Errorf("got data/ %v, want crash.in left alone, fine and sample/1 made", data)
	}
}

// TestGenerateDataInteractive: an interactive problem's tests get an empty
// .ans and no solution runs; an inline .interaction is a sample's.
func TestGenerateDataInteractive(t *testing.T) {
	t.Parallel() // beside the other generate tests: they wait on their programs more than they use the CPUs
	files := map[string]string{
		"problem.yaml":                        "problem_format_version: legacy\nname: Guess\nvalidation: custom interactive\n",
		"output_validators/guess/validate.py": "import sys\nsys.exit(42)\n",
		"generators/gen.py":                   "import sys\nprint(int(sys.argv[1]) % 100)\n",
		"generators/generators.yaml": `data:
  sample:
    data:
      "1":
        in: "5"
        interaction: |
          <3
          >higher
  secret:
    data:
      - "": gen.py {seed}
      - "": gen.py {seed:2}
`,
	}
	p := writeProblem(t, "guess", files)
	res := mustGenerate(t, p, generateOptions(t))
	data := readTree(t, filepath.Join(p.Dir, "data"))
	if data["sample/1.interaction"] != "<3\n>higher\n" || data["sample/1.ans"] != "" || data["secret/1.ans"] != "" || data["secret/2.in"] == "" {
		t.Errorf("got %q, want the interaction, empty answers and the inputs", data)
	}
	if res.Solution != "" {
		t.Errorf("got solution %q, want none run", res.Solution)
	}
}

// TestGenerateDataPuzzle: in a puzzle package, the tests whose rule names
// no solution are answered by the definition's reference, with no
// submission run.
func TestGenerateDataPuzzle(t *testing.T) {
	t.Parallel() // beside the other generate tests: they wait on their programs more than they use the CPUs
	def, err := os.ReadFile("../../problems/clocks/puzzle.yaml")
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"problem.yaml":      "problem_format_version: 2025-09\nname: Clocks\nuuid: 0b8f4f8e-3b0e-4c55-b9e2-6a0c5d7e1f20\n",
		"puzzle.yaml":       string(def),
		"generators/gen.py": "import sys\nr = int(sys.argv[1])\nprint(r % 4, 0, 0)\nprint(0, 0, 0)\nprint(0, 0, 1)\n",
		"generators/generators.yaml": `data:
  sample:
    data:
      "1":
        in: "3 3 0\n2 2 2\n2 1 2"
  secret:
    data:
      - "": gen.py {seed}
`,
	}
	p := writeProblem(t, "clocks", files)
	res := mustGenerate(t, p, generateOptions(t))
	data := readTree(t, filepath.Join(p.Dir, "data"))
	if data["sample/1.ans"] != "4 5 8 9\n" || data["secret/1.ans"] == "" {
		t.Errorf("got %q, want the reference's answers", data)
	}
	if res.Solution != "" {
		t.Errorf("got solution %q, want none run", res.Solution)
	}
}

// TestGenerateDataErrors: a broken generators.yaml is an error naming the
// file, the line and the field, and nothing is written.
func TestGenerateDataErrors(t *testing.T) {
	t.Parallel() // beside the other generate tests: they wait on their programs more than they use the CPUs
	files := genSumFiles()
	files["generators/generators.yaml"] = "data:\n  secret:\n    data:\n      a:\n        generate: gen.py {seed}\n        count: 500\n"
	p := writeProblem(t, "bad", files)
	_, err := GenerateData(context.Background(), p, generateOptions(t))
	if err == nil || !strings.Contains(err.Error(), "bad/generators/generators.yaml:6: data.secret.data.a.count: 500: want a number from 1 to 100") {
		t.Errorf("got %v, want the count's line and field", err)
	}
	if _, err := os.Stat(filepath.Join(p.Dir, "data")); err == nil {
		t.Error("data/ was written")
	}
}

// TestVerifyGenerated: verify warns, naming the tests, when data/ is not
// what generators.yaml makes.
func TestVerifyGenerated(t *testing.T) {
	t.Parallel() // beside the other generate tests: they wait on their programs more than they use the CPUs
	p := writeProblem(t, "gensum", genSumFiles())
	o := generateOptions(t)
	mustGenerate(t, p, o)
	vo := VerifyOptions{Judge: testJudge(t), Grade: gradeOptions(), GeneratorCache: o.Cache}
	rep, err := Verify(context.Background(), p, vo)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range rep.Findings {
		if strings.Contains(f.Msg, "generators") {
			t.Errorf("up to date: got finding %s", f)
		}
	}
	writeFile(t, p.Dir, "data/secret/4-multi.in", "1 1\n")
	os.Remove(filepath.Join(p.Dir, "data/secret/5-both.ans"))
	rep, err = Verify(context.Background(), p, vo)
	if err != nil {
		t.Fatal(err)
	}
	want := "out of date against generators/generators.yaml: secret/4-multi (.in changed), secret/5-both (.ans missing) (judge generate rewrites them)"
	if !hasFinding(rep, Warning, p.Package.Origin+"/data", want) {
		t.Errorf("got findings\n%s\nwant the warning %q", findings(rep), want)
	}
}

// TestLoadWithoutData: data/ is left out, but one that leads out of the
// package is refused: generate would write through it (data/secret linked
// to a directory elsewhere got the tests).
func TestLoadWithoutData(t *testing.T) {
	p := writeProblem(t, "sum", genSumFiles())
	writeFile(t, p.Dir, "data/secret/1.in", "1 2\n")
	if q, err := LoadWithoutData(p.Dir); err != nil || len(q.Package.Groups.AllTests()) != 0 {
		t.Errorf("got %v, want data/ left out", err)
	}
	os.RemoveAll(filepath.Join(p.Dir, "data/secret"))
	if err := os.Symlink(t.TempDir(), filepath.Join(p.Dir, "data/secret")); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	if _, err := LoadWithoutData(p.Dir); err == nil || !strings.Contains(err.Error(), "data/secret: a symbolic link out of the package") {
		t.Errorf("got %v, want the link out refused", err)
	}
}

// TestCollectQuotesStderrOnce: a failed run's stderr follows its message,
// without the line the message quotes (TestResult.Hint), whatever the
// message's words; all of it when the message quotes none.
func TestCollectQuotesStderrOnce(t *testing.T) {
	stderr := "Traceback (most recent call last)\n  File \"gen.py\", line 3\nValueError: bad\n"
	tests := []struct {
		name string
		tr   judge.TestResult
		want string
	}{
		{"quoted", judge.TestResult{Verdict: verdict.RE, Message: "exit code 1: Traceback (most recent call last)",
			Hint: "Traceback (most recent call last)", Stderr: stderr},
			"failed (RE): exit code 1: Traceback (most recent call last)\nFile \"gen.py\", line 3\nValueError: bad"},
		{"quoted, reworded", judge.TestResult{Verdict: verdict.RE, Message: "the words changed",
			Hint: "Traceback (most recent call last)", Stderr: stderr},
			"failed (RE): the words changed\nFile \"gen.py\", line 3\nValueError: bad"},
		{"not quoted", judge.TestResult{Verdict: verdict.JE, Message: "sandbox: Traceback (most recent call last)", Stderr: stderr},
			"failed (JE): sandbox: Traceback (most recent call last)\nTraceback (most recent call last)\n  File \"gen.py\", line 3\nValueError: bad"},
	}
	for _, tt := range tests {
		_, err := collect(tt.tr, true, time.Second)
		if err == nil || err.msg != tt.want {
			t.Errorf("%s: got %+v, want %q", tt.name, err, tt.want)
		}
	}
}
