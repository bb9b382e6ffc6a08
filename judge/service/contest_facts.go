package service

import (
	"context"
	"encoding/json"
	"path"
	"strings"

	"github.com/optjudge/optjudge/judge/contest"
)

// facts are every object of the contest as the API shows it, each with
// its audience (see feed).
func (l *contestLayer) facts(ctx context.Context) []fact {
	var out []fact
	add := func(typ, id, who string, v any) {
		b, err := json.Marshal(v)
		if err == nil {
			out = append(out, fact{typ: typ, id: id, who: who, data: b})
		}
	}
	st, p := l.state()
	out = append(out, fact{typ: "contest", data: l.contestJSON()})
	for _, jt := range judgementTypes {
		add("judgement-types", jt.ID, "", jt)
	}
	for _, lang := range l.languages() {
		add("languages", lang["id"].(string), "", lang)
	}
	problemsWho := whoAdmin
	if st.Started != nil {
		problemsWho = ""
	}
	for i := range l.c.Problems {
		add("problems", l.c.Problems[i].ID, problemsWho, l.problemJSON(ctx, &l.c.Problems[i]))
	}
	for _, g := range l.c.Groups {
		add("groups", g.ID, "", g)
	}
	for _, o := range l.c.Organizations {
		add("organizations", o.ID, "", o)
	}
	for _, t := range l.c.Teams {
		who := ""
		if t.Hidden {
			who = whoAdmin
		}
		add("teams", t.ID, who, t)
	}
	for _, a := range l.c.Accounts {
		who := whoAdmin
		if a.TeamID != nil {
			who = whoTeam(*a.TeamID)
		}
		add("accounts", a.ID, who, accountJSON(a))
	}
	out = append(out, l.submissionFacts(ctx, p)...)
	out = append(out, l.clarFacts()...)
	for _, v := range []struct {
		who   string
		admin bool
	}{{whoPublic, false}, {whoAdmin, true}} {
		u := &User{Name: "public"}
		if v.admin {
			u = LocalAdmin
		}
		_, awards := l.awards(ctx, u)
		for _, a := range awards {
			b, _ := json.Marshal(a)
			out = append(out, fact{typ: "awards", id: a.ID, who: v.who, data: b, variant: map[bool]string{false: "public", true: ""}[v.admin]})
		}
	}
	b, _ := json.Marshal(stateJSON(st))
	out = append(out, fact{typ: "state", data: b})
	return out
}

// judgementType is an entry of judgement-types.
type judgementType struct {
	ID      string `json:"id"`
	Name    string `json:"name"`
	Penalty bool   `json:"penalty"`
	Solved  bool   `json:"solved"`
}

// judgementTypes are the verdicts of the judge as the spec names them.
var judgementTypes = []judgementType{
	{"AC", "Accepted", false, true}, {"WA", "Wrong Answer", true, false}, {"TLE", "Time Limit Exceeded", true, false},
	{"MLE", "Memory Limit Exceeded", true, false}, {"OLE", "Output Limit Exceeded", true, false},
	{"RTE", "Run-Time Error", true, false}, {"CE", "Compile Error", false, false}, {"JE", "Judging Error", false, false},
}

// entryPoint names the languages whose entry point the spec asks for.
var entryPoint = map[string]string{"java": "Main class", "kotlin": "Main class", "python3": "Main file", "python2": "Main file",
	"cpython3": "Main file", "pypy3": "Main file", "javascript": "Main file", "php": "Main file"}

// languages are the languages offered (see Server.offeredLanguages).
func (l *contestLayer) languages() []map[string]any {
	var out []map[string]any
	for _, lang := range l.s.offeredLanguages() {
		exts := []string{}
		for _, e := range lang.Extensions {
			exts = append(exts, strings.TrimPrefix(e, "."))
		}
		title := lang.Title
		if title == "" {
			title = lang.Name
		}
		m := map[string]any{"id": lang.Name, "name": title, "entry_point_required": false, "extensions": exts}
		if ep, ok := entryPoint[lang.Name]; ok {
			m["entry_point_required"], m["entry_point_name"] = true, ep
		}
		out = append(out, m)
	}
	return out
}

// problemJSON is a problem of the contest with what its package says.
func (l *contestLayer) problemJSON(ctx context.Context, e *contest.Problem) map[string]any {
	m := map[string]any{"id": e.ID, "label": e.Label, "name": e.Name, "ordinal": e.Ordinal, "test_data_count": 0}
	if e.RGB != "" {
		m["rgb"] = e.RGB
	}
	if e.Color != "" {
		m["color"] = e.Color
	}
	if p, err := l.s.cfg.Library.Current(ctx, e.ID); err == nil && p != nil {
		if m["name"] == "" {
			m["name"] = p.Title
		}
		m["time_limit"] = float64(p.Limits.Time.Milliseconds()) / 1000
		m["memory_limit"] = p.Limits.Memory.KiB() / 1024
		m["output_limit"] = p.Limits.Output.KiB() / 1024
		if c := p.Package.Submit.CodeLimit.KiB(); c > 0 {
			m["code_limit"] = c
		}
		if tests, err := p.Package.Tests(); err == nil {
			m["test_data_count"] = len(tests)
		}
	}
	if m["name"] == "" {
		m["name"] = e.ID
	}
	if l.c.ScoreboardType == contest.Score {
		m["max_score"] = 1.0
		if e.MaxScore != nil {
			m["max_score"] = *e.MaxScore
		}
	}
	return m
}

