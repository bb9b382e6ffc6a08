package judge

import (
	"context"
	"os"
	"path/filepath"

	"github.com/optjudge/optjudge/checkers"
	"github.com/optjudge/optjudge/judge/lang"
	"github.com/optjudge/optjudge/judge/sandbox"
	"github.com/optjudge/optjudge/problems"
	"github.com/optjudge/optjudge/problems/kattis"
)

// staticTests are the static validation test cases of p's groups (a
// 2025-09 test_group.yaml's static_validation_score), in test order; nil
// when p has no static validator.
func staticTests(p *problems.Problem) []*kattis.Test {
	if p.Package.StaticValidator == nil || p.Package.Groups == nil {
		return nil
	}
	var out []*kattis.Test
	for _, t := range p.Package.Groups.AllTests() {
		if t.Config != nil && t.Config.Static {
			out = append(out, t)
		}
	}
	return out
}

// validateStatic runs the problem's static validator once for each of its
// static validation test cases, as the 2025-09 format has it:
//
//	static_validator language entry_point feedback_dir [static_validator_args]
//
// in a working directory holding the submission's files (the included ones
// too) and its build's, in a box of the programs' sandbox (the problem
// setter's program, under validation_time, validation_memory and
// validation_output), its feedback directory writable. Its exit code and feedback are an output
// validator's: 42 accepts, 43 rejects, score.txt scores. Each result is
// named after its test case ("secret/group1/static_validation").
func (g *grader) validateStatic(ctx context.Context, langs *lang.Table, tests []*kattis.Test) ([]TestResult, error) {
	t, err := g.j.tool(ctx, g.p, *g.p.Package.StaticValidator, langs)
	if err != nil {
		return nil, err
	}
	var out []TestResult
	for _, st := range tests {
		tr := TestResult{Name: st.Name, Index: -1}
		// the validator's verdict as a checker's of a run that completed,
		// through the one mapping to a verdict (outcome): no limit of the
		// submission's changes it (Regrade)
		o := &outcome{status: sandbox.OK, run: sandbox.Result{Status: sandbox.OK}}
		tr.outcome = o
		if g.prog.src == nil || g.prog.code == "" {
			o.check(checkers.Result{}, "static validation: a submission of no language of the table (or a build imported without its sources) has no files to give the static validator")
		} else {
			res, err := g.staticRun(ctx, t, st)
			switch {
			case ctx.Err() != nil:
				return nil, ctx.Err()
			case err != nil:
				o.check(checkers.Result{}, "static validator: "+err.Error())
			default:
				o.check(res, "")
			}
		}
		o.decide(&tr, g.limits)
		out = append(out, tr)
	}
	return out, nil
}

// staticRun runs the static validator on the submission for test case st.
func (g *grader) staticRun(ctx context.Context, t *tool, st *kattis.Test) (checkers.Result, error) {
	dir, err := os.MkdirTemp(g.j.tmp, "static-")
	if err != nil {
		return checkers.Result{}, err
	}
	defer removeAll(dir)
	if err := os.Chmod(dir, 0o711); err != nil { // a box uid passes it at level none
		return checkers.Result{}, err
	}
	work, feedback := filepath.Join(dir, "work"), filepath.Join(dir, "feedback")
	for _, d := range []string{work, feedback} {
		if err := os.Mkdir(d, 0o755); err != nil {
			return checkers.Result{}, err
		}
	}
	if err := g.prog.src.copyInto(work, 0o755); err != nil {
		return checkers.Result{}, err
	}
	for _, f := range g.prog.files {
		dst := filepath.Join(work, filepath.FromSlash(f))
		if _, err := os.Lstat(dst); err == nil {
			continue // a source the runs use as it is
		}
		if err := copyFile(filepath.Join(g.prog.dir, filepath.FromSlash(f)), dst, 0o755); err != nil {
			return checkers.Result{}, err
		}
	}
	entry := g.prog.vars["mainclass"]
	if entry == "" {
		entry = g.prog.vars["src"]
	}
	var args []string
	if sv := g.p.Package.GroupOf(*st); sv != nil && sv.Settings.StaticValidation != nil {
		args = sv.Settings.StaticValidation.Args
	}
	cmd := t.command(programTimeout(g.p), programMemory(g.p))
	cmd.Dir = work
	cmd.Output = programOutput(g.p)
	x := &checkers.External{Command: cmd, Protocol: checkers.Kattis}
	return x.Static(ctx, g.prog.code, entry, feedback+"/", args)
}
