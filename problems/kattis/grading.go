package kattis

import (
	"errors"
	"fmt"
	"math"
	"strconv"

	"github.com/optjudge/optjudge/verdict"
)

// TestResult is what the judge found on one test, as Grade reads it.
type TestResult struct {
	// Verdict is the judge's verdict; Grade maps it to the Kattis set
	// (Verdict).
	Verdict verdict.Verdict
	// Score is the number in the validator's score.txt and Multiplier the
	// one in its score_multiplier.txt (2025-09); nil when it wrote none.
	Score, Multiplier *float64
	// Message says why, for reports.
	Message string
}

// Outcome is the result of a test or a group, as the grading rules compute
// it: a verdict of the Kattis set (AC, WA, TLE, RE, or JE when the judge,
// a validator or a grader failed) and, in a scoring problem, a score.
type Outcome struct {
	Verdict verdict.Verdict
	Score   float64
	Scored  bool   // the problem is a scoring one: Score counts
	Message string // why: a test's message, a judge error's cause
	// Test is the test whose message Message is; "" when Message is the
	// grading's own (a judge error of the scores, a group not run, a
	// grader's words).
	Test string
}

// Grading is a submission's graded result: its own outcome, and each
// graded group's and test's.
type Grading struct {
	Outcome
	Groups map[string]Outcome // by group name ("" is data/)
	Tests  map[string]Outcome // by test name, the scores filled in
}

// Results gives the judge's result of a test; ok is false for a test that
// was not run (filtered out, or skipped after a rejection).
type Results func(t *Test) (r TestResult, ok bool)

// CustomGrader runs the package's grader program (graders/) on the
// outcomes of a group's items with the group's flags, by the legacy
// protocol (one "VERDICT SCORE" line per item on stdin, one line out).
type CustomGrader func(g *Group, children []Outcome) (Outcome, error)

// ErrNoGrader is Grade's error when a group asks for grading: custom and
// no CustomGrader was given.
var ErrNoGrader = errors.New("grading: custom, but no custom grader")

// Verdict maps a verdict to the Kattis set, in which a program over
// the memory limit is a run-time error and one over the output limit is a
// wrong answer (the ICPC's five verdicts, as the CLICS judgement types map
// OLE). Other verdicts are unchanged.
func Verdict(v verdict.Verdict) verdict.Verdict {
	switch v {
	case verdict.MLE:
		return verdict.RE
	case verdict.OLE:
		return verdict.WA
	}
	return v
}

// Grade computes a submission's result from its tests' results, by the
// package's rules (GroupRules): the outcome of the submission, of every
// group and of every test. custom runs the legacy custom grader; it may be
// nil when no group asks for one. The only errors are ErrNoGrader and
// custom's: a validator's or a grader's misbehaviour is a JE outcome.
func (p *Package) Grade(results Results, custom CustomGrader) (*Grading, error) {
	g := &Grading{Groups: map[string]Outcome{}, Tests: map[string]Outcome{}}
	if p.Groups == nil {
		g.Verdict = verdict.Unknown
		return g, nil
	}
	if p.GroupRules == GroupRules2025 {
		gr := &grader2025{p: p, results: results, out: g}
		g.Outcome = gr.submission()
		return g, nil
	}
	gr := &legacyGrader{p: p, results: results, custom: custom, out: g}
	o, ok, err := gr.group(p.Groups)
	if err != nil {
		return nil, err
	}
	if !ok {
		o = Outcome{Verdict: verdict.Unknown, Scored: p.Type.Scoring}
	}
	g.Outcome = o
	return g, nil
}

// legacyGrader grades as problemtools does (judge/submission_judge.py).
type legacyGrader struct {
	p       *Package
	results Results
	custom  CustomGrader
	out     *Grading
	// partial: the results include tests still to come, given as
	// accepted (Unneeded)
	partial bool
}

