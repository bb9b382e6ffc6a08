package maintain

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/optjudge/optjudge/judge"
	"github.com/optjudge/optjudge/problems"
	"github.com/optjudge/optjudge/problems/kattis"
)

// DeriveTimeLimit is the time limit of a Kattis package that gives none
// (no limits.time_limit, no .timelimit), derived as Verify derives it: its
// accepted submissions run under problems.UnknownTimeLimit, and their
// slowest run, times ac_to_time_limit, rounded up to the time resolution,
// is the limit. It is computed once per package version
// (problems.Problem.Hash) and kept in the Judge's cache directory; cached
// says that it came from there. opts.Graded and Progress are called as
// Verify calls them. An error says why none could be derived (no accepted
// submission was accepted, say).
func DeriveTimeLimit(ctx context.Context, p *problems.Problem, opts VerifyOptions) (d *DerivedLimit, cached bool, err error) {
	file := TimeLimitCache(opts.Judge, p)
	if d := CachedTimeLimit(opts.Judge, p); d != nil {
		return d, true, nil
	}
	v := &verifier{p: p, opts: opts, invalid: map[string]bool{}, rep: &VerifyReport{
		Problem: p.Name, TimeLimit: p.Limits.Time, Rules: p.TimeRules(),
	}}
	tmp, err := os.MkdirTemp(opts.Judge.TempDir(), "derive-")
	if err != nil {
		return nil, false, err
	}
	defer os.RemoveAll(tmp)
	exs, found := v.examples()
	v.rep.Findings = append(v.rep.Findings, found...)
	var accepted []example
	for _, ex := range exs {
		if ex.sub.HasBound(kattis.TimeBoundLower) {
			accepted = append(accepted, ex)
		}
	}
	all, err := p.Package.Tests()
	if err != nil {
		return nil, false, err
	}
	ctx, cancel := context.WithCancel(ctx)
	builds := v.buildAll(ctx, tmp, accepted, make(chan struct{}, v.jobs()), nil)
	defer func() { cancel(); closeBuilds(builds) }()
	var done []graded
	lowerTests := func(ex example) []kattis.Test { return boundTests(ex, all) }
	if err := v.gradeAll(ctx, builds, kattis.UnknownTimeLimit, lowerTests, nil, func(_ int, g graded) {
		if g.failed != nil {
			v.notGraded(g.ex, g.failed)
			return
		}
		done = append(done, g)
		if opts.Graded != nil && !g.partial {
			opts.Graded(*g.res)
		}
	}); err != nil {
		return nil, false, err
	}
	v.deriveLimit(done)
	if v.rep.Derived == nil {
		return nil, false, noLimit(v, len(accepted), done)
	}
	if b, err := json.Marshal(v.rep.Derived); err == nil {
		if os.MkdirAll(filepath.Dir(file), 0o755) == nil {
			os.WriteFile(file, b, 0o644) // a cache: a failure to keep it only costs the next run
		}
	}
	return v.rep.Derived, false, nil
}

// TimeLimitCache is the file DeriveTimeLimit keeps p's derived time limit
// in.
func TimeLimitCache(j *judge.Judge, p *problems.Problem) string {
	return filepath.Join(j.CacheDir(), "timelimits", p.Hash()+".json")
}

// CachedTimeLimit is p's time limit as DeriveTimeLimit derived it before,
// or nil.
func CachedTimeLimit(j *judge.Judge, p *problems.Problem) *DerivedLimit {
	b, err := os.ReadFile(TimeLimitCache(j, p))
	if err != nil {
		return nil
	}
	var d DerivedLimit
	if json.Unmarshal(b, &d) != nil || d.Limit <= 0 {
		return nil
	}
	return &d
}

// noLimit says why no time limit could be derived.
func noLimit(v *verifier, accepted int, done []graded) error {
	var why []string
	for _, f := range v.rep.Findings {
		if f.Severity == Error {
			why = append(why, f.String())
		}
	}
	for _, g := range done {
		why = append(why, fmt.Sprintf("%s got %s%s", g.res.Path, g.res.Got, onTest(g.res)))
	}
	msg := fmt.Sprintf("%s gives no time limit, and none of its %d accepted submissions was accepted to derive one from", v.p.Package.Origin, accepted)
	if accepted == 0 {
		msg = fmt.Sprintf("%s gives no time limit, and has no accepted submission to derive one from", v.p.Package.Origin)
	}
	if len(why) > 0 {
		msg += ": " + strings.Join(why, "; ")
	}
	return errors.New(msg)
}
