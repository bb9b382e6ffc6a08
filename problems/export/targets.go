package export

import (
	"bytes"
	"fmt"
	"html"
	"path"
	"sort"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/optjudge/optjudge/checkers"
	"github.com/optjudge/optjudge/problems"
	"github.com/optjudge/optjudge/problems/kattis"
)

// statement gives each target the statement it reads: LaTeX from a
// Markdown statement for Kattis and BAPCtools (problemtools' legacy
// format and BAPCtools read LaTeX only), in problem_statement/ for the
// legacy format; for DOMjudge, which shows a PDF, HTML or text file,
// problem.html made from the Markdown, or the PDF.
func (x *exporter) statement() error {
	sts := x.p.Statements()
	if x.o.Target == DOMjudge {
		return x.domjudgeStatement(sts)
	}
	have := map[string]bool{}
	for _, f := range sts {
		have[f.Lang+"."+f.Format] = true
	}
	for _, f := range sts {
		if f.Format != "md" || have[f.Lang+".tex"] {
			continue
		}
		md, err := x.p.ReadStatement(f)
		if err != nil {
			return err
		}
		tex := path.Join(path.Dir(f.Path), "problem."+f.Lang+".tex")
		x.put(tex, append(LaTeX(md, x.p.TitleIn(f.Lang)), '\n'), 0o644)
		if x.o.Target == Kattis {
			tex = path.Join("problem_statement", path.Base(tex))
		}
		x.note("%s: LaTeX made from %s (%s reads LaTeX statements only)", tex, f.Path, x.o.Target)
	}
	if x.o.Target == Kattis {
		for name := range x.files {
			if strings.HasPrefix(name, "statement/") && strings.HasSuffix(name, ".md") {
				delete(x.files, name) // the legacy format has no Markdown statement
			}
		}
		x.move("statement", "problem_statement")
	}
	return nil
}

// domjudgeStatement puts problem.pdf or problem.html at the root.
func (x *exporter) domjudgeStatement(sts []problems.StatementFile) error {
	for _, format := range []string{"pdf", "md"} {
		for _, f := range sts {
			if f.Format != format || f.Lang != "en" && len(sts) > 1 && hasLang(sts, "en") {
				continue
			}
			b, err := x.p.ReadStatement(f)
			if err != nil {
				return err
			}
			if format == "pdf" {
				x.put("problem.pdf", b, 0o644)
			} else {
				x.put("problem.html", htmlPage(b, x.p.TitleIn(f.Lang), f.Lang), 0o644)
				x.note("problem.html: made from %s (DOMjudge shows a PDF, HTML or text statement)", f.Path)
			}
			x.remove("statement")
			x.remove("problem_statement")
			return nil
		}
	}
	if len(sts) > 0 {
		x.note("no statement DOMjudge can show: it takes PDF, HTML or text, and the problem's is %s", sts[0].Path)
	}
	return nil
}

func hasLang(sts []problems.StatementFile, lang string) bool {
	for _, f := range sts {
		if f.Lang == lang {
			return true
		}
	}
	return false
}

// htmlPage renders a Markdown statement as a page of its own (raw HTML in
// it left out).
func htmlPage(md []byte, title, lang string) []byte {
	var body bytes.Buffer
	markdown.Convert(md, &body)
	var b bytes.Buffer
	fmt.Fprintf(&b, `<!DOCTYPE html>
<html lang="%s">
<head>
<meta charset="utf-8">
<title>%s</title>
<style>
body { max-width: 48em; margin: 2em auto; padding: 0 1em; font-family: serif; line-height: 1.45; }
pre, code { font-family: monospace; } pre { background: #f4f4f4; padding: .5em; overflow-x: auto; }
table { border-collapse: collapse; } th, td { border: 1px solid #999; padding: .2em .5em; }
</style>
</head>
<body>
%s</body>
</html>
`, html.EscapeString(lang), html.EscapeString(title), body.Bytes())
	return b.Bytes()
}

