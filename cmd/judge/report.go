package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/optjudge/optjudge/bytesize"
	"github.com/optjudge/optjudge/judge"
	"github.com/optjudge/optjudge/problems"
	"github.com/optjudge/optjudge/problems/kattis"
	"github.com/optjudge/optjudge/verdict"
)

// reporter prints a grading for people: a header, a live progress line on a
// terminal, then the table of tests and the summary.
type reporter struct {
	w       io.Writer
	tty     bool // colours and the live progress line
	total   int
	done    int
	failing int
}

func newReporter(w io.Writer, tty bool) *reporter {
	return &reporter{w: w, tty: tty}
}

func (r *reporter) header(p *problems.Problem, sub string, name string, j *judge.Judge, o *judge.GradeOptions) {
	if o.Tests != nil {
		r.total = len(o.Tests)
	} else if ts, err := p.Package.Tests(); err == nil {
		r.total = len(ts)
	}
	fmt.Fprintf(r.w, "%s: %s (%s), %d tests, isolation: %s\n", p.Name, sub, name, r.total, j.Isolation())
	if as := p.Package.Attachments(); len(as) > 0 {
		for i, a := range as {
			as[i] = kattis.Test{Origin: p.Package.Origin}.Path(a)
		}
		fmt.Fprintf(r.w, "attachments: %s\n", strings.Join(as, ", "))
	}
	if w := j.Warning(); w != "" {
		fmt.Fprintf(r.w, "warning: %s\n", w)
	}
}

func (r *reporter) onTest(t judge.TestResult) {
	r.done++
	if t.Verdict != verdict.AC {
		r.failing++
	}
	if r.tty {
		fmt.Fprintf(r.w, "\r\033[K%d/%d tests done, %d not accepted, last %s %s", r.done, r.total, r.failing, t.Name, r.paint(t.Verdict))
	}
}

func (r *reporter) clearProgress() {
	if r.tty && r.done > 0 {
		fmt.Fprint(r.w, "\r\033[K")
	}
}

func (r *reporter) report(rep *judge.Report) {
	r.clearProgress()
	if rep.Verdict == verdict.CE || !rep.Compile.OK && rep.Compile.Message != "" {
		fmt.Fprintf(r.w, "%s compilation error (%s):\n%s\n", r.paint(verdict.CE), rep.Language, indent(rep.Compile.Message))
	} else if len(rep.Tests) > 0 {
		r.table(rep)
		r.groups(rep)
	}
	s := rep.Summary
	fmt.Fprintf(r.w, "\nverdict: %s (%s)\n", r.paint(rep.Verdict), rep.Verdict.Long())
	if sc := rep.Score; sc.Scoring {
		fmt.Fprintf(r.w, "score:   %s\n", outOf(sc.Value, sc.Max))
	}
	if m := rep.Score.Message; m != "" && rep.Verdict == verdict.JE {
		fmt.Fprintf(r.w, "why:     %s\n", oneLine(m, 200))
	}
	var counts []string
	for _, v := range verdict.All {
		if n := s.Counts[v.String()]; n > 0 {
			counts = append(counts, fmt.Sprintf("%d %s", n, v))
		}
	}
	fmt.Fprintf(r.w, "tests:   %d of %d run: %s\n", s.Run, s.Tests, strings.Join(counts, ", "))
	if s.Slowest != nil {
		fmt.Fprintf(r.w, "slowest: %s %s\n", s.Slowest.Name, ms(s.Slowest.TimeMS))
		fmt.Fprintf(r.w, "memory:  %s %s\n", s.Largest.Name, kib(s.Largest.MemoryKiB))
	}
	if rep.KeptIn != "" {
		fmt.Fprintf(r.w, "kept:    build in %s; each test's directory is in the JSON report (--json)\n", rep.KeptIn)
	}
}

