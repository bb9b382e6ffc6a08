package service

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBrowserContest runs a small contest in Chromium: the teams log in
// and see no problem before the start, the problems at the start; a WA,
// the first solve and a later solve move the scoreboard (its penalty
// time), a team asks a clarification that the jury answers to all, live;
// a solve in the freeze is pending on the teams' board and not on the
// jury's, until the jury unfreezes it after the end. With -screenshots it
// writes docs/contest-scoreboard.png.
func TestBrowserContest(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: a contest's scoreboard, clarifications and judging in Chromium; TestBrowserStatementMath drives a page in Chromium")
	}
	chromium(t)
	ce := newClicsEnv(t, true)
	jury := newBrowser(t, ce.http.URL, 1280, 860)
	jury.login(ce.password("jury"))
	team1 := jury.other()
	team1.login(ce.password("team1"))
	team2 := jury.other()
	team2.login(ce.password("team2"))

	team1.open("/problems")
	team1.wait("the contest's bar", `document.getElementById("contest-state").innerText.startsWith("starts in")`)
	if got := team1.text("main"); strings.Contains(got, "clocks") {
		t.Errorf("before the start, team 1's problem set shows clocks: %q", got)
	}
	ce.clock.Set(ce.start.Add(10 * time.Minute))
	team1.open("/problems")
	team1.wait("the problems at the start", `document.querySelector("main").innerText.includes("clocks")`)
	if got := team1.text("main"); strings.Contains(got, "rotation-game") {
		t.Errorf("a problem outside the contest is shown: %q", got)
	}
	team1.submitPasted("clocks", "sol.py", "text:1 2 3")
	team1.wait("WA", `document.getElementById("status").dataset.state === "done"`)
	ce.clock.Set(ce.start.Add(15 * time.Minute))
	team1.submitPasted("clocks", "sol.py", "ok")
	team1.wait("AC", `document.getElementById("status").dataset.state === "done" && document.getElementById("state").innerText.includes("AC")`)
	ce.clock.Set(ce.start.Add(20 * time.Minute))
	team2.submitPasted("clocks", "sol.py", "ok")
	team2.wait("AC", `document.getElementById("status").dataset.state === "done"`)

	team1.open("/scoreboard")
	row := func(team string) string {
		return `(document.querySelector('#scoreboard tr[data-team="` + team + `"]') || {innerText: ""}).innerText`
	}
	team1.wait("the board: t2 first on time, t1 with its penalty", `(() => { const r = document.querySelectorAll("#scoreboard tbody tr");
		return r.length === 3 && r[0].dataset.team === "t2" && r[1].dataset.team === "t1" && `+row("t1")+`.includes("35") })()`)
	if cls := eval[string](team1, `document.querySelector('#scoreboard tr[data-team="t1"] td.cell[data-problem="clocks"]').className`); !strings.Contains(cls, "first") {
		t.Errorf("t1's solve of clocks: got class %q, want the first solve's", cls)
	}

	team1.open("/clarifications")
	team1.do(chromedp.SetValue(chromedp.ID("clar-problem"), "clocks"), chromedp.SendKeys(chromedp.ID("clar-text"), "May a move turn two clocks?"),
		chromedp.Click(chromedp.ID("clar-send")))
	team1.wait("the question listed", `document.getElementById("clars").innerText.includes("May a move turn two clocks?")`)
	jury.open("/clarifications")
	jury.wait("the question, live", `!!document.querySelector("form.clar-reply textarea")`)
	jury.do(chromedp.SendKeys(chromedp.CSS("form.clar-reply textarea"), "No: one clock at a time."),
		chromedp.SetValue(chromedp.CSS(`form.clar-reply select[name="to"]`), ""),
		chromedp.Click(chromedp.CSS(`form.clar-reply button[type="submit"]`)))
	team2.open("/clarifications")
	team2.wait("the answer to all", `document.getElementById("clars").innerText.includes("No: one clock at a time.")`)
	team1.wait("the answer, live", `document.getElementById("clars").innerText.includes("No: one clock at a time.")`)
	if strings.Contains(team2.text("#clars"), "May a move turn two clocks?") {
		t.Error("team 2 sees team 1's question")
	}

	ce.clock.Set(ce.start.Add(95 * time.Minute)) // in the freeze
	team2.submitPasted("eight-puzzle", "sol.py", "ok")
	team2.wait("AC", `document.getElementById("status").dataset.state === "done"`)
	team1.open("/scoreboard")
	team1.wait("the frozen board: t2's solve pending", `!!document.getElementById("frozen-note") &&
		document.querySelector('#scoreboard tr[data-team="t2"] td.cell[data-problem="eight-puzzle"]').className.includes("pending")`)
	jury.open("/scoreboard")
	jury.wait("the jury's board: t2's solve", `document.querySelector('#scoreboard tr[data-team="t2"] td.cell[data-problem="eight-puzzle"]').className.match(/solved|first/)`)

	ce.clock.Set(ce.start.Add(2*time.Hour + time.Minute))
	jury.open("/scoreboard")
	jury.do(chromedp.Click(chromedp.ID("thaw")))
	jury.wait("the thawed board", `location.pathname === "/scoreboard" && !document.getElementById("thaw")`)
	team1.wait("the board thawed, live", `!document.getElementById("frozen-note") &&
		document.querySelector('#scoreboard tr[data-team="t2"] td.cell[data-problem="eight-puzzle"]').className.match(/solved|first/)`)
	if *screenshots {
		team1.do(chromedp.EmulateViewport(1100, 520))
		team1.open("/scoreboard")
		team1.wait("the board", `!!document.getElementById("scoreboard")`)
		ctx, cancel := context.WithTimeout(team1.ctx, step)
		defer cancel()
		png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join("..", "..", "docs", "contest-scoreboard.png"), png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestBrowserStatementMath shows a Markdown statement with math and a
// table in Chromium: the math typeset by KaTeX (its MathML beside), the
// table a table, no console error (the fonts come from the site). With
// -screenshots it writes docs/statement-math.png.
func TestBrowserStatementMath(t *testing.T) {
	chromium(t)
	dir := t.TempDir()
	for name, text := range map[string]string{
		"pairs/problem.yaml": "name: Pairs\n",
		"pairs/statement/problem.en.md": "Given $n$ integers $a_1, \\dots, a_n$ with $1 \\le n \\le 10^5$, count the pairs\n\n" +
			"$$\\#\\{(i, j) : i < j,\\ a_i + a_j \\equiv 0 \\pmod{m}\\}.$$\n\n## Input\n\n" +
			"The first line holds $n$ and $m$; the second the $a_i$ ($|a_i| \\le 10^9$).\n\n## Limits\n\n" +
			"| group | points | constraints |\n|:------|-------:|:-----------:|\n| 1 | 20 | $n \\le 100$ |\n| 2 | 80 | no more |\n",
		"pairs/data/sample/1.in":  "3 2\n1 3 4\n",
		"pairs/data/sample/1.ans": "1\n",
		"pairs/data/secret/1.in":  "1 1\n0\n",
		"pairs/data/secret/1.ans": "0\n",
	} {
		os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755)
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	e := newEnv(t, envOpts{problems: dir})
	b := newBrowser(t, e.http.URL, 1000, 700)
	b.open("/problems/pairs")
	b.wait("the math typeset", `document.querySelectorAll("#statement .md .katex").length >= 8 &&
		!!document.querySelector("#statement .md .katex-display") && document.fonts.status === "loaded"`)
	if got := b.text("#statement .md table"); !strings.Contains(got, "constraints") || !strings.Contains(got, "80") {
		t.Errorf("the table: got %q", got)
	}
	if got := eval[string](b, `document.querySelector("#statement .md .katex annotation").textContent`); got != "n" {
		t.Errorf("the first math's TeX: got %q, want n", got)
	}
	if *screenshots {
		ctx, cancel := context.WithTimeout(b.ctx, step)
		defer cancel()
		png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join("..", "..", "docs", "statement-math.png"), png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestBrowserRejudging rejudges a submission with a preview in
// Chromium: from the jury's submission page, the preview page follows
// the run until it is graded (Apply enabled only then), shows the old and
// the new verdict and the scoreboard line that would change; Apply makes
// the new verdict the team's, live on its board.
func TestBrowserRejudging(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: a rejudging's preview and Apply in Chromium; TestRejudgingPreview and TestRejudgingPages read them through the API and pages, TestBrowserStatementMath drives a page in Chromium")
	}
	chromium(t)
	ce := newClicsEnv(t, false)
	w := ce.startWorker("w1", scriptEngine{})
	flag := filepath.Join(t.TempDir(), "fixed")
	ce.clock.Set(ce.start.Add(10 * time.Minute))
	wa := ce.submitAs("team1", "clocks", "if-file:"+flag)
	ce.waitJudged(wa)
	w.halt() // the run waits until the preview page is open
	if err := os.WriteFile(flag, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	jury := newBrowser(t, ce.http.URL, 1280, 860)
	jury.login(ce.password("jury"))
	team := jury.other()
	team.login(ce.password("team1"))
	team.open("/scoreboard")
	team.wait("t1 without a solve", `document.querySelector('#scoreboard tr[data-team="t1"] td.cell[data-problem="clocks"]').className.includes("tried")`)

	jury.open("/s/" + wa)
	jury.do(chromedp.Click(chromedp.ID("rejudge-one")))
	jury.wait("the preview, its run queued", `location.pathname.startsWith("/rejudgings/") && document.getElementById("rj-state").dataset.pending === "1" &&
		document.getElementById("rj-apply").disabled`)
	ce.startWorker("w2", scriptEngine{})
	jury.wait("the run graded, live", `document.getElementById("rj-state").dataset.pending === "0" && !document.getElementById("rj-apply").disabled &&
		document.querySelector("#rj-rows tr.changed td.after").innerText.includes("AC") &&
		document.querySelector('#rj-board tr[data-team="t1"]').innerText.includes("0 → 1")`)
	if cls := eval[string](team, `document.querySelector('#scoreboard tr[data-team="t1"] td.cell[data-problem="clocks"]').className`); !strings.Contains(cls, "tried") {
		t.Errorf("the team's board before the apply: got %q, want the WA still", cls)
	}
	jury.do(chromedp.Click(chromedp.ID("rj-apply")))
	jury.wait("applied", `document.getElementById("rj-state").dataset.state === "applied"`)
	team.wait("the solve on the team's board, live", `document.querySelector('#scoreboard tr[data-team="t1"] td.cell[data-problem="clocks"]').className.match(/solved|first/)`)
}