// group grades g from its items, stopping at the first rejected one with
// on_reject: break; ok is false when none of its tests was run.
func (gr *legacyGrader) group(g *Group) (o Outcome, ok bool, err error) {
	var children []Outcome
	for _, it := range g.Items {
		var c Outcome
		if it.Group != nil {
			var run bool
			if c, run, err = gr.group(it.Group); err != nil {
				return o, false, err
			} else if !run {
				continue
			}
		} else {
			r, run := gr.results(it.Test)
			if !run {
				continue
			}
			c = gr.test(g, it.Test.Name, r)
			gr.out.Tests[it.Test.Name] = c
		}
		children = append(children, c)
		if c.Verdict != verdict.AC && g.Settings.OnReject == OnRejectBreak {
			break
		}
	}
	if len(children) == 0 {
		return o, false, nil
	}
	if o, err = gr.aggregate(g, children); err != nil {
		return o, false, err
	}
	gr.out.Groups[g.Name] = o
	return o, true, nil
}

// test is one test's outcome: the validator's score where the problem
// reads one, else the group's accept_score or reject_score.
func (gr *legacyGrader) test(g *Group, name string, r TestResult) Outcome {
	val := gr.p.Validation
	o := Outcome{Verdict: Verdict(r.Verdict), Scored: gr.p.Type.Scoring, Message: r.Message, Test: name}
	switch {
	case o.Verdict == verdict.JE:
		return o
	case r.Score != nil && o.Verdict == verdict.WA:
		return judgeError(o, `the validator wrote score.txt on a wrong answer`)
	case r.Score != nil && o.Verdict == verdict.AC && !val.ScoreAllowed:
		return judgeError(o, `the validator wrote score.txt, but the problem does not take scores from its validator (validation: custom score)`)
	case r.Score == nil && o.Verdict == verdict.AC && val.ScoreRequired:
		return judgeError(o, `the problem takes scores from its validator (validation: custom score), but it wrote no score.txt`)
	case r.Score != nil && o.Verdict == verdict.AC:
		o.Score = *r.Score
	case o.Verdict == verdict.AC:
		o.Score = g.Settings.AcceptScore
	default:
		o.Score = g.Settings.RejectScore
	}
	return o
}

func judgeError(o Outcome, msg string) Outcome {
	return Outcome{Verdict: verdict.JE, Scored: o.Scored, Message: msg}
}

// aggregate is a group's outcome from its children's: a judge error if any
// child has one, else its grader's.
func (gr *legacyGrader) aggregate(g *Group, children []Outcome) (Outcome, error) {
	for _, c := range children {
		if c.Verdict == verdict.JE {
			return c, nil
		}
	}
	var o Outcome
	if g.Settings.Grading == "custom" {
		if gr.custom == nil {
			return o, ErrNoGrader
		}
		var err error
		if o, err = gr.custom(g, children); err != nil {
			return o, err
		}
	} else {
		o = DefaultGrader(g.Settings.GraderFlags, children)
		if gr.partial && o.Verdict == verdict.JE {
			// the default grader's own failure (ignore_sample over more
			// than two results) may come of results to come that a
			// rejection would have cut off: it is not certain
			o.Verdict = verdict.AC
		}
	}
	o.Scored = gr.p.Type.Scoring
	if !o.Scored {
		o.Score = 0
	}
	// The grader does not say why; the last child with the group's
	// verdict does (problemtools' heuristic).
	for i := len(children) - 1; i >= 0 && o.Message == ""; i-- {
		if children[i].Verdict == o.Verdict {
			o.Message, o.Test = children[i].Message, children[i].Test
		}
	}
	return o, nil
}

