package checkers

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/optjudge/optjudge/reference/puzzle/judging"
	"github.com/optjudge/optjudge/verdict"
)

// script writes an executable shell script and returns its path.
func writeScript(t testing.TB, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "prog.sh")
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

var extFiles = Files{Input: []byte("3\n"), Output: []byte("1 2\n"), Answer: []byte("0 3\n")}

func TestExternalTestlib(t *testing.T) {
	tests := []struct {
		name, body string
		want       verdict.Verdict
		msg        string // substring of the message, or of the error for JE
	}{
		// The checker sees input, output and answer in that order.
		{"ac", `test "$(cat "$1")" = 3 && test "$(cat "$2")" = "1 2" && test "$(cat "$3")" = "0 3" || exit 3
echo "ok 1 + 2 = 3" >&2; exit 0`, verdict.AC, "ok 1 + 2 = 3"},
		{"wa", `echo "wrong answer 1 + 2 != 4" >&2; exit 1`, verdict.WA, "wrong answer 1 + 2 != 4"},
		{"pe is wa", `echo "wrong output format" >&2; exit 2`, verdict.WA, "presentation error: wrong output format"},
		{"fail is je", `echo "answer file is bad" >&2; exit 3`, verdict.JE, "failed: answer file is bad"},
		{"other code is je", `exit 7`, verdict.JE, "exit code 7 is not a testlib verdict"},
		{"signal is je", `kill -SEGV $$`, verdict.JE, "killed by segmentation fault"},
		{"stdout when stderr is empty", `echo "ok fine"; exit 0`, verdict.AC, "ok fine"},
		{"lines joined", `printf 'wrong answer\nline 2\n' >&2; exit 1`, verdict.WA, "wrong answer | line 2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			x := &External{Command: Command{Name: "check.sh", Argv: []string{writeScript(t, tt.body)}}, Protocol: Testlib}
			r, err := x.Check(context.Background(), extFiles)
			got, msg := r.Verdict, r.Message
			if err != nil {
				got, msg = verdict.JE, err.Error()
			}
			if got != tt.want || !strings.Contains(msg, tt.msg) {
				t.Errorf("got %v %q, want %v with %q", got, msg, tt.want, tt.msg)
			}
		})
	}
}

func TestExternalKattis(t *testing.T) {
	tests := []struct {
		name, body string
		args       []string
		want       verdict.Verdict
		msg        string
	}{
		// input answer feedback_dir/ [flags] < output
		{"ac", `test "$(cat "$1")" = 3 && test "$(cat "$2")" = "0 3" && test "$(cat)" = "1 2" || exit 1
case "$3" in */) ;; *) exit 1 ;; esac
echo "sum is right" > "$3/judgemessage.txt"; exit 42`, nil, verdict.AC, "sum is right"},
		{"wa", `echo "1 + 2 is not 4" > "$3/judgemessage.txt"; exit 43`, nil, verdict.WA, "1 + 2 is not 4"},
		{"team message when no judge message", `echo "try again" > "$3/teammessage.txt"; exit 43`, nil, verdict.WA, "try again"},
		{"stderr when no feedback", `echo "from stderr" >&2; exit 43`, nil, verdict.WA, "from stderr"},
		{"flags after the feedback dir", `test "$4" = case_sensitive && exit 42; exit 43`, []string{"case_sensitive"}, verdict.AC, ""},
		{"exit 0 is je", `exit 0`, nil, verdict.JE, "exit code 0 is not a Kattis verdict"},
		{"exit 1 is je", `echo boom >&2; exit 1`, nil, verdict.JE, "boom"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			x := &External{Command: Command{Name: "validator", Argv: []string{writeScript(t, tt.body)}}, Protocol: Kattis, Args: tt.args}
			r, err := x.Check(context.Background(), extFiles)
			got, msg := r.Verdict, r.Message
			if err != nil {
				got, msg = verdict.JE, err.Error()
			}
			if got != tt.want || !strings.Contains(msg, tt.msg) {
				t.Errorf("got %v %q, want %v with %q", got, msg, tt.want, tt.msg)
			}
		})
	}
}