// legacy makes the package one of the legacy format: problem.yaml with
// the legacy keys (the time limit in .timelimit, which verifyproblem
// passes over: it derives its own), output_validators/,
// problem_statement/, testdata.yaml, the legacy submission folders.
func (x *exporter) legacy() error {
	pk := &x.p.Package
	if pk.Type.MultiPass || pk.Type.SubmitAnswer {
		return fmt.Errorf("%s: a %s problem has no legacy form", pk.Origin, pk.Type)
	}
	y, err := x.legacyYAML()
	if err != nil {
		return err
	}
	x.put("problem.yaml", y, 0o644)
	if pk.Time.Given {
		x.put(".timelimit", []byte(strconv.FormatFloat(pk.Time.Limit.Seconds(), 'g', -1, 64)+"\n"), 0o644)
	}
	if x.has("output_validator") {
		x.move("output_validator", "output_validators/"+x.validatorName())
	}
	if err := x.groupFiles("testdata.yaml", true); err != nil {
		return err
	}
	legacyFolders := map[string]bool{"accepted": true, "partially_accepted": true, "wrong_answer": true, "time_limit_exceeded": true, "run_time_error": true}
	x.submissionFolders(legacyFolders)
	if x.remove("submissions/submissions.yaml") > 0 {
		x.note("submissions/submissions.yaml: left out (the legacy format has none)")
	}
	return nil
}

// validatorName is the output validator's name in output_validators/:
// puzzle for a definition's, else validator.
func (x *exporter) validatorName() string {
	if x.has("output_validator/puzzle.yaml") {
		return "puzzle"
	}
	return "validator"
}

// has says whether the package has a file at or below name.
func (x *exporter) has(name string) bool {
	for f := range x.files {
		if f == name || strings.HasPrefix(f, name+"/") {
			return true
		}
	}
	return false
}

// icpcFolders are the folders of verdicts that the ICPC's verdicts fold
// into another (kattis.Verdict): a run over the memory limit is a
// run-time error there, one over the output limit a wrong answer.
var icpcFolders = map[string]string{"memory_limit_exceeded": "run_time_error", "output_limit_exceeded": "wrong_answer"}

var icpcWhy = map[string]string{"memory_limit_exceeded": "a run over the memory limit is a run-time error", "output_limit_exceeded": "a run over the output limit is a wrong answer"}

// submissionFolders keeps the folders of submissions/ a target knows,
// and moves those of the verdicts the ICPC's fold into another.
func (x *exporter) submissionFolders(known map[string]bool) {
	dropped := map[string]int{}
	moved := map[string]bool{}
	for _, name := range x.names() {
		parts := strings.SplitN(name, "/", 3)
		if len(parts) < 3 || parts[0] != "submissions" || known[parts[1]] {
			continue
		}
		if to := icpcFolders[parts[1]]; known[to] {
			dst := path.Join("submissions", to, parts[2])
			if _, taken := x.files[dst]; !taken {
				x.files[dst] = x.files[name]
				delete(x.files, name)
				moved[parts[1]] = true
				continue
			}
		}
		delete(x.files, name)
		dropped[parts[1]]++
	}
	for from := range moved {
		x.note("submissions/%s/ -> submissions/%s/ (%s has the ICPC's verdicts, where %s)", from, icpcFolders[from], x.o.Target, icpcWhy[from])
	}
	folders := make([]string, 0, len(dropped))
	for f := range dropped {
		folders = append(folders, f)
	}
	sort.Strings(folders)
	for _, f := range folders {
		x.note("submissions/%s/: left out (%d files): %s has no such folder", f, dropped[f], x.o.Target)
	}
}