// submissionFacts are the submissions, their judgements and runs. A
// submission's files are its team's and the jury's; a judgement (and its
// runs) the freeze hides is its team's and the jury's until the thaw.
func (l *contestLayer) submissionFacts(ctx context.Context, p contest.Progress) []fact {
	var out []fact
	add := func(typ, id, who, variant string, v any) {
		b, _ := json.Marshal(v)
		out = append(out, fact{typ: typ, id: id, who: who, data: b, variant: variant})
	}
	for _, si := range l.submissions() {
		sub := &si.sub
		add("submissions", sub.ID, "except:"+si.team, "public", l.submissionJSON(sub, si.team, false))
		add("submissions", sub.ID, whoTeam(si.team), "", l.submissionJSON(sub, si.team, true))
		who := ""
		if l.c.FrozenFor(sub.CreatedAt, p) {
			who = whoTeam(si.team)
		}
		for i, ref := range sub.Judgings {
			out = append(out, l.judgementFacts(ctx, sub, ref, i == len(sub.Judgings)-1 && sub.State == StateDone, who)...)
		}
		if sub.State == StateRunning && (len(sub.Judgings) == 0 || sub.Judgings[len(sub.Judgings)-1].Request < sub.Request) {
			id := judgementID(sub.ID, sub.Request)
			add("judgements", id, who, "", map[string]any{"id": id, "submission_id": sub.ID, "current": true,
				"start_time": contest.FormatTime(sub.QueuedAt), "start_contest_time": contest.FormatRel(l.contestTime(sub.QueuedAt))})
		}
	}
	return out
}

// submissionJSON is a submission of team as the API shows it; with its
// files for its team and the jury (own).
func (l *contestLayer) submissionJSON(sub *Submission, team string, own bool) map[string]any {
	m := map[string]any{"id": sub.ID, "language_id": sub.Language, "problem_id": sub.Problem, "team_id": team,
		"time": contest.FormatTime(sub.CreatedAt), "contest_time": contest.FormatRel(l.contestTime(sub.CreatedAt)), "files": []any{}}
	if _, ok := entryPoint[sub.Language]; ok {
		m["entry_point"] = sub.Filename
		if sub.Language == "java" || sub.Language == "kotlin" {
			m["entry_point"] = strings.TrimSuffix(sub.Filename, path.Ext(sub.Filename))
		}
	}
	if own {
		m["files"] = []map[string]any{{"href": "contests/" + l.c.ID + "/submissions/" + sub.ID + "/files",
			"filename": "files.zip", "mime": "application/zip"}}
	}
	return m
}

func judgementID(sub string, request int) string { return sub + "-" + itoa(request) }

// judgementFacts are a finished judging and its runs.
func (l *contestLayer) judgementFacts(ctx context.Context, sub *Submission, ref JudgingRef, current bool, who string) []fact {
	b := l.feed.brief(ctx, sub, ref)
	id := judgementID(sub.ID, ref.Request)
	m := map[string]any{"id": id, "submission_id": sub.ID, "judgement_type_id": clicsVerdict(ref.Verdict), "current": current,
		"start_time": contest.FormatTime(ref.StartedAt), "start_contest_time": contest.FormatRel(l.contestTime(ref.StartedAt)),
		"end_time": contest.FormatTime(ref.FinishedAt), "end_contest_time": contest.FormatRel(l.contestTime(ref.FinishedAt)),
		"max_run_time": float64(b.maxTime) / 1000}
	if l.c.ScoreboardType == contest.Score {
		m["score"] = b.score
	}
	data, _ := json.Marshal(m)
	out := []fact{{typ: "judgements", id: id, who: who, data: data}}
	for i, t := range b.tests {
		rid := id + "-" + itoa(i+1)
		r := map[string]any{"id": rid, "judgement_id": id, "ordinal": i + 1, "judgement_type_id": clicsVerdict(t.Verdict),
			"time": contest.FormatTime(ref.FinishedAt), "contest_time": contest.FormatRel(l.contestTime(ref.FinishedAt)),
			"run_time": float64(t.TimeMS) / 1000}
		data, _ := json.Marshal(r)
		out = append(out, fact{typ: "runs", id: rid, who: who, data: data})
	}
	return out
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}