// DefaultGrader is problemtools' default grader (support/default_grader):
// the verdict by worst_error (the default: the first of JE, RE, MLE, TLE,
// OLE, WA found, else AC), first_error or always_accept; the score by sum
// (the default), avg, min or max; ignore_sample keeps only the last of at
// most two results (secret's, at the root); accept_if_any_accepted accepts
// when any result is accepted. The last of conflicting flags wins, unknown
// flags are ignored. What the program would fail on (ignore_sample with
// more than two results, avg or min or max of none) is a JE. The score
// goes through the program's "%f" and back: rounded to six decimals.
func DefaultGrader(flags []string, children []Outcome) Outcome {
	if len(children) == 0 {
		return Outcome{Verdict: verdict.AC} // grade_group's shortcut
	}
	verdicts, score := "worst_error", "sum"
	ignoreSample, anyAccepted := false, false
	for _, f := range flags {
		switch f {
		case "worst_error", "no_errors", "first_error", "always_accept":
			verdicts = f
		case "sum", "avg", "min", "max":
			score = f
		case "ignore_sample":
			ignoreSample = true
		case "accept_if_any_accepted":
			anyAccepted = true
		}
	}
	if ignoreSample {
		if len(children) > 2 {
			return Outcome{Verdict: verdict.JE, Message: "the default grader's ignore_sample takes at most two results (sample and secret)"}
		}
		children = children[len(children)-1:]
	}
	o := Outcome{Verdict: aggregateVerdicts(verdicts, children)}
	if anyAccepted {
		for _, c := range children {
			if c.Verdict == verdict.AC {
				o.Verdict = verdict.AC
			}
		}
	}
	o.Score = aggregateScores(score, children)
	o.Score, _ = strconv.ParseFloat(strconv.FormatFloat(o.Score, 'f', 6, 64), 64)
	return o
}

// worstOrder is the default grader's worst_error order, worst first.
var worstOrder = []verdict.Verdict{verdict.JE, verdict.RE, verdict.MLE, verdict.TLE, verdict.OLE, verdict.WA}

func aggregateVerdicts(mode string, children []Outcome) verdict.Verdict {
	switch mode {
	case "always_accept":
		return verdict.AC
	case "first_error":
		return verdict.First(children, func(c Outcome) verdict.Verdict { return c.Verdict })
	}
	for _, w := range worstOrder {
		for _, c := range children {
			if c.Verdict == w {
				return w
			}
		}
	}
	return verdict.AC
}

func aggregateScores(mode string, children []Outcome) float64 {
	s := children[0].Score
	for _, c := range children[1:] {
		switch mode {
		case "min":
			s = math.Min(s, c.Score)
		case "max":
			s = math.Max(s, c.Score)
		default:
			s += c.Score
		}
	}
	if mode == "avg" {
		s /= float64(len(children))
	}
	return s
}

// BestScore is the score a fully accepted submission of a legacy or
// 2023-07 scoring problem gets: the top of data/'s range (the bottom with
// grading.objective: min); in 2025-09, secret's max_score. ok is false when
// that is infinite.
func (p *Package) BestScore() (best float64, ok bool) {
	if p.Groups == nil {
		return 0, false
	}
	if p.GroupRules == GroupRules2025 {
		s := p.Groups.Find("secret")
		if s == nil || s.Settings.Unbounded {
			return math.Inf(1), false
		}
		return s.Settings.MaxScore, true
	}
	r := p.Groups.Settings.Range
	best = r.Max
	if p.Objective == "min" {
		best = r.Min
	}
	return best, !math.IsInf(best, 0)
}

// fullyAccepted says whether a graded submission is accepted with the
// best score (problemtools' fully_accepted): any accepted one in a
// pass-fail problem.
func (p *Package) fullyAccepted(o Outcome) bool {
	if o.Verdict != verdict.AC {
		return false
	}
	if !p.Type.Scoring {
		return true
	}
	best, _ := p.BestScore()
	return o.Score == best
}

// grader2025 grades by the 2025-09 rules.
type grader2025 struct {
	p       *Package
	results Results
	out     *Grading
	je      *Outcome // the first judge error
}

