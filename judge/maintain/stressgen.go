package maintain

import (
	"context"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"time"

	"github.com/optjudge/optjudge/bytesize"
	"github.com/optjudge/optjudge/checkers"
	"github.com/optjudge/optjudge/judge"
	"github.com/optjudge/optjudge/problems"
	"github.com/optjudge/optjudge/problems/kattis"
	"github.com/optjudge/optjudge/verdict"
)

// GeneratorLimit is the CPU time of one run of a generator or of the
// brute force that answers its inputs (their wall time is three times
// as much).
const GeneratorLimit = 10 * time.Second

// generatorOutput bounds one generated input (a problem's output limit may
// be smaller: a Kattis package's default is 8 MiB).
const generatorOutput = 256 * bytesize.MiB

// generated is the part of a stress run that a generator program drives,
// as online-judge-tools' `oj generate-input` and BAPCtools' generators do:
// for a problem without a reference solver of ours (a Kattis package), the
// setter's generator makes input i when run as GENERATOR SEED+i, and the
// brute force (Brute, else the package's model solution or first accepted
// submission) writes its answer; an interactive problem's answers are
// empty (its validator reads the input). Both are built and run in the
// sandbox. There is no shrinking: the failing seed is the counterexample.
type generated struct {
	gen, brute *judge.Prepared // brute nil: interactive, or the reference solves
	run        *problems.Problem
	validators []*checkers.InputValidator
	// like is the configuration the generated tests take in a Kattis
	// package (validator flags and arguments, the submission's
	// arguments): the last secret test's, the largest as a rule; nil in
	// the native layout
	like *kattis.TestConfig
}

// acceptAll accepts any output: a generator's or brute force's run is
// judged by its exit alone.
type acceptAll struct{}

func (acceptAll) Check(context.Context, checkers.Files) (checkers.Result, error) {
	return checkers.Result{Verdict: verdict.AC}, nil
}

// newGenerated builds the generator and the brute force of a stress run.
func (s *stresser) newGenerated(ctx context.Context) (*generated, error) {
	g := &generated{run: &problems.Problem{Name: s.p.Name, Package: kattis.Package{Origin: s.p.Package.Origin}, Limits: s.p.Limits}}
	// an input may be larger than any output the problem allows
	g.run.Limits.Output = max(g.run.Limits.Output, generatorOutput)
	var err error
	if g.gen, err = s.o.Judge.Prepare(ctx, judge.Submission{Path: s.o.Generator}, s.o.Build); err != nil {
		return nil, fmt.Errorf("the generator %s: %w", s.o.Generator, err)
	}
	if !g.gen.Compile.OK {
		g.close()
		return nil, fmt.Errorf("the generator %s does not compile:\n%s", s.o.Generator, g.gen.Compile.Message)
	}
	if g.validators, err = s.o.Judge.InputValidators(ctx, s.p, s.o.Build.Languages); err != nil {
		g.close()
		return nil, err
	}
	tests, err := s.p.Package.Tests()
	if err != nil {
		g.close()
		return nil, err
	}
	for _, t := range tests {
		if t.Group != "sample" && t.Config != nil {
			c := *t.Config
			c.Files = "" // that test's own files
			g.like = &c
		}
	}
	if g.like != nil {
		like := kattis.Test{Config: g.like}
		for i, v := range g.validators {
			for _, prog := range s.p.Package.InputValidators {
				if prog.Name() == v.Program {
					x := *v
					x.Args = s.p.Package.InputValidatorArgs(like, prog)
					g.validators[i] = &x
				}
			}
		}
	}
	if noAnswers(s.p) || (s.o.Brute == "" && s.p.Reference != nil) {
		return g, nil
	}
	brute, bo := s.o.Brute, s.o.Build
	bo.Problem = s.p // a solution of the problem: its included files
	if brute == "" {
		var ex *kattis.ExampleSubmission
		if brute, ex, err = s.modelSolution(); err != nil {
			g.close()
			return nil, err
		}
		if ex.Language != "" {
			bo.Lang = ex.Language // as verify builds it: submissions.yaml's
		}
		bo.Entry = ex.Entrypoint
		bo.Example = true // the package's constants in its files
	}
	if g.brute, err = s.o.Judge.Prepare(ctx, judge.Submission{Path: brute}, bo); err == nil && !g.brute.Compile.OK {
		err = fmt.Errorf("does not compile:\n%s", g.brute.Compile.Message)
	}
	if err != nil {
		g.close()
		return nil, fmt.Errorf("the brute force %s: %w", brute, err)
	}
	return g, nil
}

func (g *generated) close() {
	for _, pp := range []*judge.Prepared{g.gen, g.brute} {
		if pp != nil {
			pp.Close()
		}
	}
}

// modelSolution copies out the package's model solution, else its first
// accepted submission, to answer the generated inputs.
func (s *stresser) modelSolution() (string, *kattis.ExampleSubmission, error) {
	pick, err := defaultSubmission(s.p)
	if err != nil {
		return "", nil, err
	}
	if pick == nil {
		return "", nil, fmt.Errorf("%s: no accepted submission to answer the generated inputs with: give one (--brute)", s.p.Package.Origin)
	}
	dst := filepath.Join(s.tmp, "brute", path.Base(pick.Path))
	if err := copyOut(s.p.Package.FS, pick.Path, dst); err != nil {
		return "", nil, err
	}
	return dst, pick, nil
}

