package kattis_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/optjudge/optjudge/bytesize"
	"github.com/optjudge/optjudge/problems"
	"github.com/optjudge/optjudge/problems/kattis"
)

// withoutNameWarning drops the warning about a package directory's name
// with a '-' (the test packages are named so).
func withoutNameWarning(ws []kattis.Warning) []kattis.Warning {
	return slices.DeleteFunc(slices.Clone(ws), func(w kattis.Warning) bool {
		return strings.Contains(w.Msg, "the package directory's name")
	})
}

// TestPackageNames: a package loads whatever its directory's name; one
// the format disallows is a Defect (problemtools' error), one whose only
// fault is a '-' a warning.
func TestPackageNames(t *testing.T) {
	for _, tt := range []struct {
		name            string
		defects, warned bool
	}{
		{"hello", false, false},
		{"i2", false, false},
		{"I", true, false},
		{"sum_x", true, false},
		{"Bad_Name", true, false},
		{"sum-x", false, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p, err := problems.LoadDir(writeTree(t, tt.name, map[string]string{"problem.yaml": "", "data/secret/1.in": "1\n", "data/secret/1.ans": "1\n"}))
			if err != nil {
				t.Fatalf("got %v, want the package loaded", err)
			}
			if p.Name != tt.name {
				t.Errorf("got name %q, want %q", p.Name, tt.name)
			}
			if got := len(p.Package.Defects) == 1; got != tt.defects || len(p.Package.Defects) > 1 {
				t.Errorf("got defects %v, want one: %v", p.Package.Defects, tt.defects)
			}
			warned := len(withoutNameWarning(p.Package.Warnings)) != len(p.Package.Warnings)
			if warned != tt.warned {
				t.Errorf("got warnings %v, want the name's: %v", p.Package.Warnings, tt.warned)
			}
			if tt.defects && !strings.Contains(p.Package.Defects[0].Msg, "lower-case letters a-z and digits 0-9 only") {
				t.Errorf("got %v, want the format's rule", p.Package.Defects[0])
			}
		})
	}
}

// TestLayoutWithoutData: a Kattis package without data/ (its generators
// make it) is read as one, not as a native problem whose strict spec
// refuses the Kattis keys.
func TestLayoutWithoutData(t *testing.T) {
	for _, spec := range []string{
		"name: Hello\nauthor: Someone\n",
		"problem_format_version: 2025-09\nname: Hello\nuuid: 1\n",
	} {
		p, err := problems.LoadDir(writeTree(t, "hello", map[string]string{"problem.yaml": spec}))
		if err != nil {
			t.Fatalf("%q: got %v, want a Kattis package", spec, err)
		}
		if p.Package.Layout != kattis.LayoutKattis {
			t.Errorf("%q: got layout %v, want kattis", spec, p.Package.Layout)
		}
	}
	p, err := problems.LoadDir(writeTree(t, "native", map[string]string{"problem.yaml": "name: native\ntitle: Native\n"}))
	if err != nil || p.Package.Layout != kattis.LayoutNative {
		t.Errorf("got %v, %v; want a native problem", p, err)
	}
}

// TestLegacyKeys: every key of each version is read; a legacy key in a
// legacy package is no warning, in a 2025-09 one a warning.
func TestLegacyKeys(t *testing.T) {
	legacy := "name: Hello\nauthor: Some One\nsource: NWERC\nsource_url: https://nwerc.example\nlicense: cc by-sa\nrights_owner: x\nkeywords: a b\nvalidation: default\nvalidator_flags: case_sensitive\nlimits: {time_multiplier: 5, time_safety_margin: 2, memory: 512, output: 8, code: 128, compilation_time: 60, compilation_memory: 2048, validation_time: 60, validation_memory: 2048, validation_output: 8}\n"
	p, err := problems.LoadDir(writeTree(t, "hello", map[string]string{"problem.yaml": legacy, "data/secret/1.in": "1\n", "data/secret/1.ans": "1\n"}))
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Package.Warnings) > 0 {
		t.Errorf("got warnings %v, want none: every key is a legacy one", p.Package.Warnings)
	}
	modern := "problem_format_version: 2025-09\nname: Hello\nuuid: 1\nauthor: Some One\n"
	p, err = problems.LoadDir(writeTree(t, "hello", map[string]string{"problem.yaml": modern, "data/secret/1.in": "1\n", "data/secret/1.ans": "1\n"}))
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Package.Warnings) != 1 || p.Package.Warnings[0].Field != "author" || !strings.Contains(p.Package.Warnings[0].Msg, "not a key of format 2025-09") {
		t.Errorf("got warnings %v, want one about author", p.Package.Warnings)
	}
}

