package service

import (
	"net/http"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// TestSubmitLanguages: the submit path takes a submission's language from
// the engine's table, its file's name and its first line: a file of no
// language is refused with 400 and never queued (never run); a .py file
// with a python2 #! line is Python 2. A Java class in the file of its own
// name (the worker keeps the contestant's file name) is graded AC.
func TestSubmitLanguages(t *testing.T) {
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
	e.startWorker("w1", newEngine(t, false))
	java := e.submit("clocks", "Clocks.java", readFile(t, "Clocks.java"))
	got := e.waitDone(3*time.Minute, java)
	if v := got[java]; v.Verdict != "AC" || v.Language != "java" {
		t.Errorf("Clocks.java: got %s in %s, want AC in java: %+v", v.Verdict, v.Language, v.Report)
	}
}
