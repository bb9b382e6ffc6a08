package kattis

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/optjudge/optjudge/specfile"
)

// Contest is a directory of problems served as one contest, as BAPCtools
// and DOMjudge lay it out: contest.yaml says what the contest is called,
// problems.yaml which problems it has, in order, with their labels and
// colours.
//
// contest.yaml is a mapping; the judge reads
//
//	id           the contest's short name
//	name         its name (formal_name, or BAPCtools' title, when not given)
//
// and leaves its other keys (start_time, duration, BAPCtools' LaTeX
// fields, ...) to the tools that use them.
//
// problems.yaml is a list, in the contest's order, of
//
//	id           the problem's directory name (required)
//	label        its label on the scoreboard, A, B, ... (required, unique)
//	name         its title (the problem's own title wins, as in BAPCtools)
//	rgb          its colour, #rrggbb or #rgb
//	color        its colour's name (DOMjudge: "Forest Green")
//	time_limit   ignored: the problem's own limit wins, as in BAPCtools
//
// Another key is a warning, not an error: the files are shared with
// other tools that add their own.
type Contest struct {
	ID, Name string
	Problems []ContestProblem
	Warnings []Warning
}

// ContestProblem is one entry of problems.yaml.
type ContestProblem struct {
	ID    string
	Label string
	Name  string
	RGB   string // "#rrggbb", lower case; "" when none
	Color string // the colour's name; "" when none
	Line  int    // the entry's line in problems.yaml
}

// Find is the entry of the problem called id; nil if the contest has
// none.
func (c *Contest) Find(id string) *ContestProblem {
	if c == nil {
		return nil
	}
	for i := range c.Problems {
		if c.Problems[i].ID == id {
			return &c.Problems[i]
		}
	}
	return nil
}

// LoadContest reads dir/contest.yaml and dir/problems.yaml; nil, nil
// when dir has neither.
func LoadContest(dir string) (*Contest, error) {
	var c *Contest
	for _, name := range []string{"contest.yaml", "problems.yaml"} {
		f, err := os.Open(filepath.Join(dir, name))
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		if c == nil {
			c = &Contest{}
		}
		file := filepath.Join(dir, name)
		if name == "contest.yaml" {
			err = c.parseContest(f, file)
		} else {
			err = c.parseProblems(f, file)
		}
		f.Close()
		if err != nil {
			return nil, err
		}
	}
	return c, nil
}

// readContest reads a contest.yaml (contestYAML, named contestName in
// messages) and a problems.yaml; either may be nil.
func readContest(contestYAML io.Reader, contestName string, problemsYAML io.Reader, problemsName string) (*Contest, error) {
	c := &Contest{}
	if contestYAML != nil {
		if err := c.parseContest(contestYAML, contestName); err != nil {
			return nil, err
		}
	}
	if problemsYAML != nil {
		if err := c.parseProblems(problemsYAML, problemsName); err != nil {
			return nil, err
		}
	}
	return c, nil
}

func (c *Contest) parseContest(r io.Reader, name string) error {
	data, err := io.ReadAll(io.LimitReader(r, 1<<20))
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	f := &yamlFile{name: name}
	doc := f.parse(data)
	if doc == nil {
		return f.errOrNil()
	}
	var formal, title string
	for _, kv := range pairs(doc) {
		k, v := kv[0].Value, kv[1]
		switch k {
		case "id":
			c.ID, _ = f.str(v, k)
		case "name":
			c.Name, _ = f.str(v, k)
		case "formal_name":
			formal, _ = f.str(v, k)
		case "title":
			title, _ = f.str(v, k)
		}
	}
	if c.Name == "" {
		c.Name = firstOf(formal, title, c.ID)
	}
	c.Warnings = append(c.Warnings, f.warnings...)
	return f.errOrNil()
}

// errOrNil is the file's errors, nil for none.
func (f *yamlFile) errOrNil() error {
	if len(f.errs) > 0 {
		return f.errs
	}
	return nil
}