// runTool runs a generator or brute force on each input (the generator's
// are empty, its seed an argument), one test each, and returns what each
// printed; a run that is not accepted (it crashed, ran out of time) is an
// error naming it.
func (g *generated) runTool(ctx context.Context, s *stresser, pp *judge.Prepared, what string, inputs [][]byte, args func(i int) []string) ([][]byte, error) {
	dir, tests, err := s.writeBatch(inputs, nil)
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	if args != nil {
		for i := range tests {
			tests[i].Config = &kattis.TestConfig{Args: args(i)}
		}
	}
	o := s.o.Grade
	o.Tests, o.Lazy, o.Checker, o.Progress, o.Outputs = tests, true, acceptAll{}, nil, judge.OutputsAll
	o.TimeLimit, o.WallLimit = GeneratorLimit, 3*GeneratorLimit
	r, err := pp.Grade(ctx, g.run, o)
	if err != nil {
		return nil, err
	}
	out := make([][]byte, len(inputs))
	for _, tr := range r.Tests {
		if tr.Verdict != verdict.AC {
			how := tr.Message
			if args != nil {
				how = fmt.Sprintf("seed %s: %s", args(tr.Index)[0], how)
			}
			return nil, fmt.Errorf("the %s failed (%s): %s", what, tr.Verdict, how)
		}
		out[tr.Index] = tr.Output
	}
	return out, nil
}

// inputs makes inputs first, first+1, ... of the generator, checked by the
// problem's input validators.
func (g *generated) inputs(ctx context.Context, s *stresser, first, n int) ([][]byte, error) {
	seed := func(i int) []string { return []string{strconv.FormatUint(s.o.Seed+uint64(first+i), 10)} }
	ins, err := g.runTool(ctx, s, g.gen, "generator", make([][]byte, n), seed)
	if err != nil {
		return nil, err
	}
	for i, in := range ins {
		for _, v := range g.validators {
			why, err := v.Validate(ctx, in)
			if err != nil {
				return nil, err
			}
			if why != "" {
				return nil, fmt.Errorf("the generator's input for seed %s is invalid: %s", seed(i)[0], why)
			}
		}
	}
	return ins, nil
}

// noAnswers says whether p's generated tests get no answer from a
// solution: in an interactive or a multi-pass problem the validator
// decides from the input (as judge generate makes them).
func noAnswers(p *problems.Problem) bool {
	return p.Package.Validation.Interactive || p.Package.Validation.Passes > 0
}

// answers are the inputs' answers: the brute force's output, the
// reference's, or (interactive, multi-pass) none.
func (g *generated) answers(ctx context.Context, s *stresser, inputs [][]byte) ([][]byte, error) {
	switch {
	case g.brute != nil:
		return g.runTool(ctx, s, g.brute, "brute force", inputs, nil)
	case noAnswers(s.p):
		return make([][]byte, len(inputs)), nil
	}
	out := make([][]byte, len(inputs))
	for i, in := range inputs {
		ans, err := s.p.Reference.Solve(in)
		if err != nil {
			return nil, fmt.Errorf("the reference on a generated input: %w", err)
		}
		out[i] = ans
	}
	return out, nil
}

// runGenerated is run for a generator: batches of its inputs until one
// fails or o.Count passed. The failure is the input as generated.
func (s *stresser) runGenerated(ctx context.Context, res *StressResult) error {
	g, err := s.newGenerated(ctx)
	if err != nil {
		return err
	}
	defer g.close()
	start := time.Now()
	for res.Tests < s.o.Count {
		n := min(s.batchSize(), s.o.Count-res.Tests)
		inputs, err := g.inputs(ctx, s, res.Tests, n)
		if err != nil {
			return err
		}
		answers, err := g.answers(ctx, s, inputs)
		if err != nil {
			return err
		}
		results, err := s.gradeWith(ctx, inputs, answers, g.like, true)
		if err != nil {
			return err
		}
		for i, r := range results {
			if r == nil || r.Verdict == verdict.AC {
				continue
			}
			if r.Verdict == verdict.JE {
				return fmt.Errorf("judging the input of seed %d: %s", s.o.Seed+uint64(res.Tests+i), r.Message)
			}
			res.Tests += i + 1
			res.Elapsed = time.Since(start)
			s.progress(res)
			res.Failure = &Failure{
				Index: res.Tests, Input: inputs[i], Verdict: r.Verdict, Message: r.Message,
				Seed:   strconv.FormatUint(s.o.Seed+uint64(res.Tests-1), 10),
				Shrunk: inputs[i], ShrunkAnswer: answers[i], ShrunkVerdict: r.Verdict, ShrunkMessage: r.Message,
				Cases: 1, Depth: -1,
			}
			return nil
		}
		res.Tests += n
		res.Elapsed = time.Since(start)
		s.progress(res)
	}
	return nil
}