// submission grades the whole tree: the verdict from every test, the score
// from secret's.
func (gr *grader2025) submission() Outcome {
	scoring := gr.p.Type.Scoring
	o := Outcome{Verdict: verdict.Unknown, Scored: scoring}
	var first *Outcome
	for _, top := range gr.p.Groups.subgroups() {
		tv, score := gr.group(top, top.Name == "secret" && scoring)
		if tv.Verdict != verdict.Unknown && (first == nil || first.Verdict == verdict.AC) {
			first = &tv
		}
		if top.Name == "secret" {
			o.Score = score
		}
	}
	if first != nil {
		o.Verdict, o.Message, o.Test = first.Verdict, first.Message, first.Test
	}
	if !scoring {
		o.Score = 0
	}
	if gr.je != nil {
		o.Verdict, o.Message, o.Test = verdict.JE, gr.je.Message, gr.je.Test
	}
	return o
}

// group grades g: the verdict of its first rejected test (AC when all that
// were run are accepted; Unknown when none was run) and, when scored, its
// score. It records g's outcome.
func (gr *grader2025) group(g *Group, scored bool) (Outcome, float64) {
	s := g.Settings
	if dep, v := gr.failedRequirement(g); dep != "" {
		o := Outcome{Verdict: v, Scored: scored, Message: fmt.Sprintf("not run: it requires %s, which is not passed", dep)}
		gr.out.Groups[g.Name] = o
		return o, 0
	}
	v := Outcome{Verdict: verdict.Unknown}
	allAC := true
	var scores []float64
	for _, it := range g.Items {
		var c Outcome
		var score float64
		if it.Group != nil {
			c, score = gr.group(it.Group, scored)
		} else {
			c, score = gr.test(g, it.Test, scored)
		}
		if c.Verdict != verdict.AC {
			allAC = false
		}
		if c.Verdict != verdict.Unknown && (v.Verdict == verdict.Unknown || v.Verdict == verdict.AC) {
			v.Verdict, v.Message, v.Test = c.Verdict, c.Message, c.Test
		}
		scores = append(scores, score)
	}
	o := Outcome{Verdict: v.Verdict, Message: v.Message, Test: v.Test, Scored: scored}
	if scored {
		o.Score = aggregate2025(s, allAC, scores)
		if !s.Unbounded && o.Score > s.MaxScore*(1+1e-9)+1e-9 {
			o = gr.judgeError(fmt.Sprintf("%s scores %s, over its max_score %s", groupLabel(g), formatScore(o.Score), formatScore(s.MaxScore)))
		}
	}
	gr.out.Groups[g.Name] = o
	return o, o.Score
}

func groupLabel(g *Group) string {
	if g.Name == "" {
		return "data"
	}
	return g.Name
}

func aggregate2025(s GroupSettings, allAC bool, scores []float64) float64 {
	switch s.Aggregation {
	case AggregateSum:
		sum := 0.0
		for _, x := range scores {
			sum += x
		}
		return sum
	case AggregateMin:
		if len(scores) == 0 {
			return 0
		}
		m := scores[0]
		for _, x := range scores[1:] {
			m = math.Min(m, x)
		}
		return m
	}
	if allAC && len(scores) > 0 {
		return s.MaxScore
	}
	return 0
}

// failedRequirement names the first group g requires whose tests did not
// all pass, with the verdict that failed it (WA for a test not run); ""
// when all did.
func (gr *grader2025) failedRequirement(g *Group) (string, verdict.Verdict) {
	for _, dep := range g.Settings.RequirePass {
		d := gr.p.Groups.Find(dep)
		if d == nil {
			return dep, verdict.WA
		}
		for _, t := range d.AllTests() {
			r, ok := gr.results(t)
			switch v := Verdict(r.Verdict); {
			case !ok:
				return dep, verdict.WA
			case v != verdict.AC:
				return dep, v
			}
		}
	}
	return "", verdict.AC
}

