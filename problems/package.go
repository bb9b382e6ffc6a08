package problems

import (
	"errors"
	"io/fs"
	"path"
	"strings"

	"github.com/optjudge/optjudge/checkers"
	"github.com/optjudge/optjudge/problems/kattis"
)

// kattisSpec translates a Kattis package's problem.yaml and directories
// into the judge's Spec; short is the package's directory name.
func kattisSpec(k *kattis.Spec, fsys fs.FS, short string) (*Spec, error) {
	n, err := k.Native(fsys)
	if err != nil {
		return nil, err
	}
	s := Defaults()
	s.file, s.lines, s.anyName = n.File, n.Lines, true
	s.Name = short
	s.Title = n.Title
	if strings.TrimSpace(s.Title) == "" {
		s.Title = short
	}
	s.Sources = n.Sources
	if n.Memory > 0 {
		s.Limits.Memory = n.Memory
	}
	if n.Output > 0 {
		s.Limits.Output = n.Output
	}
	if n.TimeLimit > 0 {
		s.Limits.TimeLimit = n.TimeLimit
	}
	if n.OutputValidator != "" {
		s.Checker = CheckerSpec{Program: n.OutputValidator, Protocol: checkers.Kattis.String()}
		if len(n.ValidatorArgs) > 0 {
			s.Checker.Args = n.ValidatorArgs
		}
	}
	s.InputValidators = n.InputValidators
	return &s, nil
}

// nativePackage makes the package model of a native problem from its
// Spec and testdata/: pass-fail (interactive with an interactor), the
// groups sample and secret, flat, and the time limit problem.yaml gives,
// held to the problem's TimeRules.
func (p *Problem) nativePackage() error {
	pk := &p.Package
	root, err := nativeGroups(pk.FS, pk.Origin)
	if err != nil {
		return err
	}
	pk.Groups = root
	pk.Validation.Program = pk.CheckerProgram
	if it := p.Spec.Interactor; it != nil {
		pk.Type.Interactive, pk.Validation.Interactive = true, true
		pk.Validation.Program = &kattis.Program{Path: it.Program, Protocol: it.InteractorProtocol(), Args: it.Args}
	}
	pk.Time = kattis.TimeLimitRules{Given: true, Source: p.file("problem.yaml"),
		Multipliers: kattis.TimeMultipliers{ACToTimeLimit: p.TimeRules.AC, TimeLimitToTLE: p.TimeRules.TLE, Resolution: kattis.TimeMultipliers2023.Resolution}}
	return nil
}

// file names a file of the problem as its origin does.
func (p *Problem) file(name string) string { return kattis.Test{Origin: p.Package.Origin}.Path(name) }

// nativeGroups is the tree of a native problem: testdata/ with sample and
// secret, each a flat list of tests.
func nativeGroups(fsys fs.FS, origin string) (*kattis.Group, error) {
	root := &kattis.Group{Dir: "testdata", Settings: kattis.GroupSettings{Grading: "default", AcceptScore: 1, Range: kattis.FullRange, Unbounded: true}}
	for _, name := range []string{"sample", "secret"} {
		dir := path.Join("testdata", name)
		ts, err := kattis.ListTests(fsys, dir, name, origin)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		g := &kattis.Group{Name: name, Dir: dir, Settings: root.Settings}
		g.Settings.Test.Group = name
		g.Settings.Test.FullFeedback = name == "sample"
		for i := range ts {
			g.Items = append(g.Items, kattis.Item{Test: &ts[i]})
		}
		root.Items = append(root.Items, kattis.Item{Group: g})
	}
	return root, nil
}
