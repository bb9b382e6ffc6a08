package judge

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/optjudge/optjudge/judge/sandbox"
	"github.com/optjudge/optjudge/problems"
	"github.com/optjudge/optjudge/verdict"
)

// boxedValidator is a Kattis output validator that behaves as its test's
// input says. "escape": it reads its input and answer, writes its
// feedback directory, and tries to read a file of the machine (argv[4]),
// to write a file into a directory anyone may write (argv[5]) and beside
// its own program, and to connect to a port of the machine's loopback
// (argv[6]); it accepts when every escape failed and rejects, naming
// them, when one worked. The other inputs break one limit each, or exit
// with a code that is no verdict.
const boxedValidator = `import os, socket, sys
# sizes computed at run time: PyPy's compiler folds constant expressions
MIB = int("1048576")
inp, ans, fb = sys.argv[1], sys.argv[2], sys.argv[3]
secret, public, port = sys.argv[4], sys.argv[5], int(sys.argv[6])
mode = open(inp).read().split()[0]
if open(ans).read().split()[0] != mode:
    sys.exit(3)
if mode == "escape":
    broke = []
    try:
        open(secret).read()
        broke.append("read " + secret)
    except OSError:
        pass
    for d in (public, os.path.dirname(os.path.abspath(__file__))):
        try:
            with open(os.path.join(d, "escaped"), "w") as f:
                f.write("out")
            broke.append("wrote in " + d)
        except OSError:
            pass
    try:
        s = socket.create_connection(("127.0.0.1", port), timeout=5)
        s.close()
        broke.append("connected to port %d" % port)
    except OSError:
        pass
    with open(os.path.join(fb, "judgemessage.txt"), "w") as f:
        f.write("broke out: " + ", ".join(broke) if broke else "contained")
    sys.exit(43 if broke else 42)
if mode == "spin":
    while True:
        pass
if mode == "memory":
    x = b"x" * (1024 * MIB)
    sys.exit(42 if len(x) else 43)
if mode == "feedback":
    with open(os.path.join(fb, "judgemessage.txt"), "w") as f:
        f.write("x" * (4 * MIB))
    sys.exit(42)
if mode == "stdout":
    sys.stdout.write("x" * (4 * MIB))
    sys.exit(42)
if mode == "crash":
    sys.exit(1)
sys.exit(43)
`

// boxedProblem is a legacy package whose output validator is
// boxedValidator, under small validation limits (the CPU time still far
// above what its quick modes use), with a test per mode.
func boxedProblem(t *testing.T, secret, public string, port int) *problems.Problem {
	validationTime := 10
	if testing.Short() {
		// the spinning validator burns its whole limit: -short spins
		// 2 s, still far above what the quick modes use
		validationTime = 2
	}
	files := map[string]string{
		"problem.yaml": fmt.Sprintf("problem_format_version: legacy\nname: boxed\nvalidation: custom\n"+
			"validator_flags: %s %s %d\nlimits:\n  validation_time: %d\n  validation_memory: 64\n  validation_output: 1\n", secret, public, port, validationTime),
		"output_validators/check/check.py": boxedValidator,
		"submissions/accepted/ok.py":       "print(1)\n",
	}
	for _, m := range []string{"escape", "spin", "memory", "feedback", "stdout", "crash"} {
		files["data/secret/"+m+".in"] = m + "\n"
		files["data/secret/"+m+".ans"] = m + "\n"
	}
	return writePackage(t, "boxed", files)
}

// TestProgramsBoxed: a problem's output validator runs in a box of its
// own: it reads its test's input and answer and writes its feedback
// directory, but reads no file of the machine, writes nowhere else (not
// beside its own program either) and reaches no network; its verdict is
// its exit code's (JE only for a code that is none), and a validator over
// validation_time, validation_memory or validation_output is JE naming
// the limit.
func TestProgramsBoxed(t *testing.T) {
	t.Parallel()
	j := newJudge(t)
	dir := t.TempDir()
	// only the box may stand in the validator's way: the files are open
	// to every uid
	secret, public := filepath.Join(dir, "secret.txt"), filepath.Join(dir, "public")
	if err := os.WriteFile(secret, []byte("the judge's secret\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(public, 0o777); err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{dir, public} {
		if err := os.Chmod(d, 0o777); err != nil {
			t.Fatal(err)
		}
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	accepted := make(chan struct{}, 1)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
			select {
			case accepted <- struct{}{}:
			default:
			}
		}
	}()
	p := boxedProblem(t, secret, public, ln.Addr().(*net.TCPAddr).Port)
	sub := filepath.Join(p.Dir, "submissions", "accepted", "ok.py")
	r, err := j.Grade(context.Background(), p, Submission{Path: sub}, BuildOptions{}, ample()) // ok.py is AC on a busy machine too: the validators decide
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]TestResult{}
	for _, tr := range r.Tests {
		got[strings.TrimPrefix(tr.Name, "secret/")] = tr
	}
	limits := []struct {
		test, msg string
	}{
		// its CPU time, or on a busy machine its wall time
		{"spin", "validation_time"},
		{"memory", "exceeded validation_memory (64MiB)"},
		{"feedback", "1MiB (validation_output)"},
		{"stdout", "validation_output (1MiB)"},
		{"crash", "exit code 1 is not a Kattis verdict"},
	}
	for _, l := range limits {
		tr := got[l.test]
		if tr.Verdict != verdict.JE || !strings.Contains(tr.Message, l.msg) {
			t.Errorf("%s: got %v %q, want JE naming %q", l.test, tr.Verdict, tr.Message, l.msg)
		}
	}
	if j.Isolation() == sandbox.IsolationNone {
		t.Skipf("isolation none (no namespaces here): the problem's programs are not contained, so their escapes are not tested: %s", j.Warning())
	}
	if tr := got["escape"]; tr.Verdict != verdict.AC || tr.Message != "contained" {
		t.Errorf("escape: got %v %q, want AC \"contained\"", tr.Verdict, tr.Message)
	}
	if ents, err := os.ReadDir(public); err != nil || len(ents) > 0 {
		t.Errorf("the directory open to all holds %v (%v), want nothing", ents, err)
	}
	if b, err := os.ReadFile(secret); err != nil || string(b) != "the judge's secret\n" {
		t.Errorf("the secret file holds %q (%v)", b, err)
	}
	select {
	case <-accepted:
		t.Error("the validator connected to the machine's loopback")
	case <-time.After(100 * time.Millisecond):
	}
}