// TestLinks: a symbolic link within the package is followed; one out of
// it, or to nothing, is an error naming it.
func TestLinks(t *testing.T) {
	dir := writeTree(t, "hello", map[string]string{"problem.yaml": "", "data/secret/1.in": "1\n", "data/secret/1.ans": "1\n", "shared/2.in": "2\n", "shared/2.ans": "2\n"})
	for _, f := range []string{"2.in", "2.ans"} {
		if err := os.Symlink("../../shared/"+f, filepath.Join(dir, "data/secret", f)); err != nil {
			t.Fatal(err)
		}
	}
	p, err := problems.LoadDir(dir)
	if err != nil {
		t.Fatalf("got %v, want links within the package followed", err)
	}
	if ts, err := p.Package.Tests(); err != nil || len(ts) != 2 {
		t.Errorf("got tests %v, %v; want 2, one through links", ts, err)
	}
	out := filepath.Join(t.TempDir(), "secret.txt")
	os.WriteFile(out, []byte("x"), 0o644)
	for _, target := range []string{out, "../nowhere"} {
		link := filepath.Join(dir, "data/secret/3.in")
		os.Remove(link)
		if err := os.Symlink(target, link); err != nil {
			t.Fatal(err)
		}
		if _, err := problems.LoadDir(dir); err == nil || !strings.Contains(err.Error(), "3.in: a symbolic link") {
			t.Errorf("link to %s: got %v, want an error naming the link", target, err)
		}
	}
}

// TestProgramFolderFiles: a file of no language in a program folder is
// no program of its own: it is copied beside the folder's programs, with a
// warning unless it is a header.
func TestProgramFolderFiles(t *testing.T) {
	p, err := problems.LoadDir(writeTree(t, "hello", map[string]string{
		"problem.yaml":                      "validation: custom\n",
		"data/secret/1.in":                  "1\n",
		"data/secret/1.ans":                 "1\n",
		"input_validators/validate.py":      "",
		"input_validators/README.txt":       "how to run it\n",
		"input_validators/testlib.h":        "",
		"output_validators/validator.cpp":   "",
		"output_validators/testlib.h":       "",
		"output_validators/Makefile":        "",
		"input_validators/dir/validate.cpp": "",
	}))
	if err != nil {
		t.Fatalf("got %v, want the package loaded (a header is no program)", err)
	}
	var paths []string
	for _, v := range p.Package.InputValidators {
		paths = append(paths, v.Path)
	}
	if want := []string{"input_validators/dir", "input_validators/validate.py"}; !slices.Equal(paths, want) {
		t.Errorf("got input validators %v, want %v", paths, want)
	}
	if want := []string{"input_validators/README.txt", "input_validators/testlib.h"}; !slices.Equal(p.Package.InputValidators[1].Files, want) {
		t.Errorf("got files %v beside validate.py, want %v", p.Package.InputValidators[1].Files, want)
	}
	if p.Package.InputValidators[0].Files != nil {
		t.Errorf("got files %v for a directory program, want none", p.Package.InputValidators[0].Files)
	}
	if c := p.Package.Validation.Program; c == nil || c.Path != "output_validators/validator.cpp" || !slices.Equal(c.Files, []string{"output_validators/Makefile", "output_validators/testlib.h"}) {
		t.Errorf("got output validator %+v, want validator.cpp with Makefile and testlib.h beside it", c)
	}
	var warned []string
	for _, w := range p.Package.Warnings {
		warned = append(warned, filepath.Base(w.File))
	}
	if want := []string{"README.txt", "Makefile"}; !slices.Equal(warned, want) {
		t.Errorf("got warnings %v, want one for each of %v", p.Package.Warnings, want)
	}
}