// TestExternalKattisScore: score.txt and score_multiplier.txt come back
// with the verdict; one that holds no number is JE.
func TestExternalKattisScore(t *testing.T) {
	tests := []struct {
		name, body  string
		want        verdict.Verdict
		score, mult string // "" for none
		err         string
	}{
		{"score", `echo " 37.5 " > "$3/score.txt"; exit 42`, verdict.AC, "37.5", "", ""},
		{"multiplier", `echo 0.25 > "$3/score_multiplier.txt"; exit 42`, verdict.AC, "", "0.25", ""},
		{"score on wa is passed on", `echo 3 > "$3/score.txt"; exit 43`, verdict.WA, "3", "", ""},
		{"no score", `exit 42`, verdict.AC, "", "", ""},
		{"not a number", `echo lots > "$3/score.txt"; exit 42`, verdict.JE, "", "", `score.txt holds "lots", not a number`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			x := &External{Command: Command{Name: "validator", Argv: []string{writeScript(t, tt.body)}}, Protocol: Kattis}
			r, err := x.Check(context.Background(), extFiles)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("got %+v, %v, want an error with %q", r, err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if r.Verdict != tt.want || scoreText(r.Score) != tt.score || scoreText(r.Multiplier) != tt.mult {
				t.Errorf("got %v score %q multiplier %q, want %v %q %q", r.Verdict, scoreText(r.Score), scoreText(r.Multiplier), tt.want, tt.score, tt.mult)
			}
		})
	}
}

func scoreText(x *float64) string {
	if x == nil {
		return ""
	}
	return strconv.FormatFloat(*x, 'g', -1, 64)
}

func TestExternalTimeout(t *testing.T) {
	x := &External{Command: Command{Name: "slow", Argv: []string{writeScript(t, "sleep 30 & sleep 30\n")}, Timeout: 200 * time.Millisecond}, Protocol: Testlib}
	_, err := x.Check(context.Background(), extFiles)
	if err == nil || !strings.Contains(err.Error(), "no verdict within 200ms") {
		t.Errorf("got %v, want a timeout error", err)
	}
}

func TestExternalMissingProgram(t *testing.T) {
	x := &External{Command: Command{Name: "gone", Argv: []string{"/no/such/checker"}}, Protocol: Kattis}
	if _, err := x.Check(context.Background(), extFiles); err == nil {
		t.Error("got no error for a missing program")
	}
}

