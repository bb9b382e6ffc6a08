package export

import (
	"archive/zip"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/optjudge/optjudge/problems"
)

func TestLaTeX(t *testing.T) {
	md := "# Title\n\nSome *text*, **bold**, `a_b` & 100% {x} #1 $5 ~ ^.\n\n## Input\n\n- one\n- two\n\n" +
		"| a | b |\n|:-:|--:|\n| `x` | 2 |\n\n```\nraw \\ { }\n```\n\n<b>html</b>\n"
	got := string(LaTeX([]byte(md), "The Title & Co"))
	for _, want := range []string{
		`\problemname{The Title \& Co}`,
		`Some \emph{text}, \textbf{bold}, \texttt{a\_b} \& 100\% \{x\} \#1 \$5 \textasciitilde{} \textasciicircum{}.`,
		`\section*{Input}`,
		"\\begin{itemize}\n\\item one\n\n\\item two\n\n\\end{itemize}",
		`\begin{tabular}{|c|r|}`, `\textbf{a} & \textbf{b} \\`, `\texttt{x} & 2 \\`,
		"\\begin{verbatim}\nraw \\ { }\n\\end{verbatim}",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("LaTeX:\n%s\nwant %q", got, want)
		}
	}
	for _, not := range []string{"# Title", "Title}\n\n\\section*{Title", "<b>", "</b>"} {
		if strings.Contains(got, not) {
			t.Errorf("LaTeX:\n%s\nwant no %q", got, not)
		}
	}
}

