package judge

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDetect: a file's language comes from its ending, exactly or in
// another case where no language has that case; a .py file's #! line makes
// it Python 2; PyPy, explicit, is never detected; a directory takes the
// language most of its files have.
func TestDetect(t *testing.T) {
	t.Parallel()
	langs := DefaultLanguages()
	for _, tt := range []struct {
		name  string
		files map[string]string // name: first line
		want  string            // "" for none
	}{
		{"c", map[string]string{"a.c": ""}, "c"},
		{"upper-case C is C++", map[string]string{"a.C": ""}, "cpp"},
		{"another case", map[string]string{"A.CPP": ""}, "cpp"},
		{"python 3 by default", map[string]string{"a.py": "import sys"}, "python3"},
		{"python 3 shebang", map[string]string{"a.py": "#!/usr/bin/env python3"}, "python3"},
		{"python 2 shebang", map[string]string{"a.py": "#!/usr/bin/env python2"}, "python2"},
		{"python 2 shebang, version", map[string]string{"a.py": "#!/usr/bin/python2.7"}, "python2"},
		{".py2", map[string]string{"a.py2": ""}, "python2"},
		{"java", map[string]string{"Clocks.java": ""}, "java"},
		{"kotlin", map[string]string{"a.kt": ""}, "kotlin"},
		{"rust", map[string]string{"a.rs": ""}, "rust"},
		{"javascript", map[string]string{"a.js": ""}, "javascript"},
		{"lisp", map[string]string{"a.cl": ""}, "lisp"},
		{"bash", map[string]string{"a.sh": ""}, "bash"},
		{"text", map[string]string{"notes.txt": ""}, ""},
		{"no ending", map[string]string{"Makefile": ""}, ""},
		{"most files win", map[string]string{"a.cpp": "", "b.cpp": "", "c.c": "", "d.h": ""}, "cpp"},
		{"python 2 only where every .py says so", map[string]string{"a.py": "#!/usr/bin/env python2", "b.py": ""}, "python3"},
		{"all python 2", map[string]string{"a.py": "#!/usr/bin/env python2", "b.py": "#! /usr/bin/python2"}, "python2"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var names []string
			for n := range tt.files {
				names = append(names, n)
			}
			got := ""
			if l := langs.detect(names, func(f string) []byte { return []byte(tt.files[f]) }); l != nil {
				got = l.Name
			}
			if got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

// TestDetectContent: the service detects from a name and a source.
func TestDetectContent(t *testing.T) {
	t.Parallel()
	langs := DefaultLanguages()
	if l, err := langs.Detect("sol.py", []byte("#!/usr/bin/env python2\nprint 1\n")); err != nil || l.Name != "python2" {
		t.Errorf("python 2: got %v, %v", l, err)
	}
	var ule *UnknownLanguageError
	if _, err := langs.Detect("notes.txt", []byte("hello")); !errors.As(err, &ule) || ule.Ext != ".txt" || !strings.Contains(err.Error(), "known: c, cpp") {
		t.Errorf("a text file: got %v, want an *UnknownLanguageError naming .txt and the languages", err)
	}
}

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
	langs := DefaultLanguages()
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
			s, err := langs.resolve(tt.path, tt.force, "", "")
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
// bit and all, with an *UnknownLanguageError, before anything is copied or
// run.
func TestUnknownLanguageNeverRun(t *testing.T) {
	t.Parallel()
	j := newJudge(t)
	src := filepath.Join(t.TempDir(), "notes.txt")
	if err := os.WriteFile(src, []byte("touch ran\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	var ule *UnknownLanguageError
	if _, err := j.Prepare(context.Background(), Submission{Path: src}, BuildOptions{}); !errors.As(err, &ule) {
		t.Fatalf("got %v, want an *UnknownLanguageError", err)
	}
	if _, err := j.BuildKey(Submission{Path: src}, BuildOptions{}); !errors.As(err, &ule) {
		t.Errorf("BuildKey: got %v, want an *UnknownLanguageError", err)
	}
	ents, _ := os.ReadDir(j.tmp)
	for _, e := range ents {
		if e.Name() != lockName {
			t.Errorf("the judge's directory has %s: want nothing made", e.Name())
		}
	}
}

// TestNotInstalled: a language whose compiler is not on the PATH is a
// *NotInstalledError naming it and its Debian package.
func TestNotInstalled(t *testing.T) {
	t.Parallel()
	j := newJudge(t)
	j.cfg.Path = t.TempDir()
	var ni *NotInstalledError
	_, err := j.Prepare(context.Background(), Submission{Path: writeSource(t, "a.kt", "fun main() {}\n")}, BuildOptions{})
	if !errors.As(err, &ni) || err.Error() != "Kotlin: kotlinc not found (Debian: apt-get install kotlin)" {
		t.Errorf("got %v, want a *NotInstalledError for kotlinc", err)
	}
}

// TestLanguageTable: the embedded table is valid, every language has a
// title, a version command and (but Python 2, which Debian 12 dropped) a
// Debian package; a table with a bad placeholder or shebang is refused.
func TestLanguageTable(t *testing.T) {
	t.Parallel()
	for _, l := range DefaultLanguages().List {
		if l.Title == "" || len(l.Version) == 0 || (l.Debian == "" && l.Name != "python2") {
			t.Errorf("%s: title %q, version %q, debian %q: want all three", l.Name, l.Title, l.Version, l.Debian)
		}
	}
	for _, tt := range []struct{ table, err string }{
		{"run: [x, \"{memlimt}\"]", "run[1]: unknown placeholder {memlimt}"},
		{"run: [x, \"{mainclass}\"]", "run[1]: unknown placeholder {mainclass}"},
		{"compile: [cc, \"-I{files}\"]\n    run: [x]", "compile[1]: {files} must be a whole argument"},
		{"run: [x]\n    shebang: '('\n    shebang_extensions: [.x]", "shebang: error parsing regexp"},
		{"run: [x]\n    shebang: 'x'", "shebang and shebang_extensions: give both or neither"},
		{"run: [x]\n    main_class: true", "main_class: needs a compile command"},
		{"run: [x]\n    extensions: [x]", "extensions[0]: want an ending such as .cpp"},
	} {
		_, err := ParseLanguages(strings.NewReader("languages:\n  - name: x\n    "+tt.table+"\n"), "t.yaml")
		if err == nil || !strings.Contains(err.Error(), tt.err) {
			t.Errorf("%q: got %v, want %q", tt.table, err, tt.err)
		}
	}
	langs, err := ParseLanguages(strings.NewReader("languages:\n  - name: a\n    aliases: [b]\n    run: [x]\n  - name: b\n    run: [y]\n"), "t.yaml")
	if err == nil || !strings.Contains(err.Error(), `name "b" appears twice`) {
		t.Errorf("an alias that is another's name: got %v, %v", langs, err)
	}
	if l, err := DefaultLanguages().ByName("python"); err != nil || l.Name != "python3" {
		t.Errorf("the alias python: got %v, %v, want python3", l, err)
	}
}