// bapctools tells BAPCtools that a definition's checker takes case and
// spaces as they are: bt validate otherwise holds it to accept the
// answers with their case and whitespace changed (the default
// validator's leniency), unless data/test_group.yaml's
// output_validator_args say case_sensitive and space_change_sensitive,
// which the definition's validator takes and ignores.
func (x *exporter) bapctools() error {
	if !x.has("output_validator/puzzle.yaml") {
		return nil
	}
	// bt looks for them from data/valid_output up: in data/ itself
	for _, g := range []string{"data"} {
		name := g + "/test_group.yaml"
		group := map[string]any{}
		if _, ok := x.files[name]; ok {
			b, _, err := x.read(name)
			if err != nil {
				return err
			}
			if err := yaml.Unmarshal(b, &group); err != nil {
				return fmt.Errorf("%s: %w", name, err)
			}
		}
		group["output_validator_args"] = []string{"case_sensitive", "space_change_sensitive"}
		y, err := yaml.Marshal(group)
		if err != nil {
			return err
		}
		x.put(name, append([]byte("# judge export: the definition's checker takes case and spaces as they are\n"), y...), 0o644)
	}
	return nil
}

// legacyYAML is problem.yaml in the legacy format's keys.
func (x *exporter) legacyYAML() ([]byte, error) {
	pk := &x.p.Package
	k := pk.Spec
	m := yaml.Node{Kind: yaml.MappingNode}
	add := func(key string, v any) {
		var val yaml.Node
		val.Encode(v)
		m.Content = append(m.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: key}, &val)
	}
	add("problem_format_version", "legacy")
	add("name", x.p.Title)
	if k.UUID != "" {
		add("uuid", k.UUID)
	}
	if len(x.p.Sources) > 0 {
		add("source", strings.Join(x.p.Sources, "; "))
	}
	if k.License != "" {
		add("license", k.License)
		if owner, ok := k.RightsOwner.(string); ok {
			add("rights_owner", owner)
		}
	}
	if pk.Type.Scoring {
		add("type", "scoring")
	}
	switch {
	case pk.CheckerProgram != nil || x.has("output_validator") || x.has("output_validators"):
		v := "custom"
		if pk.Type.Interactive {
			v += " interactive"
		}
		if pk.Validation.ScoreAllowed && pk.Type.Scoring {
			v += " score"
		}
		add("validation", v)
	case pk.Validation.Default && len(pk.Validation.DefaultOptions) > 0:
		args, err := checkers.DefaultArgs(pk.Validation.DefaultOptions)
		if err != nil {
			return nil, err
		}
		add("validator_flags", strings.Join(args, " "))
	}
	limits := map[string]float64{}
	l := k.Limits
	for key, v := range map[string]float64{"memory": l.Memory, "output": l.Output, "code": l.Code,
		"compilation_time": l.CompilationTime, "compilation_memory": l.CompilationMemory,
		"validation_time": l.ValidationTime, "validation_memory": l.ValidationMemory, "validation_output": l.ValidationOutput} {
		if v > 0 {
			limits[key] = v
		}
	}
	mult := pk.Time.Multipliers
	if k.Limits.TimeMultipliers.ACToTimeLimit > 0 || k.Format() == kattis.Format2025 {
		limits["time_multiplier"] = mult.ACToTimeLimit
	}
	if k.Limits.TimeMultipliers.TimeLimitToTLE > 0 || k.Format() == kattis.Format2025 {
		limits["time_safety_margin"] = mult.TimeLimitToTLE
	}
	if len(limits) > 0 {
		add("limits", limits)
	}
	var b bytes.Buffer
	b.WriteString("# judge export: the legacy problem package format (Kattis, problemtools);\n# the time limit is in .timelimit\n")
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(&m); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// groupFiles rewrites each test_group.yaml of data/ for the legacy
// readers: as testdata.yaml (name), with the argument lists as the
// flags strings they read, the keys they do not know left out.
func (x *exporter) groupFiles(name string, dropOthers bool) error {
	var groups []string
	for f := range x.files {
		if strings.HasPrefix(f, "data/") && path.Base(f) == "test_group.yaml" {
			groups = append(groups, f)
		}
	}
	sort.Strings(groups)
	for _, g := range groups {
		b, _, err := x.read(g)
		if err != nil {
			return err
		}
		var in map[string]any
		if err := yaml.Unmarshal(b, &in); err != nil {
			return fmt.Errorf("%s: %w", g, err)
		}
		out := map[string]any{}
		for key, v := range in {
			switch key {
			case "output_validator_args", "input_validator_args":
				list, ok := v.([]any)
				if !ok {
					x.note("%s: %s is not a list; left out", g, key)
					continue
				}
				words := make([]string, len(list))
				for i, w := range list {
					words[i] = fmt.Sprint(w)
				}
				out[strings.TrimSuffix(key, "_args")+"_flags"] = strings.Join(words, " ")
			default:
				if dropOthers {
					x.note("%s: %s left out (the legacy test data groups have no such key)", g, key)
					continue
				}
				out[key] = v
			}
		}
		delete(x.files, g)
		if len(out) == 0 {
			continue
		}
		y, err := yaml.Marshal(out)
		if err != nil {
			return err
		}
		x.put(path.Join(path.Dir(g), name), y, 0o644)
	}
	return nil
}