// TestConstants: problem.yaml's constants are substituted in the files
// the format lists (a group's test_group.yaml here, and ReadFile's), a
// sequence of no constant is a warning with its file and line, and a bad
// constant an error naming it.
func TestConstants(t *testing.T) {
	spec := "problem_format_version: 2025-09\nname: c\nuuid: 1\nconstants:\n  n: 5\n  eps: 1e-6\n  big: {value: 1000000, tex: \"10^6\"}\n"
	p, err := problems.LoadDir(writeTree(t, "c", map[string]string{
		"problem.yaml":                 spec,
		"data/secret/test_group.yaml":  "args: [\"{{n}}\", \"{{big.tex}}\"]\noutput_validator_args: [float_tolerance, \"{{eps}}\"]\n",
		"data/secret/1.in":             "{{n}}\n",
		"data/secret/1.ans":            "5\n",
		"input_validators/validate.py": "N = {{n}}\nM = {{m}}\n",
		"submissions/accepted/a.py":    "print({{big}})\n",
	}))
	if err != nil {
		t.Fatal(err)
	}
	ts, err := p.Package.Tests()
	if err != nil || len(ts) != 1 {
		t.Fatalf("got tests %v, %v", ts, err)
	}
	if c := ts[0].Config; !slices.Equal(c.Args, []string{"5", "10^6"}) || !slices.Equal(c.OutputValidatorArgs, []string{"float_tolerance", "1e-6"}) {
		t.Errorf("got args %q and validator args %q, want the constants in place", c.Args, c.OutputValidatorArgs)
	}
	if in, _ := ts[0].Input(); string(in) != "{{n}}\n" {
		t.Errorf("got input %q, want test data as it is", in)
	}
	if b, err := p.Package.ReadFile("submissions/accepted/a.py"); err != nil || string(b) != "print(1000000)\n" {
		t.Errorf("got %q, %v; want print(1000000)", b, err)
	}
	ws := withoutNameWarning(p.Package.Warnings)
	if len(ws) != 1 || ws[0].Line != 2 || !strings.HasSuffix(ws[0].File, "input_validators/validate.py") || !strings.Contains(ws[0].Msg, "{{m}} names no constant") {
		t.Errorf("got warnings %v, want one for {{m}} on line 2 of validate.py", ws)
	}
	for _, tt := range []struct{ constants, want string }{
		{"  1x: 2\n", `constants.1x: "1x" is not a constant name`},
		{"  a: {tex: x}\n", "constants.a: a mapping without the required key value"},
		{"  a: true\n", "constants.a: got the boolean true, want an integer, a float, a string or a mapping"},
		{"  a: {value: 1, b: [1]}\n", "constants.a.b: got a list"},
	} {
		_, err := problems.LoadDir(writeTree(t, "c", map[string]string{"problem.yaml": "problem_format_version: 2025-09\nname: c\nuuid: 1\nconstants:\n" + tt.constants}))
		if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), "problem.yaml:5") {
			t.Errorf("%q: got %v, want problem.yaml:5 and %q", tt.constants, err, tt.want)
		}
	}
}

