package judge

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/optjudge/optjudge/judge/lang"
)

// TestEntryFile: a directory's program starts from __main__, else main in
// any case, else the only source, else the first by name; a top-level file
// before one in a directory.
func TestEntryFile(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		sources []string
		want    string
	}{
		{[]string{"a.py"}, "a.py"},
		{[]string{"__main__.py", "a.py", "main.py"}, "__main__.py"},
		{[]string{"a.py", "main.py"}, "main.py"},
		{[]string{"Helper.java", "Main.java"}, "Main.java"},
		{[]string{"b.py", "c.py"}, "b.py"},
		{[]string{"pkg/main.py", "z.py"}, "z.py"},
		{[]string{"pkg/a.py", "pkg/main.py"}, "pkg/main.py"},
	} {
		if got := entryFile(tt.sources); got != tt.want {
			t.Errorf("%q: got %s, want %s", tt.sources, got, tt.want)
		}
	}
}

// TestResolve: what the judge makes of a submission on disk: the files it
// copies, its entry, and what it refuses (a file of no language that is
// no program, a directory of none, a link in a directory).
func TestResolve(t *testing.T) {
	t.Parallel()
	langs := lang.Default()
	dir := t.TempDir()
	write := func(name, content string, mode os.FileMode) string {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(content), mode); err != nil {
			t.Fatal(err)
		}
		return p
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	write("multi/main.cpp", "int main(){}", 0o644)
	write("multi/util.cpp", "", 0o644)
	write("multi/util.h", "", 0o644)
	write("multi/.util.cpp.swp", "", 0o644)
	write("multi/util.cpp~", "", 0o644)
	write("linked/main.cpp", "", 0o644)
	os.Symlink("/etc/passwd", filepath.Join(dir, "linked", "passwd.cpp"))
	write("texts/a.txt", "", 0o644)

	for _, tt := range []struct {
		name, path, force string
		lang              string // "" for an executable
		files             string
		err               string // a substring of the error
	}{
		{"one file keeps its name", write("Clocks.java", "", 0o644), "", "java", "Clocks.java", ""},
		{"go builds main.go", write("sol.go", "", 0o644), "", "go", "main.go", ""},
		{"a name that is not safe", write("-x.py", "", 0o644), "", "python3", "main.py", ""},
		{"forced, another ending", write("sol.txt", "", 0o644), "cpp", "cpp", "sol.cpp", ""},
		{"directory", filepath.Join(dir, "multi"), "", "cpp", "main.cpp util.cpp util.h", ""},
		{"an ELF executable", self, "", "", "main.exe", ""},
		{"a #! script", write("run", "#!/bin/sh\necho 1\n", 0o755), "", "", "main.exe", ""},
		{"a #! script with no interpreter", write("run2", "#!/opt/nowhere/ruby\n", 0o755), "", "", "", "interpreter /opt/nowhere/ruby is not installed"},
		{"env and a missing program", write("run3", "#!/usr/bin/env no-such-interpreter\n", 0o755), "", "", "", "no-such-interpreter is not installed"},
		{"text, executable bit or not", write("notes.txt", "just words\n", 0o755), "", "", "", `no language for extension ".txt"`},
		{"a directory of no language", filepath.Join(dir, "texts"), "", "", "", "no source file of a known language"},
		{"a link in a directory", filepath.Join(dir, "linked"), "", "", "", "passwd.cpp: a symbolic link"},
		{"unknown language name", write("a.c", "", 0o644), "cobol", "", "", `unknown language "cobol"`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s, err := resolve(langs, tt.path, tt.force, "", "")
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Errorf("got %v, want an error with %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			lang := ""
			if s.lang != nil {
				lang = s.lang.Name
			}
			if lang != tt.lang || strings.Join(s.files, " ") != tt.files {
				t.Errorf("got %s %q, want %s %q", lang, s.files, tt.lang, tt.files)
			}
		})
	}
}

// TestUnknownLanguageNeverRun: Prepare refuses a text file, executable
// bit and all, with an *lang.UnknownError, before anything is copied or
// run.
func TestUnknownLanguageNeverRun(t *testing.T) {
	t.Parallel()
	j := newJudge(t)
	src := filepath.Join(t.TempDir(), "notes.txt")
	if err := os.WriteFile(src, []byte("touch ran\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	var ule *lang.UnknownError
	if _, err := j.Prepare(context.Background(), Submission{Path: src}, BuildOptions{}); !errors.As(err, &ule) {
		t.Fatalf("got %v, want an *lang.UnknownError", err)
	}
	if _, err := j.BuildKey(Submission{Path: src}, BuildOptions{}); !errors.As(err, &ule) {
		t.Errorf("BuildKey: got %v, want an *lang.UnknownError", err)
	}
	ents, _ := os.ReadDir(j.tmp)
	for _, e := range ents {
		if e.Name() != lockName {
			t.Errorf("the judge's directory has %s: want nothing made", e.Name())
		}
	}
}

// TestNotInstalled: a language whose compiler is not on the PATH is a
// *lang.NotInstalledError naming it and its Debian package.
func TestNotInstalled(t *testing.T) {
	t.Parallel()
	j := newJudgeConfig(t, Config{Path: t.TempDir()})
	var ni *lang.NotInstalledError
	_, err := j.Prepare(context.Background(), Submission{Path: writeSource(t, "a.kt", "fun main() {}\n")}, BuildOptions{})
	if !errors.As(err, &ni) || err.Error() != "Kotlin: kotlinc not found (Debian: apt-get install kotlin)" {
		t.Errorf("got %v, want a *lang.NotInstalledError for kotlinc", err)
	}
}