// test is one test's outcome and score in group g.
func (gr *grader2025) test(g *Group, t *Test, scored bool) (Outcome, float64) {
	r, ok := gr.results(t)
	if !ok {
		return Outcome{Verdict: verdict.Unknown, Scored: scored}, 0
	}
	o := Outcome{Verdict: Verdict(r.Verdict), Scored: scored, Message: r.Message, Test: t.Name}
	if o.Verdict == verdict.JE {
		gr.noteJE(o)
	}
	if scored && o.Verdict != verdict.JE {
		score, msg := testScore2025(g, t, r, o.Verdict)
		if msg != "" {
			o = gr.judgeError(t.Name + ": " + msg)
		} else {
			o.Score = score
		}
	}
	gr.out.Tests[t.Name] = o
	return o, o.Score
}

func (gr *grader2025) judgeError(msg string) Outcome {
	return gr.noteJE(Outcome{Verdict: verdict.JE, Message: msg, Scored: gr.p.Type.Scoring})
}

// noteJE keeps o, a judge error, as the grading's if it is the first.
func (gr *grader2025) noteJE(o Outcome) Outcome {
	if gr.je == nil {
		gr.je = &o
	}
	return o
}

// testScore2025 is a test's score by the 2025-09 rules, or the judge error
// its validator's feedback makes.
func testScore2025(g *Group, t *Test, r TestResult, v verdict.Verdict) (float64, string) {
	s := g.Settings
	max := scoreMax(g)
	if t.Config.Static && s.StaticValidation != nil {
		max = s.StaticValidation.Score
	}
	switch {
	case r.Score != nil && r.Multiplier != nil:
		return 0, "the validator wrote both score.txt and score_multiplier.txt"
	case v != verdict.AC && (r.Score != nil || r.Multiplier != nil):
		return 0, "the validator wrote a score for a test it did not accept"
	case v != verdict.AC:
		return 0, ""
	case s.Aggregation == AggregatePassFail && (r.Score != nil || r.Multiplier != nil):
		return 0, "the validator wrote a score in a pass-fail group"
	case s.Aggregation == AggregatePassFail:
		return 0, ""
	case math.IsInf(max, 1) && r.Multiplier != nil:
		return 0, "the validator wrote score_multiplier.txt in a group of unbounded score"
	case math.IsInf(max, 1) && r.Score == nil:
		return 0, "the group's score is unbounded, and the validator wrote no score.txt"
	case r.Multiplier != nil && !(*r.Multiplier >= 0 && *r.Multiplier <= 1):
		return 0, fmt.Sprintf("score_multiplier.txt holds %v, not a number from 0 to 1", *r.Multiplier)
	case r.Multiplier != nil:
		return *r.Multiplier * max, ""
	case r.Score != nil && !(*r.Score >= 0):
		return 0, fmt.Sprintf("score.txt holds %v, not a non-negative number", *r.Score)
	case r.Score != nil && *r.Score > max*(1+1e-9)+1e-9:
		return 0, fmt.Sprintf("score.txt holds %v, over the test's maximum %s", *r.Score, formatScore(max))
	case r.Score != nil:
		return *r.Score, ""
	}
	return max, ""
}

// Unneeded says which tests can no longer change the grading's outcome
// (the submission's verdict and score) whatever the tests still to come
// give, so that a lazy grading need not run them. results gives the
// results known so far (ok); every other test is still to come, with any
// result but a judge error (a grading that skips a test cannot know that
// its validator would have failed). A test left unneeded is then graded
// as not run. The answer only grows as results become known: a test
// unneeded now stays unneeded, so a grading may skip it at once.
//
// It asks the grading rules themselves, on the results so far:
//
//   - Legacy and 2023-07: the tests that Grade does not read when every
//     test to come is accepted (the results that make the fewest groups
//     stop), because an item before them in a group with on_reject: break
//     is certainly rejected, as far up as the groups' graders (those of
//     Grade) reject whatever the tests to come give. A custom grader is
//     not run: it may accept.
//   - 2025-09: the tests after a certainly rejected item of a group
//     (which fixes the group's verdict) whose score they cannot change
//     either (aggregate2025 gives the same with them at their best and at
//     their worst: a pass-fail or min group, or a score already fixed),
//     as far up as that holds; the tests of groups whose require_pass
//     certainly fails; but never a test that a requirement still reads.
//
// A problem without groups has none.
func (p *Package) Unneeded(results Results) map[string]bool {
	if p.Groups == nil {
		return nil
	}
	var needed map[*Test]bool
	if p.GroupRules == GroupRules2025 {
		needed = newNeed2025(p, results).needed()
	} else {
		needed = p.legacyReads(results)
	}
	out := map[string]bool{}
	for _, t := range p.Groups.AllTests() {
		if _, known := results(t); !known && !needed[t] {
			out[t.Name] = true
		}
	}
	return out
}

