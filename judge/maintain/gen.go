package maintain

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"

	"github.com/optjudge/optjudge/problems"
	"github.com/optjudge/optjudge/reference"
)

// All is the kind of Generate that enumerates the whole state space.
const All = "all"

// GenerateOptions say what Generate writes.
type GenerateOptions struct {
	Kind  string // reference.Random, reference.Deep or All
	Count int    // how many files of kind random or deep
	Cases int    // cases per file where the format holds several; 0 is 1
	Seed  uint64 // file i is drawn from the PCG stream (Seed, i)
	Dir   string // where the files go; created if needed
}

// Generated is one test Generate wrote.
type Generated struct {
	In, Ans string // the files' paths
}

// tools returns the generators and case operations of p's reference.
func tools(p *problems.Problem) (reference.Tools, error) {
	t, err := p.Tools()
	if err != nil {
		return reference.Tools{}, err
	}
	return *t, nil
}

// Generate writes tests of p into o.Dir: each input with the reference's
// answer beside it. Random and deep files are named KIND-SEED-NNN and are
// the same for the same seed, whatever the count; file i is drawn from the
// PCG stream (Seed, i). All writes every case: one file where the format
// holds many cases (all.in), else one file per case (all-NNNNNN.in); where
// some cases have no solution, a sample of them drawn with Seed is added.
func Generate(p *problems.Problem, o GenerateOptions) ([]Generated, error) {
	t, err := tools(p)
	if err != nil {
		return nil, err
	}
	if o.Cases < 1 {
		o.Cases = 1
	}
	var inputs [][]byte
	var names []string
	switch o.Kind {
	case reference.Random, reference.Deep:
		if o.Count < 1 {
			return nil, fmt.Errorf("count %d: want at least 1", o.Count)
		}
		for i := range o.Count {
			in, err := t.Generate(o.Kind, rand.New(rand.NewPCG(o.Seed, uint64(i))), o.Cases)
			if err != nil {
				return nil, err
			}
			inputs = append(inputs, in)
			names = append(names, fmt.Sprintf("%s-%d-%03d", o.Kind, o.Seed, i+1))
		}
	case All:
		if t.All != nil {
			inputs = t.All(rand.New(rand.NewPCG(o.Seed, 0)))
		}
		if inputs == nil {
			return nil, fmt.Errorf("%s: the state space is too large to enumerate; use --kind random or deep", p.Name)
		}
		for i := range inputs {
			if len(inputs) == 1 {
				names = append(names, "all")
			} else {
				names = append(names, fmt.Sprintf("all-%06d", i))
			}
		}
	default:
		return nil, fmt.Errorf("unknown kind %q (want %s, %s or %s)", o.Kind, reference.Random, reference.Deep, All)
	}
	return write(p, o.Dir, names, inputs)
}

// write validates each input, solves it and writes both files.
func write(p *problems.Problem, dir string, names []string, inputs [][]byte) ([]Generated, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	out := make([]Generated, 0, len(inputs))
	for i, in := range inputs {
		g := Generated{In: filepath.Join(dir, names[i]+".in"), Ans: filepath.Join(dir, names[i]+".ans")}
		if err := writeTest(p, g, in); err != nil {
			return out, err
		}
		out = append(out, g)
	}
	return out, nil
}

func writeTest(p *problems.Problem, g Generated, in []byte) error {
	if p.Validator != nil {
		if err := p.Validator.Validate(in); err != nil {
			return fmt.Errorf("generated an invalid input %s: %w", g.In, err)
		}
	}
	ans, err := p.Reference.Solve(in)
	if err != nil {
		return fmt.Errorf("solving %s: %w", g.In, err)
	}
	if err := os.WriteFile(g.In, in, 0o644); err != nil {
		return err
	}
	return os.WriteFile(g.Ans, ans, 0o644)
}

// Save adds a test named name (without extension) to the secret tests of a
// problem directory, with the reference's answer, and returns it. It will
// not overwrite a test.
func Save(p *problems.Problem, name string, in []byte) (Generated, error) {
	if p.Reference == nil {
		return Generated{}, fmt.Errorf("%s: the problem names no reference solver to write the answer", p.Package.Origin)
	}
	if p.Dir == "" {
		return Generated{}, fmt.Errorf("%s: not a problem directory: only a problem on disk can be added to", p.Package.Origin)
	}
	dir := filepath.Join(p.Dir, filepath.FromSlash(p.Package.TestDir("secret")))
	g := Generated{In: filepath.Join(dir, name+".in"), Ans: filepath.Join(dir, name+".ans")}
	if _, err := os.Stat(g.In); err == nil {
		return Generated{}, fmt.Errorf("%s: already exists", g.In)
	} else if !errors.Is(err, os.ErrNotExist) {
		return Generated{}, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return Generated{}, err
	}
	return g, writeTest(p, g, in)
}

// Distinct counts the cases of files, and how many of them differ: the
// deepest positions of a puzzle may be few (the 2x3 sliding puzzle has
// one), and deep tests then repeat them.
func Distinct(p *problems.Problem, files []Generated) (distinct, total int, err error) {
	t, err := tools(p)
	if err != nil {
		return 0, 0, err
	}
	seen := map[string]bool{}
	for _, g := range files {
		in, err := os.ReadFile(g.In)
		if err != nil {
			return 0, 0, err
		}
		cases := [][]byte{in}
		if t.Split != nil {
			if cases, err = t.Split(in); err != nil {
				return 0, 0, err
			}
		}
		for _, c := range cases {
			seen[string(c)] = true
			total++
		}
	}
	return len(seen), total, nil
}
