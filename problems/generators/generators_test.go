package generators

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// TestSeed holds Seed to BAPCtools' values: the first four are the seeds
// its own test package testseed committed (data/sample/*.in of
// BAPCtools' test/problems/testseed, made by bt generate), the rest
// computed with its formula in Python:
//
//	int(hashlib.sha512((salt + f":{count-1}" + command.strip()).encode()).hexdigest(), 16) % 2**31
func TestSeed(t *testing.T) {
	tests := []struct {
		salt    string
		count   int
		command string
		want    uint32
	}{
		{"", 1, "stdout.py {seed}", 162981470},
		{"", 1, "stdout.py {seed} a  aa  b ", 2133905738}, // inner spaces count, the outer ones do not
		{"", 1, "stdout.py {seed} 1", 256329547},          // count: 5, value 1: no ":0"
		{"", -2, "stdout.py {seed:1} -2", 207342926},      // count: [-2, ...]: ":-3"
		{"", 1, "stdout.py {seed:42}", 1750401614},
		{"bob", 1, "stdout.py {seed:42}", 593058468},
		{"salt", 3, "  gen {seed} x\n", 2127333336},
		{"", 1, "gen.py {seed}", 217127397},
		{"abc", 5, "gen.py {seed} 5", 1402665761},
	}
	for _, tt := range tests {
		if got := Seed(tt.salt, tt.count, tt.command); got != tt.want {
			t.Errorf("Seed(%q, %d, %q) = %d, want %d", tt.salt, tt.count, tt.command, got, tt.want)
		}
	}
}

