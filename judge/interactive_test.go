package judge

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/optjudge/optjudge/problems"
	"github.com/optjudge/optjudge/problems/kattis"
	"github.com/optjudge/optjudge/verdict"
)

// writePackage writes a Kattis package in a directory called name and
// loads it; files whose content starts with "#!" are executable.
func writePackage(t testing.TB, name string, files map[string]string) *problems.Problem {
	t.Helper()
	dir := filepath.Join(t.TempDir(), name)
	for f, content := range files {
		p := filepath.Join(dir, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		mode := os.FileMode(0o644)
		if strings.HasPrefix(content, "#!") {
			mode = 0o755
		}
		if err := os.WriteFile(p, []byte(content), mode); err != nil {
			t.Fatal(err)
		}
	}
	p, err := problems.LoadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// testsNamed picks the tests of p by name.
func testsNamed(t *testing.T, p *problems.Problem, names ...string) []kattis.Test {
	t.Helper()
	all, err := p.Package.Tests()
	if err != nil {
		t.Fatal(err)
	}
	var out []kattis.Test
	for _, n := range names {
		for _, tt := range all {
			if tt.Name == n {
				out = append(out, tt)
			}
		}
	}
	if len(out) != len(names) {
		t.Fatalf("got tests %v of %v", out, names)
	}
	return out
}

// interactor behaves as its test's input says, to pin each rule of who
// decides an interactive test.
const interactor = `#!/bin/sh
# input_file answer_file feedback_dir/ < submission's output > submission's input
case "$(cat "$1")" in
wa-first) echo "you lose" > "$3/judgemessage.txt"; exit 43 ;;
ac-first) exit 42 ;;
crash) echo "interactor bug" >&2; exit 1 ;;
hang) sleep 600 ;;
echo)
	echo hello
	read x
	test "$x" = hello && exit 42
	echo "got $x" > "$3/judgemessage.txt"; exit 43 ;;
eof) cat > /dev/null; echo "no answer" > "$3/judgemessage.txt"; exit 43 ;;
pseudo)
	# pseudo-interactive: the whole input, then the end of it, then
	# the answer
	echo 3; echo 4
	exec >&-
	read x
	test "$x" = 7 && exit 42
	echo "got $x" > "$3/judgemessage.txt"; exit 43 ;;
flood)
	# more than any pipe holds (problemtools' are 1 MiB), written by
	# the validator itself (SIGPIPE would kill it, not a child)
	i=0
	while [ $i -lt 3000 ]; do printf '%01000d\n' 0; i=$((i+1)); done
	read x
	test "$x" = ok && exit 42
	echo "got '$x'" > "$3/judgemessage.txt"; exit 43 ;;
esac
exit 2
`

func interactiveProblem(t *testing.T) *problems.Problem {
	files := map[string]string{
		"problem.yaml": "problem_format_version: 2023-07\ntype: interactive\nname: Talk\nuuid: 4e0b4d6c-0f5c-4b8e-9a3b-7f1c2d3e4f50\n" +
			"license: cc0\nsource: optjudge tests\nlimits:\n  time_limit: 1\n  validation_time: 1\n",
		"output_validator/run": interactor,
	}
	for _, name := range []string{"wa-first", "ac-first", "crash", "hang", "echo", "eof", "flood", "pseudo"} {
		files["data/secret/"+name+".in"] = name + "\n"
		files["data/secret/"+name+".ans"] = ""
	}
	return writePackage(t, "talk", files)
}

// TestInteractiveRules pins problemtools' rules: a validator that fails
// is JE; one that ends first with WA decides, even over a submission that
// would run out of time; a submission that breaks a limit or crashes gets
// TLE or RE though the validator then says WA; else the validator
// decides. The CPU limit is 10 s (the wall-clock limit 21 s, the
// validator's 22 s) but where a program that never ends meets it: a
// loop (1 s of CPU, a minute of wall clock, so that a busy machine's
// little share of a core still meets the CPU limit first), or a validator
// that hangs (1 s: its wall-clock limit is 4 s).
func TestInteractiveRules(t *testing.T) {
	t.Parallel()
	p := interactiveProblem(t)
	j := newJudge(t)
	tests := []struct {
		test, sub string
		want      verdict.Verdict
		msg       string
		limit     time.Duration // the CPU limit, when not 10 s
		wall      time.Duration // the wall-clock limit, when not the default
	}{
		{"echo", "read x; echo \"$x\"", verdict.AC, "", 0, 0},
		{"echo", "read x; echo bye", verdict.WA, "got bye", 0, 0},
		{"wa-first", "while :; do :; done", verdict.WA, "you lose", 0, 0},
		{"ac-first", "while :; do :; done", verdict.TLE, "CPU time", time.Second, time.Minute},
		{"ac-first", "exit 1", verdict.RE, "exit code 1", 0, 0},
		{"eof", "exit 3", verdict.RE, "exit code 3", 0, 0},
		{"eof", "echo 42", verdict.WA, "no answer", 0, 0},
		{"crash", "cat", verdict.JE, "interactor bug", 0, 0},
		{"hang", "exit 0", verdict.JE, "no verdict within", time.Second, 0},
		// the pipe rules (problemtools' support/interactive): a
		// validator still writing when the submission has left is not
		// killed by SIGPIPE, nor blocked: it reads the end and decides
		{"flood", "head -c 3000000 > /dev/null; echo ok", verdict.AC, "", 0, 0},
		{"flood", "exit 0", verdict.WA, "got ''", 0, 0},
		{"flood", "exit 3", verdict.RE, "exit code 3", 0, 0},
		// one that accepts first leaves the submission to end by
		// itself: it reads the end of its input, at once (a wall
		// limit of a minute would make waiting for it TLE)
		{"ac-first", "cat > /dev/null", verdict.AC, "", 0, time.Minute},
		// and what the submission still writes is dropped: neither
		// SIGPIPE nor a full pipe (3 MB, more than any pipe holds)
		{"ac-first", "head -c 3000000 /dev/zero", verdict.AC, "", 0, time.Minute},
		// one that rejects first stops a submission still writing
		{"wa-first", "exec yes", verdict.WA, "you lose", 0, time.Minute},
		// a validator that closes its output while it runs on: the
		// submission reads the end of its input (as BAPCtools and
		// DOMjudge pass it on), at once (with the end held back, both
		// would wait: TLE)
		{"pseudo", "s=0; while read x; do s=$((s+x)); done; echo $s", verdict.AC, "", 0, time.Minute},
		{"pseudo", "while read x; do :; done; echo 8", verdict.WA, "got 8", 0, time.Minute},
		{"pseudo", "cat > /dev/null; exit 3", verdict.RE, "exit code 3", 0, time.Minute},
	}
	for _, tt := range tests {
		t.Run(tt.test+"/"+tt.sub, func(t *testing.T) {
			src := writeSource(t, "sub", "#!/bin/sh\n"+tt.sub+"\n")
			os.Chmod(src, 0o755)
			o := GradeOptions{Tests: testsNamed(t, p, "secret/"+tt.test), TimeLimit: 10 * time.Second}
			if tt.limit > 0 {
				o.TimeLimit = tt.limit
			}
			o.WallLimit = tt.wall
			r, err := j.Grade(context.Background(), p, Submission{Path: src}, BuildOptions{}, o)
			if err != nil {
				t.Fatal(err)
			}
			got := r.Tests[0]
			if got.Verdict != tt.want || !strings.Contains(got.Message, tt.msg) {
				t.Errorf("got %v %q, want %v with %q", got.Verdict, got.Message, tt.want, tt.msg)
			}
		})
	}
}

// TestInteractivePackage grades the example submissions of the 2025-09
// test package guess-interactive, whose validator is built by a build
// script.
func TestInteractivePackage(t *testing.T) {
	t.Parallel()
	p, err := problems.LoadDir("../problems/testdata/guess-interactive")
	if err != nil {
		t.Fatal(err)
	}
	j := newJudge(t)
	tests := []struct {
		sub  string
		want verdict.Verdict
	}{
		{"accepted/bisect.c", verdict.AC},
		{"accepted/bisect.py", verdict.AC},
		{"wrong_answer/linear.py", verdict.WA},
		{"run_time_error/crash.py", verdict.RE},
		{"time_limit_exceeded/spin.py", verdict.TLE},
	}
	for _, tt := range tests {
		t.Run(tt.sub, func(t *testing.T) {
			o := parallel()
			o.Lazy = tt.want != verdict.AC
			if tt.want != verdict.TLE {
				// a generous limit: only the program that never ends
				// (spin.py) meets one
				o.TimeLimit = 10 * time.Second
			}
			r, err := j.Grade(context.Background(), p, Submission{Path: "../problems/testdata/guess-interactive/submissions/" + tt.sub}, BuildOptions{}, o)
			if err != nil {
				t.Fatal(err)
			}
			if r.Verdict != tt.want {
				t.Errorf("got %v (%+v), want %v", r.Verdict, r.Tests, tt.want)
			}
		})
	}
}

// TestInteractiveTestlib grades a native problem with a testlib-style
// interactor: exit 0 accepts, and the checker then judges what the
// interactor wrote to its output file against the answer.
func TestInteractiveTestlib(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	files := map[string]string{
		"problem.yaml": "name: talk\ntitle: Talk\nlimits:\n  time_limit: 1\ninteractor:\n  program: interactor.py\n",
		// interactor input_file output_file answer_file
		"interactor.py": "import sys\nx = open(sys.argv[1]).read().strip()\nprint(x, flush=True)\n" +
			"got = sys.stdin.readline().split()\nopen(sys.argv[2], 'w').write(' '.join(got) + '\\n')\n" +
			"if len(got) != 2:\n    print('want two numbers, got', len(got), file=sys.stderr)\n    sys.exit(1)\n",
		"testdata/sample/1.in":  "7\n",
		"testdata/sample/1.ans": "7 7\n",
		"testdata/secret/2.in":  "12\n",
		"testdata/secret/2.ans": "12 12\n",
	}
	for f, c := range files {
		os.MkdirAll(filepath.Join(dir, filepath.Dir(f)), 0o755)
		if err := os.WriteFile(filepath.Join(dir, f), []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	p, err := problems.LoadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	j := newJudge(t)
	tests := []struct {
		src  string
		want verdict.Verdict
		msg  string
	}{
		{"x = input()\nprint(x, x)\n", verdict.AC, ""},
		{"print(input())\n", verdict.WA, "want two numbers, got 1"},
		{"x = input()\nprint(x, 0)\n", verdict.WA, `got "0", want "7"`},
		{"input()\nraise SystemExit(4)\n", verdict.RE, "exit code 4"},
	}
	for _, tt := range tests {
		src := writeSource(t, "sub.py", tt.src)
		o := parallel()
		o.TimeLimit = 10 * time.Second // none of them meets a limit
		r, err := j.Grade(context.Background(), p, Submission{Path: src}, BuildOptions{}, o)
		if err != nil {
			t.Fatal(err)
		}
		if r.Verdict != tt.want || !strings.Contains(r.Tests[0].Message, tt.msg) {
			t.Errorf("%q: got %v %q, want %v with %q", tt.src, r.Verdict, r.Tests[0].Message, tt.want, tt.msg)
		}
	}
}

// stallInteractor waits for the submission first ("silent": it wants
// "hi"), or sleeps in nanosleep before it writes "hello" and wants it
// back ("late").
const stallInteractor = `#!/bin/sh
# input_file answer_file feedback_dir/ < submission's output > submission's input
case "$(cat "$1")" in
silent)
	read x
	test "$x" = hi && exit 42
	echo "got '$x'" > "$3/judgemessage.txt"; exit 43 ;;
late)
	exec python3 -c '
import sys, time
time.sleep(1.5)
print("hello", flush=True)
sys.exit(42 if sys.stdin.readline().strip() == "hello" else 43)
' ;;
esac
exit 2
`

// TestInteractiveStall pins the stall watch: a submission and a validator
// both asleep reading what the other never sends get TLE at once, under
// a wall limit of a minute (the bound asserted, 30 s, is a hundred times
// what the watch takes, so a busy machine holds it), with a message that
// says why; a side asleep in anything else (nanosleep, a timed futex
// wait in another thread) is waited for, and answers.
func TestInteractiveStall(t *testing.T) {
	t.Parallel()
	files := map[string]string{
		"problem.yaml": "problem_format_version: 2023-07\ntype: interactive\nname: Talk\nuuid: 5f1c5e7d-1a6d-4c9f-8b4c-8a2d3e4f5a61\n" +
			"license: cc0\nsource: optjudge tests\nlimits:\n  time_limit: 1\n  validation_time: 10\n",
		"output_validator/run": stallInteractor,
	}
	for _, name := range []string{"silent", "late"} {
		files["data/secret/"+name+".in"] = name + "\n"
		files["data/secret/"+name+".ans"] = ""
	}
	p := writePackage(t, "stall", files)
	j := newJudge(t)
	const stalled = "both waiting for each other's input"
	tests := []struct {
		name, test, file, src string
		want                  verdict.Verdict
		msg                   string
	}{
		// the validator waits for "hi", the submission for a line first
		{"read-first", "silent", "sub", "#!/bin/sh\nread x\necho hi\n", verdict.TLE, stalled},
		// guess_no_flush: what it writes stays in its buffer while it reads
		{"no-flush", "silent", "sub.c", "#include <stdio.h>\nint main(void) { char s[9]; printf(\"hi\\n\"); return scanf(\"%8s\", s); }\n", verdict.TLE, stalled},
		{"sleeps-then-writes", "silent", "sub.py", "import time\ntime.sleep(1.5)\nprint('hi', flush=True)\n", verdict.AC, ""},
		// the submission closes its output, then reads: its end of
		// output is passed on only once it has ended, as the peers do
		{"closes-then-reads", "silent", "sub", "#!/bin/sh\nexec >&-\nread x\n", verdict.TLE, stalled},
		// the validator sleeps, the submission reads
		{"validator-sleeps", "late", "sub", "#!/bin/sh\nread x\necho \"$x\"\n", verdict.AC, ""},
		// one thread reads, another waits on a futex with a timeout, then writes
		{"timed-wait-thread", "silent", "sub.py", "import sys, threading\n" +
			"def later():\n    threading.Event().wait(1.5)\n    print('hi', flush=True)\n" +
			"threading.Thread(target=later).start()\nsys.stdin.readline()\n", verdict.AC, ""},
		// asleep reading with an alarm set: SIGALRM ends it after 2 s
		{"alarm", "silent", "sub.c", "#include <stdio.h>\n#include <unistd.h>\nint main(void) { char s[9]; alarm(2); return scanf(\"%8s\", s); }\n", verdict.RE, "signal 14"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := writeSource(t, tt.file, tt.src)
			os.Chmod(src, 0o755)
			o := GradeOptions{Tests: testsNamed(t, p, "secret/"+tt.test), TimeLimit: 10 * time.Second, WallLimit: time.Minute}
			start := time.Now()
			r, err := j.Grade(context.Background(), p, Submission{Path: src}, BuildOptions{}, o)
			if err != nil {
				t.Fatal(err)
			}
			took := time.Since(start)
			got := r.Tests[0]
			if got.Verdict != tt.want || !strings.Contains(got.Message, tt.msg) {
				t.Errorf("got %v %q, want %v with %q", got.Verdict, got.Message, tt.want, tt.msg)
			}
			if tt.want == verdict.TLE && (took > 30*time.Second || got.WallMS > 30000) {
				if armed, _ := alarmsArmed(); armed {
					// the watch rightly declines while any alarm runs
					t.Skipf("took %s: an alarm(2) timer runs on this machine, so no stall can be declared", took)
				}
				t.Errorf("took %s (test wall time %d ms): the stall was not seen", took, got.WallMS)
			}
			t.Logf("%v in %s, wall %d ms: %s", got.Verdict, took, got.WallMS, got.Message)
		})
	}
}
