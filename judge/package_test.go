package judge

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/optjudge/optjudge/problems"
	"github.com/optjudge/optjudge/verdict"
)

// functionPackage is a function problem (include/): the contestant writes
// add(a, b); the package's driver for each language reads the input and
// prints the sum. Its C++ header clashes with one a submission brings,
// which the package's wins, as the format has it.
func functionPackage(t *testing.T, extra map[string]string) *problems.Problem {
	t.Helper()
	files := map[string]string{
		"problem.yaml":                "problem_format_version: 2025-09\nname: Add\nuuid: 1\nconstants: {offset: 0}\n",
		"data/sample/1.in":            "1 2\n",
		"data/sample/1.ans":           "3\n",
		"data/secret/1.in":            "40 2\n",
		"data/secret/1.ans":           "42\n",
		"include/cpp/add.h":           "long add(long a, long b);\n",
		"include/cpp/main.cpp":        "#include <cstdio>\n#include \"add.h\"\nint main(){long a,b;if(std::scanf(\"%ld %ld\",&a,&b)!=2)return 1;std::printf(\"%ld\\n\",add(a,b)+{{offset}});}\n",
		"include/python3/__main__.py": "import add\na, b = map(int, input().split())\nprint(add.add(a, b) + {{offset}})\n",
		"include/java/Main.java":      "import java.util.Scanner;\npublic class Main { public static void main(String[] x) { Scanner s = new Scanner(System.in); long a = s.nextLong(), b = s.nextLong(); System.out.println(Add.add(a, b)); } }\n",
	}
	for k, v := range extra {
		files[k] = v
	}
	return writePackage(t, "add", files)
}

