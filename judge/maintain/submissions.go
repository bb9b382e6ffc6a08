package maintain

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/optjudge/optjudge/judge"
	"github.com/optjudge/optjudge/judge/lang"
	"github.com/optjudge/optjudge/problems"
	"github.com/optjudge/optjudge/problems/kattis"
	"github.com/optjudge/optjudge/verdict"
)

// example is one program under submissions/<folder>/, with what it must
// get.
type example struct {
	sub  kattis.ExampleSubmission
	rel  string          // submissions/<dir>/<name>
	want verdict.Verdict // its one final verdict; Unknown when its expectations ask for more
}

// examples lists the example submissions with their expectations, as the
// problem's model states them (kattis.Package.Submissions), with the
// findings about the folders and files it cannot use (for Verify to add
// where it checks the submissions).
func (v *verifier) examples() ([]example, []Finding) {
	if !isDirFS(v.p.Package.FS, "submissions") {
		return nil, []Finding{finding(Error, v.file("submissions"), "", "no example submissions: want at least one under submissions/accepted/")}
	}
	list, err := v.p.Package.Submissions()
	if err != nil {
		return nil, []Finding{finding(Error, v.file("submissions"), "", "%v", err)}
	}
	var found []Finding
	for _, e := range list.Errors {
		found = append(found, finding(Error, e.File, linePos(e.Line), "%s", fieldMsg(e.Field, e.Msg)))
	}
	for _, w := range list.Warnings {
		found = append(found, finding(Warning, w.File, linePos(w.Line), "%s", fieldMsg(w.Field, w.Msg)))
	}
	var out []example
	lower := 0
	for _, s := range list.Submissions {
		switch {
		case len(s.Expectations) == 0:
			// Its folder has a warning already.
		default:
			want, _ := s.FinalVerdict()
			out = append(out, example{sub: s, rel: s.Path, want: want})
			if s.HasBound(kattis.TimeBoundLower) {
				lower++
			}
		}
	}
	if lower == 0 {
		found = append(found, finding(Error, v.file("submissions/accepted"), "", "no accepted submission"))
	}
	return out, found
}

func sources(s kattis.ExampleSubmission) string {
	var srcs []string
	for _, e := range s.Expectations {
		srcs = append(srcs, e.Source)
	}
	return strings.Join(srcs, "; ")
}

func isDirFS(fsys fs.FS, name string) bool {
	st, err := fs.Stat(fsys, name)
	return err == nil && st.IsDir()
}

func linePos(line int) string {
	if line > 0 {
		return fmt.Sprintf(":%d", line)
	}
	return ""
}

func fieldMsg(field, msg string) string {
	if field != "" {
		return field + ": " + msg
	}
	return msg
}

// graded is one example submission's grading.
type graded struct {
	ex     example
	res    *SubmissionResult
	rep    *judge.Report // as run
	failed error         // why the judge could not grade it
	// partial: graded on the tests of its lower bounds only, to derive
	// the time limit; it is graded on every test afterwards
	partial bool
}

