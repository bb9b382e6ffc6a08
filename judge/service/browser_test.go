package service

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/chromedp"

	"github.com/optjudge/optjudge/judge/sandbox"
)

// The browser tests drive headless Chromium (Debian's chromium, which
// .ci/run installs) against the service on loopback, with a real worker.
// They skip when there is no Chromium.

var screenshots = flag.Bool("screenshots", false, "TestScreenshots writes the README's screenshots to docs/")

// chromium finds the browser or skips the test.
func chromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"/usr/bin/chromium", "chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Skip("no Chromium: install Debian's chromium (apt-get install chromium; .ci/run does) to run the browser tests")
	return ""
}

// browser is one browser context (its own cookies) of a headless Chromium,
// with the console messages of its pages.
type browser struct {
	t    *testing.T
	ctx  context.Context
	base string

	mu      sync.Mutex
	console []chromedp.ConsoleMessage
	allowed []string // URLs whose failed loads are expected (403 and 404 pages)
}

// step bounds every wait of a test: generous, for a loaded machine.
const step = 3 * time.Minute

func newBrowser(t *testing.T, base string, width, height int) *browser {
	exe := chromium(t)
	dir := t.TempDir()
	alloc, cancel := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(exe), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck, chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true), chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("disable-extensions", true), chromedp.Flag("disable-features", "Translate,MediaRouter,OptimizationHints"),
		chromedp.Flag("hide-scrollbars", true), chromedp.Flag("force-color-profile", "srgb"),
		chromedp.UserDataDir(dir), chromedp.WindowSize(width, height),
		// its singleton socket directory (org.chromium.Chromium.*) goes in
		// the test's directory, not the machine's /tmp
		chromedp.Env("TMPDIR="+dir))
	t.Cleanup(func() {
		cancel()
		// Chromium's children may still write in the directory a moment
		for range 50 {
			if os.RemoveAll(dir) == nil {
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
	})
	ctx, cancelCtx := chromedp.NewContext(alloc)
	t.Cleanup(cancelCtx)
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("starting %s: %v", exe, err)
	}
	b := &browser{t: t, ctx: ctx, base: base}
	b.listen()
	return b
}

// other is a second browser context, with cookies of its own.
func (b *browser) other() *browser {
	ctx, cancel := chromedp.NewContext(b.ctx, chromedp.WithNewBrowserContext())
	b.t.Cleanup(cancel)
	if err := chromedp.Do(ctx); err != nil {
		b.t.Fatal(err)
	}
	o := &browser{t: b.t, ctx: ctx, base: b.base}
	o.listen()
	return o
}

func (b *browser) listen() {
	msgs := chromedp.Console(b.ctx)
	go func() {
		for m, err := range msgs {
			if err != nil {
				return
			}
			b.mu.Lock()
			b.console = append(b.console, m)
			b.mu.Unlock()
		}
	}()
	b.t.Cleanup(b.checkConsole)
}

// allow expects a failed load of the page at path (a 403 or 404 page).
func (b *browser) allow(path string) {
	b.mu.Lock()
	b.allowed = append(b.allowed, b.base+path)
	b.mu.Unlock()
}

// checkConsole fails the test on any error or warning its pages wrote
// (a script's exception, a refused policy, a failed load), but the failed
// loads it expected.
func (b *browser) checkConsole() {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, m := range b.console {
		if m.Type != chromedp.ConsoleError && m.Type != chromedp.ConsoleWarning && !m.IsException() {
			continue
		}
		expected := false
		for _, a := range b.allowed {
			expected = expected || (m.URL == a && strings.Contains(m.Text, "Failed to load resource"))
		}
		if !expected {
			b.t.Errorf("console %s at %s: %s", m.Type, m.URL, m.Text)
		}
	}
}

// do runs actions with a bound.
func (b *browser) do(actions ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, step)
	defer cancel()
	if err := chromedp.Do(ctx, actions...); err != nil {
		b.t.Fatal(err)
	}
}

