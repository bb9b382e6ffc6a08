package maintain

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/optjudge/optjudge/checkers"
	"github.com/optjudge/optjudge/judge"
	"github.com/optjudge/optjudge/judge/verdict"
	"github.com/optjudge/optjudge/problems"
)

// example is one program under submissions/<verdict>/: a file, or a
// directory of files.
type example struct {
	rel  string // submissions/<dir>/<name>
	want verdict.Verdict
	dir  bool   // a directory: one submission of several files
	lang string // submissions.yaml's language, "" to detect
}

// examples lists the example submissions with the one verdict each must
// get, as the problem's model states it (problems.Problem.Submissions),
// reporting the folders and files it cannot use.
func (v *verifier) examples() []example {
	if !isDirFS(v.p.FS, "submissions") {
		v.add(Error, v.file("submissions"), "", "no example submissions: want at least one under submissions/accepted/")
		return nil
	}
	list, err := v.p.Submissions()
	if err != nil {
		v.add(Error, v.file("submissions"), "", "%v", err)
		return nil
	}
	for _, e := range list.Errors {
		v.add(Error, e.File, linePos(e.Line), "%s", fieldMsg(e.Field, e.Msg))
	}
	for _, w := range list.Warnings {
		v.add(Warning, w.File, linePos(w.Line), "%s", fieldMsg(w.Field, w.Msg))
	}
	var out []example
	accepted := 0
	for _, s := range list.Submissions {
		want, ok := s.FinalVerdict()
		switch {
		case len(s.Expectations) == 0:
			// Its folder has a warning already.
		case !ok:
			v.add(Warning, v.file(s.Path), "", "skipped: judge verify checks one final verdict, and its expectations (%s) ask for more", sources(s))
		default:
			out = append(out, example{rel: s.Path, want: want, dir: s.Dir, lang: s.Language})
			if want == verdict.AC {
				accepted++
			}
		}
	}
	if accepted == 0 {
		v.add(Error, v.file("submissions/accepted"), "", "no accepted submission")
	}
	return out
}

func sources(s problems.ExampleSubmission) string {
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

// checkSubmissions grades every example submission and holds it to its
// folder's verdict and to the time-limit rules.
func (v *verifier) checkSubmissions(ctx context.Context, chk checkers.Checker) error {
	exs := v.examples()
	if len(exs) == 0 {
		return nil
	}
	tmp, err := os.MkdirTemp(v.opts.Judge.TempDir(), "verify-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	for i, ex := range exs {
		v.step("grading " + ex.rel)
		// Copy the submission out of the problem's FS, which may be
		// embedded in the judge; each gets a folder of its own to keep
		// its file name.
		src := filepath.Join(tmp, fmt.Sprint(i), path.Base(ex.rel))
		if err := copyOut(v.p.FS, ex.rel, src); err != nil {
			return err
		}
		res, err := v.grade(ctx, ex, src, chk)
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			v.notGraded(ex, err)
			continue
		}
		v.rep.Submissions = append(v.rep.Submissions, *res)
		if v.opts.Graded != nil {
			v.opts.Graded(*res)
		}
		v.judgeResult(res)
	}
	return nil
}

// notGraded reports a submission the judge could not grade: one in no
// language of the table, or whose compiler is not installed, is skipped
// with a warning (an error with Strict), as problemtools skips what it
// cannot build; any other failure is an error.
func (v *verifier) notGraded(ex example, err error) {
	var ule *judge.UnknownLanguageError
	var ni *judge.NotInstalledError
	switch {
	case errors.As(err, &ule):
		v.skip(ex, "skipped: unknown language: %s", ule.Detail())
	case errors.As(err, &ni):
		v.skip(ex, "skipped: %v", err)
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

// copyOut copies the file or directory name of fsys to dst.
func copyOut(fsys fs.FS, name, dst string) error {
	return fs.WalkDir(fsys, name, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		out := filepath.Join(dst, filepath.FromSlash(strings.TrimPrefix(strings.TrimPrefix(p, name), "/")))
		if d.IsDir() {
			return os.MkdirAll(out, 0o755)
		}
		if !d.Type().IsRegular() {
			return nil // a link, say: no part of the submission
		}
		b, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
			return err
		}
		return os.WriteFile(out, b, 0o644)
	})
}

// grade runs one example: accepted ones on every test under the time
// limit, the others lazily, and the time-limit-exceeded ones under the limit
// times Rules.TLE times ThinFactor, which tells a thin margin from a broken
// one in a single run.
func (v *verifier) grade(ctx context.Context, ex example, src string, chk checkers.Checker) (*SubmissionResult, error) {
	o := v.opts.Grade
	o.Tests, o.Checker, o.Lazy = nil, chk, ex.want != verdict.AC
	o.TimeLimit = v.p.Limits.Time
	if ex.want == verdict.TLE {
		o.TimeLimit = scale(v.p.Limits.Time, v.rep.Rules.TLE*ThinFactor)
	}
	bo := v.opts.Build
	if ex.lang != "" {
		bo.Lang = ex.lang
	}
	r, err := v.opts.Judge.Grade(ctx, v.p, judge.Submission{Path: src}, bo, o)
	if err != nil {
		return nil, err
	}
	got := r.Verdict
	if v.p.Layout == problems.LayoutKattis {
		got = problems.KattisVerdict(got) // memory is a run-time error, output a wrong answer
	}
	res := &SubmissionResult{Path: v.file(ex.rel), Want: ex.want, Got: got, TimeLimit: o.TimeLimit}
	if !r.Compile.OK {
		res.Message = firstLine(r.Compile.Message)
	}
	for _, t := range r.Tests {
		if t.CPU >= res.Slowest && r.Verdict == verdict.AC {
			res.Test, res.Message = t.Name, t.Message
		}
		res.Slowest = max(res.Slowest, t.CPU)
	}
	// The overall verdict is the first test's that is not accepted.
	for _, t := range r.Tests {
		if r.Verdict != verdict.AC && t.Verdict == r.Verdict {
			res.Test, res.Message = t.Name, t.Message
			break
		}
	}
	return res, nil
}

// judgeResult turns a submission's result into findings.
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