// checkSubmissions grades every example submission, built since Verify
// began (startBuilds), and holds it to its expectations and to the
// time-limit rules. When the package gives no time limit, the submissions
// that bound it from below (accepted/; in 2025-09 every rule that permits
// no TLE, on its tests) go first: they run under
// problems.UnknownTimeLimit, on the tests their lower bounds name, and the
// limit is derived from their slowest runs there, as problemtools and the
// format derive it; the others (and those graded on some tests only) then
// run under it. Those that bound it from above (time_limit_exceeded/),
// whose runs are the longest, are graded first once the limit is known.
// The report lists them as they come in the order of examples, those that
// bound the limit from below first.
func (v *verifier) checkSubmissions(ctx context.Context, eb *exampleBuilds) error {
	v.rep.Findings = append(v.rep.Findings, eb.found...)
	if eb.err != nil || len(eb.builds) == 0 {
		return eb.err
	}
	eb.checked()
	first, rest := eb.builds[:eb.first], eb.builds[eb.first:]
	var done []graded
	keep := func(_ int, g graded) {
		if g.failed != nil {
			v.notGraded(g.ex, g.failed)
		} else {
			done = append(done, g)
		}
	}
	if !v.derives() {
		return v.gradeAll(ctx, eb.builds, v.rep.TimeLimit, nil, longFirst, func(i int, g graded) {
			if i >= len(first) {
				v.report(ctx, g)
				return
			}
			keep(i, g)
			if i == len(first)-1 {
				for _, g := range done {
					v.judgeGraded(ctx, g)
				}
			}
		})
	}
	all, err := v.p.Package.Tests()
	if err != nil {
		return err
	}
	lowerTests := func(ex example) []kattis.Test { return boundTests(ex, all) }
	if err := v.gradeAll(ctx, first, kattis.UnknownTimeLimit, lowerTests, nil, keep); err != nil {
		return err
	}
	v.mu.Lock() // the others' builds may be going on, and report progress
	v.deriveLimit(done)
	var again []*exampleBuild
	for _, g := range done {
		if !g.partial {
			v.judgeGraded(ctx, g)
			continue
		}
		for _, b := range first {
			if b.ex.rel == g.ex.rel {
				again = append(again, b)
			}
		}
	}
	v.mu.Unlock()
	return v.gradeAll(ctx, append(again, rest...), v.rep.TimeLimit, nil, longFirst, func(_ int, g graded) { v.report(ctx, g) })
}

// derives says whether Verify derives the time limit: a Kattis package
// that gives none.
func (v *verifier) derives() bool {
	return v.p.Package.Layout == kattis.LayoutKattis && !v.p.Package.Time.Given
}

// longFirst ranks the submissions that bound the time limit from above,
// which run to a raised limit, before the others.
func longFirst(ex example) int {
	if ex.sub.HasBound(kattis.TimeBoundUpper) {
		return 0
	}
	return 1
}

// report turns an example's grading into findings, and reports it.
func (v *verifier) report(ctx context.Context, g graded) {
	if g.failed != nil {
		v.notGraded(g.ex, g.failed)
		return
	}
	v.judgeGraded(ctx, g)
}

// boundTests are the tests of all that ex's lower bounds name; nil when
// one of them names every test.
func boundTests(ex example, all []kattis.Test) []kattis.Test {
	var globs []string
	for _, b := range ex.sub.Bounds() {
		if b.Kind != kattis.TimeBoundLower {
			continue
		}
		if b.Tests == "" {
			return nil
		}
		globs = append(globs, b.Tests)
	}
	var out []kattis.Test
	for _, t := range all {
		if slices.ContainsFunc(globs, func(g string) bool { return kattis.Selects(g, t.Name) }) {
			out = append(out, t)
		}
	}
	if len(out) == len(all) {
		return nil
	}
	return out
}

// buildExample copies one example out of the problem's FS (it may be
// embedded in the judge), in a folder of its own to keep its name, and
// builds it.
func (v *verifier) buildExample(ctx context.Context, tmp string, i int, ex example) (*judge.Prepared, error) {
	v.step("building " + ex.rel)
	src := filepath.Join(tmp, fmt.Sprint(i), path.Base(ex.rel))
	if err := copyOut(v.p.Package.FS, ex.rel, src); err != nil {
		return nil, err
	}
	bo := v.opts.Build
	if ex.sub.Language != "" {
		bo.Lang = ex.sub.Language
	}
	bo.Entry = ex.sub.Entrypoint
	bo.Problem, bo.Example = v.p, true
	return v.opts.Judge.Prepare(ctx, judge.Submission{Path: src}, bo)
}

// notGraded reports a submission the judge could not grade: one in no
// language of the table, or whose compiler is not installed, is skipped
// with a warning (an error with Strict), as problemtools skips what it
// cannot build; any other failure is an error.
func (v *verifier) notGraded(ex example, err error) {
	var ule *lang.UnknownError
	var ni *lang.NotInstalledError
	var re *judge.RefusedError
	switch {
	case errors.As(err, &ule):
		v.skip(ex, "skipped: unknown language: %s", ule.Detail())
	case errors.As(err, &ni):
		v.skip(ex, "skipped: %v", err)
	case errors.As(err, &re) && !re.Code:
		v.skip(ex, "skipped: %s", re.Reason)
	case errors.As(err, &re):
		v.add(Error, v.file(ex.rel), "", "%s", re.Reason)
	default:
		v.add(Error, v.file(ex.rel), "", "%v", err)
	}
}