// eval evaluates a JavaScript expression.
func eval[T any](b *browser, js string) T {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, step)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](js))
	if err != nil {
		b.t.Fatalf("%s: %v", js, err)
	}
	return v
}

// wait polls a JavaScript condition until it holds; a navigation in
// between only means another try.
func (b *browser) wait(what, js string) {
	b.t.Helper()
	deadline := time.Now().Add(step)
	var err error
	for time.Now().Before(deadline) {
		ctx, cancel := context.WithTimeout(b.ctx, 10*time.Second)
		var ok bool
		ok, err = chromedp.Run(ctx, chromedp.Evaluate[bool]("(() => { try { return !!("+js+") } catch (e) { return false } })()"))
		cancel()
		if err == nil && ok {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	text, _ := chromedp.Run(b.ctx, chromedp.Evaluate[string](`document.body ? document.body.innerText : ""`))
	b.t.Fatalf("waiting for %s (%s): %v\nthe page says:\n%s", what, js, err, text)
}

func (b *browser) text(sel string) string {
	b.t.Helper()
	return eval[string](b, fmt.Sprintf(`(document.querySelector(%q) || {}).innerText || ""`, sel))
}

func (b *browser) open(path string) {
	b.t.Helper()
	b.do(chromedp.Navigate(b.base + path))
}

func (b *browser) login(token string) {
	b.t.Helper()
	b.open("/")
	b.wait("the login page", `location.pathname === "/login" && !!document.getElementById("token")`)
	b.do(chromedp.SendKeys(chromedp.ID("token"), token), chromedp.Click(chromedp.CSS(`form.login button[type="submit"]`)))
	b.wait("the list after login", `location.pathname === "/" && !!document.getElementById("subs")`)
}

// submitFile sends a file of testdata/ from the submit page and waits
// for its page.
func (b *browser) submitFile(problem, file string) string {
	b.t.Helper()
	abs, err := filepath.Abs(filepath.Join("testdata", file))
	if err != nil {
		b.t.Fatal(err)
	}
	return b.submitPath(problem, abs)
}

// submitPath sends the Python file at abs from the submit page and waits
// for its page.
func (b *browser) submitPath(problem, abs string) string {
	b.t.Helper()
	b.open("/submit?problem=" + problem)
	b.do(chromedp.WaitVisible(chromedp.ID("file")), chromedp.SetUploadFiles(chromedp.ID("file"), []string{abs}))
	b.wait("the language hint", `document.getElementById("lang-hint").innerText.includes("python")`)
	return b.send()
}

// submitPasted pastes source into the submit page and sends it.
func (b *browser) submitPasted(problem, filename, source string) string {
	b.t.Helper()
	b.open("/submit?problem=" + problem)
	b.do(chromedp.WaitVisible(chromedp.ID("source")), chromedp.SetValue(chromedp.ID("source"), source),
		chromedp.SendKeys(chromedp.ID("filename"), filename))
	return b.send()
}

func (b *browser) send() string {
	b.t.Helper()
	b.do(chromedp.Click(chromedp.CSS(`#submit-form button[type="submit"]`)))
	b.wait("the submission's page", `location.pathname.startsWith("/s/") && !!document.getElementById("status")`)
	return strings.TrimPrefix(eval[string](b, `location.pathname`), "/s/")
}

// browserEnv is the service with tokens, an engine for workers started
// and stopped by the test, and an admin logged in.
func browserEnv(t *testing.T, width, height int) (*env, Engine, *browser) {
	chromium(t)
	e := newEnv(t, envOpts{tokens: pageTokens})
	eng := newEngine(t, false)
	b := newBrowser(t, e.http.URL, width, height)
	b.login(pageTokens[2].Token)
	return e, eng, b
}

// gradeLive checks that the open submission's page waits in the queue,
// then turns to want by itself once a worker runs, without a reload.
func gradeLive(t *testing.T, e *env, eng Engine, b *browser, want string) {
	t.Helper()
	b.wait("the queued state", `document.getElementById("status").dataset.state === "queued"`)
	eval[bool](b, `window.stillHere = true`)
	wk := e.startWorker("w-"+want, eng)
	defer wk.halt()
	b.wait("the verdict", `document.getElementById("status").dataset.state === "done"`)
	if !eval[bool](b, `window.stillHere === true`) {
		t.Error("the page was loaded again")
	}
	if got := b.text("#state"); !strings.Contains(got, want) {
		t.Errorf("the verdict: got %q, want %s", got, want)
	}
}

// checkFailure checks the first failing test's message and drawing.
func checkFailure(t *testing.T, b *browser, message, alt string) {
	t.Helper()
	if b.text("#f-test") == "" || !strings.Contains(b.text("#f-msg"), message) {
		t.Errorf("the failing test: got %q with %q, want a test and %q", b.text("#f-test"), b.text("#f-msg"), message)
	}
	b.wait("the drawing", `(() => { const i = document.getElementById("f-img"); return !document.getElementById("f-figure").hidden && i.complete && i.naturalWidth > 100 })()`)
	if got := eval[string](b, `document.getElementById("f-img").alt`); !strings.Contains(got, alt) {
		t.Errorf("the drawing's text: got %q, want %q in it", got, alt)
	}
}

func TestBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: grades live in Chromium, lists, rejudges, logs in; TestBrowserStatementMath drives a page in Chromium")
	}
	e, eng, admin := browserEnv(t, 1200, 900)

	ac := admin.submitFile("clocks", "clocks_ac.py")
	gradeLive(t, e, eng, admin, "AC")
	if rows := eval[int](admin, `document.querySelectorAll("#tests tbody tr").length`); rows < 2 {
		t.Errorf("AC: got %d test rows, want every test", rows)
	}
	if !eval[bool](admin, `document.getElementById("failure").hidden`) {
		t.Error("AC: the failure section shows")
	}

	long := admin.submitFile("clocks", "clocks_long.py")
	gradeLive(t, e, eng, admin, "WA")
	checkFailure(t, admin, "8 moves", "optimal (4 moves): 4 5 8 9")

	// the statement follows the problem chosen, its samples drawn
	admin.open("/submit?problem=clocks")
	eval[bool](admin, `(() => { const s = document.getElementById("problem"); s.value = "rotation-game"; s.dispatchEvent(new Event("change")); return true })()`)
	admin.wait("the rotation game's statement", `document.querySelector("#statement h2").innerText.startsWith("The Rotation Game") && location.search === "?problem=rotation-game"`)
	admin.wait("the sample drawings", `document.querySelectorAll("#statement img").length > 0`)
	eval[bool](admin, `(() => { document.querySelectorAll("#statement img").forEach((i) => { i.loading = "eager" }); return true })()`) // lazy, off screen
	admin.wait("the sample drawings loaded", `Array.from(document.querySelectorAll("#statement img")).every((i) => i.complete && i.naturalWidth > 100)`)

	eight := admin.submitPasted("eight-puzzle", "eight.py", readFile(t, "eight_wrong.py"))
	gradeLive(t, e, eng, admin, "WA")
	checkFailure(t, admin, "case 1", "after 2 moves: ll")

	// the list, live: a new submission comes in queued, then gets its verdict
	admin.open("/")
	admin.wait("the list", `document.querySelectorAll("#subs tbody tr").length === 3`)
	for id, want := range map[string]string{ac: "AC", long: "WA", eight: "WA"} {
		if got := admin.text(`tr[data-id="` + id + `"] td.status`); !strings.Contains(got, want) {
			t.Errorf("the list's %s: got %q, want %s", id, got, want)
		}
	}
	eval[bool](admin, `window.stillHere = true`)
	e.token = pageTokens[2].Token
	fresh := e.submit("clocks", "wa.py", readFile(t, "wa.py"))
	row := `document.querySelector('tr[data-id="` + fresh + `"] td.status')`
	admin.wait("the new row", row+` !== null && `+row+`.innerText.includes("queued")`)
	wk := e.startWorker("w-list", eng)
	admin.wait("the new row's verdict", row+`.innerText.includes("WA")`)
	if !eval[bool](admin, `window.stillHere === true`) {
		t.Error("the list was loaded again")
	}
	admin.open("/?verdict=AC")
	if n := eval[int](admin, `document.querySelectorAll("#subs tbody tr").length`); n != 1 {
		t.Errorf("the list of AC: got %d rows, want 1", n)
	}

	// the queue, and a rejudge of clocks
	admin.open("/queue")
	admin.wait("the worker", `document.getElementById("workers").innerText.includes("w-list")`)
	if got := admin.text("#q-queued"); got != "0" {
		t.Errorf("queued: got %q, want 0", got)
	}
	admin.do(chromedp.Click(chromedp.CSS(`button[aria-label="Rejudge clocks"]`)))
	admin.wait("the rejudge", `location.pathname.startsWith("/queue/rejudges/clocks/") && document.getElementById("rj-progress").innerText.startsWith("3 of 3")`)
	if got := admin.text("#changes-empty"); got != "No verdict changed." {
		t.Errorf("the rejudge: got %q, want no change", got)
	}
	wk.halt()

	// a contestant: their own list, 403 on the admin's pages, 404 on others'
	alice := admin.other()
	alice.login(pageTokens[0].Token)
	if n := eval[int](alice, `document.querySelectorAll("#subs tbody tr").length`); n != 0 {
		t.Errorf("alice's list: got %d rows, want none", n)
	}
	if eval[bool](alice, `!!document.querySelector('a[href="/queue"]')`) {
		t.Error("alice's menu links the queue")
	}
	for path, want := range map[string]string{"/queue": "403 Forbidden", "/s/" + ac: "404 Not Found"} {
		alice.allow(path)
		alice.open(path)
		if got := alice.text("h1"); got != want {
			t.Errorf("alice at %s: got %q, want %q", path, got, want)
		}
	}
	mine := alice.submitFile("clocks", "wa.py")
	wk = e.startWorker("w-alice", eng)
	alice.wait("alice's verdict", `document.getElementById("status").dataset.state === "done"`)
	wk.halt()
	checkFailure(t, alice, "", "start: 3 3 0")
	alice.open("/")
	if got := alice.text(`tr[data-id="` + mine + `"] td.status`); !strings.Contains(got, "WA") {
		t.Errorf("alice's list: got %q, want her WA", got)
	}
}