// TestIncludedFiles: a submission of a function problem is built with the
// package's files for its language (include/<code>/ over its own, the
// driver the entry point), in C++, Python 3 and Java; a submission
// without them would not build, or print nothing.
func TestIncludedFiles(t *testing.T) {
	t.Parallel()
	p := functionPackage(t, nil)
	j := newJudge(t)
	dir := t.TempDir()
	subs := []struct {
		name, files string
		want        verdict.Verdict
	}{
		{"add.cpp", "long add(long a, long b) { return a + b; }\n", verdict.AC},
		// its own add.h, which declares the wrong function: the package's wins
		{"cpp-dir/add.cpp", "#include \"add.h\"\nlong add(long a, long b) { return a + b; }\n", verdict.AC},
		{"cpp-dir/add.h", "int something_else();\n", verdict.AC},
		{"add.py", "def add(a, b):\n    return a + b\n", verdict.AC},
		{"wrong.cpp", "long add(long a, long b) { return a - b; }\n", verdict.WA},
		{"Add.java", "public class Add { static long add(long a, long b) { return a + b; } }\n", verdict.AC},
	}
	for _, s := range subs {
		path := filepath.Join(dir, s.name)
		os.MkdirAll(filepath.Dir(path), 0o755)
		if err := os.WriteFile(path, []byte(s.files), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, s := range []struct {
		path string
		want verdict.Verdict
		java bool
	}{
		{"add.cpp", verdict.AC, false}, {"cpp-dir", verdict.AC, false}, {"add.py", verdict.AC, false},
		{"wrong.cpp", verdict.WA, false}, {"Add.java", verdict.AC, true},
	} {
		t.Run(s.path, func(t *testing.T) {
			if s.java {
				needLanguage(t, j, "java")
			}
			r, err := j.Grade(context.Background(), p, Submission{Path: filepath.Join(dir, s.path)}, BuildOptions{}, GradeOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if r.Verdict != s.want {
				t.Errorf("got %s (%s), want %s", r.Verdict, r.Compile.Message, s.want)
			}
		})
	}
	// Without the problem, the build has no driver: no main.
	r, err := j.Grade(context.Background(), p, Submission{Path: filepath.Join(dir, "add.cpp")}, BuildOptions{Problem: &problems.Problem{}}, GradeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Verdict != verdict.CE {
		t.Errorf("without the included files: got %s, want CE", r.Verdict)
	}
}

// needLanguage skips a test whose language this machine lacks.
func needLanguage(t *testing.T, j *Judge, name string) {
	t.Helper()
	lang, err := j.Languages().ByName(name)
	if err != nil {
		t.Fatal(err)
	}
	if err := j.Installed(lang); err != nil {
		t.Skipf("%s is not installed: %v", name, err)
	}
}

// TestIncludedBuildKey: the included files are part of a build's key.
func TestIncludedBuildKey(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	sub := filepath.Join(dir, "add.cpp")
	os.WriteFile(sub, []byte("long add(long a, long b) { return a + b; }\n"), 0o644)
	j := newJudge(t)
	keys := map[string]string{}
	for name, p := range map[string]*problems.Problem{
		"none":    nil,
		"package": functionPackage(t, nil),
		"other":   functionPackage(t, map[string]string{"include/cpp/add.h": "long add(long, long);\n"}),
	} {
		k, err := j.BuildKey(Submission{Path: sub}, BuildOptions{Problem: p})
		if err != nil {
			t.Fatal(err)
		}
		keys[name] = k
	}
	if keys["none"] == keys["package"] || keys["package"] == keys["other"] {
		t.Errorf("got keys %v, want three different ones", keys)
	}
}

// TestExampleConstants: an example submission (BuildOptions.Example) has
// the package's constants in its files; another submission does not.
func TestExampleConstants(t *testing.T) {
	t.Parallel()
	p := writePackage(t, "c", map[string]string{
		"problem.yaml":      "problem_format_version: 2025-09\nname: C\nuuid: 1\nconstants: {answer: 42}\n",
		"data/secret/1.in":  "\n",
		"data/secret/1.ans": "42\n",
	})
	sub := filepath.Join(t.TempDir(), "print.py")
	os.WriteFile(sub, []byte("print(\"{{answer}}\")\n"), 0o644)
	j := newJudge(t)
	for _, example := range []bool{true, false} {
		r, err := j.Grade(context.Background(), p, Submission{Path: sub}, BuildOptions{Example: example}, ample())
		if err != nil {
			t.Fatal(err)
		}
		want := verdict.AC
		if !example {
			want = verdict.WA // it prints {{answer}}
		}
		if r.Verdict != want {
			t.Errorf("example %v: got %s, want %s", example, r.Verdict, want)
		}
	}
}

// TestRefused: problem.yaml's languages refuse a submission in another
// language, limits.code one over it; nothing is built.
func TestRefused(t *testing.T) {
	t.Parallel()
	p := writePackage(t, "r", map[string]string{
		"problem.yaml":     "problem_format_version: 2025-09\nname: R\nuuid: 1\nlanguages: [cpp]\nlimits: {code: 1}\n",
		"data/secret/1.in": "\n",
	})
	dir := t.TempDir()
	small, big := filepath.Join(dir, "a.py"), filepath.Join(dir, "b.cpp")
	os.WriteFile(small, []byte("print(1)\n"), 0o644)
	os.WriteFile(big, []byte(strings.Repeat("// padding\n", 200)+"int main(){}\n"), 0o644)
	j := newJudge(t)
	for _, tt := range []struct {
		path, want string
		code       bool
	}{
		{small, "Python 3 is not a language of the problem (problem.yaml's languages: cpp)", false},
		{big, "over the problem's limit of 1KiB (limits.code)", true},
	} {
		_, err := j.Prepare(context.Background(), Submission{Path: tt.path}, BuildOptions{Problem: p})
		var re *RefusedError
		if !errors.As(err, &re) || !strings.Contains(err.Error(), tt.want) || re.Code != tt.code {
			t.Errorf("%s: got %v, want a RefusedError saying %q", tt.path, err, tt.want)
		}
	}
}

// TestProgramFolders: a header beside a validator in its folder is part
// of it (not a program of its own), a README.txt there is passed over,
// and the package's constants are in the validators' files.
func TestProgramFolders(t *testing.T) {
	t.Parallel()
	p := writePackage(t, "sum", map[string]string{
		"problem.yaml":      "validation: custom\nconstants: {max: 100}\n",
		"data/sample/1.in":  "1 2\n",
		"data/sample/1.ans": "3\n",
		"output_validators/check.cpp": `#include <cstdio>
#include "sum.h"
int main(int argc, char **argv) {
    FILE *in = std::fopen(argv[1], "r");
    long a, b, got;
    if (std::fscanf(in, "%ld %ld", &a, &b) != 2 || std::scanf("%ld", &got) != 1) return 43;
    return got == sum(a, b) && got <= {{max}} ? 42 : 43;
}
`,
		"output_validators/sum.h":      "inline long sum(long a, long b) { return a + b; }\n",
		"output_validators/README.txt": "check.cpp reads the sum\n",
		"input_validators/validate.py": "import sys\na, b = map(int, sys.stdin.read().split())\nsys.exit(42 if 0 <= a <= {{max}} and 0 <= b <= {{max}} else 43)\n",
		"input_validators/README.txt":  "validate.py checks the bounds\n",
	})
	j := newJudge(t)
	ivs, err := j.InputValidators(context.Background(), p, nil)
	if err != nil || len(ivs) != 1 {
		t.Fatalf("got %d input validators, %v; want validate.py alone", len(ivs), err)
	}
	for in, valid := range map[string]bool{"1 2\n": true, "1 200\n": false} {
		msg, err := ivs[0].Validate(context.Background(), []byte(in))
		if err != nil || (msg == "") != valid {
			t.Errorf("validate %q: got %q, %v; want valid %v", in, msg, err, valid)
		}
	}
	dir := t.TempDir()
	for src, want := range map[string]verdict.Verdict{"print(3)\n": verdict.AC, "print(4)\n": verdict.WA} {
		sub := filepath.Join(dir, "s.py")
		os.WriteFile(sub, []byte(src), 0o644)
		r, err := j.Grade(context.Background(), p, Submission{Path: sub}, BuildOptions{}, GradeOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if r.Verdict != want {
			t.Errorf("%q: got %s, want %s", src, r.Verdict, want)
		}
	}
}

// TestStaticValidation: a 2025-09 static validation test case runs the
// static validator on the submission's files (language, entry point,
// feedback directory), its verdict one of the grading's tests.
func TestStaticValidation(t *testing.T) {
	t.Parallel()
	p := writePackage(t, "s", map[string]string{
		"problem.yaml":                "problem_format_version: 2025-09\nname: S\nuuid: 1\n",
		"data/sample/1.in":            "1 2\n",
		"data/sample/1.ans":           "3\n",
		"data/secret/1.in":            "40 2\n",
		"data/secret/1.ans":           "42\n",
		"data/secret/test_group.yaml": "static_validation_score: pass-fail\nstatic_validator_args: [os]\n",
		"static_validator/validate.py": `import os, sys
lang, entry, feedback = sys.argv[1:4]
banned = sys.argv[4]
src = open(entry).read()
if lang != "python3" or ("import " + banned) in src:
    open(os.path.join(feedback, "judgemessage.txt"), "w").write(lang + " " + entry + ": imports " + banned)
    sys.exit(43)
sys.exit(42)
`,
	})
	dir := t.TempDir()
	j := newJudge(t)
	for src, want := range map[string]verdict.Verdict{
		"a, b = map(int, input().split())\nprint(a + b)\n":            verdict.AC,
		"import os\na, b = map(int, input().split())\nprint(a + b)\n": verdict.WA,
	} {
		sub := filepath.Join(dir, "sum.py")
		os.WriteFile(sub, []byte(src), 0o644)
		r, err := j.Grade(context.Background(), p, Submission{Path: sub}, BuildOptions{}, GradeOptions{})
		if err != nil {
			t.Fatal(err)
		}
		var static *TestResult
		for i := range r.Tests {
			if r.Tests[i].Name == "secret/static_validation" {
				static = &r.Tests[i]
			}
		}
		if r.Verdict != want || static == nil || static.Verdict != want {
			t.Errorf("%q: got %s, static %+v; want %s on the static validation test", src, r.Verdict, static, want)
		}
		if want == verdict.WA && !strings.Contains(static.Message, "python3 sum.py: imports os") {
			t.Errorf("got message %q, want the validator's", static.Message)
		}
	}
}

// TestStaticValidationRegrade: a static validation test's verdict is the
// validator's through the outcome mapping, and regrading the report under
// a lower limit (judge verify's raised runs) keeps it: no limit of the
// submission's bears on it.
func TestStaticValidationRegrade(t *testing.T) {
	t.Parallel()
	p := writePackage(t, "sr", map[string]string{
		"problem.yaml":                 "problem_format_version: 2025-09\nname: S\nuuid: 1\n",
		"data/sample/1.in":             "1 2\n",
		"data/sample/1.ans":            "3\n",
		"data/secret/1.in":             "40 2\n",
		"data/secret/1.ans":            "42\n",
		"data/secret/test_group.yaml":  "static_validation_score: pass-fail\n",
		"static_validator/validate.py": "import os, sys\nopen(os.path.join(sys.argv[3], 'judgemessage.txt'), 'w').write('too long')\nsys.exit(43)\n",
	})
	sub := filepath.Join(t.TempDir(), "sum.py")
	os.WriteFile(sub, []byte("a, b = map(int, input().split())\nprint(a + b)\n"), 0o644)
	j := newJudge(t)
	r, err := j.Grade(context.Background(), p, Submission{Path: sub}, BuildOptions{}, GradeOptions{TimeLimit: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	at, err := j.Regrade(context.Background(), p, nil, r, time.Second, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, rep := range []*Report{r, at} {
		n := len(rep.Tests)
		if n == 0 || rep.Verdict != verdict.WA || rep.Tests[n-1].Name != "secret/static_validation" ||
			rep.Tests[n-1].Verdict != verdict.WA || rep.Tests[n-1].Message != "too long" {
			t.Errorf("under %v: got %v, tests %+v; want WA, the static validation test's: too long", rep.Limits.Time, rep.Verdict, rep.Tests)
		}
	}
}

// TestSubmitAnswer: a submit-answer problem's submission is a directory
// of answers, one per test (its name, or its last element, with .out or
// .ans), judged as outputs; a test without one is WA.
func TestSubmitAnswer(t *testing.T) {
	t.Parallel()
	p := writePackage(t, "answers", map[string]string{
		"problem.yaml":      "problem_format_version: 2025-09\nname: A\nuuid: 1\ntype: [pass-fail, submit-answer]\n",
		"data/sample/1.in":  "1 2\n",
		"data/sample/1.ans": "3\n",
		"data/secret/2.in":  "40 2\n",
		"data/secret/2.ans": "42\n",
		"data/secret/3.in":  "5 5\n",
		"data/secret/3.ans": "10\n",
	})
	j := newJudge(t)
	for _, tt := range []struct {
		name  string
		files map[string]string
		want  verdict.Verdict
		msg   string
	}{
		{"all", map[string]string{"1.out": "3\n", "secret/2.out": "42\n", "3.ans": "10\n"}, verdict.AC, ""},
		{"one wrong", map[string]string{"1.out": "3\n", "2.out": "41\n", "3.out": "10\n"}, verdict.WA, "got \"41\""},
		{"one missing", map[string]string{"1.out": "3\n", "2.out": "42\n"}, verdict.WA, "no answer for secret/3"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "answers")
			for name, content := range tt.files {
				os.MkdirAll(filepath.Join(dir, filepath.Dir(name)), 0o755)
				os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644)
			}
			r, err := j.Grade(context.Background(), p, Submission{Path: dir}, BuildOptions{}, GradeOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if r.Verdict != tt.want || r.Language != AnswersLanguage {
				t.Fatalf("got %s in %s, want %s", r.Verdict, r.Language, tt.want)
			}
			if tt.msg != "" && !strings.Contains(describe(r), tt.msg) {
				t.Errorf("got %s, want a message with %q", describe(r), tt.msg)
			}
		})
	}
}

// TestFileWriting: a 2025-09 package's submissions may read their working
// directory (a test's .files) but not write in it, unless problem.yaml
// says allow_file_writing: true; enforced where the boxes have uids of
// their own.
func TestFileWriting(t *testing.T) {
	t.Parallel()
	j := newJudge(t)
	if !j.sb.OwnUIDs() {
		t.Skip("the boxes have no uids of their own here (a root judge gives them): the working directory cannot be kept read-only")
	}
	sub := filepath.Join(t.TempDir(), "w.py")
	os.WriteFile(sub, []byte("data = open('extra.txt').read()\nwith open('mine.txt', 'w') as f:\n    f.write(data)\nprint(open('mine.txt').read().strip())\n"), 0o644)
	for spec, want := range map[string]verdict.Verdict{
		"":                           verdict.RE,
		"allow_file_writing: true\n": verdict.AC,
	} {
		p := writePackage(t, "w", map[string]string{
			"problem.yaml":                  "problem_format_version: 2025-09\nname: W\nuuid: 1\n" + spec,
			"data/secret/1.in":              "\n",
			"data/secret/1.ans":             "hello\n",
			"data/secret/1.files/extra.txt": "hello\n",
		})
		r, err := j.Grade(context.Background(), p, Submission{Path: sub}, BuildOptions{}, GradeOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if r.Verdict != want {
			t.Errorf("%q: got %s, want %s: %s", spec, r.Verdict, want, describe(r))
		}
	}
}