// skip reports a submission not graded, counted in VerifyReport.Skipped.
func (v *verifier) skip(ex example, format string, args ...any) {
	v.rep.Skipped++
	sev := Warning
	if v.opts.Strict {
		sev = Error
	}
	v.add(sev, v.file(ex.rel), "", format, args...)
}

// copyOut copies the file or directory name of fsys to dst, following
// symbolic links (problems.LoadDir has checked that none leads out of the
// package: BAPCtools' example submissions link to each other).
func copyOut(fsys fs.FS, name, dst string) error { return copyOutAt(fsys, name, dst, 0) }

// copyOutAt is copyOut depth directories down (a link to a directory
// above it would loop for good).
func copyOutAt(fsys fs.FS, name, dst string, depth int) error {
	if depth > 32 {
		return fmt.Errorf("%s: directories nested too deep (a link to a directory above it?)", name)
	}
	st, err := fs.Stat(fsys, name)
	if err != nil {
		return err
	}
	if !st.IsDir() {
		if !st.Mode().IsRegular() {
			return nil // a device, say: no part of the submission
		}
		b, err := fs.ReadFile(fsys, name)
		if err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		return os.WriteFile(dst, b, 0o644|st.Mode().Perm()&0o111)
	}
	if err := os.MkdirAll(dst, 0o755); err != nil {
		return err
	}
	entries, err := fs.ReadDir(fsys, name)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if err := copyOutAt(fsys, path.Join(name, e.Name()), filepath.Join(dst, e.Name()), depth+1); err != nil {
			return err
		}
	}
	return nil
}

// deriveLimit sets the time limit from the slowest runs of the submissions
// that bound it from below: each lower bound's slowest test among those it
// names, of a run in which none of them exceeded the limit. In a legacy
// or 2023-07 package, as problemtools has it, only accepted runs count
// (the accepted/ folder's).
func (v *verifier) deriveLimit(done []graded) {
	m := v.p.Package.Time.Multipliers
	var slowest *slowRun
	for _, g := range done {
		if s := v.lowerRun(g); s != nil && (slowest == nil || s.cpu > slowest.cpu) {
			slowest = s
		}
	}
	if slowest == nil {
		return // no accepted run: the 1 s default stands, and there is an error
	}
	limit, tle := m.Derive(slowest.cpu)
	v.rep.TimeLimit = limit
	v.rep.Derived = &DerivedLimit{Limit: limit, TLE: tle, Slowest: slowest.cpu, Submission: slowest.sub, Test: slowest.test, Multipliers: m}
	if slowest.verdict != verdict.AC {
		v.rep.Derived.Verdict = slowest.verdict.String()
	}
	for _, g := range done {
		g.res.TimeLimit = limit
	}
}

// slowRun is the slowest test of a run that bounds the time limit.
type slowRun struct {
	cpu       time.Duration
	sub, test string
	verdict   verdict.Verdict
}

// lowerRun is the slowest test of g's run that one of its lower bounds
// counts; nil when none counts.
func (v *verifier) lowerRun(g graded) *slowRun {
	if g.rep == nil || !g.rep.Compile.OK {
		return nil
	}
	if v.p.Package.Format != kattis.Format2025 && v.p.Package.Layout == kattis.LayoutKattis {
		if g.res.Got != verdict.AC || g.partial {
			return nil
		}
		return &slowRun{g.res.Slowest, g.res.Path, g.res.Test, verdict.AC}
	}
	var out *slowRun
	for _, b := range g.ex.sub.Bounds() {
		if b.Kind != kattis.TimeBoundLower {
			continue
		}
		var s *slowRun
		for _, t := range g.rep.Tests {
			if !kattis.Selects(b.Tests, t.Name) {
				continue
			}
			kv := kattis.Verdict(t.Verdict)
			if kv == verdict.TLE || kv == verdict.JE || (b.Permitted != nil && !slices.Contains(b.Permitted, kv)) {
				s = nil // a run that fails its own rule bounds nothing
				break
			}
			if s == nil || t.CPU > s.cpu {
				s = &slowRun{t.CPU, g.res.Path, t.Name, kattis.Verdict(t.Verdict)}
			}
		}
		if s != nil && (out == nil || s.cpu > out.cpu) {
			out = s
		}
	}
	return out
}