// TestScreenshots writes the README's screenshots: go test
// ./judge/service -run TestScreenshots -screenshots.
func TestScreenshots(t *testing.T) {
	if !*screenshots {
		t.Skip("writes docs/*.png only with -screenshots")
	}
	e, eng, b := browserEnv(t, 1280, 860)
	wk := e.startWorker("w1", eng)
	b.submitFile("clocks", "clocks_ac.py")
	b.wait("AC", `document.getElementById("status").dataset.state === "done"`)
	b.submitPasted("eight-puzzle", "eight.py", readFile(t, "eight_wrong.py"))
	b.wait("WA", `document.getElementById("status").dataset.state === "done"`)
	long := b.submitFile("clocks", "clocks_long.py")
	b.wait("WA", `document.getElementById("status").dataset.state === "done"`)
	checkFailure(t, b, "8 moves", "optimal")

	shot := func(name string, full bool) {
		t.Helper()
		b.wait("the images", `Array.from(document.images).every((i) => i.complete)`)
		var png []byte
		var err error
		ctx, cancel := context.WithTimeout(b.ctx, step)
		defer cancel()
		if full {
			png, err = chromedp.Run(ctx, chromedp.FullScreenshot(100))
		} else {
			png, err = chromedp.Run(ctx, chromedp.CaptureScreenshot())
		}
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join("..", "..", "docs", name), png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	b.open("/queue")
	b.wait("the worker", `document.getElementById("workers").innerText.includes("w1")`)
	shot("pages-queue.png", false)
	wk.halt()
	e.token = pageTokens[2].Token
	e.submit("rotation-game", "sol.py", "print(1)\n") // stays queued: no worker
	b.open("/")
	shot("pages-list.png", false)
	b.open("/s/" + long)
	shot("pages-submission.png", true)
	b.open("/submit?problem=clocks")
	shot("pages-submit.png", false)
	b.do(chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile))
	b.open("/s/" + long)
	shot("pages-submission-phone.png", false)
}