// domjudge makes the package the zip DOMjudge imports: problem.yaml with
// the keys it reads (limits.time_limit among them, and .timelimit saying
// the same), output_validators/, testdata.yaml with flags, the
// submission folders whose verdict it knows.
func (x *exporter) domjudge() error {
	pk := &x.p.Package
	if pk.Type.SubmitAnswer {
		return fmt.Errorf("%s: DOMjudge imports no submit-answer problem", pk.Origin)
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "# judge export: what DOMjudge's problem import reads\nname: %s\n", yamlScalar(x.p.Title))
	if pk.Type.Scoring {
		b.WriteString("type: scoring\n")
	}
	custom := pk.CheckerProgram != nil || x.has("output_validator") || pk.Type.Interactive || pk.Type.MultiPass
	switch {
	case custom && pk.Type.Interactive:
		b.WriteString("validation: custom interactive\n")
	case custom && pk.Type.MultiPass:
		b.WriteString("validation: custom multi-pass\n")
	case custom:
		b.WriteString("validation: custom\n")
	case len(pk.Validation.DefaultOptions) > 0:
		args, err := checkers.DefaultArgs(pk.Validation.DefaultOptions)
		if err != nil {
			return err
		}
		fmt.Fprintf(&b, "validator_flags: %s\n", yamlScalar(strings.Join(args, " ")))
	}
	tl := strconv.FormatFloat(x.p.Limits.Time.Seconds(), 'g', -1, 64)
	fmt.Fprintf(&b, "limits:\n  time_limit: %s\n  memory: %d\n  output: %d\n", tl, x.p.Limits.Memory>>20, x.p.Limits.Output>>20)
	if pk.Type.MultiPass {
		fmt.Fprintf(&b, "  validation_passes: %d\n", pk.Validation.Passes)
	}
	x.put("problem.yaml", b.Bytes(), 0o644)
	x.put(".timelimit", []byte(tl+"\n"), 0o644)
	if !pk.Time.Given {
		x.note("the package gives no time limit: DOMjudge gets the judge's %s", tl)
	}
	if x.has("output_validator") {
		x.move("output_validator", "output_validators/"+x.validatorName())
	}
	for _, dir := range []string{"input_validators", "answer_validators", "generators", "include", "solution", "static_validator", "graders"} {
		x.remove(dir) // DOMjudge imports none of them
	}
	if err := x.groupFiles("testdata.yaml", false); err != nil {
		return err
	}
	x.submissionFolders(map[string]bool{"accepted": true, "wrong_answer": true, "time_limit_exceeded": true, "run_time_error": true})
	x.remove("submissions/submissions.yaml")
	return nil
}

func yamlScalar(s string) string {
	b, err := yaml.Marshal(s)
	if err != nil {
		return strconv.Quote(s)
	}
	return strings.TrimSuffix(string(b), "\n")
}