// gradeExample grades one built example, on tests (nil: every test);
// failed says why the judge could not build or grade it.
func (v *verifier) gradeExample(ctx context.Context, b *exampleBuild, limit time.Duration, tests []kattis.Test) (*graded, error) {
	if b.err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return &graded{ex: b.ex, failed: b.err}, nil
	}
	v.step("grading " + b.ex.rel)
	res, rep, err := v.grade(ctx, b.ex, b.pp, limit, tests)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return &graded{ex: b.ex, failed: err}, nil
	}
	return &graded{ex: b.ex, res: res, rep: rep, partial: tests != nil}, nil
}

// grade runs one example on tests (nil: every test): the ones that bound
// the time limit from below on every test, the others lazily where their
// expectations allow (and, in a legacy or 2023-07 package, always skipping
// what problemtools skips), but never skipping a test an expectation
// reads (problems.ExampleSubmission.Needs); the ones that bound it from
// above under the limit times Rules.TLE: in a native problem also times
// ThinFactor, which tells a thin margin from a broken one in a single run;
// in a Kattis package not (problemtools' timelim_high), which keeps the
// slowest runs short.
func (v *verifier) grade(ctx context.Context, ex example, pp *judge.Prepared, limit time.Duration, tests []kattis.Test) (*SubmissionResult, *judge.Report, error) {
	o := v.opts.Grade
	o.Tests, o.Checker = tests, nil
	o.Lazy = ex.sub.Lazy() && !ex.sub.HasBound(kattis.TimeBoundLower)
	if v.p.Package.Layout == kattis.LayoutKattis && v.p.Package.GroupRules == kattis.GroupRulesLegacy {
		o.Lazy = true // on_reject, as problemtools judges
	}
	o.Need = func(t kattis.Test) bool { return ex.sub.Needs(t.Name) }
	if limit != kattis.UnknownTimeLimit {
		// a verdict a permitted rule excludes fails the submission
		// whatever the other tests give: stop there (identity's
		// wrong_answer/tle.bad.py waited out 74 wall limits)
		o.Stop = func(t kattis.Test, v verdict.Verdict) bool { return ex.sub.Excludes(t.Name, v) }
	}
	o.TimeLimit = limit
	if ex.sub.HasBound(kattis.TimeBoundUpper) && tests == nil {
		o.TimeLimit = scale(limit, v.rep.Rules.TLE*ThinFactor)
		if v.p.Package.Layout == kattis.LayoutKattis {
			o.TimeLimit = scale(limit, v.rep.Rules.TLE) // problemtools' timelim_high
		}
		if upperOnly(ex.sub) && limit != kattis.UnknownTimeLimit {
			// one test over the raised limit meets the bound; the
			// others are held to their expectations under the limit
			o.ThenTimeLimit, o.ThenWallLimit = limit, v.opts.Grade.WallLimit
		}
		if o.WallLimit == 0 {
			// Over the raised limit is TLE by the CPU or by the wall
			// clock alike; one that waits (an interaction that
			// deadlocks) need not wait for twice it.
			o.WallLimit = scale(o.TimeLimit, 1.5) + time.Second
		}
		if limit != kattis.UnknownTimeLimit {
			// but one that sleeps (or waits on the validator) is TLE
			// at the raised limit and a second, as BAPCtools' timeout
			// has it (ex-maximal's tle.py slept 23.5 s where bt stops it
			// at 16 s), never below the wall limit that goes with the
			// limit itself, under which Regrade holds it
			o.SleepWallLimit = max(o.TimeLimit+time.Second, cmp.Or(v.opts.Grade.WallLimit, judge.DefaultWallLimit(limit)))
		}
		if o.Lazy {
			// Its tests fail slowly, the first failure decides, and a
			// test run beside it in vain would hold a run of the
			// Judge's (MaxRuns), waiting, from the other submissions.
			o.Parallel = 1
		}
	}
	if limit == kattis.UnknownTimeLimit && o.WallLimit == 0 {
		o.WallLimit = limit
	}
	r, err := pp.Grade(ctx, v.p, o)
	if err != nil {
		return nil, nil, err
	}
	res := &SubmissionResult{Path: v.file(ex.rel), Want: ex.want, Expect: expectText(v.p, ex), Got: r.Verdict,
		TimeLimit: limit, Scored: r.Score.Scoring, Score: r.Score.Value}
	if !r.Compile.OK {
		res.Message = r.Compile.Summary()
	}
	slowestOf(res, r)
	return res, r, nil
}