// download clicks the link sel and returns the file the browser saved.
func (b *browser) download(sel string) []byte {
	b.t.Helper()
	dir := b.t.TempDir()
	done := make(chan cdpbrowser.EventDownloadProgress, 16)
	if err := chromedp.ListenBrowser(b.ctx, func(ev any) {
		if p, ok := ev.(*cdpbrowser.EventDownloadProgress); ok && p.State != cdpbrowser.DownloadProgressStateInProgress {
			select {
			case done <- *p:
			default:
			}
		}
	}); err != nil {
		b.t.Fatal(err)
	}
	on := true
	if _, err := chromedp.CallBrowser(b.ctx, cdpbrowser.SetDownloadBehavior, cdpbrowser.SetDownloadBehaviorParams{
		Behavior: cdpbrowser.SetDownloadBehaviorBehaviorAllowAndName, DownloadPath: dir, EventsEnabled: &on}); err != nil {
		b.t.Fatal(err)
	}
	b.clickJS(sel)
	select {
	case p := <-done:
		if p.State != cdpbrowser.DownloadProgressStateCompleted {
			b.t.Fatalf("the download of %s: %s", sel, p.State)
		}
		data, err := os.ReadFile(filepath.Join(dir, p.GUID))
		if err != nil {
			b.t.Fatal(err)
		}
		return data
	case <-time.After(step):
		b.t.Fatalf("the download of %s did not end in %v", sel, step)
	}
	return nil
}