func (r *reporter) table(rep *judge.Report) {
	tw := tabwriter.NewWriter(r.w, 2, 8, 2, ' ', 0)
	scoring := rep.Score.Scoring
	if scoring {
		fmt.Fprintln(tw, "TEST\tVERDICT\tSCORE\tCPU\tWALL\tMEMORY\tMESSAGE")
	} else {
		fmt.Fprintln(tw, "TEST\tVERDICT\tCPU\tWALL\tMEMORY\tMESSAGE")
	}
	for _, t := range rep.Tests {
		msg := t.Message
		if t.Dir != "" {
			msg += " [" + t.Dir + "]"
		}
		score := ""
		if scoring {
			score = "-\t"
			if t.Score != nil {
				score = formatScore(*t.Score) + "\t"
			}
		}
		fmt.Fprintf(tw, "%s\t%s\t%s%s\t%s\t%s\t%s\n", t.Name, r.paint(t.Verdict), score, ms(t.TimeMS), ms(t.WallMS), kib(t.MemoryKiB), oneLine(msg, 100))
		if scoring {
			score = "\t"
		}
		for i, p := range t.Passes {
			// a multi-pass test's passes, below it
			fmt.Fprintf(tw, "  pass %d\t%s\t%s%s\t%s\t%s\t%s\n", i+1, r.paint(p.Verdict), score, ms(p.TimeMS), ms(p.WallMS), kib(p.MemoryKiB), oneLine(p.Message, 100))
		}
	}
	tw.Flush()
}

// groups prints the graded test data groups of a scoring problem, or of
// a Kattis package with groups of its own below sample and secret.
func (r *reporter) groups(rep *judge.Report) {
	gs := rep.Score.Groups
	deep := false
	for _, g := range gs {
		deep = deep || strings.Contains(g.Name, "/")
	}
	if !rep.Score.Scoring && (!deep || rep.Score.Grading == nil) {
		return
	}
	fmt.Fprintln(r.w)
	tw := tabwriter.NewWriter(r.w, 2, 8, 2, ' ', 0)
	if rep.Score.Scoring {
		fmt.Fprintln(tw, "GROUP\tVERDICT\tSCORE")
	} else {
		fmt.Fprintln(tw, "GROUP\tVERDICT")
	}
	for _, g := range gs {
		if rep.Score.Scoring {
			fmt.Fprintf(tw, "%s\t%s\t%s\n", g.Name, r.paint(g.Verdict), outOf(g.Score, g.Max))
		} else {
			fmt.Fprintf(tw, "%s\t%s\n", g.Name, r.paint(g.Verdict))
		}
	}
	tw.Flush()
}

// outOf shows a score with the best one: "50 of 100", or "50".
func outOf(score float64, max *float64) string {
	if max == nil {
		return formatScore(score)
	}
	return formatScore(score) + " of " + formatScore(*max)
}

func formatScore(s float64) string { return strconv.FormatFloat(s, 'f', -1, 64) }

var colours = map[verdict.Verdict]string{
	verdict.AC: "\033[32m", verdict.WA: "\033[31m", verdict.TLE: "\033[33m", verdict.MLE: "\033[33m",
	verdict.OLE: "\033[33m", verdict.RE: "\033[35m", verdict.CE: "\033[36m", verdict.JE: "\033[1;31m",
}

// paint colours a verdict on a terminal. tabwriter counts the escape bytes,
// so every verdict gets codes of the same length to keep columns aligned.
func (r *reporter) paint(v verdict.Verdict) string {
	if !r.tty {
		return v.String()
	}
	c := colours[v]
	if len(c) == 5 {
		c = "\033[0;" + c[2:]
	}
	return c + v.String() + "\033[0m"
}

func ms(n int64) string { return fmt.Sprintf("%dms", n) }

func kib(n int64) string {
	if n == 0 {
		return "0KiB"
	}
	return fmt.Sprintf("%.1fMiB", float64(n)/float64(bytesize.MiB/bytesize.KiB))
}

func oneLine(s string, n int) string {
	s = strings.ReplaceAll(s, "\n", " | ")
	if len(s) > n {
		s = s[:n] + "..."
	}
	return s
}

func indent(s string) string {
	return "    " + strings.ReplaceAll(s, "\n", "\n    ")
}