func TestInputValidator(t *testing.T) {
	tests := []struct {
		name, body string
		input      string
		want       string // "" valid, else a substring of the reason
	}{
		{"valid", `read n; test "$n" -ge 1 && exit 42; exit 43`, "5\n", ""},
		{"invalid", `read n; test "$n" -ge 1 && exit 42; echo "n=$n is below 1"; exit 43`, "0\n", "n=0 is below 1"},
		{"exit 0 is invalid", `exit 0`, "5\n", "exit code 0, want 42"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := &InputValidator{Command: Command{Name: "v.sh", Argv: []string{writeScript(t, tt.body)}}}
			got, err := v.Validate(context.Background(), []byte(tt.input))
			if err != nil {
				t.Fatal(err)
			}
			if (tt.want == "") != (got == "") || !strings.Contains(got, tt.want) {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestUnbuiltFails(t *testing.T) {
	if _, err := (Unbuilt{Path: "output_validators/v"}).Check(context.Background(), extFiles); err == nil {
		t.Error("got no error from an unbuilt checker")
	}
}

func TestParseProtocol(t *testing.T) {
	for _, s := range []string{"testlib", "kattis"} {
		p, err := ParseProtocol(s)
		if err != nil || p.String() != s {
			t.Errorf("ParseProtocol(%q) = %v, %v", s, p, err)
		}
	}
	if _, err := ParseProtocol("polygon"); err == nil {
		t.Error("got no error for an unknown protocol")
	}
}

// BenchmarkExternalKattis is one check by a Kattis-protocol validator that
// accepts at once: the protocol's own cost per test (three files, a
// feedback directory, a process in its own group).
func BenchmarkExternalKattis(b *testing.B) {
	x := &External{Command: Command{Name: "v", Argv: []string{writeScript(b, "exit 42\n")}}, Protocol: Kattis}
	for b.Loop() {
		if r, err := x.Check(context.Background(), extFiles); err != nil || r.Verdict != verdict.AC {
			b.Fatalf("got %v, %v", r, err)
		}
	}
}

// BenchmarkExternalTestlib is the same for the testlib protocol.
func BenchmarkExternalTestlib(b *testing.B) {
	x := &External{Command: Command{Name: "c", Argv: []string{writeScript(b, "exit 0\n")}}, Protocol: Testlib}
	for b.Loop() {
		if r, err := x.Check(context.Background(), extFiles); err != nil || r.Verdict != verdict.AC {
			b.Fatalf("got %v, %v", r, err)
		}
	}
}

// TestExternalOutputLimit: a validator's standard output and error, and
// its feedback directory, are held to Command.Output (validation_output):
// past it the check is an error (JE), never a verdict.
func TestExternalOutputLimit(t *testing.T) {
	for _, tt := range []struct {
		name, body string
		ok         bool
	}{
		{"within", `printf 'fine' > "$3/judgemessage.txt"; echo ok; exit 42`, true},
		{"stdout over", `head -c 5000 /dev/zero; exit 42`, false},
		{"stderr over", `head -c 5000 /dev/zero >&2; exit 43`, false},
		{"feedback over", `head -c 5000 /dev/zero > "$3/judgemessage.txt"; exit 42`, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			x := &External{Command: Command{Name: "v.sh", Argv: []string{writeScript(t, tt.body)}, Output: 4096}, Protocol: Kattis}
			_, err := x.Check(context.Background(), extFiles)
			if tt.ok != (err == nil) || (err != nil && !strings.Contains(err.Error(), "output limit of 4KiB (validation_output)")) {
				t.Errorf("got %v, want ok %v", err, tt.ok)
			}
		})
	}
}

// TestKattisFinding: a finding a puzzle's validator wrote beside its
// message comes back with a WA, never with an AC; a validator that writes
// none gives text only, and a finding that is not JSON is the validator's
// failure, naming the file.
func TestKattisFinding(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "judgemessage.txt"), []byte("case 2, move 1: 'Q' is not a move (A-H)\n"), 0o644)
	r, err := KattisResult("v", 43, dir, nil)
	if err != nil || r.Verdict != verdict.WA || r.Finding != nil {
		t.Fatalf("no finding file: got %+v, %v", r, err)
	}
	os.WriteFile(filepath.Join(dir, FindingFile), []byte(`{"kind":"illegal_move","case":2,"move":1,"token":"Q"}`), 0o644)
	r, err = KattisResult("v", 43, dir, nil)
	if err != nil || r.Finding == nil || r.Finding.Kind != judging.Illegal || r.Finding.Case != 2 || r.Finding.Move != 1 || r.Finding.Token != "Q" {
		t.Fatalf("got %+v (finding %+v), %v", r, r.Finding, err)
	}
	if r, err = KattisResult("v", 42, dir, nil); err != nil || r.Finding != nil {
		t.Errorf("AC: got finding %+v, %v", r.Finding, err)
	}
	os.WriteFile(filepath.Join(dir, FindingFile), []byte(`case 2`), 0o644)
	if _, err := KattisResult("v", 43, dir, nil); err == nil || !strings.Contains(err.Error(), FindingFile) {
		t.Errorf("a finding that is not JSON: got %v, want an error naming %s", err, FindingFile)
	}
}