// legacyReads runs the legacy grading on the results so far, every test to
// come accepted, and returns the tests it read.
func (p *Package) legacyReads(results Results) map[*Test]bool {
	read := map[*Test]bool{}
	// the best a test to come may give: accepted, with a score where the
	// validator must write one
	best := TestResult{Verdict: verdict.AC}
	if p.Validation.ScoreRequired {
		best.Score = new(float64)
	}
	gr := &legacyGrader{
		p:   p,
		out: &Grading{Groups: map[string]Outcome{}, Tests: map[string]Outcome{}},
		results: func(t *Test) (TestResult, bool) {
			read[t] = true
			if r, ok := results(t); ok {
				return r, true
			}
			return best, true
		},
		// a custom grader may accept whatever its items gave
		custom:  func(*Group, []Outcome) (Outcome, error) { return Outcome{Verdict: verdict.AC}, nil },
		partial: true,
	}
	gr.group(p.Groups)
	return read
}

// need2025 finds the tests a 2025-09 grading still needs, given the results
// so far (see Unneeded).
type need2025 struct {
	p     *Package
	known Results
	gr    *grader2025 // the grading, with every test to come accepted
	reads []*Test     // the tests to come that failedRequirement read last

	spans map[any]span // of each test and group
	// what each group's requirements say: the group they fail (certainly),
	// and the tests to come they read on the way
	fails map[*Group]string
	reqs  map[*Group][]*Test
	need  map[*Test]bool
}

// span is what the results so far say of a test's or a group's outcome,
// whatever the tests to come give: rejected, it is certainly not
// accepted; accepted, certainly accepted; its score is in [lo, hi].
type span struct {
	rejected, accepted bool
	lo, hi             float64
}

func newNeed2025(p *Package, known Results) *need2025 {
	n := &need2025{p: p, known: known, spans: map[any]span{}, fails: map[*Group]string{}, reqs: map[*Group][]*Test{}, need: map[*Test]bool{}}
	n.gr = &grader2025{p: p, results: func(t *Test) (TestResult, bool) {
		if r, ok := known(t); ok {
			return r, true
		}
		n.reads = append(n.reads, t)
		return TestResult{Verdict: verdict.AC}, true
	}}
	return n
}

// needed returns the tests to come whose results may still change the
// outcome: the submission's verdict is its first rejected top group's, its
// score secret's.
func (n *need2025) needed() map[*Test]bool {
	scoring := n.p.Type.Scoring
	tops := n.p.Groups.subgroups()
	for _, top := range tops {
		n.groupSpan(top, top.Name == "secret" && scoring)
	}
	rejected := false
	for _, top := range tops {
		scored := top.Name == "secret" && scoring
		s := n.spans[top]
		n.visit(top, scored, !rejected || (scored && s.lo != s.hi))
		rejected = rejected || s.rejected
	}
	return n.need
}