// clickJS clicks the element sel from the page's script: right after a
// navigation, chromedp's Click may look for the node in the document
// before (a busy machine made it "Could not find node with given id").
func (b *browser) clickJS(sel string) {
	b.t.Helper()
	b.wait(sel, fmt.Sprintf(`!!document.querySelector(%q)`, sel))
	eval[bool](b, fmt.Sprintf(`(() => { document.querySelector(%q).click(); return true })()`, sel))
}

// TestBrowserProblems: a contestant reads the contest's problem set in its
// order and colours, a problem's statement in two languages and its
// sample interaction, downloads an attachment, and the submit page offers
// only the problem's languages.
func TestBrowserProblems(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: reads a problem set and statements in Chromium; TestBrowserStatementMath drives a page in Chromium")
	}
	chromium(t)
	e := newEnv(t, envOpts{tokens: pageTokens, problems: contestDir(t)})
	b := newBrowser(t, e.http.URL, 1200, 900)
	b.login(pageTokens[0].Token)

	b.open("/problems")
	b.wait("the problem set", `document.querySelectorAll("#contest-problems tbody tr").length === 2`)
	if got := b.text("#contest-problems tbody tr"); !strings.Contains(got, "A") || !strings.Contains(got, "Hello") {
		t.Errorf("the first problem: got %q, want A: Hello", got)
	}
	if got := eval[string](b, `getComputedStyle(document.querySelector("#contest-problems .label-hello")).backgroundColor`); got != "rgb(255, 113, 9)" {
		t.Errorf("hello's label: got %s, want the colour of problems.yaml", got)
	}
	b.clickJS(`#contest-problems a[href="/problems/hello"]`)
	b.wait("the statement", `location.pathname === "/problems/hello" && !!document.querySelector("#statement .md strong")`)
	if got := b.text("#statement .md"); !strings.Contains(got, "Say hello.") || strings.Contains(got, "<script") {
		t.Errorf("the statement: got %q", got)
	}
	if n := eval[int](b, `document.querySelectorAll("#statement script, #statement .md img:not([alt='A figure'])").length`); n != 0 {
		t.Errorf("the statement made %d elements of its source's HTML", n)
	}
	b.wait("the statement's picture", `(() => { const i = document.querySelector("#statement .md img[alt='A figure']"); return i && i.complete && i.naturalWidth === 1 })()`)
	if got := b.text("#statement .interaction"); !strings.Contains(got, "ping") || !strings.Contains(got, "pong") {
		t.Errorf("the sample interaction: got %q", got)
	}
	b.clickJS(`a[hreflang="nl"]`)
	b.wait("the Dutch statement", `location.search === "?lang=nl" && document.querySelector("#statement .md").innerText.includes("Zeg hallo")`)

	if got := string(b.download(`#attachments a[href$="testing_tool.py"]`)); got != "print('a tool')\n" {
		t.Errorf("the attachment: got %q", got)
	}

	// the submit page: hello takes Python 3 only; clocks takes all
	b.clickJS("#submit-link")
	// complete: the page's script (deferred) has run and listens for the
	// problem's change; the form is there while the page is still parsed
	b.wait("the submit page", `location.pathname === "/submit" && !!document.getElementById("language") && document.readyState === "complete"`)
	offered := `Array.from(document.getElementById("language").options).filter((o) => o.value && !o.hidden).map((o) => o.value).join(" ")`
	if got := eval[string](b, offered); got != "python3 cpython3" {
		t.Errorf("the languages of hello: got %q", got)
	}
	eval[bool](b, `(() => { const s = document.getElementById("problem"); s.value = "clocks"; s.dispatchEvent(new Event("change")); return true })()`)
	b.wait("the clocks' statement", `document.querySelector("#statement h2").innerText.includes("Clocks")`)
	if got := eval[string](b, offered); !strings.Contains(got, "cpp") || !strings.Contains(got, "python3") {
		t.Errorf("the languages of clocks: got %q, want all", got)
	}
}