// upperOnly says whether s bounds the time limit from above only, on
// every test: its raised limit need then hold for one test alone.
func upperOnly(s kattis.ExampleSubmission) bool {
	b := s.Bounds()
	return len(b) > 0 && !slices.ContainsFunc(b, func(b kattis.Bound) bool { return b.Kind != kattis.TimeBoundUpper || b.Tests != "" })
}

// slowestOf fills in the slowest test, and the test that decided a
// verdict other than AC, with its message.
func slowestOf(res *SubmissionResult, r *judge.Report) {
	for _, t := range r.Tests {
		if t.CPU >= res.Slowest && r.Verdict == verdict.AC {
			res.Test, res.Message = t.Name, t.Message
		}
		res.Slowest = max(res.Slowest, t.CPU)
	}
	for _, t := range r.Tests {
		if r.Verdict != verdict.AC && kattis.Verdict(t.Verdict) == kattis.Verdict(r.Verdict) {
			res.Test, res.Message = t.Name, t.Message
			break
		}
	}
}

// expectText says what an example must get, for its line: its one final
// verdict, else what each of its expectations asks, in short.
func expectText(p *problems.Problem, ex example) string {
	plain := ex.want != verdict.Unknown
	for _, e := range ex.sub.Expectations {
		plain = plain && e.Score == nil && !e.Partial && !(e.FullScore && p.Package.Type.Scoring)
	}
	if plain {
		return ex.want.String()
	}
	var parts []string
	for _, e := range ex.sub.Expectations {
		if d := describe(e, p.Package.Type.Scoring); d != "" && !slices.Contains(parts, d) {
			parts = append(parts, d)
		}
	}
	if len(parts) == 0 {
		return "as " + sources(ex.sub)
	}
	return strings.Join(parts, "; ")
}

// describe says in short what one expectation asks: "WA", "AC, partially",
// "score 40", "on secret/2-large: some WA".
func describe(e kattis.Expectation, scoring bool) string {
	var w []string
	switch {
	case e.Partial:
		w = append(w, "AC, partially")
	case len(e.Verdicts) > 0:
		w = append(w, verdictList(e.Verdicts, " or "))
	case len(e.Required) == 1 && len(e.Permitted) == 2 && slices.Contains(e.Permitted, verdict.AC) && slices.Contains(e.Permitted, e.Required[0]):
		w = append(w, e.Required[0].String())
	case len(e.Required) > 0:
		w = append(w, "some "+verdictList(e.Required, " or "))
	case len(e.Permitted) == 1 && e.Permitted[0] == verdict.AC:
		w = append(w, "AC")
	case len(e.Permitted) > 0:
		w = append(w, "only "+verdictList(e.Permitted, ", "))
	}
	if e.FullScore && scoring && !e.Partial {
		w = append(w, "fully")
	}
	if e.Score != nil {
		if e.Score.Max-e.Score.Min < 1e-5 {
			w = append(w, "score "+strconv.FormatFloat((e.Score.Min+e.Score.Max)/2, 'g', 6, 64))
		} else {
			w = append(w, "score in "+e.Score.String())
		}
	}
	if e.Message != "" {
		w = append(w, fmt.Sprintf("message %q", e.Message))
	}
	if len(w) == 0 {
		return ""
	}
	d := strings.Join(w, ", ")
	if e.Tests != "" {
		d = "on " + e.Tests + ": " + d
	}
	return d
}

func verdictList(vs []verdict.Verdict, sep string) string {
	names := make([]string, len(vs))
	for i, v := range vs {
		names[i] = v.String()
	}
	return strings.Join(names, sep)
}