// groupSpan computes the span of g and of everything below it, as
// grader2025.group grades them.
func (n *need2025) groupSpan(g *Group, scored bool) span {
	n.reads = nil
	dep, _ := n.gr.failedRequirement(g)
	n.fails[g], n.reqs[g] = dep, n.reads
	if dep != "" {
		s := span{rejected: true}
		n.spans[g] = s
		return s
	}
	kids := make([]span, len(g.Items))
	for i, it := range g.Items {
		if it.Group != nil {
			kids[i] = n.groupSpan(it.Group, scored)
		} else {
			kids[i] = n.testSpan(g, it.Test, scored)
		}
	}
	s := span{accepted: len(kids) > 0 && len(n.reqs[g]) == 0}
	for _, k := range kids {
		s.rejected = s.rejected || k.rejected
		s.accepted = s.accepted && k.accepted
	}
	if scored {
		s.lo, s.hi = n.scoreWith(g, kids, -1, false, false), n.scoreWith(g, kids, -1, true, true)
		if len(n.reqs[g]) > 0 {
			s.lo = 0 // the requirement may fail yet
		}
	}
	n.spans[g] = s
	return s
}

// testSpan is a test's span in group g, as grader2025.test grades it.
func (n *need2025) testSpan(g *Group, t *Test, scored bool) span {
	r, ok := n.known(t)
	if !ok {
		var s span
		if scored {
			// the most an accepted test may score; a group of unbounded
			// score takes any score.txt
			max, msg := testScore2025(g, t, TestResult{Verdict: verdict.AC}, verdict.AC)
			if msg != "" {
				max = math.Inf(1)
			}
			s.hi = max
		}
		n.spans[t] = s
		return s
	}
	v := Verdict(r.Verdict)
	s := span{rejected: v != verdict.AC, accepted: v == verdict.AC}
	if scored && v != verdict.JE {
		if score, msg := testScore2025(g, t, r, v); msg != "" {
			s = span{rejected: true} // a judge error
		} else {
			s.lo, s.hi = score, score
		}
	}
	n.spans[t] = s
	return s
}

// scoreWith is g's score by aggregate2025 with item i at its best (iHigh)
// or at its worst (rejected, its least score), and every other item at its
// best (high) or worst; i < 0: every item at high.
func (n *need2025) scoreWith(g *Group, kids []span, i int, high, iHigh bool) float64 {
	scores := make([]float64, len(kids))
	allAC := true
	for k, c := range kids {
		h := high
		if k == i {
			h = iHigh
		}
		if h {
			scores[k] = c.hi
			allAC = allAC && !c.rejected
		} else {
			scores[k] = c.lo
			allAC = allAC && c.accepted
		}
	}
	return aggregate2025(g.Settings, allAC, scores)
}

// visit marks the tests to come below g that its outcome may still rest
// on, when g's outcome matters: those its requirements read, and those of
// each item that may still change g's verdict (none after a certainly
// rejected item) or its score.
func (n *need2025) visit(g *Group, scored, matters bool) {
	if !matters {
		return
	}
	for _, t := range n.reqs[g] {
		n.need[t] = true
	}
	if n.fails[g] != "" {
		return // not graded: its requirement failed
	}
	kids := make([]span, len(g.Items))
	for i, it := range g.Items {
		if it.Group != nil {
			kids[i] = n.spans[it.Group]
		} else {
			kids[i] = n.spans[it.Test]
		}
	}
	rejected := false
	for i, it := range g.Items {
		m := !rejected || scored && !n.fixed(g, kids, i)
		if it.Group != nil {
			n.visit(it.Group, scored, m)
		} else if _, known := n.known(it.Test); m && !known {
			n.need[it.Test] = true
		}
		rejected = rejected || kids[i].rejected
	}
}

// fixed says whether g's score is the same whatever item i gives, the
// other items at their best or at their worst (aggregate2025 is monotone
// in each item's score and acceptance, so these bound it).
func (n *need2025) fixed(g *Group, kids []span, i int) bool {
	for _, others := range []bool{true, false} {
		lo := n.scoreWith(g, kids, i, others, false)
		hi := n.scoreWith(g, kids, i, others, true)
		if lo != hi {
			return false
		}
	}
	return true
}