// TestBrowserUploads: issue 23's whole path in a browser. An admin
// uploads two real packages from the problem set page's form: a legacy
// Kattis package with a C++ output validator (sum-kattis, its LaTeX
// statement) and a 2025-09 interactive package whose interactor builds
// with its own script (guess-interactive, its Markdown statement and a
// sample interaction), each with an attachment added. A contestant finds
// them in the problem set, reads each statement, downloads each
// attachment (the same bytes), and sends an accepted and a wrong Python
// solution to each from the submit page; each page turns to AC or WA by
// itself once a worker, which builds the problems' programs from the
// packages in NATS and runs them in boxes, grades it. (Limits of 10 s:
// the solutions are quick; no verdict depends on the machine's speed.)
func TestBrowserUploads(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: a contest's jury and contestant in Chromium; TestBrowserStatementMath drives a page in Chromium")
	}
	chromium(t)
	for _, tool := range []string{"g++", "cc"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed: the packages' validator and interactor cannot be built", tool)
		}
	}
	e := newEnv(t, envOpts{tokens: pageTokens})
	eng := newEngine(t, false)
	if eng.Isolation() == sandbox.IsolationNone {
		t.Skip("isolation none (no namespaces here): the packages' programs would not be contained")
	}

	validated := copyPackage(t, "../../problems/sum-kattis")
	if _, err := os.Stat(filepath.Join(validated, "output_validators/split/split.cpp")); err != nil {
		t.Fatalf("sum-kattis, the package with a C++ output validator: %v", err)
	}
	writeProblemFile(t, validated, ".timelimit", "10\n")
	digits := make([]byte, 256) // every byte, for a download that must come back as it is
	for i := range digits {
		digits[i] = byte(i)
	}
	writeProblemFile(t, validated, "attachments/bytes.bin", string(digits))
	interactive := copyPackage(t, "../../problems/testdata/guess-interactive")
	spec, err := os.ReadFile(filepath.Join(interactive, "problem.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	roomy := strings.Replace(string(spec), "time_limit: 1\n", "time_limit: 10\n", 1)
	if roomy == string(spec) {
		t.Fatalf("guess-interactive's problem.yaml: no time limit of 1 s to raise:\n%s", spec)
	}
	writeProblemFile(t, interactive, "problem.yaml", roomy)
	tool := "#!/usr/bin/env python3\n# Plays the judge: python3 testing_tool.py X -- ./solution\nimport sys\n"
	writeProblemFile(t, interactive, "attachments/testing_tool.py", tool)

	// the contestant in the first browser context (downloads are allowed
	// there), the admin in a second
	alice := newBrowser(t, e.http.URL, 1200, 900)
	alice.login(pageTokens[0].Token)
	admin := alice.other()
	admin.login(pageTokens[2].Token)

	// the admin uploads each package from the problem set page
	archives := t.TempDir()
	for _, root := range []string{validated, interactive} {
		name := filepath.Base(root)
		file := filepath.Join(archives, name+".tar.gz")
		if err := os.WriteFile(file, tarGz(t, root), 0o644); err != nil {
			t.Fatal(err)
		}
		admin.open("/problems")
		admin.do(chromedp.WaitVisible(chromedp.ID("package")), chromedp.SetUploadFiles(chromedp.ID("package"), []string{file}))
		admin.clickJS(`#upload-form button[type="submit"]`)
		admin.wait("the page of the problem uploaded", fmt.Sprintf(`location.pathname === "/problems/%s" && !!document.querySelector("#statement .md")`, name))
	}

	for _, pk := range []struct {
		root, title, statement string
		attachment             string
		data                   []byte
		ac, wa                 string
	}{
		{validated, "Split the Sum", "neither of which contains the digit 4", "bytes.bin", digits,
			"accepted/digits.py", "wrong_answer/zero_and_n.py"},
		{interactive, "Hidden Number", "Find it with at most", "testing_tool.py", []byte(tool),
			"accepted/bisect.py", "wrong_answer/linear.py"},
	} {
		name := filepath.Base(pk.root)
		alice.open("/problems")
		alice.clickJS(`#other-problems a[href="/problems/` + name + `"]`)
		alice.wait(name+"'s statement", `location.pathname === "/problems/`+name+`" && !!document.querySelector("#statement .md")`)
		if got := alice.text("#statement h2"); !strings.Contains(got, pk.title) {
			t.Errorf("%s's title: got %q, want %q", name, got, pk.title)
		}
		if got := alice.text("#statement .md"); !strings.Contains(got, pk.statement) {
			t.Errorf("%s's statement: got %q, want %q in it", name, got, pk.statement)
		}
		link := `#attachments a[href="/problems/` + name + `/files/attachments/` + pk.attachment + `"]`
		if !eval[bool](alice, fmt.Sprintf(`!!document.querySelector(%q)`, link)) {
			t.Errorf("%s offers no attachment %s; its attachments: %q", name, pk.attachment, alice.text("#attachments"))
		} else if got := alice.download(link); !bytes.Equal(got, pk.data) {
			at := 0
			for at < min(len(got), len(pk.data)) && got[at] == pk.data[at] {
				at++
			}
			t.Errorf("%s's attachment %s: got %d bytes, want the package's %d; they differ from byte %d on", name, pk.attachment, len(got), len(pk.data), at)
		}

		for sub, want := range map[string]string{pk.ac: "AC", pk.wa: "WA"} {
			id := alice.submitPath(name, filepath.Join(pk.root, "submissions", sub))
			gradeLive(t, e, eng, alice, want)
			alice.open("/")
			if got := alice.text(`tr[data-id="` + id + `"] td.status`); !strings.Contains(got, want) {
				t.Errorf("alice's list, %s %s: got %q, want %s", name, sub, got, want)
			}
		}
	}
	// what the pages show of each package's statement beyond its text
	alice.open("/problems/sum-kattis")
	alice.wait("sum-kattis's LaTeX statement, its math typeset", `document.querySelector("#statement .md h2").innerText === "Input" &&
		document.querySelectorAll("#statement .md .katex").length > 3`)
	alice.open("/problems/guess-interactive")
	if got := alice.text("#statement .interaction"); !strings.Contains(got, "? 500") || !strings.Contains(got, "found") {
		t.Errorf("guess-interactive's sample interaction: got %q", got)
	}
}