// judgeGraded turns an example's grading into findings, reports it, and
// keeps it.
func (v *verifier) judgeGraded(ctx context.Context, g graded) {
	if v.p.Package.Layout == kattis.LayoutKattis {
		v.judgeKattis(ctx, g)
	} else {
		g.res.OK = g.res.Got == g.res.Want
		v.judgeResult(g.res)
	}
	v.rep.Submissions = append(v.rep.Submissions, *g.res)
	if v.opts.Graded != nil {
		v.opts.Graded(*g.res)
	}
}

// judgeKattis holds a package's example to every expectation the package
// states (problems.ExampleSubmission.Check), under the time limit, and to
// the time-limit margins.
func (v *verifier) judgeKattis(ctx context.Context, g graded) {
	res, rep := g.res, g.rep
	limit := v.rep.TimeLimit
	if rep.Limits.Time > limit && rep.Compile.OK {
		// the wall limit a run under the limit itself has: the one
		// asked for, or the one that goes with the limit
		at, err := v.opts.Judge.Regrade(ctx, v.p, v.opts.Build.Languages, rep, limit, v.opts.Grade.WallLimit)
		if err != nil {
			v.add(Error, res.Path, "", "regrading under the time limit: %v", err)
			return
		}
		rep = at
		res.Got, res.Scored, res.Score = rep.Verdict, rep.Score.Scoring, rep.Score.Value
		res.Test, res.Message, res.Slowest = "", "", 0
		slowestOf(res, g.rep)
	}
	run := kattis.Run{Grading: rep.Score.Grading}
	if !rep.Compile.OK {
		run.Grading = &kattis.Grading{Outcome: kattis.Outcome{Verdict: verdict.CE}}
	}
	for _, t := range rep.Tests {
		run.Tests = append(run.Tests, kattis.RunTest{Name: t.Name, Verdict: t.Verdict, JudgeMessage: t.Message})
	}
	res.OK = true
	folder := v.file(path.Join("submissions", g.ex.sub.Folder)) + "/"
	for _, m := range g.ex.sub.Check(run) {
		sev := Error
		if m.Warning {
			sev = Warning
		} else {
			res.OK = false
		}
		msg := m.Msg
		if m.Source != folder && m.Source != "" {
			msg += " (" + m.Source + ")"
		}
		if !m.Warning && len(run.Tests) > 0 && !strings.Contains(msg, " on ") && res.Test != "" && res.Got != verdict.AC {
			msg += onTest(res)
		}
		v.add(sev, res.Path, "", "%s", msg)
	}
	if rep.Compile.OK {
		v.judgeMargins(g.ex, res, g.rep, rep)
	}
}

// anyTLE says whether a test of the run that glob selects was TLE (by CPU
// time, or the wall clock: a program that waits).
func anyTLE(r *judge.Report, glob string) bool {
	for _, t := range r.Tests {
		if t.Verdict == verdict.TLE && kattis.Selects(glob, t.Name) {
			return true
		}
	}
	return false
}

// slowestOn is the slowest test of the run that glob selects, and whether
// one of them got a verdict that says nothing of the time limit (TLE, JE).
func slowestOn(r *judge.Report, glob string) (cpu time.Duration, test string, spoilt bool) {
	for _, t := range r.Tests {
		if !kattis.Selects(glob, t.Name) {
			continue
		}
		if t.Verdict == verdict.TLE || t.Verdict == verdict.JE {
			spoilt = true
		}
		if test == "" || t.CPU > cpu {
			cpu, test = t.CPU, t.Name
		}
	}
	return cpu, test, spoilt
}