// TestSeedsOfFile: the seeds of a whole file, count and random_salt
// inherited, are those bt generate gives (testseed's committed data).
func TestSeedsOfFile(t *testing.T) {
	cfg := mustParse(t, `
solution: /submissions/accepted/echo.py
data:
  sample:
    data:
      - basic_seed: "stdout.py {seed}"
      - seed-42: "stdout.py {seed:42}"
      - random_salt:
          generate: "stdout.py {seed:42}"
          random_salt: "bob"
      - count-list:
          generate: "stdout.py {seed:1} {count}"
          count: [-2, 0]
  secret:
    data: []
`)
	got := map[string]string{}
	for _, c := range cfg.Cases() {
		got[c.Path] = strings.Join(c.Generate.Argv(c.Seed), " ")
	}
	want := map[string]string{
		"sample/1-basic_seed":    "162981470",
		"sample/2-seed-42":       "1750401614",
		"sample/3-random_salt":   "593058468",
		"sample/4-count-list--2": "207342926 -2",
		"sample/5-count-list-0":  "627447910 0",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

func mustParse(t *testing.T, src string) *Config {
	t.Helper()
	cfg, err := Parse([]byte(strings.TrimPrefix(src, "\n")), "generators.yaml", Options{})
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// TestParseTree: names, numbering across the file, counts, includes,
// inline files, copies, links and the group files.
func TestParseTree(t *testing.T) {
	cfg := mustParse(t, `
solution: /submissions/accepted/sol.py
random_salt: s
generators:
  tree: [tree.py, lib.py]
data:
  secret:
    test_group.yaml:
      output_validator_args: [case_sensitive]   # a comment
      # dropped
    include: [one]
    data:
      - small: tree {seed} 10
      - many:
          generate: gen.py {seed} {count}
          count: 10
      - group:
          data:
            b: {in: "2"}
            a: "gen.py 'x y' {name}"
      - "":
          in: ""
          ans: |
            multi
            line
  sample:
    data:
      one:
        in: "1 2"
        ans: "3"
        yaml: {description: small}
      two:
        copy: manual/two
        solution: /submissions/other/brute.py
      three:
        in.statement: "1"
        in.download: {link: in.statement}
`)
	var paths []string
	for _, c := range cfg.Cases() {
		paths = append(paths, c.Path)
	}
	want := []string{"sample/one", "sample/three", "sample/two",
		"secret/01-small", "secret/02-many-01", "secret/03-many-02", "secret/04-many-03", "secret/05-many-04", "secret/06-many-05",
		"secret/07-many-06", "secret/08-many-07", "secret/09-many-08", "secret/10-many-09", "secret/11-many-10",
		"secret/1-group/a", "secret/1-group/b", "secret/12"}
	if !reflect.DeepEqual(paths, want) {
		t.Fatalf("got tests\n%q\nwant\n%q", paths, want)
	}
	byPath := map[string]*Case{}
	for _, c := range cfg.Cases() {
		byPath[c.Path] = c
	}
	one := byPath["sample/one"]
	if string(one.Inline[".in"]) != "1 2\n" || string(one.Inline[".ans"]) != "3\n" || string(one.Inline[".yaml"]) != "{description: small}\n" {
		t.Errorf("sample/one: got inline %q, want 1 2, 3 and the yaml with their newlines", one.Inline)
	}
	if one.Solution != "submissions/accepted/sol.py" || byPath["sample/two"].Solution != "submissions/other/brute.py" {
		t.Errorf("got solutions %q and %q, want the file's and the test's own", one.Solution, byPath["sample/two"].Solution)
	}
	if c := byPath["sample/two"]; c.Copy != "generators/manual/two" {
		t.Errorf("sample/two: got copy %q, want generators/manual/two", c.Copy)
	}
	if c := byPath["sample/three"]; c.Links[".in.download"] != ".in.statement" {
		t.Errorf("sample/three: got links %v, want in.download to in.statement", c.Links)
	}
	small := byPath["secret/01-small"]
	if small.Generate.Program != "generators/tree" || small.Seed != Seed("s", 1, "tree {seed} 10") {
		t.Errorf("secret/01-small: got %s seed %d, want generators/tree seeded with the salt", small.Generate.Program, small.Seed)
	}
	many := byPath["secret/03-many-02"]
	if got := many.Generate.Argv(many.Seed); !reflect.DeepEqual(got, []string{fmt.Sprint(Seed("s", 2, "gen.py {seed} 2")), "2"}) {
		t.Errorf("secret/03-many-02: got %q, want the seed of count 2 and 2", got)
	}
	if got := byPath["secret/1-group/a"].Generate.Argv(0); !reflect.DeepEqual(got, []string{"x y", "testcase"}) {
		t.Errorf("secret/1-group/a: got %q, want [x y, testcase]", got)
	}
	if got := string(byPath["secret/12"].Inline[".ans"]); got != "multi\nline\n" {
		t.Errorf("secret/12: got .ans %q, want the block", got)
	}
	if _, ok := byPath["secret/12"].Inline[".in"]; !ok || len(byPath["secret/12"].Inline[".in"]) != 0 {
		t.Errorf("secret/12: got .in %q, want an empty file", byPath["secret/12"].Inline[".in"])
	}
	if deps := cfg.Generators["generators/tree"]; !reflect.DeepEqual(deps, []string{"generators/tree.py", "generators/lib.py"}) {
		t.Errorf("got generators %v, want tree of tree.py and lib.py", cfg.Generators)
	}
	var secret *Dir
	for _, d := range cfg.Dirs() {
		if d.Path == "secret" {
			secret = d
		}
	}
	if secret == nil || secret.GroupFile != "test_group.yaml" ||
		string(secret.GroupYAML) != "output_validator_args: [case_sensitive]         # a comment\n" {
		t.Fatalf("got secret's group file %q, want its test_group.yaml as ruamel.yaml writes it back: the comment at its column, the dangling one dropped", secret.GroupYAML)
	}
	if len(secret.Includes) != 1 || secret.Includes[0].Path != "sample/one" {
		t.Errorf("got secret's includes %v, want sample/one", secret.Includes)
	}
}

// TestParseErrors: every mistake names the file, the line and the field,
// and all of them are reported.
func TestParseErrors(t *testing.T) {
	// aliases of aliases: 2^40 tests from 42 lines
	laughs := "a0: &a0 {x: gen.py}\n"
	for i := 1; i <= 40; i++ {
		laughs += fmt.Sprintf("a%d: &a%d {p: *a%d, q: *a%d}\n", i, i, i-1, i-1)
	}
	laughs += "data:\n  secret:\n    data: *a40\n"
	tests := []struct{ name, src, want string }{
		{"aliases", laughs, "generators.yaml:1: its aliases expand it to more than 1048576 entries"},
		{"alias in its own value", "data:\n  sample: &s\n    data:\n      - a: *s\n", "generators.yaml:4: the alias *s is inside the value it names"},
		{"alias in its own list", "x: &x [*x]\ndata: {}\n", "generators.yaml:1: the alias *x is inside the value it names"},
		{"long pattern", "data:\n  secret:\n    data:\n      a: {generate: g, match: '" + strings.Repeat("(a|b)", 205) + "'}\n", "generators.yaml:4: data.secret.data.a.match.in: a pattern of 1025 bytes, longer than 1024"},
		{"nested too deep", "data:\n  secret:\n    data:\n      a: " + strings.Repeat("[", 200) + strings.Repeat("]", 200) + "\n", "generators.yaml:4: lists and mappings nested more than 100 deep"},
		{"syntax", "data: [", "generators.yaml:1: did not find expected node content"},
		{"not a mapping", "- a", "generators.yaml:1: want a mapping of keys to values"},
		{"duplicate", "data:\n  sample: {}\n  sample: {}\n", "generators.yaml:3: data.sample: given twice (first on line 2)"},
		{"count", "data:\n  secret:\n    data:\n      a:\n        generate: g {count}\n        count: 0\n", "generators.yaml:6: data.secret.data.a.count: 0: want a number from 1 to 100"},
		{"count range", "data:\n  secret:\n    data:\n      a:\n        generate: g\n        count: 5..=1\n", `generators.yaml:6: data.secret.data.a.count: "5..=1": the start 5 is after the end 1`},
		{"two seeds", "data:\n  secret:\n    data:\n      a: g {seed} {seed:2}\n", "generators.yaml:4: data.secret.data.a.generate: {seed} (or {seed:N}) may appear once, found 2"},
		{"quote", "data:\n  secret:\n    data:\n      a: g 'x\n", "generators.yaml:4: data.secret.data.a.generate: no closing quotation"},
		{"absolute generator", "data:\n  secret:\n    data:\n      a: /g.py\n", "generators.yaml:4: data.secret.data.a.generate: the generator /g.py: /g.py: want a path relative to generators/, not an absolute one"},
		{"relative solution", "solution: sol.py\ndata: {}\n", "generators.yaml:1: solution: sol.py: want a path from the package root, starting with / (/submissions/accepted/sol.py)"},
		{"no input", "data:\n  secret:\n    data:\n      a: {ans: '1', count: 2}\n", "generators.yaml:4: data.secret.data.a: makes no input: want generate, copy or in"},
		{"empty", "data:\n  secret:\n    data:\n      a:\n", "generators.yaml:4: data.secret.data.a: empty: a test needs generate, copy or in"},
		{"number", "data:\n  secret:\n    data:\n      a: {in: 5}\n", "generators.yaml:4: data.secret.data.a.in: got the number 5, want a string (quote numbers), or {link: ...}"},
		{"bad name", "data:\n  secret:\n    data:\n      -a: g\n", `generators.yaml:4: data.secret.data.-a: "-a" is not a valid test name (letters, digits, _ . -, not starting with . or -)`},
		{"include unknown", "data:\n  secret:\n    include: [nope]\n", `generators.yaml:3: data.secret.include[0]: "nope" is no test or directory listed before`},
		{"statement outside sample", "data:\n  secret:\n    data:\n      a: {in: '1', in.statement: '1'}\n", "generators.yaml:4: data.secret.data.a.in.statement: only a sample may have a in.statement file"},
		{"interaction", "data:\n  sample:\n    data:\n      a: {in: '1', interaction: '<1'}\n", "generators.yaml:4: data.sample.data.a.interaction: an interaction, but the problem is neither interactive nor multi-pass"},
		{"numbered root", "data:\n  - sample: {}\n", "generators.yaml:2: data: the top level's data must be a mapping (sample, secret, ...), not a numbered list"},
		{"numbered entry", "data:\n  secret:\n    data:\n      - a: g\n        b: g\n", "generators.yaml:4: data.secret.data[0]: a numbered entry must be a mapping of exactly one name to a test or directory"},
		{"unnamed", "data:\n  secret:\n    data:\n      \"\": g\n", "generators.yaml:4: data.secret.data.: a test or directory that is not numbered needs a name"},
		{"link", "data:\n  sample:\n    data:\n      a: {in: '1', in.download: {link: ans}}\n", "generators.yaml:4: data.sample.data.a.in.download.link: in.download may not link to ans"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse([]byte(tt.src), "generators.yaml", Options{})
			if err == nil {
				t.Fatalf("got no error, want %s", tt.want)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got\n%v\nwant a line\n%s", err, tt.want)
			}
		})
	}
	// every error, not the first
	_, err := Parse([]byte("data:\n  secret:\n    data:\n      a: {in: 5}\n      b:\n"), "generators.yaml", Options{})
	if err == nil || strings.Count(err.Error(), "\n") != 1 {
		t.Errorf("got %v, want two errors", err)
	}
}

// TestParseWarnings: what BAPCtools only warns about.
func TestParseWarnings(t *testing.T) {
	cfg := mustParse(t, `
parallel: true
mystery: 1
data:
  invalid_inputs: {}
  secret:
    data:
      a:
        generate: g {count}
      b: {generate: g, random_salt: 1.0}
      c: old/file.in
      3: g
`)
	var got []string
	for _, w := range cfg.Warnings {
		got = append(got, w.String())
	}
	want := []string{
		"generators.yaml:1: parallel: deprecated: ignored",
		"generators.yaml:2: mystery: unknown key: ignored",
		"generators.yaml:4: data.invalid_inputs: deprecated: ignored (use invalid_input)",
		"generators.yaml:8: data.secret.data.a.generate: {count} without a count: key: left as it is",
		"generators.yaml:9: data.secret.data.b.random_salt: got the number 1.0, want a string: ignored (quote it)",
		"generators.yaml:10: data.secret.data.c: a file as a command is deprecated: use copy: old/file",
		`generators.yaml:11: data.secret.data.3: the number 3 as a name: ignored, as BAPCtools ignores it (quote it: "3")`,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got warnings\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestShellSplit(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"gen.py 1 2", []string{"gen.py", "1", "2"}},
		{"  gen.py\n  {seed}\n", []string{"gen.py", "{seed}"}},
		{`gen 'a b'`, []string{"gen", "a b"}},
		{`gen "a\ b"`, []string{"gen", `a\ b`}},
		{`gen "a \"b\" \\"`, []string{"gen", `a "b" \`}},
		{`gen \ a\ b`, []string{"gen", " a b"}},
		{`gen a'b'"c"`, []string{"gen", "abc"}},
		{`gen ''`, []string{"gen", ""}},
	}
	for _, tt := range tests {
		got, err := shellSplit(tt.in)
		if err != nil || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("shellSplit(%q) = %q, %v, want %q", tt.in, got, err, tt.want)
		}
	}
}

// FuzzParse: no input makes Parse panic, and every error names the file.
func FuzzParse(f *testing.F) {
	f.Add([]byte("data:\n  secret:\n    data:\n      - a: g {seed}\n"))
	f.Add([]byte("data:\n  sample:\n    data:\n      a: {in: '1', count: 1..=3}\n"))
	f.Add([]byte("generators: {t: [a.py]}\ndata: {secret: {include: [x], data: [{x: {count: [1, 2], copy: c}}]}}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		_, err := Parse(data, "g.yaml", Options{Interactive: len(data)%2 == 0})
		if err != nil && !strings.HasPrefix(err.Error(), "g.yaml") {
			t.Errorf("error %q does not name the file", err)
		}
	})
}

// TestCompilePattern: match: patterns as Python's re (MULTILINE, DOTALL)
// reads them, look-aheads at the start of the text included.
func TestCompilePattern(t *testing.T) {
	tests := []struct {
		pat, in string
		want    bool
	}{
		{`^a$.*^z$`, "a\nb\nz\n", true},
		{`^a$.*^z$`, "z\na\n", false},
		{`\Aencrypt$`, "encrypt\n3\n", true},
		{`\Aencrypt$`, "decrypt\nencrypt\n", false},
		// no line is one capital letter
		{`\A(?!.*^[A-Z]$).*\Z`, "encrypt\na\nb\n", true},
		{`\A(?!.*^[A-Z]$).*\Z`, "encrypt\na\nB\n", false},
		{`\A(?=.*^b$)(?!.*^c$)`, "a\nb\n", true},
		{`\A(?=.*^b$)(?!.*^c$)`, "a\nb\nc\n", false},
		{`\A(?=.*^b$)(?!.*^c$)`, "a\n", false},
		{`\A(?![)(])x`, "x", true},
		{`\A(?![)(])x`, "(x", false},
		{`a\Z`, "ba", true},
		{`a\Z`, "a\n", false},
	}
	for _, tt := range tests {
		p, err := CompilePattern(tt.pat)
		if err != nil {
			t.Errorf("CompilePattern(%q): %v", tt.pat, err)
			continue
		}
		if got := p.Match([]byte(tt.in)); got != tt.want {
			t.Errorf("%q on %q: got %v, want %v", tt.pat, tt.in, got, tt.want)
		}
	}
	for _, pat := range []string{`(?<=a)b`, `a(?!b)`, `(a)\1`, `\A(?!a`} {
		if _, err := CompilePattern(pat); err == nil {
			t.Errorf("CompilePattern(%q): no error, want one", pat)
		}
	}
	_, err := Parse([]byte("data:\n  secret:\n    data:\n      a:\n        in: '1'\n        match: ['\\A(?!.*^[A-Z]$)', 'x(?<=y)']\n"), "generators.yaml", Options{})
	want := `generators.yaml:6: data.secret.data.a.match.in: "x(?<=y)": error parsing regexp: invalid named capture: ` + "`(?<=y)`" + ` (Go's regexp has no look-around`
	if err == nil || strings.Count(err.Error(), "\n") != 0 || !strings.Contains(err.Error(), want) {
		t.Errorf("got %v, want one error, %s...", err, want)
	}
}

// TestConstants: problem.yaml's constants in a command, replaced once (a
// value's own {{name}} stays, whatever order the constants come in), and
// a command they would make too long an error.
func TestConstants(t *testing.T) {
	src := []byte("data:\n  secret:\n    data:\n      a: gen.py {{a}} {{b}}\n")
	o := Options{Constants: map[string]string{"a": "{{b}}", "b": "2"}}
	for range 50 { // the constants' map order differs from run to run
		cfg, err := Parse(src, "generators.yaml", o)
		if err != nil {
			t.Fatal(err)
		}
		if got := cfg.Cases()[0].Generate.Argv(0); !reflect.DeepEqual(got, []string{"{{b}}", "2"}) {
			t.Fatalf("got %q, want [{{b}} 2]", got)
		}
	}
	big := Options{Constants: map[string]string{"x": strings.Repeat("x", 1<<20)}}
	_, err := Parse([]byte("data:\n  secret:\n    data:\n      a: gen.py"+strings.Repeat(" {{x}}", 20)+"\n"), "generators.yaml", big)
	if want := "generators.yaml:4: data.secret.data.a.generate: its constants make it more than 16 MiB longer"; err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
}