// exportOf exports the embedded problem name for target into a fresh
// place, a fake judge binary beside it.
func exportOf(t *testing.T, name string, target Target, out string) *Result {
	t.Helper()
	p, err := problems.LoadEmbedded(name)
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(t.TempDir(), "judge")
	os.WriteFile(bin, []byte("not a judge"), 0o755)
	res, err := Export(p, out, Options{Target: target, Validator: bin})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestExportKattis(t *testing.T) {
	out := filepath.Join(t.TempDir(), "clocks")
	exportOf(t, "clocks", Kattis, out)
	y, _ := os.ReadFile(filepath.Join(out, "problem.yaml"))
	for _, want := range []string{"problem_format_version: legacy\n", "name: The Clocks\n", "validation: custom\n", "time_multiplier: 2\n"} {
		if !strings.Contains(string(y), want) {
			t.Errorf("problem.yaml:\n%s\nwant %q", y, want)
		}
	}
	if strings.Contains(string(y), "time_limit") {
		t.Errorf("problem.yaml:\n%s\nwant no time_limit (verifyproblem refuses it in a legacy package)", y)
	}
	for _, f := range []string{".timelimit", "problem_statement/problem.en.tex", "output_validators/puzzle/run", "output_validators/puzzle/build",
		"output_validators/puzzle/optjudge", "output_validators/puzzle/puzzle.yaml", "input_validators/puzzle/run", "data/sample/01-sample.ans"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
	for _, f := range []string{"puzzle.yaml", "statement", "output_validator"} {
		if _, err := os.Stat(filepath.Join(out, f)); err == nil {
			t.Errorf("%s: in a legacy package", f)
		}
	}
	if st, err := os.Stat(filepath.Join(out, "output_validators/puzzle/optjudge")); err != nil || st.Mode().Perm()&0o111 == 0 {
		t.Errorf("the judge binary is not executable: %v", st)
	}
	if tl, _ := os.ReadFile(filepath.Join(out, ".timelimit")); string(tl) != "1\n" {
		t.Errorf(".timelimit: got %q, want 1", tl)
	}
}

func TestExportBAPCtools(t *testing.T) {
	out := filepath.Join(t.TempDir(), "eightpuzzle")
	res := exportOf(t, "eight-puzzle", BAPCtools, out)
	for _, f := range []string{"problem.yaml", "statement/problem.en.md", "statement/problem.en.tex", "output_validator/run", "output_validator/puzzle.yaml",
		"input_validators/puzzle/run", "submissions/submissions.yaml", "submissions/memory_limit_exceeded/visited_by_number.cpp"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
	def, _ := os.ReadFile(filepath.Join(out, "output_validator/puzzle.yaml"))
	if !strings.Contains(string(def), "mode: any") {
		t.Errorf("the definition lost its mode:\n%s", def)
	}
	if len(res.Notes) != 2 || !strings.Contains(res.Notes[0], "statement/problem.en.tex: LaTeX made from") || !strings.Contains(res.Notes[1], "data/secret/01-sample: links to the sample") {
		t.Errorf("notes: %q", res.Notes)
	}
	if l, err := os.Readlink(filepath.Join(out, "data/secret/01-sample.in")); err != nil || l != "../sample/01-sample.in" {
		t.Errorf("secret/01-sample.in: got link %q, %v, want it to the sample", l, err)
	}
	if g, _ := os.ReadFile(filepath.Join(out, "data/test_group.yaml")); !strings.Contains(string(g), "output_validator_args:\n    - case_sensitive\n    - space_change_sensitive\n") {
		t.Errorf("data/test_group.yaml:\n%s\nwant the checker's sensitivity told", g)
	}
	// the judge reads the export as the peers do, with no more to say
	// than of the problem itself
	p, err := problems.LoadDir(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range p.Package.Warnings {
		if !strings.Contains(w.Msg, "has a '-'") && !strings.Contains(w.Msg, "which takes no arguments") {
			t.Errorf("the export loads with a warning: %s", w)
		}
	}
}

func TestExportDOMjudge(t *testing.T) {
	out := filepath.Join(t.TempDir(), "eightpuzzle.zip")
	res := exportOf(t, "eight-puzzle", DOMjudge, out)
	zr, err := zip.OpenReader(out)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	var names []string
	files := map[string]*zip.File{}
	for _, f := range zr.File {
		names = append(names, f.Name)
		files[f.Name] = f
	}
	if !sort.StringsAreSorted(names) {
		t.Errorf("zip entries out of order: %v", names)
	}
	for _, want := range []string{"problem.yaml", ".timelimit", "problem.html", "data/", "data/sample/", "data/sample/01-sample.in",
		"output_validators/", "output_validators/puzzle/", "output_validators/puzzle/run", "submissions/accepted/", "submissions/accepted/astar.go"} {
		if files[want] == nil {
			t.Errorf("zip lacks %s: %v", want, names)
		}
	}
	for _, not := range []string{"input_validators/", "statement/", "submissions/memory_limit_exceeded/", "submissions/submissions.yaml", "puzzle.yaml", "data/secret/test_group.yaml"} {
		if files[not] != nil {
			t.Errorf("zip holds %s, which DOMjudge does not read", not)
		}
	}
	read := func(name string) string {
		r, _ := files[name].Open()
		defer r.Close()
		var b strings.Builder
		buf := make([]byte, 4096)
		for {
			n, err := r.Read(buf)
			b.Write(buf[:n])
			if err != nil {
				return b.String()
			}
		}
	}
	y := read("problem.yaml")
	for _, want := range []string{"name: Eight\n", "validation: custom\n", "  time_limit: 6\n", "  memory: 512\n"} {
		if !strings.Contains(y, want) {
			t.Errorf("problem.yaml:\n%s\nwant %q", y, want)
		}
	}
	if got := read(".timelimit"); got != "6\n" {
		t.Errorf(".timelimit: %q", got)
	}
	if h := read("problem.html"); !strings.Contains(h, "<title>Eight</title>") || !strings.Contains(h, "<h2>Input</h2>") {
		t.Errorf("problem.html:\n%s", h)
	}
	if m := files["output_validators/puzzle/run"].Mode(); m.Perm()&0o111 == 0 {
		t.Errorf("run: mode %v", m)
	}
	if files["submissions/run_time_error/visited_by_number.cpp"] == nil || !strings.Contains(strings.Join(res.Notes, "\n"), "submissions/memory_limit_exceeded/ -> submissions/run_time_error/") {
		t.Errorf("the memory-limit example not moved to run_time_error/: notes %q", res.Notes)
	}
	// a DOMjudge export is a zip, and nothing is overwritten
	if _, err := Export(nil, out, Options{Target: DOMjudge}); err == nil || !strings.Contains(err.Error(), "already exists") {
		t.Errorf("got %v, want out refused", err)
	}
	if _, err := Export(nil, filepath.Join(t.TempDir(), "dir"), Options{Target: DOMjudge}); err == nil || !strings.Contains(err.Error(), "zip") {
		t.Errorf("got %v, want a zip asked for", err)
	}
}

// TestExportNative: a problem of the native layout is exported as judge
// convert makes it a package.
func TestExportNative(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "sum")
	for name, data := range map[string]string{
		"problem.yaml":          "name: sum\ntitle: Sum\nchecker: {name: default, options: {float_tolerance: 1e-6}}\n",
		"testdata/sample/1.in":  "1 2\n",
		"testdata/sample/1.ans": "3\n",
		"testdata/secret/1.in":  "1 2\n",
		"testdata/secret/1.ans": "3\n",
		"statement.md":          "# Sum\n\nAdd.\n",
	} {
		os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755)
		os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644)
	}
	p, err := problems.LoadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "sum")
	if _, err := Export(p, out, Options{Target: Kattis}); err != nil {
		t.Fatal(err)
	}
	y, _ := os.ReadFile(filepath.Join(out, "problem.yaml"))
	if !strings.Contains(string(y), "validator_flags: float_tolerance 1e-6\n") {
		t.Errorf("problem.yaml:\n%s\nwant the default validator's flags", y)
	}
	if _, err := os.Stat(filepath.Join(dir, "testdata")); err != nil {
		t.Errorf("the native problem changed: %v", err)
	}
}
