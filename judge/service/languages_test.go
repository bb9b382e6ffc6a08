package service

import (
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
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
	// a JVM spends a good part of clocks' 1 s of CPU starting on a busy
	// machine: the server and the worker grade on a copy with 10 s
	dir := t.TempDir()
	root := copyClocks(t, dir, "The Clocks")
	spec, _ := os.ReadFile(filepath.Join(root, "problem.yaml"))
	writeProblemFile(t, root, "problem.yaml", strings.Replace(string(spec), "time_limit: 1\n", "time_limit: 10\n", 1))
	lib, err := NewLibrary(e.store, dir, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { lib.Close() })
	if p, _ := lib.Current(t.Context(), "clocks"); p == nil || p.Limits.Time != 10*time.Second {
		t.Fatalf("the copy of clocks: got %+v, want a 10 s limit", p)
	}
	api := NewServer(ServerConfig{Store: e.store, Library: lib})
	t.Cleanup(func() { api.Close() })
	e.http = httptest.NewServer(api.Handler())
	t.Cleanup(e.http.Close)
	e.startWorkerWith(WorkerConfig{Name: "w1", Store: e.store, Library: lib, Engine: newEngine(t, false)})
	java := e.submit("clocks", "Clocks.java", readFile(t, "Clocks.java"))
	got := e.waitDone(3*time.Minute, java)
	if v := got[java]; v.Verdict != "AC" || v.Language != "java" {
		t.Errorf("Clocks.java: got %s in %s, want AC in java: %+v", v.Verdict, v.Language, v.Report)
	}
}
