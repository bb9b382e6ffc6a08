package service

import (
	"bytes"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/optjudge/optjudge/verdict"
)

// TestSubmitLanguages: the submit path takes a submission's language from
// the engine's table, its file's name and its first line: a file of no
// language is refused with 400 and never queued (never run); a .py file
// with a python2 #! line is Python 2. A Java class in the file of its own
// name (the worker keeps the contestant's file name) is graded AC.
func TestSubmitLanguages(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("-short: a submission in every language through the service; TestSubmitAndGrade grades one, judge's TestLanguages every language")
	}
	e := newEnv(t, envOpts{})
	var out struct{ Error string }
	code := e.do("POST", "/api/v1/submissions", jsonBody(SubmitRequest{Problem: "clocks", Filename: "notes.txt", Source: "touch ran\n"}), nil, &out)
	if code != http.StatusBadRequest || !strings.Contains(out.Error, `notes.txt: no language for extension ".txt" (known: c, cpp,`) {
		t.Errorf("a text file: got %d %q, want 400 naming .txt and the languages", code, out.Error)
	}
	var list struct{ Submissions []SubmissionView }
	if e.do("GET", "/api/v1/submissions", nil, nil, &list); len(list.Submissions) != 0 {
		t.Errorf("after the refusal: %d submissions, want none", len(list.Submissions))
	}
	py2 := e.submit("clocks", "old.py", "#!/usr/bin/env python2\nprint 1\n")
	if v := e.get(py2); v.Language != "python2" {
		t.Errorf("a python2 #! line: got language %q, want python2", v.Language)
	}

	for _, tool := range []string{"javac", "java"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("Java: %s is not installed", tool)
		}
	}
	// the JVM's start takes a third of a second of CPU here, a third of
	// clocks' 1 s limit: a busy machine makes it TLE. A copy of clocks
	// with a generous limit, uploaded, so that only the class name is on
	// trial.
	root := copyClocks(t, t.TempDir(), "The Clocks")
	spec := filepath.Join(root, "problem.yaml")
	b, _ := os.ReadFile(spec)
	if err := os.WriteFile(spec, bytes.Replace(b, []byte("time_limit: 1\n"), []byte("time_limit: 10\n"), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	if code := e.do("POST", "/api/v1/problems", bytes.NewReader(tarGz(t, root)), map[string]string{"Content-Type": "application/gzip"}, nil); code != http.StatusCreated {
		t.Fatalf("uploading clocks with a 10 s limit: got %d", code)
	}
	e.startWorker("w1", newEngine(t, false))
	java := e.submit("clocks", "Clocks.java", readFile(t, "Clocks.java"))
	got := e.waitDone(3*time.Minute, java)
	if v := got[java]; v.Verdict != verdict.AC || v.Language != "java" {
		t.Errorf("Clocks.java: got %s in %s, want AC in java: %+v", v.Verdict, v.Language, v.Report)
	}
}
