package kattis_test

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/optjudge/optjudge/problems"
	"github.com/optjudge/optjudge/problems/kattis"
	"github.com/optjudge/optjudge/verdict"
)

// The parsers of a package never panic, whatever its files hold: bad input
// is an error or a warning naming the file.

func FuzzParseKattis(f *testing.F) {
	for _, s := range []string{
		"", "name: A\n", "type: [scoring, interactive]\nproblem_format_version: 2025-09\n",
		"validation: custom interactive score\ntype: scoring\n", "limits: {time_limit: -1, time_multipliers: {ac_to_time_limit: .nan}}\n",
		"grading: {objective: min, range: '0 inf', on_reject: grade}\n", "name: {en: A, sv: B}\nsource: [{name: X, url: y}, Z]\n",
		"- a\n", "type: 3\n", "limits:\n  time: [1]\n", "&a [*a]\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		k, err := kattis.Parse(strings.NewReader(s), "problem.yaml")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "problem.yaml") {
				t.Errorf("error %q does not name the file", err)
			}
			return
		}
		_ = k.Validate()
		for _, w := range k.Warnings() {
			if w.File != "problem.yaml" {
				t.Errorf("warning %v does not name the file", w)
			}
		}
	})
}

// FuzzLoadPackage loads a package whose problem.yaml, test_group.yaml (and
// testdata.yaml), test .yaml and submissions.yaml are fuzzed, and grades
// an accepted run on it.
func FuzzLoadPackage(f *testing.F) {
	f.Add("problem_format_version: 2025-09\ntype: scoring\n", "max_score: 30\nrequire_pass: sample\n", "args: [a]\n", "accepted:\n  score: [1, 2]\n")
	f.Add("type: scoring\n", "on_reject: continue\ngrader_flags: avg ignore_sample\nrange: 0 5\n", "hint: x\n", "'{a,b}/*':\n  secret/g:\n    required: [TLE]\n")
	f.Add("problem_format_version: 2023-07\n", "input_validator_flags: {name: v, flags: -x}\noutput_validator_flags: float_tolerance\n", "", "x: [1]\n")
	f.Add("", "static_validation_score: pass-fail\nmax_score: unbounded\n", "output_validator_args: {a: b}\n", "accepted: {use_for_time_limit: upper}\n")
	f.Fuzz(func(t *testing.T, problem, group, test, subs string) {
		fsys := fstest.MapFS{
			"problem.yaml":                  {Data: []byte(problem)},
			"data/sample/1.in":              {Data: []byte("1\n")},
			"data/sample/1.ans":             {Data: []byte("1\n")},
			"data/secret/g/test_group.yaml": {Data: []byte(group)},
			"data/secret/g/testdata.yaml":   {Data: []byte(group)},
			"data/secret/g/1.in":            {Data: []byte("1\n")},
			"data/secret/g/1.ans":           {Data: []byte("1\n")},
			"data/secret/g/1.yaml":          {Data: []byte(test)},
			"submissions/submissions.yaml":  {Data: []byte(subs)},
			"submissions/accepted/a.py":     {Data: []byte("# @EXPECTED_RESULTS@: " + test + "\n")},
			"output_validator/v.py":         {Data: []byte("")},
			"static_validator/s.py":         {Data: []byte("")},
		}
		p, err := problems.Load(fsys, "embedded:fuzz")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "embedded:fuzz/") {
				t.Errorf("error %q does not name a file of the package", err)
			}
			return
		}
		if _, err := p.Package.Tests(); err != nil {
			t.Fatalf("Tests failed after Load: %v", err)
		}
		l, err := p.Package.Submissions()
		if err != nil {
			t.Fatal(err)
		}
		g, err := p.Package.Grade(func(*kattis.Test) (kattis.TestResult, bool) { return kattis.TestResult{Verdict: verdict.AC}, true }, func(*kattis.Group, []kattis.Outcome) (kattis.Outcome, error) {
			return kattis.Outcome{Verdict: verdict.AC}, nil
		})
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range l.Submissions {
			s.Check(kattis.Run{Grading: g})
		}
	})
}

func FuzzGlob(f *testing.F) {
	for _, s := range [][2]string{{"a/{b,c}/*", "a/b/x"}, {"{{{", "{"}, {"a{,}b", "ab"}, {"[a-", "x"}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, glob, name string) {
		pats, ok := kattis.ExpandBraces(glob)
		if ok && len(pats) > kattis.MaxExpansions {
			t.Errorf("got %d patterns, over the bound", len(pats))
		}
		kattis.GlobMatch(glob, name)
	})
}

func FuzzDefaultGrader(f *testing.F) {
	f.Add("ignore_sample avg", []byte{1, 2, 3})
	f.Add("min accept_if_any_accepted", []byte{})
	f.Fuzz(func(t *testing.T, flags string, vs []byte) {
		var in []kattis.Outcome
		for i, b := range vs {
			in = append(in, kattis.Outcome{Verdict: verdict.Verdict(b % 9), Score: float64(int(b) - i)})
		}
		o := kattis.DefaultGrader(strings.Fields(flags), in)
		if int(o.Verdict) > int(verdict.JE) {
			t.Errorf("got verdict %v", o.Verdict)
		}
	})
}