// judgeMargins holds an example's runs to the time-limit rules its
// expectations bound, each on the tests it names: a lower bound's slowest
// test must fit ac_to_time_limit times in a given limit, an upper bound's
// must take more than the limit times time_limit_to_tle (2025-09 and the
// native layout: an error; legacy and 2023-07: a warning, as problemtools
// has it). run is as run (under the raised limit for an upper bound), at
// is run under the time limit.
func (v *verifier) judgeMargins(ex example, s *SubmissionResult, run, at *judge.Report) {
	tl, rules := v.rep.TimeLimit, v.rep.Rules
	for _, b := range ex.sub.Bounds() {
		on := ""
		if b.Tests != "" {
			on = " on " + b.Tests
		}
		switch b.Kind {
		case kattis.TimeBoundLower:
			slow, test, spoilt := slowestOn(run, b.Tests)
			if v.rep.Derived != nil || test == "" || spoilt || (v.p.Package.Format != kattis.Format2025 && s.Got != verdict.AC) {
				continue
			}
			need := scale(slow, rules.AC)
			switch {
			case need > tl:
				v.add(Error, s.Path, "", "its slowest test%s, %s, takes %s; %gx that is %s, over the %s time limit",
					on, test, seconds(slow), rules.AC, seconds(need), seconds(tl))
			case scale(need, ThinFactor) > tl:
				v.add(Warning, s.Path, "", "the margin is thin: its slowest test%s, %s, takes %s; %gx that is %s, within %gx of the %s time limit",
					on, test, seconds(slow), rules.AC, seconds(need), ThinFactor, seconds(tl))
			}
		case kattis.TimeBoundUpper:
			tleAt := scale(tl, rules.TLE)
			if anyTLE(run, b.Tests) || !anyTLE(at, b.Tests) {
				continue // over the raised limit too, or a verdict the expectations speak to
			}
			slow, _, _ := slowestOn(run, b.Tests)
			if slow > tleAt {
				v.add(Warning, s.Path, "", "the margin is thin: its slowest test%s takes %s, over %gx the time limit (%s) by less than %gx",
					on, seconds(slow), rules.TLE, seconds(tleAt), ThinFactor)
				continue
			}
			sev := Error
			if v.p.Package.Format != kattis.Format2025 {
				sev = Warning
			}
			v.add(sev, s.Path, "", "sensitive to the time limit: its slowest test%s takes %s, within %gx the time limit (%s); a time-limit-exceeded submission must exceed %s",
				on, seconds(slow), rules.TLE, seconds(tl), seconds(tleAt))
		}
	}
}

// judgeResult turns a native problem's example's result into findings.
func (v *verifier) judgeResult(s *SubmissionResult) {
	rel := s.Path
	tl, rules := v.p.Limits.Time, v.rep.Rules
	switch {
	case s.Want == verdict.TLE && s.Got == verdict.AC:
		tleAt := scale(tl, rules.TLE)
		if s.Slowest > tleAt {
			v.add(Warning, rel, "", "the margin is thin: its slowest test, %s, takes %s, over %gx the time limit (%s) by less than %gx",
				s.Test, seconds(s.Slowest), rules.TLE, seconds(tleAt), ThinFactor)
			return
		}
		v.add(Error, rel, "", "accepted within %gx the time limit (%s): its slowest test, %s, takes %s; a time-limit-exceeded submission must exceed %s",
			rules.TLE, seconds(tleAt), s.Test, seconds(s.Slowest), seconds(tleAt))
	case s.Got != s.Want:
		v.add(Error, rel, "", "got %s%s, want %s", s.Got, onTest(s), s.Want)
	case s.Want == verdict.AC:
		need := scale(s.Slowest, rules.AC)
		switch {
		case need > tl:
			v.add(Error, rel, "", "its slowest test, %s, takes %s; %gx that is %s, over the %s time limit",
				s.Test, seconds(s.Slowest), rules.AC, seconds(need), seconds(tl))
		case scale(need, ThinFactor) > tl:
			v.add(Warning, rel, "", "the margin is thin: its slowest test, %s, takes %s; %gx that is %s, within %gx of the %s time limit",
				s.Test, seconds(s.Slowest), rules.AC, seconds(need), ThinFactor, seconds(tl))
		}
	}
}

func onTest(s *SubmissionResult) string {
	switch {
	case s.Got == verdict.CE:
		return " (" + s.Message + ")"
	case s.Got == verdict.AC || s.Test == "":
		return ""
	case s.Message == "":
		return " on " + s.Test
	}
	return fmt.Sprintf(" on %s (%s)", s.Test, s.Message)
}

func scale(d time.Duration, f float64) time.Duration { return time.Duration(float64(d) * f) }

// seconds prints a duration as seconds, e.g. "1.5s" or "0.031s".
func seconds(d time.Duration) string {
	return strings.TrimSuffix(strings.TrimRight(fmt.Sprintf("%.3f", d.Seconds()), "0"), ".") + "s"
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return l
}
