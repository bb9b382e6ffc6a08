package service

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/optjudge/optjudge/judge"
	"github.com/optjudge/optjudge/problems"
)

// copyPackage copies the package at dir into a temporary directory of the
// test, under its own name.
func copyPackage(t *testing.T, dir string) string {
	t.Helper()
	root := filepath.Join(t.TempDir(), filepath.Base(dir))
	if err := os.CopyFS(root, os.DirFS(dir)); err != nil {
		t.Fatal(err)
	}
	return root
}

// upload sends the package at root and returns the problem's name.
func upload(t *testing.T, e *env, root string) string {
	t.Helper()
	var up UploadedProblem
	if code := e.do("POST", "/api/v1/problems", bytes.NewReader(tarGz(t, root)), map[string]string{"Content-Type": "application/gzip"}, &up); code != http.StatusCreated {
		t.Fatalf("uploading %s: got %d, want 201", filepath.Base(root), code)
	}
	return up.Name
}

// TestUploadPrograms: packages with programs upload through the API and
// are graded on a worker, which builds their programs from the package in
// NATS and runs them in boxes of their own: a legacy package with a C++
// output validator and a 2025-09 interactive package whose interactor
// builds with its own scripts. An accepted and a wrong submission of each
// get AC and WA. (Time limits of 10 s: the submissions are quick, and
// a busy machine must not make them TLE.)
func TestUploadPrograms(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOpts{})
	validated := copyPackage(t, "../../problems/sum-kattis")
	writeProblemFile(t, validated, ".timelimit", "10\n")
	interactive := copyPackage(t, "../../problems/testdata/guess-interactive")
	spec, err := os.ReadFile(filepath.Join(interactive, "problem.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	writeProblemFile(t, interactive, "problem.yaml", strings.Replace(string(spec), "time_limit: 1\n", "time_limit: 10\n", 1))
	e.startWorker("w", newEngine(t, false))
	want := map[string]string{}
	for _, pk := range []struct {
		root   string
		ac, wa string
	}{
		{validated, "accepted/digits.py", "wrong_answer/zero_and_n.py"},
		{interactive, "accepted/bisect.py", "wrong_answer/linear.py"},
	} {
		name := upload(t, e, pk.root)
		for sub, v := range map[string]string{pk.ac: "AC", pk.wa: "WA"} {
			src, err := os.ReadFile(filepath.Join(pk.root, "submissions", sub))
			if err != nil {
				t.Fatal(err)
			}
			want[e.submit(name, filepath.Base(sub), string(src))] = v
		}
	}
	ids := make([]string, 0, len(want))
	for id := range want {
		ids = append(ids, id)
	}
	checkOnce(t, e.waitDone(10*time.Minute, ids...), want, 1)
}

// TestUploadedProgramsContained: an uploaded package's checker program
// runs in its box on the worker: one that tries to leave a file on the
// machine cannot. (It accepts, by the format's exit code 42, when it could
// not, and rejects when it could: its verdict is its exit code's.)
func TestUploadedProgramsContained(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("-short: every kind of uploaded program tries to escape its box; TestUploadPrograms builds and runs them")
	}
	e := newEnv(t, envOpts{})
	eng := newEngine(t, false)
	if eng.Isolation() == "none" {
		t.Skip("isolation none (no namespaces here): the problem's programs are not contained")
	}
	dir := t.TempDir()
	if err := os.Chmod(dir, 0o777); err != nil { // only the box stands in its way
		t.Fatal(err)
	}
	marker := filepath.Join(dir, "ran")
	root := copyClocks(t, t.TempDir(), "Programmed Clocks")
	// an output validator of the package's own, in place of its puzzle's
	writeProblemFile(t, root, "output_validator/check.py", fmt.Sprintf("try:\n    open(%q, 'w').write('ran')\nexcept OSError:\n    raise SystemExit(42)\nraise SystemExit(43)\n", marker))
	name := upload(t, e, root)
	e.startWorker("w", eng)
	id := e.submit(name, "wa.py", "print(1)\n")
	got := e.waitDone(5*time.Minute, id)
	checkOnce(t, got, map[string]string{id: "AC"}, 1)
	if _, err := os.Stat(marker); err == nil {
		t.Error("the package's checker left its file on the machine")
	}
}

// cannotBuildEngine is a worker's engine on a machine without the
// compiler of the problems' programs.
type cannotBuildEngine struct{ scriptEngine }

func (cannotBuildEngine) Grade(ctx context.Context, p *problems.Problem, src Source, progress func(judge.TestResult)) (*Graded, error) {
	return nil, &judge.CannotBuildError{Program: "output_validators/check", Err: errors.New("C++: g++ not found")}
}

// TestWorkerCannotBuild: a worker that cannot build a problem's program
// refuses the job, which another worker grades; when no live worker can,
// the job is JE with each worker's reason, for the admins.
func TestWorkerCannotBuild(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOpts{ackWait: time.Second})
	bare := e.startWorker("bare", cannotBuildEngine{})
	full := e.startWorker("full", scriptEngine{})
	id := e.submit("clocks", "ok.py", "ok")
	checkOnce(t, e.waitDone(time.Minute, id), map[string]string{id: "AC"}, 1)
	full.halt()
	id = e.submit("clocks", "ok.py", "ok")
	got := e.waitDone(time.Minute, id)
	checkOnce(t, got, map[string]string{id: "JE"}, 1)
	if msg := got[id].Judgings[0].Message; !strings.Contains(msg, "g++ not found") || !strings.Contains(msg, "bare") {
		t.Errorf("JE message: got %q, want the worker's reason", msg)
	}
	bare.halt()
}
