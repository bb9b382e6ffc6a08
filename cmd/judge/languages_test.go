package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/optjudge/optjudge/judge"
)

// skipMissing skips the test when lang cannot be built here.
func skipMissing(t *testing.T, lang string) {
	t.Helper()
	j, err := newJudge(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	l, err := j.Languages().ByName(lang)
	if err != nil {
		t.Fatal(err)
	}
	if err := j.Installed(l); err != nil {
		t.Skipf("%v", err)
	}
}

// writeFiles writes files (slash-separated names) below a new directory.
func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestRunLanguages grades clocks solutions through judge run --json, as a
// user would: one in each ICPC language (a Java class of any name), a
// directory of C++ files and one of Java files, and wrong ones, under the
// limits judge run gets (256 MiB; the CPU time raised for the JVM's start
// on a slow, loaded machine).
func TestRunLanguages(t *testing.T) {
	t.Parallel()
	langs := "../../judge/testdata/langs/"
	java := mustReadFile(t, langs+"java/ac.java")
	dir := writeFiles(t, map[string]string{"Clocks.java": strings.Replace(java, "class Clocks {", "public class Clocks {", 1)})
	dirs := "../../judge/testdata/dirs/"
	for _, tt := range []struct {
		lang, sub, verdict string
	}{
		{"java", filepath.Join(dir, "Clocks.java"), "AC"},
		{"java", langs + "java/ac.java", "AC"},
		{"kotlin", langs + "kotlin/ac.kt", "AC"},
		{"rust", langs + "rust/ac.rs", "AC"},
		{"javascript", langs + "javascript/ac.js", "AC"},
		{"cpp", dirs + "cpp", "AC"},
		{"java", dirs + "java", "AC"},
		{"java", langs + "java/wa.java", "WA"},
		{"kotlin", langs + "kotlin/ce.kt", "CE"},
		{"rust", langs + "rust/re.rs", "RE"},
		{"javascript", langs + "javascript/re.js", "RE"},
	} {
		t.Run(tt.lang+" "+filepath.Base(tt.sub), func(t *testing.T) {
			t.Parallel()
			if testing.Short() && tt.lang == "kotlin" {
				t.Skip("-short: kotlinc takes half a minute; java runs on the same JVM")
			}
			if testing.Short() && strings.HasPrefix(tt.sub, langs) {
				t.Skip("-short: one file's verdict in its language; judge's TestLanguages grades every language's, Clocks.java and the directories run here")
			}
			skipMissing(t, tt.lang)
			var out, errs bytes.Buffer
			e := &env{stdin: strings.NewReader(""), stdout: &out, stderr: &errs}
			code := e.main([]string{"run", "clocks", tt.sub, "--tests", "../../judge/testdata/clocks", "--memory-limit", "256M",
				"--json", "--time-limit", "10s", "--wall-limit", "60s"})
			var r judge.Report
			if err := json.Unmarshal(out.Bytes(), &r); err != nil {
				t.Fatalf("exit %d, %v:\n%s%s", code, err, out.String(), errs.String())
			}
			want := exitRejected
			if tt.verdict == "AC" {
				want = exitOK
			}
			if code != want || r.Verdict.String() != tt.verdict || r.Language != tt.lang {
				t.Errorf("got exit %d, %s in %s, want %d, %s in %s:\n%s", code, r.Verdict, r.Language, want, tt.verdict, tt.lang, out.String())
			}
		})
	}
}

// TestRunRefuses: judge run exits 2 with a clear message, never a JE, for
// a file of no language (named with its ending and the languages known)
// and for a language whose compiler is not installed.
func TestRunRefuses(t *testing.T) {
	dir := writeFiles(t, map[string]string{"notes.txt": "my notes\n", "sol.kt": "fun main() {}\n"})
	for _, tt := range []struct {
		name, sub, path, want string
	}{
		{"no language", "notes.txt", "", `notes.txt: no language for extension ".txt" (known: c, cpp, go, python3,`},
		{"no compiler", "sol.kt", t.TempDir(), "judge run: Kotlin: kotlinc not found (Debian: apt-get install kotlin)\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if tt.path != "" {
				t.Setenv("PATH", tt.path)
			}
			var out, errs bytes.Buffer
			e := &env{stdin: strings.NewReader(""), stdout: &out, stderr: &errs}
			code := e.main([]string{"run", "clocks", filepath.Join(dir, tt.sub), "--tests", "../../judge/testdata/clocks"})
			if code != exitError || !strings.Contains(errs.String(), tt.want) {
				t.Errorf("got exit %d, %q, want %d and %q", code, errs.String(), exitError, tt.want)
			}
		})
	}
}

func mustReadFile(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
