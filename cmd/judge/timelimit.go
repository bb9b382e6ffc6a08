package main

import (
	"context"
	"fmt"

	"github.com/optjudge/optjudge/judge"
	"github.com/optjudge/optjudge/judge/maintain"
	"github.com/optjudge/optjudge/problems"
	"github.com/optjudge/optjudge/problems/kattis"
)

// timeLimit fills in the time limit of a Kattis package that gives none
// (no limits.time_limit, no .timelimit) when no --time-limit does: the
// limit derived from its accepted submissions, computed once per package
// version and kept in the cache directory. It says so on stderr.
func (e *env) timeLimit(ctx context.Context, j *judge.Judge, p *problems.Problem, bo judge.BuildOptions, o *judge.GradeOptions) error {
	if o.TimeLimit > 0 || p.Package.Layout != kattis.LayoutKattis || p.Package.Time.Given {
		return nil
	}
	if maintain.CachedTimeLimit(j, p) == nil {
		fmt.Fprintf(e.stderr, "judge: %s gives no time limit: deriving it from its accepted submissions\n", p.Name)
	}
	d, cached, err := maintain.DeriveTimeLimit(ctx, p, maintain.VerifyOptions{
		Judge: j, Build: judge.BuildOptions{Languages: bo.Languages}, Grade: judge.GradeOptions{Parallel: o.Parallel, Outputs: judge.OutputsNone},
	})
	if err != nil {
		return err
	}
	o.TimeLimit = d.Limit
	how := "computed now and cached"
	if cached {
		how = "cached"
	}
	fmt.Fprintf(e.stderr, "judge: time limit %s: %s, %s on %s by %s, times %g, rounded up to %s (%s in %s; --time-limit overrides it)\n",
		seconds(d.Limit), d.Run(), seconds(d.Slowest), d.Test, d.Submission, d.Multipliers.ACToTimeLimit, seconds(d.Multipliers.Resolution), how, maintain.TimeLimitCache(j, p))
	return nil
}