func TestSubstitute(t *testing.T) {
	c := kattis.Constants{"n": "5", "n.value": "5", "n.tex": "five"}
	for _, tt := range []struct{ in, want string }{
		{"{{n}} {{n.value}} {{n.tex}}", "5 5 five"},
		{"{{ n }} {{m}} {{n.other}} {n} {{{n}}}", "{{ n }} {{m}} {{n.other}} {n} {5}"},
		{"vector<vector<int>> v = {{1, 2}};", "vector<vector<int>> v = {{1, 2}};"},
		{"bin\x00{{n}}", "bin\x00{{n}}"},
	} {
		if got, err := c.Substitute([]byte(tt.in)); string(got) != tt.want || err != nil {
			t.Errorf("Substitute(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
	// once: a value's own sequences stay as they are
	chain := kattis.Constants{"a": "{{b}}{{b}}", "b": "{{a}}{{a}}"}
	if got, err := chain.Substitute([]byte("{{a}}")); string(got) != "{{b}}{{b}}" || err != nil {
		t.Errorf("Substitute({{a}}) = %q, %v; want {{b}}{{b}}", got, err)
	}
}

// TestSubstituteGrowth: a long constant named many times is an error, not
// a file of gigabytes; in LaTeX too.
func TestSubstituteGrowth(t *testing.T) {
	c := kattis.Constants{"x": strings.Repeat("x", 1<<20)}
	for _, tt := range []struct {
		name string
		sub  func([]byte) ([]byte, error)
		in   string
	}{
		{"markdown", c.Substitute, strings.Repeat("{{x}}", 100000)},
		{"latex", c.SubstituteTeX, strings.Repeat(`\constant{x}`, 100000)},
	} {
		got, err := tt.sub([]byte(tt.in))
		if err == nil || !strings.Contains(err.Error(), "its constants make it more than 16 MiB longer") {
			t.Errorf("%s: got %d bytes, %v; want an error", tt.name, len(got), err)
		}
	}
	// within the bound
	if got, err := c.Substitute([]byte("{{x}} {{x}}")); len(got) != 2<<20+1 || err != nil {
		t.Errorf("got %d bytes, %v; want two constants", len(got), err)
	}
}

// TestIncludeFiles: include/default and include/<code>, the language's
// winning a clash (a Defect, as problemtools reports it), constants in
// place; legacy has no include/default (a Defect, used anyway).
func TestIncludeFiles(t *testing.T) {
	p, err := problems.LoadDir(writeTree(t, "f", map[string]string{
		"problem.yaml":               "problem_format_version: 2025-09\nname: f\nuuid: 1\nconstants: {k: 7}\n",
		"data/secret/1.in":           "1\n",
		"include/default/data.txt":   "{{k}}\n",
		"include/default/common.h":   "default\n",
		"include/cpp/common.h":       "cpp\n",
		"include/cpp/runner/main.cc": "int main() {}\n",
		"include/python3/main.py":    "import sol\n",
	}))
	if err != nil {
		t.Fatal(err)
	}
	if got := p.Package.IncludeCodes(); !slices.Equal(got, []string{"cpp", "default", "python3"}) {
		t.Errorf("got codes %v", got)
	}
	files, err := p.Package.IncludeFiles("cpp")
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, f := range files {
		got[f.Path] = string(f.Data)
	}
	want := map[string]string{"common.h": "cpp\n", "data.txt": "7\n", "runner/main.cc": "int main() {}\n"}
	if len(got) != len(want) || got["common.h"] != want["common.h"] || got["data.txt"] != want["data.txt"] || got["runner/main.cc"] != want["runner/main.cc"] {
		t.Errorf("got %v, want %v", got, want)
	}
	if files, _ := p.Package.IncludeFiles("java"); len(files) != 2 || files[0].Path != "common.h" || string(files[0].Data) != "default\n" || files[1].Path != "data.txt" {
		t.Errorf("got %v for java, want include/default's common.h and data.txt", files)
	}
	if len(p.Package.Defects) != 1 || !strings.HasSuffix(p.Package.Defects[0].File, "include/cpp/common.h") {
		t.Errorf("got defects %v, want the clash of common.h", p.Package.Defects)
	}
	p, err = problems.LoadDir(writeTree(t, "f", map[string]string{"problem.yaml": "", "data/secret/1.in": "1\n", "include/default/x.h": ""}))
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Package.Defects) != 1 || !strings.Contains(p.Package.Defects[0].Msg, "format legacy has no include/default/") {
		t.Errorf("got defects %v, want legacy's include/default", p.Package.Defects)
	}
}

// TestSubmitRules: languages, limits.code, the compilation guarantees and
// allow_file_writing (2025-09's default false, earlier versions' true).
func TestSubmitRules(t *testing.T) {
	p, err := problems.LoadDir(writeTree(t, "f", map[string]string{
		"problem.yaml":     "problem_format_version: 2025-09\nname: f\nuuid: 1\nlanguages: [python3, cpp]\nlimits: {code: 64, compilation_time: 90, compilation_memory: 3072, validation_output: 2}\n",
		"data/secret/1.in": "1\n",
	}))
	if err != nil {
		t.Fatal(err)
	}
	want := kattis.SubmitRules{Languages: []string{"python3", "cpp"}, CodeLimit: 64 * bytesize.KiB, CompilationTime: 90 * time.Second,
		CompilationMemory: 3072 * bytesize.MiB, ValidationOutput: 2 * bytesize.MiB}
	if got := p.Package.Submit; !slices.Equal(got.Languages, want.Languages) || got.CodeLimit != want.CodeLimit || got.CompilationTime != want.CompilationTime ||
		got.CompilationMemory != want.CompilationMemory || got.ValidationOutput != want.ValidationOutput || got.AllowFileWriting {
		t.Errorf("got %+v, want %+v", got, want)
	}
	if !p.Package.Submit.AllowsLanguage("cpp") || p.Package.Submit.AllowsLanguage("java") {
		t.Errorf("AllowsLanguage: cpp %v java %v, want true false", p.Package.Submit.AllowsLanguage("cpp"), p.Package.Submit.AllowsLanguage("java"))
	}
	for spec, allow := range map[string]bool{"": true, "problem_format_version: 2023-07\n": true, "problem_format_version: 2025-09\nallow_file_writing: true\n": true} {
		p, err := problems.LoadDir(writeTree(t, "f", map[string]string{"problem.yaml": spec + "languages: all\n", "data/secret/1.in": "1\n"}))
		if err != nil {
			t.Fatal(err)
		}
		if p.Package.Submit.AllowFileWriting != allow || p.Package.Submit.Languages != nil {
			t.Errorf("%q: got %+v, want file writing %v, all languages", spec, p.Package.Submit, allow)
		}
	}
	_, err = problems.LoadDir(writeTree(t, "f", map[string]string{"problem.yaml": "languages: [all, cpp]\n", "data/secret/1.in": "1\n"}))
	if err == nil || !strings.Contains(err.Error(), "languages: all excludes a list") {
		t.Errorf("got %v, want an error about languages", err)
	}
}

func TestAttachments(t *testing.T) {
	p, err := problems.LoadDir(writeTree(t, "a", map[string]string{"problem.yaml": "", "data/secret/1.in": "1\n",
		"attachments/testing_tool.py": "", "attachments/lib/x.h": "", "attachments/.hidden": ""}))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := p.Package.Attachments(), []string{"attachments/lib/x.h", "attachments/testing_tool.py"}; !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

// TestStatementConstants: the statement has the constants in place, in
// Markdown ({{name}}) and LaTeX (\constant{name} too).
func TestStatementConstants(t *testing.T) {
	for file, want := range map[string]string{
		"statement/problem.en.md":  "N is at most 5 (10^6)\n",
		"statement/problem.en.tex": "$N \\le 5$, $10^6$\n",
	} {
		src := "N is at most {{n}} ({{big.tex}})\n"
		if strings.HasSuffix(file, ".tex") {
			src = "$N \\le \\constant{n}$, ${{big.tex}}$\n"
		}
		p, err := problems.LoadDir(writeTree(t, "c", map[string]string{
			"problem.yaml":     "problem_format_version: 2025-09\nname: c\nuuid: 1\nconstants: {n: 5, big: {value: 1000000, tex: \"10^6\"}}\n",
			"data/secret/1.in": "1\n",
			file:               src,
		}))
		if err != nil {
			t.Fatal(err)
		}
		name, got, ok := p.Package.Statement()
		if !ok || name != file || string(got) != want {
			t.Errorf("got %s %q, want %s %q", name, got, file, want)
		}
	}
}

// TestConstantsTooLong: a group's file that names a long constant often
// is an error naming the file, not a parse of gigabytes.
func TestConstantsTooLong(t *testing.T) {
	_, err := problems.LoadDir(writeTree(t, "c", map[string]string{
		"problem.yaml":                "problem_format_version: 2025-09\nname: c\nuuid: 1\nconstants:\n  x: " + strings.Repeat("x", 200<<10) + "\n",
		"data/secret/test_group.yaml": "args: [" + strings.Repeat("{{x}}", 100) + "]\n",
		"data/secret/1.in":            "1\n",
	}))
	if want := "data/secret/test_group.yaml: its constants make it more than 16 MiB longer"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("got %v, want %s", err, want)
	}
}