// problemIDRE is a problem's directory name as the judge takes it.
var problemIDRE = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]{0,63}$`)

var rgbRE = regexp.MustCompile(`^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$`)

func (c *Contest) parseProblems(r io.Reader, name string) error {
	data, err := io.ReadAll(io.LimitReader(r, 1<<20))
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	f := &yamlFile{name: name}
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return specfile.Syntax(name, err)
	}
	if len(root.Content) == 0 || isNull(root.Content[0]) {
		return nil
	}
	list := root.Content[0]
	if list.Kind != yaml.SequenceNode {
		return &specfile.Error{File: name, Line: list.Line, Msg: "want a list of problems (- id: ..., label: ...)"}
	}
	ids, labels := map[string]int{}, map[string]int{}
	for i, item := range list.Content {
		item = resolve(item)
		if item.Kind != yaml.MappingNode {
			f.bad(item, fmt.Sprintf("[%d]", i), "want a mapping with id and label")
			continue
		}
		if p, ok := c.problemEntry(f, item, i, ids, labels); ok {
			c.Problems = append(c.Problems, p)
		}
	}
	c.Warnings = append(c.Warnings, f.warnings...)
	return f.errOrNil()
}

// problemEntry reads entry i of problems.yaml.
func (c *Contest) problemEntry(f *yamlFile, item *yaml.Node, i int, ids, labels map[string]int) (ContestProblem, bool) {
	p := ContestProblem{Line: item.Line}
	errs := len(f.errs)
	field := func(k string) string { return fmt.Sprintf("[%d].%s", i, k) }
	for _, kv := range pairs(item) {
		k, v := kv[0].Value, resolve(kv[1])
		switch k {
		case "id":
			p.ID, _ = f.str(v, field(k))
		case "label":
			p.Label, _ = f.str(v, field(k))
		case "name":
			if v.Kind == yaml.MappingNode { // a title per language
				for _, nv := range pairs(v) {
					if t, ok := f.str(nv[1], field(k)+"."+nv[0].Value); ok && (p.Name == "" || nv[0].Value == "en") {
						p.Name = t
					}
				}
			} else {
				p.Name, _ = f.str(v, field(k))
			}
		case "rgb":
			if s, ok := f.str(v, field(k)); ok {
				if !rgbRE.MatchString(s) {
					f.bad(v, field(k), "%q: want a colour as #rrggbb or #rgb", s)
				}
				p.RGB = normalRGB(s)
			}
		case "color", "colour":
			p.Color, _ = f.str(v, field(k))
		case "time_limit", "ordinal", "uuid":
			// the problem's own, or the scoreboard's
		default:
			f.warn(kv[0], field(k), "not a key of problems.yaml (id, label, name, rgb, color, time_limit); ignored")
		}
	}
	switch {
	case p.ID == "":
		f.bad(item, field("id"), "required: the problem's directory name")
	case !problemIDRE.MatchString(p.ID):
		f.bad(item, field("id"), "%q: want a problem directory's name (a-z, 0-9, - and _)", p.ID)
	case ids[p.ID] > 0:
		f.bad(item, field("id"), "%q is listed twice (line %d)", p.ID, ids[p.ID])
	}
	switch {
	case strings.TrimSpace(p.Label) == "":
		f.bad(item, field("label"), "required: the problem's label (A, B, ...)")
	case labels[p.Label] > 0:
		f.bad(item, field("label"), "%q is the label of two problems (line %d)", p.Label, labels[p.Label])
	}
	if p.RGB == "" && rgbRE.MatchString(p.Color) {
		p.RGB = normalRGB(p.Color) // color: '#ff0000'
	}
	ids[p.ID], labels[p.Label] = item.Line, item.Line
	return p, len(f.errs) == errs
}

// normalRGB is #rgb or #rrggbb as #rrggbb in lower case; "" for anything
// else.
func normalRGB(s string) string {
	if !rgbRE.MatchString(s) {
		return ""
	}
	s = strings.ToLower(s[1:])
	if len(s) == 3 {
		s = string([]byte{s[0], s[0], s[1], s[1], s[2], s[2]})
	}
	return "#" + s
}
